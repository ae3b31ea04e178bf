"""On PostgreSQL the dashboard's kept statements are prepared once on a connection and sent after as EXECUTE with
the moment alone (staff/prepared.py), planned once for every moment: the same dashboard as the statements sent
unprepared; a connection that lost its statements still answers and prepares them again; a connection holds a
bounded number of them."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext, override_settings

from dogcase.staff import prepared, ranked
from tests.staff.test_dashboard_queries import figures

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="statements prepared on PostgreSQL"),
]


@pytest.fixture(scope="module")
def demo(demo_once):
    """The demo's cities, seeded once for the module (tests/staff/conftest.py)."""
    return demo_once


@pytest.fixture(autouse=True)
def nothing_prepared():
    def clear():
        ranked.forget_kept()
        with connection.cursor() as cursor:
            cursor.execute("DEALLOCATE ALL")
        prepared.forget()

    clear()
    yield
    clear()


def held() -> dict[str, tuple[int, int]]:
    """The connection's prepared statements: generic and custom plans made for each."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT name, generic_plans, custom_plans FROM pg_prepared_statements")
        return {name: (generic, custom) for name, generic, custom in cursor.fetchall()}


def request(client) -> tuple[list[str], object]:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get("/")
    assert response.status_code == 200
    return [q["sql"] for q in ctx.captured_queries], response


def logged_in(username: str) -> Client:
    client = Client()
    client.force_login(User.objects.get(username=username))
    client.get("/accounts/login/")  # the session's first request, outside what is counted
    return client


@pytest.mark.parametrize("username", ["officer", "clerk", "admin"])
def test_prepared_once_then_executed_with_the_same_dashboard_as_unprepared(demo, username):
    client = logged_in(username)
    first, response = request(client)
    prepares = [s for s in first if s.startswith("PREPARE ")]
    assert prepares, "the first request prepares the kept statements on the connection"
    assert all(s.startswith("PREPARE dogcase_") for s in prepares)
    shown = figures(response)

    later, response = request(client)
    assert not [s for s in later if s.startswith("PREPARE ")], "nothing is prepared twice on a connection"
    executed = [s for s in later if s.startswith("EXECUTE dogcase_")]
    assert len(executed) == len(prepares)
    assert figures(response) == shown
    # planned once, for every moment: generic plans only
    ours = {name: plans for name, plans in held().items() if name.startswith("dogcase_")}
    assert len(ours) == len(prepares)
    assert all(generic >= 1 and custom == 0 for generic, custom in ours.values()), ours

    ranked.forget_kept()
    with override_settings(DOGCASE_PG_PREPARE="off"):
        plain, response = request(client)
    assert not [s for s in plain if s.startswith(("PREPARE ", "EXECUTE "))]
    assert figures(response) == shown


def test_a_connection_that_lost_its_statements_answers_and_prepares_them_again(demo):
    client = logged_in("admin")
    _first, response = request(client)
    shown = figures(response)
    with connection.cursor() as cursor:
        cursor.execute("DEALLOCATE ALL")  # as a pooler or a DISCARD ALL would, behind the process's back

    refused, response = request(client)
    assert figures(response) == shown
    assert not [s for s in refused if s.startswith("PREPARE ")], "this request sent them unprepared"
    again, response = request(client)
    assert [s for s in again if s.startswith("PREPARE ")], "the next request prepares them again"
    assert figures(response) == shown


def test_a_connection_holds_a_bounded_number_of_statements(demo, monkeypatch):
    monkeypatch.setattr(prepared, "KEPT_PER_CONNECTION", 2)
    moment = dt.datetime(2026, 12, 4, 12, tzinfo=dt.UTC)
    for n in range(4):
        sql = f"SELECT {n} AS n, %s::timestamptz < %s AS before, %s AS pattern"
        text = prepared.inlined(sql, [moment, dt.datetime(2027, 1, 1, tzinfo=dt.UTC), "%x%"], (0,))
        assert prepared.fetch(text, moment, (sql, [moment, moment, "%x%"])) == [(n, True, "%x%")]
    ours = [name for name in held() if name.startswith("dogcase_")]
    assert len(ours) == 2


def test_inlined_writes_every_value_but_the_moment():
    moment = dt.datetime(2026, 12, 4, 12, tzinfo=dt.UTC)
    sql = "SELECT 1 WHERE %s < %s AND %s LIKE %s"
    text = prepared.inlined(sql, [moment, moment, "it's", "%it%"], (0, 1))
    assert text.startswith("SELECT 1 WHERE $1 < $1 AND ")
    assert "'it''s'" in text and "'%it%'" in text  # quoted as the connection quotes them, % signs as given
    with pytest.raises(ValueError, match="moment"):
        prepared.inlined(sql, [moment, moment, "a", "b"], (0, 1, 7))
