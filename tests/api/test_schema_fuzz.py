"""The API against its own OpenAPI schema: schemathesis generates requests for every operation (valid ones
and, for each, ones the schema forbids), anonymous and logged in, and checks every answer: never a server
error, only the statuses the operation declares, bodies and headers as declared, and a request outside the
schema refused. Bounded (a fixed number of examples, derandomized) so that it runs in the suite.

Not checked: that every schema-valid request is accepted (positive_data_acceptance). The schema lists the
facts of every installed pack and dates in the engine's range, and the law refuses some of those on purpose:
a fact one city declares is unknown in another, and a date in range may have no law in force.
"""

import pytest
import schemathesis
from django.contrib.auth.models import Group, User
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from django.test import Client
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from dogcase.cases.models import CityAccess

pytestmark = pytest.mark.django_db

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    negative_data_rejection,
]
MAX_EXAMPLES = 20

schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", get_wsgi_application())


@pytest.fixture(params=["anonymous", "animal_control_officer", "auditor"])
def headers(request, db) -> dict[str, str]:
    """No session; an officer's (who may act); the read-only auditor's (403 on every act)."""
    if request.param == "anonymous":
        return {}
    return _session_headers(request.param)


def _session_headers(role: str) -> dict[str, str]:
    user = User.objects.create_user(username=f"fuzz-{role}", password="not used here 1234")
    user.groups.add(Group.objects.get_or_create(name=role)[0])
    for city in ("battle-lake-mn", "tracy-mn"):
        CityAccess.objects.create(user=user, jurisdiction=city)
    client = Client()
    client.force_login(user)
    client.get("/")  # sets the CSRF cookie
    token = client.cookies["csrftoken"].value if "csrftoken" in client.cookies else "x" * 32
    cookies = f"sessionid={client.cookies['sessionid'].value}; csrftoken={token}"
    return {"Cookie": cookies, "X-CSRFToken": token}


@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_the_api_keeps_to_its_schema(case, headers):
    # Requests go straight to the WSGI application: as Django's test client does for each of its requests,
    # keep them from closing the database connection the test's transaction runs on (on PostgreSQL the test
    # would lose it). Done here, not in a fixture: the test client reconnects the handler after its requests.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        case.call_and_validate(headers=headers, checks=CHECKS)
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)
