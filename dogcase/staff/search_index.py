"""Search through an index built for it, the same on both databases: a case-insensitive match of a piece of
text (at least 3 characters) anywhere in the searched fields.

- PostgreSQL: GIN trigram indexes (pg_trgm) on UPPER(field), which serve Django's `icontains`
  (`UPPER(col) LIKE UPPER('%text%')`) without reading the table.
  A search of all of a table's fields reads one more GIN trigram index, on the fields joined by a separator
  no search text holds (migration cases/0013): one index scan, where an OR of the fields' indexes made the
  planner read the table instead.
- SQLite: an FTS5 table per searched table, with the trigram tokenizer (substring match, case-folded), kept
  in step with its table by triggers (both built by migration cases/0004).

`SEARCHED` names the tables and fields; the migration repeats them (a migration does not import code that
may change). `matching(model, text, cities)` is the ids of at most MATCH_LIMIT matching rows (one bounded
query of the index), `matched` the same ids read at once (a match that several lists use), `matched_fields`
those of all a table's fields and of narrower sets of them from one read of the index; `among(key, ids)` a
condition on rows whose key is one of such ids (the rows' own id, or a foreign key), and `first_of` the
ids of the first rows of a list found several ways, for `among`.

On PostgreSQL the query shapes leave the planner no plan that reads a whole table, whatever its statistics
say (tests/staff/test_search_plans.py explains each statement of the search): the text is an InitPlan's
value, which no statistics describe, so that the matches are always read through the search index; and
`among` is `key = ANY(ARRAY(ids))`, which the planner reads through the key's index, a few rows expected,
sorting them for the page, where `key IN (ids)` let it join the ids to the whole table (a sequential scan
of the people, for a common surname) or walk a name index in the page's order.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from django.db import connection
from django.db.models import BooleanField, F, Lookup, Q, QuerySet, Subquery
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


MATCH_LIMIT = 1000  # rows one search term reads at most: a common surname costs what a rare one does

# The text as PostgreSQL's planner sees it: a value computed when the query runs (an InitPlan), not a constant.
# The column's statistics then cannot tell it that a common surname matches a large part of the table (with
# them, it read the table from its start until it had `limit` matches, instead of the index): it takes the
# fixed estimate of a pattern it does not know (0.5 % of the rows, DEFAULT_MATCH_SEL), at which the index
# costs less than the table.
_PATTERN = "(SELECT UPPER(%s))"


def matching(model, text: str, cities, fields: tuple[str, ...] | None = None, *, limit: int | None = None):
    """The ids of at most `limit` rows of `model` in `cities` with `text` in one of `fields` (default: all its
    searched fields), as the index finds them (unordered: the caller orders what it shows): one bounded query
    of one column, read through the search index alone, for `among`. `limit` is MATCH_LIMIT by default."""
    limit = MATCH_LIMIT if limit is None else limit
    table = model._meta.db_table
    fields = tuple(fields or SEARCHED[table])
    unknown = set(fields) - set(SEARCHED[table])
    if unknown:
        raise ValueError(f"not indexed for search: {table}.{', '.join(sorted(unknown))}")
    cities = sorted(cities)
    if not cities:
        return model.objects.none().values("pk")
    if connection.vendor == "sqlite":
        fts = fts_table(table)
        phrase = '"' + text.replace('"', '""') + '"'
        columns = "" if set(fields) == set(SEARCHED[table]) else "{" + " ".join(fields) + "} : "
        # the names are ours (SEARCHED); the text and the cities are parameters, the text one FTS5 phrase
        sql = (
            f'SELECT "{fts}".rowid FROM "{fts}" JOIN "{table}" ON "{table}".id = "{fts}".rowid '  # noqa: S608
            f'WHERE "{fts}" MATCH %s AND "{table}".jurisdiction IN ({", ".join(["%s"] * len(cities))}) '
            f"LIMIT {int(limit)}"
        )
        return RawSQL(sql, [columns + phrase, *cities])  # noqa: S611
    sql, params = _condition(table, fields, text)
    condition = RawSQL(sql, params, output_field=BooleanField())  # noqa: S611 - our names
    # unordered: any `limit` of the matches, as the trigram index gives them (an order would walk a name index)
    return model.objects.filter(condition, jurisdiction__in=cities).order_by().values("pk")[:limit]


def matched(model, text: str, cities, fields: tuple[str, ...] | None = None) -> list[int]:
    """`matching` read now: the ids themselves, for a match that several lists use (each would otherwise run
    it again as its own subquery: a common surname's match is most of a search's time)."""
    found = matching(model, text, cities, fields)
    if isinstance(found, RawSQL):
        with connection.cursor() as cursor:
            cursor.execute(found.sql, found.params)
            return [pk for (pk,) in cursor.fetchall()]
    return [row["pk"] for row in found]


def _condition(table: str, fields: tuple[str, ...], text: str) -> tuple[str, list[str]]:
    """PostgreSQL's condition of `text` in one of `fields`, written as the search index of those fields is
    (so that it is read through it), and its parameters."""
    # LIKE's own characters in the text are matched as typed
    pattern = "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    if (table, fields) in COMBINED:
        # the fields joined, as the index of migration cases/0013 joins them: a text with the separator in it (never
        # typed) cannot match across two fields
        conditions = [f"{all_fields_expression(table, fields)} LIKE {_PATTERN}"]
    else:
        # each field as migration cases/0008 indexed it (postgres_create); the columns are not qualified: the
        # query reads the table alone, under the alias Django gives it in a subquery
        conditions = [f'UPPER("{f}"::text) LIKE {_PATTERN}' for f in fields]
    return " OR ".join(conditions), [pattern] * len(conditions)


def matched_fields(model, text: str, cities, narrower: tuple[tuple[str, ...], ...]) -> list[list[int]]:
    """`matched` of all the searched fields of `model`, then of each of the `narrower` field sets, reading
    the table's search index once on PostgreSQL: one statement returns the ids of the matches of all the
    fields (at most MATCH_LIMIT) and, for each, whether the narrower fields match too.

    The narrower ids are exactly those that `matched` of those fields would read: every match of the
    narrower fields is a match of all of them, and each query reads its matches in the order of the table
    (a bitmap of the index, then the table's pages in order). So when all the matches were read (fewer than
    MATCH_LIMIT), or when every one read also matches the narrower fields (then they are the first
    MATCH_LIMIT of those too), the narrower ids are among those read; otherwise (a text common in the other
    fields) the narrower fields are matched on their own, as before. SQLite matches each set on its own."""
    return matched_tables(text, cities, [(model, narrower)])[0]


def matched_tables(text: str, cities, wanted) -> list[list[list[int]]]:
    """`matched_fields` of several tables (`wanted`: (model, narrower) pairs), in one statement on PostgreSQL
    (each table's match a part of a UNION ALL, read as on its own)."""
    cities = sorted(cities)
    if connection.vendor != "postgresql" or not cities:
        return [
            [matched(model, text, cities)] + [matched(model, text, cities, f) for f in narrower]
            for model, narrower in wanted
        ]
    width = max(len(narrower) for _, narrower in wanted)
    parts, params = [], []
    for n, (model, narrower) in enumerate(wanted):
        table = model._meta.db_table
        everything = SEARCHED[table]
        flags = []
        for fields in narrower:
            if set(fields) - set(everything):
                raise ValueError(f"not indexed for search: {table}.{', '.join(fields)}")
            flag, flag_params = _condition(table, tuple(fields), text)
            flags.append(f"({flag})")
            params += flag_params
        flags += ["FALSE"] * (width - len(narrower))
        where, where_params = _condition(table, everything, text)
        # the names are ours (SEARCHED); the text and the cities are parameters
        parts.append(
            f'SELECT * FROM (SELECT {n} AS "n", "id"{"".join(", " + f for f in flags)} '  # noqa: S608
            f'FROM "{table}" WHERE ({where}) AND "jurisdiction" IN ({", ".join(["%s"] * len(cities))}) '
            f'LIMIT {int(MATCH_LIMIT)}) AS "m{n}"'
        )
        params += [*where_params, *cities]
    with connection.cursor() as cursor:
        cursor.execute(" UNION ALL ".join(parts), params)
        rows = cursor.fetchall()
    found = []
    for n, (model, narrower) in enumerate(wanted):
        read = [row[1:] for row in rows if row[0] == n]
        ids = [[row[0] for row in read]]
        complete = len(read) < MATCH_LIMIT
        for k, fields in enumerate(narrower, start=1):
            if complete or all(row[k] for row in read):
                ids.append([row[0] for row in read if row[k]])
            else:
                ids.append(matched(model, text, cities, tuple(fields)))
        found.append(ids)
    return found


class _InArray(Lookup):
    """`key = ANY(ARRAY(subquery))`: the subquery runs first, on its own (an InitPlan), and the rows are then
    read by their key. PostgreSQL plans an array it does not know yet as a few values (10), so that it reads
    them through the key's index whatever the statistics, and sorts them for an ORDER BY; `key IN (subquery)`
    let it join the subquery to the whole table (a sequential scan) or walk an index in the order shown."""

    lookup_name = "in_array"  # not registered: used as an expression (`among`)

    def as_sql(self, compiler, connection):
        lhs, lhs_params = self.process_lhs(compiler, connection)
        rhs, rhs_params = compiler.compile(self.rhs)
        return f"{lhs} = ANY(ARRAY{rhs})", (*lhs_params, *rhs_params)


def among(key: str, ids) -> Q:
    """Rows whose `key` (a field name: "pk", "dog_id") is one of `ids`: a query of one column, such as
    `matching` gives or a queryset's `values("dog_id")` built from one, or the ids themselves (`matched`).

    The ids given themselves are one parameter, however many (up to MATCH_LIMIT) there are: on PostgreSQL an
    array unnested in a subquery, so that the planner knows as little of them as of a subquery's and reads
    the rows by their key (given a list of a thousand values, it could join them to the whole table); on
    SQLite a JSON array read by json_each (a list of values in the statement would meet SQLite's limit on
    them)."""
    if connection.vendor == "postgresql" and isinstance(ids, RawSQL):
        return Q(_InArray(F(key), ids))
    if connection.vendor == "postgresql" and isinstance(ids, QuerySet):
        if ids.query.is_empty():  # no cities: no query at all, as `key__in=[]`
            return Q(**{f"{key}__in": []})
        return Q(_InArray(F(key), Subquery(ids)))
    if connection.vendor == "postgresql" and isinstance(ids, list):
        if not ids:
            return Q(**{f"{key}__in": []})
        unnested = RawSQL("SELECT unnest(%s::bigint[])", [_array_text(ids)])  # noqa: S611 - no text
        return Q(_InArray(F(key), unnested))
    if connection.vendor == "sqlite" and isinstance(ids, list):
        if not ids:
            return Q(**{f"{key}__in": []})
        listed = RawSQL("SELECT value FROM json_each(%s)", [json.dumps([int(pk) for pk in ids])])  # noqa: S611
        return Q(**{f"{key}__in": listed})
    return Q(**{f"{key}__in": ids})


def _array_text(ids) -> str:
    """Ids as PostgreSQL's text of an array ("{1,2,3}"), which the client sends as it is."""
    return "{" + ",".join(str(int(pk)) for pk in ids) + "}"


def _in(column: str, ids: list[int]) -> tuple[str, list]:
    """`column` is one of `ids`, as `among` writes it: on PostgreSQL an array the planner does not see (read
    by the column's index), on SQLite a JSON array read by json_each."""
    ids = [int(pk) for pk in ids]
    if connection.vendor == "postgresql":
        return f'"{column}" = ANY(ARRAY(SELECT unnest(%s::bigint[])))', [_array_text(ids)]
    return f'"{column}" IN (SELECT value FROM json_each(%s))', [json.dumps(ids)]  # noqa: S608 - our names


def _in_select(column: str, sql: str, params: list) -> tuple[str, list]:
    if connection.vendor == "postgresql":
        return f'"{column}" = ANY(ARRAY({sql}))', params
    return f'"{column}" IN ({sql})', params


@dataclass(frozen=True)
class Through:
    """The rows whose `column` is a `select` of the link table `table` whose `key` is one of `ids` (the dogs
    of some people: `Through("cases_ownership", "dog_id", "person_id", people)`)."""

    table: str
    select: str
    key: str
    ids: list[int]


def first_of(model, cities, order: str, ways: list[tuple[str, list[int] | Through]], limit: int) -> Q | None:
    """Rows of `model` in `cities` found one of several ways: for each way (`column` one of some ids, or of
    those a link table gives), its first `limit` rows in `order` (SQL: '"name", "id"'); None when no way has
    any id. One query of the ids, for `among("pk", ...)`: the rows themselves are then read by their key,
    once, however many ways found them; the caller sorts them and keeps the first `limit`, which are then
    the first `limit` of all the ways' rows."""
    table = model._meta.db_table
    cities = sorted(cities)
    parts, params = [], []
    for column, ids in ways:
        if not cities or not (ids.ids if isinstance(ids, Through) else ids):
            continue
        if isinstance(ids, Through):
            inner, inner_params = _in(ids.key, ids.ids)
            link = f'SELECT "{ids.select}" FROM "{ids.table}" WHERE {inner}'  # noqa: S608 - our names
            condition, condition_params = _in_select(column, link, inner_params)
        else:
            condition, condition_params = _in(column, ids)
        # the names are ours; the ids and the cities are parameters
        parts.append(
            f'SELECT * FROM (SELECT "id" FROM "{table}" WHERE "jurisdiction" IN '  # noqa: S608
            f"({', '.join(['%s'] * len(cities))}) AND {condition} ORDER BY {order} LIMIT {int(limit)}) "
            f'AS "w{len(parts)}"'
        )
        params += [*cities, *condition_params]
    if not parts:
        return None
    # the names are ours, the values parameters
    return among("pk", RawSQL(" UNION ALL ".join(parts), params))  # noqa: S611


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
        # fastupdate off: a search reads the index only, never a pending list of recent inserts to scan
        f"CREATE INDEX IF NOT EXISTS {table}_{f}_trgm ON {table} USING gin (UPPER({f}::text) gin_trgm_ops) "
        "WITH (fastupdate = off)"
        for f in fields
    ]


