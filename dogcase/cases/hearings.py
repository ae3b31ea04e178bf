"""The hearings of the case's acts, for the staff: the hearings a member of staff is designated to hold (the
hearing officer's dashboard), who may be designated to hold one, and the obligation holding one meets. The
hearings scheduled on a case are read from its acts by `dogcase.cases.models.scheduled_hearings` (a step
schedules a hearing when one of its inputs records a scheduled event, `when: future`, such as
`hearing_scheduled`; the place is its input `place`, the hearing officer its `staff_member` input), so that
`Case.scheduled_hearing()` reads them too."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone

from dogcase.cases.models import (
    HEARING_OFFICER_OF_STEP,
    Case,
    Event,
    ScheduledHearing,
    case_state,
    jurisdiction_of,
    scheduled_hearings,
)

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
    # the incident with its case: the case's state reads its date (one query, not one a case)
    cases = Case.objects.filter(pk__in=case_ids).select_related("dog", "incident")
    by_case: dict[int, list[Event]] = {pk: [] for pk in case_ids}
    for e in Event.objects.filter(
        case_id__in=case_ids, kind__in=[Event.Kind.STEP, Event.Kind.CORRECTION]
    ).order_by("seq"):
        by_case[e.case_id].append(e)
    users: dict[str, Any] = {}
    rows = []
    for case in cases:
        j = jurisdiction_of(case)
        events = by_case[case.pk]
        state = case_state(case, events)
        recorded = state.events
        for name, hearing in scheduled_hearings(case, j, events, users, state=state).items():
            if hearing.officer is None or hearing.officer.pk != user.pk:
                continue
            held = [later for later, earlier in _held_events(j, name) if later in recorded]
            if any(_on_or_after(recorded[h], hearing.scheduled_by.at) for h in held):
                continue
            rows.append({"case": case, "hearing": hearing})
    rows.sort(key=lambda r: r["hearing"].at)
    return rows[:HEARINGS_SHOWN], more or len(rows) > HEARINGS_SHOWN


def _may_be_designated(user, cities) -> bool:
    """Whether the law of any of these cities lets a step designate someone with this user's roles to take an
    act (to hold a hearing): the roles the packs empower for the acts their `staff_member` inputs name."""
    from dogcase.cases.access import staff_roles, staff_roles_for_pack_roles
    from dogcase.law import library

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
