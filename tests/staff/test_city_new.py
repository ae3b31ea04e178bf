"""The deployment's administrator adds a city or county with no ordinance of its own from the web: the pack
`dogcase city add --state-only` writes, used at once, the administrator given access, its offices recorded and
the addition in its audit chain. A wrong answer is named and nothing is written."""

import pytest
from django.test import Client

from dogcase.cases.models import CityAccess, Event
from dogcase.documents.sources import city_office
from dogcase.law import library

pytestmark = pytest.mark.django_db

URL = "/city-settings/new"
ANSWERS = {
    "kind": "city",
    "name": "Example",
    "observes-indigenous_peoples_day": "yes",
    "observes-day_after_thanksgiving": "no",
    "address": "City Hall, 1 Main Street, Example, MN 56000",
    "telephone": "218-555-0111",
}


@pytest.fixture
def site(tmp_path, monkeypatch):
    folder = tmp_path / "site"
    monkeypatch.setenv("DOGCASE_SITE_PACKS_DIR", str(folder))
    return folder


def test_only_the_deployments_administrator_may_add_one(make_staff_user, site):
    # an administrator of one of the cities only (not a superuser) may not
    admin = make_staff_user("administrator", cities=["tracy-mn"])
    admin.is_superuser = False
    admin.save()
    client = Client()
    client.force_login(admin)
    assert client.get(URL).status_code == 403
    assert client.post(URL, ANSWERS).status_code == 403
    assert "Add a city or county" not in client.get("/city-settings/").content.decode()
    assert not site.exists()


def test_an_administrator_of_every_city_may_add_one_without_being_a_superuser(make_staff_user, site):
    from dogcase.accounts.manage import city_ids

    admin = make_staff_user("administrator", username="all-cities", cities=city_ids())
    admin.is_superuser = False
    admin.save()
    client = Client()
    client.force_login(admin)
    assert "Add a city or county" in client.get("/city-settings/").content.decode()
    assert client.post(URL, ANSWERS).status_code == 302


def test_a_city_added_from_the_web_is_served_at_once(administrator_client, site):
    page = administrator_client.get(URL)
    assert page.status_code == 200 and "Indigenous Peoples Day" in page.content.decode()
    response = administrator_client.post(URL, ANSWERS)
    assert response.status_code == 302 and response["Location"].endswith("?city=example-mn")
    assert (site / "example-mn" / "pack.yaml").exists()
    j = library().get("example-mn")  # this process uses the new law at once
    assert j.name == "City of Example, Minnesota" and dict(j.pack.observes) == {
        "indigenous_peoples_day": True,
        "day_after_thanksgiving": False,
    }
    assert CityAccess.objects.filter(user__username="admin", jurisdiction="example-mn").exists()
    assert city_office("example-mn", "animal_control_authority")["telephone"] == "218-555-0111"
    added = Event.objects.get(jurisdiction="example-mn", act="city_added")
    assert "347.565" in added.summary and added.actor.username == "admin"
    settings = administrator_client.get(response["Location"])
    assert "City settings: City of Example, Minnesota" in settings.content.decode()


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"name": ""}, "name", "name"),
        ({"case_prefix": "BL"}, "case_prefix", "battle-lake-mn"),
        ({"observes-day_after_thanksgiving": ""}, "observes", "Day after Thanksgiving"),
        ({"telephone": "ask at the desk"}, "telephone", "telephone number"),
        ({"name": "Tracy"}, "name", "already a jurisdiction"),
    ],
)
def test_a_wrong_answer_is_named_and_nothing_is_written(administrator_client, site, change, field, words):
    response = administrator_client.post(URL, {**ANSWERS, **change})
    assert response.status_code == 400
    html = response.content.decode()
    assert "Nothing was added" in html and words in html
    assert f'id="{field}-error"' in html
    assert not site.exists() or not [p for p in site.iterdir() if not p.name.startswith(".")]
    assert not Event.objects.filter(act="city_added").exists()