def postgres_drop(table: str, fields: tuple[str, ...]) -> list[str]:
    return [f"DROP INDEX IF EXISTS {table}_{f}_trgm" for f in fields]


# The searches of several fields at once, each served by one trigram index on those fields joined (migration
# cases/0013, which repeats this list): every field of a table, and a dog's names and numbers (the cases of a
# dog, which its breed must not find).
COMBINED = {
    ("cases_dog", SEARCHED["cases_dog"]): "cases_dog_search_trgm",
    ("cases_dog", ("name", "microchip_number", "licence_number")): "cases_dog_ident_trgm",
    ("cases_person", SEARCHED["cases_person"]): "cases_person_search_trgm",
    ("cases_incident", SEARCHED["cases_incident"]): "cases_incident_search_trgm",
}

SEPARATOR = "chr(31)"  # the unit separator: whitespace is collapsed in a search text, and it is no letter


def all_fields_expression(table: str, fields: tuple[str, ...] | None = None) -> str:
    """UPPER of the fields joined by the separator: the same text in the index and in the query, so that
    PostgreSQL matches one with the other. The columns are not qualified: the query reads the table alone,
    under the alias Django gives it in a subquery."""
    fields = fields or SEARCHED[table]
    joined = f" || {SEPARATOR} || ".join(f"COALESCE(\"{f}\"::text, '')" for f in fields)
    return f"UPPER({joined})"


