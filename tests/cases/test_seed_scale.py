"""`manage.py seed_scale`: the statewide data set, built small here — counts, stages, audit, reproducibility."""

import io
import json
from collections import Counter

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db.models import F

from dogcase.cases.audit import verify_chain
from dogcase.cases.models import (
    Case,
    Dog,
    Event,
    Incident,
    Obligation,
    Ownership,
    Person,
    Premises,
    Task,
    Victim,
)
from dogcase.demo.scale import CITIES, shifted


def seed(**options) -> dict:
    out = io.StringIO()
    call_command("seed_scale", stdout=out, stderr=io.StringIO(), **options)
    return json.loads(out.getvalue())


def fingerprint() -> dict:
    return {
        "counts": {m.__name__: m.objects.count() for m in (Person, Premises, Dog, Incident, Case, Event)},
        "dogs": list(
            Dog.objects.order_by("pk").values_list("jurisdiction", "name", "breed", "licence_number")
        ),
        "people": list(Person.objects.order_by("pk").values_list("full_name", "street")),
        "incidents": list(Incident.objects.order_by("pk").values_list("number", "kind", "place")),
        "cases": list(Case.objects.order_by("pk").values_list("number", "stage", "designation", "status")),
        "obligations": sorted(Counter(Obligation.objects.values_list("deadline_id", "status")).items()),
        "events": list(Event.objects.order_by("seq").values_list("act", "jurisdiction", "summary")),
    }


@pytest.mark.django_db
def test_the_data_set_has_the_counts_asked_for_and_cases_at_every_stage():
    report = seed(dogs=2000, incidents=200, cases=40, seed=7)

    assert Dog.objects.count() == 2000 and Incident.objects.count() == 200 and Case.objects.count() == 40
    assert Ownership.objects.count() == 2000 and Victim.objects.count() == 200
    assert Incident.dogs.through.objects.count() == 200
    assert not Dog.objects.filter(ownerships__isnull=True).exists()
    assert not Dog.objects.filter(premises__isnull=True).exists()
    # records of both cities, each dog owned and kept in its own city
    assert {c: Dog.objects.filter(jurisdiction=c).count() for c in CITIES} == {c: 1000 for c in CITIES}
    assert not Ownership.objects.exclude(person__jurisdiction=F("dog__jurisdiction")).exists()
    assert report["counts"]["dogs"] == 2000 and report["counts"]["cases"] == 40
    assert report["counts"]["people"] == Person.objects.count()

    # each case its own dog, named in its incident; stages spread over both procedures
    assert Case.objects.values("dog").distinct().count() == 40
    assert all(c.incident.dogs.filter(pk=c.dog_id).exists() for c in Case.objects.all())
    stages = Counter(Case.objects.values_list("jurisdiction", "stage"))
    assert {city for city, _ in stages} == set(CITIES)
    assert len(stages) >= 8
    assert Case.objects.filter(designation_in_effect=True).exists()
    assert Case.objects.filter(stage="Case opened").exists()
    assert sum(report["stages"].values()) == 40

    # the cases were written by the act functions: their events, clocks and the sweep's tasks
    for case in Case.objects.all():
        acts_taken = list(case.events.order_by("seq").values_list("kind", "act"))
        assert acts_taken[0] == (Event.Kind.RECORD, "open_case")
        assert sum(1 for kind, _ in acts_taken if kind == Event.Kind.STEP) == case.version - 1
    assert Obligation.objects.filter(status="overdue").exists()
    assert Task.objects.exists()
    # one event per city records the bulk load, with its seed and counts
    loads = Event.objects.filter(act="seed_scale")
    assert sorted(loads.values_list("jurisdiction", flat=True)) == sorted(CITIES)
    assert all(e.data["seed"] == 7 and e.data["counts"]["dogs"] == 1000 for e in loads)
    assert verify_chain().ok


@pytest.mark.django_db(transaction=True)
def test_the_same_seed_builds_the_same_data_set_and_another_seed_another():
    seed(dogs=400, incidents=60, cases=16, seed=5, no_sweep=True)
    first = fingerprint()
    call_command("flush", interactive=False, verbosity=0)
    seed(dogs=400, incidents=60, cases=16, seed=5, no_sweep=True)
    assert fingerprint() == first
    call_command("flush", interactive=False, verbosity=0)
    seed(dogs=400, incidents=60, cases=16, seed=6, no_sweep=True)
    other = fingerprint()
    assert [other["counts"][m] for m in ("Dog", "Incident", "Case")] == [400, 60, 16]
    assert other["dogs"] != first["dogs"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"dogs": 100, "incidents": 10, "cases": 20}, "--cases"),
        ({"dogs": 10, "incidents": 40, "cases": 8}, "--cases"),
        ({"dogs": 0, "incidents": 5, "cases": 0}, "--incidents"),
        ({"dogs": -1, "incidents": 0, "cases": 0}, "--dogs"),
        ({"dogs": 10, "incidents": 1, "cases": 0, "batch": 0}, "--batch"),
        ({"dogs": 10, "incidents": 1, "cases": 0, "workers": 0}, "--workers"),
    ],
)
def test_a_data_set_that_cannot_be_built_is_refused_naming_the_option(options, field):
    with pytest.raises(CommandError, match=field):
        seed(**options)
    assert not Dog.objects.exists()


@pytest.mark.django_db
def test_a_database_with_records_is_refused():
    seed(dogs=100, incidents=4, cases=2, seed=1, no_sweep=True)
    with pytest.raises(CommandError, match="empty database"):
        seed(dogs=100, incidents=4, cases=2, seed=1)
    assert Dog.objects.count() == 100


def test_a_story_date_moves_back_at_the_same_local_time():
    assert shifted("2026-06-10", 3) == "2026-06-07"
    # across the change to daylight-saving time (8 March 2026) the local hour stays 14:00
    assert shifted("2026-03-10T14:00:00-05:00", 5) == "2026-03-05T14:00:00-06:00"
    assert shifted("BL-DD-2026-01", 3) == "BL-DD-2026-01"
    assert shifted(["a"], 3) == ["a"]


@pytest.mark.django_db(transaction=True)
def test_cases_played_by_several_processes_reach_the_same_stages():
    from django.db import connection

    if connection.vendor == "sqlite":
        with pytest.raises(CommandError, match="--workers"):
            seed(dogs=100, incidents=8, cases=4, workers=2)
        return
    one = seed(dogs=400, incidents=60, cases=24, seed=9, workers=1, no_sweep=True)
    first = fingerprint()
    call_command("flush", interactive=False, verbosity=0)
    two = seed(dogs=400, incidents=60, cases=24, seed=9, workers=2, no_sweep=True)
    again = fingerprint()
    assert two["stages"] == one["stages"]
    assert again["counts"] == first["counts"] and again["dogs"] == first["dogs"]
    # the same cases, numbered in the order the processes reached them
    assert sorted(c[1:] for c in again["cases"]) == sorted(c[1:] for c in first["cases"])
    assert verify_chain().ok


@pytest.mark.django_db
def test_outside_development_the_demo_password_must_be_strong(settings, monkeypatch):
    # the data set's demo users include an administrator: a real login when DEBUG is False
    settings.DEBUG = False
    monkeypatch.setenv("DOGCASE_DEMO_PASSWORD", "dogcase-demo-only")
    with pytest.raises(CommandError, match="published development password"):
        seed(dogs=10, incidents=2, cases=1)
    assert not Dog.objects.exists()
