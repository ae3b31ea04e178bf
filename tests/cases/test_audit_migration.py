"""The cut-over to chains per case: events written under the one global, unkeyed chain stay as they were,
verifiable by their rule, and sealed by a keyed event, so a rewrite of them is still found."""

import datetime as dt
import hashlib
import json

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from dogcase.cases.audit import AUDIT_CHAIN, GENESIS, SEAL_ACT, verify_chain
from dogcase.cases.models import ChainHead, Event
from tests.cases.test_audit import rehash_unkeyed, tamper, write

BEFORE = [("cases", "0003_prior_history")]
AT = dt.datetime(2026, 3, 2, 9, 30, tzinfo=dt.UTC)


def _old_hash(prev: str, e) -> str:
    """The rule events were hashed by before the chains (kept here as it was, not imported)."""
    body = {
        "seq": e.seq,
        "at": e.at.astimezone(dt.UTC).isoformat(timespec="microseconds"),
        "jurisdiction": e.jurisdiction,
        "case": e.case_id,
        "actor": e.actor_id,
        "actor_name": e.actor_name,
        "actor_roles": e.actor_roles,
        "kind": e.kind,
        "act": e.act,
        "summary": e.summary,
        "citation": e.citation,
        "layer": e.layer,
        "data": e.data,
        "corrects": e.corrects_id,
        "idempotency_key": e.idempotency_key,
    }
    text = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(f"{prev}\n{text}".encode()).hexdigest()


@pytest.fixture
def migrated_from_the_global_chain(transactional_db):
    executor = MigrationExecutor(connection)
    # every app's latest, not only the cases': migrating back to BEFORE also unapplies the apps whose
    # migrations depend on later cases ones (documents), which the tests after this one need
    latest = executor.loader.graph.leaf_nodes()
    executor.migrate(BEFORE)
    executor.loader.build_graph()
    old = executor.loader.project_state(BEFORE).apps
    OldEvent, OldHead = old.get_model("cases", "Event"), old.get_model("cases", "ChainHead")
    prev = GENESIS
    for seq in (1, 2, 3):
        e = OldEvent(
            seq=seq,
            at=AT,
            jurisdiction="tracy-mn",
            actor_name="dogcase (system)",
            kind="record",
            act="note",
            summary=f"written before the chains {seq}",
            data={"id": seq},
            prev_hash=prev,
        )
        e.hash = _old_hash(prev, e)
        e.save()
        prev = e.hash
    OldHead.objects.create(pk=1, seq=3, hash=prev)
    executor = MigrationExecutor(connection)
    executor.migrate(latest)
    yield
    # the test database goes on at the latest migration
    MigrationExecutor(connection).migrate(latest)


def test_events_of_the_global_chain_verify_after_the_cut_over_and_stay_sealed(migrated_from_the_global_chain):
    assert list(Event.objects.filter(chain="global").values_list("chain_seq", flat=True)) == [1, 2, 3]
    seal = Event.objects.get(chain=AUDIT_CHAIN, act=SEAL_ACT)
    assert seal.data["events"] == 3 and seal.data["head"] == ChainHead.objects.get(chain="global").hash
    write(2)  # the new chains start beside it
    report = verify_chain()
    assert report.ok, report.problems
    assert report.checked == 6
    tamper("UPDATE {table} SET summary = %s WHERE seq = %s", ["rewritten", 2])
    rehash_unkeyed("global")
    report = verify_chain()
    assert not report.ok
    assert "not the chain sealed at the cut-over" in report.problem
