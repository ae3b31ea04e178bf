"""Several lists read at once: how many items each holds (up to a cap) and the ids of its first rows in its
order, in one SQL query whatever the number of lists, then the rows shown, one query a table.

A list's count reads at most cap + 1 of its ids, in no order; its first rows are those ids ranked, so that a
short list among many rows is never looked for by walking them all in order. A list holding more than the cap
is read again in its own order (one more query for all such lists): its first rows are the first of all its
items, not of the cap + 1 the count happened to read.

A dashboard asks the same lists of the same user again and again: building its querysets and compiling them is
most of its time in Python. `read_kept` keeps each list's compiled statements under a key that names all they
depend on (the caller's: the user's cities, roles and offices, the day, the law in use) and, on the next
request, sends them again with the one value that changes from request to request, the moment (`now`), put in
its places. The places are found by compiling twice, at two moments: the statements must be the same words and
their values the same but for the moment's, else nothing is kept. On PostgreSQL the statements kept are prepared
once on each connection, the moment their one parameter (staff/prepared.py): planned once, not at every request."""

from __future__ import annotations

import datetime as dt
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass

from django.core.exceptions import EmptyResultSet
from django.db import connection
from django.db.models import F, Q, QuerySet
from django.db.models.expressions import RawSQL

from dogcase.staff import prepared

NO_PAIR = ("", "")  # no city has no name: a pair that holds no row


@dataclass(frozen=True)
class Part:
    """Some of a list's items: the rows of its table (`Parts.base`) meeting `condition`, and, when `pairs` are
    given, of one of those (city, deadline id) pairs."""

    condition: Q
    pairs: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Parts:
    """A list of obligations as the union of its parts: each part whose rows are of a few (city, deadline id)
    pairs is read a pair at a time through the index obligation_active_city_deadline (jurisdiction,
    deadline_id, due_date, due_at, id), in the list's order; a part with no pairs, through its own condition.
    The union of the parts must be the list's items, exactly, and no row may be in two parts
    (tests/staff/test_dashboard_parts.py)."""

    base: QuerySet  # the rows every part is of (the user's active obligations)
    parts: tuple[Part, ...]


@dataclass(frozen=True)
class Ranked:
    listed: QuerySet  # the list's items
    keys: tuple[str, ...]  # the fields of its order, each ascending with no value last; then the id
    order: tuple  # the same order for order_by (written as the index that serves it is)
    size: int  # rows shown
    related: tuple[str, ...] = ()  # what the rows shown are read with (select_related)
    # the list as parts that PostgreSQL reads one by one; None: `listed` in one statement
    parts: Parts | None = None

    def ids(self, limit: int, ordered: bool) -> QuerySet:
        """The ids and order keys of `limit` items: any `limit` of them, or the first in the list's order."""
        return self._ids(self.listed, limit, ordered)

    def _ids(self, listed: QuerySet, limit: int, ordered: bool) -> QuerySet:
        listed = listed.order_by(*self.order) if ordered else listed.order_by()
        return listed.values(r_id=F("pk"), **{f"k{i}": F(name) for i, name in enumerate(self.keys)})[:limit]

    def items_sql(self, limit: int, ordered: bool) -> tuple[str, list] | None:
        """`ids(limit, ordered)` as SQL; None for a list the ORM knows to be empty without asking.

        On PostgreSQL, a list given as parts reads each (city, deadline id) pair of a part on its own (a
        LATERAL subquery a pair, in the index's order, at most `limit` rows each), and each part without
        pairs through its condition: whatever else the cities' active obligations hold, the list reads no
        more than `limit` rows a pair. In one statement, the database found a list's first rows by walking
        every active obligation in due order, dropping those of other deadlines, or read all the cities' to
        count them."""
        if self.parts is None or connection.vendor != "postgresql":
            return _compiled_or_none(self.ids(limit, ordered))
        statements = []
        for part in self.parts.parts:
            if part.pairs:
                in_pair = self.parts.base.filter(
                    part.condition,
                    jurisdiction=RawSQL('"pair"."j"', ()),
                    deadline_id=RawSQL('"pair"."d"', ()),
                )
                compiled = _compiled_or_none(self._ids(in_pair, limit, ordered))
                if compiled is not None:
                    # a pair of no city after the part's own: PostgreSQL puts the values of a list of one pair
                    # in the statement, and then read every row of the pair for an OR of the part's condition
                    # (a bitmap of the index's other columns) instead of the first in order
                    values = ", ".join(["(%s, %s)"] * (len(part.pairs) + 1))
                    statements.append(
                        (
                            f"SELECT items.* FROM (VALUES {values}) AS pair (j, d) "  # noqa: S608 - our SQL
                            f"CROSS JOIN LATERAL ({compiled[0]}) AS items",
                            [v for pair in (*part.pairs, NO_PAIR) for v in pair] + compiled[1],
                        )
                    )
            else:
                compiled = _compiled_or_none(
                    self._ids(self.parts.base.filter(part.condition), limit, ordered)
                )
                if compiled is not None:
                    statements.append((f"SELECT * FROM ({compiled[0]}) AS loose", compiled[1]))  # noqa: S608
        if not statements:
            return None
        # no row is in two parts (Parts): their rows one after the other, a count stopping at `limit`
        sql = " UNION ALL ".join(f"({statement})" for statement, _ in statements)
        # any `limit` of them for a count; for the first in order, all that each part read (the caller ranks them)
        bound = "" if ordered else f" LIMIT {int(limit)}"
        return f"SELECT * FROM ({sql}) AS parts{bound}", [p for _, ps in statements for p in ps]  # noqa: S608


