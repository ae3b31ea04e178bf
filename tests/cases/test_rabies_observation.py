"""The rabies observation a bite to a person starts (issue 20, item 9): as the city's pack sets it, with its own
obligation, reminders, audited changes and access per city and role. The packs' texts are silent on it: the
setting is the city's procedure, recorded as a defect, never cited as a section."""

import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from dogcase.cases import acts
from dogcase.cases.audit import verify_chain
from dogcase.cases.models import Event, Obligation, Task
from dogcase.cases.observations import RabiesObservation
from dogcase.law import library
from dogcase.messaging.models import Message
from dogcase.messaging.reminders import send_reminders
from dogcase.ops.integrity import verify_all
from tests.cases.conftest import BITE, DAY0, at

PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


def _record(staff, city, facts, victims, day=0, dogs=None):
    officer = staff["officer"]
    if dogs is None:
        owner = acts.record_person(jurisdiction=city, actor=officer, full_name="Olive Owner", at=at(day, 9))
        dogs = [acts.record_dog(jurisdiction=city, actor=officer, owners=[owner], name="Rex", at=at(day, 9))]
    return acts.record_incident(
        jurisdiction=city,
        actor=officer,
        occurred_at=at(day, 8),
        place="Main Street",
        place_type=facts["place"],
        kind="bite",
        dogs=dogs,
        facts=facts,
        victims=victims,
        at=at(day, 9),
    )


PERSON = [{"kind": "human", "name": "Val Victim", "injury": "minor"}]
ANIMAL = [{"kind": "domestic_animal", "name": "Spot, a neighbour's cat", "injury": "minor"}]
ANIMAL_FACTS = {**BITE, "victim": "domestic_animal"}


@pytest.mark.parametrize("city", ["battle-lake-mn", "tracy-mn"])
def test_each_city_pack_sets_the_observation_as_its_procedure_and_records_the_silence(city):
    j = library().get(city)
    rule = j.rabies_observation
    assert rule is not None and rule.period_days == 10
    assert {h.id for h in rule.held_at} == {"owner_home", "facility"}
    # the pack's defect says its text is silent, and the city attorney / health authority must confirm
    defect = next(d for d in j.defects if f"{d.pack}:{d.id}" == rule.as_dict()["defect"])
    assert defect.kind == "missing_text"
    assert "rabies" in defect.text and "says nothing" in defect.text
    assert "city attorney" in defect.reading
    # what a page cites beside it: the city's procedure, never a section of the ordinance
    assert "City procedure" in rule.citation and "§" not in rule.citation


def test_the_state_pack_sets_none():
    assert library().get("mn-statute").rabies_observation is None


def test_a_bite_to_a_person_starts_the_observation_counted_from_the_bite(staff):
    incident = _record(staff, "battle-lake-mn", BITE, PERSON, day=0)
    obs = RabiesObservation.objects.get(incident=incident)
    assert obs.status == "under_way"
    assert obs.bite_on == DAY0
    assert obs.ends_on == DAY0 + dt.timedelta(days=10)  # the pack's 10 days
    assert obs.bitten == "Val Victim"
    event = Event.objects.get(act="start_rabies_observation", data__id=obs.pk)
    assert event.actor == staff["officer"] and event.case is None
    assert "City procedure" in event.summary and "§" not in event.summary


def test_the_due_date_follows_the_packs_period(staff, monkeypatch):
    rule = library().get("tracy-mn").rabies_observation
    monkeypatch.setattr(type(rule), "period_days", property(lambda self: 14), raising=False)
    incident = _record(staff, "tracy-mn", BITE, PERSON, day=3)
    obs = RabiesObservation.objects.get(incident=incident)
    assert (obs.period_days, obs.ends_on) == (14, DAY0 + dt.timedelta(days=17))


def test_a_bite_to_an_animal_only_starts_none(staff):
    incident = _record(staff, "battle-lake-mn", ANIMAL_FACTS, ANIMAL)
    assert not RabiesObservation.objects.filter(incident=incident).exists()
    assert not Event.objects.filter(act="start_rabies_observation").exists()


