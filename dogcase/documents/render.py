"""A filled document to HTML, and HTML to an archival PDF (WeasyPrint, PDF/A-3b).

Nothing is fetched while rendering: the stylesheet is ours, the fonts are the system's (DejaVu for the text;
Noto for a name in another script — Debian's fonts-noto-core, fonts-noto-cjk and fonts-noto-color-emoji —
all installed by scripts/system-packages.sh), and any URL in the HTML is refused. Every page's footer carries
the document's number, version and page, and its verification code with the absolute /verify/<code> address
on the site's address (DOGCASE_SITE_URL, dogcase.owners.urls_util).

A document for an owner who reads another language (a Spanish document: the draft's `language`) keeps its legal
instrument English — its title and header lines, the pack's statements and their headings, the English lines of
"What happens next" — marked lang="en" in the HTML, with the explanation in the owner's language beside it (each
statement's heading in that language beside the English one, the box's lines, the explanation of the whole
document: dogcase.documents.owner). What dogcase prints around the instrument is in the owner's language only:
the block "Your case online" and its QR code's caption (dogcase.owners.notice.portal_words), the calendar note,
and the page footer. A document in English is rendered exactly as before: nothing is marked.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from functools import lru_cache
from pathlib import Path

from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, gettext_noop, pgettext

from dogcase.documents.fill import PLACEHOLDER, Draft, date_words
from dogcase.owners import notice
from dogcase.owners import urls_util as links

PDF_VARIANT = "pdf/a-3b"
STYLESHEET = Path(__file__).parent / "templates" / "documents" / "pdf.css"

# the page footer, in the document's language (the page numbers are the stylesheet's counters)
FOOTER_NUMBER = gettext_noop("No. %(number)s · version %(version)s · page %(page)s of %(pages)s")
FOOTER_CODE = gettext_noop("Verification code %(code)s — %(url)s")
_PAGE, _PAGES = "\x00page\x00", "\x00pages\x00"


class NoFetching(ValueError):
    pass


def _refuse(url: str, *args, **kwargs):  # noqa: ARG001
    raise NoFetching(f"documents fetch nothing while rendering (asked for {url[:80]!r})")


def verify_url(code: str) -> str:
    """The absolute /verify/<code> address on the site's one address (DOGCASE_SITE_URL)."""
    return links.verify_url(code)


def _css_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


@lru_cache(maxsize=1)
def _base_css():
    from weasyprint import CSS
    from weasyprint.text.fonts import FontConfiguration

    fonts = FontConfiguration()
    return CSS(string=STYLESHEET.read_text(), font_config=fonts, url_fetcher=_refuse), fonts


@dataclasses.dataclass(frozen=True)
class Printed:
    """A statement as a document in the owner's language prints it: the pack's statement as it is (English,
    `language` ""; `beside`: its heading in the owner's language, printed beside the English one), or dogcase's
    own words around the instrument in the owner's `language`."""

    heading: str
    text: str
    citation: str = ""
    language: str = ""
    beside: str = ""


def document_language(draft: Draft) -> str:
    return getattr(draft, "language", "") or "en"


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
    language = document_language(draft)
    # a document of dogcase's own (a receipt, a statement of charges: no pack document) is written in the
    # owner's language throughout: only the law's words inside it are marked English
    own = draft.doc_type is None
    marked = language != "en" and not own
    with translation.override(language):
        return render_to_string(
            "documents/pdf.html",
            {
                "d": in_language(draft, language) if marked else draft,
                "number": number,
                "version": version,
                "code": code,
                "verify_url": verify_url(code),
                "issued_on": draft.today if own else date_words(issued_at),
                "replaces": replaces,
                "reason": reason,
                "owner_facing": draft.audience == "owner",
                # in a document in another language, the English instrument's elements say they are English
                "lang_en": mark_safe(' lang="en"') if marked else "",  # noqa: S308 — a constant
                "language": language,
            },
        )


def in_language(draft: Draft, language: str) -> Draft:
    """The draft as a document in `language` prints it: the pack's statements as they are, and the block "Your
    case online" (dogcase's words, not the legal notice) in `language` (dogcase.owners.notice.portal_words)."""
    printed = []
    for s in draft.sections:
        heading = str(getattr(s, "heading", "") or "")
        parts = list(getattr(s, "parts", ()) or ())
        if heading == notice.PORTAL_HEADING and not any(kind == "missing" for _t, kind in parts):
            template = _portal_template(draft, heading)
            values = [text for text, kind in parts if kind == "value"]
            names = [m.strip() for m in PLACEHOLDER.findall(template)]
            own_heading, text = notice.portal_words(
                template, dict(zip(names, values, strict=False)), language
            )
            printed.append(Printed(own_heading, text, language=language))
        else:
            citation = str(getattr(s, "citation", "") or "")
            printed.append(Printed(heading, s.text, citation, beside=heading_words(heading, language)))
    return dataclasses.replace(
        draft, sections=printed, attachments=[in_language(a, language) for a in draft.attachments]
    )


def heading_words(heading: str, language: str) -> str:
    """A statement's heading in `language`, from the catalogue ("" when it has none, or for English)."""
    if not heading or language == "en":
        return ""
    with translation.override(language):
        own = pgettext("document heading", heading)
    return own if own != heading else ""


def _portal_template(draft: Draft, heading: str) -> str:
    """The English wording the block was filled from: the pack's own, or dogcase's (PORTAL_TEXT)."""
    for section in getattr(draft.doc_type, "sections", ()) or ():
        text = str(getattr(section, "text", "") or "")
        if str(getattr(section, "heading", "") or "") == heading and "{portal." in text:
            return " ".join(text.split())
    return notice.PORTAL_TEXT


def _css_content(text: str) -> str:
    """A CSS `content` value: the text, with the page counters where it names them."""
    out = []
    for part in re.split(f"({_PAGE}|{_PAGES})", text):
        if part == _PAGE:
            out.append("counter(page)")
        elif part == _PAGES:
            out.append("counter(pages)")
        elif part:
            out.append(_css_string(part))
    return " ".join(out)


def footer_css(*, number: str, version: int, code: str, language: str = "en") -> str:
    """Every page's footer, in the document's language, in two lines across the page's width: "No. … · version
    N · page N of M", then the verification code and its address (one line each, so a long address or a longer
    language never breaks the address in two)."""
    with translation.override(language):
        left = gettext(FOOTER_NUMBER) % {"number": number, "version": version, "page": _PAGE, "pages": _PAGES}
        right = gettext(FOOTER_CODE) % {"code": code, "url": verify_url(code)}
    return "@page { @bottom-left { content: " + _css_content(left) + ' "\\A " ' + _css_string(right) + "; } }"


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
        string=footer_css(number=number, version=version, code=code, language=document_language(draft)),
        font_config=fonts,
        url_fetcher=_refuse,
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
