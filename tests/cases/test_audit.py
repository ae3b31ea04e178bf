"""The audit trail: chains per case and per city, keyed hashes, append-only in the database, signed
checkpoints, and `dogcase audit verify` checking the stored files and the records against their events.

The tamperer here is a database administrator: raw SQL, triggers dropped and put back, hashes recomputed by
the rule they can read in the source — but without DOGCASE_AUDIT_KEY."""

import datetime as dt
import hashlib
import json
import os

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import DatabaseError, connection, transaction

from dogcase import cli
from dogcase.cases import acts, append_only, audit
from dogcase.cases.audit import GENESIS, append_event, verify_chain
from dogcase.cases.models import ChainHead, Dog, Event, StoredFile
from dogcase.ops.integrity import verify_all
from tests.cases.conftest import BITE, at
from tests.proofs.helpers import STORED_PNG

TABLE = Event._meta.db_table  # a constant, not input: the raw SQL plays a tamperer
AT = dt.datetime(2026, 3, 2, 9, 30, tzinfo=dt.UTC)
PNG = STORED_PNG  # a real picture: images are re-encoded when they are read


def tamper(sql: str, params=()) -> None:
    """Change the table behind the application's back, as an administrator would: the triggers that refuse
    it are dropped first and put back after, so that only the hashes can tell."""
    append_only.remove(connection)
    try:
        with connection.cursor() as cursor:
            cursor.execute(sql.format(table=TABLE), params)
    finally:
        append_only.install(connection)


def rehash_unkeyed(chain: str) -> None:
    """Recompute every hash of a chain with plain SHA-256 over the canonical form (the rule is in the source;
    the key is not), relink the events and move the head: what `verify` said OK to before the chain was keyed."""
    prev = GENESIS
    for event in Event.objects.filter(chain=chain).order_by("chain_seq"):
        event.prev_hash = prev
        new = hashlib.sha256(f"{prev}\n{audit.canonical(event)}".encode()).hexdigest()
        tamper("UPDATE {table} SET prev_hash = %s, hash = %s WHERE seq = %s", [prev, new, event.seq])
        prev = new
    ChainHead.objects.filter(chain=chain).update(hash=prev)


def write(n: int, city: str = "battle-lake-mn") -> list[Event]:
    out = []
    with transaction.atomic():
        for i in range(n):
            out.append(
                append_event(
                    at=AT + dt.timedelta(minutes=i),
                    jurisdiction=city,
                    kind=Event.Kind.SYSTEM,
                    act="note",
                    summary=f"Note {i}",
                    data={"id": i, "when": dt.date(2026, 3, 2), "nested": {"b": 1, "a": [1, 2]}},
                )
            )
    return out


# ------------------------------------------------------------------------------------------------ chains


def test_events_chain_each_to_the_one_before_in_their_citys_chain(db):
    events = write(3)
    assert {e.chain for e in events} == {"city:battle-lake-mn"}
    assert [e.chain_seq for e in events] == [1, 2, 3]
    assert events[0].seq < events[1].seq < events[2].seq
    assert events[0].prev_hash == GENESIS
    assert events[1].prev_hash == events[0].hash
    assert events[2].prev_hash == events[1].hash
    assert len({e.hash for e in events}) == 3
    report = verify_chain()
    assert (report.ok, report.checked, report.chains, report.problems) == (True, 3, 1, [])


def test_the_hash_is_keyed_a_plain_sha256_is_not_it(db, settings):
    event = write(1)[0]
    plain = hashlib.sha256(f"{GENESIS}\n{audit.canonical(event)}".encode()).hexdigest()
    assert event.hash != plain
    settings.DOGCASE_AUDIT_KEY = "another key, another hash: at least 32 characters long"
    report = verify_chain()
    assert not report.ok
    assert "DOGCASE_AUDIT_KEY" in report.problem