# ------------------------------------------------------------------- the events that name one record
# A record's history is the record events whose `data` names it ("id" for the record itself, "dog" and
# "person" for an ownership). Each key has an expression index (migration cases/0004), and `names(key, pk)`
# is written in the very form of that index's expression, so that each database uses it.

RECORD_KEYS = ("id", "dog", "person")


def event_key_index(vendor: str, key: str, *, drop: bool) -> str | None:
    name = f"event_data_{key}"
    if vendor not in ("sqlite", "postgresql"):
        return None
    if drop:
        return f"DROP INDEX IF EXISTS {name}"
    # partial: only the events that carry the key (most do not), so that the index is small and its
    # statistics say how few rows a value has; "key = value" implies "key IS NOT NULL" on both databases
    if vendor == "sqlite":
        expr = f"json_extract(data, '$.{key}')"
    else:
        expr = f"(data -> '{key}')"
    return f"CREATE INDEX IF NOT EXISTS {name} ON cases_event ({expr}) WHERE {expr} IS NOT NULL"


def names(key: str, pk: int) -> Q:
    """Events whose `data[key]` is the record's id (an integer)."""
    if key not in RECORD_KEYS:
        raise ValueError(f"not indexed: data.{key}")
    pk = int(pk)
    if connection.vendor == "sqlite":
        sql = f'json_extract("cases_event"."data", \'$.{key}\') = %s'  # noqa: S608 - key checked above
    elif connection.vendor == "postgresql":
        sql = f'("cases_event"."data" -> \'{key}\') = %s::jsonb'
        return Q(RawSQL(sql, [str(pk)], output_field=BooleanField()))  # noqa: S611
    else:
        return Q(**{f"data__{key}": pk})
    return Q(RawSQL(sql, [pk], output_field=BooleanField()))  # noqa: S611


