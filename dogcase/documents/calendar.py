"""What a calendar shows: the scheduled hearings and the Council items of the cases a user may see, and the
owner's hearing (issue 8, item 6).

Which dates are "scheduled" is the law packs' word, not ours: a step input of kind `datetime` with
`when: future` (a date that may lie ahead, e.g. "Date and time of the hearing") records a scheduled event.
A Council item is an open obligation of a case that the council (the product role `council_clerk`, who
records the council's acts) meets by a step — e.g. Tracy's Council hearing on a vicious classification —
shown as an all-day item on its due date.

Bounded: only the user's cities, only events recorded in the last RECORDED_WITHIN days, only items from
PAST days ago to AHEAD days ahead, at most LIMIT of each kind — never every row of the state.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from dogcase.cases.access import cities_of, staff_roles
from dogcase.cases.hearings import ScheduledInput, parse_moment, scheduled_inputs
from dogcase.cases.models import Case, Event, Obligation, staff_member
from dogcase.documents.ical import CalendarItem, calendar_text
from dogcase.law import library

PAST = dt.timedelta(days=30)
AHEAD = dt.timedelta(days=400)
RECORDED_WITHIN = dt.timedelta(days=400)
LIMIT = 500
COUNCIL_ROLE = "council_clerk"  # the product role that records the council's acts (dogcase/cases/roles.py)
OPEN = ("open", "overdue", "not_yet", "available")


def _case_url(number: str, base_url: str) -> str:
    return f"{base_url}{reverse('staff:case', args=[number])}" if base_url else ""


@dataclass(frozen=True)
class Scheduled:
    """A scheduled date of a case as currently recorded (the latest scheduling, corrections applied)."""

    event: Event  # the step's audit event
    scheduled: ScheduledInput
    start: dt.datetime
    inputs: dict
    text_inputs: tuple[tuple[str, str], ...]  # (label, value) of the step's text inputs, e.g. the place
    sequence: int  # how many times it was rescheduled or corrected (iCalendar SEQUENCE)
    officer: str = ""  # the person designated to hold it (the step's staff_member input), by name


def scheduled_dates(
    cities: Iterable[str],
    *,
    now: dt.datetime,
    case: Case | None = None,
    window: tuple[dt.datetime, dt.datetime] | None = None,
) -> list[Scheduled]:
    """The scheduled dates (hearings) of the given cities' cases, or of one case, within the window: PAST
    before `now` to AHEAD after it, or `window` = [start, end) (the calendar page's month or week: only the acts
    recorded in RECORDED_WITHIN before its start are read)."""
    today = timezone.localdate(now)
    by_step: dict[str, dict[str, ScheduledInput]] = {}
    for city in cities:
        j = library().jurisdictions.get(city)
        if j is None:  # a city whose pack is no longer installed: nothing the law says can be shown
            continue
        for s in scheduled_inputs(j, today):
            by_step.setdefault(city, {})[s.step_id] = s
    if not by_step:
        return []
    wanted = Q()
    for city, steps in by_step.items():
        wanted |= Q(jurisdiction=city, act__in=list(steps))
    events = Event.objects.filter(wanted, kind=Event.Kind.STEP)
    if case is not None:
        events = events.filter(case=case)
    elif window is not None:
        events = events.filter(at__gte=window[0] - RECORDED_WITHIN)
    else:
        events = events.filter(at__gte=now - RECORDED_WITHIN)
    events = list(events.select_related("case", "case__dog").order_by("-seq")[:LIMIT])
    corrections = Event.corrected_dates(
        Event.objects.filter(kind=Event.Kind.CORRECTION, corrects__in=[e.pk for e in events]).order_by("seq")
    )
    found: dict[tuple[int, str], list] = {}
    for e in events:  # newest first: the first of a case's event is its current schedule
        s = by_step[e.jurisdiction][e.act]
        value = parse_moment({**(e.data.get("events") or {}), **corrections.get(e.pk, {})}.get(s.event))
        if value is None:
            continue
        found.setdefault((e.case_id, s.event), []).append((e, s, value))
    out = []
    for versions in found.values():
        e, s, start = versions[0]
        if window is not None and not (window[0] <= start < window[1]):
            continue
        if case is None and window is None and not (now - PAST <= start <= now + AHEAD):
            continue
        j = library().get(e.jurisdiction)
        step = next((st for st in j.procedure(today) if st.id == e.act), None)
        inputs = e.data.get("inputs") or {}
        texts = tuple(
            (
                item.label,
                staff_member(inputs[item.id])[1] if item.kind == "staff_member" else str(inputs[item.id]),
            )
            for item in (step.inputs if step is not None else ())
            if item.kind in ("text", "staff_member") and inputs.get(item.id)
        )
        sequence = len(versions) - 1 + (1 if corrections.get(e.pk) else 0)
        officer = next(
            (
                staff_member(inputs[item.id])[1]
                for item in (step.inputs if step is not None else ())
                if item.kind == "staff_member" and inputs.get(item.id)
            ),
            "",
        )
        out.append(Scheduled(e, s, start, inputs, texts, sequence, officer))
    out.sort(key=lambda x: x.start)
    return out


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def hearing_items(cities: Iterable[str], *, now: dt.datetime, base_url: str = "") -> list[CalendarItem]:
    """The scheduled hearings of the given cities, for staff: each with its case, the step's details and
    the law."""
    items = []
    for x in scheduled_dates(cities, now=now):
        e = x.event
        j = library().get(e.jurisdiction)
        details = [
            f"{e.data.get('label') or _capital(x.scheduled.label)} — case {e.case.number}, {e.case.dog.name}."
        ]
        details += [f"{label}: {value}" for label, value in x.text_inputs]
        if e.citation:
            details.append(f"The law: {e.citation}")
        items.append(
            CalendarItem(
                uid=f"{e.case.number}-{x.scheduled.event}@dogcase",
                start=x.start,
                summary=f"{_capital(j.event_label(x.scheduled.event))}: case {e.case.number} ({e.case.dog.name})",
                description="\n".join(details),
                location=str(x.inputs.get("place") or ""),
                url=_case_url(e.case.number, base_url),
                sequence=x.sequence,
            )
        )
    return items


def council_due(cities: Iterable[str], *, first: dt.date, last: dt.date) -> list[Obligation]:
    """The open obligations of the cities' open cases that the council meets, due from `first` to `last`."""
    return list(
        Obligation.objects.filter(
            jurisdiction__in=list(cities),
            status__in=OPEN,
            staff_roles__contains=f",{COUNCIL_ROLE},",
            due_date__gte=first,
            due_date__lte=last,
            case__status=Case.Status.OPEN,
        )
        .select_related("case", "case__dog")
        .order_by("due_date", "id")[:LIMIT]
    )


