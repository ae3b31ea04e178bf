"""The law API: public, read-only questions to the law engine, and one error shape for every failure."""

import json

import pytest
from django.test import Client

from tests.incident_facts import UNPROVOKED_BITE_IN_PUBLIC

LAW_OPERATIONS = [
    ("/api/v1/jurisdictions/{id}/law", "get"),
    ("/api/v1/jurisdictions/{id}/conflicts", "get"),
    ("/api/v1/jurisdictions/{id}/classify", "post"),
    ("/api/v1/jurisdictions/{id}/deadline", "post"),
]


def post_json(client, url, body):
    data = body if isinstance(body, str) else json.dumps(body)
    return client.post(url, data, content_type="application/json")


def statuses(answer):
    return {d["designation"]: d["status"] for d in answer["designations"]}


def test_jurisdictions_lists_every_pack_with_its_layering(client):
    response = client.get("/api/v1/jurisdictions")

    assert response.status_code == 200
    by_id = {j["id"]: j for j in response.json()}
    assert by_id["tracy-mn"]["layer_over"] == "mn-statute"
    assert by_id["battle-lake-mn"]["kind"] == "city"
    assert by_id["mn-statute"]["layer_over"] is None


def test_facts_lists_the_vocabulary_with_types_values_and_questions(client):
    response = client.get("/api/v1/facts")

    assert response.status_code == 200
    facts = {f["id"]: f for f in response.json()}
    assert facts["bit"]["type"] == "bool"
    assert facts["victim"]["values"] == ["human", "domestic_animal", "none"]
    assert facts["provoked"]["question"].endswith("?")


def test_law_shows_the_provisions_in_force_on_the_date_asked(client):
    response = client.get("/api/v1/jurisdictions/tracy-mn/law?on=2026-11-30")

    assert response.status_code == 200
    body = response.json()
    assert body["on"] == "2026-11-30"
    city = next(layer for layer in body["layers"] if layer["pack"] == "tracy-mn")
    assert "tracy-mn:12" in {p["provision"] for p in city["provisions"]}


def test_law_without_a_date_says_which_date_it_used(client):
    response = client.get("/api/v1/jurisdictions/battle-lake-mn/law")

    assert response.status_code == 200
    assert len(response.json()["on"]) == 10


def test_unprovoked_bite_in_public_makes_a_tracy_dog_potentially_dangerous_and_vicious(client):
    response = post_json(
        client,
        "/api/v1/jurisdictions/tracy-mn/classify",
        {"incident_date": "2026-03-02", "facts": UNPROVOKED_BITE_IN_PUBLIC},
    )

    assert response.status_code == 200
    answer = response.json()
    assert answer["law"]["as_of"] == "2026-03-02"
    assert statuses(answer)["potentially_dangerous"] == "eligible"
    assert statuses(answer)["vicious"] == "eligible"
    assert statuses(answer)["dangerous"] == "undetermined"


def test_a_tracy_bite_on_a_person_committing_a_crime_is_vicious_with_the_state_exemption_flagged(client):
    facts = {
        **UNPROVOKED_BITE_IN_PUBLIC,
        "victim_conduct": ["committing_crime"],
        "injury": "substantial_bodily_harm",
    }
    response = post_json(
        client, "/api/v1/jurisdictions/tracy-mn/classify", {"incident_date": "2026-03-02", "facts": facts}
    )

    assert response.status_code == 200
    answer = response.json()
    assert statuses(answer)["vicious"] == "eligible"  # Subd 9 has no crime exemption
    assert statuses(answer)["dangerous"] == "barred"  # 347.51 subd. 5(c): a dangerous declaration only
    vicious = next(d for d in answer["designations"] if d["designation"] == "vicious")
    assert [f["provision"] for f in vicious["flags"]] == ["mn-statute:347.51.5.c"]
    flag = next(n for n in answer["notes"] if n["kind"] == "flag")
    assert flag["kind_label"] == "Flagged for the city attorney"
    assert "would be barred" in flag["reading"]


def test_unprovoked_bite_in_public_makes_a_battle_lake_dog_potentially_dangerous(client):
    response = post_json(
        client,
        "/api/v1/jurisdictions/battle-lake-mn/classify",
        {"incident_date": "2026-03-02", "facts": UNPROVOKED_BITE_IN_PUBLIC},
    )

    assert response.status_code == 200
    answer = response.json()
    assert answer["eligible"] == ["potentially_dangerous"]
    dangerous = next(d for d in answer["designations"] if d["designation"] == "dangerous")
    assert dangerous["status"] == "undetermined"
    assert dangerous["missing_facts"]


