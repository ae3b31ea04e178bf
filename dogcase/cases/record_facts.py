"""Facts from the dog's record: what the law asks about a dog's past, computed from its history in dogcase —
its earlier incidents and cases (declarations, notices served) and the prior history the officer recorded on
the dog (what happened before dogcase) — never typed again at intake.

The facts are those marked `from_record: true` in the fact vocabulary; each is read by its name:
- `bit_person_on_separate_occasions`: two or more occasions on which the dog bit a person, this incident
  included (each incident in dogcase, each prior bite recorded, is one occasion);
- `previously_<designation>`: the dog was declared that very designation before this incident, in dogcase
  (a declaration reversed by the decision on its appeal does not count; one later removed on review does) or
  in its prior history. Only the designation of that id: a vicious classification sets `previously_vicious`,
  never `previously_potentially_dangerous` (347.50 subd. 2(3) reaches the potentially dangerous finding);
- `owner_had_notice_of_<designation>`: a notice of such a declaration was served before this incident.

"Before this incident" is a day before the incident's date: a declaration, notice or bite recorded only by its
date, on the incident's own day, cannot be put before or after it, and is not counted. What the record does
not show is "no", with its source saying so: prior history found elsewhere is added on the dog's page.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.utils import timezone

from dogcase.cases.models import Case, Dog, Event, Incident, PriorHistoryEntry
from dogcase.law import InputError, library
from dogcase.law.facts import NOTICE_OF, PREVIOUSLY, record_fact_kind

PERSON = "human"  # the value of the shared fact `victim` for a person


@dataclass(frozen=True)
class RecordFact:
    fact: str
    question: str
    value: bool
    sources: tuple[str, ...]  # where it came from, in plain words

    @property
    def words(self) -> str:
        return "Yes" if self.value else "No"

    def as_dict(self) -> dict:
        return {
            "fact": self.fact,
            "question": self.question,
            "value": self.value,
            "sources": list(self.sources),
        }


def computable(fact_id: str) -> bool:
    """Whether dogcase knows how to read this fact from a dog's record (the loader refuses `from_record` on
    any other)."""
    return record_fact_kind(fact_id) is not None


def _day(value) -> dt.date:
    return timezone.localtime(value).date() if isinstance(value, dt.datetime) else value


def _date(value, fallback: dt.date) -> dt.date:
    if isinstance(value, str):
        try:
            return _day(dt.datetime.fromisoformat(value)) if "T" in value else dt.date.fromisoformat(value)
        except ValueError:
            return fallback
    return fallback


def _d(day: dt.date) -> str:
    return f"{day:%-d %B %Y}"


def designation_words(designation_id: str) -> str:
    for pack in library().packs.values():
        d = pack.designations.get(designation_id)
        if d is not None:
            return d.label.lower()
    return designation_id.replace("_", " ")


def prior_designations(vocabulary) -> list[tuple[str, str]]:
    """The designations a prior history entry may name: those whose earlier declaration is a fact of the
    city's vocabulary read from the record (`previously_<designation>`), with their labels."""
    out = []
    for fact in vocabulary.facts.values():
        if fact.from_record and record_fact_kind(fact.id) == "previously":
            designation = fact.id.removeprefix(PREVIOUSLY)
            out.append((designation, designation_words(designation).capitalize()))
    return out


def bites_on_a_person(facts, victims) -> bool:
    """The incident's facts say the dog bit, and a victim (a recorded Victim, or an intake form's row) is a
    person."""
    return facts.get("bit") is True and any(v.kind == PERSON for v in victims)


def prior_history_words(what: str, designation: str, by_whom: str = "") -> str:
    """What a prior history entry says happened, in plain words (the dog's page, the entry's audit event, the
    sources of the facts from the record)."""
    if what == PriorHistoryEntry.What.BITE:
        return "bit a person"
    label = designation_words(designation)
    by = f" by {by_whom}" if by_whom else ""
    if what == PriorHistoryEntry.What.DESIGNATION:
        return f"declared {label}{by}"
    return f"the owner was given notice of the {label} designation{by}"


@dataclass(frozen=True)
class _Declaration:
    designation: str
    day: dt.date
    case_number: str
    reversed_on_appeal: bool
    notices: tuple[dt.date, ...]


