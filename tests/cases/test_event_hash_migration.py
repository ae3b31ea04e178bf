"""cases 0025: the events' hash loses its unique index, and nothing else of the database changes: the rows,
their ids, the chains, the append-only triggers, the other indexes and constraints of every table (those that
refer to the events too), the planner's figures and (SQLite) the counter of ids given. Back to 0024, the hash is
unique again and the schema is the one it was. cases 0026 (the index of corrections) is checked the same way."""

import pytest
from django.db import DatabaseError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

from dogcase.cases import append_only
from dogcase.cases.audit import append_event, verify_chain
from dogcase.cases.models import Event
from tests.cases.test_audit import write

BEFORE = [("cases", "0024_report_obligations_from_the_index")]
AFTER = [("cases", "0025_event_hash_not_indexed")]
UNIQUE_HASH = '"hash" varchar(64) NOT NULL UNIQUE'
PLAIN_HASH = '"hash" varchar(64) NOT NULL'


def hash_indexes() -> dict[str, bool]:
    """The indexes of the events' hash column: name -> unique."""
    with connection.cursor() as cursor:
        found = connection.introspection.get_constraints(cursor, "cases_event")
    return {name: c["unique"] for name, c in found.items() if c["columns"] == ["hash"]}


def schema() -> dict[str, str]:
    """Every table, index, constraint and trigger of the database, by name, with its definition."""
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL")
            return {f"{kind} {name}": sql for kind, name, sql in cursor.fetchall()}
        cursor.execute(
            "SELECT 'index ' || indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() "
            "UNION ALL SELECT 'constraint ' || conrelid::regclass || ' ' || conname, pg_get_constraintdef(oid) "
            "FROM pg_constraint WHERE connamespace = current_schema()::regnamespace "
            "UNION ALL SELECT 'trigger ' || tgname, pg_get_triggerdef(oid) FROM pg_trigger WHERE NOT tgisinternal"
        )
        return dict(cursor.fetchall())


def without_the_hash_index(before: dict[str, str]) -> dict[str, str]:
    """The schema `before` as 0025 leaves it: the hash's index gone, the rest the same words."""
    if connection.vendor == "sqlite":
        after = dict(before)
        assert after["table cases_event"].count(UNIQUE_HASH) == 1
        after["table cases_event"] = after["table cases_event"].replace(UNIQUE_HASH, PLAIN_HASH)
        return after
    hashes = set(hash_indexes())
    assert len(hashes) == 2  # the unique constraint (its index has its name) and the LIKE index
    return {k: v for k, v in before.items() if k.rsplit(" ", 1)[-1] not in hashes}


def rows() -> list[tuple]:
    return list(
        Event.objects.order_by("id").values_list("id", "seq", "chain", "chain_seq", "prev_hash", "hash")
    )


def refuses(statement: str) -> bool:
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(statement)
    except DatabaseError as exc:
        return "append-only" in str(exc)
    return False


def append_only_kept() -> bool:
    return (
        append_only.missing_triggers(connection) == []
        and refuses("UPDATE cases_event SET summary = 'rewritten'")
        and refuses("DELETE FROM cases_event")
    )


def analyzed_events() -> list[tuple]:
    """The planner's figures of the events' table that the database holds: on SQLite, each named index's (an
    autoindex's number follows the table's UNIQUE columns, one fewer after 0025); on PostgreSQL, its columns'."""
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute(
                "SELECT idx, stat FROM sqlite_stat1 WHERE tbl = 'cases_event' "
                "AND idx NOT LIKE 'sqlite_autoindex%' ORDER BY idx"
            )
        else:
            cursor.execute("SELECT attname FROM pg_stats WHERE tablename = 'cases_event' ORDER BY attname")
        return cursor.fetchall()


