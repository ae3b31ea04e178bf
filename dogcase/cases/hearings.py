"""The hearings of the case's acts, for the staff: the hearings a member of staff is designated to hold (the
hearing officer's dashboard), who may be designated to hold one, and the obligation holding one meets. The
hearings scheduled on a case are read from its acts by `dogcase.cases.models.scheduled_hearings` (a step
schedules a hearing when one of its inputs records a scheduled event, `when: future`, such as
`hearing_scheduled`; the place is its input `place`, the hearing officer its `staff_member` input), so that
`Case.scheduled_hearing()` reads them too."""

from __future__ import annotations

import datetime as dt
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import CharField, Exists, OuterRef, Q
from django.db.models.fields.json import KT
from django.db.models.functions import Cast
from django.utils import timezone

from dogcase.cases.citysettings import mark, supplied_in
from dogcase.cases.citysettings import supplied as city_choices
from dogcase.cases.models import (
    HEARING_OFFICER_OF_STEP,
    Case,
    Event,
    ScheduledHearing,
    case_state,
    jurisdiction_of,
    scheduled_hearings,
)
from dogcase.law import library

# The hearing officer's own list is read from the cases most recently scheduled with them: a page that does not
# grow with every case they ever heard (a statewide officer may have heard thousands).
HEARINGS_SHOWN = 10
CASES_READ = 40
SCHEDULING_PAGE = 200  # acts read a query when looking for those cases


def hearings_to_hold(user, cities) -> tuple[list[dict[str, Any]], bool]:
    """The hearings this member of staff is designated to hold, on open cases of their cities, not yet held,
    soonest first: for the hearing officer's dashboard. At most HEARINGS_SHOWN, read from the CASES_READ open
    cases most recently scheduled with them; the second value says whether there may be more."""
    if not _may_be_designated(user, cities):
        return [], False  # nobody designates this person to hold a hearing: no search of the cases at all
    scheduling = (
        Event.objects.alias(officer=HEARING_OFFICER_OF_STEP)  # indexed (event_hearing_officer)
        .filter(
            officer=str(user.pk),
            kind=Event.Kind.STEP,
            case__status=Case.Status.OPEN,
            jurisdiction__in=cities,
        )
        .order_by("-seq")
        .values_list("case_id", flat=True)
    )
    # read a page of acts at a time, each a query with a LIMIT: PostgreSQL then walks the officer's index from
    # the newest act and stops (without one it joins every open case in the state and sorts all the acts)
    case_ids: list[int] = []
    start = 0
    while len(case_ids) <= CASES_READ:
        page = list(scheduling[start : start + SCHEDULING_PAGE])
        for case_id in page:
            if case_id not in case_ids:
                case_ids.append(case_id)
                if len(case_ids) > CASES_READ:
                    break
        if len(page) < SCHEDULING_PAGE:
            break
        start += SCHEDULING_PAGE
    more = len(case_ids) > CASES_READ
    case_ids = case_ids[:CASES_READ]
    if not case_ids:
        return [], False
    # the incident with its case: the case's state reads its date (one query, not one a case)
    cases = list(Case.objects.filter(pk__in=case_ids).select_related("dog", "incident"))
    # the cities' choices read once for all the cases; the user, whose hearings these are, already read
    settings = supplied_in(cities)
    marks = {city: mark(chosen) for city, chosen in settings.items()}
    today = timezone.localdate()
    law = library()
    keep_hearings_for(law)
    with _KEPT_HEARINGS_LOCK:
        kept = {case.pk: _KEPT_HEARINGS.get(_kept_key(case, marks, today)) for case in cases}
    by_case: dict[int, list[Event]] = {pk: [] for pk, hearings in kept.items() if hearings is None}
    if by_case:  # the acts of the cases changed (or not seen) since their hearings were worked out
        for e in Event.objects.filter(
            case_id__in=list(by_case), kind__in=[Event.Kind.STEP, Event.Kind.CORRECTION]
        ).order_by("seq"):
            by_case[e.case_id].append(e)
    users: dict[str, Any] = {str(user.pk): user}
    rows = []
    for case in cases:
        hearings = kept[case.pk]
        if hearings is None:
            hearings = _hearings_to_hold(case, by_case[case.pk], settings.get(case.jurisdiction, {}), users)
            _keep(_kept_key(case, marks, today), hearings, law)
        rows += [{"case": case, "hearing": h} for officer, h in hearings if officer == user.pk]
    rows.sort(key=lambda r: r["hearing"].at)
    return rows[:HEARINGS_SHOWN], more or len(rows) > HEARINGS_SHOWN


