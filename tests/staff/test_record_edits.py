"""Correcting and updating the records from the staff pages: a dog's details, its premises, a person's
details, and who owns the dog. Each change is audited with old and new values and the reason."""

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from dogcase.cases import acts, updates
from dogcase.cases.models import Dog, Event, Ownership, Person, Premises
from tests.proofs.helpers import STORED_PNG
from tests.staff.conftest import BATTLE_LAKE, TRACY, client_for

pytestmark = pytest.mark.django_db

REASON = "Owner showed the vet record"


def make_dog(actor, *, city=BATTLE_LAKE, name="Rex"):
    owner = acts.record_person(jurisdiction=city, actor=actor, full_name=f"{name}'s Owner", phone="555-0100")
    premises = acts.record_premises(
        jurisdiction=city, actor=actor, street="12 Elm St", city_name="Battle Lake", tenure="owned"
    )
    return acts.record_dog(
        jurisdiction=city,
        actor=actor,
        owners=[owner],
        premises=premises,
        name=name,
        breed="Labrador",
        colour="black",
        sex="male",
        birth_year=2019,
    )


def dog_form(dog, **changes):
    """The dog form as the page renders it (values and seen-values), with the given fields changed."""
    shown = {
        "name": dog.name,
        "breed": dog.breed,
        "colour": dog.colour,
        "sex": dog.sex,
        "sterilized": {True: "yes", False: "no"}.get(dog.sterilized, "unknown"),
        "birth_year": "" if dog.birth_year is None else str(dog.birth_year),
        "microchip_manufacturer": dog.microchip_manufacturer,
        "microchip_number": dog.microchip_number,
        "licence_number": dog.licence_number,
    }
    data = {**shown, **{f"seen-{k}": v for k, v in shown.items()}, "reason": REASON}
    data.update(changes)
    return data


def person_form(person, **changes):
    shown = {
        f: getattr(person, f)
        for f in ("full_name", "phone", "email", "street", "city_name", "state", "postal_code")
    }
    data = {**shown, **{f"seen-{k}": v for k, v in shown.items()}, "reason": REASON}
    data.update(changes)
    return data


def premises_form(premises, **changes):
    shown = {f: getattr(premises, f) for f in ("street", "unit", "city_name", "postal_code", "tenure")}
    data = {**shown, **{f"seen-{k}": v for k, v in shown.items()}, "reason": REASON}
    data.update(changes)
    return data


def row(response, name):
    return next(r for r in response.context["rows"] if r["field"].name == name)


# ------------------------------------------------------------------------------------------------- dog


def test_the_dog_form_shows_the_record_and_carries_what_it_showed(officer):
    dog = make_dog(officer)
    response = client_for(officer).get(f"/dogs/{dog.pk}/edit")
    html = response.content.decode()
    assert response.status_code == 200
    assert 'name="seen-breed" value="Labrador"' in html
    assert 'name="breed" value="Labrador"' in html
    assert 'name="seen-birth_year" value="2019"' in html
    assert 'name="sterilized" value="unknown" checked' in html
    assert 'name="csrfmiddlewaretoken"' in html


def test_correcting_a_dog_saves_only_the_changed_fields_with_an_audited_event(officer):
    dog = make_dog(officer)
    response = client_for(officer).post(
        f"/dogs/{dog.pk}/edit", dog_form(dog, breed="Boxer", sterilized="yes", birth_year="2020")
    )
    assert response.status_code == 302
    assert response.url == f"/dogs/{dog.pk}#history"
    dog.refresh_from_db()
    assert (dog.breed, dog.sterilized, dog.birth_year, dog.colour) == ("Boxer", True, 2020, "black")
    event = Event.objects.get(act="update_dog")
    assert event.kind == Event.Kind.RECORD
    assert event.actor == officer
    assert event.data["id"] == dog.pk
    assert event.data["changes"] == {
        "breed": ["Labrador", "Boxer"],
        "sterilized": [None, True],
        "birth_year": [2019, 2020],
    }
    assert event.data["reason"] == REASON