def test_a_person_added_to_an_incident_later_starts_it_once(staff):
    # recorded as a bite on a cat; the person bitten separating them is found later
    incident = _record(staff, "battle-lake-mn", {**BITE, "victim": "human"}, ANIMAL)
    assert not RabiesObservation.objects.filter(incident=incident).exists()
    acts.add_to_incident(
        incident,
        actor=staff["officer"],
        victims=[{"kind": "human", "name": "Pat Passerby", "injury": "minor"}],
        at=at(1),
    )
    obs = RabiesObservation.objects.get(incident=incident)
    assert obs.bitten == "Pat Passerby"
    assert obs.ends_on == DAY0 + dt.timedelta(days=10)  # still from the day of the bite, not the day added
    acts.add_to_incident(
        incident,
        actor=staff["officer"],
        victims=[{"kind": "human", "name": "Sam", "injury": "none"}],
        at=at(2),
    )
    assert RabiesObservation.objects.filter(incident=incident).count() == 1


def test_a_bad_victim_added_is_refused_on_its_field(staff):
    incident = _record(staff, "battle-lake-mn", BITE, PERSON)
    with pytest.raises(acts.InvalidInput) as info:
        acts.add_to_incident(incident, actor=staff["officer"], victims=[{"kind": "robot", "name": "X"}])
    assert info.value.field == "victims[0].kind"


def test_its_obligation_reaches_the_case_reminders_and_the_sweep(staff, story):
    s = story("battle-lake-mn")
    obs = RabiesObservation.objects.get(incident=s.incident)
    row = s.case.obligations.get(deadline_id=obs.deadline_id)
    assert (row.who, row.status, row.due_date) == ("city", "open", obs.ends_on)
    assert ",animal_control_officer," in row.staff_roles
    assert "rabies observation" in row.what and "§" not in row.citations[0]["citation"]
    # another act recomputes the case's obligations: the row stays (the law engine does not compute it)
    s.step("declare", "officer", 1, designation="potentially_dangerous", basis="Unprovoked bite")
    row.refresh_from_db()
    assert row.status == "open"
    # reminded 7 days ahead, to the staff who keep observations
    counts = send_reminders(at=at(3, 7))
    assert counts["deadline_soon"] >= 1
    reminder = Message.objects.filter(key__contains=obs.deadline_id).first()
    assert reminder is not None and "rabies observation" in reminder.body
    # the day after its last day the sweep marks it overdue and raises a task
    acts.sweep(at=at(11, 6))
    row.refresh_from_db()
    assert row.status == "overdue"
    task = Task.objects.get(obligation=row)
    assert "rabies observation" in task.text and task.done_at is None


def test_where_held_vet_vaccination_and_outcome_are_audited_and_end_it(staff, story):
    s = story("tracy-mn")
    obs = RabiesObservation.objects.get(incident=s.incident)
    police = staff["police"]
    obs = acts.record_observation(
        obs,
        actor=police,
        values={
            "held_at": "owner_home",
            "held_place": "12 Elm Street",
            "veterinarian": "Dr. Vera Vet",
            "vaccination": "current",
            "vaccinated_on": "2025-05-01",
        },
        vaccination_record=SimpleUploadedFile("rabies-certificate.pdf", PDF, content_type="application/pdf"),
        expected_version=obs.version,
        at=at(1),
    )
    assert obs.vaccination_record.original_name == "rabies-certificate.pdf"
    # `audit verify` finds the event that stored the file, with its SHA-256
    problems = [p["problem"] for p in verify_all()["problems"]]
    assert not [p for p in problems if "file" in p], problems
    event = Event.objects.filter(act="record_rabies_observation").last()
    assert event.actor == police and "police_officer" in event.actor_roles
    assert event.data["changes"]["veterinarian"] == {"old": "", "new": "Dr. Vera Vet"}
    assert event.data["changes"]["vaccination_record"]["new"]["sha256"] == obs.vaccination_record.sha256
    assert obs.status == "under_way"

    obs = acts.record_observation(
        obs,
        actor=police,
        values={"outcome": "healthy", "outcome_on": (DAY0 + dt.timedelta(days=10)).isoformat()},
        expected_version=obs.version,
        at=at(10, 15),
    )
    assert (obs.status, obs.outcome) == ("ended", "healthy")
    row = Obligation.objects.get(deadline_id=obs.deadline_id)
    assert (row.status, row.met_by) == ("met", "record_rabies_observation")
    # a change after the outcome is a correction: a reason is required, and it is a new event
    with pytest.raises(acts.InvalidInput) as info:
        acts.record_observation(obs, actor=police, values={"outcome": "died"}, at=at(11))
    assert info.value.field == "reason"
    before = Event.objects.filter(act="record_rabies_observation").count()
    obs = acts.record_observation(
        obs,
        actor=police,
        values={"outcome_note": "Vet's report received"},
        reason="Report filed late",
        at=at(11),
    )
    last = Event.objects.filter(act="record_rabies_observation").last()
    assert Event.objects.filter(act="record_rabies_observation").count() == before + 1
    assert last.data["correction"] is True and last.data["reason"] == "Report filed late"
    assert verify_chain().ok


