"""The staff case API: session login, CSRF, city scoping, and the act's refusals, stale versions and bad
input in the API's one error shape."""

import json

import pytest
from django.test import Client

from tests.cases.conftest import Story, at


@pytest.fixture
def case(staff):
    return Story(
        staff,
        "battle-lake-mn",
        {
            "bit": True,
            "victim": "human",
            "injury": "minor",
            "place": "public",
            "provoked": False,
            "victim_conduct": [],
            "law_enforcement_dog": False,
        },
    ).case


def client_for(user, csrf=False) -> Client:
    c = Client(enforce_csrf_checks=csrf)
    c.force_login(user)
    return c


def post(c, url, body, **extra):
    return c.post(url, json.dumps(body), content_type="application/json", **extra)


def test_the_case_api_needs_a_login(case):
    assert Client().get("/api/v1/cases").status_code == 401
    assert Client().get(f"/api/v1/cases/{case.number}").status_code == 401


def test_a_case_of_another_city_is_not_found(case, make_staff_user):
    outsider = make_staff_user("animal_control_officer", username="tracy-only", cities=("tracy-mn",))
    c = client_for(outsider)
    assert c.get(f"/api/v1/cases/{case.number}").status_code == 404
    assert [x["number"] for x in c.get("/api/v1/cases").json()] == []


def test_case_detail_lists_the_steps_the_user_may_take(case, staff):
    body = client_for(staff["officer"]).get(f"/api/v1/cases/{case.number}").json()
    allowed = {s["step"] for s in body["steps"] if s["allowed"]}
    assert "declare" in allowed
    clerk = client_for(staff["clerk"]).get(f"/api/v1/cases/{case.number}").json()
    declare = next(s for s in clerk["steps"] if s["step"] == "declare")
    assert not declare["allowed"] and declare["refusals"][0]["code"] == "not_empowered"
    assert declare["refusals"][0]["citation"]


def test_taking_an_act_then_replaying_it_then_a_stale_version(case, staff):
    c = client_for(staff["officer"])
    url = f"/api/v1/cases/{case.number}/steps/declare"
    body = {
        "version": case.version,
        "inputs": {"designation": "potentially_dangerous", "basis": "Bite"},
        "idempotency_key": "k-1",
    }
    first = post(c, url, body)
    assert first.status_code == 201, first.content
    assert first.json()["case"]["designation"] == "potentially_dangerous"
    again = post(c, url, body)
    assert (again.status_code, again.json()["replayed"]) == (200, True)
    assert again.json()["event"]["seq"] == first.json()["event"]["seq"]
    stale = post(
        c,
        f"/api/v1/cases/{case.number}/steps/serve_notice",
        {"version": case.version, "inputs": {"served_on": at(0).date().isoformat()}},
    )
    assert stale.status_code == 409
    assert stale.json()["error"]["field"] == "version"
    assert stale.json()["error"]["version"] == case.version + 1


def test_an_act_the_law_refuses_and_bad_input(case, staff):
    c = client_for(staff["clerk"])
    refused = post(
        c,
        f"/api/v1/cases/{case.number}/steps/declare",
        {"version": case.version, "inputs": {"designation": "dangerous", "basis": "x"}},
    )
    assert refused.status_code == 409
    assert refused.json()["error"]["refusals"][0]["code"] == "not_empowered"
    bad = post(
        client_for(staff["officer"]),
        f"/api/v1/cases/{case.number}/steps/declare",
        {"version": case.version, "inputs": {"designation": "vicious", "basis": "x"}},
    )
    assert bad.status_code == 422
    assert bad.json()["error"]["field"] == "inputs.designation"


def test_unsafe_requests_need_the_csrf_token(case, staff):
    c = client_for(staff["officer"], csrf=True)
    response = post(
        c,
        f"/api/v1/cases/{case.number}/steps/declare",
        {"version": case.version, "inputs": {"designation": "dangerous", "basis": "x"}},
    )
    assert response.status_code == 403
    case.refresh_from_db()
    assert case.version == 1


def test_the_case_list_reaches_every_case_a_page_at_a_time(staff):
    facts = {
        "bit": True,
        "victim": "human",
        "injury": "minor",
        "place": "public",
        "provoked": False,
        "victim_conduct": [],
        "law_enforcement_dog": False,
    }
    numbers = {Story(staff, "battle-lake-mn", facts).case.number for _ in range(5)}
    c = client_for(staff["officer"])
    seen: list[str] = []
    url = "/api/v1/cases?limit=2"
    while url:
        response = c.get(url)
        assert response.status_code == 200
        page = [x["number"] for x in response.json()]
        assert len(page) <= 2
        seen += page
        link = response.headers.get("Link", "")
        url = link[1 : link.index(">")] if link else ""
    assert set(seen) == numbers and len(seen) == len(numbers)  # each once, none left out


@pytest.mark.parametrize("query", ["after=WyJKYW5lIl0", "after=-1", "limit=0", "limit=201"])
def test_a_bad_page_position_or_size_is_refused_naming_it(staff, query):
    response = client_for(staff["officer"]).get(f"/api/v1/cases?{query}")
    assert response.status_code == 422
    assert query.split("=")[0] in response.content.decode()