def test_a_missing_reason_is_shown_on_its_field_and_the_input_is_kept(officer):
    dog = make_dog(officer)
    response = client_for(officer).post(f"/dogs/{dog.pk}/edit", dog_form(dog, breed="Boxer", reason=""))
    html = response.content.decode()
    assert response.status_code == 400
    assert 'id="reason-error"' in html
    assert "say why" in response.context["errors"]["reason"].lower()
    assert row(response, "breed")["value"] == "Boxer"
    dog.refresh_from_db()
    assert dog.breed == "Labrador"
    assert not Event.objects.filter(act="update_dog").exists()


@pytest.mark.parametrize("year", ["twenty", "1850"])
def test_a_bad_birth_year_is_shown_on_its_field_and_the_input_is_kept(officer, year):
    dog = make_dog(officer)
    response = client_for(officer).post(
        f"/dogs/{dog.pk}/edit", dog_form(dog, birth_year=year, reason="The owner told us")
    )
    html = response.content.decode()
    assert response.status_code == 400
    assert 'id="birth_year-error"' in html
    assert "year" in response.context["errors"]["birth_year"]
    assert row(response, "birth_year")["value"] == year
    assert response.context["reason"] == "The owner told us"
    assert not Event.objects.filter(act="update_dog").exists()


def test_a_blank_name_and_an_unknown_sex_are_refused_on_their_fields(officer):
    dog = make_dog(officer)
    response = client_for(officer).post(f"/dogs/{dog.pk}/edit", dog_form(dog, name=" ", sex="cat"))
    assert response.status_code == 400
    assert set(response.context["errors"]) == {"name", "sex"}
    assert not Event.objects.filter(act="update_dog").exists()


def test_a_field_the_form_did_not_send_is_left_unchanged(officer):
    dog = make_dog(officer)
    response = client_for(officer).post(
        f"/dogs/{dog.pk}/edit", {"breed": "Boxer", "seen-breed": "Labrador", "reason": REASON}
    )
    assert response.status_code == 302
    assert Event.objects.get(act="update_dog").data["changes"] == {"breed": ["Labrador", "Boxer"]}


def test_nothing_changed_is_said_plainly(officer):
    dog = make_dog(officer)
    response = client_for(officer).post(f"/dogs/{dog.pk}/edit", dog_form(dog))
    assert response.status_code == 400
    assert "Nothing was changed" in response.content.decode()


def test_a_stale_dog_form_saves_nothing_and_shows_the_record_as_it_is_now(officer, clerk):
    dog = make_dog(officer)
    form = dog_form(dog, breed="Boxer", colour="brown")  # opened before the clerk saved
    updates.update_dog(dog, actor=clerk, changes={"breed": "Labrador mix"}, reason="Vet certificate says so")
    response = client_for(officer).post(f"/dogs/{dog.pk}/edit", form)
    html = response.content.decode()
    assert response.status_code == 409
    assert "Someone else changed this record" in html
    assert "Labrador mix" in html
    dog.refresh_from_db()
    assert (dog.breed, dog.colour) == ("Labrador mix", "black")
    assert Event.objects.filter(act="update_dog").count() == 1
    # The form now carries what the record is; the user's own changes are kept.
    assert row(response, "breed")["seen"] == "Labrador mix"
    assert row(response, "colour")["value"] == "brown"


def test_a_change_by_someone_else_to_another_field_is_not_undone(officer, clerk):
    dog = make_dog(officer)
    form = dog_form(dog, colour="brown")
    updates.update_dog(dog, actor=clerk, changes={"breed": "Labrador mix"}, reason="Vet certificate says so")
    response = client_for(officer).post(f"/dogs/{dog.pk}/edit", form)
    assert response.status_code == 302
    dog.refresh_from_db()
    assert (dog.breed, dog.colour) == ("Labrador mix", "brown")


# ------------------------------------------------------------------------------------------- premises


