"""The lists a city's records are taken out as: for each kind of record, its rows (the user's cities only, with
the filters of the list on screen) and its columns, headed in a clerk's words, with what each column means (the
archive's README prints it).

Rows are read with `.iterator(chunk_size=CHUNK)` over querysets that join (select_related) or prefetch, per
chunk, everything a column reads: memory stays flat and the number of queries does not grow with the rows.
A cell is text, a whole number, an amount (Decimal) or empty (None); dates are ISO (YYYY-MM-DD), times are
Minnesota time (YYYY-MM-DD HH:MM)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import Count, F, OuterRef, Prefetch, QuerySet, Subquery
from django.utils import timezone

from dogcase.cases.models import Case, Dog, Evidence, Incident, Obligation, Person, StoredFile, Victim
from dogcase.cases.pages import OBLIGATION_STATUS_WORDS, city_names, humanize, installed, stage_words
from dogcase.documents.models import IssuedDocument
from dogcase.money.models import CENT, Charge, Entry

CHUNK = 500  # rows read from the database at a time

Cell = str | int | Decimal | None


# ------------------------------------------------------------------------------------------------ filters


@dataclass(frozen=True)
class Filters:
    """The filters of one export, each checked against its choices: a value outside them is ignored, never
    passed to the query as given (as the lists on screen do)."""

    city: str = ""
    status: str = ""
    designation: str = ""
    who: str = ""
    start: dt.date | None = None  # the period's first day
    end: dt.date | None = None  # and its last


def designation_choices(cities) -> dict[str, str]:
    """The designations of the cities' law, {id: label}, as the case list offers them."""
    labels: dict[str, str] = {}
    for c in cities:
        j = installed(c)
        if j is None:
            continue
        for d in j.designations.values():
            labels.setdefault(d.id, d.label)
    return labels


def _date(value: str) -> dt.date | None:
    try:
        return dt.date.fromisoformat(str(value).strip())
    except ValueError:
        return None


def parse_filters(kind: ExportKind, params: Mapping[str, str], cities) -> Filters:
    """The filters `kind` accepts, from a query string, each within its choices."""
    got = {name: str(params.get(name, "") or "") for name in ("city", "status", "designation", "who")}
    city = got["city"] if got["city"] in cities else ""
    status = got["status"] if "status" in kind.filters and got["status"] in kind.statuses else ""
    designation = ""
    if "designation" in kind.filters:
        d = got["designation"]
        designation = d if d == "none" or d in designation_choices(cities) else ""
    who = got["who"] if "who" in kind.filters and got["who"] in Obligation.Who.values else ""
    start = end = None
    if "period" in kind.filters:
        start, end = _date(params.get("from", "")), _date(params.get("to", ""))
    return Filters(city=city, status=status, designation=designation, who=who, start=start, end=end)


# ------------------------------------------------------------------------------------------------ columns


@dataclass
class Words:
    """What the columns of one export read besides the row, looked up once: the cities' names and law."""

    cities: tuple[str, ...]
    names: dict[str, str] = field(default_factory=dict)
    law: dict[str, Any] = field(default_factory=dict)
    today: dt.date = dt.date.min

    @classmethod
    def of(cls, cities) -> Words:
        cities = tuple(cities)
        return cls(
            cities=cities,
            names=city_names(cities),
            law={c: installed(c) for c in cities},
            today=timezone.localdate(),
        )

    def city(self, jurisdiction: str) -> str:
        return self.names.get(jurisdiction, jurisdiction)

    def designation(self, jurisdiction: str, designation: str) -> str:
        if not designation:
            return "Not declared"
        j = self.law.get(jurisdiction)
        d = j.designations.get(designation) if j is not None else None
        return d.label if d is not None else humanize(designation)


@dataclass(frozen=True)
class Column:
    header: str
    meaning: str  # one line of the archive's README
    value: Callable[[Any, Words], Cell]


def day(value: dt.date | None) -> str:
    return value.isoformat() if value else ""


