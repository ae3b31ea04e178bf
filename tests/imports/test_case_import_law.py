"""The law a step taken in dogcase meets, met by the same step recorded from a file of open cases: a declaration
the recorded facts do not support says why (cases/acts/declarations.py), a hearing still to come books its
room (cases/hearings.py, check_room), and a hearing's date comes with the day it was scheduled, never a day
guessed for it. Each rule as a table: the rows that pass, and the rows refused with their row, column and
words."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.utils import timezone
from django.utils.html import escape

from dogcase.cases.models import Case, Event, Incident
from dogcase.imports.models import ImportRun, Kind
from tests.imports.conftest import checked
from tests.imports.test_case_import import (  # noqa: F401 - city_records, hearing_officer: fixtures
    HEADING,
    SERVED_LONG_AGO,
    TODAY,
    WHY,
    bring_in,
    city_records,
    csv,
    day,
    hearing_officer,
)
from tests.incident_facts import UNPROVOKED_BITE_IN_PUBLIC

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("city_records", "hearing_officer")]

SOURCE = "Clerk's files"
REASON = "Reason for the declaration"
# the staff form's words for a declaration against the facts without its reason (declarations.rule_words)
NO_REASON = (
    "the facts recorded on this case do not support declaring the dog a potentially dangerous dog (the facts "
    "recorded are not enough to say): give the reason for the declaration"
)


def ahead(days: int, hour: int, minute: int = 0) -> str:
    """`days` from today at `hour`, as a spreadsheet writes a hearing's date and time."""
    return f"{(TODAY + dt.timedelta(days=days)).isoformat()} {hour:02d}:{minute:02d}"


def cases_file(*rows: dict[str, str], heading: list[str] = HEADING) -> bytes:
    return csv([heading] + [[r.get(h, "") for h in heading] for r in rows])


def problems(clerk, *rows: dict[str, str], heading: list[str] = HEADING) -> list[tuple[int, str, str]]:
    """The check of a file of these rows: (row, column, words) of each problem (a field the file has no
    column for: the field's label)."""
    run = checked(clerk, "cases.csv", Kind.CASES, data=cases_file(*rows, heading=heading), source=SOURCE)
    return [(p["row"], p["column"] or p["field"], p["problem"]) for p in run.problems]


# ---------------------------------------------------------------------- a declaration against the facts

DECLARED = {k: v for k, v in SERVED_LONG_AGO.items() if k != REASON}


@pytest.mark.parametrize(
    ("row", "heading", "refused"),
    [
        # the incident brought in records none of the facts the law asks: the declaration says why
        ({**DECLARED, REASON: WHY}, HEADING, None),
        ({**DECLARED, REASON: "  "}, HEADING, (2, REASON, NO_REASON)),
        (DECLARED, HEADING, (2, REASON, NO_REASON)),
        # a file without the column at all: the problem names the field
        (DECLARED, [h for h in HEADING if h != REASON], (2, REASON, NO_REASON)),
        ({**DECLARED, REASON: "x" * 2001}, HEADING, (2, REASON, "At most 2,000 characters")),
    ],
    ids=["reason given", "reason blank", "reason missing", "no such column", "reason too long"],
)
def test_a_declaration_the_recorded_facts_do_not_support_needs_its_reason(clerk, row, heading, refused):
    found = problems(clerk, row, heading=heading)
    if refused is None:
        assert found == []
        return
    assert len(found) == 1, found
    number, column, words = found[0]
    assert (number, column) == refused[:2] and refused[2] in words, found[0]
    assert Case.objects.count() == 0


def test_the_departure_and_its_reason_are_recorded_on_the_declaration_and_shown_on_the_case_page(clerk):
    run = bring_in(clerk, cases_file({**DECLARED, REASON: WHY}))
    assert run.status == ImportRun.Status.IMPORTED, run.problems
    case = Case.objects.get()
    declared = Event.objects.get(case=case, act="declare")
    departure = declared.data["departure"]
    assert departure["reason"] == WHY and departure["designation"] == "potentially_dangerous"
    assert departure["status"] == "undetermined" and departure["missing"], departure
    assert declared.data["recorded"]["import"]["row"] == 2  # and still says where it came from
    client = Client()
    client.force_login(clerk)
    page = client.get(f"/cases/{case.number}").content.decode()
    assert "Declared against what the facts recorded supported" in page and escape(WHY) in page


def test_a_declaration_the_recorded_facts_support_needs_no_reason_and_records_no_departure(clerk):
    Incident.objects.filter(number__isnull=False).update(facts=UNPROVOKED_BITE_IN_PUBLIC)
    assert problems(clerk, {**DECLARED, REASON: ""}) == []
    # a reason given for a declaration the facts support is not recorded
    run = bring_in(clerk, cases_file({**DECLARED, REASON: WHY}))
    assert run.status == ImportRun.Status.IMPORTED, run.problems
    assert "departure" not in Event.objects.get(act="declare").data


# ------------------------------------------------------------------------------ a hearing still to come

# a hearing asked for three days ago, scheduled two days ago: held within the 14 days of the request
UPCOMING = {
    "Designation": "Potentially dangerous", "Declared on": day(12), "Basis": "Bite.", REASON: WHY,
    "Notice served on": day(11), "Served how": "personal", "Notice received": day(10),
    "Hearing requested on": day(3), "Hearing scheduled on": day(2), "Hearing place": "City Hall",
    "Hearing officer": "Hana Berg",
}  # fmt: skip
# heard long ago (both incidents before): the same room and hour on two rows
HEARD = {
    "Designation": "Potentially dangerous", "Declared on": day(86), "Basis": "Bite.", REASON: WHY,
    "Notice served on": day(85), "Served how": "personal", "Notice received": day(84),
    "Hearing requested on": day(80), "Hearing scheduled on": day(79), "Hearing date": f"{day(75)} 14:00",
    "Hearing place": "City Hall", "Hearing officer": "Hana Berg", "Hearing held on": day(75),
}  # fmt: skip


