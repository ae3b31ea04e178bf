"""Factories for the staff app's tests: records and cases made through the legal acts, as staff would."""

import datetime as dt
import itertools
import os

import pytest
from django.core.management import call_command
from django.db import transaction
from django.test import Client, override_settings
from django.utils import timezone

from dogcase.cases import acts
from dogcase.cases.models import Case
from dogcase.demo import with_complete_notices
from dogcase.documents import acts as document_acts
from dogcase.law import library
from tests.incident_facts import UNPROVOKED_BITE_IN_PUBLIC

BATTLE_LAKE = "battle-lake-mn"
TRACY = "tracy-mn"

_names = itertools.count(1)


@pytest.fixture
def officer(make_staff_user):
    return make_staff_user("animal_control_officer")


@pytest.fixture
def clerk(make_staff_user):
    return make_staff_user("city_clerk")


@pytest.fixture
def hearing_officer(make_staff_user):
    return make_staff_user("hearing_officer")


@pytest.fixture
def auditor(make_staff_user):
    return make_staff_user("auditor")


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def record_bite(
    actor,
    *,
    city: str = BATTLE_LAKE,
    dog_name: str | None = None,
    owner_name: str | None = None,
    occurred_at: dt.datetime | None = None,
    facts=None,
) -> Case:
    """A bite recorded at intake, through the acts: owner, dog, incident, and the dog's case."""
    n = next(_names)
    owner = acts.record_person(
        jurisdiction=city,
        actor=actor,
        full_name=owner_name or f"Owner {n}",
        street=f"{n} Main St",
        phone="555-0100",
    )
    dog = acts.record_dog(
        jurisdiction=city,
        actor=actor,
        owners=[owner],
        name=dog_name or f"Dog {n}",
        breed="Labrador",
        microchip_number=f"985{n:09d}",
    )
    incident = acts.record_incident(
        jurisdiction=city,
        actor=actor,
        occurred_at=occurred_at or acts.now() - dt.timedelta(days=60),
        place=f"{n} Lake Ave",
        place_type="public",
        kind="bite",
        narrative="The dog ran at a passer-by and bit her on the hand.",
        dogs=[dog],
        facts=dict(facts if facts is not None else UNPROVOKED_BITE_IN_PUBLIC),
        victims=[{"kind": "human", "name": f"Victim {n}", "injury": "minor"}],
    )
    return acts.open_case(incident=incident, dog=dog, actor=actor)


def take(case: Case, step_id: str, actor, at=None, **inputs):
    case.refresh_from_db()
    inputs = with_complete_notices(case, step_id, at or acts.now(), inputs)  # notices served are complete
    # the procedure alone, no document rendered
    return document_acts.take_step_without_issuing(
        case, step_id, actor=actor, inputs=inputs, expected_version=case.version, at=at
    )


def declare(case: Case, actor, designation="potentially_dangerous", at=None):
    extra = {}
    step = library().get(case.jurisdiction).step("declare", timezone.localdate(at or acts.now()))
    if any(i.id == "declarant_telephone" for i in step.inputs):
        extra["declarant_telephone"] = "218-555-0177"  # the notice states it ((B)(2)(a))
    return take(
        case,
        "declare",
        actor,
        at=at,
        designation=designation,
        basis="Unprovoked bite in public (B)(1)(a)",
        **extra,
    )


@pytest.fixture(scope="module")
def demo_once(django_db_setup, django_db_blocker):
    """The demo's cities, seeded once for a module; each test's changes are rolled back after it, the demo
    after the module's last."""
    with django_db_blocker.unblock():
        atomic = transaction.atomic()
        atomic.__enter__()
        try:
            with override_settings(DEBUG=True), open(os.devnull, "w") as quiet:  # the demo password
                call_command("seed_demo", stdout=quiet)
            yield
        finally:
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)