def _compiled_or_none(inner: QuerySet) -> tuple[str, list] | None:
    try:
        sql, params = inner.query.sql_with_params()
    except EmptyResultSet:
        return None
    return sql, list(params)


def _ranked_sql(n: int, item: Ranked, inner: tuple[str, list] | None) -> tuple[str, list] | None:
    """The list's number, then of each of its first `size` items the id, its rank and the items counted; None
    for a list the ORM knows to be empty without asking. The SQL around the list's own (`items_sql`: compiled
    by the ORM, its values as parameters) names only our columns and numbers."""
    if inner is None:
        return None
    sql, params = inner
    order = ", ".join([*(f"(k{i} IS NULL), k{i}" for i in range(len(item.keys))), "r_id"])
    ranked = (
        f"SELECT r_id, ROW_NUMBER() OVER (ORDER BY {order}) AS r_rank, COUNT(*) OVER () AS r_total "  # noqa: S608
        f"FROM ({sql}) AS items{int(n)}"
    )
    first = f"SELECT {int(n)} AS r_list, r_id, r_rank, r_total FROM ({ranked}) AS ranked{int(n)}"  # noqa: S608
    return f"{first} WHERE r_rank <= {int(item.size)}", list(params)


def _union_sql(parts: list[str]) -> str:
    return " UNION ALL ".join(f"SELECT * FROM ({s}) AS part{i}" for i, s in enumerate(parts))  # noqa: S608


def _union(parts: list[tuple[str, list] | None]) -> list[tuple]:
    """The rows of every part, by list then rank."""
    parts = [p for p in parts if p is not None]
    if not parts:
        return []
    with connection.cursor() as cursor:
        cursor.execute(_union_sql([s for s, _p in parts]), [p for _s, ps in parts for p in ps])
        return sorted(cursor.fetchall(), key=lambda r: (r[0], r[2]))


def _union_kept(statements: list[_Statement | None], moment) -> list[tuple]:
    """`_union` of kept statements at `moment`: on PostgreSQL, prepared on the connection (staff/prepared.py)."""
    kept = [s for s in statements if s is not None]
    if not kept or not prepared.enabled() or any(s.text is None for s in kept):
        return _union([s.with_moment(moment) for s in kept])
    sent = [s.with_moment(moment) for s in kept]
    plain = (_union_sql([sql for sql, _ in sent]), [p for _, ps in sent for p in ps])
    rows = prepared.fetch(_union_sql([s.text for s in kept]), moment, plain)
    return sorted(rows, key=lambda r: (r[0], r[2]))


def read(lists: dict[str, Ranked], *, cap: int) -> tuple[dict[str, int], dict[str, list]]:
    """Each list's count (up to cap + 1) and its first `size` rows in its order: one query for the counts and
    the ids, one more when a list holds more than the cap, then one a table for the rows."""
    names = list(lists)
    counts = dict.fromkeys(names, 0)
    ids: dict[str, list[int]] = {name: [] for name in names}
    for n, pk, _rank, total in _union(
        [
            _ranked_sql(n, lists[name], lists[name].items_sql(cap + 1, ordered=False))
            for n, name in enumerate(names)
        ]
    ):
        counts[names[n]] = total
        ids[names[n]].append(pk)
    long = [n for n, name in enumerate(names) if counts[name] > cap]
    for n in long:
        ids[names[n]] = []
    for n, pk, _rank, _total in _union(
        [
            _ranked_sql(n, lists[names[n]], lists[names[n]].items_sql(lists[names[n]].size, ordered=True))
            for n in long
        ]
    ):
        ids[names[n]].append(pk)
    return counts, _rows(
        names, ids, {name: (item.listed.model, item.related) for name, item in lists.items()}
    )


def _rows(names: list[str], ids: dict[str, list[int]], shapes: dict[str, tuple[type, tuple[str, ...]]]):
    """The rows of each list's ids, one query a table (`shapes`: each list's model and what it is read with)."""
    wanted: dict[type, set[int]] = {}
    related: dict[type, tuple[str, ...]] = {}
    for name in names:
        if ids[name]:
            model, with_ = shapes[name]
            wanted.setdefault(model, set()).update(ids[name])
            related[model] = tuple(sorted({*related.get(model, ()), *with_}))
    records = {
        (model, row.pk): row
        for model, pks in wanted.items()
        for row in model.objects.filter(pk__in=sorted(pks)).select_related(*related[model])
    }
    return {name: [records[shapes[name][0], pk] for pk in ids[name]] for name in names}


