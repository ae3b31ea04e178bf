"""The hearing officer's list reads the acts that designated them through their index on PostgreSQL (cases 0023:
the index holds legal acts only), after ANALYZE, among many acts designating other officers and many record
events that designate no one."""

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from dogcase.cases import hearings
from dogcase.cases.bulk import insert_rows
from dogcase.cases.models import Event
from tests.cases.conftest import SERIOUS, Story, on

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's plans"),
]

STEPS = 20_000  # acts that designated an officer, 500 officers in turn
RECORDS = 20_000  # record events: no officer


def add_events(case, officer_pk: int) -> None:
    columns = [f.attname for f in Event._meta.concrete_fields if not f.primary_key]
    now = timezone.now()
    base = {c: None for c in columns}
    base.update(at=now, jurisdiction=case.jurisdiction, actor_name="seed", actor_roles="city_clerk", summary="s",
                citation="", layer="", prev_hash="0" * 64)  # fmt: skip
    rows = []
    for i in range(STEPS + RECORDS):
        step = i < STEPS
        officer = str(officer_pk if i % 500 == 0 else 100_000 + i % 500)
        values = {
            **base,
            "seq": 10**9 + i,
            "chain": f"plan-test:{i % 7}",
            "chain_seq": i,
            "case_id": case.pk if step else None,
            "kind": "step" if step else "record",
            "act": "schedule_hearing" if step else "record_dog",
            "data": json.dumps({"inputs": {"hearing_officer": officer}} if step else {"id": i}),
            "hash": f"{i:064x}",
        }
        rows.append([values[c] for c in columns])
    insert_rows(Event, columns, rows)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE cases_event")


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
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN " + acts_read[0])
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "event_hearing_officer" in plan, plan
    assert "Seq Scan on cases_event" not in plan, plan