def test_police_dog_is_barred_from_designation(client):
    facts = {**UNPROVOKED_BITE_IN_PUBLIC, "law_enforcement_dog": True}

    response = post_json(
        client,
        "/api/v1/jurisdictions/battle-lake-mn/classify",
        {"incident_date": "2026-03-02", "facts": facts},
    )

    assert response.status_code == 200
    assert statuses(response.json())["potentially_dangerous"] == "barred"


def test_tracy_hearing_request_answers_each_designation_with_its_own_deadline(client):
    response = post_json(
        client,
        "/api/v1/jurisdictions/tracy-mn/deadline",
        {
            "deadline": "owner.request_hearing",
            "events": {"notice_sent": "2026-03-02", "notice_date": "2026-03-02"},
            "on": None,
            "settings": {},
        },
    )

    assert response.status_code == 200
    answer = response.json()
    # Subd 4.A's five business days are a vicious dog's, 347.541's 14 days a dangerous dog's: never one date
    assert (answer["status"], answer["due"]) == ("by_designation", None)
    parts = {a["designation"]: (a["due"], a["set_by"]) for a in answer["by_designation"]}
    assert parts == {
        "vicious": ("2026-03-09", ["tracy-mn:4.A.request"]),  # 5 business days after it was sent
        "dangerous": ("2026-03-16", ["mn-statute:347.541.1"]),  # 14 days from the notice
    }
    assert [n["designation"] for n in answer["not_set_for"]] == ["potentially_dangerous"]


def test_tracy_conflicts_include_insurance_amount_and_the_crime_exemption_not_the_hearing_request(client):
    response = client.get("/api/v1/jurisdictions/tracy-mn/conflicts?on=2026-11-30")

    assert response.status_code == 200
    found = response.json()["conflicts"]
    conflicts = {c["topic"]: c for c in found}
    insurance = conflicts["requirement liability_coverage"]
    assert insurance["city"]["value"] == "$50,000"
    assert insurance["state"]["value"] == "$300,000"
    assert insurance["applied"].startswith("$300,000")
    # 347.541's 14 days concern a dangerous declaration, Subd 4.A's five business days a vicious classification:
    # they never set the same case's time, so they are not a conflict
    assert not {
        "deadline owner.request_hearing",
        "deadline city.hold_hearing",
        "deadline city.issue_decision",
    } & set(conflicts)
    # 347.51 subd. 5(c) bars a state dangerous declaration; Subd 9 has no crime exemption, and the state's does
    # not reach a vicious classification: listed for the city attorney, not applied
    missing = [c for c in found if c["kind"] == "missing_exemption"]
    assert [c["state"]["provision"] for c in missing] == ["mn-statute:347.51.5.c"]
    assert missing[0]["applied"].startswith("not applied to a vicious dog classification")


def test_post_needs_no_csrf_token_because_no_session_is_read():
    client = Client(enforce_csrf_checks=True)

    response = post_json(
        client,
        "/api/v1/jurisdictions/tracy-mn/classify",
        {"incident_date": "2026-03-02", "facts": UNPROVOKED_BITE_IN_PUBLIC},
    )

    assert response.status_code == 200


CLASSIFY = "/api/v1/jurisdictions/tracy-mn/classify"
DEADLINE = "/api/v1/jurisdictions/tracy-mn/deadline"