def when(value: dt.datetime | None) -> str:
    return timezone.localtime(value).strftime("%Y-%m-%d %H:%M") if value else ""


def yes_no(value: bool | None) -> str:
    return "" if value is None else ("Yes" if value else "No")


def amount(value: Decimal | None) -> Decimal | None:
    return None if value is None else value.quantize(CENT)


def person_name(user) -> str:
    if user is None:
        return ""
    return user.get_full_name() or user.get_username()


def _names(people) -> str:
    return "; ".join(p.full_name for p in people)


def _citations(cites) -> str:
    seen: list[str] = []
    for c in cites or ():
        text = c.get("citation", "") if isinstance(c, Mapping) else str(c)
        if text and text not in seen:
            seen.append(text)
    return "; ".join(seen)


CITY = Column("City", "The city whose record it is.", lambda r, w: w.city(r.jurisdiction))

CASE_COLUMNS = (
    Column("Case number", "The case's number, as printed on its documents.", lambda c, w: c.number),
    CITY,
    Column("Dog", "The dog's name.", lambda c, w: c.dog.name),
    Column(
        "Owners",
        "The dog's owners on record, separated by semicolons.",
        lambda c, w: _names(c.dog.owners.all()),
    ),
    Column(
        "Designation",
        "The dog's designation in the case, in the words of the city's law; \"Not declared\" when none.",
        lambda c, w: w.designation(c.jurisdiction, c.designation),
    ),
    Column(
        "Designation in effect",
        "Yes while the designation applies; No once it no longer does (rescinded, reviewed, ended).",
        lambda c, w: yes_no(c.designation_in_effect) if c.designation else "",
    ),
    Column("Status", "Open or Closed.", lambda c, w: c.get_status_display()),
    Column("Where it stands", "The case's last step, in words.", lambda c, w: stage_words(c.stage)),
    Column("Incident number", "The incident the case came from.", lambda c, w: c.incident.number),
    Column("Opened on", "The day the case was opened.", lambda c, w: day(timezone.localdate(c.opened_at))),
    Column("Last changed", "When the case last changed (Minnesota time).", lambda c, w: when(c.updated_at)),
    Column(
        "Designation (id in the law pack)",
        "The designation's id in the city's law pack, for the city attorney; the same as Designation.",
        lambda c, w: c.designation,
    ),
)

DOG_COLUMNS = (
    Column("Dog", "The dog's name.", lambda d, w: d.name),
    Column("Breed", "As recorded.", lambda d, w: d.breed),
    Column("Colour", "As recorded.", lambda d, w: d.colour),
    Column("Sex", "Male, Female or Not known.", lambda d, w: d.get_sex_display()),
    Column("Sterilized", "Yes, No, or empty when not known.", lambda d, w: yes_no(d.sterilized)),
    Column("Birth year", "The year the dog was born, when known.", lambda d, w: d.birth_year),
    Column("Microchip maker", "The microchip's manufacturer.", lambda d, w: d.microchip_manufacturer),
    Column("Microchip number", "The microchip's number.", lambda d, w: d.microchip_number),
    Column("City licence", "The dog's city licence number.", lambda d, w: d.licence_number),
    Column(
        "Kept at", "The premises where the dog is kept.", lambda d, w: str(d.premises) if d.premises else ""
    ),
    Column(
        "Owners", "The dog's owners on record, separated by semicolons.", lambda d, w: _names(d.owners.all())
    ),
    Column(
        "Status", "Kept in the city, moved out, transferred, or dead.", lambda d, w: d.get_status_display()
    ),
    Column("Cases", "How many cases the dog has had.", lambda d, w: d.case_count),
    CITY,
    Column(
        "Recorded on",
        "The day the dog was first recorded.",
        lambda d, w: day(timezone.localdate(d.created_at)),
    ),
)

