"""347.56 destruction needs no designation ("notwithstanding 347.51 to 347.55"): its own eligibility in the
classification, and its own track on a case with no designation — in every city, under the city's layer too."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from dogcase.law import Actor, CaseState, TakenStep, library

CHICAGO = ZoneInfo("America/Chicago")


def noon(day: str) -> dt.datetime:
    return dt.datetime.combine(dt.date.fromisoformat(day), dt.time(12), tzinfo=CHICAGO)


def _take(j, state, actor, step_id, day, **inputs):
    at = noon(day)
    cleaned = j.validate_inputs(step_id, state, inputs, at)
    verdict = j.check_step(step_id, state, actor, at, cleaned)
    assert verdict.allowed, (step_id, verdict.as_dict())
    taken = TakenStep(
        step_id, at, actor.id, cleaned.get("outcome"), j.events_of(step_id, at, cleaned, state), cleaned
    )
    return CaseState(
        cleaned.get("designation") or state.designation, state.incident_date, (*state.taken, taken)
    )


@pytest.mark.parametrize("jurisdiction", ["mn-statute", "battle-lake-mn", "tracy-mn"])
def test_classification_answers_destruction_as_its_own_eligibility(jurisdiction):
    j = library().get(jurisdiction)
    facts = j.facts.parse(
        {
            "bit": True,
            "victim": "human",
            "injury": "minor",
            "place": "public",
            "provoked": False,
            "victim_conduct": [],
            "multiple_victims_in_one_attack": True,
        }
    )
    answer = j.classify(facts, dt.date(2026, 5, 1)).as_dict()
    (destruction,) = answer["eligibilities"]
    assert destruction["eligibility"] == "destruction"
    assert destruction["status"] == "eligible"
    assert [m["provision"] for m in destruction["matched"]] == ["mn-statute:347.56.multiple_victims"]
    assert "no designation is needed" in destruction["summary"]
    # an eligibility is not a designation: it is never offered for a declaration
    assert "destruction" not in answer["eligible"]
    assert "destruction" not in {d["designation"] for d in answer["designations"]}


@pytest.mark.parametrize("jurisdiction", ["battle-lake-mn", "tracy-mn"])
def test_a_dog_never_declared_may_be_destroyed_under_347_56_in_every_city(jurisdiction):
    j = library().get(jurisdiction)
    officer = Actor("aco", j.pack_roles_for(["animal_control_officer"]))
    state = CaseState(None, dt.date(2024, 5, 1))
    state = _take(
        j,
        state,
        officer,
        "serve_destruction_notice",
        "2024-05-10",
        contents="all",
        served_on="2024-05-10",
        incident="2024-05-01: mauled a child, unprovoked",
        method="personal service",
    )
    early = j.check_step(
        "destroy", state, officer, noon("2024-05-20"), {"facts": "x", "unprovoked_harm": True}
    )
    assert not early.allowed and "waiting" in early.codes
    assert any(r.provision and r.provision["provision"] == "mn-statute:347.56" for r in early.refusals)
    late = j.check_step(
        "destroy", state, officer, noon("2024-05-28"), {"facts": "x", "unprovoked_harm": True}
    )
    assert late.allowed, late.as_dict()
    owed = {o.deadline_id: o for o in j.obligations(state, noon("2024-05-11"))}
    assert owed["owner.request_destruction_hearing"].due == dt.date(2024, 5, 24)


def test_battle_lake_k_still_reaches_a_declared_dog_only_after_the_declaration_is_final():
    # on a declared dog the city's (K) conditions are added to the state's, as before; (K)'s notice of the
    # intended destruction now states its four elements, and its receipt starts the owner's 14 days too ((H))
    j = library().get("battle-lake-mn")
    officer = Actor("aco", j.pack_roles_for(["animal_control_officer"]))
    state = CaseState(None, dt.date(2024, 5, 1))
    state = _take(j, state, officer, "declare", "2024-05-02", designation="dangerous", basis="bite")
    state = _take(
        j,
        state,
        officer,
        "serve_destruction_notice",
        "2024-05-10",
        served_on="2024-05-10",
        contents="all",
        received_on="2024-05-10",
        incident="a second attack",
        method="personal service",
    )
    verdict = j.check_step(
        "destroy", state, officer, noon("2024-05-28"), {"facts": "x", "unprovoked_harm": True}
    )
    assert not verdict.allowed
    assert {r.provision["provision"] for r in verdict.refusals if r.provision} == {"battle-lake-mn:K.destroy"}


def test_a_tracy_dog_declared_dangerous_under_state_law_needs_no_final_declaration_for_347_56():
    j = library().get("tracy-mn")
    officer = Actor("aco", j.pack_roles_for(["animal_control_officer"]))
    state = CaseState(None, dt.date(2024, 5, 1))
    state = _take(j, state, officer, "declare", "2024-05-02", designation="dangerous", basis="bite")
    state = _take(
        j,
        state,
        officer,
        "serve_destruction_notice",
        "2024-05-03",
        contents="all",
        served_on="2024-05-03",
        incident="a second attack",
        method="handed to the owner",
    )
    verdict = j.check_step(
        "destroy", state, officer, noon("2024-06-10"), {"facts": "x", "unprovoked_harm": True}
    )
    assert verdict.allowed, verdict.as_dict()
