"""What a city's law leaves to the city (its pack's `settings:`), chosen on City settings (issue 21, item 3):
Battle Lake's (C)(4) is cut off before it says when the 14 days to register begin; once the city chooses, every
case's deadline to register is computed from that event, the choice is an event in the city's chain, and a value
the law does not allow is refused on its field with nothing saved."""

import pytest

from dogcase.cases import acts
from dogcase.cases.citysettings import CitySetting
from dogcase.cases.models import Event
from tests.cases.conftest import SERIOUS, Story, at, on

pytestmark = pytest.mark.django_db

URL = "/city-settings/"
CITY = "battle-lake-mn"
FIELD = "setting-registration_trigger"


def _declared(staff) -> Story:
    s = Story(staff, CITY, SERIOUS)
    s.step("declare", "officer", 0, designation="dangerous", basis="Unprovoked serious bite")
    return s


def test_the_page_offers_each_choice_in_words_with_the_pack_s_value(administrator_client):
    page = administrator_client.get(f"{URL}?city={CITY}").content.decode()
    assert "What the city's law leaves to the city" in page
    assert "When the 14 days to register the dangerous dog begin" in page
    assert 'name="setting-registration_trigger"' in page and "Not chosen" in page
    assert '<option value="declaration">The declaration</option>' in page
    assert '<option value="notice_received">Receipt of the notice</option>' in page
    assert "(§ 90.15 (C)(4))" in page
    assert "The law pack's value: not chosen." in page


def test_a_choice_sets_every_case_s_deadline_and_is_audited(staff):
    from django.test import Client

    administrator_client = Client()
    administrator_client.force_login(staff["admin"])
    s = _declared(staff)
    before = s.obligation("owner.register", day=1)
    assert before.due_date is None  # (C)(4) says not from when: undetermined
    response = administrator_client.post(URL, {"city": CITY, FIELD: "declaration"})
    assert response.status_code == 302
    assert CitySetting.objects.get(jurisdiction=CITY, setting="registration_trigger").value == "declaration"
    event = Event.objects.get(jurisdiction=CITY, act="city_setting_changed")
    assert event.case is None and "When the 14 days to register the dangerous dog begin" in event.summary
    assert event.data == {"setting": "registration_trigger", "old": None, "new": "declaration"}
    # the case's law changed: its next computation (its next act, or the hourly sweep) reads the choice
    s.case.refresh_from_db()
    assert s.case.law_fingerprint != acts.law_fingerprint(acts.jurisdiction_of(s.case), at(1))
    # the sweep finds the case by its law, and computes its time to register from the declaration
    assert acts.sweep(at=at(1, 12)).recomputed >= 1
    after = s.case.obligations.get(deadline_id="owner.register")
    assert after.due_date is not None and after.due_date.isoformat() >= on(14)
    page = administrator_client.get(f"{URL}?city={CITY}").content.decode()
    assert "Chosen here." in page and "declaration" in event.summary


def test_a_value_the_law_does_not_allow_is_refused_and_nothing_is_saved(administrator_client):
    response = administrator_client.post(
        URL, {"city": CITY, FIELD: "full_moon", "city_clerk_treasurer-address": "1 Main St, Battle Lake"}
    )
    assert response.status_code == 400
    text = response.content.decode()
    assert "choose one of the choices offered" in text and f'href="#{FIELD}"' in text
    assert not CitySetting.objects.exists()
    assert not Event.objects.filter(act__in=["city_setting_changed", "city_office_changed"]).exists()


def test_only_the_city_s_administrator_chooses(login_as):
    assert login_as("city_clerk").post(URL, {"city": CITY, FIELD: "declaration"}).status_code == 403
    assert not CitySetting.objects.exists()
