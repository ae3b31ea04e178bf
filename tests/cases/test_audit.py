"""The audit trail: append-only, hash-chained, and `dogcase audit verify` names the first broken event."""

import datetime as dt
import json

import pytest
from django.db import connection, transaction

from dogcase import cli
from dogcase.cases.audit import GENESIS, append_event, verify_chain
from dogcase.cases.models import Event

TABLE = Event._meta.db_table  # a constant, not input: the raw SQL plays a tamperer
AT = dt.datetime(2026, 3, 2, 9, 30, tzinfo=dt.UTC)


def tamper(sql: str, params=()) -> None:
    """Change the table behind the application's back, as an attacker with database access would."""
    with connection.cursor() as cursor:
        cursor.execute(sql.format(table=TABLE), params)


def write(n: int, actor=None) -> list[Event]:
    out = []
    with transaction.atomic():
        for i in range(n):
            out.append(
                append_event(
                    at=AT + dt.timedelta(minutes=i),
                    jurisdiction="battle-lake-mn",
                    kind=Event.Kind.RECORD,
                    act="record_person",
                    summary=f"Recorded person {i}",
                    actor=actor,
                    data={"id": i, "when": dt.date(2026, 3, 2), "nested": {"b": 1, "a": [1, 2]}},
                )
            )
    return out


def test_events_chain_each_to_the_one_before(db):
    events = write(3)
    assert [e.seq for e in events] == [1, 2, 3]
    assert events[0].prev_hash == GENESIS
    assert events[1].prev_hash == events[0].hash
    assert events[2].prev_hash == events[1].hash
    assert len({e.hash for e in events}) == 3
    assert verify_chain().as_dict() == {"ok": True, "checked": 3, "first_broken_event": None, "problem": ""}


def test_append_outside_a_transaction_is_refused(transactional_db):
    with pytest.raises(RuntimeError, match="transaction"):
        append_event(at=AT, jurisdiction="tracy-mn", kind="record", act="x", summary="x")


def test_events_cannot_be_edited_or_deleted_through_the_application(db):
    event = write(1)[0]
    event.summary = "something else"
    with pytest.raises(PermissionError):
        event.save()
    with pytest.raises(PermissionError):
        event.delete()
    with pytest.raises(PermissionError):
        Event.objects.filter(pk=event.pk).update(summary="x")
    with pytest.raises(PermissionError):
        Event.objects.all().delete()
    assert Event.objects.get(pk=event.pk).summary == "Recorded person 0"


def test_verify_names_the_first_event_changed_behind_the_applications_back(db):
    events = write(4)
    tamper(
        "UPDATE {table} SET summary = %s WHERE seq = %s",
        ["Recorded person X", events[2].seq],
    )
    report = verify_chain()
    assert not report.ok
    assert report.first_broken == 3
    assert "changed" in report.problem
    assert report.checked == 2


def test_verify_finds_a_removed_event(db):
    write(4)
    tamper("DELETE FROM {table} WHERE seq = 2")
    report = verify_chain()
    assert (report.ok, report.first_broken) == (False, 2)
    assert "missing" in report.problem


def test_verify_finds_a_truncated_chain(db):
    write(3)
    tamper("DELETE FROM {table} WHERE seq = 3")
    report = verify_chain()
    assert not report.ok
    assert "should end at event #3" in report.problem


def test_audit_verify_command_exit_codes(db, capsys):
    events = write(2)
    assert cli.main(["audit", "verify"]) == 0
    assert json.loads(capsys.readouterr().out)["ok"] is True
    tamper("UPDATE {table} SET data = %s WHERE seq = %s", ['{"id": 99}', events[0].seq])
    assert cli.main(["audit", "verify"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert (out["ok"], out["first_broken_event"]) == (False, 1)