# ------------------------------------------------------------------------- the dashboard's obligations
# The dashboards read the active obligations in due order: a partial index over those only (the met and
# lapsed ones, most of them in a city with history, are not in it). The condition is SQL with its values in
# it, the same text in the index and in the query (staff/queries.py), so that both databases use it.

ACTIVE_OBLIGATION = "\"cases_obligation\".\"status\" IN ('open', 'overdue')"


OBLIGATION_INDEXES = {
    # in due order, for the lists that mix the city's and the owner's obligations (overdue)
    "obligation_active_due": "due_date, due_at, id, who",
    # in due order for each side: the city's lists (due today, this week) and the owner's (waiting on)
    "obligation_active_who_due": "who, due_date, due_at, id",
}


def obligation_indexes(vendor: str, *, drop: bool) -> list[str]:
    """Partial indexes of the active obligations; the columns after the order make them cover the counts."""
    if vendor not in ("sqlite", "postgresql"):
        return []
    if drop:
        return [f"DROP INDEX IF EXISTS {name}" for name in OBLIGATION_INDEXES]
    cover = "jurisdiction, kind, status, case_id, staff_roles"
    return [
        f"CREATE INDEX IF NOT EXISTS {name} ON cases_obligation ({order}, {cover}) "
        "WHERE status IN ('open', 'overdue')"
        for name, order in OBLIGATION_INDEXES.items()
    ]
