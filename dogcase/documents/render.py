"""A filled document to HTML, and HTML to an archival PDF (WeasyPrint, PDF/A-3b).

Nothing is fetched while rendering: the stylesheet is ours, the fonts are the system's (DejaVu, from Debian's
fonts-dejavu-core, installed by scripts/system-packages.sh), and any URL in the HTML is refused. Every page's
footer carries the document's number, version and page, and its verification code with the /verify/<code> URL.
"""

from __future__ import annotations

import datetime as dt
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.template.loader import render_to_string

from dogcase.documents.fill import Draft, date_words

PDF_VARIANT = "pdf/a-3b"
STYLESHEET = Path(__file__).parent / "templates" / "documents" / "pdf.css"


class NoFetching(ValueError):
    pass


def _refuse(url: str, *args, **kwargs):  # noqa: ARG001
    raise NoFetching(f"documents fetch nothing while rendering (asked for {url[:80]!r})")


def verify_url(code: str) -> str:
    base = (getattr(settings, "DOGCASE_SITE_URL", "") or "").rstrip("/")
    return f"{base}/verify/{code}"


def _css_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


@lru_cache(maxsize=1)
def _base_css():
    from weasyprint import CSS
    from weasyprint.text.fonts import FontConfiguration

    fonts = FontConfiguration()
    return CSS(string=STYLESHEET.read_text(), font_config=fonts, url_fetcher=_refuse), fonts


def render_html(
    draft: Draft,
    *,
    number: str,
    version: int,
    code: str,
    issued_at: dt.datetime,
    replaces=None,
    reason: str = "",
) -> str:
    return render_to_string(
        "documents/pdf.html",
        {
            "d": draft,
            "number": number,
            "version": version,
            "code": code,
            "verify_url": verify_url(code),
            "issued_on": date_words(issued_at),
            "replaces": replaces,
            "reason": reason,
            "owner_facing": draft.audience == "owner",
        },
    )


def footer_css(*, number: str, version: int, code: str) -> str:
    left = _css_string(f"No. {number} · version {version} · page ")
    right = _css_string(f"Verification code {code} — {verify_url(code)}")
    return (
        "@page { @bottom-left { content: " + left + ' counter(page) " of " counter(pages); }'
        " @bottom-right { content: " + right + "; } }"
    )


def render_pdf(
    draft: Draft,
    *,
    number: str,
    version: int,
    code: str,
    issued_at: dt.datetime,
    replaces=None,
    reason: str = "",
) -> bytes:
    from weasyprint import CSS, HTML

    html = render_html(
        draft,
        number=number,
        version=version,
        code=code,
        issued_at=issued_at,
        replaces=replaces,
        reason=reason,
    )
    base, fonts = _base_css()
    footer = CSS(
        string=footer_css(number=number, version=version, code=code), font_config=fonts, url_fetcher=_refuse
    )
    attachments = []
    if getattr(draft, "calendar", ""):
        # the owner's hearing as a calendar file, embedded in the PDF (PDF/A-3 allows attached files)
        from weasyprint import Attachment

        attachments.append(
            Attachment(
                string=draft.calendar.encode("utf-8"),
                name="hearing.ics",
                description="The hearing, for a calendar",
                relationship="Supplement",
                url_fetcher=_refuse,
            )
        )
    return HTML(string=html, url_fetcher=_refuse).write_pdf(
        stylesheets=[base, footer],
        font_config=fonts,
        pdf_variant=PDF_VARIANT,
        uncompressed_pdf=False,
        attachments=attachments,
    )
