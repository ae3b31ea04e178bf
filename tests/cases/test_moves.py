"""A dangerous dog that moves (347.52 (c); § 90.15 (M)): to a city served here its case goes with it, opened there
with the designation, the dog, its owner at the new address and the incident, linked to the case it left; to a
place not served, nothing is opened (the letter to that place's animal control authority is the documents'
concern, tests/documents/test_move_letter.py)."""

import pytest

from dogcase.cases import acts
from dogcase.cases.access import law_actor
from dogcase.cases.audit import verify_chain
from dogcase.cases.models import Case, CaseMove, Dog, Event
from dogcase.cases.updates import update_dog
from dogcase.law import ELSEWHERE, library
from dogcase.ops.integrity import verify_all
from tests.cases.conftest import SERIOUS, at, on

BATTLE_LAKE, TRACY = "battle-lake-mn", "tracy-mn"


def declared(story, city=BATTLE_LAKE, designation="dangerous"):
    s = story(city, SERIOUS)
    s.step("declare", "officer", 0, designation=designation, basis="Unprovoked serious bite")
    return s


def chip(s, number):
    """The dog's microchip, recorded on its page (an audited change)."""
    update_dog(
        s.dog, actor=s.staff["officer"], changes={"microchip_number": number}, reason="Scanned", at=at(1)
    )


def move(s, destination, day=40, **more):
    inputs = {
        "moved_on": on(day - 2),
        "destination": destination,
        "new_address": "9 Oak Ave, Tracy, MN 56175",
    }
    inputs.update(more)
    return s.step("record_move", "officer", day, **inputs)


def test_a_dangerous_dog_moving_to_a_city_served_here_takes_its_case_there(story):
    s = declared(story)
    chip(s, "985112003456789")
    event = move(s, TRACY)
    link = CaseMove.objects.get(from_case=s.case)
    there = link.to_case
    assert link.event == event and link.moved_on.isoformat() == on(38)
    assert there.jurisdiction == TRACY and there.number.startswith(
        library().get(TRACY).pack.case_prefix + "-"
    )
    assert (there.designation, there.designation_in_effect, there.status) == ("dangerous", True, "open")
    assert there.dog.jurisdiction == TRACY and there.dog.microchip_number == "985112003456789"
    assert there.dog.pk != s.dog.pk and there.dog.status == "in_city"
    owners = list(there.dog.owners.all())
    assert [(p.full_name, p.street, p.jurisdiction) for p in owners] == [
        ("Olive Owner", "9 Oak Ave, Tracy, MN 56175", TRACY)
    ]
    assert there.incident.jurisdiction == TRACY and there.incident.occurred_at == s.incident.occurred_at
    assert s.incident.number in there.incident.narrative
    assert [v.name for v in there.incident.victims.all()] == ["Val Victim"]
    assert there.opened_by == s.staff["officer"]
    opened = Event.objects.get(case=there, act="open_case")
    assert s.case.number in opened.summary and "Battle Lake" in opened.summary
    assert opened.data["provision"]["citation"] == "§ 90.15 (M)"
    sent = Event.objects.get(case=s.case, act="case_moved_away")
    assert there.number in sent.summary
    # the case it left keeps its history and stays as it was; the dog there has moved
    s.case.refresh_from_db()
    assert s.case.designation == "dangerous" and Dog.objects.get(pk=s.dog.pk).status == "moved"
    assert verify_chain().ok
    # every record the hand-over wrote has its event, and each record is what its events say
    report = verify_all()
    assert report["ok"], report["problems"][:3]


def test_the_case_there_runs_under_that_city_s_law(story, staff):
    s = declared(story)
    move(s, TRACY)
    there = CaseMove.objects.get(from_case=s.case).to_case
    j = acts.jurisdiction_of(there)
    state = acts.case_state(there)
    allowed = {v.step.id for v in j.available_steps(state, law_actor(staff["officer"], TRACY), at(41))}
    # registration under the state layer Tracy runs for a dangerous dog, never Battle Lake's declaration again
    assert "issue_certificate" in allowed
    assert "declare" not in allowed


def test_a_dog_already_recorded_there_by_its_microchip_is_the_same_dog(story, staff):
    s = declared(story)
    chip(s, "985112000000001")
    known = acts.record_dog(
        jurisdiction=TRACY,
        actor=staff["officer"],
        owners=[],
        name="Rex",
        microchip_number="985112000000001",
        at=at(30),
    )
    move(s, TRACY)
    assert CaseMove.objects.get(from_case=s.case).to_case.dog == known
    assert [o.person.street for o in known.ownerships.all()] == ["9 Oak Ave, Tracy, MN 56175"]
    report = verify_all()
    assert report["ok"], report["problems"][:3]


def test_a_move_to_a_place_not_served_opens_nothing_and_needs_its_name(story):
    s = declared(story)
    with pytest.raises(acts.InvalidInput) as info:
        move(s, ELSEWHERE)
    assert info.value.field == "destination_name"
    move(s, ELSEWHERE, destination_name="Fergus Falls, MN", authority_address="112 W Washington Ave")
    assert not CaseMove.objects.exists()
    assert Case.objects.filter(jurisdiction=TRACY).count() == 0


@pytest.mark.parametrize(
    ("destination", "rule"),
    [(BATTLE_LAKE, "stays in this city"), ("nowhere-mn", "choose one of the places offered")],
)
def test_a_place_the_form_does_not_offer_is_refused_naming_the_field(story, destination, rule):
    s = declared(story)
    with pytest.raises(acts.InvalidInput) as info:
        move(s, destination)
    assert info.value.field == "destination" and rule in info.value.rule
    assert not CaseMove.objects.exists()


def test_a_potentially_dangerous_dog_s_case_stays_where_it_was(story):
    # (M): "If a dangerous dog is removed from the city, it must be registered as a dangerous dog in its new
    # jurisdiction" — a potentially dangerous dog's designation is not sent on
    s = declared(story, designation="potentially_dangerous")
    move(s, TRACY)
    assert not CaseMove.objects.exists()
    assert Dog.objects.get(pk=s.dog.pk).status == "moved"


def test_a_case_goes_on_once(story):
    s = declared(story)
    move(s, TRACY)
    move(s, TRACY, day=45)
    assert CaseMove.objects.count() == 1 and Case.objects.filter(jurisdiction=TRACY).count() == 1


def test_the_owner_s_own_notice_of_the_move_takes_the_case_there(story):
    s = declared(story)
    person = s.dog.owners.get()
    acts.take_owner_step(
        s.case,
        "record_move",
        person=person,
        inputs={"moved_on": on(38), "destination": TRACY, "new_address": "9 Oak Ave, Tracy, MN 56175"},
        expected_version=s.case.version,
        at=at(40),
    )
    there = CaseMove.objects.get(from_case=s.case).to_case
    assert there.opened_by is None and there.designation == "dangerous"
    assert Event.objects.get(case=there, act="open_case").actor is None
    report = verify_all()
    assert report["ok"], report["problems"][:3]


def test_a_designation_no_longer_in_effect_is_not_sent_on(story):
    s = declared(story)
    # as the decision that rescinds it leaves the case (cases/acts/steps.py); the dog's move is still recorded
    Case.objects.filter(pk=s.case.pk).update(designation_in_effect=False)
    s.case.refresh_from_db()
    move(s, TRACY)
    assert not CaseMove.objects.exists() and Dog.objects.get(pk=s.dog.pk).status == "moved"
