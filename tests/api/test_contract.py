"""The API's contract, beside the schemathesis run: the statuses and shapes its schema declares, the
vocabulary it lists, and the failures that happen before any operation runs."""

import json

import pytest
from django.test import Client

from dogcase.law import library
from tests.api.test_cases_api import case, client_for, post  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def schema():
    return Client().get("/api/v1/openapi.json").json()


def _operation(schema, path, method):
    return schema["paths"][f"/api/v1{path}"][method]


def _body_schema(schema, path):
    ref = _operation(schema, path, "post")["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    return schema["components"]["schemas"][ref.rsplit("/", 1)[1]]


def test_every_operation_declares_the_nul_and_oversize_answers(schema):
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            assert {"400", "413"} <= set(operation["responses"]), (method, path)


def test_the_case_operations_declare_401_and_the_act_403_and_409(schema):
    for path, method in (
        ("/cases", "get"),
        ("/cases/{number}", "get"),
        ("/cases/{number}/steps/{step_id}", "post"),
    ):
        assert {"401", "422"} <= set(_operation(schema, path, method)["responses"])
    act = _operation(schema, "/cases/{number}/steps/{step_id}", "post")["responses"]
    assert {"403", "404", "409"} <= set(act)


def test_the_schema_lists_the_laws_vocabulary(schema):
    lib = library()
    classify = _body_schema(schema, "/jurisdictions/{id}/classify")["properties"]
    assert set(lib.get("tracy-mn").facts.facts) <= set(classify["facts"]["properties"])
    assert classify["facts"]["additionalProperties"] is False
    # every value any installed pack gives the fact (a city's pack may add one: docs/law-packs.md)
    assert classify["facts"]["properties"]["injury"]["enum"][:-1] == sorted(
        {v for j in lib.jurisdictions.values() for v in j.facts.facts["injury"].ordered_values}
    )
    assert set(lib.get("battle-lake-mn").facts.facts["injury"].ordered_values) <= set(
        classify["facts"]["properties"]["injury"]["enum"]
    )
    assert classify["incident_date"]["pattern"].startswith("^(19")
    deadline = _body_schema(schema, "/jurisdictions/{id}/deadline")["properties"]
    assert "owner.request_hearing" in deadline["deadline"]["enum"]
    assert "vicious" in json.dumps(deadline["designation"])
    id_param = next(
        p for p in _operation(schema, "/jurisdictions/{id}/law", "get")["parameters"] if p["name"] == "id"
    )
    assert id_param["schema"]["enum"] == sorted(lib.jurisdictions)
    step = next(
        p
        for p in _operation(schema, "/cases/{number}/steps/{step_id}", "post")["parameters"]
        if p["name"] == "step_id"
    )
    assert {"declare", "serve_notice"} <= set(step["schema"]["enum"])
    q = next(p for p in _operation(schema, "/cases", "get")["parameters"] if p["name"] == "q")
    assert '"maxLength": 100' in json.dumps(q["schema"])


@pytest.mark.parametrize("written", ["20250601", "2025-W23-1", "1850-01-01", "2201-01-01"])
def test_a_date_outside_the_written_form_or_the_range_is_refused_naming_it(written):
    body = {"incident_date": written, "facts": {"bit": True}}
    response = post(Client(), "/api/v1/jurisdictions/tracy-mn/classify", body)
    assert response.status_code in (400, 422)
    assert response.json()["error"]["field"] == "body.incident_date"


def test_an_oversize_body_gets_the_apis_error_shape(settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    body = {"incident_date": "2025-06-01", "facts": {"bit": True}, "pad": "x" * 2000}
    response = post(Client(), "/api/v1/jurisdictions/tracy-mn/classify", body)
    assert response.status_code == 413
    assert response["Content-Type"] == "application/json"
    assert response.json()["error"]["field"] == "body"


def test_an_anonymous_case_request_gets_a_401_in_the_error_shape():
    response = Client().get("/api/v1/cases")
    assert response.status_code == 401
    assert response.json() == {"error": {"field": "user", "rule": "log in first (the staff session cookie)"}}


def test_a_read_only_role_is_refused_every_act_with_a_403(case, staff):  # noqa: F811
    c = client_for(staff["auditor"])
    body = {"version": case.version, "inputs": {"designation": "dangerous", "basis": "x"}}
    response = post(c, f"/api/v1/cases/{case.number}/steps/declare", body)
    assert response.status_code == 403
    assert response.json()["error"]["field"] == "user"


def test_a_missing_csrf_token_is_a_403_in_the_error_shape(case, staff):  # noqa: F811
    c = client_for(staff["officer"], csrf=True)
    response = post(c, f"/api/v1/cases/{case.number}/steps/declare", {"version": case.version, "inputs": {}})
    assert response.status_code == 403
    assert response.json()["error"]["field"] == "X-CSRFToken"


def test_the_classify_api_answers_what_the_engine_answers():
    from dogcase import law

    facts = {"bit": True, "victim": "human", "injury": "minor", "place": "public", "provoked": False}
    response = post(
        Client(),
        "/api/v1/jurisdictions/battle-lake-mn/classify",
        {"incident_date": "2025-06-01", "facts": facts},
    )
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    assert response.json() == json.loads(
        json.dumps(law.classify("battle-lake-mn", facts, law.parse_date("2025-06-01", "d")))
    )