PERSON_COLUMNS = (
    Column("Name", "The person's full name.", lambda p, w: p.full_name),
    Column("Street address", "As recorded.", lambda p, w: p.street),
    Column("Town", "The town of the address.", lambda p, w: p.city_name),
    Column("State", "The state of the address.", lambda p, w: p.state),
    Column("ZIP code", "As recorded.", lambda p, w: p.postal_code),
    Column("Phone", "As recorded.", lambda p, w: p.phone),
    Column("Email", "As recorded.", lambda p, w: p.email),
    Column(
        "Language of documents",
        "The language the person's documents are offered in.",
        lambda p, w: p.get_preferred_language_display(),
    ),
    Column(
        "Dogs",
        "The dogs the person owns or owned, separated by semicolons.",
        lambda p, w: "; ".join(d.name for d in p.dogs.all()),
    ),
    CITY,
    Column(
        "Recorded on",
        "The day the person was first recorded.",
        lambda p, w: day(timezone.localdate(p.created_at)),
    ),
)

INCIDENT_COLUMNS = (
    Column("Incident number", "The incident's number.", lambda i, w: i.number),
    Column("When", "When it happened (Minnesota time).", lambda i, w: when(i.occurred_at)),
    Column(
        "What",
        "Bite, attack, chase or approach, killed an animal, or other.",
        lambda i, w: i.get_kind_display(),
    ),
    Column("Where", "The place, as recorded.", lambda i, w: i.place),
    Column(
        "Kind of place", "The kind of place, in the words of the city's law.", lambda i, w: i.place_type_label
    ),
    Column(
        "Dogs",
        "The dogs involved, separated by semicolons.",
        lambda i, w: "; ".join(d.name for d in i.dogs.all()),
    ),
    Column("Victims", "How many victims were recorded.", lambda i, w: i.victim_count),
    Column("What happened", "The narrative, as recorded.", lambda i, w: i.narrative),
    Column("Reported by", "The staff member who recorded it.", lambda i, w: person_name(i.reported_by)),
    CITY,
)

OBLIGATION_COLUMNS = (
    Column("Case number", "The case the obligation belongs to.", lambda o, w: o.case.number),
    CITY,
    Column("Dog", "The dog of the case.", lambda o, w: o.case.dog.name),
    Column("Whose", "Owner or City: who must act.", lambda o, w: o.get_who_display()),
    Column("What", "What must be done, in the words of the law.", lambda o, w: o.what),
    Column(
        "Status",
        "Open, Overdue, Done, Not yet, Open to act, No longer applies, Time ended unused, or Cannot be worked "
        "out yet.",
        lambda o, w: OBLIGATION_STATUS_WORDS.get(o.status, humanize(o.status)),
    ),
    Column(
        "Due date", "The last day (empty when it cannot be worked out yet).", lambda o, w: day(o.due_date)
    ),
    Column(
        "Due at",
        "The last moment, when the law sets a time of day (Minnesota time).",
        lambda o, w: when(o.due_at),
    ),
    Column("Late", "Yes when it was done after its due date.", lambda o, w: yes_no(o.late)),
    Column(
        "Law", "The provisions that set it, separated by semicolons.", lambda o, w: _citations(o.citations)
    ),
    Column("Last changed", "When it was last worked out (Minnesota time).", lambda o, w: when(o.updated_at)),
    Column(
        "Deadline (id in the law pack)",
        "The deadline's id in the city's law pack, for the city attorney.",
        lambda o, w: o.deadline_id,
    ),
)

