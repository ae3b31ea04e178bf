"""ASM3's CSV exports brought in (files in its real columns: its animal export, which names each animal's
current owner on the animal's row and follows it with rows of its vaccinations and log; its person export,
which follows each person with rows of their licences, log and donations; incidents in the columns its CSV
import reads): dogs with owners, homes, microchips and licences; people found again, not doubled; incidents
linked to their dogs."""

from __future__ import annotations

import pytest

from dogcase.cases.models import Dog, Event, Incident, Ownership, Person, Premises
from dogcase.imports.models import ImportedRecord, ImportRun, ImportSource
from tests.imports.conftest import CITY, checked, imported

pytestmark = pytest.mark.django_db


def test_the_animal_export_brings_in_dogs_with_owners_homes_and_microchips(clerk):
    run = imported(clerk, "asm3_animals.csv", "dogs")
    assert run.status == ImportRun.Status.IMPORTED
    dogs = {d.name: d for d in Dog.objects.filter(jurisdiction=CITY)}
    assert set(dogs) == {"Rocky", "Daisy", "Bruno"}  # the cat is not a dog
    rocky = dogs["Rocky"]
    assert (rocky.sex, rocky.sterilized, rocky.birth_year, rocky.breed, rocky.colour) == (
        "male",
        True,
        2019,
        "Boxer",
        "Brindle",
    )
    assert rocky.microchip_number == "985112003456789"
    assert dogs["Daisy"].sterilized is False and dogs["Bruno"].status == Dog.Status.DEAD
    # Ana Reyes owns Daisy and Bruno (and the cat): one person, one home
    assert Person.objects.filter(jurisdiction=CITY, full_name="Ana Reyes").count() == 1
    ana = Person.objects.get(full_name="Ana Reyes")
    assert set(Ownership.objects.filter(person=ana).values_list("dog__name", flat=True)) == {"Daisy", "Bruno"}
    assert dogs["Daisy"].premises == dogs["Bruno"].premises
    assert Premises.objects.filter(jurisdiction=CITY, street="9 Mill St").count() == 1
    gary = Person.objects.get(full_name="Gary Lindqvist")
    assert (gary.email, gary.phone, gary.postal_code) == (
        "gary.lindqvist@example.org",
        "218-555-0142",
        "56515",
    )
    summary = run.summary
    assert summary["created"] == {"dog": 3, "person": 2, "premises": 2}
    assert summary["skipped"] == {
        "animals other than dogs": 1,
        "rows of an animal's medical records, costs or log": 2,
    }
    # where each record came from: the import's event names the file by its hash, each record its row
    event = Event.objects.get(seq=run.event_seq)
    assert event.act == "import_records" and event.data["sha256"] == run.sha256
    assert event.data["file"] == "asm3_animals.csv" and event.actor == clerk
    came_from = ImportedRecord.objects.get(model="dog", object_id=rocky.pk)
    assert (came_from.row, came_from.source_ref, came_from.source) == (2, "D2024001", "ASM3")
    # the columns matched are remembered for the next file of the source
    assert ImportSource.objects.get(jurisdiction=CITY, name="ASM3", kind="dogs").mapping["name"] == {
        "column": "ANIMALNAME"
    }


def test_the_person_export_finds_the_owners_again_and_brings_in_the_licences(clerk):
    imported(clerk, "asm3_animals.csv", "dogs")
    run = imported(clerk, "asm3_people.csv", "people")
    assert Person.objects.filter(jurisdiction=CITY).count() == 3  # Lena is new; Gary and Ana are found again
    assert run.summary["created"] == {"person": 1} and run.summary["linked"] == {"person": 2}
    assert run.summary["changed"] == {"licence": 2}
    assert run.summary["skipped"] == {"rows naming no person and no licence": 2}  # a log line, a donation
    assert Dog.objects.get(name="Rocky").licence_number == "BL-2024-0187"
    assert Dog.objects.get(name="Daisy").licence_number == "BL-2024-0203"


def test_incidents_are_linked_to_the_dogs_the_source_brought_in(clerk):
    imported(clerk, "asm3_animals.csv", "dogs")
    run = imported(clerk, "asm3_incidents.csv", "incidents", extra={"place_type": "value:public"})
    bite, chase = Incident.objects.filter(jurisdiction=CITY).order_by("occurred_at")
    assert (bite.kind, chase.kind) == ("bite", "chase_or_approach")
    assert list(bite.dogs.values_list("name", flat=True)) == ["Rocky"]
    assert bite.place == "Lake Ave and 4th St, Battle Lake" and bite.place_type == "public"
    assert bite.occurred_at.date().isoformat() == "2024-06-03"
    assert "bit a jogger" in bite.narrative and bite.reported_by == clerk
    assert bite.number.startswith("BL-I") and bite.number != chase.number
    assert run.summary["created"] == {"incident": 2}


def test_a_second_import_of_the_same_file_creates_nothing(clerk):
    imported(clerk, "asm3_animals.csv", "dogs")
    counts = (Dog.objects.count(), Person.objects.count(), Premises.objects.count())
    again = imported(clerk, "asm3_animals.csv", "dogs")
    assert (Dog.objects.count(), Person.objects.count(), Premises.objects.count()) == counts
    assert again.summary["created"] == {} and again.summary["linked"]["dog"] == 3


def test_licences_before_their_dogs_are_problems_and_nothing_is_brought_in(clerk):
    run = checked(clerk, "asm3_people.csv", "people")
    assert run.problem_count == 2
    first = run.problems[0]
    assert (first["row"], first["column"]) == (4, "ANIMALCODE")
    assert "bring in its dogs first" in first["problem"]
    assert Person.objects.count() == 0  # a check writes nothing


def test_every_record_brought_in_has_its_own_event_and_the_audit_verifies(clerk):
    from dogcase.cases.audit import verify_chain
    from dogcase.ops.integrity import verify_all

    imported(clerk, "asm3_animals.csv", "dogs")
    imported(clerk, "asm3_people.csv", "people")
    imported(clerk, "asm3_incidents.csv", "incidents", extra={"place_type": "value:public"})
    rocky = Dog.objects.get(name="Rocky")
    recorded = Event.objects.get(act="record_dog", data__id=rocky.pk)
    assert recorded.data["import"]["row"] == 2 and recorded.data["microchip_number"] == "985112003456789"
    assert "from ASM3, asm3_animals.csv, row 2" in recorded.summary and recorded.actor == clerk
    licence = Event.objects.get(act="update_dog", data__id=rocky.pk)
    assert licence.data["changes"] == {"licence_number": ["", "BL-2024-0187"]}
    assert Event.objects.filter(act="record_person").count() == Person.objects.count() == 3
    assert Event.objects.filter(act="record_incident").count() == 2
    report = verify_all()
    assert verify_chain().ok and report["ok"], report["problems"]
    # a field changed behind the audit trail's back is found
    Dog.objects.filter(pk=rocky.pk).update(microchip_number="985000000000000")
    assert not verify_all()["ok"]