@pytest.mark.parametrize(
    ("values", "field"),
    [
        ({"held_at": "the_moon"}, "held_at"),
        ({"vaccination": "maybe"}, "vaccination"),
        ({"outcome": "cured"}, "outcome"),
        ({"vaccinated_on": "yesterday"}, "vaccinated_on"),
        ({"outcome": "healthy"}, "outcome_on"),
        ({"outcome_on": "2026-06-05"}, "outcome"),
        ({"outcome": "healthy", "outcome_on": "2026-05-01"}, "outcome_on"),
        ({"outcome": "healthy", "outcome_on": "2099-01-01"}, "outcome_on"),
        ({"veterinarian": "V" * 201}, "veterinarian"),
        ({"colour": "brown"}, "colour"),
        ({"held_at": ""}, "held_at"),
    ],
)
def test_bad_input_is_refused_on_its_field(staff, story, values, field):
    s = story("battle-lake-mn")
    obs = RabiesObservation.objects.get(incident=s.incident)
    with pytest.raises(acts.InvalidInput) as info:
        acts.record_observation(obs, actor=staff["officer"], values=values, at=at(6))
    assert info.value.field == field
    assert not Event.objects.filter(act="record_rabies_observation").exists()


def test_a_stale_form_is_refused(staff, story):
    s = story("battle-lake-mn")
    obs = RabiesObservation.objects.get(incident=s.incident)
    acts.record_observation(obs, actor=staff["officer"], values={"veterinarian": "Dr A"}, at=at(1))
    with pytest.raises(acts.StaleObservation):
        acts.record_observation(
            obs,
            actor=staff["officer"],
            values={"veterinarian": "Dr B"},
            expected_version=obs.version,
            at=at(1),
        )


def test_access_per_city_and_role(staff, story, make_staff_user):
    s = story("battle-lake-mn")
    obs = RabiesObservation.objects.get(incident=s.incident)
    for who in ("clerk", "hearing", "council", "auditor"):
        with pytest.raises(PermissionDenied):
            acts.record_observation(obs, actor=staff[who], values={"veterinarian": "Dr A"}, at=at(1))
    # Battle Lake's pack names the animal control officer and the law enforcement official (police)
    acts.record_observation(obs, actor=staff["police"], values={"veterinarian": "Dr A"}, at=at(1))
    elsewhere = make_staff_user("animal_control_officer", username="tracy-only", cities=("tracy-mn",))
    with pytest.raises(PermissionDenied):
        acts.record_observation(obs, actor=elsewhere, values={"veterinarian": "Dr B"}, at=at(1))


# ------------------------------------------------------------------------------------------ the staff page


