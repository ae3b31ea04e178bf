"""Events are append-only in the database itself: triggers refuse UPDATE and DELETE (and TRUNCATE) on the
event table, on PostgreSQL and on SQLite, whatever the statement and whoever sends it through the
application's connection. The model refuses them too, but raw SQL passes the model; not the triggers.

An administrator who owns the table can drop a trigger: that is what the keyed hashes and the signed
checkpoints are for (dogcase.cases.audit). `dogcase audit verify` reports a trigger that is missing or
disabled. docs/cases.md says how to revoke UPDATE, DELETE and TRUNCATE from the application's role.
"""

from __future__ import annotations

TABLE = "cases_event"
REFUSAL = "audit events are append-only: {op} on cases_event refused (write a correction event instead)"

POSTGRESQL_TRIGGERS = ("cases_event_append_only", "cases_event_no_truncate")
SQLITE_TRIGGERS = ("cases_event_no_update", "cases_event_no_delete")

_POSTGRESQL_INSTALL = [
    f"""
    CREATE OR REPLACE FUNCTION cases_event_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION '{REFUSAL.format(op="%")}', TG_OP;
    END
    $$""",
    f"""CREATE TRIGGER cases_event_append_only BEFORE UPDATE OR DELETE ON {TABLE}
        FOR EACH ROW EXECUTE FUNCTION cases_event_refuse_change()""",
    f"""CREATE TRIGGER cases_event_no_truncate BEFORE TRUNCATE ON {TABLE}
        FOR EACH STATEMENT EXECUTE FUNCTION cases_event_refuse_change()""",
]
_POSTGRESQL_REMOVE = [
    f"DROP TRIGGER IF EXISTS cases_event_append_only ON {TABLE}",
    f"DROP TRIGGER IF EXISTS cases_event_no_truncate ON {TABLE}",
    "DROP FUNCTION IF EXISTS cases_event_refuse_change()",
]
_SQLITE_INSTALL = [
    f"""CREATE TRIGGER IF NOT EXISTS cases_event_no_update BEFORE UPDATE ON {TABLE}
        BEGIN SELECT RAISE(ABORT, '{REFUSAL.format(op="UPDATE")}'); END""",
    f"""CREATE TRIGGER IF NOT EXISTS cases_event_no_delete BEFORE DELETE ON {TABLE}
        BEGIN SELECT RAISE(ABORT, '{REFUSAL.format(op="DELETE")}'); END""",
]
_SQLITE_REMOVE = [
    "DROP TRIGGER IF EXISTS cases_event_no_update",
    "DROP TRIGGER IF EXISTS cases_event_no_delete",
]


def install_sql(vendor: str) -> list[str]:
    return {"postgresql": _POSTGRESQL_INSTALL, "sqlite": _SQLITE_INSTALL}.get(vendor, [])


def remove_sql(vendor: str) -> list[str]:
    return {"postgresql": _POSTGRESQL_REMOVE, "sqlite": _SQLITE_REMOVE}.get(vendor, [])


def expected_triggers(vendor: str) -> tuple[str, ...]:
    return {"postgresql": POSTGRESQL_TRIGGERS, "sqlite": SQLITE_TRIGGERS}.get(vendor, ())


def installed_triggers(connection) -> set[str]:
    """The refusing triggers present and enabled on the event table."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT tgname FROM pg_trigger WHERE tgrelid = %s::regclass AND NOT tgisinternal "
                "AND tgenabled <> 'D'",
                [TABLE],
            )
        elif connection.vendor == "sqlite":
            cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = %s", [TABLE])
        else:
            return set()
        return {row[0] for row in cursor.fetchall()}


def missing_triggers(connection) -> list[str]:
    present = installed_triggers(connection)
    return [name for name in expected_triggers(connection.vendor) if name not in present]


def install(connection) -> None:
    with connection.cursor() as cursor:
        for statement in install_sql(connection.vendor):
            cursor.execute(statement)


def remove(connection) -> None:
    with connection.cursor() as cursor:
        for statement in remove_sql(connection.vendor):
            cursor.execute(statement)


# PostgreSQL numbers events across chains from a sequence (numbers are never handed out twice, even to
# writers running at the same time); SQLite takes the next number under its database-wide write lock.
SEQUENCE = "cases_event_global_seq"


def sequence_sql(vendor: str) -> list[str]:
    if vendor != "postgresql":
        return []
    return [
        f"CREATE SEQUENCE IF NOT EXISTS {SEQUENCE} AS bigint",
        f"SELECT setval('{SEQUENCE}', COALESCE((SELECT MAX(seq) FROM {TABLE}), 0) + 1, false)",  # noqa: S608 - constants
    ]