DOCUMENT_COLUMNS = (
    Column("Document number", "The document's number, as printed on it.", lambda d, w: d.number),
    Column(
        "Version",
        "1 for the document as first issued; 2 and up for corrected versions.",
        lambda d, w: d.version,
    ),
    Column("Title", "The document's title.", lambda d, w: d.title),
    Column("Case number", "The case it was issued in.", lambda d, w: d.case.number),
    CITY,
    Column("Issued", "When it was issued (Minnesota time).", lambda d, w: when(d.issued_at)),
    Column("Issued by", "The staff member who issued it.", lambda d, w: person_name(d.issued_by)),
    Column("To", "Its recipient, as printed.", lambda d, w: d.recipient),
    Column("Language", "en: English; es: Spanish beside the English.", lambda d, w: d.language),
    Column(
        "Why corrected", "For a corrected version: why it replaces the one before.", lambda d, w: d.reason
    ),
    Column(
        "SHA-256",
        "The fingerprint of the PDF as issued: any change to the file changes it.",
        lambda d, w: d.sha256,
    ),
    Column(
        "Verification code",
        "The code printed in the document's footer (/verify/<code>).",
        lambda d, w: d.verification_code,
    ),
    Column(
        "File", "The PDF's name in the city archive (documents/).", lambda d, w: f"documents/{d.filename}"
    ),
    Column(
        "Document type (id in the law pack)",
        "The document type's id in the city's law pack (or receipt, statement of charges).",
        lambda d, w: d.doc_type,
    ),
)

ENTRY_COLUMNS = (
    Column("Date", "The day it was received, given back or decided.", lambda e, w: day(e.on)),
    Column("Case number", "The case it belongs to.", lambda e, w: e.case.number),
    CITY,
    Column(
        "Kind",
        "Payment, Refund, Waived by the council, or Charge cancelled.",
        lambda e, w: e.get_kind_display(),
    ),
    Column("Amount", "Dollars and cents, always positive.", lambda e, w: amount(e.amount)),
    Column(
        "Effect on the balance",
        "The amount as it changes what is owed: negative for a payment, waiver or cancellation, positive for a "
        "refund.",
        lambda e, w: amount(e.sign * e.amount),
    ),
    Column(
        "How paid", "Cash, check, card or other (payments and refunds).", lambda e, w: e.get_method_display()
    ),
    Column("Reference", "Check number or processor reference.", lambda e, w: e.reference),
    Column("Paid by", "Who paid.", lambda e, w: e.paid_by),
    Column(
        "Receipt number",
        "The receipt issued for a payment.",
        lambda e, w: e.receipt.number if e.receipt else "",
    ),
    Column(
        "Refund of",
        "For a refund: the receipt number of the payment given back.",
        lambda e, w: (e.refund_of.receipt.number if e.refund_of.receipt else "") if e.refund_of else "",
    ),
    Column(
        "Charge", "For a cancellation: the charge cancelled.", lambda e, w: e.charge.label if e.charge else ""
    ),
    Column("Resolution", "For a waiver: the council's resolution.", lambda e, w: e.resolution),
    Column("Reason", "For a refund, waiver or cancellation: why.", lambda e, w: e.reason),
    Column("Recorded by", "The staff member who recorded it.", lambda e, w: person_name(e.recorded_by)),
    Column("Recorded", "When it was recorded (Minnesota time).", lambda e, w: when(e.recorded_at)),
)

CHARGE_COLUMNS = (
    Column("Starts on", "The day of the act that incurred it.", lambda c, w: day(c.starts_on)),
    Column("Case number", "The case it belongs to.", lambda c, w: c.case.number),
    CITY,
    Column("Charge", "What it is for, in the words of the city's law.", lambda c, w: c.label),
    Column("Law", "The provision that allows it.", lambda c, w: c.citation),
    Column("Per", "Each, or Per day (boarding).", lambda c, w: c.get_per_display()),
    Column("Rate", "For a charge per day: the amount a day.", lambda c, w: amount(c.rate)),
    Column(
        "Amount",
        "Dollars and cents; for a charge per day, the days held through its end (or today, while it runs).",
        lambda c, w: amount(c.amount_on(w.today)),
    ),
    Column("Ends on", "For a charge per day: the day it stopped running.", lambda c, w: day(c.ends_on)),
    Column("Note", "What the cost is for, when entered by staff.", lambda c, w: c.note),
    Column("Charge (id in the law pack)", "The charge's id in the city's law pack.", lambda c, w: c.charge),
)

