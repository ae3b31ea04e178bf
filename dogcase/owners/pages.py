"""What the owner's case page shows, computed from the case by the law engine: the designation and its
grounds, the owner's obligations with a countdown and what follows if one is missed, what the owner owes
(what_you_owe.py), the documents issued to the owners, the hearing, the history of the legal acts, and the
steps the owner may file now. Plain words, each statement with its citation; nothing staff-only (no staff
names, no notes, no inputs of the city's acts)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from dogcase.cases import acts, outcomes
from dogcase.cases.hearings import scheduled_hearings
from dogcase.cases.models import Case, Event, Person
from dogcase.cases.translation import translated
from dogcase.documents.next_steps import box_rows, date_words, next_steps
from dogcase.documents.sources import city_office
from dogcase.law import InputError
from dogcase.proofs.conditions import conditions as proof_conditions
from dogcase.proofs.conditions import registered

# What an owner's filing is called on the owner's page, by the event the filing records (the fact
# vocabulary's words, not a city's): the step's own label is the city's side of it ("Receive the request").
OWNER_WORDS = (
    ("destruction_hearing_request_received", "Ask for a hearing on the destruction of your dog"),
    ("impoundment_hearing_request_received", "Ask for a hearing on the impoundment of your dog"),
    ("hearing_request_received", "Ask for a hearing"),
    ("review_requested", "Ask for a review of the designation"),
    ("move", "Tell the city your dog has moved away"),
    ("death", "Tell the city your dog has died"),
    ("transfer", "Tell the city your dog has a new owner"),
    ("landlord_disclosure", "Tell the city you told the property owner"),
    ("registration_applied", "Apply for the certificate of registration, or its yearly renewal"),
)


def owner_title(step) -> str:
    records = {e for inp in step.inputs for e in inp.all_records} | set(step.records)
    for event, words in OWNER_WORDS:
        if event in records:
            return _(words)
    # the pack's label in the page's language (the catalogue, or the city pack's own words), else as written
    return translated(step.label, (get_language() or "en").split("-")[0]) or step.label


def countdown_words(due: dt.date | dt.datetime | None, today: dt.date, kind: str = "due") -> dict[str, Any]:
    """ "in 5 days", "today", "2 days late" (from a not-before date: "from today", "in 3 days")."""
    if due is None:
        return {"text": _("no date yet"), "tone": "unknown"}
    day = timezone.localtime(due).date() if isinstance(due, dt.datetime) else due
    days = (day - today).days
    if days == 0:
        return {"text": _("today"), "tone": "today"}
    if days > 0:
        text = _("in 1 day") if days == 1 else _("in %(n)d days") % {"n": days}
        return {"text": text, "tone": "soon" if days <= 7 else "ok"}
    if kind == "not_before":
        return {"text": _("open now"), "tone": "ok"}
    late = -days
    text = _("1 day late") if late == 1 else _("%(n)d days late") % {"n": late}
    return {"text": text, "tone": "late"}


def designation(case: Case, j, language: str) -> dict[str, Any] | None:
    if not case.designation:
        return None
    known = j.designations.get(case.designation)
    citation = ""
    if known is not None:
        for layer in j.layers:
            found = layer.provisions.get(known.defined_by)
            version = found.version_on(timezone.localdate()) if found is not None else None
            if version is not None:
                citation = version.citation
    declared = (
        case.events.filter(
            kind=Event.Kind.STEP, act__in=[s.id for s in j.procedure(timezone.localdate()) if s.opens_case]
        )
        .order_by("seq")
        .last()
    )
    grounds = ""
    on = None
    if declared is not None:
        fixes = Event.corrected_inputs(case.events.filter(kind=Event.Kind.CORRECTION, corrects=declared))
        grounds = str(declared.inputs_as_corrected(fixes).get("basis") or "").strip()
        on = declared.data.get("law_date") or timezone.localtime(declared.at).date().isoformat()
    return {
        "label": _lower_first(known.label if known else case.designation.replace("_", " ")),
        "in_effect": case.designation_in_effect,
        "citation": citation,
        "description": (known.description or "") if known else "",
        "grounds": grounds,
        "on": date_words(dt.date.fromisoformat(str(on)[:10]), language) if on else "",
    }


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:] if text[1:2].islower() else text


def filing_inputs(step, at: dt.datetime) -> dict[str, str]:
    """The inputs the filing itself dates (`filing_date: true`): the day it is submitted."""
    day = timezone.localtime(at).date().isoformat()
    return {i.id: day for i in step.inputs if i.filing_date}


def obligations(case: Case, at: dt.datetime, language: str) -> list[dict[str, Any]]:
    steps = [s for s in next_steps(case, at=at) if s.who == "owner"]
    today = timezone.localtime(at).date()
    rows = box_rows(steps, language)
    for step, row in zip(steps, rows, strict=True):
        row["when_local"] = (
            date_words(step.due, language) if step.due else date_words(step.at_least, language)
        )
        row["countdown"] = countdown_words(step.due or step.at_least, today, step.kind)
        if step.due is None and step.at_least is not None and step.at_least < today:
            # only the earliest end is known and it has passed: the owner's time may still run (a later date,
            # e.g. after the hearing the owner asked for, cannot be worked out yet) — not "late"
            row["countdown"] = {"text": _("no date yet"), "tone": "unknown"}
        row["kind"] = step.kind
    return rows


def documents(case: Case):
    from dogcase.documents.models import IssuedDocument

    return list(IssuedDocument.objects.filter(case=case, audience="owner").order_by("issued_at", "id"))


def hearings(case: Case, j, language: str, person: Person | None = None) -> list[dict[str, Any]]:
    """The case's hearings, soonest first: one still to come with its time and place; one held (a later act
    recorded an event the law orders after it) as held, with what was decided after it."""
    steps = [e for e in case.events.filter(kind=Event.Kind.STEP).order_by("seq")]
    out = []
    for h in sorted(scheduled_hearings(case, j).values(), key=lambda h: h.at):
        after = [e for e in steps if e.seq > h.scheduled_by.seq]
        held_by = next((e for e in after if _holds(j, h.event_name, e)), None)
        row = {
            "label": h.label,
            "when": date_words(h.at, language),
            "place": h.place,
            "citation": "; ".join(
                dict.fromkeys(p.get("citation", "") for p in _provisions_of(j, h.scheduled_by.act))
            ),
            "held": held_by is not None,
            "outcomes": [],
        }
        if held_by is not None:
            # what was done at and after the hearing, up to the next hearing scheduled: the hearing held, the
            # decision, the recommendation, the Council's confirmation or rescission
            for e in after[after.index(held_by) :]:
                if e is not held_by and _schedules(h, e):
                    break
                if e is not held_by and not _decides(j, e):
                    continue
                row["outcomes"].append(
                    outcomes.event_outcome(e, j, language=language, viewer=person, case=case)
                )
        out.append(row)
    return out


def _holds(j, scheduled: str, e: Event) -> bool:
    """Whether the act `e` recorded an event the law orders after the scheduled hearing (it was held)."""
    later = {name for name, earlier in j.event_order.items() if any(x == scheduled for x, *_ in earlier)}
    return bool(later & set((e.data or {}).get("events") or {}))


def _schedules(h, e: Event) -> bool:
    """Whether `e` is an act of the kind that scheduled the hearing (a later hearing's scheduling)."""
    return e.act == h.scheduled_by.act


def _decides(j, e: Event) -> bool:
    """Whether the act `e` is a decision (its step has an outcome to choose: upheld, confirmed, rescinded)."""
    step = outcomes.step_of(j, e.act, e.at)
    return step is not None and any(i.kind == "outcome" for i in step.inputs)


def where_it_stands(case: Case, person: Person, j, language: str = "en") -> dict[str, Any] | None:
    """What the case's latest act did, with its date: "The City Council confirmed the designation on 3
    December 2026." (None before any act)."""
    return outcomes.latest_outcome(case, j, language=language, viewer=person)


def contact(j) -> dict[str, str]:
    """The city office an owner calls about the case, with its telephone and address: the letterhead the city
    supplied (documents.CityOffice), else its law pack's, else the city's name."""
    letterhead = {**city_office(j.id, "letterhead"), **{k: v for k, v in (j.letterhead or {}).items() if v}}
    return {
        "office": str(letterhead.get("name") or j.name),
        "telephone": str(letterhead.get("telephone") or ""),
        "address": str(letterhead.get("address") or ""),
    }


def _provisions_of(j, step_id: str):
    try:
        return j.step(step_id, timezone.localdate()).provisions
    except InputError:  # a step of an older pack: no citation rather than no page
        return ()


def history(case: Case, person: Person, j, language: str = "en") -> list[dict[str, Any]]:
    """The legal acts of the case, oldest first, each as what it did with its date ("The City Council confirmed
    the designation on 3 December 2026."), who did it in the owner's terms (you, another owner, the city) and
    the citation."""
    rows = []
    for e, said in outcomes.case_outcomes(case, j, language=language, viewer=person):
        filed = (e.data or {}).get("filed_by") or {}
        if filed.get("person") == person.pk:
            who = _("you")
        elif filed:
            who = _("another owner")
        else:
            who = _("the city")
        rows.append(
            {
                "what": said["text"],
                "text": said["text"],
                "lang": said["lang"],
                "who": who,
                "on": said["on"],
                "citation": e.citation,
            }
        )
    return rows


def owner_steps(case: Case, person: Person, j, at: dt.datetime, language: str = "en") -> list[dict[str, Any]]:
    """The steps the owner may file now (the law engine asked as for the filing itself), each with the date
    its window closes (the owner's deadline it must fall within) and the citation."""
    if case.status != Case.Status.OPEN or not acts.is_owner(person, case):
        return []
    state = acts.case_state(case)
    out = []
    for step in j.procedure(timezone.localtime(at).date()):
        if not step.filed_by_owner or not step.applies_to(state.designation):
            continue
        try:
            verdict = j.check_step(
                step.id, state, acts.law_actor_for_filing(step, person), at, filing_inputs(step, at) or None
            )
        except InputError:
            continue
        if verdict.refusals:
            continue
        out.append({"id": step.id, "title": owner_title(step), "closes": closes(case, step, j, at, language)})
    return out


def closes(case: Case, step, j, at: dt.datetime, language: str = "en") -> dict[str, Any] | None:
    """The last day to file `step`: the due date of the owner's deadline its `within` condition names."""
    wanted = [c.arg for c in step.requires if c.test == "within"]
    if not wanted:
        return None
    for ob in j.obligations(acts.case_state(case), at):
        if ob.deadline_id in wanted and ob.due is not None:
            cite = "; ".join(dict.fromkeys(c.get("citation", "") for c in ob.citations if c.get("citation")))
            return {"date": date_words(ob.due, language), "due": ob.due, "citation": cite}
    return None


def filed_with(j, step, designation: str | None) -> str:
    """The office the pack names to receive the filing ("the City Clerk/Treasurer")."""
    roles = step.roles_by_designation.get(designation or "", None) or step.roles
    labels = [j.roles[r].label for r in sorted(roles) if r in j.roles]
    return " or ".join(labels)


def proof_needed(case: Case) -> dict[str, Any]:
    """What proof the law asks of the owner now (dogcase.proofs.conditions), and whether any of it is a
    condition of the dog's registration: the page says "registration" only then (a city that registers no
    dangerous dog asks for none)."""
    found = proof_conditions(case)
    return {
        "conditions": found,
        "registration": registered(case) and any(c.condition_of_registration for c in found),
    }
