"""Hostile input against every page and every API operation: never a server error (issue 19 item 5).

Every URL pattern of the site (the Django admin aside) is requested with its path filled both with the records of
a real case and with hostile values; every form the page shows (its input, select and textarea names) is posted
back with hostile values in every field; every operation of the API's OpenAPI schema is called with hostile
values in every query parameter and body field, and with a body nested a thousand deep. Anonymous, then as a
signed-in staff user who holds the acting roles. Any 5xx fails the test, listing every request that caused one.

Hostile values: a NUL, overlong text, huge and negative integers, a float beyond range, impossible dates, dates
the law's calendar cannot count (0001-01-01, 9999-12-31T23:59:59-14:00), JSON nested a thousand deep.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from html.parser import HTMLParser
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from dogcase.api import api
from dogcase.cases import acts

pytestmark = pytest.mark.django_db

CT = ZoneInfo("America/Chicago")
AT = dt.datetime(2026, 6, 1, 10, tzinfo=CT)
DEEP = "[" * 1000 + "]" * 1000
DEEP_NUL = "[" * 1000 + '"\\u0000"' + "]" * 1000

# text a form field or query parameter may receive
HOSTILE_TEXT = [
    "\x00",
    "a" * 20_000,
    str(10**40),
    str(-(10**30)),
    "1e999",
    "0001-01-01",
    "9999-12-31",
    "9999-12-31T23:59:59-14:00",
    "0001-01-01T00:00:00+14:00",
    "2026-02-30",
    "2026-13-01T25:61",
    DEEP,
]
# values a JSON field may receive
HOSTILE_JSON = [
    "\x00",
    "a" * 20_000,
    10**400,
    -(10**30),
    1e308,
    "0001-01-01",
    "9999-12-31T23:59:59-14:00",
    "0001-01-01T00:00:00+14:00",
    "2026-02-30",
    None,
    [],
    {"\x00": "x"},
]
QUERY_NAMES = ("q", "page", "on", "since", "sort", "cursor", "after", "city", "status", "next")
# a valid value per body field, so that one hostile field is read past the others
VALID = {
    "deadline": "owner.request_hearing",
    "incident_date": "2026-06-01",
    "facts": {"bit": True},
    "events": {"notice_date": "2026-06-01"},
    "inputs": {},  # "on" left out: the deadline then reads each event in the city's time
}
# the keys of dict-valued fields that the law reads
KEYS = {
    "events": ("notice_date", "notice_received", "hearing_closed", "seizure"),
    "facts": ("bit", "injury", "victim"),
    "inputs": ("designation", "basis", "facts", "method", "served_on", "received_on"),
    "settings": ("registration_trigger",),
}
# a path segment
HOSTILE_SEGMENT = {"int": [str(10**30), "0"], "str": ["a" * 3000, "%00"], "slug": ["a" * 3000]}


def _patterns(resolver=None, prefix=""):
    for p in (resolver or get_resolver()).url_patterns:
        route = prefix + str(p.pattern)
        if isinstance(p, URLResolver):
            if route.startswith(("admin/", "api/")):
                continue  # Django's own admin; the API is fuzzed from its schema
            yield from _patterns(p, route)
        elif isinstance(p, URLPattern):
            yield route


PARAM = re.compile(r"<(?:(\w+):)?(\w+)>")


def _fill(route: str, real: dict[str, str]) -> list[str]:
    """The route with every parameter given a real value (by name); then each parameter in turn hostile."""
    params = list(PARAM.finditer(route))

    def path(hostile_at: int = -1, value: str = "") -> str:
        count = iter(range(len(params)))

        def one(m: re.Match) -> str:
            return value if next(count) == hostile_at else real.get(m.group(2), "1")

        return "/" + PARAM.sub(one, route)

    urls = [path()]
    for i, m in enumerate(params):
        for value in HOSTILE_SEGMENT.get(m.group(1) or "str", HOSTILE_SEGMENT["str"]):
            urls.append(path(i, value))
    return urls


class _Fields(HTMLParser):
    """The names of a page's form fields, per form (action and method)."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[tuple[str, str, set[str]]] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.forms.append((a.get("action") or "", (a.get("method") or "get").lower(), set()))
        elif tag in ("input", "select", "textarea") and a.get("name") and self.forms:
            if a["name"] != "csrfmiddlewaretoken":
                self.forms[-1][2].add(a["name"])


