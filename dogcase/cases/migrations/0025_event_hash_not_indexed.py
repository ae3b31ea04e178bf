"""An event's hash is no longer indexed: no query looks an event up by its hash (`audit verify` reads each chain
in order and recomputes every hash), and a unique index of keys as random as hashes made each event written
touch a page of its own, paid a hundred thousand times by a file of 100,000 dogs brought in (an event a record;
the concurrent writers of one chain are kept apart by `unique_event_chain_seq`, not by the hash). What keeps
the trail honest is the chain: each hash covers the event and the hash before it, the events are append-only
(cases 0004), and `audit verify` finds a row changed, removed or put in twice.

On PostgreSQL the unique constraint and its LIKE index are dropped by the names the database reports. On
SQLite a column's UNIQUE is part of the table's definition, so the table is made again without it, as Django
remakes a table but keeping what Django's remaking would lose: the append-only triggers, the indexes created in
SQL (cases 0004, 0008, 0023), the AUTOINCREMENT counter (its last id given, never given again) and the
planner's figures of the table when it had them (ANALYZE).
"""

from django.db import migrations, models

TABLE = "cases_event"
UNIQUE_HASH = '"hash" varchar(64) NOT NULL UNIQUE'
PLAIN_HASH = '"hash" varchar(64) NOT NULL'


def _hash_indexes(schema_editor) -> dict[str, dict]:
    with schema_editor.connection.cursor() as cursor:
        found = schema_editor.connection.introspection.get_constraints(cursor, TABLE)
    return {name: c for name, c in found.items() if c["columns"] == ["hash"] and not c["primary_key"]}


def _remake_sqlite_table(schema_editor, old: str, new: str) -> None:
    """The table made again with its column definition `old` written `new`: rows, ids, indexes, triggers, the
    AUTOINCREMENT counter and the planner's figures as they were. Foreign keys are not checked while it runs (Django's schema
    editor turns them off for a migration on SQLite) and are checked when it ends."""
    with schema_editor.connection.cursor() as cursor:
        cursor.execute("SELECT type, name, sql FROM sqlite_master WHERE tbl_name = %s", [TABLE])
        rows = cursor.fetchall()
        table = [sql for kind, _name, sql in rows if kind == "table"]
        if (
            len(table) != 1
            or table[0].count(old) != 1
            or not table[0].startswith(f'CREATE TABLE "{TABLE}" (')
        ):
            raise RuntimeError(f"{TABLE}: its definition is not the one this migration changes")
        kept = [sql for kind, _name, sql in rows if kind in ("index", "trigger") and sql]  # not autoindexes
        cursor.execute("SELECT seq FROM sqlite_sequence WHERE name = %s", [TABLE])
        counter = cursor.fetchone()
        # the planner's figures of the table (ANALYZE) go with it: made again at the end if it had them
        cursor.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_stat1'")
        analyzed = cursor.fetchone() is not None
        if analyzed:
            cursor.execute("SELECT 1 FROM sqlite_stat1 WHERE tbl = %s LIMIT 1", [TABLE])
            analyzed = cursor.fetchone() is not None
        made = (
            table[0].replace(old, new).replace(f'CREATE TABLE "{TABLE}"', f'CREATE TABLE "new__{TABLE}"', 1)
        )
        cursor.execute(made)
        cursor.execute(f'INSERT INTO "new__{TABLE}" SELECT * FROM "{TABLE}"')  # noqa: S608 - our own table
        cursor.execute(f'DROP TABLE "{TABLE}"')  # its triggers go with it, before its rows: none fires
        cursor.execute(f'ALTER TABLE "new__{TABLE}" RENAME TO "{TABLE}"')
        for sql in kept:
            cursor.execute(sql)
        if counter is not None:
            cursor.execute(
                "UPDATE sqlite_sequence SET seq = MAX(seq, %s) WHERE name = %s", [counter[0], TABLE]
            )
        if analyzed:
            cursor.execute(f'ANALYZE "{TABLE}"')


def drop_hash_index(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        _remake_sqlite_table(schema_editor, UNIQUE_HASH, PLAIN_HASH)
        return
    for name, c in _hash_indexes(schema_editor).items():
        if c["unique"]:
            schema_editor.execute(f"ALTER TABLE {TABLE} DROP CONSTRAINT {schema_editor.quote_name(name)}")
        else:
            schema_editor.execute(f"DROP INDEX IF EXISTS {schema_editor.quote_name(name)}")


def add_hash_index(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        _remake_sqlite_table(schema_editor, PLAIN_HASH, UNIQUE_HASH)
        return
    found = _hash_indexes(schema_editor).values()
    model = apps.get_model("cases", "Event")
    field = model._meta.get_field("hash")
    if not any(c["unique"] for c in found):  # two events of one hash make this fail: the index cannot hold
        schema_editor.execute(schema_editor._create_unique_sql(model, [field]))
    if not any(not c["unique"] for c in found) and (
        like := schema_editor._create_like_index_sql(model, field)
    ):
        schema_editor.execute(like)


class Migration(migrations.Migration):
    dependencies = [
        ("cases", "0024_report_obligations_from_the_index"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="event",
                    name="hash",
                    field=models.CharField(max_length=64),
                ),
            ],
            database_operations=[
                migrations.RunPython(drop_hash_index, add_hash_index),
            ],
        ),
    ]
