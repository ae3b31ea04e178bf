"""The dashboard's statements, compiled once for a user and a day, are sent again at each later moment with that
moment in its places: the same statements, word for word and value for value, as compiled afresh at that
moment, and the same dashboard. A statement that changes otherwise from one moment to the next is not kept."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import User

from dogcase.cases.models import Obligation
from dogcase.cases.pages import now_and_today
from dogcase.cases.roles import ROLES
from dogcase.staff import queries, ranked

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def demo(demo_once):
    """The demo's cities, seeded once for the module (tests/staff/conftest.py)."""
    return demo_once


@pytest.fixture(autouse=True)
def nothing_kept():
    ranked.forget_kept()
    yield
    ranked.forget_kept()


def shown(board) -> tuple:
    return board.counts, {name: [row.pk for row in rows] for name, rows in board.rows.items()}


@pytest.mark.parametrize("role", [r.demo_username for r in ROLES])
def test_a_later_moment_sends_the_statements_compiled_for_it(demo, role, monkeypatch):
    user = User.objects.get(username=role)
    now, today = now_and_today()
    later = now + dt.timedelta(hours=3, minutes=7, microseconds=11)
    first = queries.dashboard(user, today=today, now=now)
    assert len(ranked._KEPT) == 1
    (kept,) = ranked._KEPT.values()

    # at the later moment, each kept statement with the moment put in is the one compiled afresh then
    fresh = ranked._compiled(queries.dashboard_lists(user, queries.lists_for(user), today, 10)(later), 100)
    moment = queries._moment(later)
    assert list(kept) == list(fresh)
    for name, (counting, ordered) in fresh.items():
        for statement, compiled in ((kept[name].counting, counting), (kept[name].ordered, ordered)):
            assert (statement.with_moment(moment) if statement else None) == compiled

    # and the dashboard read then compiles nothing: the same as read afresh
    def compiled_again(*args, **kwargs):
        raise AssertionError("compiled again")

    monkeypatch.setattr(ranked, "_ranked_sql", compiled_again)
    again = queries.dashboard(user, today=today, now=now)
    monkeypatch.undo()
    assert shown(again) == shown(first)
    ranked.forget_kept()
    assert shown(queries.dashboard(user, today=today, now=now)) == shown(first)


def test_the_moment_has_places_where_a_list_counts_what_is_overdue(demo):
    """The lists of those who act on a missed deadline's authority name the moment (an instant already past):
    the statements kept have places for it."""
    user = User.objects.get(username="admin")
    now, today = now_and_today()
    queries.dashboard(user, today=today, now=now)
    (kept,) = ranked._KEPT.values()
    assert any(k.counting is not None and k.counting.at for k in kept.values())


def test_another_user_another_day_or_other_roles_compile_their_own(demo):
    now, today = now_and_today()
    officer, clerk = User.objects.get(username="officer"), User.objects.get(username="clerk")
    queries.dashboard(officer, today=today, now=now)
    queries.dashboard(clerk, today=today, now=now)
    queries.dashboard(officer, today=today + dt.timedelta(days=1), now=now + dt.timedelta(days=1))
    assert len(ranked._KEPT) == 3


def test_a_statement_that_changes_otherwise_with_the_moment_is_not_kept(demo):
    def build(at: dt.datetime) -> dict[str, ranked.Ranked]:
        soon = Obligation.objects.filter(due_at__lt=at - dt.timedelta(hours=1))  # not the moment itself
        return {"soon": ranked.Ranked(listed=soon, keys=("due_at",), order=("due_at", "id"), size=5)}

    now, _today = now_and_today()
    counts, rows = ranked.read_kept(("test",), build, now=now, cap=10, moment=queries._moment)
    assert not ranked._KEPT
    assert (counts, rows) == ranked.read(build(now), cap=10)


def test_a_law_reloaded_keeps_no_statement_of_the_law_before(demo, monkeypatch):
    user = User.objects.get(username="clerk")
    now, today = now_and_today()
    queries.dashboard(user, today=today, now=now)
    assert len(ranked._KEPT) == 1
    ranked.keep_for(object())  # another law in use: what was kept under the one before is forgotten
    assert not ranked._KEPT
    queries.dashboard(user, today=today, now=now)
    assert len(ranked._KEPT) == 1 and ranked._KEPT_FOR[0] is next(iter(ranked._KEPT))[0][2]
