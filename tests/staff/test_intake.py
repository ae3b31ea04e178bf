"""Incident intake: the form, its messages on the field, the live classification, and the records it makes
through the acts (one case per dog)."""

import datetime as dt
import uuid

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from dogcase.cases.models import Case, Dog, Event, Incident, Person, Premises
from tests.proofs.helpers import STORED_PNG
from tests.staff.conftest import BATTLE_LAKE, TRACY, client_for, record_bite

pytestmark = pytest.mark.django_db

PNG = STORED_PNG  # a real picture: images are re-encoded when they are read


def yesterday_afternoon() -> str:
    day = timezone.localdate() - dt.timedelta(days=1)
    return f"{day.isoformat()}T14:30"


def intake(**overrides) -> dict:
    data = {
        "jurisdiction": BATTLE_LAKE,
        "idempotency_key": str(uuid.uuid4()),
        "occurred_at": yesterday_afternoon(),
        "place": "Lakeside Park, by the beach",
        "place_type": "public",
        "kind": "bite",
        "narrative": "The dog ran off its lead and bit a jogger on the calf.",
        "dog-0-existing": "",
        "dog-0-name": "Rex",
        "dog-0-breed": "Boxer",
        "dog-0-colour": "brindle",
        "dog-0-sex": "male",
        "dog-0-birth_year": "2020",
        "dog-0-microchip_number": "985112003456789",
        "dog-0-licence_number": "BL-2026-17",
        "dog-0-owner_existing": "",
        "dog-0-owner_name": "Pat Owner",
        "dog-0-owner_street": "12 Elm St",
        "dog-0-owner_city": "Battle Lake",
        "dog-0-owner_zip": "56515",
        "dog-0-owner_phone": "218-555-0101",
        "dog-0-premises_street": "12 Elm St",
        "dog-0-premises_city": "Battle Lake",
        "dog-0-tenure": "rented",
        "dog-0-landlord_name": "Lars Landlord",
        "victim-0-kind": "human",
        "victim-0-name": "Jo Jogger",
        "victim-0-injury": "minor",
        "victim-0-conduct_none": "yes",
        "witness-0-name": "Wendy Witness",
        "witness-0-contact": "218-555-0199",
        "witness-0-statement": "The dog came out of nowhere.",
        "fact-provoked": "no",
        "fact-law_enforcement_dog": "no",
        "fact-attacked": "yes",
    }
    data.update(overrides)
    return {k: v for k, v in data.items() if v is not None}


def test_the_form_asks_the_laws_questions_with_not_known_as_an_answer(officer):
    response = client_for(officer).get("/incidents/new", follow=True)
    html = response.content.decode()
    assert response.status_code == 200
    assert "Was the dog provoked" in html
    assert 'name="fact-provoked" value=""' in html  # "Not known"
    # Facts the structured answers settle are not asked twice.
    assert 'name="fact-place"' not in html and 'name="fact-victim"' not in html
    assert 'hx-post="/incidents/new/classify"' in html
    assert 'name="idempotency_key"' in html


def test_recording_an_incident_makes_the_records_and_opens_the_case(officer):
    client = client_for(officer)
    evidence = SimpleUploadedFile("bite.png", PNG, content_type="image/png")
    response = client.post(
        "/incidents/new", {**intake(), "evidence": evidence, "evidence_description": "The bite"}
    )
    case = Case.objects.get()
    assert response.status_code == 302
    assert response.url == f"/cases/{case.number}"
    incident = case.incident
    assert incident.kind == "bite" and incident.place_type == "public"
    assert timezone.localtime(incident.occurred_at).strftime("%H:%M") == "14:30"
    # Facts derived from the structured answers, and the explicit answers; nothing else is assumed.
    assert incident.facts == {
        "bit": True,
        "attacked": True,
        "place": "public",
        "victim": "human",
        "injury": "minor",
        "victim_conduct": [],
        "provoked": False,
        "law_enforcement_dog": False,
    }
    dog = case.dog
    assert (dog.name, dog.breed, dog.sex, dog.birth_year) == ("Rex", "Boxer", "male", 2020)
    assert dog.owners.get().full_name == "Pat Owner"
    assert dog.premises.tenure == Premises.Tenure.RENTED
    assert dog.premises.landlord.full_name == "Lars Landlord"
    assert incident.victims.get().conduct == "None of these"
    assert incident.witnesses.get().name == "Wendy Witness"
    assert incident.evidence.get().file.content_type == "image/png"
    page = client.get(response.url).content.decode()
    assert "What the facts supported when the case was opened" in page