FILE_COLUMNS = (
    Column("File", "The file's name in the city archive (files/).", lambda f, w: archive_file_name(f)),
    Column("Original name", "The name it was uploaded under.", lambda f, w: f.original_name),
    Column("Kind of file", "PDF, JPEG, PNG, GIF or WebP.", lambda f, w: f.content_type),
    Column("Size (bytes)", "The file's size.", lambda f, w: f.size),
    Column("SHA-256", "The file's fingerprint, as stored.", lambda f, w: f.sha256),
    Column(
        "Evidence of incident",
        "The incident it is evidence of, if any.",
        lambda f, w: f.incident_number or "",
    ),
    Column("Uploaded", "When it was uploaded (Minnesota time).", lambda f, w: when(f.uploaded_at)),
    Column("Uploaded by", "The staff member who uploaded it.", lambda f, w: person_name(f.uploaded_by)),
    CITY,
)


def archive_file_name(stored) -> str:
    """An uploaded file's name in the archive: its id and the original name's extension."""
    ext = stored.path.rsplit(".", 1)[-1] if "." in stored.path.rsplit("/", 1)[-1] else "bin"
    return f"files/{stored.pk}.{ext}"


# ------------------------------------------------------------------------------------------------ rows


def _in(model_qs: QuerySet, cities, f: Filters) -> QuerySet:
    qs = model_qs.filter(jurisdiction__in=cities)
    return qs.filter(jurisdiction=f.city) if f.city else qs


def _owners() -> Prefetch:
    return Prefetch("owners", queryset=Person.objects.order_by("full_name", "id"))


def _dogs() -> Prefetch:
    return Prefetch("dogs", queryset=Dog.objects.order_by("name", "id"))


def case_rows(cities, f: Filters) -> QuerySet:
    qs = _in(Case.objects.all(), cities, f).select_related("dog", "incident")
    qs = qs.prefetch_related(Prefetch("dog__owners", queryset=Person.objects.order_by("full_name", "id")))
    if f.status:
        qs = qs.filter(status=f.status)
    if f.designation == "none":
        qs = qs.filter(designation="")
    elif f.designation:
        qs = qs.filter(designation=f.designation)
    return qs.order_by("-opened_at", "-id")  # as the case list


def _count_of(model, parent: str) -> Subquery:
    counted = model.objects.filter(**{parent: OuterRef("pk")}).order_by().values(parent)
    return Subquery(counted.annotate(n=Count("pk")).values("n")[:1])


def dog_rows(cities, f: Filters) -> QuerySet:
    qs = _in(Dog.objects.all(), cities, f).select_related("premises").prefetch_related(_owners())
    return qs.annotate(case_count=_count_of(Case, "dog")).order_by("name", "id")


def person_rows(cities, f: Filters) -> QuerySet:
    return _in(Person.objects.all(), cities, f).prefetch_related(_dogs()).order_by("full_name", "id")


def incident_rows(cities, f: Filters) -> QuerySet:
    qs = _in(Incident.objects.all(), cities, f).select_related("reported_by").prefetch_related(_dogs())
    return qs.annotate(victim_count=_count_of(Victim, "incident")).order_by("-occurred_at", "-id")


def obligation_rows(cities, f: Filters) -> QuerySet:
    qs = _in(Obligation.objects.all(), cities, f).select_related("case", "case__dog")
    if f.status:
        qs = qs.filter(status=f.status)
    if f.who:
        qs = qs.filter(who=f.who)
    return qs.order_by("case__number", F("due_date").asc(nulls_last=True), "id")


def document_rows(cities, f: Filters) -> QuerySet:
    qs = _in(IssuedDocument.objects.all(), cities, f).select_related("case", "issued_by")
    if f.start:
        qs = qs.filter(issued_at__date__gte=f.start)
    if f.end:
        qs = qs.filter(issued_at__date__lte=f.end)
    return qs.order_by("issued_at", "id")