def _hearings_to_hold(case: Case, events: list[Event], chosen: dict, users: dict) -> list[tuple[int, Any]]:
    """The case's hearings scheduled with a member of staff and not yet held: (their user id, the hearing)."""
    j = jurisdiction_of(case)
    state = case_state(case, events, chosen)
    recorded = state.events
    out = []
    for name, hearing in scheduled_hearings(case, j, events, users, state=state).items():
        if hearing.officer is None or was_held(j, name, hearing, recorded):
            continue
        out.append((hearing.officer.pk, hearing))
    return out


# A case's hearings still to hold change only with its acts (its version), the law in use, the city's choices
# and the day the law is read on: kept for those, a hearing officer's dashboard works out again only the cases
# acted on since (each a case's whole history, in the law engine, otherwise on every request).
KEPT_HEARINGS_MOST = 4096
_KEPT_HEARINGS: OrderedDict[tuple, list] = OrderedDict()
_KEPT_HEARINGS_LOCK = threading.Lock()
_KEPT_HEARINGS_FOR: list = [None]


def forget_kept_hearings() -> None:
    """Forget every kept case's hearings (a database restored from a backup may reuse a case's id and version
    for other acts: the restore's process starts empty, and a server is restarted after it)."""
    with _KEPT_HEARINGS_LOCK:
        _KEPT_HEARINGS.clear()


def keep_hearings_for(law) -> None:
    """Forget the kept hearings when `law` (the law in use) is not the one they were worked out under."""
    with _KEPT_HEARINGS_LOCK:
        if _KEPT_HEARINGS_FOR[0] is not law:
            _KEPT_HEARINGS.clear()
            _KEPT_HEARINGS_FOR[0] = law


def _kept_key(case: Case, marks: dict[str, str], today: dt.date) -> tuple:
    return (case.pk, case.version, case.jurisdiction, marks.get(case.jurisdiction, ""), today)


def _keep(key: tuple, hearings: list, law) -> None:
    """Keep a case's hearings worked out under `law`, unless the law in use was reloaded meanwhile (another
    request's: they are then of an older law, and kept under the new one they would outlive it)."""
    with _KEPT_HEARINGS_LOCK:
        if _KEPT_HEARINGS_FOR[0] is not law:
            return
        _KEPT_HEARINGS[key] = hearings
        _KEPT_HEARINGS.move_to_end(key)
        while len(_KEPT_HEARINGS) > KEPT_HEARINGS_MOST:
            _KEPT_HEARINGS.popitem(last=False)


def was_held(j, name: str, hearing, recorded) -> bool:
    """Whether the hearing scheduled as `name` was held: the case records (`recorded`, its events by name) an
    event the law orders after it, on or after the act that scheduled it."""
    held = [later for later, _earlier in _held_events(j, name) if later in recorded]
    return any(_on_or_after(recorded[h], hearing.scheduled_by.at) for h in held)


def _may_be_designated(user, cities) -> bool:
    """Whether the law of any of these cities lets a step designate someone with this user's roles to take an
    act (to hold a hearing): the roles the packs empower for the acts their `staff_member` inputs name."""
    from dogcase.cases.access import staff_roles, staff_roles_for_pack_roles

    mine = staff_roles(user)
    lib = library()
    for city in cities:
        j = lib.jurisdictions.get(city)
        if j is None:
            continue
        day = j.today()
        steps = j.procedure(day)
        acts = {i.act for step in steps for i in step.inputs if i.kind == "staff_member" and i.act}
        pack_roles = {r for step in steps if step.act in acts for r in step.roles}
        pack_roles |= {
            r for step in steps if step.act in acts for by in step.roles_by_designation.values() for r in by
        }
        if mine & staff_roles_for_pack_roles(city, pack_roles):
            return True
    return False


def _held_events(j, scheduled: str) -> list[tuple[str, str]]:
    """The events that say a hearing scheduled as `scheduled` was held: those the law orders after it."""
    return [
        (later, scheduled) for later, earlier in j.event_order.items() for e, *_ in earlier if e == scheduled
    ]


def _on_or_after(value, moment: dt.datetime) -> bool:
    day = timezone.localtime(value).date() if isinstance(value, dt.datetime) else value
    return day >= timezone.localtime(moment).date()