def test_one_case_per_dog(officer):
    existing = record_bite(officer, dog_name="Old Yeller").dog
    client = client_for(officer)
    response = client.post("/incidents/new", intake(**{"dog-1-existing": str(existing.pk)}))
    incident = Incident.objects.get(place="Lakeside Park, by the beach")
    assert response.status_code == 302
    assert response.url == f"/incidents/{incident.number}"
    assert sorted(c.dog.name for c in incident.cases.all()) == ["Old Yeller", "Rex"]


def test_messages_appear_on_their_fields_and_nothing_is_recorded(officer):
    client = client_for(officer)
    before = Event.objects.count()
    response = client.post(
        "/incidents/new",
        intake(
            place="",
            kind=None,
            **{"dog-0-name": "", "dog-0-owner_name": "", "dog-0-birth_year": "twenty", "victim-0-injury": ""},
        ),
    )
    html = response.content.decode()
    assert response.status_code == 400
    errors = response.context["errors"]
    assert set(errors) >= {
        "place",
        "kind",
        "dog-0-name",
        "dog-0-owner_name",
        "dog-0-birth_year",
        "victim-0-injury",
    }
    assert 'id="place-error"' in html
    assert 'id="dog-0-name-error"' in html
    assert "four digits" in html
    # What was typed is kept.
    assert 'value="Lakeside Park' not in html  # the place was left empty
    assert 'value="Boxer"' in html
    assert Event.objects.count() == before
    assert not Dog.objects.exists() and not Person.objects.exists()


def test_an_incident_in_the_future_is_refused_on_its_field(officer):
    later = (timezone.localdate() + dt.timedelta(days=2)).isoformat() + "T10:00"
    response = client_for(officer).post("/incidents/new", intake(occurred_at=later))
    assert response.status_code == 400
    assert response.context["errors"]["occurred_at"] == "The incident cannot be in the future."


def test_a_rejected_evidence_file_is_named_and_rolls_everything_back(officer):
    bad = SimpleUploadedFile("notes.txt", b"just text", content_type="text/plain")
    response = client_for(officer).post("/incidents/new", {**intake(), "evidence": bad})
    assert response.status_code == 400
    assert "Only PDF, JPEG, PNG, GIF or WebP" in response.context["errors"]["evidence"]
    assert not Dog.objects.exists() and not Incident.objects.exists() and not Person.objects.exists()


def test_a_dog_of_another_city_cannot_be_named(officer):
    tracy_dog = record_bite(officer, city=TRACY).dog
    response = client_for(officer).post("/incidents/new", intake(**{"dog-0-existing": str(tracy_dog.pk)}))
    assert response.status_code == 400
    assert "dog-0-existing" in response.context["errors"]


def test_submitting_the_same_form_twice_records_one_incident(officer):
    client = client_for(officer)
    data = intake()
    first = client.post("/incidents/new", data)
    second = client.post("/incidents/new", data)
    assert first.status_code == second.status_code == 302
    assert first.url == second.url
    assert Incident.objects.count() == 1 and Case.objects.count() == 1 and Dog.objects.count() == 1
    assert Person.objects.count() == 2  # the owner and the landlord, once each


