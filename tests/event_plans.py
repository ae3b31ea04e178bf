"""For the tests of PostgreSQL's plans over the audit trail: many events written at once, analyzed, and the plan
of a statement as text."""

from collections.abc import Iterable

from django.db import connection
from django.utils import timezone

from dogcase.cases.bulk import insert_rows
from dogcase.cases.models import Event


def write_analyzed(jurisdiction: str, events: Iterable[dict]) -> None:
    """Each of `events` (the columns it sets, over a seeded event of the city's) written in bulk, then ANALYZE."""
    columns = [f.attname for f in Event._meta.concrete_fields if not f.primary_key]
    base = dict.fromkeys(columns)
    base.update(at=timezone.now(), jurisdiction=jurisdiction, actor_name="seed", actor_roles="city_clerk",
                summary="s", citation="", layer="", prev_hash="0" * 64)  # fmt: skip
    insert_rows(Event, columns, [[{**base, **e}[c] for c in columns] for e in events])
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE cases_event")


def plan(sql: str) -> str:
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN " + sql)
        return "\n".join(row[0] for row in cursor.fetchall())