def test_correcting_the_premises(officer):
    dog = make_dog(officer)
    premises = dog.premises
    client = client_for(officer)
    assert client.get(f"/premises/{premises.pk}/edit?dog={dog.pk}").status_code == 200
    response = client.post(
        f"/premises/{premises.pk}/edit?dog={dog.pk}", premises_form(premises, unit="Apt 2", tenure="rented")
    )
    assert response.status_code == 302
    assert response.url == f"/dogs/{dog.pk}#history"
    premises.refresh_from_db()
    assert (premises.unit, premises.tenure) == ("Apt 2", "rented")
    event = Event.objects.get(act="update_premises")
    assert event.data["changes"] == {"unit": ["", "Apt 2"], "tenure": ["owned", "rented"]}
    assert event.data["reason"] == REASON


def test_premises_errors_stay_on_their_fields(officer):
    dog = make_dog(officer)
    premises = dog.premises
    client = client_for(officer)
    response = client.post(f"/premises/{premises.pk}/edit", premises_form(premises, street="", unit="Apt 2"))
    assert response.status_code == 400
    assert 'id="street-error"' in response.content.decode()
    assert row(response, "unit")["value"] == "Apt 2"
    response = client.post(f"/premises/{premises.pk}/edit", premises_form(premises, tenure="borrowed"))
    assert response.status_code == 400
    assert "tenure" in response.context["errors"]
    response = client.post(f"/premises/{premises.pk}/edit", premises_form(premises, unit="Apt 2", reason=""))
    assert response.status_code == 400
    assert "reason" in response.context["errors"]
    assert not Event.objects.filter(act="update_premises").exists()


def test_a_stale_premises_form_saves_nothing(officer, clerk):
    premises = make_dog(officer).premises
    form = premises_form(premises, street="14 Elm St")
    updates.update_premises(premises, actor=clerk, changes={"street": "13 Elm St"}, reason="Typo at intake")
    response = client_for(officer).post(f"/premises/{premises.pk}/edit", form)
    assert response.status_code == 409
    premises.refresh_from_db()
    assert premises.street == "13 Elm St"
    assert Event.objects.filter(act="update_premises").count() == 1


# --------------------------------------------------------------------------------------------- person


def test_correcting_a_person(officer):
    person = make_dog(officer).owners.get()
    client = client_for(officer)
    assert 'name="seen-phone" value="555-0100"' in client.get(f"/people/{person.pk}/edit").content.decode()
    response = client.post(
        f"/people/{person.pk}/edit", person_form(person, phone="555-0199", email="pat@example.com")
    )
    assert response.status_code == 302
    assert response.url == f"/people/{person.pk}#history"
    person.refresh_from_db()
    assert (person.phone, person.email) == ("555-0199", "pat@example.com")
    event = Event.objects.get(act="update_person")
    assert event.data == {
        "id": person.pk,
        "changes": {"phone": ["555-0100", "555-0199"], "email": ["", "pat@example.com"]},
        "reason": REASON,
    }


def test_person_errors_stay_on_their_fields_and_keep_the_input(officer):
    person = make_dog(officer).owners.get()
    client = client_for(officer)
    response = client.post(f"/people/{person.pk}/edit", person_form(person, email="not-an-address"))
    assert response.status_code == 400
    assert 'id="email-error"' in response.content.decode()
    assert row(response, "email")["value"] == "not-an-address"
    response = client.post(f"/people/{person.pk}/edit", person_form(person, state="Minnesota"))
    assert response.status_code == 400
    assert "At most 2 characters" in response.context["errors"]["state"]
    response = client.post(f"/people/{person.pk}/edit", person_form(person, phone="555-0199", reason="x"))
    assert response.status_code == 400
    assert "reason" in response.context["errors"]
    assert row(response, "phone")["value"] == "555-0199"
    assert not Event.objects.filter(act="update_person").exists()


def test_a_stale_person_form_saves_nothing(officer, clerk):
    person = make_dog(officer).owners.get()
    form = person_form(person, phone="555-0111")
    updates.update_person(person, actor=clerk, changes={"phone": "555-0222"}, reason="She phoned us")
    response = client_for(officer).post(f"/people/{person.pk}/edit", form)
    assert response.status_code == 409
    assert "555-0222" in response.content.decode()
    person.refresh_from_db()
    assert person.phone == "555-0222"
    assert Event.objects.filter(act="update_person").count() == 1