def designatable_staff(j, act: str, designation: str | None, day: dt.date) -> list:
    """The members of staff who may be designated to take `act` in this city: active users with access to the
    city whose roles the law empowers for that act (for a hearing in Battle Lake: (I)(3)'s City
    Clerk/Treasurer or a designated hearing officer). Whether each is impartial in the case is the law
    engine's check."""
    from dogcase.cases.access import staff_roles_for_pack_roles

    pack_roles: set[str] = set()
    for step in j.procedure(day):
        if step.act == act and step.applies_to(designation):
            by = step.roles_by_designation.get(designation) if designation else None
            pack_roles.update(by if by is not None else step.roles)
    groups = staff_roles_for_pack_roles(j.id, pack_roles) - {"auditor", "administrator"}
    return list(
        get_user_model()
        .objects.filter(is_active=True, city_access__jurisdiction=j.id, groups__name__in=groups)
        .distinct()
        .order_by("last_name", "first_name", "username")
    )


def hearings_by_obligation(
    j, hearings: dict[str, ScheduledHearing], day: dt.date
) -> dict[str, ScheduledHearing]:
    """{deadline id: the scheduled hearing its obligation is met by holding}: the steps that meet a deadline
    and record an event the law orders after a scheduled one (holding after scheduling, EVENT_ORDER), so that
    "hold the hearing" reads "hold the hearing on Thu 10 Dec at 10:00"."""
    out: dict[str, ScheduledHearing] = {}
    if not hearings:
        return out
    for step in j.procedure(day):
        recorded = {e for i in step.inputs for e in i.all_records} | set(step.records)
        for event in recorded:
            for earlier, *_ in j.event_order.get(event, ()):
                if earlier in hearings:
                    for deadline_id in step.satisfies:
                        out.setdefault(deadline_id, hearings[earlier])
    return out


# ------------------------------------------------------------------------------------ one room, one hearing
# A hearing takes this long unless the city's pack sets `hearing_minutes` among its settings (docs/law-packs.md):
# dogcase's default, one hour, since no text the packs restate says how long a hearing lasts.
HEARING_MINUTES_SETTING = "hearing_minutes"
DEFAULT_HEARING_MINUTES = 60
# a hearing is scheduled before it is held: the acts that may have booked a room at a time are read from those
# recorded in this window before it (the calendar's own window, dogcase.documents.calendar)
BOOKED_WITHIN = dt.timedelta(days=400)


@dataclass(frozen=True)
class ScheduledInput:
    """A step input that records a scheduled date and time (a hearing): kind `datetime`, `when: future`."""

    step_id: str
    event: str  # the event the input records (its first)
    label: str  # the input's label, e.g. "Date and time of the hearing"
    input_id: str = ""


def scheduled_inputs(j, day: dt.date) -> list[ScheduledInput]:
    """The step inputs of a jurisdiction that record a scheduled date and time (kind datetime, when future)."""
    out = []
    for step in j.procedure(day):
        for item in step.inputs:
            if item.kind == "datetime" and item.when == "future" and item.records:
                out.append(ScheduledInput(step.id, item.records[0], item.label, item.id))
    return out


def hearing_length(j) -> dt.timedelta:
    """How long a hearing holds its room in this city: the pack's `hearing_minutes` setting, else one hour."""
    chosen = city_choices(j.id) if getattr(j, "id", None) else {}  # City settings, over the pack's value
    value = chosen.get(
        HEARING_MINUTES_SETTING, (getattr(j, "setting_values", None) or {}).get(HEARING_MINUTES_SETTING)
    )
    try:
        minutes = int(value)
    except (TypeError, ValueError):
        minutes = DEFAULT_HEARING_MINUTES
    return dt.timedelta(minutes=minutes if 0 < minutes <= 24 * 60 else DEFAULT_HEARING_MINUTES)


def place_key(place) -> str:
    """A place as compared for booking: case, spacing and a final full stop do not make another room."""
    return " ".join(str(place or "").split()).casefold().rstrip(".")


def parse_moment(value) -> dt.datetime | None:
    """A recorded date and time (stored as ISO text), or None when it is not one with its offset."""
    if isinstance(value, dt.datetime):
        return value if value.tzinfo is not None else None
    try:
        parsed = dt.datetime.fromisoformat(str(value))
    except ValueError:
        return None
    return parsed if parsed.tzinfo is not None else None


@dataclass(frozen=True)
class Booking:
    """A hearing already scheduled in a place: the case, the event, when and where."""

    case_number: str
    event: str
    start: dt.datetime
    place: str


