"""Filling a document from the case: every `{source}` of a document type's sections (the engine's vocabulary,
`Jurisdiction.document_sources`) resolved from the case's records, its taken steps and the values typed in the
step's form; a source without a value leaves its element unfilled, with what is missing and where staff supply
it (DOCSPEC.md, "Sources").

Nothing here writes: `draft_documents` is what the act form shows and what `documents.acts` issues.
The sources' values are read by `documents.sources.Sources`, and written in words by `documents.words`.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.urls import reverse

from dogcase.cases.models import Case
from dogcase.documents.sources import INPUT_SOURCES, Sources, city_office
from dogcase.documents.words import date_words, parse
from dogcase.law import CaseState, InputError
from dogcase.law.documents import placeholders

PLACEHOLDER = re.compile(r"\{([^{}]*)\}")


# ------------------------------------------------------------------------------------------------ drafts


@dataclass
class Missing:
    """An element (or a free section) that cannot be filled: the source without a value, and where to supply
    it."""

    element: str | None
    element_text: str
    citation: str
    source: str
    what: str
    where: str
    url: str = ""
    document: str = ""

    def sentence(self) -> str:
        named = self.element_text or self.what
        cite = f" ({self.citation})" if self.citation else ""
        return f"{self.document + ': ' if self.document else ''}{named}{cite} — {self.what} has no value; {self.where}."


@dataclass
class FilledSection:
    element: str | None
    element_text: str
    citation: str
    heading: str
    layer: str
    parts: list[tuple[str, str]]  # (text, "" | "value" (from the case) | "missing" (what has no value))
    missing: list[Missing]
    elements: tuple[str, ...] = ()  # every element value the statement carries

    @property
    def text(self) -> str:
        return "".join(t for t, _ in self.parts)

    @property
    def filled(self) -> bool:
        return not self.missing


@dataclass
class Draft:
    doc_type: Any
    id: str
    title: str
    audience: str
    provisions: list[str]
    recipient: str
    sections: list[FilledSection]
    attachments: list[Draft] = field(default_factory=list)
    letterhead: dict[str, str] = field(default_factory=dict)
    city: str = ""
    today: str = ""
    # an owner-facing document (dogcase.documents.owner): the owner's language, the "what happens next" box and,
    # in a language other than English, the explanation beside the English text (HTML); a notice issued by a
    # step that schedules a date (a hearing) carries that date's calendar file (.ics text)
    language: str = "en"
    owner_box: str = ""
    owner_explanation: str = ""
    calendar: str = ""
    # the QR code (SVG) of the owner's portal link with the case access code, when the document prints the code
    portal_qr: str = ""

    @property
    def missing(self) -> list[Missing]:
        out = [m for s in self.sections for m in s.missing]
        for a in self.attachments:
            out.extend(a.missing)
        return out

    @property
    def elements(self) -> dict[str, str]:
        """element value -> the text that fills it (the list the engine's document check reads)."""
        out = {e: s.text for s in self.sections if s.filled for e in s.elements}
        for a in self.attachments:
            for k, v in a.elements.items():
                out.setdefault(k, v)
        return out


# ------------------------------------------------------------------------------------------------ filling


# Where staff supply a source when the engine's vocabulary does not say (and the page to do it on).
def _link(name: str, case: Case) -> str:
    head = name.split(".", 1)[0]
    try:
        if head == "dog":
            return reverse("staff:dog_edit", args=[case.dog_id])
        if head == "owner":
            owner = case.dog.ownerships.order_by("since", "id").first()
            if owner is None:
                return reverse("staff:owner_add", args=[case.dog_id])
            return reverse("staff:person_edit", args=[owner.person_id])
        if head == "incident":
            return reverse("staff:incident", args=[case.incident.number])
        if head == "office":
            return reverse("admin:documents_cityoffice_changelist")
        if head in (
            "case",
            "declaration",
            "declarant",
            "hearing",
            "decision",
            "council",
            "certificate",
            "seizure",
        ):
            return reverse("staff:case", args=[case.number])
    except Exception:  # noqa: BLE001 — a link is a convenience
        return ""
    return ""


def _deadline_help(j, name: str, designation: str | None = None) -> tuple[str, str] | None:
    """A deadline source in the pack's words for the time limit (for the case's designation), never its id."""
    deadline_id = name.removeprefix("deadline.").removesuffix(".citation")
    versions = [
        v
        for v in (j.all_versions() if hasattr(j, "all_versions") else ())
        if v.effect_kind == "deadline" and v.effect.get("id") == deadline_id and v.effect.get("what")
    ]
    versions.sort(key=lambda v: not (designation and designation in (v.effect.get("for") or ())))
    if not versions:
        return None
    what = " ".join(str(versions[0].effect["what"]).split())
    if name.endswith(".citation"):
        return f"the citation of the time to {what}", "the law pack"
    return (
        f"the last day to {what}",
        "computed by dogcase from the case's dates: give the date this step records (e.g. the date of the notice)",
    )


def source_help(j, name: str, designation: str | None = None) -> tuple[str, str]:
    """(what the source is, where staff supply it), from the engine's vocabulary."""
    try:
        from dogcase.law.documents import describe_source

        what, where = describe_source(name, getattr(j, "offices", None))
        if name.startswith("deadline."):
            what, where = _deadline_help(j, name, designation) or (what, where)
        if name.startswith("office."):
            where = (
                "the city's administrator supplies it on the City settings page (in the menu), or the city's law "
                "pack (jurisdiction.offices)"
            )
        return what, where
    except ImportError:
        pass
    vocab = getattr(j, "document_sources", None) or {}
    entry = vocab.get(name)
    if entry is None and "." in name:
        # families: deadline.<id>, office.<id>.<part>, input.<id>
        head = name.split(".", 1)[0]
        entry = vocab.get(f"{head}.*") or vocab.get(head)
    if entry is None:
        return name.replace(".", " ").replace("_", " "), "record it in the case"
    if isinstance(entry, Mapping):
        return str(entry.get("what") or entry.get("description") or name), str(entry.get("where") or "")
    if isinstance(entry, tuple | list):
        return str(entry[0]), str(entry[1] if len(entry) > 1 else "")
    return str(getattr(entry, "what", None) or getattr(entry, "description", name)), str(
        getattr(entry, "where", "")
    )


def fill_text(template: str, sources: Sources) -> tuple[list[tuple[str, str]], list[str]]:
    """The template's parts (text, "" | "value" | "missing") and the names of the sources without a value."""
    parts: list[tuple[str, str]] = []
    missing: list[str] = []
    pos = 0

    def literal(text: str) -> None:
        # a value that ends its own sentence ("… see incident report.", "8:00 a.m.") is not given a second full
        # stop by the wording that follows it
        if (
            text.startswith(".")
            and parts
            and parts[-1][1] == "value"
            and parts[-1][0].rstrip().endswith((".", "?", "!"))
        ):
            text = text[1:]
        if text:
            parts.append((text, ""))

    for m in PLACEHOLDER.finditer(template):
        if m.start() > pos:
            literal(template[pos : m.start()])
        name = m.group(1).strip()
        value = sources.value(name)
        if value is None:
            missing.append(name)
            parts.append((f"[{source_help(sources.j, name, sources.state.designation)[0]}]", "missing"))
        else:
            parts.append((value, "value"))
        pos = m.end()
    if pos < len(template):
        literal(template[pos:])
    return parts, missing


def _citation(section) -> str:
    c = getattr(section, "citation", None)
    if isinstance(c, Mapping):
        return str(c.get("citation", ""))
    return str(c or "")


def _section_applies(j, section, state: CaseState, at: dt.datetime) -> bool:
    when = getattr(section, "when", None)
    if not when:
        return True
    check = getattr(j, "section_applies", None)
    if check is None:
        return True
    return bool(check(section, state, at))


def fill_document(
    doc_type, sources: Sources, *, attachments=(), owner_box: bool = True, attached: bool = False
) -> Draft:
    """The document filled from the case. `owner_box`: for an owner-facing document, work out the "what
    happens next" box and the owner's language (not needed for the pages attached after a document).
    `attached`: a page of another document (a form the owner fills in and sends to the office it names): it
    has no addressee of its own — the document it is attached to is addressed to the owner."""
    j = sources.j
    sections = []
    for section in doc_type.sections:
        if not _section_applies(j, section, sources.future, sources.at):
            continue
        parts, names = fill_text(str(section.text or ""), sources)
        citation = _citation(section)
        missing = []
        for name in names:
            what, where = source_help(j, name, sources.state.designation)
            missing.append(
                Missing(
                    element=section.element,
                    element_text=str(getattr(section, "element_text", "") or ""),
                    citation=citation,
                    source=name,
                    what=what,
                    where=where or "record it in the case",
                    url=_link(name, sources.case),
                    document=doc_type.title,
                )
            )
        sections.append(
            FilledSection(
                element=section.element,
                element_text=str(getattr(section, "element_text", "") or ""),
                citation=citation,
                heading=str(getattr(section, "heading", "") or ""),
                layer=str(getattr(section, "layer", "") or ""),
                parts=parts,
                missing=missing,
                elements=tuple(
                    getattr(section, "elements", ()) or ((section.element,) if section.element else ())
                ),
            )
        )
    owners = sources.owners()
    recipient = ""
    if getattr(doc_type, "audience", "") == "owner" and owners and not attached:
        first = owners[0]
        recipient = "\n".join(p for p in (first.full_name, first.address if first.street else "") if p)
    letterhead = letterhead_of(j)
    owner_parts = {}
    if owner_box and getattr(doc_type, "audience", "") == "owner":
        owner_parts = _owner_parts(doc_type, sources, owners[0] if owners else None, letterhead)
    portal_qr = ""
    if getattr(doc_type, "audience", "") == "owner" and owner_box and not attached:
        portal_qr = _your_case_online(doc_type, sources, sections)
    return Draft(
        doc_type=doc_type,
        id=doc_type.id,
        title=doc_type.title,
        audience=str(getattr(doc_type, "audience", "") or ""),
        provisions=[_cite_text(p) for p in getattr(doc_type, "provisions", ()) or ()],
        recipient=recipient,
        sections=sections,
        attachments=list(attachments),
        letterhead={k: str(v) for k, v in letterhead.items() if v},
        city=j.name,
        today=date_words(sources.day),
        portal_qr=portal_qr,
        **owner_parts,
    )


def letterhead_of(j) -> dict[str, str]:
    """The city's letterhead: the pack's, completed by the city's own settings (the office `letterhead`)."""
    letterhead = {"name": j.name, **{k: v for k, v in (getattr(j, "letterhead", None) or {}).items() if v}}
    for k, v in city_office(j.id, "letterhead").items():
        letterhead.setdefault(k, v)
    return letterhead


def _all_sections(doc_type) -> list:
    return list(getattr(doc_type, "sections", ()) or ())


def _your_case_online(doc_type, sources: Sources, sections: list[FilledSection]) -> str:
    """Every document issued to an owner, in every city and the state's, ends with "Your case online": the
    portal's address and the owner's case access code (dogcase.owners.notice). A document whose own wording
    prints the code keeps its wording; any other gets the block, appended to `sections`. Returns the QR code
    (SVG) of the portal link with the code, once the code is issued ("" in a draft and on a posted notice)."""
    from dogcase.owners.notice import PORTAL_HEADING, PORTAL_TEXT, prints_code, qr_svg, sign_in_link

    own = any(
        "{portal.code}" in str(getattr(s, "text", "") or "")
        and _section_applies(sources.j, s, sources.future, sources.at)
        for s in _all_sections(doc_type)
    )
    if not own:
        parts, _names = fill_text(PORTAL_TEXT, sources)
        sections.append(
            FilledSection(
                element=None,
                element_text="",
                citation="",
                heading=PORTAL_HEADING,
                layer="",
                parts=parts,
                missing=[],
            )
        )
    code = sources.value("portal.code")
    return qr_svg(sign_in_link(code)) if prints_code(code) else ""


def _owner_parts(doc_type, sources: Sources, recipient, letterhead=None) -> dict[str, str]:
    """The owner's language, the "what happens next" box, the explanation and the calendar file of an
    owner-facing document (dogcase.documents.owner), from the case as the step leaves it."""
    from dogcase.documents.calendar import hearing_notice_ics, scheduled_inputs
    from dogcase.documents.owner import owner_language, owner_reading

    case, j = sources.case, sources.j
    hearing_at = None
    if sources.step is not None:
        scheduled = {s.step_id: s for s in scheduled_inputs(j, sources.day)}.get(sources.step.id)
        if scheduled is not None:
            item = next((i for i in sources.step.inputs if i.records[:1] == (scheduled.event,)), None)
            value = sources.inputs.get(item.id) if item is not None else None
            hearing_at = parse(value) if isinstance(value, str) else value
            if not isinstance(hearing_at, dt.datetime) or hearing_at.tzinfo is None:
                hearing_at = None
    place = (sources.value("hearing.place") or "") if hearing_at else ""
    letterhead = letterhead or dict(getattr(j, "letterhead", None) or {})  # whom the owner asks: the writer
    reading = owner_reading(
        case,
        at=sources.at,
        title=doc_type.title,
        language=owner_language(case, recipient),
        obligations=list(sources.obligations().values()),
        office_name=str(letterhead.get("name") or j.name),
        office_contact=str(letterhead.get("telephone") or ""),
        hearing_at=hearing_at,
        hearing_place=place,
    )
    calendar = (
        hearing_notice_ics(case, at=sources.at, scheduled=hearing_at, place=place) if hearing_at else ""
    )
    return {
        "language": reading.language,
        "owner_box": reading.next_steps,
        "owner_explanation": reading.explanation,
        "calendar": calendar,
    }


def _cite_text(p: Any) -> str:
    if isinstance(p, Mapping):
        return str(p.get("citation", ""))
    return str(p)


def document_types_for(j, step, state: CaseState, at: dt.datetime) -> list:
    """The document types the step issues for this case (the engine's answer), [] when it issues none."""
    finder = getattr(j, "document_types", None)
    if finder is None:
        return []
    day = at.astimezone(j.tz).date()
    return list(finder(step.id, state.designation, day))


def draft_documents(
    case: Case, j, step, *, state: CaseState, inputs: Mapping[str, Any], at: dt.datetime, actor=None
) -> list[Draft]:
    """Every document the step issues for the case, filled from the case and these (cleaned) inputs."""
    types = document_types_for(j, step, state, at)
    if not types:
        return []
    sources = Sources(case, j, state=state, step=step, inputs=inputs, at=at, actor=actor)
    day = at.astimezone(j.tz).date()
    out = []
    for doc_type in types:
        out.append(
            fill_document(
                doc_type,
                sources,
                attachments=[
                    fill_document(a, sources, owner_box=False, attached=True)
                    for a in attachments_of(j, doc_type, day)
                ],
            )
        )
    return out


def attachments_of(j, doc_type, day: dt.date) -> list:
    """The document types printed after the document as its following pages (each once)."""
    pages = getattr(j, "document_pages", None)
    if pages is not None:
        return [p for p in pages(doc_type.id, day) if p.id != doc_type.id]
    return [j.document_type(a, day) for a in getattr(doc_type, "attachments", ()) or ()]


# ------------------------------------------------------------------------------------------------ the act form


@dataclass
class InputNeed:
    """An input the law lets a step leave empty that a document cannot be issued without: `now` when a document
    the step itself issues needs it in every case (the step cannot be taken without it), else the documents of
    this or a later step that need it (in some case, or later)."""

    now: bool = False
    documents: list[str] = field(default_factory=list)


def inputs_documents_need(j, step, designation: str | None, day: dt.date) -> dict[str, InputNeed]:
    """The optional inputs of `step` whose value a document prints (a `{input.<id>}` of a document the step
    issues, or a source read from the step's form, `sources.INPUT_SOURCES`): input id -> InputNeed. The act
    form says so instead of calling the input "optional"."""
    designations = (designation,) if designation else tuple(step.for_ or ()) or (None,)
    optional = {i.id for i in step.inputs if not i.required}
    if not optional:
        return {}
    own: set[str] = set()
    for d in designations:
        try:
            for t in document_types_for(j, step, CaseState(d, day, ()), _noon(j, day)):
                own.update(p.id for p in [t, *attachments_of(j, t, day)])
        except (InputError, KeyError, LookupError, ValueError):
            continue
    out: dict[str, InputNeed] = {}
    for t in j.all_document_types(day):
        if designations != (None,) and not any(t.reaches(d) for d in designations):
            continue
        for section in t.sections:
            for name in placeholders(str(section.text or "")):
                if name.startswith("input."):
                    ids: tuple[str, ...] = (name.removeprefix("input."),) if t.id in own else ()
                elif name in INPUT_SOURCES and (
                    step.act in INPUT_SOURCES[name][0] or step.id in INPUT_SOURCES[name][0]
                ):
                    ids = INPUT_SOURCES[name][1]
                else:
                    continue
                given = next((i for i in ids if any(x.id == i for x in step.inputs)), None)
                if given is None or given not in optional:
                    continue
                need = out.setdefault(given, InputNeed())
                if t.id in own and section.when is None:
                    need.now = True
                if t.title not in need.documents:
                    need.documents.append(t.title)
    return out


def _noon(j, day: dt.date) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(12), tzinfo=j.tz)
