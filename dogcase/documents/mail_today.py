"""The day's mail (issue 20, item 8): every document to be mailed today, gathered into one PDF behind a
certified-mail sheet, and the one act that records them all as mailed today.

Which documents: the owner's documents (those served on the owner) issued in the last MAIL_WITHIN days, current
(not replaced by a correction), whose sending is not recorded yet — no service attempt by any method: the step
that issued them recorded none (a notice of hearing, a decision, a certificate) — and that the law lets go by
mail (it names a mail method for them, or names no method at all). Each goes by the mail the law names for it
(certified mail, return receipt requested, before certified or registered mail, before first-class mail), or by
first-class mail where the law names none. The documents already recorded as mailed today stay in the day's
mail, so that the bundle can be printed again after they are marked.

The bundle is the stored PDFs themselves (the legal record, byte for byte as issued), merged after the
certified-mail sheet with poppler's `pdfunite` (poppler-utils, installed with the fonts by
scripts/system-packages.sh); the sheet, in the style of USPS PS Form 3877 (the firm mailing book for accountable
mail: article number, addressee's name and address, postage, fees; the sender's name and address), is rendered
by WeasyPrint as PDF/A-3b like the documents. Nothing is fetched.
"""

from __future__ import annotations

import datetime as dt
import shutil
import subprocess  # noqa: S404 — pdfunite, with a fixed argument list of our own temporary files
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone

from dogcase.cases import acts
from dogcase.cases.files import open_blob
from dogcase.cases.models import Case
from dogcase.documents import serving
from dogcase.documents.models import IssuedDocument
from dogcase.documents.service_models import ServiceAttempt
from dogcase.documents.sources import city_office
from dogcase.law import library

MAIL_WITHIN = dt.timedelta(
    days=30
)  # a document issued longer ago and never recorded as sent is not "today's"
LIMIT = 300  # documents in one day's mail, at most (a city's day has a handful)
MERGE_SECONDS = 120


class MergeUnavailable(RuntimeError):
    """The PDFs cannot be merged on this machine (poppler-utils' pdfunite is missing or failed)."""


@dataclass
class Piece:
    document: IssuedDocument
    method: str  # the way it is mailed (a service method id)
    method_words: str
    attempt: ServiceAttempt | None = None  # its mailing recorded today; None: not recorded yet
    city_name: str = ""

    @property
    def certified(self) -> bool:
        return self.method in serving.MAIL_WITH_ARTICLE

    @property
    def article_number(self) -> str:
        return self.attempt.article_number if self.attempt else ""

    @property
    def addressee(self) -> str:
        return (self.attempt.addressee if self.attempt else "") or self.document.recipient


@dataclass
class DaysMail:
    day: dt.date
    to_mark: list[Piece] = field(default_factory=list)  # not yet recorded as sent
    marked: list[Piece] = field(default_factory=list)  # recorded as mailed today
    more: bool = False  # more than LIMIT documents: the rest wait for the next batch

    @property
    def pieces(self) -> list[Piece]:
        """Every document of the day's mail, in order: by city, then as issued."""
        return sorted(self.to_mark + self.marked, key=_order)

    @property
    def certified(self) -> list[Piece]:
        return [p for p in self.pieces if p.certified]


def _order(p: Piece):
    return (p.document.jurisdiction, p.document.issued_at, p.document.pk)


def _midnight(day: dt.date) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, dt.time()))


def mail_method(document: IssuedDocument, day: dt.date) -> str | None:
    """The mail the law names for this document (certified before registered before first-class mail), or
    first-class mail where it names no method; None where it names only ways that are not mail (it is served
    by hand or posted, not mailed)."""
    probe = serving.rule_for(document, "mail", day)
    named = [m["value"] for m in (probe.named_methods if probe is not None else ())]
    if not named:
        return "mail"
    for method in (*serving.MAIL_WITH_ARTICLE, "mail"):
        if method in named:
            return method
    return None


