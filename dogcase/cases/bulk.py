"""Many new rows of one table written at once (a file of records brought in, the events that record them)."""

from __future__ import annotations

from django.db import connection

RETURNING_CHUNK = 200  # rows a statement (a dozen values each: within every database's limit of parameters)


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
        if kind == "DateTimeField":
            return ops.adapt_datetimefield_value
        if kind == "DateField":
            return ops.adapt_datefield_value
        if kind in ("CharField", "TextField", "EmailField", "BooleanField", "IntegerField", "BigIntegerField",
                    "PositiveIntegerField", "PositiveSmallIntegerField", "ForeignKey"):  # fmt: skip
            return None
        return lambda value, f=f: f.get_db_prep_save(value, connection)

    adapters = [(f.attname, adapter(f)) for f in fields]
    table = ops.quote_name(model._meta.db_table)
    names = ", ".join(ops.quote_name(f.column) for f in fields)
    pk = ops.quote_name(model._meta.pk.column)
    row_marks = "(" + ", ".join(["%s"] * len(fields)) + ")"
    with connection.cursor() as cur:
        for start in range(0, len(objects), RETURNING_CHUNK):
            batch = objects[start : start + RETURNING_CHUNK]
            params = []
            for obj in batch:
                for attname, adapt in adapters:
                    value = getattr(obj, attname)
                    params.append(value if adapt is None or value is None else adapt(value))
            marks = ", ".join([row_marks] * len(batch))
            if not returning:
                cur.execute(f"INSERT INTO {table} ({names}) VALUES {marks}", params)  # noqa: S608
                continue
            cur.execute(f"INSERT INTO {table} ({names}) VALUES {marks} RETURNING {pk}", params)  # noqa: S608
            for obj, (new_id,) in zip(batch, cur.fetchall(), strict=True):
                obj.pk = new_id
                obj._state.adding = False
                obj._state.db = connection.alias
