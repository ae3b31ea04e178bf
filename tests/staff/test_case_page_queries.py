"""The case page reads a case in a fixed number of queries, whatever the number of its events, documents and
service attempts: over the demo data, the busiest case's page runs as many queries as it did before twenty-five
more events were recorded on it, and no more than the page's budget."""

from __future__ import annotations

import os

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import connection
from django.db.models import Count
from django.test.utils import CaptureQueriesContext

from dogcase.cases import acts
from dogcase.cases.models import Case
from dogcase.documents.models import IssuedDocument
from tests.staff.conftest import client_for

pytestmark = pytest.mark.django_db

# the queries of the busiest demo case's page (23 events, 6 documents, each served): 3 of them are the session,
# the user, and their roles, cities and offices (one statement)
BUDGET = 17


@pytest.fixture
def demo(settings):
    settings.DEBUG = True  # the development demo password
    with open(os.devnull, "w") as quiet:
        call_command("seed_demo", stdout=quiet)
    settings.DEBUG = False


def queries_of(client, url: str) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def test_the_busiest_case_page_runs_the_same_queries_with_more_events(demo):
    case = Case.objects.annotate(n=Count("events")).order_by("-n", "pk").first()
    assert case.n >= 20 and IssuedDocument.objects.filter(case=case).count() >= 3
    officer = User.objects.get(username="officer")
    client = client_for(officer)
    url = f"/cases/{case.number}"
    client.get(url)  # the law's packs and the templates loaded once, as on a running server
    before = queries_of(client, url)
    assert before <= BUDGET
    for n in range(25):
        acts.record_event(
            actor=officer,
            jurisdiction=case.jurisdiction,
            act="note",
            summary=f"Spoke with the owner ({n})",
            data={"n": n},
            at=acts.now(),
            case=case,
        )
    assert case.events.count() == case.n + 25
    html = client.get(url).content.decode()
    assert "Spoke with the owner (24)" in html
    assert queries_of(client, url) == before
    # the page whole (each fold's content without script) runs no query per event either
    full = queries_of(client, url + "?full=1")
    for n in range(25, 50):
        acts.record_event(
            actor=officer,
            jurisdiction=case.jurisdiction,
            act="note",
            summary=f"Spoke with the owner ({n})",
            data={"n": n},
            at=acts.now(),
            case=case,
        )
    assert queries_of(client, url + "?full=1") == full