def council_items(cities: Iterable[str], *, now: dt.datetime, base_url: str = "") -> list[CalendarItem]:
    """The open obligations of the cities' cases that the council meets, each on its due date."""
    today = timezone.localdate(now)
    items = []
    for ob in council_due(cities, first=today - PAST, last=today + AHEAD):
        what = ob.what[:1].upper() + ob.what[1:]
        citation = "; ".join(dict.fromkeys(c.get("citation", "") for c in ob.citations if c.get("citation")))
        kind = {"not_before": "not before", "window": "open until"}.get(ob.kind, "due by")
        items.append(
            CalendarItem(
                uid=f"{ob.case.number}-{ob.deadline_id}@dogcase",
                start=ob.due_date,
                summary=f"Council: {what} — case {ob.case.number} ({ob.case.dog.name})",
                description="\n".join(
                    x
                    for x in (
                        f"{what}, {kind} {ob.due_date:%A %-d %B %Y}.",
                        f"The law: {citation}" if citation else "",
                    )
                    if x
                ),
                url=_case_url(ob.case.number, base_url),
            )
        )
    return items


def _day(item: CalendarItem) -> tuple[dt.date, str]:
    if isinstance(item.start, dt.datetime):
        return timezone.localtime(item.start).date(), item.start.isoformat()
    return item.start, ""


def user_feed(user, *, now: dt.datetime, base_url: str = "") -> str:
    """The private feed of a staff user: the hearings and Council items of the cases of their cities."""
    cities = cities_of(user) if staff_roles(user) else ()
    items = hearing_items(cities, now=now, base_url=base_url) + council_items(
        cities, now=now, base_url=base_url
    )
    items.sort(key=_day)
    return calendar_text(items, name="dogcase: hearings and Council items", stamp=now)


def hearing_notice_ics(
    case: Case, *, at: dt.datetime, scheduled: dt.datetime | None = None, place: str = ""
) -> str:
    """The .ics of the owner's notice of hearing ((I)(2): the date, time, place and subject): the case's
    scheduled hearing as recorded (the latest scheduling), or `scheduled`/`place` when the notice is issued
    in the very step that schedules it. Written for the owner: no staff link, no staff names.
    Empty string when the case has no hearing scheduled."""
    j = library().get(case.jurisdiction)
    recorded = [x for x in scheduled_dates([case.jurisdiction], now=at, case=case)]
    latest = recorded[-1] if recorded else None
    start = scheduled or (latest.start if latest else None)
    if start is None:
        return ""
    event_name = latest.scheduled.event if latest else "hearing"
    where = place or (str(latest.inputs.get("place") or "") if latest else "")
    subject = _capital(j.event_label(event_name)) if latest else "The hearing"
    details = [f"{subject} of case {case.number}, about your dog {case.dog.name} ({j.name})."]
    if where:
        details.append(f"Place: {where}")
    if latest is not None and latest.event.citation:
        details.append(f"The law: {latest.event.citation}")
    details.append(
        "The notice of hearing you received is the legal notice; this calendar entry only helps you remember it."
    )
    item = CalendarItem(
        uid=f"{case.number}-{event_name}@dogcase",
        start=start,
        summary=f"{j.name}: hearing about your dog {case.dog.name} (case {case.number})",
        description="\n".join(details),
        location=where,
        sequence=latest.sequence if latest else 0,
    )
    return calendar_text([item], name=f"{j.name}: hearing", stamp=at, method="PUBLISH")