def entry_rows(cities, f: Filters) -> QuerySet:
    qs = _in(Entry.objects.all(), cities, f).select_related(
        "case", "receipt", "refund_of__receipt", "charge", "recorded_by"
    )
    if f.start:
        qs = qs.filter(on__gte=f.start)
    if f.end:
        qs = qs.filter(on__lte=f.end)
    return qs.order_by("on", "id")


def charge_rows(cities, f: Filters) -> QuerySet:
    qs = _in(Charge.objects.all(), cities, f).select_related("case")
    if f.start:
        qs = qs.filter(starts_on__gte=f.start)
    if f.end:
        qs = qs.filter(starts_on__lte=f.end)
    return qs.order_by("starts_on", "id")


def file_rows(cities, f: Filters) -> QuerySet:
    evidence = Evidence.objects.filter(file=OuterRef("pk")).order_by("id").values("incident__number")[:1]
    qs = _in(StoredFile.objects.all(), cities, f).select_related("uploaded_by")
    return qs.annotate(incident_number=Subquery(evidence)).order_by("id")


# ------------------------------------------------------------------------------------------------ kinds


@dataclass(frozen=True)
class ExportKind:
    id: str  # in the address (/export/<id>.csv) and the file's name
    title: str
    about: str  # what one row is
    columns: tuple[Column, ...]
    rows: Callable[[tuple[str, ...], Filters], QuerySet]
    filters: tuple[str, ...] = ("city",)  # city, status, designation, who, period
    statuses: tuple[str, ...] = ()
    period: str = ""  # what the period filters on, in words
    listed: bool = True  # offered on the Export page (False: in the city archive only)


KINDS: dict[str, ExportKind] = {
    k.id: k
    for k in (
        ExportKind(
            "cases",
            "Cases",
            "One row per case.",
            CASE_COLUMNS,
            case_rows,
            filters=("city", "status", "designation"),
            statuses=tuple(Case.Status.values),
        ),
        ExportKind("dogs", "Dogs", "One row per dog.", DOG_COLUMNS, dog_rows),
        ExportKind(
            "people",
            "People",
            "One row per person: owners, victims' contacts, landlords.",
            PERSON_COLUMNS,
            person_rows,
        ),
        ExportKind("incidents", "Incidents", "One row per incident.", INCIDENT_COLUMNS, incident_rows),
        ExportKind(
            "obligations",
            "Obligations",
            "One row per obligation of a case: what the owner or the city must do, and by when.",
            OBLIGATION_COLUMNS,
            obligation_rows,
            filters=("city", "status", "who"),
            statuses=tuple(OBLIGATION_STATUS_WORDS),
        ),
        ExportKind(
            "documents",
            "Documents",
            "One row per version of each document issued: notices, letters, orders, receipts, statements.",
            DOCUMENT_COLUMNS,
            document_rows,
            filters=("city", "period"),
            period="issued",
        ),
        ExportKind(
            "payments",
            "Payments",
            "One row per payment, refund, waiver or cancelled charge.",
            ENTRY_COLUMNS,
            entry_rows,
            filters=("city", "period"),
            period="dated",
        ),
        ExportKind(
            "charges",
            "Charges",
            "One row per fee or cost charged in a case.",
            CHARGE_COLUMNS,
            charge_rows,
            filters=("city", "period"),
            period="starting",
        ),
        ExportKind(
            "files",
            "Uploaded files",
            "One row per file uploaded: evidence, photos, proof, vaccination records.",
            FILE_COLUMNS,
            file_rows,
            listed=False,
        ),
    )
}


def headers(kind: ExportKind) -> list[str]:
    return [c.header for c in kind.columns]


def rows(kind: ExportKind, cities, filters: Filters) -> Iterator[list[Cell]]:
    """The rows of one export, headers aside, read a chunk at a time."""
    cities = tuple(cities)
    words = Words.of(cities)
    for record in kind.rows(cities, filters).iterator(chunk_size=CHUNK):
        yield [c.value(record, words) for c in kind.columns]