def _recent(staff, city="battle-lake-mn"):
    """A bite to a person yesterday, its case opened: the observation under way now."""
    officer = staff["officer"]
    when = timezone.now() - dt.timedelta(days=1)
    owner = acts.record_person(jurisdiction=city, actor=officer, full_name="Olive Owner")
    dog = acts.record_dog(jurisdiction=city, actor=officer, owners=[owner], name="Rex")
    incident = acts.record_incident(
        jurisdiction=city,
        actor=officer,
        occurred_at=when,
        place="Main Street",
        place_type="public",
        kind="bite",
        dogs=[dog],
        facts=BITE,
        victims=PERSON,
    )
    acts.open_case(incident=incident, dog=dog, actor=officer)
    return RabiesObservation.objects.get(incident=incident)


def _client(user):
    client = Client()
    client.force_login(user)
    return client


def test_the_page_says_it_is_city_procedure_and_records_with_errors_on_the_field(staff):
    obs = _recent(staff)
    client = _client(staff["officer"])
    url = reverse("staff:observation", args=[obs.pk])
    page = client.get(url).content.decode()
    assert "City procedure (the ordinance is silent on rabies observation)" in page
    assert "Confined at the owner&#x27;s home" in page and "owner_home" in page  # a choice's value, not shown
    assert ">owner_home<" not in page and "rabies_observation" not in page
    assert "Under way" in page
    # a bad date: 400, the message on its field, nothing recorded
    answer = client.post(url, {"vaccinated_on": "not a date", "version": obs.version})
    assert answer.status_code == 400
    assert 'id="vaccinated_on-error"' in answer.content.decode()
    assert not Event.objects.filter(act="record_rabies_observation").exists()
    # the veterinarian and the vaccination record (a file, through the validated upload)
    record = SimpleUploadedFile("certificate.pdf", PDF, content_type="application/pdf")
    answer = client.post(
        url,
        {
            "veterinarian": "Dr. Vera Vet",
            "held_at": "facility",
            "vaccination_record": record,
            "version": obs.version,
        },
    )
    assert answer.status_code == 302
    obs.refresh_from_db()
    assert obs.veterinarian == "Dr. Vera Vet" and obs.vaccination_record.original_name == "certificate.pdf"
    page = client.get(url).content.decode()
    assert "certificate.pdf" in page and "Dr. Vera Vet" in page
    # a file that is not what it says is refused on the file's field
    fake = SimpleUploadedFile("x.pdf", b"MZ not a pdf", content_type="application/pdf")
    answer = client.post(url, {"vaccination_record": fake, "version": obs.version})
    assert answer.status_code == 400 and 'id="vaccination_record-error"' in answer.content.decode()


def test_the_dashboard_lists_it_as_due_for_the_officer(staff):
    obs = _recent(staff)
    page = _client(staff["officer"]).get(reverse("staff:home")).content.decode()
    assert "rabies observation" in page
    assert obs.ends_on.strftime("%-d") in page


def test_who_sees_and_who_records(staff, make_staff_user):
    obs = _recent(staff)
    url = reverse("staff:observation", args=[obs.pk])
    auditor = _client(staff["auditor"])
    page = auditor.get(url)
    assert page.status_code == 200 and '<form method="post" class="card act-form' not in page.content.decode()
    assert auditor.post(url, {"veterinarian": "Dr A"}).status_code == 403
    assert _client(staff["clerk"]).post(url, {"veterinarian": "Dr A"}).status_code == 403
    other = make_staff_user("animal_control_officer", username="tracy-only", cities=("tracy-mn",))
    assert _client(other).get(url).status_code == 404
    assert "Rex" not in _client(other).get(reverse("staff:observations")).content.decode()
    assert "Rex" in _client(staff["clerk"]).get(reverse("staff:observations")).content.decode()


def test_a_deleted_row_is_named_by_audit_verify_and_rebuilt_by_the_full_sweep(staff, story):
    s = story("battle-lake-mn")
    obs = RabiesObservation.objects.get(incident=s.incident)
    Obligation.objects.filter(case=s.case).delete()  # behind the application's back
    problems = [p for p in verify_all()["problems"] if p.get("field") == "obligations"]
    assert problems and "rabies observation" in problems[0]["problem"]
    acts.sweep(at=at(2), full=True)
    assert Obligation.objects.get(deadline_id=obs.deadline_id).due_date == obs.ends_on