def test_each_case_has_its_own_chain_and_the_citys_records_theirs(story):
    bl = story("battle-lake-mn")
    tracy = story("tracy-mn")
    bl.step("declare", "officer", 1, designation="potentially_dangerous", basis="Bit a person")
    chains = dict(Event.objects.values_list("act", "chain").filter(case=bl.case).distinct())
    assert set(chains.values()) == {f"case:{bl.case.pk}"}
    assert Event.objects.get(act="record_dog", data__id=tracy.dog.pk).chain == "city:tracy-mn"
    assert Event.objects.filter(case=tracy.case).exclude(chain=f"case:{tracy.case.pk}").count() == 0
    # every event is in exactly one chain, at consecutive places
    for chain in Event.objects.values_list("chain", flat=True).distinct():
        places = list(
            Event.objects.filter(chain=chain).order_by("chain_seq").values_list("chain_seq", flat=True)
        )
        assert places == list(range(1, len(places) + 1))
    report = verify_all()
    assert report["ok"], report["problems"]
    assert report["chains"] == 4 and report["records"]["cases"] == 2


def test_append_outside_a_transaction_is_refused(transactional_db):
    with pytest.raises(RuntimeError, match="transaction"):
        append_event(at=AT, jurisdiction="tracy-mn", kind="record", act="x", summary="x")


def test_only_a_correction_may_correct_an_event(db):
    """The index of corrections (cases 0026) holds kind "correction" only: no other kind may correct an event."""
    (event,) = write(1)
    with transaction.atomic(), pytest.raises(ValueError, match="correction"):
        append_event(at=AT, jurisdiction="battle-lake-mn", kind="step", act="x", summary="x", corrects=event)
    assert not Event.objects.filter(corrects=event).exists()


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
    assert Event.objects.get(pk=event.pk).summary == "Note 0"


@pytest.mark.parametrize(
    "sql", ["UPDATE {table} SET summary = 'x' WHERE seq = %s", "DELETE FROM {table} WHERE seq = %s"]
)
def test_the_database_itself_refuses_update_and_delete_of_an_event(db, sql):
    event = write(1)[0]
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(sql.format(table=TABLE), [event.seq])
    assert Event.objects.get(pk=event.pk).summary == "Note 0"


@pytest.mark.skipif(connection.vendor != "postgresql", reason="TRUNCATE is PostgreSQL's")
def test_the_database_refuses_truncate_of_the_events(db):
    write(1)
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # the test's own insert is still pending
            cursor.execute(f"TRUNCATE {TABLE} CASCADE")
    assert Event.objects.count() == 1


def test_verify_reports_a_dropped_trigger(db):
    write(1)
    append_only.remove(connection)
    try:
        report = verify_chain()
    finally:
        append_only.install(connection)
    assert not report.ok
    assert "trigger" in report.problem
    assert verify_chain().ok


# -------------------------------------------------------------------------------------- an administrator


def test_an_event_rewritten_with_its_unkeyed_hashes_recomputed_is_found(db):
    events = write(4)
    tamper("UPDATE {table} SET summary = %s WHERE seq = %s", ["Note X", events[2].seq])
    rehash_unkeyed("city:battle-lake-mn")
    report = verify_chain()
    assert not report.ok
    assert report.first_broken == events[0].seq  # the first event's hash is already not the keyed one
    assert "changed after it was written" in report.problem


def test_an_event_rewritten_without_recomputing_is_named(db):
    events = write(4)
    tamper("UPDATE {table} SET summary = %s WHERE seq = %s", ["Note X", events[2].seq])
    report = verify_chain()
    assert (report.ok, report.first_broken, report.checked) == (False, events[2].seq, 2)
    assert "changed" in report.problem


def test_verify_finds_a_removed_event(db):
    events = write(4)
    tamper("DELETE FROM {table} WHERE seq = %s", [events[1].seq])
    report = verify_chain()
    assert (report.ok, report.first_broken) == (False, events[2].seq)
    assert "missing" in report.problem


def test_verify_finds_a_chain_cut_off_its_end(db):
    events = write(3)
    tamper("DELETE FROM {table} WHERE seq = %s", [events[2].seq])
    report = verify_chain()
    assert not report.ok
    assert "should end at its event 3" in report.problem


