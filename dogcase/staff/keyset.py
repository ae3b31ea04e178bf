"""Keyset pagination: a page is "the next 25 rows after this one" in the list's order, so a deep page costs
what the first costs (an index range scan), never an OFFSET over every row before it, and no COUNT(*) over
the whole table. The position travels in the link (`after=` or `before=`) as the id of the last (or first)
row shown, nothing else: the row's ordering values (a person's name) are read back inside the page's own
query, from the same scoped queryset, so no name reaches a URL, a proxy's log or the browser's history. A
position that is not an id is ignored (the first page is shown, and the page says so), never passed to the
query as given; an id outside the list (another city's row) positions nothing: an empty page."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Q, QuerySet, Subquery

PAGE_SIZE = 25


@dataclass
class KeysetPage:
    object_list: list
    next_cursor: str | None = None
    previous_cursor: str | None = None
    is_first: bool = True
    size: int = PAGE_SIZE
    extra: dict = field(default_factory=dict)
    # a position was given but was not one (an edited or truncated link): the first page is shown instead
    position_ignored: bool = False

    def __iter__(self):
        return iter(self.object_list)

    def __len__(self) -> int:
        return len(self.object_list)

    @property
    def has_next(self) -> bool:
        return self.next_cursor is not None

    @property
    def has_previous(self) -> bool:
        return self.previous_cursor is not None


def _split(order: tuple[str, ...]) -> list[tuple[str, bool]]:
    """("-opened_at", "-id") -> [("opened_at", True), ("id", True)]: field and descending."""
    return [(o.lstrip("-"), o.startswith("-")) for o in order]


MAX_ID = 2**63 - 1


def decode(cursor: str) -> int | None:
    """The row id a position carries; None when it is not one."""
    if not cursor or len(cursor) > 19 or not cursor.isascii() or not cursor.isdigit():
        return None
    value = int(cursor)
    return value if 0 < value <= MAX_ID else None


def _anchor(queryset: QuerySet, fields: list[tuple[str, bool]], pk: int) -> list:
    """The ordering values of row `pk`, as subqueries over the list's own (scoped) queryset: read by the
    database inside the page's query, so the page still costs one query."""
    row = queryset.filter(pk=pk).order_by()
    return [pk if name == "id" else Subquery(row.values(name)[:1]) for name, _desc in fields]


def _beyond(fields: list[tuple[str, bool]], values: list, *, forward: bool) -> Q:
    """Rows strictly after (forward) or before the position `values` in the order `fields`: the OR form of a
    row-value comparison, with the first field's bound repeated so that an index range scan can start there."""
    q = None
    for i, (name, desc) in enumerate(fields):
        op = "lt" if desc == forward else "gt"
        term = Q(**{fields[j][0]: values[j] for j in range(i)}) & Q(**{f"{name}__{op}": values[i]})
        q = term if q is None else q | term
    first, desc = fields[0]
    bound = "lte" if desc == forward else "gte"
    return Q(**{f"{first}__{bound}": values[0]}) & q


def paginate(
    queryset: QuerySet, order: tuple[str, ...], *, after: str = "", before: str = "", size=PAGE_SIZE
):
    """One page of `queryset` in `order` (its last field must be unique, e.g. "id"): one query (plus the
    queryset's prefetches), size + 1 rows to know whether a next page exists."""
    fields = _split(order)
    after_pk = decode(after)
    before_pk = None if after_pk else decode(before)
    after_values = _anchor(queryset, fields, after_pk) if after_pk else None
    before_values = _anchor(queryset, fields, before_pk) if before_pk else None
    ignored = bool(after or before) and after_pk is None and before_pk is None
    if before_values is not None:
        reverse = tuple(("" if o.startswith("-") else "-") + o.lstrip("-") for o in order)
        rows = list(
            queryset.filter(_beyond(fields, before_values, forward=False)).order_by(*reverse)[: size + 1]
        )
        more_before = len(rows) > size
        rows = rows[:size][::-1]
        page = KeysetPage(rows, size=size, is_first=not more_before)
        page.next_cursor = _cursor(rows[-1], fields) if rows else None
        page.previous_cursor = _cursor(rows[0], fields) if more_before and rows else None
        return page
    qs = queryset.order_by(*order)
    if after_values is not None:
        qs = qs.filter(_beyond(fields, after_values, forward=True))
    rows = list(qs[: size + 1])
    more = len(rows) > size
    rows = rows[:size]
    page = KeysetPage(rows, size=size, is_first=after_values is None, position_ignored=ignored)
    page.next_cursor = _cursor(rows[-1], fields) if more else None
    page.previous_cursor = _cursor(rows[0], fields) if after_values is not None and rows else None
    return page


def _cursor(obj, fields) -> str:
    return str(obj.pk)