# --------------------------------------------------------------------------------------------- owners


def test_adding_an_existing_person_found_by_name(officer):
    dog = make_dog(officer)
    other = acts.record_person(jurisdiction=BATTLE_LAKE, actor=officer, full_name="Jordan Coowner")
    acts.record_person(jurisdiction=TRACY, actor=officer, full_name="Jordan Elsewhere")
    client = client_for(officer)
    page = client.get(f"/dogs/{dog.pk}/owners/add?q=jordan", follow=True)
    assert page.status_code == 200
    assert [p.full_name for p in page.context["found"]] == ["Jordan Coowner"]  # only this city's people
    since = timezone.localdate() - dt.timedelta(days=30)
    response = client.post(
        f"/dogs/{dog.pk}/owners/add",
        {"person": other.pk, "since": since.isoformat(), "reason": "Moved in with the owner", "q": "jordan"},
    )
    assert response.status_code == 302
    assert Ownership.objects.get(dog=dog, person=other).since == since
    event = Event.objects.get(act="add_owner")
    assert event.data["dog"] == dog.pk and event.data["person"] == other.pk
    assert event.data["reason"] == "Moved in with the owner"


def test_adding_a_new_person_as_owner(officer):
    dog = make_dog(officer)
    response = client_for(officer).post(
        f"/dogs/{dog.pk}/owners/add",
        {
            "person": "new",
            "new-full_name": "Sam New",
            "new-phone": "555-0333",
            "since": timezone.localdate().isoformat(),
            "reason": "Bought a half share",
        },
    )
    assert response.status_code == 302
    person = Person.objects.get(full_name="Sam New")
    assert person.jurisdiction == BATTLE_LAKE and person.phone == "555-0333"
    assert dog.ownerships.filter(person=person, until__isnull=True).exists()


def test_add_owner_errors_keep_the_input_and_save_nothing(officer):
    dog = make_dog(officer)
    client = client_for(officer)
    tomorrow = (timezone.localdate() + dt.timedelta(days=1)).isoformat()
    response = client.post(
        f"/dogs/{dog.pk}/owners/add",
        {
            "person": "new",
            "new-full_name": "Sam New",
            "since": timezone.localdate().isoformat(),
            "reason": "",
        },
    )
    assert response.status_code == 400
    assert 'id="reason-error"' in response.content.decode()
    assert response.context["new_rows"][0]["value"] == "Sam New"
    response = client.post(
        f"/dogs/{dog.pk}/owners/add",
        {"person": "new", "new-full_name": "Sam New", "since": tomorrow, "reason": "Bought a half share"},
    )
    assert response.status_code == 400
    assert "future" in response.context["errors"]["since"]
    assert not Person.objects.filter(full_name="Sam New").exists()  # the new person is not left behind
    response = client.post(
        f"/dogs/{dog.pk}/owners/add", {"person": "new", "since": "", "reason": "Bought a half share"}
    )
    assert response.status_code == 400
    assert {"since", "new-full_name"} <= set(response.context["errors"])
    assert not Event.objects.filter(
        act__in=["add_owner", "record_person"], data__full_name="Sam New"
    ).exists()
    assert not Event.objects.filter(act="add_owner").exists()


def test_ending_an_ownership(officer):
    dog = make_dog(officer)
    first = dog.ownerships.get()
    other = acts.record_person(jurisdiction=BATTLE_LAKE, actor=officer, full_name="Jordan Coowner")
    updates.add_owner(dog, person=other, actor=officer, since=timezone.localdate(), reason="Co-owner")
    client = client_for(officer)
    assert client.get(f"/dogs/{dog.pk}/owners/{first.pk}/end").status_code == 200
    until = timezone.localdate().isoformat()
    response = client.post(f"/dogs/{dog.pk}/owners/{first.pk}/end", {"until": until, "reason": "Moved out"})
    assert response.status_code == 302
    first.refresh_from_db()
    assert first.until == timezone.localdate()
    event = Event.objects.get(act="end_ownership")
    assert event.data["dog"] == dog.pk and event.data["reason"] == "Moved out"
    page = client.get(f"/dogs/{dog.pk}").content.decode()
    assert "Former owners" in page


