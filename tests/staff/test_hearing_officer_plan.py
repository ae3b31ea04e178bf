"""The hearing officer's list reads the acts that designated them through their index on PostgreSQL (cases 0023:
the index holds legal acts only), after ANALYZE, among many acts designating other officers and many record
events that designate no one."""

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from dogcase.cases import hearings
from tests.cases.conftest import SERIOUS, Story, on
from tests.event_plans import plan, write_analyzed

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's plans"),
]

STEPS = 20_000  # acts that designated an officer, 500 officers in turn
RECORDS = 20_000  # record events: no officer


def add_events(case, officer_pk: int) -> None:
    def event(i: int) -> dict:
        step = i < STEPS
        officer = str(officer_pk if i % 500 == 0 else 100_000 + i % 500)
        return {
            "seq": 10**9 + i,
            "chain": f"plan-test:{i % 7}",
            "chain_seq": i,
            "case_id": case.pk if step else None,
            "kind": "step" if step else "record",
            "act": "schedule_hearing" if step else "record_dog",
            "data": json.dumps({"inputs": {"hearing_officer": officer}} if step else {"id": i}),
            "hash": f"{i:064x}",
        }

    write_analyzed(case.jurisdiction, (event(i) for i in range(STEPS + RECORDS)))


def test_the_officers_list_reads_their_acts_through_the_partial_index(staff):
    s = Story(staff, "battle-lake-mn", SERIOUS)
    s.step("declare", "officer", 0, designation="dangerous", basis="Serious bite")
    s.step(
        "serve_notice", "officer", 1, served_on=on(1), method="personal", served_owner="O", received_on=on(1)
    )
    add_events(s.case, staff["hearing"].pk)
    with CaptureQueriesContext(connection) as captured:
        hearings.hearings_to_hold(staff["hearing"], ("battle-lake-mn",))
    acts_read = [q["sql"] for q in captured.captured_queries if "hearing_officer" in q["sql"]]
    assert acts_read, "the list read no act that designates an officer"
    shown = plan(acts_read[0])
    assert "event_hearing_officer" in shown, shown
    assert "Seq Scan on cases_event" not in shown, shown
