"""The law API for one jurisdiction: its own facts and values (Lakeview, a city written as a pack alone), and a
deadline asked for one designation."""

import pytest

from dogcase.law.loader import Library
from tests.api.test_law_api import post_json
from tests.law.lakeview import install_lakeview
from tests.packs_library import use_library

TRACY_DEADLINE = "/api/v1/jurisdictions/tracy-mn/deadline"
NOTICE = {"notice_sent": "2026-03-02", "notice_date": "2026-03-02"}


@pytest.fixture
def lakeview(tmp_path, monkeypatch):
    return use_library(monkeypatch, Library(install_lakeview(tmp_path / "packs")))


@pytest.mark.parametrize(
    "url", ["/api/v1/facts?jurisdiction=lakeview-mn", "/api/v1/jurisdictions/lakeview-mn/facts"]
)
def test_a_jurisdictions_facts_are_the_shared_ones_and_its_own_with_their_words(client, lakeview, url):
    response = client.get(url)

    assert response.status_code == 200
    facts = {f["id"]: f for f in response.json()}
    # the city's own facts, declared by its pack, with the words of their values
    assert facts["leash_status"]["declared_by"] == "lakeview-mn"
    assert facts["leash_status"]["labels"] == [
        {"value": "leashed", "label": "On a leash held by a person", "added_by": None},
        {"value": "unleashed", "label": "Off leash", "added_by": None},
    ]
    assert facts["prior_written_warning"]["type"] == "bool"
    # a shared fact, with the value the city adds to it
    injury = facts["injury"]
    assert injury["declared_by"] is None and "permanent_disfigurement" in injury["values"]
    added = next(v for v in injury["labels"] if v["value"] == "permanent_disfigurement")
    assert added == {
        "value": "permanent_disfigurement",
        "label": "Permanent disfigurement (a lasting scar or loss of function)",
        "added_by": "lakeview-mn",
    }
    assert next(v for v in injury["labels"] if v["value"] == "death")["label"] == "Death"
    assert facts["bit_person_on_separate_occasions"]["from_record"] is True


def test_the_shared_vocabulary_has_no_citys_own_facts(client, lakeview):
    facts = {f["id"]: f for f in client.get("/api/v1/facts").json()}

    assert "leash_status" not in facts
    assert "permanent_disfigurement" not in facts["injury"]["values"]
    # another city's facts do not carry Lakeview's
    tracy = {f["id"]: f for f in client.get("/api/v1/facts?jurisdiction=tracy-mn").json()}
    assert "leash_status" not in tracy and "permanent_disfigurement" not in tracy["injury"]["values"]


def test_facts_of_an_unknown_jurisdiction_is_a_404_naming_the_parameter(client):
    response = client.get("/api/v1/facts?jurisdiction=atlantis")

    assert response.status_code == 404
    assert response.json()["error"]["field"] == "query.jurisdiction"
    assert "atlantis" in response.json()["error"]["rule"]
    assert client.get("/api/v1/jurisdictions/atlantis/facts").status_code == 404


def test_deadline_for_one_designation_combines_only_the_provisions_that_concern_it(client):
    every = post_json(client, TRACY_DEADLINE, {"deadline": "owner.request_hearing", "events": NOTICE})
    dangerous = post_json(
        client,
        TRACY_DEADLINE,
        {"deadline": "owner.request_hearing", "events": NOTICE, "designation": "dangerous"},
    )

    assert every.status_code == dangerous.status_code == 200
    assert every.json()["status"] == "by_designation"  # without a designation: one answer per designation
    parts = {a["designation"]: a for a in every.json()["by_designation"]}
    assert {e["provision"]["provision"] for e in parts["vicious"]["entries"]} == {"tracy-mn:4.A.request"}
    assert parts["dangerous"]["due"] == "2026-03-16"
    # Tracy's five business days (Subd 4.A, for vicious dogs) do not set a state dangerous dog's time
    assert {e["provision"]["provision"] for e in dangerous.json()["entries"]} == {"mn-statute:347.541.1"}
    assert dangerous.json()["due"] == "2026-03-16"


@pytest.mark.parametrize(
    ("designation", "status", "rule"),
    [("feral", 400, "unknown designation 'feral'"), (7, 422, "string")],
)
def test_deadline_with_a_bad_designation_names_the_field(client, designation, status, rule):
    response = post_json(
        client,
        TRACY_DEADLINE,
        {"deadline": "owner.request_hearing", "events": NOTICE, "designation": designation},
    )

    assert response.status_code == status
    assert response.json()["error"]["field"] == "body.designation"
    assert rule in response.json()["error"]["rule"]


def test_openapi_schema_declares_the_facts_parameter_and_the_designation(client):
    schema = client.get("/api/v1/openapi.json").json()
    facts = schema["paths"]["/api/v1/facts"]["get"]
    assert [p["name"] for p in facts["parameters"]] == ["jurisdiction"]
    assert {"200", "404"} <= set(schema["paths"]["/api/v1/jurisdictions/{id}/facts"]["get"]["responses"])
    assert "designation" in schema["components"]["schemas"]["DeadlineIn"]["properties"]
    assert "labels" in schema["components"]["schemas"]["FactOut"]["properties"]