def test_the_live_classification_shows_what_the_facts_support_and_why(officer):
    client = client_for(officer)
    response = client.post("/incidents/new/classify", intake(), HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html  # a partial
    designations = {d["designation"]: d for d in response.context["c"]["designations"]}
    pdd = designations["potentially_dangerous"]
    assert pdd["status"] == "eligible"
    assert "The facts support it" in html
    assert "§ 90.15 (B)(1)(a)" in html
    assert "Your answer" in html and "What happened: Bite" in html


def test_the_live_classification_keeps_unknown_facts_unknown(officer):
    client = client_for(officer)
    response = client.post(
        "/incidents/new/classify",
        {"jurisdiction": BATTLE_LAKE, "kind": "bite", "place_type": "public"},
    )
    designations = {d["designation"]: d for d in response.context["c"]["designations"]}
    assert designations["potentially_dangerous"]["status"] == "undetermined"
    missing = [f["fact"] for f in designations["potentially_dangerous"]["missing_facts"]]
    assert "provoked" in missing
    assert "Still needed to decide" in response.content.decode()


def test_an_exemption_shows_as_ruling_the_designation_out(officer):
    response = client_for(officer).post(
        "/incidents/new/classify",
        intake(
            **{
                "victim-0-conduct_none": None,
                "victim-0-conduct": "trespass_on_owner_premises",
                "place_type": "owner_property",
            }
        ),
    )
    designations = {d["designation"]: d for d in response.context["c"]["designations"]}
    assert designations["potentially_dangerous"]["status"] == "barred"
    assert "Ruled out by" in response.content.decode()


def test_a_tracy_bite_on_a_person_committing_a_crime_is_vicious_and_flags_the_state_exemption(officer):
    # 347.51 subd. 5(c) bars a state dangerous declaration; its words do not reach Tracy's vicious
    # classification, and Subd 9 has no crime exemption: eligible, with the flag for the city attorney
    response = client_for(officer).post(
        "/incidents/new/classify",
        intake(
            jurisdiction=TRACY,
            **{
                "victim-0-conduct_none": None,
                "victim-0-conduct": "committing_crime",
                "victim-0-injury": "substantial_bodily_harm",
            },
        ),
    )
    designations = {d["designation"]: d for d in response.context["c"]["designations"]}
    assert designations["vicious"]["status"] == "eligible"
    assert designations["dangerous"]["status"] == "barred"
    assert [f["citation"] for f in designations["vicious"]["flags"]] == ["Minn. Stat. § 347.51, subd. 5(c)"]
    html = response.content.decode()
    assert "Flagged for the city attorney" in html
    assert "a dangerous dog declaration would be barred" in html


def test_a_new_row_for_a_second_dog_comes_numbered_with_the_next_add_button(officer):
    response = client_for(officer).get("/incidents/new/row/dog?index=1")
    html = response.content.decode()
    assert 'name="dog-1-name"' in html
    assert 'hx-swap-oob="true"' in html and "index=2" in html
    assert client_for(officer).get("/incidents/new/row/cat?index=1").status_code == 404


def test_a_date_that_is_not_one_is_named_on_its_field(officer):
    response = client_for(officer).post("/incidents/new", intake(occurred_at="yesterday at noon"))
    assert response.status_code == 400
    assert response.context["errors"]["occurred_at"] == "Give the date and time it happened."


def test_the_live_classification_explains_a_date_outside_the_law_instead_of_failing(officer):
    response = client_for(officer).post("/incidents/new/classify", intake(occurred_at="1890-06-01T10:00"))
    assert response.status_code == 200
    assert response.context["c"]["error"]
    assert "must be between" in response.content.decode()


def test_starting_from_a_dog_page_names_the_dog(officer):
    dog = record_bite(officer, dog_name="Biscuit").dog
    response = client_for(officer).get(f"/incidents/new?dog={dog.pk}", follow=True)
    assert response.context["dog_rows"][0].existing == str(dog.pk)
    assert f'<option value="{dog.pk}" selected>' in response.content.decode()


def test_a_user_working_for_no_city_cannot_record(make_staff_user):
    nowhere = client_for(make_staff_user("animal_control_officer", cities=[]))
    assert nowhere.get("/incidents/new", follow=True).status_code == 403


def test_the_live_classification_says_destruction_may_be_sought_under_347_56_without_a_designation(officer):
    response = client_for(officer).post(
        "/incidents/new/classify", intake(**{"fact-multiple_victims_in_one_attack": "yes"})
    )
    html = response.content.decode()
    (destruction,) = response.context["c"]["eligibilities"]
    assert (destruction["eligibility"], destruction["status"]) == ("destruction", "eligible")
    assert "Destruction under Minn. Stat. § 347.56 may be sought" in html
    assert 'data-eligibility="destruction"' in html
