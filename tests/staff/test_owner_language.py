"""The owner's language for letters, asked where owners are recorded: at intake and when an owner is added to
a dog (issue 8, item 5)."""

import pytest

from dogcase.cases.models import Case, Person
from tests.staff.conftest import client_for, record_bite
from tests.staff.test_intake import intake

pytestmark = pytest.mark.django_db


def test_intake_records_the_owners_language_english_unless_chosen(officer):
    client = client_for(officer)
    form = client.get("/incidents/new", follow=True).content.decode()
    assert 'name="dog-0-owner_language"' in form and '<option value="es">Spanish (español)</option>' in form
    assert client.post("/incidents/new", intake()).status_code == 302
    assert Case.objects.get().dog.owners.get().preferred_language == "en"
    assert (
        client.post(
            "/incidents/new", intake(**{"dog-0-owner_language": "es", "dog-0-name": "Canela"})
        ).status_code
        == 302
    )
    assert Person.objects.get(dogs__name="Canela").preferred_language == "es"


def test_intake_refuses_a_language_not_offered_on_its_field(officer):
    response = client_for(officer).post("/incidents/new", intake(**{"dog-0-owner_language": "fr"}))
    assert response.status_code == 400
    assert "Choose a language offered" in response.content.decode()
    assert not Case.objects.exists()


def test_a_new_owner_added_to_a_dog_gets_the_language_chosen(officer):
    case = record_bite(officer, dog_name="Biscuit")
    client = client_for(officer)
    page = client.get(f"/dogs/{case.dog.pk}/owners/add", follow=True).content.decode()
    assert '<select id="new-preferred_language" name="new-preferred_language">' in page
    response = client.post(
        f"/dogs/{case.dog.pk}/owners/add",
        {
            "person": "new",
            "new-full_name": "Lucia Reyes",
            "new-preferred_language": "es",
            "since": "2026-01-05",
            "reason": "Co-owner named by the owner at the door",
        },
    )
    assert response.status_code == 302, response.content.decode()[:1500]
    assert Person.objects.get(full_name="Lucia Reyes").preferred_language == "es"