def test_ending_the_last_owner_or_without_reason_is_refused_on_the_field(officer):
    dog = make_dog(officer)
    only = dog.ownerships.get()
    client = client_for(officer)
    today = timezone.localdate().isoformat()
    response = client.post(f"/dogs/{dog.pk}/owners/{only.pk}/end", {"until": today, "reason": "Moved out"})
    assert response.status_code == 400
    assert "no owner on record" in response.context["errors"]["until"]
    response = client.post(f"/dogs/{dog.pk}/owners/{only.pk}/end", {"until": today, "reason": ""})
    assert response.status_code == 400
    assert "reason" in response.context["errors"]
    assert response.context["values"]["until"] == today
    only.refresh_from_db()
    assert only.until is None


def test_ending_an_ownership_someone_already_ended_is_stale(officer, clerk):
    dog = make_dog(officer)
    first = dog.ownerships.get()
    other = acts.record_person(jurisdiction=BATTLE_LAKE, actor=officer, full_name="Jordan Coowner")
    updates.add_owner(dog, person=other, actor=officer, since=timezone.localdate(), reason="Co-owner")
    today = timezone.localdate()
    updates.end_ownership(first, actor=clerk, until=today, reason="Moved out")
    response = client_for(officer).post(
        f"/dogs/{dog.pk}/owners/{first.pk}/end", {"until": timezone.localdate().isoformat(), "reason": "Gone"}
    )
    assert response.status_code == 409
    assert "already recorded" in response.content.decode()
    first.refresh_from_db()
    assert first.until == today
    assert Event.objects.filter(act="end_ownership").count() == 1


# --------------------------------------------------------------------------------------------- access


def edit_urls(dog):
    ownership = dog.ownerships.get()
    person = ownership.person
    return [
        f"/dogs/{dog.pk}/edit",
        f"/premises/{dog.premises_id}/edit",
        f"/people/{person.pk}/edit",
        f"/dogs/{dog.pk}/owners/add",
        f"/dogs/{dog.pk}/owners/{ownership.pk}/end",
    ]


def test_the_auditor_is_refused_and_sees_no_buttons(officer, auditor):
    dog = make_dog(officer)
    client = client_for(auditor)
    for url in edit_urls(dog):
        assert client.get(url).status_code == 403, url
        assert client.post(url, {"reason": "Trying anyway"}).status_code == 403, url
    page = client.get(f"/dogs/{dog.pk}").content.decode()
    assert "Correct or update" not in page and "Add an owner" not in page and "No longer an owner" not in page
    person_page = client.get(f"/people/{dog.ownerships.get().person_id}").content.decode()
    assert "Correct or update" not in person_page
    assert not Event.objects.filter(act__startswith="update_").exists()


def test_a_role_that_keeps_no_records_is_refused(officer, hearing_officer):
    dog = make_dog(officer)
    client = client_for(hearing_officer)
    for url in edit_urls(dog):
        assert client.get(url).status_code == 403, url


def test_another_citys_records_are_not_found(officer, make_staff_user):
    dog = make_dog(officer)
    tracy_only = client_for(
        make_staff_user("animal_control_officer", username="tracy-officer", cities=[TRACY])
    )
    for url in edit_urls(dog):
        assert tracy_only.get(url).status_code == 404, url
        assert tracy_only.post(url, dog_form(dog, breed="Boxer")).status_code == 404, url
    dog.refresh_from_db()
    assert dog.breed == "Labrador"


def test_the_forms_need_a_login(officer, client):
    dog = make_dog(officer)
    for url in edit_urls(dog):
        response = client.get(url)
        assert response.status_code == 302 and "login" in response.url, url


def test_writers_see_the_buttons(officer):
    dog = make_dog(officer)
    page = client_for(officer).get(f"/dogs/{dog.pk}").content.decode()
    assert f"/dogs/{dog.pk}/edit" in page
    assert f"/premises/{dog.premises_id}/edit?dog={dog.pk}" in page
    assert f"/dogs/{dog.pk}/owners/add" in page
    assert f"/dogs/{dog.pk}/owners/{dog.ownerships.get().pk}/end" in page


