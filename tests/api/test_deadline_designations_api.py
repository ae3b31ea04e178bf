"""The API's deadline asked without a designation: where the provisions differ by designation, one answer per
designation (each its own due date, provisions and words), never one date merged from them."""

from dogcase.law import library, parse_events
from tests.api.test_law_api import post_json

TRACY_DEADLINE = "/api/v1/jurisdictions/tracy-mn/deadline"
# the vicious owner's notice sent Thursday 14 January 2027, dated Friday 15 January
EVENTS = {"notice_sent": "2027-01-14", "notice_date": "2027-01-15"}


def test_without_a_designation_each_designation_gets_its_own_due_date(client):
    response = post_json(client, TRACY_DEADLINE, {"deadline": "owner.request_hearing", "events": EVENTS})

    assert response.status_code == 200
    answer = response.json()
    assert answer["status"] == "by_designation"
    assert answer["due"] is None and "set_by" not in answer
    parts = {a["designation"]: a for a in answer["by_designation"]}
    assert set(parts) == {"vicious", "dangerous"} == set(answer["designations"])
    # 347.541's 14 days (29 January) are a dangerous dog's only, never the vicious dog owner's answer
    assert (parts["dangerous"]["due"], parts["dangerous"]["set_by"]) == (
        "2027-01-29",
        ["mn-statute:347.541.1"],
    )
    assert parts["vicious"]["set_by"] == ["tracy-mn:4.A.request"]
    assert parts["vicious"]["due"] != "2027-01-29"
    # each part is the answer asked with that designation
    tracy = library().get("tracy-mn")
    for designation, part in parts.items():
        alone = tracy.deadline("owner.request_hearing", parse_events(EVENTS), designation=designation)
        assert (part["due"], part["what"]) == (alone["due"], alone["what"])
    assert "vicious" in answer["reasons"][0] and "dangerous" in answer["reasons"][0]


def test_with_a_designation_the_api_gives_one_date(client):
    body = {"deadline": "owner.request_hearing", "events": EVENTS, "designation": "vicious"}
    response = post_json(client, TRACY_DEADLINE, body)

    assert response.status_code == 200
    answer = response.json()
    assert answer["status"] == "determined"
    assert answer["set_by"] == ["tracy-mn:4.A.request"]
    assert "by_designation" not in answer


def test_the_schema_says_what_an_answer_without_a_designation_is(client):
    schema = client.get("/api/v1/openapi.json").json()
    text = str(schema)
    assert "by_designation" in text