# ------------------------------------------------------------------------------------ statements kept

KEPT_MOST = 256  # keys kept (users' kinds of dashboard and days) before the oldest is dropped


@dataclass(frozen=True)
class _Statement:
    sql: str
    params: tuple
    at: tuple[int, ...]  # the places of the moment among the params
    # on PostgreSQL, the statement with its values written in but the moment's, $1 (staff/prepared.py)
    text: str | None = None

    def with_moment(self, moment) -> tuple[str, list]:
        params = list(self.params)
        for i in self.at:
            params[i] = moment
        return self.sql, params


@dataclass(frozen=True)
class _Kept:
    model: type
    related: tuple[str, ...]
    size: int
    counting: _Statement | None  # cap + 1 of its ids, in no order (None: the ORM knows it empty)
    ordered: _Statement | None  # its first `size` ids in its order


_KEPT: OrderedDict[Hashable, dict[str, _Kept]] = OrderedDict()
_KEPT_LOCK = threading.Lock()


_KEPT_FOR: list = [None]  # what the kept statements were compiled under (the law in use)


def forget_kept() -> None:
    with _KEPT_LOCK:
        _KEPT.clear()


def keep_for(owner) -> None:
    """Forget every kept statement when `owner` (the law in use) is not the one they were kept under: a reloaded
    law keeps no statement, and no old law is held by them."""
    with _KEPT_LOCK:
        if _KEPT_FOR[0] is not owner:
            _KEPT.clear()
            _KEPT_FOR[0] = owner


def _statement(a: tuple[str, list] | None, b: tuple[str, list] | None, moments: tuple) -> _Statement | None:
    """The statement compiled at two moments as one with the moment's places; ValueError when the two differ
    otherwise (then it cannot be kept)."""
    if a is None or b is None:
        if a is not b:
            raise ValueError("compiled at one moment only")
        return None
    (sql_a, params_a), (sql_b, params_b) = a, b
    if sql_a != sql_b or len(params_a) != len(params_b):
        raise ValueError("other words at another moment")
    at = tuple(i for i, (x, y) in enumerate(zip(params_a, params_b, strict=True)) if x != y)
    if any(params_a[i] != moments[0] or params_b[i] != moments[1] for i in at):
        raise ValueError("a value other than the moment changed")
    text = None
    if prepared.enabled():
        try:
            text = prepared.inlined(sql_a, params_a, at)
        except ValueError:
            text = None  # kept, sent unprepared
    return _Statement(sql_a, tuple(params_a), at, text)


def _compiled(lists: dict[str, Ranked], cap: int) -> dict[str, tuple]:
    return {
        name: (
            _ranked_sql(n, item, item.items_sql(cap + 1, ordered=False)),
            _ranked_sql(n, item, item.items_sql(item.size, ordered=True)),
        )
        for n, (name, item) in enumerate(lists.items())
    }


def read_kept(
    key: Hashable,
    build: Callable[[dt.datetime], dict[str, Ranked]],
    *,
    now: dt.datetime,
    cap: int,
    moment: Callable[[dt.datetime], object],
) -> tuple[dict[str, int], dict[str, list]]:
    """`read(build(now), cap=cap)`, its statements compiled once for `key`: `build` makes the lists at a moment
    (the rest of what they depend on is in `key`), `moment` is a moment as the database is sent it."""
    full = (key, cap, connection.vendor)
    with _KEPT_LOCK:
        kept = _KEPT.get(full)
        if kept is not None:
            _KEPT.move_to_end(full)
    if kept is None:
        lists = build(now)
        earlier = now - dt.timedelta(seconds=1)
        a, b = _compiled(lists, cap), _compiled(build(earlier), cap)
        try:
            kept = {
                name: _Kept(
                    model=item.listed.model,
                    related=item.related,
                    size=item.size,
                    counting=_statement(a[name][0], b[name][0], (moment(now), moment(earlier))),
                    ordered=_statement(a[name][1], b[name][1], (moment(now), moment(earlier))),
                )
                for name, item in lists.items()
            }
        except ValueError:
            return read(lists, cap=cap)
        with _KEPT_LOCK:
            _KEPT[full] = kept
            while len(_KEPT) > KEPT_MOST:
                _KEPT.popitem(last=False)
    return _read_kept(kept, cap=cap, moment=moment(now))


def _read_kept(kept: dict[str, _Kept], *, cap: int, moment) -> tuple[dict[str, int], dict[str, list]]:
    names = list(kept)
    counts = dict.fromkeys(names, 0)
    ids: dict[str, list[int]] = {name: [] for name in names}

    for n, pk, _rank, total in _union_kept([kept[name].counting for name in names], moment):
        counts[names[n]] = total
        ids[names[n]].append(pk)
    long = [n for n, name in enumerate(names) if counts[name] > cap]
    for n in long:
        ids[names[n]] = []
    for n, pk, _rank, _total in _union_kept([kept[names[n]].ordered for n in long], moment):
        ids[names[n]].append(pk)
    return counts, _rows(names, ids, {name: (k.model, k.related) for name, k in kept.items()})