def bookings(j, place: str, start: dt.datetime, end: dt.datetime, *, day: dt.date, but=None) -> list[Booking]:
    """The hearings currently scheduled on the city's open cases at `place` that overlap [start, end), each as
    its latest scheduling (corrections applied) records it; `but` = (case pk, event) leaves out that hearing
    itself (rescheduling a case's hearing is not a clash with itself). Reads only this city's scheduling acts of
    open cases recorded in BOOKED_WITHIN before the hearing."""
    steps = {s.step_id: s for s in scheduled_inputs(j, day)}
    wanted = place_key(place)
    if not steps or not wanted:
        return []
    scheduling = Event.objects.filter(
        jurisdiction=j.id,
        kind=Event.Kind.STEP,
        act__in=list(steps),
        case__status=Case.Status.OPEN,
        at__gte=start - BOOKED_WITHIN,
    )
    events = list(
        scheduling.filter(case_id__in=_cases_booked_near(scheduling, steps, start, end))
        .select_related("case")
        .order_by("-seq")
    )
    fixes = list(
        Event.objects.filter(kind=Event.Kind.CORRECTION, corrects__in=[e.pk for e in events]).order_by("seq")
    )
    corrections, corrected_inputs = Event.corrected_dates(fixes), Event.corrected_inputs(fixes)
    length = hearing_length(j)
    seen: set[tuple[int, str]] = set()
    out = []
    for e in events:  # newest first: a case's first is its current schedule
        s = steps[e.act]
        key = (e.case_id, s.event)
        if key in seen:
            continue
        seen.add(key)
        if but is not None and key == but:
            continue
        recorded = {**(e.data.get("events") or {}), **corrections.get(e.pk, {})}
        other = parse_moment(recorded.get(s.event))
        where = str(e.inputs_as_corrected(corrected_inputs).get("place") or "")
        if other is None or place_key(where) != wanted:
            continue
        if other < end and start < other + length:
            out.append(Booking(e.case.number, s.event, other, where))
    out.sort(key=lambda b: b.start)
    return out


def _cases_booked_near(scheduling, steps: dict, start: dt.datetime, end: dt.datetime):
    """The cases whose scheduling acts (`scheduling`) may hold a room in [start, end): an act that recorded a
    hearing on a day near it (the day as written, in the text's own offset: two days either side is wide
    enough for any offset and a hearing of up to a day), or one corrected since. Every act of those cases is
    then read, newest first, as before; the city's other scheduled hearings, months of them, are not. A case's
    current schedule is its newest act, so a case none of whose acts is near holds no room then."""
    low = (timezone.localtime(start).date() - NEAR).isoformat()
    high = (timezone.localtime(end).date() + NEAR + dt.timedelta(days=1)).isoformat()
    names = sorted({s.event for s in steps.values()})
    near = Q(Exists(Event.objects.filter(kind=Event.Kind.CORRECTION, corrects=OuterRef("pk"))))
    annotated = {}
    for i, name in enumerate(names):
        annotated[f"booked_{i}"] = Cast(KT(f"data__events__{name}"), output_field=CharField())
        acts = [step_id for step_id, s in steps.items() if s.event == name]
        near |= Q(act__in=acts, **{f"booked_{i}__gte": low, f"booked_{i}__lt": high})
    return scheduling.annotate(**annotated).filter(near).values("case_id")


NEAR = dt.timedelta(days=2)


def check_room(
    j, case: Case, step_id: str, cleaned, at: dt.datetime, *, after: dt.datetime | None = None
) -> tuple[str, str] | None:
    """Whether the step schedules a hearing in a room already booked then: (the input's id, the refusal in
    words naming the other case and its time), or None. The act refuses it (dogcase.cases.acts.take_step).
    `after`: only a hearing that starts after it is checked (a hearing already past, recorded from the city's
    records, holds no room: dogcase.cases.acts.take_recorded_step)."""
    day = timezone.localtime(at).date()
    for s in scheduled_inputs(j, day):
        if s.step_id != step_id:
            continue
        start = parse_moment(cleaned.get(s.input_id))
        place = str(cleaned.get("place") or "").strip()
        if start is None or not place or (after is not None and start <= after):
            continue
        length = hearing_length(j)
        found = bookings(j, place, start, start + length, day=day, but=(case.pk, s.event))
        if found:
            b = found[0]
            return (s.input_id, booked_words(b.place, f"case {b.case_number}", b.start, length))
    return None


def booked_words(place: str, whose: str, start: dt.datetime, length: dt.timedelta) -> str:
    """A room refused in words: `place` is already booked for the hearing of `whose` ("case BL-2026-0001")
    starting at `start`."""
    when = timezone.localtime(start)
    minutes = int(length.total_seconds() // 60)
    lasts = "one hour" if minutes == 60 else f"{minutes} minutes"
    return (
        f"{place} is already booked for the hearing of {whose} on {when:%A %-d %B %Y at %H:%M} (a hearing "
        f"holds its room for {lasts}): choose another time or place"
    )