# -------------------------------------------------------------------------------------------- history


def test_the_history_lists_each_change_with_who_old_new_and_why(officer):
    dog = make_dog(officer)
    person = dog.owners.get()
    client = client_for(officer)
    client.post(f"/dogs/{dog.pk}/edit", dog_form(dog, breed="Boxer", sterilized="no"))
    client.post(f"/premises/{dog.premises_id}/edit", premises_form(dog.premises, tenure="rented"))
    client.post(f"/people/{person.pk}/edit", person_form(person, phone="555-0199"))
    page = client.get(f"/dogs/{dog.pk}")
    html = page.content.decode()
    assert "History of this record" in html
    history = page.context["history"]
    assert history[0]["what"] == "Premises changed"
    assert history[1]["what"] == "Dog's details changed"
    assert {"field": "Breed", "old": "Labrador", "new": "Boxer"} in history[1]["changes"]
    assert {"field": "Sterilized", "old": "Not known", "new": "No"} in history[1]["changes"]
    assert history[1]["actor"] == officer.username and history[1]["reason"] == REASON
    assert "Labrador</del> → <ins>Boxer" in html
    assert "Owned by the dog&#x27;s owner</del> → <ins>Rented" in html
    assert {"Dog first recorded", "Premises first recorded"} <= {h["what"] for h in history}
    person_page = client.get(f"/people/{person.pk}")
    assert {"field": "Phone", "old": "555-0100", "new": "555-0199"} in person_page.context["history"][0][
        "changes"
    ]
    assert "555-0100</del> → <ins>555-0199" in person_page.content.decode()


def test_the_history_of_owners_names_the_person_and_the_dog(officer):
    dog = make_dog(officer)
    other = acts.record_person(jurisdiction=BATTLE_LAKE, actor=officer, full_name="Jordan Coowner")
    updates.add_owner(dog, person=other, actor=officer, since=timezone.localdate(), reason="Moved in")
    dog_history = client_for(officer).get(f"/dogs/{dog.pk}").context["history"]
    assert dog_history[0]["what"] == "Owner added"
    assert dog_history[0]["detail"].startswith("Jordan Coowner — owner since")
    person_history = client_for(officer).get(f"/people/{other.pk}").context["history"]
    assert person_history[0]["detail"].startswith("Rex — owner since")


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def test_the_history_runs_a_fixed_number_of_queries(officer):
    dog = make_dog(officer)
    person = dog.owners.get()
    client = client_for(officer)
    other = acts.record_person(jurisdiction=BATTLE_LAKE, actor=officer, full_name="Jordan Coowner")
    updates.add_owner(dog, person=other, actor=officer, since=timezone.localdate(), reason="Moved in")
    few_dog, few_person = _queries(client, f"/dogs/{dog.pk}"), _queries(client, f"/people/{person.pk}")
    for n in range(4):
        dog = Dog.objects.get(pk=dog.pk)
        updates.update_dog(
            dog, actor=officer, changes={"colour": f"colour {n}"}, reason="Repainted, it seems"
        )
        person = Person.objects.get(pk=person.pk)
        updates.update_person(person, actor=officer, changes={"phone": f"555-02{n}0"}, reason="New phone")
        premises = Premises.objects.get(pk=dog.premises_id)
        updates.update_premises(premises, actor=officer, changes={"unit": f"Unit {n}"}, reason="Moved flats")
        third = acts.record_person(jurisdiction=BATTLE_LAKE, actor=officer, full_name=f"Owner {n}")
        updates.add_owner(dog, person=third, actor=officer, since=timezone.localdate(), reason="Moved in")
    assert _queries(client, f"/dogs/{dog.pk}") == few_dog
    assert _queries(client, f"/people/{person.pk}") == few_person


# ------------------------------------------------------------------------------ second review's findings


