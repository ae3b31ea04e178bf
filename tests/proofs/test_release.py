"""The release of a seized dog (Battle Lake (J)(2), 347.54) needs the conditions of registration proven, as the
certificate does: accepted proof counts there too, and proof waiting for review does not."""

import datetime as dt

import pytest

from dogcase.proofs import conditions, services
from tests.cases.conftest import SERIOUS, at, story  # noqa: F401
from tests.cases.test_battle_lake_case import declared
from tests.proofs.helpers import PDF, PNG

pytestmark = pytest.mark.django_db(transaction=True)


def _send(s, cond, day):
    from django.core.files.uploadedfile import SimpleUploadedFile

    owner = s.case.dog.ownerships.first().person
    files = []
    data = {}
    if cond.kind == "coverage":
        start = at(day).date() - dt.timedelta(days=10)
        data = {
            "coverage_form": "surety_bond",
            "issuer": "Lakes Surety Co",
            "policy_number": "SB-77",
            "amount_usd": "300000",
            "starts_on": start.isoformat(),
            "ends_on": (start + dt.timedelta(days=365)).isoformat(),
        }
        files = [SimpleUploadedFile("bond.pdf", PDF)]
    elif cond.kind == "microchip":
        data = {"microchip_number": "985112003456789", "microchip_manufacturer": "Datamars"}
    elif cond.kind == "sterilization":
        data = {
            "sterilized_on": at(day).date().isoformat(),
            "veterinarian_name": "Dr. Vera Vet",
            "veterinarian_address": "1 Clinic Road, Battle Lake MN",
            "veterinarian_phone": "218-555-0100",
        }
    else:
        files = [SimpleUploadedFile("proof.png", PNG)]
    return services.submit(s.case, cond.id, data=data, uploads=files, person=owner, at=at(day, 9))


def test_a_seized_dog_is_released_on_accepted_proof_and_not_on_proof_waiting(story):  # noqa: F811
    s = declared(story, "dangerous", SERIOUS)
    s.step("seize", "officer", 20, ground="not_registered", place="the owner's yard")
    needed = [c for c in conditions.conditions(s.case, at(21)) if c.condition_of_registration]
    sent = {c.id: _send(s, c, 21) for c in needed}
    # the officer ticks one condition; the others' proof is only waiting: each is refused as not proven
    waiting = s.refused("release", "officer", 22, fees_paid=True, proofs=[needed[0].id])
    assert {r["code"] for r in waiting.refusals} == {"not_proven"}
    assert len(waiting.refusals) == len(needed) - 1
    for proof in sent.values():
        services.accept(proof, actor=s.staff["officer"], at=at(21, 15))
    event = s.step("release", "officer", 22, fees_paid=True)
    assert event.act == "release"
    assert {a["condition"] for a in event.data["accepted_proofs"]} >= set(sent)
