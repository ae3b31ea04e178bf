"""The dashboard of each role: an officer's incidents to decide and seizures authorized, a clerk's hearing
requests to schedule, notices to send and proof to review, a hearing officer's hearings to hold and decisions
due, a council clerk's items awaiting the Council; then the rest of the role's deadlines and the sweep's open
tasks. Each row gives what, the dog, the due date and a countdown; what missing it brings is in its details."""

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from dogcase.cases import acts
from dogcase.cases.models import Obligation, Task
from dogcase.staff.queries import WORK_LISTS
from tests.staff.conftest import TRACY, client_for, declare, record_bite, take

pytestmark = pytest.mark.django_db


def section(response, sid: str) -> dict:
    return next(s for s in response.context["sections"] if s["id"] == sid)


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
    rows = section(response, "schedule")["rows"]
    row = next(r for r in rows if r["deadline_id"] == "city.schedule_hearing")
    assert row["countdown"]["text"] == f"{days} days overdue"
    assert row["case_number"] == case.number
    assert row["dog"] == case.dog.name
    assert "§ 90.15 (I)(1)" in row["citation"]
    assert f"{days} days overdue" in html and "schedule the appeal hearing" in html
    assert 'data-count="schedule">1<' in html
    tasks = response.context["tasks"]
    assert any("schedule the appeal hearing" in t["text"] for t in tasks)
    assert f'data-count="tasks">{len(tasks)}<' in html


def test_the_officer_does_not_see_the_clerks_work(officer, clerk):
    appeal_received(officer, clerk, days_ago=40)
    acts.sweep()
    response = client_for(officer).get("/")
    assert [s["id"] for s in response.context["sections"]] == ["decide", "seizures", "other"]
    deadlines = {r["deadline_id"] for s in response.context["sections"] for r in s["rows"]}
    assert not {d for d in deadlines if d.startswith("city.")}
    # the officer's own work only: the bite's rabies observation, overdue (issue 20, item 9)
    assert [t["text"] for t in response.context["tasks"] if "rabies observation" not in t["text"]] == []
    assert "No seizure is authorized." in response.content.decode()


def test_the_administrator_sees_all_of_the_citys_work(officer, clerk, make_staff_user):
    appeal_received(officer, clerk, days_ago=40)
    acts.sweep()
    response = client_for(make_staff_user("administrator")).get("/")
    assert [s["id"] for s in response.context["sections"]] == [w.id for w in WORK_LISTS]
    assert {r["deadline_id"] for r in section(response, "schedule")["rows"]} == {"city.schedule_hearing"}
    assert {r["deadline_id"] for r in section(response, "hearings")["rows"]} == {"city.hold_hearing"}


def test_due_this_week_counts_down_in_days(officer, clerk):
    case = appeal_received(officer, clerk, days_ago=10)
    ob = Obligation.objects.get(case=case, deadline_id="city.schedule_hearing")
    days = (ob.due_date - timezone.localdate()).days
    assert 1 < days <= 7, "the pack's two weeks, rolled past a weekend or holiday at most"
    response = client_for(clerk).get("/")
    row = next(
        r for r in section(response, "schedule")["rows"] if r["deadline_id"] == "city.schedule_hearing"
    )
    assert row["countdown"]["text"] == f"due in {days} days"
    assert f"due in {days} days" in response.content.decode()


def test_the_owners_duties_a_role_receives_are_among_its_other_deadlines(officer, clerk):
    case = record_bite(officer)
    declare(case, officer, at=acts.now() - dt.timedelta(days=2))
    day = timezone.localdate() - dt.timedelta(days=1)
    take(case, "serve_notice", officer, served_on=day.isoformat(), method="personal", served_owner="At home")
    take(case, "record_notice_receipt", officer, received_on=day.isoformat())
    response = client_for(clerk).get("/")
    row = next(r for r in section(response, "other")["rows"] if r["deadline_id"] == "owner.request_hearing")
    assert row["case_number"] == case.number and row["who"] == "The owner"


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
    schedule = section(response, "schedule")
    # a summary: the count of every item, and the first, most urgent, page of them
    assert schedule["count"] == 20 and len(schedule["rows"]) == 10
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