@pytest.mark.parametrize(
    ("method", "url", "body", "status", "field"),
    [
        ("post", CLASSIFY, '{"incident_date": "2026-03-02", ', 400, "body"),
        (
            "post",
            "/api/v1/jurisdictions/nowhere-mn/classify",
            {"incident_date": "2026-03-02"},
            404,
            "jurisdiction",
        ),
        ("get", "/api/v1/jurisdictions/nowhere-mn/law", None, 404, "jurisdiction"),
        ("post", CLASSIFY, {"incident_date": "2026-02-30", "facts": {}}, 422, "body.incident_date"),
        ("post", CLASSIFY, {"incident_date": 20260302, "facts": {}}, 422, "body.incident_date"),
        ("post", CLASSIFY, {"facts": {"bit": True}}, 422, "body.incident_date"),
        (
            "post",
            CLASSIFY,
            {"incident_date": "2026-03-02", "facts": {"barked": True}},
            400,
            "body.facts.barked",
        ),
        (
            "post",
            CLASSIFY,
            {"incident_date": "2026-03-02", "facts": {"victim": "cat"}},
            400,
            "body.facts.victim",
        ),
        ("post", CLASSIFY, {"incident_date": "2026-03-02", "facts": {"bit": "yes"}}, 400, "body.facts.bit"),
        (
            "post",
            DEADLINE,
            {"deadline": "owner.request_hearing", "events": {"rumour": "2026-03-02"}},
            400,
            "body.events.rumour",
        ),
        (
            "post",
            DEADLINE,
            {"deadline": "owner.request_hearing", "events": {"notice_date": "2026-02-30"}},
            400,
            "body.events.notice_date",
        ),
        ("post", DEADLINE, {"deadline": "owner.fly_to_the_moon", "events": {}}, 400, "body.deadline"),
        (
            "post",
            DEADLINE,
            {"deadline": "owner.request_hearing", "settings": {"colour": "red"}},
            400,
            "body.settings.colour",
        ),
        (
            "post",
            DEADLINE,
            {
                "deadline": "owner.report_to_police",
                "events": {"dog_unconfined_or_attack": "2026-11-01T01:30:00"},
            },
            400,
            "body.events.dog_unconfined_or_attack",
        ),
        (
            "post",
            DEADLINE,
            {"deadline": "owner.request_hearing", "events": ["2026-03-02"]},
            422,
            "body.events",
        ),
        (
            "post",
            CLASSIFY,
            {"incident_date": "2026-03-02", "facts": {"victim": ["human"]}},
            400,
            "body.facts.victim",
        ),
        (
            "post",
            CLASSIFY,
            {"incident_date": "2026-03-02", "facts": {"victim_conduct": [["teasing"]]}},
            400,
            "body.facts.victim_conduct",
        ),
        ("post", CLASSIFY, {"incident_date": "2026-03-02", "fact": {"bit": True}}, 422, "body.fact"),
        ("post", DEADLINE, {"deadline": "owner.request_hearing", "event": {}}, 422, "body.event"),
        ("get", "/api/v1/jurisdictions/tracy-mn/law?on=9999-12-31", None, 400, "on"),
        ("get", "/api/v1/jurisdictions/tracy-mn/conflicts?on=0001-01-01", None, 400, "on"),
        ("get", "/api/v1/jurisdictions/tracy-mn/conflicts?on=2026-02-30", None, 422, "query.on"),
        ("get", "/api/v1/jurisdictions/tracy-mn/law?on=soon", None, 422, "query.on"),
    ],
)
def test_bad_input_is_a_4xx_naming_the_field(client, method, url, body, status, field):
    response = client.get(url) if method == "get" else post_json(client, url, body)

    assert response.status_code == status
    assert response.json()["error"]["field"] == field
    assert response.json()["error"]["rule"]


def test_a_city_setting_takes_only_the_values_its_pack_allows(client):
    # § 90.15 (C)(4) is cut off; the city may say the 14 days run from its notice or decision, not from the incident
    body = {
        "deadline": "owner.register",
        "events": {"incident": "2024-01-01"},
        "settings": {"registration_trigger": "incident"},
    }
    response = post_json(client, "/api/v1/jurisdictions/battle-lake-mn/deadline", body)

    assert response.status_code == 400
    assert response.json()["error"]["field"] == "body.settings.registration_trigger"
    assert "notice_received" in response.json()["error"]["rule"]


def test_openapi_schema_declares_the_error_responses_of_every_law_operation(client):
    response = client.get("/api/v1/openapi.json")

    assert response.status_code == 200
    paths = response.json()["paths"]
    for path, method in LAW_OPERATIONS:
        operation = paths[path][method]
        assert {"200", "400", "404", "422"} <= set(operation["responses"]), path
        assert "no login" in operation["description"].lower()
    classify_body = paths["/api/v1/jurisdictions/{id}/classify"]["post"]["requestBody"]
    assert classify_body["required"] is True


def test_error_schema_has_field_and_rule(client):
    schemas = client.get("/api/v1/openapi.json").json()["components"]["schemas"]

    assert set(schemas["ErrorDetail"]["properties"]) == {"field", "rule"}
