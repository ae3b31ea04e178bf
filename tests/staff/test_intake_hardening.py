"""Intake input that must not end in a server error, and a form token that must not tell one user what
another recorded."""

import pytest

from dogcase.cases.models import Case, Incident
from tests.staff.conftest import TRACY, client_for
from tests.staff.test_intake import intake

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("occurred_at", ["1850-05-01T10:00", "1899-12-31T23:59", "0001-01-01T00:00"])
def test_an_incident_before_1900_is_refused_on_its_field(officer, occurred_at):
    response = client_for(officer).post("/incidents/new", intake(occurred_at=occurred_at))

    assert response.status_code == 400
    assert "The incident cannot be before Monday 1 January 1900" in response.content.decode()
    assert not Incident.objects.exists()


def test_an_incident_on_the_first_day_the_law_reads_is_recorded(officer):
    response = client_for(officer).post("/incidents/new", intake(occurred_at="1900-01-01T12:00"))

    assert response.status_code == 302
    assert Incident.objects.get().occurred_at.year == 1900


def test_replaying_another_users_form_token_reveals_nothing_and_records_nothing(officer, make_staff_user):
    tracy_officer = make_staff_user("animal_control_officer", username="tracy-officer", cities=[TRACY])
    theirs = intake(jurisdiction=TRACY, **{"dog-0-owner_city": "Tracy", "dog-0-premises_city": "Tracy"})
    assert client_for(tracy_officer).post("/incidents/new", theirs).status_code == 302
    their_case = Case.objects.get()

    response = client_for(officer).post("/incidents/new", intake(idempotency_key=theirs["idempotency_key"]))

    html = response.content.decode()
    assert response.status_code == 400
    assert "already used by someone else" in html
    assert their_case.number not in html and "Location" not in response
    assert theirs["idempotency_key"] not in html  # a fresh token to submit again with
    assert Incident.objects.count() == 1


def test_the_same_users_double_submission_still_lands_on_their_case(officer):
    client = client_for(officer)
    data = intake()
    first = client.post("/incidents/new", data)
    second = client.post("/incidents/new", data)

    assert second.status_code == 302 and second["Location"] == first["Location"]
    assert Incident.objects.count() == 1