def test_a_legacy_global_chain_stays_verifiable_and_sealed(db):
    """Events written before chains per case keep their unkeyed hashes in the chain 'global'; the cut-over's
    keyed seal catches a rewrite of them with the hashes recomputed."""
    prev = GENESIS
    with transaction.atomic():
        for seq in (1, 2, 3):
            e = Event(
                seq=seq,
                chain="global",
                chain_seq=seq,
                at=AT,
                jurisdiction="tracy-mn",
                actor_name="dogcase (system)",
                kind="record",
                act="note",
                summary=f"old {seq}",
                data={"id": seq},
                prev_hash=prev,
            )
            e.hash = hashlib.sha256(f"{prev}\n{audit.canonical(e)}".encode()).hexdigest()
            e.save()
            prev = e.hash
        ChainHead.objects.create(chain="global", seq=3, hash=prev)
        audit.seal_legacy_chain(Event, ChainHead, at=AT)
    write(2)  # new events go to the new chains
    assert verify_chain().ok
    tamper("UPDATE {table} SET summary = %s WHERE seq = %s", ["old 2, rewritten", 2])
    rehash_unkeyed("global")
    report = verify_chain()
    assert not report.ok
    assert "not the chain sealed at the cut-over" in report.problem


# ------------------------------------------------------------------------------------------- checkpoints


def test_a_checkpoint_proves_nothing_before_it_changed(db):
    events = write(3)
    write(1, city="tracy-mn")
    cp = audit.read_checkpoint(json.loads(json.dumps(audit.checkpoint())))
    assert cp["events"] == 4
    assert cp["chains"]["city:battle-lake-mn"] == {"seq": 3, "hash": events[2].hash}
    write(2)  # later events are fine
    assert verify_chain().ok
    assert audit.verify_chains(checkpoint=cp).ok
    # cut the last two events off a chain and move its head back: consistent, and keyed hashes cannot tell
    last = list(Event.objects.filter(chain="city:battle-lake-mn").order_by("chain_seq"))
    tamper("DELETE FROM {table} WHERE seq IN (%s, %s, %s)", [e.seq for e in last[2:]])
    ChainHead.objects.filter(chain="city:battle-lake-mn").update(seq=2, hash=last[1].hash)
    assert verify_chain().ok
    report = audit.verify_chains(checkpoint=cp)
    assert not report.ok
    assert "city:battle-lake-mn had 3 events at the checkpoint" in report.problem


def test_a_checkpoint_changed_after_signing_is_refused(db):
    write(1)
    cp = audit.checkpoint()
    cp["chains"]["city:battle-lake-mn"]["seq"] = 7
    with pytest.raises(audit.CheckpointInvalid, match="signature"):
        audit.read_checkpoint(cp)


def test_audit_commands_verify_and_checkpoint(db, capsys, tmp_path):
    events = write(2)
    assert cli.main(["audit", "verify"]) == 0
    assert json.loads(capsys.readouterr().out)["ok"] is True
    out = tmp_path / "checkpoint.json"
    assert cli.main(["audit", "checkpoint", "--out", str(out)]) == 0
    assert json.loads(capsys.readouterr().out)["chains"] == 1
    assert cli.main(["audit", "verify", "--checkpoint", str(out)]) == 0
    capsys.readouterr()
    tamper("UPDATE {table} SET data = %s WHERE seq = %s", ['{"id": 99}', events[0].seq])
    assert cli.main(["audit", "verify", "--checkpoint", str(out)]) == 1
    report = json.loads(capsys.readouterr().out)
    assert (report["ok"], report["first_broken_event"]) == (False, events[0].seq)
    forged = json.loads(out.read_text())
    forged["events"] = 1
    out.write_text(json.dumps(forged))
    with pytest.raises(SystemExit) as exit_:
        cli.main(["audit", "verify", "--checkpoint", str(out)])
    assert exit_.value.code == 2
    assert "signature" in capsys.readouterr().err


