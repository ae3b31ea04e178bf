"""Search through an index built for it, the same on both databases: a case-insensitive match of a piece of
text (at least 3 characters) anywhere in the searched fields.

- PostgreSQL: GIN trigram indexes (pg_trgm) on UPPER(field), which serve Django's `icontains`
  (`UPPER(col) LIKE UPPER('%text%')`) without reading the table.
- SQLite: an FTS5 table per searched table, with the trigram tokenizer (substring match, case-folded), kept
  in step with its table by triggers (both built by migration cases/0004).

`SEARCHED` names the tables and fields; the migration repeats them (a migration does not import code that
may change). `matches(model, text)` is a condition on the model's rows, to filter a queryset with.
"""

from __future__ import annotations

from django.db import connection
from django.db.models import Q
from django.db.models.expressions import RawSQL

MIN_LENGTH = 3  # a trigram: shorter text cannot use the index on either database

# table -> the fields searched in it
SEARCHED: dict[str, tuple[str, ...]] = {
    "cases_dog": ("name", "microchip_number", "licence_number", "breed"),
    "cases_person": ("full_name", "street", "phone", "email", "postal_code"),
    "cases_premises": ("street",),
    "cases_incident": ("number", "place"),
    "cases_case": ("number",),
}


def fts_table(table: str) -> str:
    return f"{table}_search"


def matches(model, text: str, fields: tuple[str, ...] | None = None) -> Q:
    """Rows of `model` with `text` in one of `fields` (default: all its searched fields)."""
    table = model._meta.db_table
    fields = fields or SEARCHED[table]
    unknown = set(fields) - set(SEARCHED[table])
    if unknown:
        raise ValueError(f"not indexed for search: {table}.{', '.join(sorted(unknown))}")
    if connection.vendor == "sqlite":
        fts = fts_table(table)
        phrase = '"' + text.replace('"', '""') + '"'
        columns = "" if set(fields) == set(SEARCHED[table]) else "{" + " ".join(fields) + "} : "
        # the table name is ours (SEARCHED); the text is a parameter, quoted as one FTS5 phrase
        sql = f'SELECT rowid FROM "{fts}" WHERE "{fts}" MATCH %s'  # noqa: S608
        return Q(pk__in=RawSQL(sql, [columns + phrase]))  # noqa: S611
    q = Q(pk__in=[])
    for f in fields:
        q |= Q(**{f"{f}__icontains": text})
    return q


# ------------------------------------------------------------------------------ building the indexes


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


def postgres_create(table: str, fields: tuple[str, ...]) -> list[str]:
    return [
        f"CREATE INDEX IF NOT EXISTS {table}_{f}_trgm ON {table} USING gin (UPPER({f}::text) gin_trgm_ops)"
        for f in fields
    ]


def postgres_drop(table: str, fields: tuple[str, ...]) -> list[str]:
    return [f"DROP INDEX IF EXISTS {table}_{f}_trgm" for f in fields]