def _unsent(cities, day: dt.date):
    """The current owner's documents of these cities issued in the window with no service recorded by any
    method (the query; bounded by city and window)."""
    sent = (
        ServiceAttempt.objects.filter(jurisdiction__in=list(cities)).exclude(method="").values("document_id")
    )
    return (
        IssuedDocument.objects.filter(
            jurisdiction__in=list(cities),
            audience="owner",
            replaced_by__isnull=True,
            issued_at__gte=_midnight(day - MAIL_WITHIN),
            issued_at__lt=_midnight(day + dt.timedelta(days=1)),
        )
        .exclude(pk__in=sent)
        .select_related("case", "case__dog")
        .order_by("jurisdiction", "issued_at", "id")
    )


def days_mail(cities, *, day: dt.date) -> DaysMail:
    """The day's mail of these cities: what is still to be marked as mailed, and what was mailed that day."""
    cities = list(cities)
    out = DaysMail(day)
    names = {c: (library().jurisdictions[c].name if c in library().jurisdictions else c) for c in cities}
    documents = list(_unsent(cities, day)[: LIMIT + 1])
    out.more = len(documents) > LIMIT
    for document in documents[:LIMIT]:
        if document.jurisdiction not in library().jurisdictions:
            continue  # a city whose pack is gone: the law cannot say how it is mailed
        method = mail_method(document, day)
        if method is None:
            continue
        j = library().get(document.jurisdiction)
        out.to_mark.append(
            Piece(document, method, serving.method_words(j, method), city_name=names[document.jurisdiction])
        )
    attempts = (
        ServiceAttempt.objects.filter(jurisdiction__in=cities, sent_on=day, method__in=serving.MAILED)
        .select_related("document", "document__case", "document__case__dog")
        .order_by("id")[:LIMIT]
    )
    for a in attempts:
        j = library().jurisdictions.get(a.jurisdiction)
        words = serving.method_words(j, a.method) if j is not None else a.method
        out.marked.append(Piece(a.document, a.method, words, attempt=a, city_name=names[a.jurisdiction]))
    out.to_mark.sort(key=_order)
    out.marked.sort(key=_order)
    return out


# ------------------------------------------------------------------------------------- the mailing sheet


def sender(jurisdiction: str) -> dict[str, str]:
    """The sender on the certified-mail sheet: the city's letterhead, its address as the pack or the city
    (documents.CityOffice) gives it; "" when neither does (the clerk writes it in)."""
    j = library().get(jurisdiction)
    letterhead = dict(j.letterhead or {})
    supplied = city_office(jurisdiction, "letterhead")
    return {
        "name": letterhead.get("name") or j.name,
        "address": letterhead.get("address") or supplied.get("address", ""),
    }


def sheet_html(mail: DaysMail) -> str:
    """The certified-mail sheets of the day, one a city (its sender), in the style of PS Form 3877."""
    by_city: dict[str, list[Piece]] = {}
    for p in mail.certified:
        by_city.setdefault(p.document.jurisdiction, []).append(p)
    sheets = [
        {"sender": sender(city), "pieces": pieces, "city_name": pieces[0].city_name}
        for city, pieces in by_city.items()
    ]
    return render_to_string("documents/mail_sheet.html", {"sheets": sheets, "day": mail.day})


def sheet_pdf(mail: DaysMail) -> bytes:
    """The certified-mail sheet as PDF/A-3b (WeasyPrint, nothing fetched); b"" when nothing is certified."""
    if not mail.certified:
        return b""
    from weasyprint import HTML

    from dogcase.documents.render import PDF_VARIANT, NoFetching

    def refuse(url: str, *args, **kwargs):  # noqa: ARG001
        raise NoFetching(f"the mailing sheet fetches nothing (asked for {url[:80]!r})")

    return HTML(string=sheet_html(mail), url_fetcher=refuse).write_pdf(pdf_variant=PDF_VARIANT)


