"""Many new rows of one table written at once (a file of records brought in, the events that record them)."""

from __future__ import annotations

import operator
from collections.abc import Iterator

from django.db import connection

RETURNING_CHUNK = 200  # rows a statement (a dozen values each: within every database's limit of parameters)


PLAIN = frozenset(
    ("CharField", "TextField", "EmailField", "BooleanField", "IntegerField", "BigIntegerField",
     "PositiveIntegerField", "PositiveSmallIntegerField", "ForeignKey")
)  # fmt: skip


def _same_as_last(adapt):
    """`adapt` that reuses its answer for the value it was given last: the records of a file, and their
    events, share the one moment they were brought in (a date or time is immutable)."""
    last: list = [None, None]

    def adapted(value):
        if value is not last[0]:
            last[0], last[1] = value, adapt(value)
        return last[1]

    return adapted


def _statements(count: int, most: int) -> Iterator[tuple[int, int]]:
    """(start, end) of the rows of each statement: `most` rows while there are that many, then what is left in
    statements of 128, 64, ... 1 rows. The database's driver prepares each statement text once and keeps it
    (a statement of a few hundred rows is a large program): a statement for the left rows of every size met
    would be a hundred more kept, where these are eight."""
    start = 0
    while count - start >= most:
        yield start, start + most
        start += most
    size = 1 << most.bit_length()
    while start < count:
        while size > count - start:
            size >>= 1
        yield start, start + size
        start += size


_QMARK: dict[str, str] = {}  # a statement's text with Django's %s -> the same with SQLite's ?
_QMARK_MOST = 64  # texts kept (a few sizes of a few tables: _statements)


def rewrite_once(cursor) -> None:
    """On SQLite, each text's %s turned into SQLite's ? once, not at every statement: Django's cursor rewrites
    the text at each execute (a regular expression over all of it), and a statement of a few hundred rows has
    thousands of them (about a sixth of the database's own time of writing them). The rewriting is Django's
    own, only remembered; the statement still goes through Django's cursor (its wrappers, its log). A statement
    of named parameters (a dict) is rewritten as before."""
    inner = getattr(cursor, "cursor", None)
    rewrite = getattr(inner, "convert_query", None)
    if connection.vendor != "sqlite" or rewrite is None or getattr(rewrite, "remembers", False):
        return

    def convert_query(query, *, param_names=None):
        if param_names is not None:
            return rewrite(query, param_names=param_names)
        done = _QMARK.get(query)
        if done is None:
            if len(_QMARK) >= _QMARK_MOST:
                _QMARK.clear()
            done = _QMARK[query] = rewrite(query)
        return done

    convert_query.remembers = True
    inner.convert_query = convert_query


def insert_objects(model, objects: list, *, returning: bool = True) -> None:
    """New records written a few hundred a statement, each given its id (INSERT ... RETURNING, as Django's
    bulk_create does, without its per-value preparation: a text, number or yes/no goes as it is, a date or time
    through the database's adapter, anything else through its field). Most of the time of a large bulk_create
    went into that preparation. `returning=False`: the ids are not read back (the rows have what they need)."""
    if not objects:
        return
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    ops = connection.ops

    def adapter(f):
        kind = f.get_internal_type()
        if kind in PLAIN:
            return None
        if kind == "DateTimeField":
            return _same_as_last(ops.adapt_datetimefield_value)
        if kind == "DateField":
            return _same_as_last(ops.adapt_datefield_value)
        if kind == "JSONField":
            # a dict or list as JSONField.get_db_prep_save writes it, without its checks for expressions
            return lambda value, f=f: (
                ops.adapt_json_value(value, f.encoder)
                if type(value) in (dict, list)
                else f.get_db_prep_save(value, connection)
            )
        return lambda value, f=f: f.get_db_prep_save(value, connection)

    values_of = operator.attrgetter(*(f.attname for f in fields))  # an object's values, in one call
    adapters = [(i, adapt) for i, adapt in enumerate(adapter(f) for f in fields) if adapt is not None]
    table = ops.quote_name(model._meta.db_table)
    names = ", ".join(ops.quote_name(f.column) for f in fields)
    pk = ops.quote_name(model._meta.pk.column)
    row_marks = "(" + ", ".join(["%s"] * len(fields)) + ")"
    with connection.cursor() as cur:
        rewrite_once(cur)
        for start, end in _statements(len(objects), RETURNING_CHUNK):
            batch = objects[start:end]
            params = []
            for obj in batch:
                row = values_of(obj)
                if len(fields) == 1:
                    row = (row,)
                if adapters:
                    row = list(row)
                    for i, adapt in adapters:
                        if row[i] is not None:
                            row[i] = adapt(row[i])
                params.extend(row)
            marks = ", ".join([row_marks] * len(batch))
            if not returning:
                cur.execute(f"INSERT INTO {table} ({names}) VALUES {marks}", params)  # noqa: S608
                continue
            cur.execute(f"INSERT INTO {table} ({names}) VALUES {marks} RETURNING {pk}", params)  # noqa: S608
            for obj, (new_id,) in zip(batch, cur.fetchall(), strict=True):
                obj.pk = new_id
                obj._state.adding = False
                obj._state.db = connection.alias


MAX_PARAMETERS = 4000  # values a statement (within every database's limit)


def insert_rows(model, columns: list[str] | tuple[str, ...], rows: list) -> None:
    """Rows of `model`'s table that need no id back, given as the values of `columns` (attnames) already in the
    database's terms, written a few hundred a statement: no model object, no preparation of a value."""
    if not rows:
        return
    ops = connection.ops
    table = ops.quote_name(model._meta.db_table)
    names = ", ".join(ops.quote_name(model._meta.get_field(c).column) for c in columns)
    row_marks = "(" + ", ".join(["%s"] * len(columns)) + ")"
    per_statement = max(1, MAX_PARAMETERS // len(columns))
    with connection.cursor() as cur:
        rewrite_once(cur)
        for start, end in _statements(len(rows), per_statement):
            batch = rows[start:end]
            marks = ", ".join([row_marks] * len(batch))
            cur.execute(f"INSERT INTO {table} ({names}) VALUES {marks}", [v for row in batch for v in row])  # noqa: S608
