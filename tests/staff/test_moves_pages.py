"""A dangerous dog's move between the two demo cities, as staff see it: the move recorded on the act form of a
Battle Lake case opens the case in Tracy, whose page says where it came from, with that case's history and
documents (readable by a Tracy-only officer through the link, and only that case's); the case it left points to
it; intake in Tracy says the dog is already on record when its microchip, or its name with its owner, is typed."""

import pytest

from dogcase.cases.models import Case, CaseMove, Dog
from dogcase.documents.models import IssuedDocument
from dogcase.law import ELSEWHERE
from tests.staff.conftest import TRACY, client_for, declare, record_bite
from tests.staff.test_intake import intake

pytestmark = pytest.mark.django_db


def move_by_form(client, case, destination=TRACY, **more):
    case.refresh_from_db()
    form = client.get(f"/cases/{case.number}/act/record_move")
    assert form.status_code == 200
    data = {
        "version": case.version,
        "in-moved_on": "2026-11-20",
        "in-destination": destination,
        "in-new_address": "9 Oak Avenue, Tracy, MN 56175",
        **{f"in-{k}": v for k, v in more.items()},
    }
    return form, client.post(f"/cases/{case.number}/act/record_move", data)


@pytest.fixture
def moved(officer):
    case = record_bite(officer, dog_name="Brutus", owner_name="Dana Dogwood")
    declare(case, officer, designation="dangerous")
    form, response = move_by_form(client_for(officer), case)
    assert response.status_code == 302, response.content.decode()[:2000]
    return case, form


def test_the_act_form_offers_the_other_cities_served_and_any_other_place(moved):
    _case, form = moved
    html = form.content.decode()
    assert 'name="in-destination" value="tracy-mn"' in html
    assert f'name="in-destination" value="{ELSEWHERE}"' in html
    assert 'value="battle-lake-mn"' not in html  # not a move within the city


def test_the_case_there_says_where_it_came_from_with_its_history_and_documents(moved, make_staff_user):
    case, _form = moved
    there = CaseMove.objects.get(from_case=case).to_case
    source_doc = IssuedDocument.objects.filter(case=case).first()
    tracy_officer = make_staff_user("animal_control_officer", username="tracy-only", cities=[TRACY])
    page = client_for(tracy_officer).get(f"/cases/{there.number}")
    html = page.content.decode()
    assert page.status_code == 200
    assert "Moved here from Battle Lake" in html and case.number in html

    assert "§ 90.15 (M)" in html
    history = page.context["move"]["history"]
    assert history and all(o["text"].endswith(".") for o in history)
    if source_doc is not None:
        assert (
            client_for(tracy_officer)
            .get(f"/cases/{there.number}/moved-from/documents/{source_doc.pk}")
            .status_code
            == 200
        )
    # the Battle Lake case itself stays out of reach of a Tracy-only officer
    assert client_for(tracy_officer).get(f"/cases/{case.number}").status_code == 404


def test_only_the_documents_of_the_case_it_came_from_are_reachable(moved, officer, make_staff_user):
    case, _form = moved
    there = CaseMove.objects.get(from_case=case).to_case
    other = record_bite(officer)
    declare(other, officer, designation="dangerous")
    tracy_officer = make_staff_user("animal_control_officer", username="tracy-only", cities=[TRACY])
    client = client_for(tracy_officer)
    for doc in IssuedDocument.objects.exclude(case=case):
        assert client.get(f"/cases/{there.number}/moved-from/documents/{doc.pk}").status_code == 404
    assert client.get(f"/cases/{there.number}/moved-from/documents/999999").status_code == 404
    # a case that did not come from elsewhere has no such documents
    assert client_for(officer).get(f"/cases/{case.number}/moved-from/documents/1").status_code == 404


def test_the_case_it_left_points_to_the_case_there(moved, officer):
    case, _form = moved
    there = CaseMove.objects.get(from_case=case).to_case
    html = client_for(officer).get(f"/cases/{case.number}").content.decode()
    assert "The dog moved to Tracy" in html
    assert f'href="/cases/{there.number}"' in html


def test_a_place_not_served_must_be_named_and_nothing_is_lost(officer):
    case = record_bite(officer)
    declare(case, officer, designation="dangerous")
    _form, response = move_by_form(client_for(officer), case, ELSEWHERE, authority_address="1 Court St")
    html = response.content.decode()
    assert response.status_code == 400
    assert "Name the city or county the dog moved to (it is not in the list)" in html
    assert "9 Oak Avenue, Tracy, MN 56175" in html and "1 Court St" in html  # what was typed is kept
    assert not Case.objects.filter(jurisdiction=TRACY).exists()


def test_intake_in_tracy_says_the_dog_is_already_on_record(moved, officer):
    case, _form = moved
    there = CaseMove.objects.get(from_case=case).to_case
    chip = Dog.objects.get(pk=there.dog_id).microchip_number
    client = client_for(officer)
    by_chip = intake(jurisdiction=TRACY, **{"dog-0-name": "Unknown", "dog-0-microchip_number": chip})
    html = client.post("/incidents/new/classify", by_chip, HTTP_HX_REQUEST="true").content.decode()
    assert "Already on record" in html and f"the same microchip, {chip}" in html
    assert there.number in html and "moved here with its case from Battle Lake (case" in html
    by_name = intake(
        jurisdiction=TRACY,
        **{"dog-0-name": "brutus", "dog-0-microchip_number": "", "dog-0-owner_name": "dana dogwood"},
    )
    html = client.post("/incidents/new/classify", by_name, HTTP_HX_REQUEST="true").content.decode()
    assert "the same name and owner" in html and there.number in html
    nobody = intake(jurisdiction=TRACY, **{"dog-0-name": "Fido", "dog-0-microchip_number": "111"})
    assert "Already on record" not in client.post("/incidents/new/classify", nobody).content.decode()