def bundle_pdf(mail: DaysMail) -> bytes:
    """One PDF: the certified-mail sheet, then every document of the day's mail in order, each the stored PDF
    as issued. Raises MergeUnavailable when pdfunite is missing or fails, OSError when a stored PDF is gone."""
    parts = []
    sheet = sheet_pdf(mail)
    if sheet:
        parts.append(sheet)
    for p in mail.pieces:
        with open_blob(p.document.blob) as f:
            parts.append(f.read())
    if not parts:
        return b""
    if len(parts) == 1:
        return parts[0]
    tool = shutil.which("pdfunite")
    if tool is None:
        raise MergeUnavailable(
            "pdfunite (Debian's poppler-utils) is not installed: scripts/system-packages.sh"
        )
    with tempfile.TemporaryDirectory(prefix="dogcase-mail-") as folder:
        names = []
        for n, data in enumerate(parts):
            name = Path(folder) / f"{n:04d}.pdf"
            name.write_bytes(data)
            names.append(str(name))
        out = Path(folder) / "mail.pdf"
        try:
            subprocess.run(  # noqa: S603 — our own files, no shell
                [tool, *names, str(out)], check=True, capture_output=True, timeout=MERGE_SECONDS
            )
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
            raise MergeUnavailable(f"pdfunite could not merge the documents: {exc}") from None
        return out.read_bytes()


# ------------------------------------------------------------------------------------------ the act


@dataclass
class Marked:
    recorded: list[Piece] = field(default_factory=list)
    refused: list[tuple[IssuedDocument, str]] = field(default_factory=list)


def missing_article_numbers(pieces: list[Piece], numbers: dict[int, str]) -> list[Piece]:
    return [p for p in pieces if p.certified and not (numbers.get(p.document.pk) or "").strip()]


def mark_mailed_today(
    cities,
    document_ids,
    *,
    actor,
    article_numbers: dict[int, str] | None = None,
    at: dt.datetime | None = None,
) -> Marked:
    """Record each listed document of the day's mail as mailed today by `actor`: one service attempt each (by
    the mail the law names, sent today), through the service recording's own act
    (dogcase.documents.serving.record_service_attempt: its checks, the further-service step the law has, its
    audit event in the case's chain) — one act a document, each in its transaction under its case's lock. A
    document whose sending is already recorded (by this click's twin, or by anyone) is refused and recorded
    nothing. A certified piece needs its article number (InvalidInput before anything is recorded)."""
    at = at or acts.now()
    day = timezone.localtime(at).date()
    numbers = {int(k): str(v or "").strip() for k, v in (article_numbers or {}).items()}
    wanted = [int(i) for i in document_ids]
    mail = days_mail(cities, day=day)
    due = {p.document.pk: p for p in mail.to_mark}
    chosen = [due[i] for i in wanted if i in due]
    missing = missing_article_numbers(chosen, numbers)
    if missing:
        listed = ", ".join(f"{p.document.title} No. {p.document.number}" for p in missing)
        raise acts.InvalidInput(
            "article_number", f"give the article number of each certified piece: {listed}"
        )
    out = Marked()
    for i in wanted:
        if i not in due:
            document = IssuedDocument.objects.filter(pk=i, jurisdiction__in=list(cities)).first()
            if document is not None:
                out.refused.append(
                    (document, "its sending is already recorded, or it is not in today's mail")
                )
            continue
        piece = due[i]
        document = piece.document
        try:
            with transaction.atomic():
                acts.lock_case(document.case_id)
                if document.service_attempts.exclude(method="").exists():
                    out.refused.append((document, "its sending is already recorded"))
                    continue
                version = Case.objects.get(pk=document.case_id).version
                serving.record_service_attempt(
                    document,
                    actor=actor,
                    method=piece.method,
                    sent_on=day,
                    outcome=ServiceAttempt.Outcome.SENT,
                    expected_version=version,
                    article_number=numbers.get(document.pk, "") if piece.certified else "",
                    at=at,
                )
        except (acts.InvalidInput, acts.Refused, acts.StaleCase) as exc:
            out.refused.append((document, str(getattr(exc, "rule", "") or exc)))
            continue
        out.recorded.append(piece)
    return out
