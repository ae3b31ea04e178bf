"""The City settings page: a city's administrator fills in the addresses and telephones its documents print; each
change is an event in the city's audit chain, a value the law pack gives is not editable, a bad value is refused
naming its field and nothing of the submission is saved."""

import pytest
from django.test import Client

from dogcase.cases.audit import verify_chain
from dogcase.cases.models import Event
from dogcase.documents.models import CityOffice
from dogcase.documents.offices import offices_of, supply_office
from dogcase.documents.sources import city_office
from dogcase.law.loader import Library
from tests.law.lakeview import install_lakeview
from tests.packs_library import use_library

pytestmark = pytest.mark.django_db

URL = "/city-settings/"


@pytest.fixture
def empty_offices():
    """Battle Lake and Tracy as a new deployment has them: nothing supplied yet."""
    CityOffice.objects.all().delete()


def test_only_an_administrator_sees_the_page(login_as):
    for role in ("animal_control_officer", "city_clerk", "auditor"):
        assert login_as(role).get(URL).status_code == 403
    assert Client().get(URL).status_code == 302  # to the login


def test_the_page_lists_each_office_and_says_what_is_missing(administrator_client, empty_offices):
    page = administrator_client.get(URL + "?city=battle-lake-mn")
    assert page.status_code == 200
    text = page.content.decode()
    assert "City Clerk/Treasurer" in text and "Letterhead" in text
    assert "still missing" in text
    # no engine identifier on the page: the fields are labelled in words
    assert "jurisdiction.offices" not in text


def test_a_city_not_the_administrators_is_not_found(make_staff_user, empty_offices):
    admin = make_staff_user("administrator", cities=["tracy-mn"])
    client = Client()
    client.force_login(admin)
    assert client.get(URL + "?city=battle-lake-mn").status_code == 404
    response = client.post(URL, {"city": "battle-lake-mn", "city_clerk_treasurer-address": "x"})
    assert response.status_code == 404
    assert not CityOffice.objects.filter(jurisdiction="battle-lake-mn").exists()


def test_saving_records_the_values_and_an_audited_change(administrator_client, empty_offices):
    response = administrator_client.post(
        URL,
        {
            "city": "battle-lake-mn",
            "city_clerk_treasurer-address": "  114 Lake Way  North, Battle Lake, MN 56515 ",
            "city_clerk_treasurer-telephone": "(218) 864-5889",
        },
    )
    assert response.status_code == 302
    assert city_office("battle-lake-mn", "city_clerk_treasurer") == {
        "address": "114 Lake Way North, Battle Lake, MN 56515",
        "telephone": "(218) 864-5889",
    }
    (event,) = Event.objects.filter(jurisdiction="battle-lake-mn", act="city_office_changed")
    assert event.case is None and event.actor.username == "admin"
    assert event.data["before"] == {"address": "", "telephone": ""}
    assert event.data["after"]["telephone"] == "(218) 864-5889"
    assert "City Clerk/Treasurer" in event.summary
    # the history is on the page; saving the same values again records nothing
    assert "114 Lake Way North" in administrator_client.get(URL + "?city=battle-lake-mn").content.decode()
    administrator_client.post(
        URL,
        {
            "city": "battle-lake-mn",
            "city_clerk_treasurer-address": "114 Lake Way North, Battle Lake, MN 56515",
            "city_clerk_treasurer-telephone": "(218) 864-5889",
        },
    )
    assert Event.objects.filter(act="city_office_changed").count() == 1
    assert verify_chain().ok


def test_a_bad_telephone_is_refused_naming_it_and_nothing_is_saved(administrator_client, empty_offices):
    response = administrator_client.post(
        URL,
        {
            "city": "battle-lake-mn",
            "animal_control_authority-address": "1 Police Plaza, Battle Lake",
            "city_clerk_treasurer-telephone": "call the clerk",
        },
    )
    assert response.status_code == 400
    text = response.content.decode()
    assert "Nothing was saved" in text and 'id="city_clerk_treasurer-telephone-error"' in text
    # what was typed stays in the form; nothing of the submission was saved
    assert 'value="1 Police Plaza, Battle Lake"' in text
    assert not CityOffice.objects.exclude(address="", telephone="").exists()
    assert not Event.objects.filter(act="city_office_changed").exists()


def test_a_value_the_law_pack_gives_is_shown_and_cannot_be_changed_here(tmp_path, monkeypatch, staff):
    use_library(monkeypatch, Library(install_lakeview(tmp_path / "packs")))
    clerk = next(r for r in offices_of("lakeview-mn") if r.office == "city_clerk")
    assert clerk.from_pack == {"address", "telephone"} and clerk.address.startswith("100 Lake Street")
    from dogcase.documents.offices import OfficeProblem

    with pytest.raises(OfficeProblem) as refused:
        supply_office("lakeview-mn", "city_clerk", address="somewhere else", telephone="555-0142")
    assert refused.value.field == "city_clerk-address"
    with pytest.raises(OfficeProblem) as unknown:
        supply_office("lakeview-mn", "mayor", address="x", telephone="1")
    assert unknown.value.field == "office"
