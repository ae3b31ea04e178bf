"""The dog's record at intake and on the dog's page: facts about the dog's past are shown with where they
came from, never asked; the officer adds what happened before dogcase as prior history."""

import datetime as dt
from html import unescape

import pytest
from django.utils import timezone

from dogcase.cases import updates
from dogcase.cases.models import Incident, PriorHistoryEntry
from tests.staff.conftest import client_for, declare, record_bite, take
from tests.staff.test_intake import intake

pytestmark = pytest.mark.django_db


def test_intake_asks_no_question_the_dogs_record_answers(officer):
    html = client_for(officer).get("/incidents/new", follow=True).content.decode()
    for fact in (
        "previously_potentially_dangerous",
        "owner_had_notice_of_potentially_dangerous",
        "previously_dangerous",
        "previously_vicious",
        "bit_person_on_separate_occasions",
    ):
        assert f'name="fact-{fact}"' not in html
    assert 'name="fact-aggressive"' in html  # the incident's own facts are still asked


def test_an_answer_typed_for_a_record_fact_is_not_kept(officer):
    response = client_for(officer).post("/incidents/new", intake(**{"fact-previously_dangerous": "yes"}))
    assert response.status_code == 302
    assert "previously_dangerous" not in Incident.objects.get().facts


def test_intake_shows_the_dogs_record_with_where_it_came_from(officer):
    case = record_bite(officer, dog_name="Brutus")
    declare(case, officer)
    take(
        case,
        "serve_notice",
        officer,
        served_on=timezone.localdate().isoformat(),
        method="personal",
        served_owner="Owner",
    )

    html = unescape(
        client_for(officer).get(f"/incidents/new?dog={case.dog_id}", follow=True).content.decode()
    )

    assert "From the dog's record" in html
    assert "declared potentially dangerous dog on" in html and f"in case {case.number}" in html
    assert "notice of the potentially dangerous dog declaration served on" in html


def test_the_officer_adds_prior_history_on_the_dogs_page(officer):
    dog = record_bite(officer, dog_name="Brutus").dog
    client = client_for(officer)
    page = client.get(f"/dogs/{dog.pk}").content.decode()
    assert "Prior history (before dogcase)" in page and f"/dogs/{dog.pk}/prior-history/add" in page

    bad = client.post(
        f"/dogs/{dog.pk}/prior-history/add",
        {"on": "2025-03-04", "what": "designation", "designation": "dangerous", "source": "Letter 7"},
    )
    assert bad.status_code == 400
    assert "Say who declared it" in bad.content.decode()

    response = client.post(
        f"/dogs/{dog.pk}/prior-history/add",
        {
            "on": "2025-03-04",
            "what": "designation",
            "designation": "dangerous",
            "by_whom": "Otter Tail County Sheriff",
            "source": "Sheriff's letter 25-7",
        },
    )
    assert response.status_code == 302
    entry = PriorHistoryEntry.objects.get()
    assert (entry.dog, entry.designation, entry.recorded_by) == (dog, "dangerous", officer)
    page = unescape(client.get(f"/dogs/{dog.pk}").content.decode())
    assert "declared dangerous dog" in page and "Sheriff's letter 25-7" in page
    assert "Prior history recorded (before dogcase)" in page  # the dog's record history
    assert "What the dog's record shows today" in page


def test_the_auditor_is_not_offered_prior_history(auditor, officer):
    dog = record_bite(officer).dog
    updates.record_prior_history(
        dog, actor=officer, on=dt.date(2025, 1, 1), what="bite_on_person", source="Report 1"
    )
    client = client_for(auditor)
    assert "prior-history/add" not in client.get(f"/dogs/{dog.pk}").content.decode()
    assert client.get(f"/dogs/{dog.pk}/prior-history/add", follow=True).status_code == 403


ENTRY = {"on": "2025-03-04", "what": "bite_on_person", "source": "Police report 25-1"}


def test_prior_history_of_another_citys_dog_is_not_found(officer, make_staff_user):
    dog = record_bite(officer).dog  # a Battle Lake dog
    elsewhere = make_staff_user("animal_control_officer", username="tracy-officer", cities=("tracy-mn",))
    client = client_for(elsewhere)
    assert client.get(f"/dogs/{dog.pk}/prior-history/add", follow=True).status_code == 404
    assert client.post(f"/dogs/{dog.pk}/prior-history/add", ENTRY).status_code == 404
    assert not PriorHistoryEntry.objects.exists()


def test_a_role_that_keeps_no_records_may_not_add_prior_history(officer, hearing_officer):
    dog = record_bite(officer).dog
    client = client_for(hearing_officer)
    assert client.post(f"/dogs/{dog.pk}/prior-history/add", ENTRY).status_code == 403
    assert not PriorHistoryEntry.objects.exists()


def test_adding_prior_history_needs_the_csrf_token(officer):
    from django.test import Client

    dog = record_bite(officer).dog
    client = Client(enforce_csrf_checks=True)
    client.force_login(officer)
    assert client.post(f"/dogs/{dog.pk}/prior-history/add", ENTRY).status_code == 403
    assert not PriorHistoryEntry.objects.exists()


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"what": "rumour"}, "what"),
        ({"on": "not a date"}, "on"),
        ({"what": "designation", "designation": "menacing", "by_whom": "Tracy"}, "designation"),
        ({"source": ""}, "source"),
    ],
)
def test_a_bad_prior_history_entry_is_shown_on_its_field(officer, change, field):
    dog = record_bite(officer).dog
    response = client_for(officer).post(f"/dogs/{dog.pk}/prior-history/add", {**ENTRY, **change})
    assert response.status_code == 400
    assert f'id="{field}-error"' in response.content.decode()
    assert not PriorHistoryEntry.objects.exists()