def _world(make_staff_user) -> tuple[dict[str, str], object]:
    """A case under way in Battle Lake, and a staff user holding the acting roles (and the administrator's)."""
    user = make_staff_user("animal_control_officer", username="fuzz-staff")
    for group in ("city_clerk", "police_officer", "administrator"):
        user.groups.add(Group.objects.get_or_create(name=group)[0])
    user.is_staff = user.is_superuser = True
    user.save()
    city = "battle-lake-mn"
    owner = acts.record_person(jurisdiction=city, actor=user, full_name="Olive Owner", at=AT)
    dog = acts.record_dog(jurisdiction=city, actor=user, owners=[owner], name="Rex", at=AT)
    incident = acts.record_incident(
        jurisdiction=city,
        actor=user,
        occurred_at=AT - dt.timedelta(hours=2),
        place="Main Street",
        place_type="public",
        kind="bite",
        dogs=[dog],
        facts={"bit": True, "victim": "human", "injury": "minor", "place": "public"},
        victims=[{"kind": "human", "name": "Val Victim", "injury": "minor"}],
        at=AT,
    )
    case = acts.open_case(incident=incident, dog=dog, actor=user, at=AT)
    real = {
        "version": case.version,
        "number": case.number,
        "pk": str(dog.pk),
        "person_id": str(owner.pk),
        "step_id": "declare",
        "jurisdiction_id": city,
        "id": city,
        "kind": "human",
        "condition": "registration",
    }
    return real, user


def _hit(client: Client, method: str, url: str, failures: list, **kwargs) -> str:
    response = getattr(client, method)(url, **kwargs)
    if response.status_code >= 500:
        failures.append(f"{method.upper()} {url[:120]} {str(kwargs)[:160]} -> {response.status_code}")
    ctype = response.get("Content-Type", "")
    return response.content.decode("utf-8", "replace") if "html" in ctype else ""


def _pages(client: Client, real: dict[str, str], user, failures: list) -> None:
    for route in _patterns():
        if user is not None:
            client.force_login(user)  # a form posted before (logout, password) may have ended the session
        for n, url in enumerate(_fill(route, real)):
            page = _hit(client, "get", url, failures)
            if n:
                continue  # a hostile path: the address alone
            for value in HOSTILE_TEXT:  # the query parameters pages read
                _hit(client, "get", url, failures, data=dict.fromkeys(QUERY_NAMES, value))
            parser = _Fields()
            parser.feed(page)
            forms = parser.forms or [(url, "post", {"name"})]
            for action, method, names in forms:
                target = action if action.startswith("/") else url
                for value in HOSTILE_TEXT:
                    data = dict.fromkeys(names or {"name"}, value)
                    _hit(client, "post" if method == "post" else "get", target, failures, data=data)
            # a JSON body to a page: the NUL check reads it
            _hit(client, "post", url, failures, data=DEEP_NUL, content_type="application/json")


def _resolve(schema: dict, node: dict) -> dict:
    while "$ref" in node:
        node = schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[-1]]
    return node


def _operations(real: dict[str, str]):
    schema = api.get_openapi_schema()
    for path, operations in schema["paths"].items():
        for method, op in operations.items():
            params = {p["name"]: p for p in op.get("parameters", [])}
            url = path
            for name, p in params.items():
                if p["in"] == "path":
                    url = url.replace("{" + name + "}", real.get(name, real["id"]))
            query = [n for n, p in params.items() if p["in"] == "query"]
            body = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
            fields = list(_resolve(schema, body).get("properties", {})) if body else []
            yield method, url, query, fields


def _api(client: Client, real: dict[str, str], failures: list) -> None:
    for method, url, query, fields in _operations(real):
        for value in HOSTILE_TEXT:
            _hit(client, method, url, failures, **({"data": dict.fromkeys(query, value)} if query else {}))
        if method not in ("post", "put", "patch"):
            continue
        for body in (DEEP, DEEP_NUL, '{"a":' * 1000 + "1" + "}" * 1000, "{", "9" * 5000):
            _hit(client, method, url, failures, data=body, content_type="application/json")
        base = {f: real["version"] if f == "version" else VALID[f] for f in fields if f in VALID}
        for field in fields:
            for value in HOSTILE_JSON:
                # one field hostile, the others valid: the value reaches the code that reads that field
                body = {**base, field: value}
                _hit(client, method, url, failures, data=json.dumps(body), content_type="application/json")
                for key in KEYS.get(field, ()):  # a dict-valued field: the value under a real key
                    body = {**base, field: {key: value}}
                    _hit(
                        client, method, url, failures, data=json.dumps(body), content_type="application/json"
                    )


@pytest.mark.parametrize("who", ["anonymous", "staff"])
def test_no_hostile_input_is_a_server_error(who, make_staff_user):
    real, user = _world(make_staff_user)
    client = Client(raise_request_exception=False)
    failures: list[str] = []
    _pages(client, real, user if who == "staff" else None, failures)
    if who == "staff":
        client.force_login(user)
    _api(client, real, failures)
    assert not failures, "\n".join(failures)
