"""cases 0025: the events' hash loses its unique index, and nothing else of the audit trail changes: the rows,
their ids, the chains, the append-only triggers, the other indexes, and (SQLite) the counter of ids given.
Back to 0024, the hash is unique again."""

import pytest
from django.db import DatabaseError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

from dogcase.cases.audit import verify_chain
from dogcase.cases.models import Event
from tests.cases.test_audit import write

BEFORE = [("cases", "0024_report_obligations_from_the_index")]


def hash_indexes() -> dict[str, bool]:
    """The indexes of the events' hash column: name -> unique."""
    with connection.cursor() as cursor:
        found = connection.introspection.get_constraints(cursor, "cases_event")
    return {name: c["unique"] for name, c in found.items() if c["columns"] == ["hash"]}


def other_indexes_and_triggers() -> set[str]:
    """Every index but the hash's, and every trigger, of the events' table, by name (SQL-made ones included)."""
    with connection.cursor() as cursor:
        found = connection.introspection.get_constraints(cursor, "cases_event")
        names = {name for name, c in found.items() if c["columns"] != ["hash"]}
        if connection.vendor == "sqlite":
            cursor.execute(
                "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'cases_event'"
            )
        else:
            cursor.execute(
                "SELECT tgname FROM pg_trigger WHERE tgrelid = 'cases_event'::regclass AND NOT tgisinternal"
            )
        names |= {f"trigger {row[0]}" for row in cursor.fetchall()}
    if connection.vendor == "sqlite":  # an autoindex's number follows the table's UNIQUE columns
        names = {n for n in names if not n.startswith("sqlite_autoindex")}
    return names


def rows() -> list[tuple]:
    return list(
        Event.objects.order_by("id").values_list("id", "seq", "chain", "chain_seq", "prev_hash", "hash")
    )


def refuses_update() -> bool:
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("UPDATE cases_event SET summary = 'rewritten'")
    except DatabaseError as exc:
        return "append-only" in str(exc)
    return False


@pytest.mark.django_db(transaction=True)
def test_the_hash_loses_its_index_and_nothing_else_of_the_trail_changes():
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()
    try:
        written = write(4) + write(2, city="tracy-mn")
        assert hash_indexes() == {}  # the latest migration: no index of the hash
        kept, others = rows(), other_indexes_and_triggers()
        assert len(kept) == 6 and refuses_update()

        executor.migrate(BEFORE)  # back: the hash unique again, everything else as it was
        assert list(hash_indexes().values()).count(True) == 1
        assert rows() == kept and other_indexes_and_triggers() == others and refuses_update()

        MigrationExecutor(connection).migrate(latest)  # forward again, as a city's database upgrades
        assert hash_indexes() == {}
        assert rows() == kept and other_indexes_and_triggers() == others and refuses_update()
        report = verify_chain()
        assert report.ok and report.checked == 6, report.problems

        # the ids go on after the last one given, and a new event joins its city's chain
        (after,) = write(1)
        assert after.pk > max(e.pk for e in written)
        assert after.chain == written[0].chain and after.chain_seq == 5 and after.prev_hash == written[3].hash
        assert verify_chain().ok
    finally:
        MigrationExecutor(connection).migrate(latest)


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's counter of the ids it has given")
def test_sqlite_keeps_its_counter_of_ids_across_the_remade_table():
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()
    try:
        write(3)
        with connection.cursor() as cursor:
            # an id given and rolled forward past (as a later event removed behind the application's back
            # would leave it): the counter, not the rows' largest id, says which ids were given
            cursor.execute("UPDATE sqlite_sequence SET seq = seq + 100 WHERE name = 'cases_event'")
            cursor.execute("SELECT seq FROM sqlite_sequence WHERE name = 'cases_event'")
            (given,) = cursor.fetchone()
        executor.migrate(BEFORE)
        MigrationExecutor(connection).migrate(latest)
        with connection.cursor() as cursor:
            cursor.execute("SELECT seq FROM sqlite_sequence WHERE name = 'cases_event'")
            assert cursor.fetchone()[0] == given
        (after,) = write(1)
        assert after.pk == given + 1
    finally:
        MigrationExecutor(connection).migrate(latest)
