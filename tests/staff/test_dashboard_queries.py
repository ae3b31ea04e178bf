"""Each role's dashboard, over the demo data, runs at most MAX_QUERIES SQL queries, and as many with twice the
cases and their obligations and tasks in the cities; every figure it shows (each list's count, the proofs
waiting, the open tasks) and each list's first rows are those the lists hold, counted and read independently
here (each list's own query counted in full, and read in its order)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from dogcase.cases.access import cities_of
from dogcase.cases.models import Case, Task
from dogcase.cases.pages import now_and_today
from dogcase.cases.roles import ROLES
from dogcase.proofs.models import ProofSubmission
from dogcase.staff import queries

pytestmark = pytest.mark.django_db

MAX_QUERIES = 12


@pytest.fixture(scope="module")
def demo(demo_once):
    """The demo's cities, seeded once for the module (tests/staff/conftest.py)."""
    return demo_once


def requested(client) -> tuple[int, object]:
    """The queries of a request, but those that prepare a statement on the connection (PostgreSQL: once a
    connection, staff/prepared.py; tests/staff/test_dashboard_prepared.py counts them) and the savepoint that
    guards a prepared statement inside the test's transaction (a request outside a test has none)."""
    with CaptureQueriesContext(connection) as ctx:
        response = client.get("/")
    assert response.status_code == 200
    return len(counted([q["sql"] for q in ctx.captured_queries])), response


def counted(sent: list[str]) -> list[str]:
    """The statements sent but a PREPARE or DEALLOCATE, and the savepoint around one of those or an EXECUTE."""
    prepared = {i for i, s in enumerate(sent) if s.startswith(("PREPARE ", "DEALLOCATE ", "EXECUTE "))}
    guard = {
        j
        for i in prepared
        for j in (i - 1, i + 1)
        if sent[j].startswith(("SAVEPOINT ", "RELEASE SAVEPOINT "))
    }
    return [s for i, s in enumerate(sent) if i not in guard and not s.startswith(("PREPARE ", "DEALLOCATE "))]


def shown(row: dict) -> tuple:
    return (row["case_number"], row.get("deadline_id", ""), row.get("pk"))


def live(user) -> dict:
    """What the dashboard should show, read here list by list: each list's count (a plain COUNT of all its
    items, at most the dashboard's cap + 1) and its first rows in its order, the open tasks, the proofs waiting."""
    now, today = now_and_today()
    lists = queries.lists_for(user)
    filters = queries._filters(user, lists, today, now)
    size = queries.OVERSEER_PAGE if queries.role_filter(user) is None else queries.DASHBOARD_PAGE
    cap = queries.DASHBOARD_COUNT_CAP
    out = {}
    for sid in [w.id for w in lists] + ["tasks"]:
        listed = queries._list_queryset(user, sid, filters)
        first = queries._section_rows(
            user, sid, filters, offset=0, size=min(size, queries.DASHBOARD_TASKS) if sid == "tasks" else size
        )
        if sid == "tasks":
            keys = [(t.case.number, "", t.pk) for t in first]
        elif sid == "decide":
            keys = [(c.number, "", None) for c in first]
        else:
            keys = [(o.case.number, o.deadline_id, None) for o in first]
        out[sid] = (min(listed.count(), cap + 1), keys)
    tasks = Task.objects.filter(jurisdiction__in=cities_of(user), done_at__isnull=True)
    if queries.role_filter(user) is not None:
        tasks = tasks.filter(queries.role_filter(user))
    assert out["tasks"][0] == min(tasks.count(), cap + 1)
    proofs = ProofSubmission.objects.filter(
        jurisdiction__in=cities_of(user), status=ProofSubmission.Status.SUBMITTED
    ).count()
    return {"lists": out, "proofs": proofs}


def figures(response) -> dict:
    context = response.context
    out = {s["id"]: (s["count"], [shown(r) for r in s["rows"]]) for s in context["sections"]}
    out["tasks"] = (context["task_count"], [shown(r) for r in context["tasks"]])
    return out


def twice_the_cases():
    """A copy of every open case of the demo, with its open obligations and tasks: each list holds twice what
    it held."""
    for case in Case.objects.filter(status=Case.Status.OPEN).order_by("pk"):
        obligations = list(case.obligations.filter(status__in=queries.ACTIVE))
        tasks = list(case.tasks.filter(done_at__isnull=True))
        case.pk, case.number = None, f"{case.number}-2"
        case.save()
        copied = {}
        for ob in obligations:
            was = ob.pk
            ob.pk, ob.case = None, case
            ob.save()
            copied[was] = ob
        for task in tasks:
            task.pk, task.case, task.key = None, case, f"{task.key}-2"
            task.obligation = copied.get(task.obligation_id)
            task.save()


@pytest.mark.parametrize("role", ROLES, ids=[r.demo_username for r in ROLES])
def test_the_dashboard_runs_a_fixed_number_of_queries_and_shows_what_the_lists_hold(demo, role):
    user = User.objects.get(username=role.demo_username)
    client = Client()
    client.force_login(user)
    client.get("/")  # the session's first request

    queries_before, response = requested(client)
    assert queries_before <= MAX_QUERIES
    expected = live(User.objects.get(pk=user.pk))
    assert figures(response) == expected["lists"]
    counts = {c["id"]: c["count"] for c in response.context["counts"]}
    assert counts.get("proofs", expected["proofs"]) == expected["proofs"]
    assert response.context["proof_count"] == expected["proofs"]
    assert any(n for n, _rows in expected["lists"].values()), "the demo gives every role something to do"

    twice_the_cases()
    queries_after, response = requested(client)
    assert queries_after == queries_before
    doubled = live(User.objects.get(pk=user.pk))
    assert figures(response) == doubled["lists"]
    # every list that held something holds more now (up to the dashboard's cap)
    for sid, (count, _rows) in expected["lists"].items():
        if count:
            assert doubled["lists"][sid][0] > count or count > queries.DASHBOARD_COUNT_CAP, sid


def test_a_list_longer_than_the_cap_shows_its_first_rows_of_all_and_costs_one_query_more(demo, monkeypatch):
    """Past the cap, a list's first rows are read again in its own order (its first of all its items, not of
    those the count happened to read): one query for all such lists."""
    user = User.objects.get(username="admin")
    client = Client()
    client.force_login(user)
    client.get("/")
    within, response = requested(client)
    longest = max(response.context["sections"], key=lambda s: s["count"])
    assert longest["count"] >= 3
    monkeypatch.setattr(queries, "DASHBOARD_COUNT_CAP", 2)
    past, response = requested(client)
    assert past == within + 1
    assert figures(response) == live(User.objects.get(pk=user.pk))["lists"]
    section = next(s for s in response.context["sections"] if s["id"] == longest["id"])
    assert section["capped"] and section["count_words"] == "more than 2"
