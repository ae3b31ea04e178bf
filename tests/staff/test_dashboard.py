"""The dashboard: what is overdue, due today, due this week and waiting on the owner in the user's cities,
filtered to what the user's role can do, with countdowns and citations; and the sweep's open tasks."""

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from dogcase.cases import acts
from dogcase.cases.models import Obligation, Task
from tests.staff.conftest import TRACY, client_for, declare, record_bite, take

pytestmark = pytest.mark.django_db


def appeal_received(officer, clerk, *, days_ago: int, **kwargs):
    """A declared dog whose owner's hearing request the clerk received `days_ago` days ago."""
    then = acts.now() - dt.timedelta(days=days_ago)
    case = record_bite(officer, **kwargs)
    declare(case, officer, at=then - dt.timedelta(days=2))
    take(
        case,
        "serve_notice",
        officer,
        at=then - dt.timedelta(days=1),
        served_on=timezone.localdate(then - dt.timedelta(days=1)).isoformat(),
        method="personal",
        served_owner="The owner, at home",
    )
    take(case, "receive_hearing_request", clerk, at=then, received_on=timezone.localdate(then).isoformat())
    return case


def test_an_overdue_obligation_and_its_task_show_for_the_role_that_can_meet_it(officer, clerk):
    case = appeal_received(officer, clerk, days_ago=40)
    acts.sweep()
    overdue = Obligation.objects.get(case=case, deadline_id="city.schedule_hearing")
    assert overdue.status == "overdue"
    days = (timezone.localdate() - overdue.due_date).days

    response = client_for(clerk).get("/")
    html = response.content.decode()
    assert response.status_code == 200
    rows = response.context["sections"][0]["rows"]
    row = next(r for r in rows if r["deadline_id"] == "city.schedule_hearing")
    assert row["countdown"]["text"] == f"{days} days overdue"
    assert row["case_number"] == case.number
    assert row["dog"] == case.dog.name
    assert "§ 90.15 (I)(1)" in row["citation"]
    assert f"{days} days overdue" in html and "schedule the appeal hearing" in html
    assert 'data-count="overdue">2<' in html  # schedule and hold the hearing
    tasks = response.context["tasks"]
    assert any("schedule the appeal hearing" in t["text"] for t in tasks)
    assert f'data-count="tasks">{len(tasks)}<' in html


def test_the_officer_does_not_see_the_clerks_work(officer, clerk):
    appeal_received(officer, clerk, days_ago=40)
    acts.sweep()
    response = client_for(officer).get("/")
    assert response.context["sections"][0]["rows"] == []
    assert response.context["tasks"] == []
    assert "Nothing is overdue." in response.content.decode()


def test_the_administrator_sees_all_of_the_citys_work(officer, clerk, make_staff_user):
    appeal_received(officer, clerk, days_ago=40)
    acts.sweep()
    response = client_for(make_staff_user("administrator")).get("/")
    assert {r["deadline_id"] for r in response.context["sections"][0]["rows"]} >= {"city.schedule_hearing"}


def test_due_this_week_counts_down_in_days(officer, clerk):
    case = appeal_received(officer, clerk, days_ago=10)
    ob = Obligation.objects.get(case=case, deadline_id="city.schedule_hearing")
    days = (ob.due_date - timezone.localdate()).days
    assert 1 < days <= 7, "the pack's two weeks, rolled past a weekend or holiday at most"
    response = client_for(clerk).get("/")
    week = next(s for s in response.context["sections"] if s["id"] == "week")
    row = next(r for r in week["rows"] if r["deadline_id"] == "city.schedule_hearing")
    assert row["countdown"]["text"] == f"due in {days} days"
    assert f"due in {days} days" in response.content.decode()


def test_waiting_on_the_owner_lists_the_owners_open_duties(officer, clerk):
    case = appeal_received(officer, clerk, days_ago=1)
    response = client_for(clerk).get("/")
    owner = next(s for s in response.context["sections"] if s["id"] == "owner")
    assert any(r["case_number"] == case.number and r["who"] == "The owner" for r in owner["rows"])


def test_other_cities_work_is_not_shown(officer, clerk, make_staff_user):
    appeal_received(officer, clerk, days_ago=40)
    acts.sweep()
    tracy_clerk = make_staff_user("city_clerk", username="tracy-clerk", cities=[TRACY])
    response = client_for(tracy_clerk).get("/")
    assert all(not s["rows"] for s in response.context["sections"])
    assert response.context["tasks"] == []


def test_marking_a_task_done_removes_it_from_the_dashboard(officer, clerk):
    appeal_received(officer, clerk, days_ago=40)
    acts.sweep()
    client = client_for(clerk)
    task = Task.objects.filter(done_at__isnull=True, staff_roles__contains=",city_clerk,").first()
    response = client.post(f"/tasks/{task.pk}/done", {"next": "/#tasks"})
    assert response.status_code == 302
    assert response.url == "/#tasks"
    task.refresh_from_db()
    assert task.done_by == clerk
    assert task.pk not in [t["pk"] for t in client.get("/").context["tasks"]]


def test_a_task_done_refuses_to_redirect_off_site(officer, clerk):
    case = appeal_received(officer, clerk, days_ago=40)
    acts.sweep()
    task = Task.objects.filter(staff_roles__contains=",city_clerk,").first()
    response = client_for(clerk).post(f"/tasks/{task.pk}/done", {"next": "https://evil.example/"})
    assert response.url == f"/cases/{case.number}"


def count_dashboard_queries(client) -> int:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get("/")
    assert response.status_code == 200
    return len(ctx.captured_queries)


def test_the_dashboard_runs_the_same_queries_for_2_and_20_cases(officer, clerk):
    for _ in range(2):
        appeal_received(officer, clerk, days_ago=40)
    acts.sweep()
    client = client_for(clerk)
    client.get("/")  # warm the session
    with_2 = count_dashboard_queries(client)
    for _ in range(18):
        appeal_received(officer, clerk, days_ago=40)
    acts.sweep()
    response = client.get("/")
    overdue = response.context["sections"][0]
    # a summary: the count of every overdue item, and the first, most urgent, page of them
    assert overdue["count"] >= 20 and len(overdue["rows"]) == 10
    assert count_dashboard_queries(client) == with_2


def test_the_home_page_of_staff_is_their_dashboard(officer):
    response = client_for(officer).get("/")
    assert "staff/dashboard.html" in [t.name for t in response.templates]
    html = response.content.decode()
    assert "Your work today" in html
    assert 'href="/incidents/new"' in html  # an officer records incidents


def test_the_auditor_sees_no_buttons_to_act(officer, clerk, auditor):
    appeal_received(officer, clerk, days_ago=40)
    acts.sweep()
    response = client_for(auditor).get("/")
    assert response.context["tasks"]  # the auditor oversees everything ...
    html = response.content.decode()
    assert "Mark done" not in html  # ... and changes nothing
    assert 'href="/incidents/new"' not in html
