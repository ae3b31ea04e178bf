"""The incident page leads to the rabies observation a bite to a person started (issue 20, item 9)."""

from dogcase.cases.observations import RabiesObservation
from tests.staff.conftest import client_for, record_bite


def test_the_incident_page_links_the_observation_and_says_it_is_city_procedure(officer):
    case = record_bite(officer, dog_name="Pepper")
    observation = RabiesObservation.objects.get(incident=case.incident)
    page = client_for(officer).get(f"/incidents/{case.incident.number}").content.decode()
    assert f'href="/observations/{observation.pk}">Pepper</a> — under way, until' in page
    assert "(city procedure; the ordinance is silent)" in page
