"""A NUL (%00) in any address is refused before a view runs: PostgreSQL cannot compare text holding one, so a
case number or jurisdiction id read from the path would otherwise end the request in a server error."""

import re

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

pytestmark = pytest.mark.django_db


def _routes(patterns=None, prefix: str = "") -> list[str]:
    routes = []
    for p in get_resolver().url_patterns if patterns is None else patterns:
        route = str(p.pattern)
        if isinstance(p, URLResolver):
            routes += _routes(p.url_patterns, prefix + route)
        elif isinstance(p, URLPattern):
            routes.append(prefix + route)
    return routes


def _with_nul(route: str) -> str:
    """The route with each parameter given a value holding a NUL (or, without parameters, a NUL appended)."""
    route = route.lstrip("^").rstrip("$").replace("\\Z", "")
    filled = re.sub(r"<(?:(\w+):)?(\w+)>", lambda m: "1%00" if m.group(1) == "int" else "x%00y", route)
    if filled == route:
        filled = route + "%00"
    return "/" + filled


ROUTES = sorted({_with_nul(r) for r in _routes()})


def test_every_case_incident_dog_and_api_route_is_covered():
    for part in ("cases/x%00y", "incidents/x%00y", "dogs/1%00", "api/v1/jurisdictions/x%00y/classify"):
        assert any(part in r for r in ROUTES), part


@pytest.mark.parametrize("path", ROUTES)
@pytest.mark.parametrize("method", ["get", "post"])
def test_a_nul_in_the_path_is_a_400_naming_the_path(path, method, officer_client):
    response = getattr(officer_client, method)(path)
    assert response.status_code == 400
    if path.startswith("/api/"):
        assert response.json()["error"]["field"] == "path"
    else:
        assert "NUL" in response.content.decode()


@pytest.mark.parametrize("path", [r for r in ROUTES if r.startswith("/api/")])
def test_a_nul_in_an_api_path_is_refused_for_anonymous_clients_too(path, client):
    response = client.get(path)
    assert response.status_code == 400
    assert response.json()["error"] == {
        "field": "path",
        "rule": "contains a NUL character (%00), which no address of dogcase has",
    }