def upcoming(case_id: str, incident: str, at: str, place: str = "City Hall") -> dict[str, str]:
    return {**UPCOMING, "Case ID": case_id, "Incident": incident, "Hearing date": at, "Hearing place": place}


@pytest.mark.parametrize(
    ("rows", "refused"),
    [
        ([upcoming("C-1", "I1", ahead(5, 10))], []),
        # two hearings of the file in one room at one hour: the second row is refused
        ([upcoming("C-1", "I1", ahead(5, 10)), upcoming("C-2", "I2", ahead(5, 10))], [(3, "Hearing date", "row 2")]),
        # within the hour the first holds the room
        ([upcoming("C-1", "I1", ahead(5, 10)), upcoming("C-2", "I2", ahead(5, 10, 30))], [(3, "Hearing date", "row 2")]),
        # another hour, another room (written otherwise, the same room)
        ([upcoming("C-1", "I1", ahead(5, 10)), upcoming("C-2", "I2", ahead(5, 11))], []),
        ([upcoming("C-1", "I1", ahead(5, 10)), upcoming("C-2", "I2", ahead(5, 10), "Fire hall")], []),
        ([upcoming("C-1", "I1", ahead(5, 10)), upcoming("C-2", "I2", ahead(5, 10), " city hall.")], [(3, "Hearing date", "row 2")]),
        # hearings already past hold no room
        ([{**HEARD, "Case ID": "C-1", "Incident": "I1"}, {**HEARD, "Case ID": "C-3", "Incident": "I3"}], []),
    ],
    ids=["one", "same hour", "same hour, half past", "next hour", "other room", "same room written otherwise", "past"],
)  # fmt: skip
def test_a_hearing_still_to_come_books_its_room_and_one_past_books_none(clerk, rows, refused):
    found = problems(clerk, *rows)
    assert [(n, c) for n, c, _ in found] == [r[:2] for r in refused], found
    for (_n, _c, words), (_, _, said) in zip(found, refused, strict=True):
        assert said in words and "is already booked for the hearing of" in words, words
        assert "choose another time or place" in words


def test_the_import_refuses_the_same_two_rows_and_a_later_file_meets_the_room_its_hearing_booked(clerk):
    clash = [upcoming("C-1", "I1", ahead(5, 10)), upcoming("C-2", "I2", ahead(5, 10))]
    run = checked(clerk, "cases.csv", Kind.CASES, data=cases_file(*clash), source=SOURCE)
    assert [(p["row"], p["column"]) for p in run.problems] == [(3, "Hearing date")], run.problems
    bring_in(clerk, cases_file(clash[0]))
    booked = Case.objects.get()
    scheduled = Event.objects.get(case=booked, act="schedule_hearing")
    assert timezone.localtime(scheduled.at).date() == TODAY - dt.timedelta(days=2)
    assert booked.scheduled_hearing() is not None
    # the hearing brought in holds its room, as one scheduled in dogcase does
    again = checked(clerk, "cases.csv", Kind.CASES, data=cases_file(clash[1]), source=SOURCE)
    assert [(p["row"], p["column"]) for p in again.problems] == [(2, "Hearing date")], again.problems
    assert f"for the hearing of case {booked.number}" in again.problems[0]["problem"], again.problems


def test_a_hearing_already_past_brought_in_holds_no_room_for_the_next_file(clerk):
    bring_in(clerk, cases_file({**HEARD, "Case ID": "C-1", "Incident": "I1"}))
    assert problems(clerk, {**HEARD, "Case ID": "C-3", "Incident": "I3"}) == []


# ---------------------------------------------------------------------- the day the hearing was scheduled


@pytest.mark.parametrize(
    ("row", "refused"),
    [
        ({**HEARD, "Case ID": "C-3", "Incident": "I3"}, None),
        ({**upcoming("C-1", "I1", ahead(5, 10))}, None),
        ({**HEARD, "Case ID": "C-3", "Incident": "I3", "Hearing scheduled on": ""}, (2, "Hearing scheduled on")),
        ({**upcoming("C-1", "I1", ahead(5, 10)), "Hearing scheduled on": ""}, (2, "Hearing scheduled on")),
        # no hearing time: nothing is scheduled, and no day is asked for
        ({**HEARD, "Case ID": "C-3", "Incident": "I3", "Hearing date": "", "Hearing scheduled on": "",
          "Hearing held on": ""}, None),
    ],
    ids=["past, with its day", "to come, with its day", "past, without", "to come, without", "no hearing"],
)  # fmt: skip
def test_a_hearings_date_comes_with_the_day_it_was_scheduled(clerk, row, refused):
    found = problems(clerk, row)
    if refused is None:
        assert found == []
        return
    assert [(n, c) for n, c, _ in found] == [refused], found
    words = found[0][2]
    assert "the notice of the hearing is dated from it" in words and "does not guess it" in words, words


def test_the_hearing_is_scheduled_on_the_day_the_row_gives(clerk):
    bring_in(clerk, cases_file({**HEARD, "Case ID": "C-3", "Incident": "I3"}))
    scheduled = Event.objects.get(act="schedule_hearing")
    assert timezone.localtime(scheduled.at).date() == TODAY - dt.timedelta(days=79)
    assert scheduled.data["inputs"]["mailed_on"] == day(79)