def _declarations(dog: Dog, exclude_incident: Incident | None) -> list[_Declaration]:
    """The dog's declarations in dogcase (other than the present incident's), with the notices served; the
    dates as corrected (a correction event), as each case reads them."""
    events = (
        Event.objects.filter(
            case__in=Case.objects.filter(dog=dog).values("id"),
            kind__in=(Event.Kind.STEP, Event.Kind.CORRECTION),
        )
        .select_related("case")
        # the events of the dog's cases through the index on (case, seq), never a walk of the whole trail in
        # seq order; put in seq order below
        .order_by("case_id", "seq")
    )
    if exclude_incident is not None:
        events = events.exclude(case__incident=exclude_incident)
    events = sorted(events, key=lambda e: e.seq)
    corrections = Event.corrected_dates(events)
    by_case: dict[int, list[Event]] = {}
    for e in events:
        if e.kind == Event.Kind.STEP:
            by_case.setdefault(e.case_id, []).append(e)
    out: list[_Declaration] = []
    for case_events in by_case.values():
        case = case_events[0].case
        j = library().jurisdictions.get(case.jurisdiction)
        current: dict | None = None
        found: list[dict] = []
        for e in case_events:
            day = _day(e.at)
            recorded = {**(e.data.get("events") or {}), **corrections.get(e.pk, {})}
            designation = (e.data.get("inputs") or {}).get("designation")
            if designation:
                current = {
                    "designation": designation,
                    "day": _date(recorded.get("declaration"), day),
                    "reversed": False,
                    "notices": [],
                }
                found.append(current)
                continue
            if current is None:
                continue
            if e.data.get("act") == "serve_notice":
                dates = [_date(v, day) for v in recorded.values()]
                current["notices"].append(min(dates, default=day))
            step = _step(j, e.act, day)
            if step is not None and step.phase == "decision" and step.ends_on(e.data.get("outcome")):
                current["reversed"] = True  # the decision on the appeal rescinded it: no finding stands
        out += [
            _Declaration(f["designation"], f["day"], case.number, f["reversed"], tuple(f["notices"]))
            for f in found
        ]
    return out


def _step(j, step_id: str, day: dt.date):
    """The step as in force on `day`, or None (its pack is gone, or the step is no longer in it)."""
    if j is None:
        return None
    try:
        return j.step(step_id, day)
    except InputError:
        return None


def record_facts(
    dog: Dog | None,
    *,
    vocabulary,
    incident_day: dt.date,
    bite_on_person_now: bool,
    exclude_incident: Incident | None = None,
) -> list[RecordFact]:
    """The facts of `vocabulary` marked from_record, as the dog's record shows them before `incident_day`.
    `dog` None is a dog recorded with this incident: it has no record yet."""
    wanted = [f for f in vocabulary.facts.values() if f.from_record and computable(f.id)]
    if not wanted:
        return []
    earlier_bites: list[str] = []
    declarations: list[_Declaration] = []
    prior: list[PriorHistoryEntry] = []
    if dog is not None and dog.pk:
        incidents = dog.incidents.prefetch_related("victims").order_by("occurred_at")
        if exclude_incident is not None:
            incidents = incidents.exclude(pk=exclude_incident.pk)
        for incident in incidents:
            if _day(incident.occurred_at) < incident_day and bites_on_a_person(
                incident.facts, incident.victims.all()
            ):
                earlier_bites.append(f"incident {incident.number} on {_d(_day(incident.occurred_at))}")
        declarations = [d for d in _declarations(dog, exclude_incident) if d.day < incident_day]
        prior = list(dog.prior_history.filter(on__lt=incident_day))
    out: list[RecordFact] = []
    for fact in wanted:
        kind = record_fact_kind(fact.id)
        if kind == "separate_bites":
            occasions = earlier_bites + [
                f"prior history: {prior_history_words(p.what, p.designation)} on {_d(p.on)} ({p.source})"
                for p in prior
                if p.what == PriorHistoryEntry.What.BITE
            ]
            if bite_on_person_now:
                occasions.append("this incident")
            sources = tuple(occasions) or ("no bite on a person in the dog's record",)
            if len(occasions) == 1:
                sources = (f"one occasion only: {occasions[0]}",)
            out.append(RecordFact(fact.id, fact.question, len(occasions) >= 2, sources))
            continue
        notice = kind == "notice"
        designation = fact.id.removeprefix(NOTICE_OF if notice else PREVIOUSLY)
        label = designation_words(designation)
        sources: list[str] = []
        for d in declarations:
            if d.designation != designation:
                continue
            if d.reversed_on_appeal:
                sources.append(f"not counted: declared {label} in case {d.case_number}, reversed on appeal")
                continue
            if not notice:
                sources.append(f"declared {label} on {_d(d.day)} in case {d.case_number}")
            else:
                sources += [
                    f"notice of the {label} declaration served on {_d(n)} (case {d.case_number})"
                    for n in d.notices
                    if n < incident_day
                ]
        wanted_what = PriorHistoryEntry.What.NOTICE if notice else PriorHistoryEntry.What.DESIGNATION
        for p in prior:
            if p.what == wanted_what and p.designation == designation:
                what = prior_history_words(p.what, p.designation, p.by_whom)
                sources.append(f"prior history: {what} on {_d(p.on)} ({p.source})")
        value = any(not s.startswith("not counted") for s in sources)
        if not value:
            none = f"no notice of a {label} declaration" if notice else f"no {label} declaration"
            sources.append(f"{none} in the dog's record")
        out.append(RecordFact(fact.id, fact.question, value, tuple(sources)))
    return out
