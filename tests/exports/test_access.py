"""Who may take lists out, and where the links are: the list pages carry their filters to the export; the Export
page offers every list, and the archive to the administrator only."""

import pytest
from django.test import Client

from tests.exports.helpers import column, csv_table, export
from tests.staff.conftest import BATTLE_LAKE, TRACY, client_for, record_bite
from tests.staff.page_words import identifiers_on

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("role", "allowed"),
    [
        ("animal_control_officer", True),
        ("police_officer", True),
        ("city_clerk", True),
        ("administrator", True),
        ("auditor", True),
        ("hearing_officer", False),
        ("council_clerk", False),
    ],
)
def test_who_may_take_lists_out(make_staff_user, role, allowed):
    user = make_staff_user(role)
    client = client_for(user)
    for url in ("/export/", "/export/cases.csv", "/export/payments.xlsx"):
        assert client.get(url).status_code == (200 if allowed else 403), url
    nav = client.get("/").content.decode()
    assert ('href="/export/"' in nav) is allowed


def test_an_export_needs_a_login_a_get_and_a_known_list(clerk):
    response = Client().get("/export/cases.csv")
    assert response.status_code == 302 and "/login" in response["Location"]
    client = client_for(clerk)
    assert client.post("/export/cases.csv").status_code == 405
    assert client.get("/export/users.csv").status_code == 404
    assert client.get("/export/cases.pdf").status_code == 404
    assert client.get("/export/files.csv").status_code == 404  # the uploaded files: in the city archive only
    response = client.get("/export/cases.csv")
    assert response["Content-Disposition"].startswith('attachment; filename="dogcase-cases-')
    assert response["Content-Disposition"].endswith('.csv"')
    assert response["Cache-Control"] == "private, no-store"


def test_the_list_pages_link_to_their_export_with_the_filters_on_screen(officer):
    record_bite(officer, city=BATTLE_LAKE)
    client = client_for(officer)
    page = client.get("/cases/", {"status": "open", "city": TRACY, "after": "abc"}).content.decode()
    assert 'href="/export/cases.csv?status=open&amp;city=tracy-mn"' in page
    assert 'href="/export/cases.xlsx?status=open&amp;city=tracy-mn"' in page
    for path, kind in (("/dogs/", "dogs"), ("/people/", "people"), ("/incidents/", "incidents")):
        assert f'href="/export/{kind}.csv"' in client.get(path).content.decode(), path


def test_the_list_pages_offer_no_export_to_a_role_that_may_not(make_staff_user):
    council = make_staff_user("council_clerk")
    assert "/export/cases.csv" not in client_for(council).get("/cases/").content.decode()


def test_the_export_page_offers_every_list_and_the_archive_to_the_administrator_only(make_staff_user):
    admin = make_staff_user("administrator")
    page = client_for(admin).get("/export/").content.decode()
    for kind in ("cases", "dogs", "people", "incidents", "obligations", "documents", "payments", "charges"):
        assert f'action="/export/{kind}.csv"' in page and f'formaction="/export/{kind}.xlsx"' in page
    assert f'href="/export/city/{BATTLE_LAKE}.zip"' in page and f'href="/export/city/{TRACY}.zip"' in page
    auditor = make_staff_user("auditor")
    page = client_for(auditor).get("/export/").content.decode()
    assert 'action="/export/cases.csv"' in page and ".zip" not in page


def test_an_auditor_takes_the_same_rows_as_the_clerk(officer, make_staff_user):
    record_bite(officer, city=BATTLE_LAKE, dog_name="Pepper")
    auditor = make_staff_user("auditor")
    assert column(csv_table(export(auditor, "dogs")), "Dog") == ["Pepper"]


def test_the_export_page_and_the_links_are_in_plain_words(make_staff_user, officer):
    record_bite(officer, city=BATTLE_LAKE)
    admin = make_staff_user("administrator")
    client = client_for(admin)
    for url in ("/export/", "/cases/?status=open", "/dogs/"):
        assert identifiers_on(client.get(url).content.decode()) == [], url
