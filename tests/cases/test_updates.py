"""Record corrections: audited with old and new values and the reason; a stale form saves nothing."""

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from dogcase.cases import acts, updates
from dogcase.cases.audit import verify_chain
from dogcase.cases.models import Event, Ownership


@pytest.fixture
def dog(staff):
    owner = acts.record_person(jurisdiction="tracy-mn", actor=staff["officer"], full_name="Olive Owner")
    return acts.record_dog(
        jurisdiction="tracy-mn",
        actor=staff["officer"],
        owners=[owner],
        name="Rex",
        colour="brown",
        birth_year=2020,
    )


def test_a_correction_keeps_the_old_value_the_person_and_the_reason(dog, staff):
    updates.update_dog(
        dog,
        actor=staff["officer"],
        changes={"colour": "brindle", "birth_year": "2019"},
        reason="Owner showed vet records",
        seen={"colour": "brown", "birth_year": 2020},
    )
    dog.refresh_from_db()
    assert (dog.colour, dog.birth_year) == ("brindle", 2019)
    event = Event.objects.get(act="update_dog")
    assert event.data["changes"] == {"colour": ["brown", "brindle"], "birth_year": [2020, 2019]}
    assert event.data["reason"] == "Owner showed vet records"
    assert event.actor == staff["officer"]
    assert verify_chain().ok


def test_a_stale_form_saves_nothing(dog, staff):
    updates.update_dog(
        dog,
        actor=staff["officer"],
        changes={"colour": "black"},
        reason="Seen in person",
        seen={"colour": "brown"},
    )
    with pytest.raises(updates.StaleRecord) as info:
        updates.update_dog(
            dog, actor=staff["police"], changes={"colour": "white"}, reason="Photo", seen={"colour": "brown"}
        )
    assert info.value.fields == ["colour"]
    dog.refresh_from_db()
    assert dog.colour == "black"
    assert Event.objects.filter(act="update_dog").count() == 1


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"status": "dead"}, "status"),
        ({"sex": "cat"}, "sex"),
        ({"birth_year": "1850"}, "birth_year"),
        ({"microchip_number": "9" * 41}, "microchip_number"),
        ({"colour": "brown"}, "changes"),
    ],
)
def test_bad_changes_name_the_field(dog, staff, changes, field):
    with pytest.raises(acts.InvalidInput) as info:
        updates.update_dog(dog, actor=staff["officer"], changes=changes, reason="testing the rules")
    assert info.value.field == field
    assert not Event.objects.filter(act="update_dog").exists()


def test_the_auditor_and_other_cities_cannot_change_records(dog, staff, make_staff_user):
    with pytest.raises(PermissionDenied):
        updates.update_dog(dog, actor=staff["auditor"], changes={"colour": "x"}, reason="no right")
    outsider = make_staff_user("animal_control_officer", username="bl", cities=("battle-lake-mn",))
    with pytest.raises(PermissionDenied):
        updates.update_person(dog.owners.get(), actor=outsider, changes={"phone": "1"}, reason="no right")


def test_owners_are_added_and_ended_never_deleted(dog, staff):
    first = dog.ownerships.get()
    second = acts.record_person(jurisdiction="tracy-mn", actor=staff["officer"], full_name="Sam Second")
    with pytest.raises(acts.InvalidInput):
        updates.end_ownership(first, actor=staff["officer"], until=timezone.localdate(), reason="moved out")
    updates.add_owner(
        dog, person=second, actor=staff["officer"], since=timezone.localdate(), reason="co-owner"
    )
    updates.end_ownership(first, actor=staff["officer"], until=timezone.localdate(), reason="moved out")
    assert Ownership.objects.filter(dog=dog).count() == 2
    assert list(dog.ownerships.filter(until__isnull=True).values_list("person__full_name", flat=True)) == [
        "Sam Second"
    ]
    assert [e.act for e in Event.objects.filter(act__in=["add_owner", "end_ownership"])] == [
        "add_owner",
        "end_ownership",
    ]


def test_re_adding_a_former_owner_from_the_same_day_is_a_field_message(dog, staff):
    second = acts.record_person(jurisdiction="tracy-mn", actor=staff["officer"], full_name="Sam Second")
    today = timezone.localdate()
    ownership = updates.add_owner(dog, person=second, actor=staff["officer"], since=today, reason="co-owner")
    updates.end_ownership(ownership, actor=staff["officer"], until=today, reason="entered by mistake")
    with pytest.raises(acts.InvalidInput) as info:
        updates.add_owner(
            dog, person=second, actor=staff["officer"], since=today, reason="co-owner after all"
        )
    assert info.value.field == "since"


def test_the_owner_of_a_designated_dog_changes_only_through_its_case(story, staff):
    s = story("tracy-mn")
    s.step("classify", "clerk", 0, designation="vicious", reasonable_cause="Unprovoked bite")
    buyer = acts.record_person(jurisdiction="tracy-mn", actor=staff["officer"], full_name="Bea Buyer")
    with pytest.raises(acts.InvalidInput) as info:
        updates.add_owner(
            s.dog, person=buyer, actor=staff["officer"], since=timezone.localdate(), reason="sold to a buyer"
        )
    assert "transfer step" in info.value.rule and s.case.number in info.value.rule
    assert not Event.objects.filter(act="add_owner").exists()
