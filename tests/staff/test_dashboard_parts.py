"""The dashboard's lists of obligations are read as parts (staff/ranked.py `Parts`): on PostgreSQL each part a
(city, deadline id) pair at a time, in the list's order, so that a list reads a few rows a pair whatever the
cities' other active obligations. Read so, each list must count and show exactly what its own condition holds
read in one statement; and no row may be in two parts (their rows are put one after the other, not set apart
twice). On the demo data of both cities, for every role, at today's moment and 45 days later (when more is
overdue and the lists of what the law then authorizes fill), with caps small enough that most lists hold more
than the cap (their first rows then read in order) and the dashboard's own."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.db.models import Q
from django.test.utils import CaptureQueriesContext

from dogcase.cases.pages import now_and_today
from dogcase.cases.roles import ROLES
from dogcase.staff import queries, ranked

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def demo(demo_once):
    return demo_once


def shown(read: tuple) -> tuple:
    counts, rows = read
    return counts, {name: [row.pk for row in items] for name, items in rows.items()}


def lists_at(user, days: int, size: int) -> dict[str, ranked.Ranked]:
    now, today = now_and_today()
    at = now + dt.timedelta(days=days)
    return queries.dashboard_lists(user, queries.lists_for(user), today + dt.timedelta(days=days), size)(at)


@pytest.mark.parametrize("role", [r.demo_username for r in ROLES])
@pytest.mark.parametrize("days", [0, 45])
@pytest.mark.parametrize(("cap", "size"), [(100, 10), (2, 3), (1, 1)])
@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite reads each list in one statement")
def test_a_list_read_as_parts_holds_what_its_condition_holds(demo, role, days, cap, size):
    user = User.objects.get(username=role)
    lists = lists_at(user, days, size)
    assert any(part.pairs for item in lists.values() if item.parts for part in item.parts.parts)
    with CaptureQueriesContext(connection) as ctx:
        as_parts = ranked.read(lists, cap=cap)
    whole = ranked.read(
        {name: dataclasses.replace(item, parts=None) for name, item in lists.items()}, cap=cap
    )
    assert shown(as_parts) == shown(whole)
    assert "CROSS JOIN LATERAL" in ctx.captured_queries[0]["sql"]  # a pair at a time


@pytest.mark.parametrize("role", [r.demo_username for r in ROLES])
def test_every_row_of_a_list_is_in_one_part_exactly(demo, role):
    user = User.objects.get(username=role)
    lists = lists_at(user, 45, 10)
    rows_seen = 0
    for name, item in lists.items():
        if item.parts is None:
            continue
        listed = set(item.listed.values_list("pk", flat=True))
        held: dict[int, int] = {}
        for part in item.parts.parts:
            where = (queries._pairs_where(part.pairs) & part.condition) if part.pairs else part.condition
            for pk in item.parts.base.filter(where).values_list("pk", flat=True):
                held[pk] = held.get(pk, 0) + 1
        assert set(held) == listed, name
        assert all(n == 1 for n in held.values()), name
        rows_seen += len(listed)
    assert rows_seen > 0  # the demo's lists hold something for every role


def test_pairs_held_by_several_parts_are_read_once_with_their_conditions_together():
    q_a, q_b = Q(who="city"), Q(who="owner")
    parts = [
        ranked.Part(q_a, (("x", "d1"), ("x", "d2"))),
        ranked.Part(q_b, (("x", "d2"), ("y", "d3"))),
        ranked.Part(Q(kind="due")),
    ]
    out = queries._disjoint(parts)
    by_pairs = {part.pairs: part.condition for part in out}
    assert by_pairs[(("x", "d1"),)] == q_a
    assert by_pairs[(("y", "d3"),)] == q_b
    assert by_pairs[(("x", "d2"),)] == Q(pk__in=[]) | q_a | q_b
    # a part of no pairs last, without the rows of the pairs
    assert by_pairs[()] == Q(kind="due") & ~queries._pairs_where([("x", "d1"), ("x", "d2"), ("y", "d3")])
    assert out[-1].pairs == ()
    assert sorted(p for part in out for p in part.pairs) == [("x", "d1"), ("x", "d2"), ("y", "d3")]
