from django.db import migrations, models

# The searched fields of the person table as of migration 0008 (dogcase/staff/search_index.py SEARCHED).
PERSON_SEARCHED = ("full_name", "street", "phone", "email", "postal_code")


# The SQLite search index of a table as migration 0008 builds it: a copy of dogcase/staff/search_index.py
# (the same SQL), so that a later change there does not change what this migration does.


def fts_table(table: str) -> str:
    return f"{table}_search"


def sqlite_create(table: str, fields: tuple[str, ...]) -> list[str]:
    fts = fts_table(table)
    cols = ", ".join(fields)
    new = ", ".join(f"new.{f}" for f in fields)
    old = ", ".join(f"old.{f}" for f in fields)
    return [
        f"CREATE VIRTUAL TABLE {fts} USING fts5({cols}, content='{table}', content_rowid='id', "
        "tokenize='trigram')",
        f"CREATE TRIGGER {fts}_ai AFTER INSERT ON {table} BEGIN "  # noqa: S608 - names of our own tables
        f"INSERT INTO {fts}(rowid, {cols}) VALUES (new.id, {new}); END",
        f"CREATE TRIGGER {fts}_ad AFTER DELETE ON {table} BEGIN "  # noqa: S608 - names of our own tables
        f"INSERT INTO {fts}({fts}, rowid, {cols}) VALUES ('delete', old.id, {old}); END",
        f"CREATE TRIGGER {fts}_au AFTER UPDATE ON {table} BEGIN "  # noqa: S608 - names of our own tables
        f"INSERT INTO {fts}({fts}, rowid, {cols}) VALUES ('delete', old.id, {old}); "
        f"INSERT INTO {fts}(rowid, {cols}) VALUES (new.id, {new}); END",
        f"INSERT INTO {fts}({fts}) VALUES ('rebuild')",  # noqa: S608
    ]


def sqlite_drop(table: str) -> list[str]:
    fts = fts_table(table)
    return [f"DROP TRIGGER IF EXISTS {fts}_{t}" for t in ("ai", "ad", "au")] + [f"DROP TABLE IF EXISTS {fts}"]


def rebuild_person_search(apps, schema_editor):
    """SQLite adds a NOT NULL column by copying the table into a new one, which drops the triggers that keep
    the person search index (migration 0008) in step: build them again. PostgreSQL alters the table in place
    and keeps its indexes."""
    if schema_editor.connection.vendor != "sqlite":
        return
    for sql in sqlite_drop("cases_person") + sqlite_create("cases_person", PERSON_SEARCHED):
        schema_editor.execute(sql)


class Migration(migrations.Migration):
    dependencies = [
        ("cases", "0009_city_access_names"),
    ]

    operations = [
        # undone last when migrating back: removing the column copies the table again
        migrations.RunPython(migrations.RunPython.noop, rebuild_person_search),
        migrations.AddField(
            model_name="person",
            name="preferred_language",
            field=models.CharField(
                choices=[("en", "English"), ("es", "Spanish (español)")],
                default="en",
                max_length=8,
                verbose_name="language for letters",
            ),
        ),
        migrations.RunPython(rebuild_person_search, migrations.RunPython.noop),
    ]