# ------------------------------------------------------------------------------------- the lists of a role


def test_each_role_has_its_own_lists(officer, clerk, hearing_officer, make_staff_user):
    ids = {
        "officer": ["decide", "seizures", "other"],
        # proof to review is one queue, the proof owners sent (dogcase.proofs's section; issue 20, item 7)
        "clerk": ["schedule", "notices", "other"],
        "hearing": ["hearings", "decisions", "other"],
        "council": ["council", "other"],
    }
    users = {
        "officer": officer,
        "clerk": clerk,
        "hearing": hearing_officer,
        "council": make_staff_user("council_clerk"),
    }
    for name, user in users.items():
        response = client_for(user).get("/")
        assert [s["id"] for s in response.context["sections"]] == ids[name], name
        html = response.content.decode()
        for s in response.context["sections"]:
            assert f'<h2 id="{s["id"]}-h">{s["title"]}' in html


def test_an_incident_not_yet_decided_is_the_officers_to_decide(officer, clerk):
    case = record_bite(officer, dog_name="Rex", occurred_at=acts.now() - dt.timedelta(days=3))
    decided = record_bite(officer)
    declare(decided, officer)
    response = client_for(officer).get("/")
    rows = section(response, "decide")["rows"]
    assert [r["case_number"] for r in rows] == [case.number]
    assert rows[0]["dog"] == "Rex" and rows[0]["countdown"]["text"] == "incident 3 days ago"
    assert rows[0]["what"].startswith("Declare")  # the city's own words for its deciding step
    assert "incident 3 days ago" in response.content.decode()
    assert "decide" not in [s["id"] for s in client_for(clerk).get("/").context["sections"]]


def test_a_seizure_the_law_authorizes_is_on_the_officers_list_with_why(officer, clerk):
    case = record_bite(officer, dog_name="Thor", occurred_at=acts.now() - dt.timedelta(days=70))
    declare(case, officer, designation="dangerous", at=acts.now() - dt.timedelta(days=60))
    acts.sweep()
    assert Obligation.objects.get(case=case, deadline_id="owner.sterilize").status == "overdue"
    response = client_for(officer).get("/")
    rows = section(response, "seizures")["rows"]
    assert [r["case_number"] for r in rows] == [case.number]
    assert rows[0]["what"].startswith("Seizure authorized under Minn. Stat. § 347.52")
    assert rows[0]["countdown"]["tone"] == "overdue"
    # the same duty is not listed twice
    assert "owner.sterilize" not in [r["deadline_id"] for r in section(response, "other")["rows"]]


def test_a_hearing_to_hold_and_a_decision_due_are_the_hearing_officers(officer, clerk, hearing_officer):
    appeal_received(officer, clerk, days_ago=3)
    response = client_for(hearing_officer).get("/")
    assert [r["deadline_id"] for r in section(response, "hearings")["rows"]] == ["city.hold_hearing"]
    assert section(response, "decisions")["rows"] == []


def test_a_row_is_what_dog_due_and_countdown_with_what_if_missed_in_its_details(officer, clerk):
    case = appeal_received(officer, clerk, days_ago=40, dog_name="Rex")
    acts.sweep()
    html = client_for(clerk).get("/").content.decode()
    row = html[html.index('data-deadline="city.schedule_hearing"') :]
    row = row[: row.index("</li>")]
    assert (
        "Rex" in row and case.number in row and "days overdue" in row and "schedule the appeal hearing" in row
    )
    if "If missed" in row:  # what the law attaches folds into the details, not the row's lines
        assert row.index("<details") < row.index("If missed")
    assert "consequence" not in row.split("<details")[0]
