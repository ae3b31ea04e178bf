"""Keyset pagination: a page is "the next 25 rows after this one" in the list's order, so a deep page costs
what the first costs (an index range scan), never an OFFSET over every row before it, and no COUNT(*) over
the whole table. The position travels in the link as an opaque cursor (`after=` or `before=`): the values of
the ordering fields of the last (or first) row shown, then its id. A cursor that does not decode is ignored
(the first page is shown), never passed to the query as given."""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass, field

from django.db.models import Q, QuerySet

PAGE_SIZE = 25


@dataclass
class KeysetPage:
    object_list: list
    next_cursor: str | None = None
    previous_cursor: str | None = None
    is_first: bool = True
    size: int = PAGE_SIZE
    extra: dict = field(default_factory=dict)

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


def encode(values: list) -> str:
    raw = json.dumps(values, default=str, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode(cursor: str, model, order: tuple[str, ...]) -> list | None:
    """The ordering values a cursor carries, each checked by its model field; None when it is not one."""
    if not cursor or len(cursor) > 1000:
        return None
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        values = json.loads(raw)
    except (binascii.Error, ValueError, UnicodeDecodeError):
        return None
    fields = _split(order)
    if not isinstance(values, list) or len(values) != len(fields):
        return None
    out = []
    for (name, _desc), value in zip(fields, values, strict=True):
        if not isinstance(value, str | int) or isinstance(value, bool):
            return None
        try:
            v = model._meta.get_field(name).to_python(value)
        except Exception:  # noqa: BLE001 - any value the field refuses makes the cursor invalid
            return None
        if v is None or (isinstance(v, str) and "\x00" in v):
            return None
        out.append(v)
    return out


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
    model = queryset.model
    fields = _split(order)
    after_values = decode(after, model, order)
    before_values = None if after_values else decode(before, model, order)
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
    page = KeysetPage(rows, size=size, is_first=after_values is None)
    page.next_cursor = _cursor(rows[-1], fields) if more else None
    page.previous_cursor = _cursor(rows[0], fields) if after_values is not None and rows else None
    return page


def _cursor(obj, fields) -> str:
    values = []
    for name, _desc in fields:
        v = getattr(obj, "pk" if name == "id" else name)
        values.append(v.isoformat() if hasattr(v, "isoformat") else v)
    return encode(values)