@pytest.mark.django_db(transaction=True)
def test_the_hash_loses_its_index_and_nothing_else_of_the_database_changes():
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()
    try:
        executor.migrate(BEFORE)  # the database as a city has it before upgrading
        written = write(4) + write(2, city="tracy-mn")
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE cases_event")
        before, kept, figures = schema(), rows(), analyzed_events()
        assert list(hash_indexes().values()).count(True) == 1 and append_only_kept()
        assert len(kept) == 6 and len(figures) > 3
        expected = without_the_hash_index(before)

        MigrationExecutor(connection).migrate(AFTER)  # the upgrade
        assert hash_indexes() == {}
        assert schema() == expected  # every other table, index, constraint and trigger, word for word
        assert rows() == kept and append_only_kept() and analyzed_events() == figures
        report = verify_chain()
        assert report.ok and report.checked == 6, report.problems

        MigrationExecutor(connection).migrate(BEFORE)  # back: the hash unique again
        assert list(hash_indexes().values()).count(True) == 1
        if connection.vendor == "sqlite":
            assert schema() == before
        else:  # the constraint and the LIKE index made again under Django's names for them
            assert without_the_hash_index(schema()) == expected
        assert rows() == kept and append_only_kept()

        MigrationExecutor(connection).migrate(AFTER)
        assert schema() == expected and rows() == kept and append_only_kept()
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
        executor.migrate(BEFORE)
        write(3)
        with connection.cursor() as cursor:
            # an id given and rolled forward past (as a later event removed behind the application's back
            # would leave it): the counter, not the rows' largest id, says which ids were given
            cursor.execute("UPDATE sqlite_sequence SET seq = seq + 100 WHERE name = 'cases_event'")
            cursor.execute("SELECT seq FROM sqlite_sequence WHERE name = 'cases_event'")
            (given,) = cursor.fetchone()
        MigrationExecutor(connection).migrate(AFTER)
        with connection.cursor() as cursor:
            cursor.execute("SELECT seq FROM sqlite_sequence WHERE name = 'cases_event'")
            assert cursor.fetchone()[0] == given
        (after,) = write(1)
        assert after.pk == given + 1
    finally:
        MigrationExecutor(connection).migrate(latest)


@pytest.mark.django_db(transaction=True)
def test_the_corrections_index_replaces_the_column_index_and_nothing_else_changes():
    """cases 0026: the index of `corrects` gives way to one of the corrections only; the table is not made
    again (SQLite keeps its triggers and SQL-made indexes), and back to 0025 the column's index is there again."""
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()

    def corrects_indexes() -> dict[str, bool]:  # name -> partial (of the corrections only)
        with connection.cursor() as cursor:
            found = connection.introspection.get_constraints(cursor, "cases_event")
        return {
            name: name == "event_corrections"
            for name, c in found.items()
            if c["index"] and c["columns"] == ["corrects_id"]
        }

    try:
        executor.migrate(AFTER)
        first = write(3)[0]
        with transaction.atomic():  # a correction of the first, for the new index to hold
            append_event(at=first.at, jurisdiction=first.jurisdiction, kind="correction", act="correct_date",
                         summary="A date corrected", corrects=first)  # fmt: skip
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE cases_event")
        before, kept = schema(), rows()
        assert list(corrects_indexes().values()) == [False] and append_only_kept()

        MigrationExecutor(connection).migrate([("cases", "0026_event_corrections_index")])
        assert corrects_indexes() == {"event_corrections": True}
        after = schema()
        assert {k: v for k, v in after.items() if k != "index event_corrections"} == {
            k: v for k, v in before.items() if not k.startswith("index cases_event_corrects_id")
        }
        assert (
            "WHERE" in after["index event_corrections"] and "'correction'" in after["index event_corrections"]
        )
        assert rows() == kept and append_only_kept() and verify_chain().ok
        if connection.vendor == "sqlite":  # the new index's figures, beside the table's
            with connection.cursor() as cursor:
                cursor.execute("SELECT count(*) FROM sqlite_stat1 WHERE idx = 'event_corrections'")
                assert cursor.fetchone()[0] == 1

        MigrationExecutor(connection).migrate(AFTER)
        assert schema() == before and rows() == kept and append_only_kept()
    finally:
        MigrationExecutor(connection).migrate(latest)