# -------------------------------------------------------------------------------- files and the records


def test_a_changed_evidence_file_is_found(staff, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    officer = staff["officer"]
    dog = acts.record_dog(jurisdiction="tracy-mn", actor=officer, owners=[], name="Rex", at=at(0, 9))
    incident = acts.record_incident(
        jurisdiction="tracy-mn",
        actor=officer,
        occurred_at=at(0, 8),
        place="Main Street",
        place_type="public",
        kind="bite",
        dogs=[dog],
        facts=BITE,
        evidence=[(SimpleUploadedFile("bite.png", PNG, content_type="image/png"), "the wound")],
        at=at(0, 9),
    )
    stored = StoredFile.objects.get()
    assert verify_all()["ok"]
    path = settings.MEDIA_ROOT / stored.path
    os.chmod(path, 0o644)
    path.write_bytes(PNG + b"edited")
    report = verify_all()
    assert not report["ok"]
    (problem,) = report["problems"]
    recorded = Event.objects.get(act="record_incident", data__id=incident.pk)
    assert problem["record"] == f"stored file #{stored.pk} (bite.png)"
    assert problem["event"] == recorded.seq
    assert problem["expected"] == stored.sha256 == hashlib.sha256(PNG).hexdigest()
    assert "content changed" in problem["problem"]


def test_a_case_changed_without_an_event_is_found(story):
    s = story("battle-lake-mn")
    declared = s.step("declare", "officer", 1, designation="dangerous", basis="Bit a person")
    assert verify_all()["ok"]
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE cases_case SET designation = %s, status = %s WHERE id = %s",
            ["potentially_dangerous", "closed", s.case.pk],
        )
    report = verify_all()
    assert not report["ok"]
    by_field = {p["field"]: p for p in report["problems"]}
    assert set(by_field) == {"designation", "status"}
    assert by_field["designation"]["record"] == f"case {s.case.number}"
    assert (by_field["designation"]["stored"], by_field["designation"]["expected"]) == (
        "potentially_dangerous",
        "dangerous",
    )
    assert by_field["designation"]["event"] == declared.seq
    opened = Event.objects.get(case=s.case, act="open_case")
    assert (by_field["status"]["expected"], by_field["status"]["event"]) == ("open", opened.seq)


def test_a_dog_changed_without_an_event_is_found(story, staff):
    from dogcase.cases.updates import update_dog

    s = story("tracy-mn")
    updated = update_dog(s.dog, actor=staff["officer"], changes={"breed": "Boxer"}, reason="owner says so")
    assert verify_all()["ok"]
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE cases_dog SET breed = %s, status = %s WHERE id = %s", ["Poodle", "dead", s.dog.pk]
        )
    report = verify_all()
    by_field = {p["field"]: p for p in report["problems"]}
    assert set(by_field) == {"breed", "status"}
    update_event = Event.objects.get(act="update_dog")
    assert by_field["breed"]["record"] == f"dog #{s.dog.pk} (Rex)"
    assert (by_field["breed"]["stored"], by_field["breed"]["expected"], by_field["breed"]["event"]) == (
        "Poodle",
        "Boxer",
        update_event.seq,
    )
    assert by_field["status"]["expected"] == Dog.Status.IN_CITY
    assert updated.breed == "Boxer"


def test_an_act_is_refused_when_the_key_is_not_the_databases(story, settings, monkeypatch):
    # e.g. a command started without the production key: it would sign with another (or the public) key
    bl = story("battle-lake-mn")
    monkeypatch.setattr(audit, "_keys_checked", set())
    settings.DOGCASE_AUDIT_KEY = "another key, another hash: at least 32 characters long"
    before = Event.objects.count()

    with pytest.raises(audit.WrongAuditKey, match="DOGCASE_AUDIT_KEY is not the key"):
        bl.step("declare", "officer", 0, designation="dangerous", basis="Bite")

    assert Event.objects.count() == before
