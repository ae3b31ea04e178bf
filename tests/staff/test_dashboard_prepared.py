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

from dogcase.staff import prepared, queries, ranked
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
    ours = {name: plans for name, plans in held().items() if name.startswith("dogcase_")}
    assert len(ours) == len(prepares)
    with connection.cursor() as cursor:
        cursor.execute("SHOW plan_cache_mode")
        mode = cursor.fetchone()[0]
    if mode == "force_generic_plan":  # as the connection asks it (config/settings.py)
        # planned once, for every moment: generic plans only
        assert all(generic >= 1 and custom == 0 for generic, custom in ours.values()), ours

    ranked.forget_kept()
    with override_settings(DOGCASE_PG_PREPARE="off"):
        plain, response = request(client)
    assert not [s for s in plain if s.startswith(("PREPARE ", "EXECUTE "))]
    assert figures(response) == shown


def both_statements(monkeypatch) -> Client:
    """The admin's dashboard with a cap its longest list passes: both kept statements sent at each request."""
    monkeypatch.setattr(queries, "DASHBOARD_COUNT_CAP", 1)
    return logged_in("admin")


def statements(sent: list[str], verb: str) -> list[str]:
    return [s.split()[1].split("(")[0] for s in sent if s.startswith(verb + " ")]


def test_a_connection_that_lost_a_statement_answers_and_prepares_it_again(demo, monkeypatch):
    client = both_statements(monkeypatch)
    first, response = request(client)
    names = statements(first, "PREPARE")
    assert len(names) == 2
    shown = figures(response)
    with connection.cursor() as cursor:
        cursor.execute(
            f"DEALLOCATE {names[0]}"
        )  # as a DISCARD ALL or a pooler would, behind the process's back

    refused, response = request(client)
    assert figures(response) == shown
    assert not statements(refused, "PREPARE"), "this request sent the lost one unprepared"
    assert statements(refused, "EXECUTE") == names  # the lost one refused, the other one as prepared
    again, response = request(client)
    assert statements(again, "PREPARE") == [names[0]], "the next request prepares the lost one again"
    assert figures(response) == shown
    later, _response = request(client)
    assert not statements(later, "PREPARE") and statements(later, "EXECUTE") == names


def test_statements_the_process_forgot_are_used_as_the_connection_holds_them(demo, monkeypatch):
    client = both_statements(monkeypatch)
    first, response = request(client)
    names = statements(first, "PREPARE")
    shown = figures(response)
    prepared.forget()  # the connection holds them; this process no longer knows it

    again, response = request(client)
    assert statements(again, "PREPARE") == names  # refused as held already, then executed as they are
    assert statements(again, "EXECUTE") == names
    assert figures(response) == shown
    later, _response = request(client)
    assert not statements(later, "PREPARE")
    assert sorted(name for name in held() if name.startswith("dogcase_")) == sorted(names)


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
