"""What a person sees when something is refused, missing or broken: dogcase's own pages in plain words, never a
stack trace (production runs with DEBUG False, as these tests do); the site's icon; "City access" spelled right."""

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

from dogcase.cases.models import CityAccess
from tests.staff.conftest import record_bite

pytestmark = pytest.mark.django_db


@pytest.fixture
def server(settings):
    settings.DEBUG = False
    settings.ROOT_URLCONF = "tests.staff.failing_urls"


def looks_like_dogcase(page: str) -> None:
    assert "dogcase/site.css" in page  # styled as the rest of the site
    assert "Traceback" not in page and "File &quot;" not in page and "RuntimeError" not in page
    assert "Django" not in page


def test_a_missing_page_says_so_in_plain_words(server, officer_client):
    for url in ("/no/such/page", "/cases/BL-1999-9999", "/law/nowhere-mn/"):
        response = officer_client.get(url)
        assert response.status_code == 404
        page = response.content.decode()
        looks_like_dogcase(page)
        assert "This page does not exist" in page
        assert "nowhere-mn" not in page  # the exception's own words stay in the log


def test_a_refusal_says_what_and_whom_to_ask(server, auditor_client, officer):
    case = record_bite(officer)
    response = auditor_client.get(f"/cases/{case.number}/act/declare_dog")
    assert response.status_code == 403
    page = response.content.decode()
    looks_like_dogcase(page)
    assert "You may not do this" in page and "Your role is read-only." in page
    assert "ask a user administrator of your city" in " ".join(page.split())


def test_a_server_error_shows_no_stack_trace(server, officer):
    client = Client(raise_request_exception=False)
    client.force_login(officer)
    response = client.get("/fails-on-purpose")
    assert response.status_code == 500
    page = response.content.decode()
    looks_like_dogcase(page)
    assert "Something went wrong on our side" in page
    assert "a failure in a view, on purpose" not in page


def test_the_site_has_an_icon_at_the_root_and_in_every_page(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 200
    body = b"".join(response.streaming_content) if response.streaming else response.content
    assert body[:4] == b"\x00\x00\x01\x00"  # an ICO file
    assert 'rel="icon" href="/static/dogcase/favicon.svg"' in client.get("/").content.decode()
    assert finders.find("dogcase/favicon.svg")


def test_city_access_is_spelled_right_in_the_django_admin(make_staff_user):
    assert CityAccess._meta.verbose_name_plural == "city access"
    admin = Client()
    admin.force_login(make_staff_user("administrator"))  # a superuser in the fixtures
    page = admin.get("/admin/").content.decode()
    assert "City access" in page and "accesss" not in page.lower()