def test_a_nul_character_is_refused_naming_the_field_before_any_view(officer):
    dog = make_dog(officer)
    response = client_for(officer).post(f"/dogs/{dog.pk}/edit", dog_form(dog, breed="Lab\x00rador"))
    assert response.status_code == 400
    assert "breed" in response.content.decode() and "NUL" in response.content.decode()
    dog.refresh_from_db()
    assert dog.breed == "Labrador"
    api = client_for(officer).post(
        "/api/v1/cases/X/steps/declare",
        '{"version": 1, "inputs": {"basis": "a\\u0000b"}}',
        content_type="application/json",
    )
    assert api.status_code == 400
    assert api.json()["error"]["field"] == "body.inputs.basis"


def test_a_superscript_digit_is_not_a_year_or_an_id(officer):
    dog = make_dog(officer)
    client = client_for(officer)
    assert client.post(f"/dogs/{dog.pk}/edit", dog_form(dog, birth_year="²")).status_code == 400
    assert client.get(f"/premises/{dog.premises_id}/edit?dog=²").status_code == 200


def test_a_value_stored_with_spaces_can_still_be_corrected(officer):
    owner = acts.record_person(jurisdiction=BATTLE_LAKE, actor=officer, full_name="Ann ", phone="555-0101")
    form = person_form(owner, **{"full_name": "Ann", "seen-full_name": "Ann", "phone": "555-0199"})
    response = client_for(officer).post(f"/people/{owner.pk}/edit", form)
    assert response.status_code == 302, response.content.decode()[:500]
    owner.refresh_from_db()
    assert owner.phone == "555-0199"


def test_the_page_title_is_the_records_name(officer):
    dog = make_dog(officer)
    html = client_for(officer).get(f"/dogs/{dog.pk}").content.decode()
    assert f"<title>{dog.name} — dogcase</title>" in html


# ---------------------------------------------------------------------------------- incident additions

PNG = STORED_PNG  # a real picture: images are re-encoded when they are read


def test_evidence_and_a_witness_found_later_are_added_with_their_event(officer):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from tests.staff.conftest import record_bite

    case = record_bite(officer)
    incident = case.incident
    client = client_for(officer)
    page = client.get(f"/incidents/{incident.number}/add", follow=True)
    assert page.status_code == 200
    token = page.context["token"]
    data = {
        "idempotency_key": token,
        "description": "Photo of the bite, day 2",
        "witness_name": "Joe Neighbour",
        "witness_contact": "555-0142",
        "witness_statement": "Saw the dog jump the fence.",
        "file": SimpleUploadedFile("bite.png", PNG, content_type="image/png"),
    }
    response = client.post(f"/incidents/{incident.number}/add", data)
    assert response.status_code == 302
    again = client.post(
        f"/incidents/{incident.number}/add", {**data, "file": SimpleUploadedFile("bite.png", PNG)}
    )
    assert again.status_code == 302  # the same form twice adds once
    assert incident.evidence.count() == 1 and incident.witnesses.filter(name="Joe Neighbour").count() == 1
    event = Event.objects.get(act="add_to_incident")
    assert event.data["evidence"][0]["name"] == "bite.png" and len(event.data["evidence"][0]["sha256"]) == 64
    html = client.get(f"/incidents/{incident.number}").content.decode()
    assert "Photo of the bite, day 2" in html and "Joe Neighbour" in html


def test_an_empty_or_bad_addition_is_a_field_message_and_the_auditor_cannot_add(officer, auditor):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from tests.staff.conftest import record_bite

    case = record_bite(officer)
    url = f"/incidents/{case.incident.number}/add"
    client = client_for(officer)
    empty = client.post(url, {"description": ""})
    assert empty.status_code == 400 and "Add a file or a witness" in empty.content.decode()
    exe = client.post(url, {"file": SimpleUploadedFile("x.exe", b"MZ\x90\x00rest")})
    assert exe.status_code == 400 and "Only PDF, JPEG, PNG, GIF or WebP" in exe.content.decode()
    assert client_for(auditor).get(url).status_code == 403
    assert not Event.objects.filter(act="add_to_incident").exists()
