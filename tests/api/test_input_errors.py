"""Input that used to end in a server error is refused with 400, naming the field (issue 19 item 5).

(a) A JSON body nested 1,000 deep with a NUL in it, to any address, anonymous: the NUL check walked it by
recursion (RecursionError, a traceback logged per request). (b) The deadline API with an event at 0001-01-01 or
9999-12-31T23:59:59-14:00: reading it in the city's time overflowed the calendar (OverflowError).
"""

import datetime as dt
import json
import logging

import pytest
from django.test import Client

from dogcase import law
from dogcase.law import InputError

pytestmark = pytest.mark.django_db

DEADLINE = "/api/v1/jurisdictions/battle-lake-mn/deadline"


def _nested(depth: int, inner: str) -> str:
    return "[" * depth + inner + "]" * depth


@pytest.fixture
def client():
    return Client(raise_request_exception=False)


@pytest.mark.parametrize(
    "url", [DEADLINE, "/api/v1/jurisdictions/tracy-mn/classify", "/", "/accounts/login/"]
)
def test_a_body_nested_a_thousand_deep_with_a_nul_is_a_400_naming_the_body(client, caplog, url):
    with caplog.at_level(logging.ERROR, logger="django.request"):
        response = client.post(url, _nested(1000, '"\\u0000"'), content_type="application/json")
    assert response.status_code == 400
    if url.startswith("/api/"):
        error = response.json()["error"]
        assert error["field"] == "body"
        assert "nested more than" in error["rule"]
    else:
        assert "“body”" in response.content.decode()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], "no traceback is logged"


def test_a_deep_body_without_a_nul_is_refused_by_the_api_too(client):
    for body in (_nested(1000, ""), _nested(100_000, "")):
        response = client.post(DEADLINE, body, content_type="application/json")
        assert 400 <= response.status_code < 500
        assert response.json()["error"]["field"] == "body"


def test_a_nul_in_a_shallow_body_still_names_its_field(client):
    body = json.dumps({"deadline": "owner.request_hearing", "events": {"notice_date": "2026-06-01\x00"}})
    response = client.post(DEADLINE, body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "body.events.notice_date"
    # a NUL in a list, under a key: named by its place
    body = json.dumps({"settings": {"a": ["ok", "x\x00"]}})
    assert client.post(DEADLINE, body, content_type="application/json").json()["error"]["field"] == (
        "body.settings.a[1]"
    )


@pytest.mark.parametrize(
    "value",
    [
        "0001-01-01",
        "9999-12-31",
        "9999-12-31T23:59:59-14:00",
        "0001-01-01T00:00:00+14:00",
        "1899-12-31T23:00:00-06:00",
        "2201-01-01T00:00:00+00:00",
    ],
)
@pytest.mark.parametrize("event", ["notice_date", "notice_received"])
def test_an_event_the_calendar_cannot_count_is_a_400_naming_the_event(client, caplog, value, event):
    body = {"deadline": "owner.request_hearing", "events": {event: value}}
    with caplog.at_level(logging.ERROR, logger="django.request"):
        response = client.post(DEADLINE, json.dumps(body), content_type="application/json")
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["field"] == f"body.events.{event}"
    assert "1900-01-01" in error["rule"] and "2200-12-31" in error["rule"]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.parametrize("on", ["0001-01-01", "9999-12-31", "1899-12-31"])
def test_a_law_date_out_of_range_is_a_400_naming_on(client, on):
    body = {"deadline": "owner.request_hearing", "events": {"notice_date": "2026-06-01"}, "on": on}
    response = client.post(DEADLINE, json.dumps(body), content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "body.on"


def test_the_last_days_in_range_are_still_counted(client):
    # the edges stay in: 2200-12-01 is counted (the answer may be that no law is in force, never a 500)
    for value in ("1900-01-02", "2200-12-01", "2200-12-01T12:00:00-06:00"):
        body = {"deadline": "owner.request_hearing", "events": {"notice_date": value}}
        response = client.post(DEADLINE, json.dumps(body), content_type="application/json")
        assert response.status_code < 500
        if response.status_code == 400:
            assert response.json()["error"]["rule"] != "must be between 1900-01-01 and 2200-12-31"


def test_the_engine_refuses_the_dates_itself():
    """The CLI and the cases read the same engine: the refusal is the law's, not only the API's."""
    with pytest.raises(InputError) as info:
        law.deadline(
            "battle-lake-mn",
            "owner.request_hearing",
            {
                "notice_date": dt.datetime(
                    9999, 12, 31, 23, 59, 59, tzinfo=dt.timezone(dt.timedelta(hours=-14))
                )
            },
        )
    assert info.value.field == "events.notice_date"
    with pytest.raises(InputError) as info:
        law.deadline(
            "battle-lake-mn",
            "owner.request_hearing",
            {"notice_date": dt.date(2026, 6, 1)},
            on=dt.date(1, 1, 1),
        )
    assert info.value.field == "on"
