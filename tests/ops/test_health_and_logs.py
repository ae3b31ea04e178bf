"""/healthz for load balancers, and one structured log line per request."""

import json
import logging

import pytest
from django.db import OperationalError

from dogcase.ops import health as health_module
from dogcase.ops.logs import JsonFormatter


@pytest.mark.django_db
def test_healthz_says_the_database_answers_and_the_packs_are_loaded(client):
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert body["status"] == "ok" and body["database"] == "ok" and body["packs"] >= 3
    assert "Set-Cookie" not in response.headers  # no session, no login


@pytest.mark.django_db
def test_healthz_answers_a_load_balancer_that_asks_by_address_over_plain_http(client, settings):
    settings.ALLOWED_HOSTS = ["dogcase.example.org"]
    settings.SECURE_SSL_REDIRECT = True

    assert client.get("/healthz", HTTP_HOST="10.0.0.7:8000").status_code == 200
    # only the health check: any other page is refused by address and redirected to HTTPS by name
    assert client.get("/law/", HTTP_HOST="10.0.0.7:8000").status_code == 400
    assert client.get("/law/", HTTP_HOST="dogcase.example.org").status_code == 301


class BrokenConnection:
    def cursor(self):
        raise OperationalError('connection to server at "db.internal" failed: password authentication failed')


def test_healthz_is_503_when_the_database_is_down_and_tells_no_secret(client, monkeypatch, caplog):
    monkeypatch.setattr(health_module, "connection", BrokenConnection())

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json() == {
        "status": "error",
        "database": "unreachable",
        "packs": response.json()["packs"],
    }
    assert b"db.internal" not in response.content and b"password" not in response.content
    assert "db.internal" in caplog.text  # the operator finds the reason in the log


def test_healthz_only_reads(client):
    assert client.post("/healthz").status_code == 405


@pytest.mark.django_db
def test_every_request_is_logged_once_with_its_id_user_status_and_duration(client, make_staff_user, caplog):
    user = make_staff_user("animal_control_officer")
    client.force_login(user)

    with caplog.at_level(logging.INFO, logger="dogcase.request"):
        response = client.get("/law/?q=Jane+Smith", HTTP_X_REQUEST_ID="abc-123")

    (record,) = [r for r in caplog.records if r.name == "dogcase.request"]
    assert response["X-Request-ID"] == "abc-123"
    assert (record.request_id, record.user_id, record.status, record.path) == (
        "abc-123",
        user.pk,
        200,
        "/law/",
    )
    assert record.duration_ms > 0
    assert "Smith" not in record.getMessage()


@pytest.mark.django_db
def test_a_request_id_that_is_not_a_plain_token_is_replaced(client, caplog):
    with caplog.at_level(logging.INFO, logger="dogcase.request"):
        response = client.get("/law/", HTTP_X_REQUEST_ID="x\ninjected: line")

    assert response["X-Request-ID"] != "x\ninjected: line" and len(response["X-Request-ID"]) == 32


def test_json_formatter_writes_one_object_with_the_extra_fields():
    record = logging.makeLogRecord(
        {
            "name": "dogcase.request",
            "levelno": logging.INFO,
            "levelname": "INFO",
            "msg": "GET %s",
            "args": ("/",),
        }
    )
    record.status = 200
    record.user_id = 7

    line = JsonFormatter().format(record)

    assert "\n" not in line
    assert json.loads(line) | {"time": None} == {
        "time": None,
        "level": "INFO",
        "logger": "dogcase.request",
        "message": "GET /",
        "status": 200,
        "user_id": 7,
    }


def test_an_error_logged_by_django_does_not_write_out_the_request_and_its_query(rf):
    request = rf.get("/search/?q=Jane+Smith")
    record = logging.makeLogRecord(
        {
            "name": "django.request",
            "levelname": "ERROR",
            "msg": "Internal Server Error: %s",
            "args": ("/search/",),
        }
    )
    record.request = request
    record.status_code = 500

    line = json.loads(JsonFormatter().format(record))

    assert "Smith" not in json.dumps(line)
    assert line["status_code"] == 500 and line["message"] == "Internal Server Error: /search/"
