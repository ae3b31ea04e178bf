"""Several lists read at once: how many items each holds (up to a cap) and the ids of its first rows in its
order, in one SQL query whatever the number of lists, then the rows shown, one query a table.

A list's count reads at most cap + 1 of its ids, in no order; its first rows are those ids ranked, so that a
short list among many rows is never looked for by walking them all in order. A list holding more than the cap
is read again in its own order (one more query for all such lists): its first rows are the first of all its
items, not of the cap + 1 the count happened to read."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import EmptyResultSet
from django.db import connection
from django.db.models import F, QuerySet


@dataclass(frozen=True)
class Ranked:
    listed: QuerySet  # the list's items
    keys: tuple[str, ...]  # the fields of its order, each ascending with no value last; then the id
    order: tuple  # the same order for order_by (written as the index that serves it is)
    size: int  # rows shown
    related: tuple[str, ...] = ()  # what the rows shown are read with (select_related)

    def ids(self, limit: int, ordered: bool) -> QuerySet:
        """The ids and order keys of `limit` items: any `limit` of them, or the first in the list's order."""
        listed = self.listed.order_by(*self.order) if ordered else self.listed.order_by()
        return listed.values(r_id=F("pk"), **{f"k{i}": F(name) for i, name in enumerate(self.keys)})[:limit]


def _ranked_sql(n: int, item: Ranked, inner: QuerySet) -> tuple[str, list] | None:
    """The list's number, then of each of its first `size` items the id, its rank and the items counted; None
    for a list the ORM knows to be empty without asking. The SQL around the list's own (compiled by the ORM,
    its values as parameters) names only our columns and numbers."""
    try:
        sql, params = inner.query.sql_with_params()
    except EmptyResultSet:
        return None
    order = ", ".join([*(f"(k{i} IS NULL), k{i}" for i in range(len(item.keys))), "r_id"])
    ranked = (
        f"SELECT r_id, ROW_NUMBER() OVER (ORDER BY {order}) AS r_rank, COUNT(*) OVER () AS r_total "  # noqa: S608
        f"FROM ({sql}) AS items{int(n)}"
    )
    first = f"SELECT {int(n)} AS r_list, r_id, r_rank, r_total FROM ({ranked}) AS ranked{int(n)}"  # noqa: S608
    return f"{first} WHERE r_rank <= {int(item.size)}", list(params)


def _union(parts: list[tuple[str, list] | None]) -> list[tuple]:
    """The rows of every part, by list then rank."""
    parts = [p for p in parts if p is not None]
    if not parts:
        return []
    sql = " UNION ALL ".join(f"SELECT * FROM ({s}) AS part{i}" for i, (s, _p) in enumerate(parts))  # noqa: S608
    with connection.cursor() as cursor:
        cursor.execute(sql, [p for _s, ps in parts for p in ps])
        return sorted(cursor.fetchall(), key=lambda r: (r[0], r[2]))


def read(lists: dict[str, Ranked], *, cap: int) -> tuple[dict[str, int], dict[str, list]]:
    """Each list's count (up to cap + 1) and its first `size` rows in its order: one query for the counts and
    the ids, one more when a list holds more than the cap, then one a table for the rows."""
    names = list(lists)
    counts = dict.fromkeys(names, 0)
    ids: dict[str, list[int]] = {name: [] for name in names}
    for n, pk, _rank, total in _union(
        [_ranked_sql(n, lists[name], lists[name].ids(cap + 1, ordered=False)) for n, name in enumerate(names)]
    ):
        counts[names[n]] = total
        ids[names[n]].append(pk)
    long = [n for n, name in enumerate(names) if counts[name] > cap]
    for n in long:
        ids[names[n]] = []
    for n, pk, _rank, _total in _union(
        [
            _ranked_sql(n, lists[names[n]], lists[names[n]].ids(lists[names[n]].size, ordered=True))
            for n in long
        ]
    ):
        ids[names[n]].append(pk)
    wanted: dict[type, set[int]] = {}
    related: dict[type, tuple[str, ...]] = {}
    for name in names:
        if ids[name]:
            model = lists[name].listed.model
            wanted.setdefault(model, set()).update(ids[name])
            related[model] = tuple(sorted({*related.get(model, ()), *lists[name].related}))
    records = {
        (model, row.pk): row
        for model, pks in wanted.items()
        for row in model.objects.filter(pk__in=sorted(pks)).select_related(*related[model])
    }
    rows = {name: [records[lists[name].listed.model, pk] for pk in ids[name]] for name in names}
    return counts, rows
