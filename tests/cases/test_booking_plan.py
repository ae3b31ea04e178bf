"""A hearing's room is checked without reading the whole audit trail (cases 0026): on PostgreSQL, after ANALYZE,
among many of the city's hearings scheduled and many other events, the check of the bookings finds the
corrected scheduling acts through the index of corrections (`event_corrections`), never by a scan of every
event. Before 0026 PostgreSQL hashed every correction of the state, reading every event to find them (seen
on the statewide data set: 35 ms of a 62 ms check at 95,000 events)."""

import datetime as dt
import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from dogcase.cases import hearings
from dogcase.cases.models import Event
from dogcase.law import library
from tests.cases.conftest import SERIOUS, Story
from tests.event_plans import plan, write_analyzed

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's plans"),
]

SCHEDULED = 5_000  # the city's hearings scheduled this year, each on a day of its own
OTHERS = 40_000  # the rest of the trail: records of the state's people and dogs
CORRECTIONS = 200  # corrections, of the city's scheduling acts


def add_events(case) -> None:
    now = timezone.now()
    first = Event.objects.filter(case=case).order_by("pk").values_list("pk", flat=True).first()

    def event(i: int) -> dict:
        values = {"seq": 10**9 + i, "chain": f"plan-test:{i % 7}", "chain_seq": i, "hash": f"{i:064x}"}
        if i < SCHEDULED:  # a hearing scheduled on a day of the coming months, in the room checked below
            day = (now + dt.timedelta(days=30 + i % 300)).date().isoformat()
            values.update(
                at=now - dt.timedelta(days=i % 200), case_id=case.pk, kind="step", act="schedule_hearing"
            )
            values["data"] = json.dumps({"events": {"hearing_scheduled": f"{day}T09:00:00-06:00"}})
        elif i < SCHEDULED + OTHERS:
            values.update(kind="record", act="record_dog", data=json.dumps({"id": i}))
        else:
            values.update(case_id=case.pk, kind="correction", act="correct_date", corrects_id=first)
            values["data"] = json.dumps({"event": "hearing_scheduled"})
        return values

    write_analyzed(case.jurisdiction, (event(i) for i in range(SCHEDULED + OTHERS + CORRECTIONS)))


def test_the_room_check_finds_corrections_through_their_index(staff):
    s = Story(staff, "battle-lake-mn", SERIOUS)
    s.step("declare", "officer", 0, designation="dangerous", basis="Serious bite")
    add_events(s.case)
    # a moment whose window of scheduling acts (BOOKED_WITHIN) holds all of them: the plan is what is checked
    start = timezone.now() + dt.timedelta(days=350)
    j = library().get("battle-lake-mn")
    with CaptureQueriesContext(connection) as captured:
        hearings.bookings(j, "Council chambers", start, start + dt.timedelta(hours=1), day=start.date())
    checks = [
        q["sql"] for q in captured.captured_queries if "corrects_id" in q["sql"] and "EXISTS" in q["sql"]
    ]
    assert checks, "the room check asked nothing of the corrections"
    shown = plan(checks[0])
    assert "event_corrections" in shown, shown
    assert "Seq Scan on cases_event" not in shown, shown
