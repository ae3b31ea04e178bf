"""Issue 18, the law (table tests on the engine, no database):

1. a state dangerous dog under appeal is not seized for want of registration or of the bond or insurance while
   the hearing is pending or within 14 days of receiving an affirming decision (347.541 subd. 3 and 4), in every
   city; the grounds the owner owes pending the appeal (the enclosure, the muzzle and leash) do not wait;
2. Tracy: after the Subd 3 notice was posted for an owner who cannot be located, a later sending by certified
   mail, return receipt requested, starts Subd 4.A's five business days from the day it was sent;
3. Tracy Subd 5.F: the ten days "after ... a hearing determining said dog is vicious" run from the City Council's
   decision (Subd 4.C), not from the close of the hearing;
6. the appeal of a potentially dangerous declaration (Battle Lake) cites the clauses that give it, never a state
   provision that concerns another designation (347.541, a dangerous dog's; 347.56, the destruction).
"""

from __future__ import annotations

import datetime as dt

import pytest

from dogcase.law import Actor, CaseState, TakenStep, library

D = dt.date


def _noon(j, day: dt.date) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(12), tzinfo=j.tz)


def _actor(j, *staff_roles: str) -> Actor:
    return Actor("+".join(staff_roles), j.pack_roles_for(staff_roles))


def replay(city: str, incident: dt.date, steps) -> tuple:
    """The case after `steps` [(step, staff role, day, inputs)], each checked allowed as it is taken."""
    j = library().get(city)
    designation = None
    taken: list[TakenStep] = []
    for step_id, who, day, inputs in steps:
        state = CaseState(designation, incident, tuple(taken))
        at = _noon(j, day)
        if any(i.id == "contents" for i in j.case_step(step_id, state, at).inputs):
            inputs = {"contents": "all", **inputs}  # the documents issued contain every element
        cleaned = j.validate_inputs(step_id, state, inputs, at)
        verdict = j.check_step(step_id, state, _actor(j, who), at, cleaned)
        assert verdict.allowed, (step_id, [r.reason for r in verdict.refusals])
        if verdict.step.opens_case:
            designation = cleaned["designation"]
        events = j.events_of(step_id, at, cleaned, state)
        taken.append(TakenStep(step_id, at, who, cleaned.get("outcome"), events, cleaned))
    return j, CaseState(designation, incident, tuple(taken))


# ------------------------------------------------------------------------------------------ 1. seizure on appeal

# A dangerous dog declared on 2 May 2024, the notice received on 3 May (347.54's 14 days after notice end on
# 17 May), a hearing requested on 8 May; held on 16 May; decided (upheld) and received on 20 May: the owner's
# 14 days to comply end on Monday 3 June.
DECLARED = [
    ("declare", "animal_control_officer", D(2024, 5, 2), {"designation": "dangerous", "basis": "bite"}),
    (
        "serve_notice",
        "animal_control_officer",
        D(2024, 5, 3),
        {"served_on": "2024-05-03", "method": "personal", "received_on": "2024-05-03"},
    ),
]
APPEALED = [
    *DECLARED,
    ("receive_hearing_request", "animal_control_officer", D(2024, 5, 8), {"received_on": "2024-05-08"}),
]
UPHELD = [
    *APPEALED,
    (
        "schedule_hearing",
        "animal_control_officer",
        D(2024, 5, 9),
        {"hearing_at": "2024-05-16T10:00:00-05:00", "place": "City Hall", "hearing_officer": "H. Officer"},
    ),
    ("hold_hearing", "hearing_officer", D(2024, 5, 16), {"held_on": "2024-05-16"}),
    (
        "decide_appeal",
        "hearing_officer",
        D(2024, 5, 20),
        {
            "outcome": "upheld",
            "reasons": "bite confirmed",
            "method": "registered_mail",
            "delivered_on": "2024-05-20",
        },
    ),
]

SEIZURE_TABLE = [
    # (stage, ground, day of the seizure, allowed?)
    ("pending", "not_registered", D(2024, 5, 20), False),
    ("pending", "no_liability_coverage", D(2024, 5, 20), False),
    ("pending", "not_sterilized", D(2024, 6, 10), False),
    ("pending", "not_enclosed", D(2024, 5, 20), True),  # 347.52 (a) is owed pending the appeal
    ("pending", "unrestrained", D(2024, 5, 20), True),
    ("upheld", "not_registered", D(2024, 6, 3), False),  # the 14th day from receipt of the decision
    ("upheld", "no_liability_coverage", D(2024, 6, 3), False),
    ("upheld", "not_registered", D(2024, 6, 4), True),
    ("upheld", "no_liability_coverage", D(2024, 6, 4), True),
    ("no_appeal", "not_registered", D(2024, 5, 16), False),  # 347.54 subd. 1: not before 14 days after notice
    ("no_appeal", "not_registered", D(2024, 5, 17), True),
    ("no_appeal", "no_liability_coverage", D(2024, 5, 17), True),
]
STAGES = {"no_appeal": DECLARED, "pending": APPEALED, "upheld": UPHELD}


@pytest.mark.parametrize(
    ("city", "stage", "ground", "day", "allowed"),
    [(city, *row) for city in ("mn-statute", "tracy-mn") for row in SEIZURE_TABLE],
)
def test_a_state_dangerous_dog_under_appeal_is_not_seized_for_what_it_has_14_days_to_meet(
    city, stage, ground, day, allowed
):
    j, state = replay(city, D(2024, 5, 1), STAGES[stage])
    verdict = j.check_step(
        "seize", state, _actor(j, "animal_control_officer"), _noon(j, day), {"ground": ground}
    )
    assert verdict.allowed is allowed, [(r.code, r.reason) for r in verdict.refusals]
    if not allowed and stage != "no_appeal":
        refusal = next(r for r in verdict.refusals if r.code == "waiting")
        assert refusal.provision["provision"] == "mn-statute:347.541.4.comply"
        assert refusal.provision["citation"] == "Minn. Stat. § 347.541, subd. 3 and 4"
        assert "14 days" in refusal.reason and "_" not in refusal.reason


def test_the_refusal_names_the_rule_in_plain_words():
    j, state = replay("tracy-mn", D(2024, 5, 1), UPHELD)
    verdict = j.check_step(
        "seize",
        state,
        _actor(j, "animal_control_officer"),
        _noon(j, D(2024, 5, 28)),
        {"ground": "not_registered"},
    )
    (refusal,) = verdict.refusals
    assert refusal.code == "waiting"
    for words in ("asked for a hearing", "registered", "surety bond or liability insurance", "14 days"):
        assert words in refusal.reason


# Battle Lake: its own (J)(1) grounds wait for the appeal already; the state's floor (347.541) is added to its
# step, so a ground id the state shares is held to the state's 14 days too.
BL_UPHELD = [
    ("declare", "animal_control_officer", D(2024, 5, 2), {"designation": "dangerous", "basis": "bite"}),
    (
        "serve_notice",
        "animal_control_officer",
        D(2024, 5, 3),
        {
            "served_on": "2024-05-03",
            "method": "personal",
            "served_owner": "A. Owner",
            "received_on": "2024-05-03",
        },
    ),
    ("receive_hearing_request", "city_clerk", D(2024, 5, 8), {"received_on": "2024-05-08"}),
    (
        "schedule_hearing",
        "city_clerk",
        D(2024, 5, 9),
        {
            "hearing_at": "2024-05-15T18:00:00-05:00",
            "place": "City Hall",
            "hearing_officer": "H",
            "mailed_on": "2024-05-09",
        },
    ),
    ("hold_hearing", "hearing_officer", D(2024, 5, 15), {"held_on": "2024-05-15"}),
    (
        "decide_appeal",
        "hearing_officer",
        D(2024, 5, 17),
        {"outcome": "upheld", "method": "hand_delivery", "delivered_on": "2024-05-17"},
    ),
    ("recommend", "hearing_officer", D(2024, 5, 18), {"outcome": "confirm"}),
    ("confirm_or_rescind", "council_clerk", D(2024, 5, 20), {"outcome": "confirmed"}),
]


@pytest.mark.parametrize(
    ("ground", "day", "allowed"),
    [
        ("not_registered", D(2024, 5, 31), False),  # receipt 17 May + 14 = Friday 31 May
        ("no_liability_coverage", D(2024, 5, 31), False),
        ("not_registered", D(2024, 6, 1), True),
        ("no_liability_coverage", D(2024, 6, 1), True),
    ],
)
def test_battle_lake_keeps_the_14_days_after_an_affirming_decision(ground, day, allowed):
    j, state = replay("battle-lake-mn", D(2024, 5, 1), BL_UPHELD)
    verdict = j.check_step(
        "seize", state, _actor(j, "animal_control_officer"), _noon(j, day), {"ground": ground}
    )
    assert verdict.allowed is allowed, [(r.code, r.reason) for r in verdict.refusals]


# ------------------------------------------------------------------------------------------ 2. Tracy, posted notice

CLASSIFIED = [
    ("classify", "police_officer", D(2026, 5, 4), {"designation": "vicious", "reasonable_cause": "bites"}),
    (
        "post_notice_owner_not_located",
        "police_officer",
        D(2026, 5, 5),
        {"sent_on": "2026-05-05", "method": "posting_on_owner_property", "search": "no one at the house"},
    ),
]


@pytest.mark.parametrize(
    ("method", "sent_on", "due"),
    [
        # five regular business days from the sending: Thu 7 May -> Fri 8, Mon 11 .. Thu 14
        ("certified_mail_return_receipt", D(2026, 5, 7), D(2026, 5, 14)),
        # over Memorial Day (Monday 25 May): Fri 22 May -> Tue 26 .. Fri 29, Mon 1 June
        ("certified_mail_return_receipt", D(2026, 5, 22), D(2026, 6, 1)),
        ("posting_on_owner_property", D(2026, 5, 7), None),  # a posting starts nothing
    ],
)
def test_a_later_notice_after_a_posting_starts_subd_4a_only_by_certified_mail(method, sent_on, due):
    j, state = replay(
        "tracy-mn",
        D(2026, 5, 1),
        [
            *CLASSIFIED,
            (
                "record_further_posted_notice",
                "police_officer",
                sent_on,
                {"method": method, "sent_on": sent_on},
            ),
        ],
    )
    window = next(
        o for o in j.obligations(state, _noon(j, sent_on)) if o.deadline_id == "owner.request_hearing"
    )
    assert window.due == due
    assert window.status == ("undetermined" if due is None else "open")
    if due is not None:
        assert any(c["citation"] == "Tracy City Code § 8.31, Subd 4.A" for c in window.citations)


def test_the_later_notice_step_is_offered_after_a_posting_in_plain_words():
    j, state = replay("tracy-mn", D(2026, 5, 1), CLASSIFIED)
    step = j.step("record_further_posted_notice", D(2026, 5, 6))
    assert step.label == "Record a later notice to the owner who could not be located"
    assert "_" not in step.label
    choices = j.input_choices("record_further_posted_notice", state, _noon(j, D(2026, 5, 6)))["method"]
    assert {c["value"] for c in choices} == {"posting_on_owner_property", "certified_mail_return_receipt"}
    verdict = j.check_step(
        "record_further_posted_notice", state, _actor(j, "police_officer"), _noon(j, D(2026, 5, 6))
    )
    assert verdict.allowed, [r.reason for r in verdict.refusals]


# ------------------------------------------------------------------------------------------ 3. Tracy Subd 5.F


@pytest.mark.parametrize(
    ("events", "due"),
    [
        # the case: hearing closed Tue 16 Feb 2027, the Council upholds Fri 19 Feb: Mon 1 Mar, not 26 Feb
        ({"hearing_closed": D(2027, 2, 16), "council_decision": D(2027, 2, 19)}, D(2027, 3, 1)),
        # the Council decides the day the hearing closes: ten days from then
        ({"hearing_closed": D(2027, 2, 16), "council_decision": D(2027, 2, 16)}, D(2027, 2, 26)),
        # the hearing closed, the Council has not decided: not computed yet
        ({"hearing_closed": D(2027, 2, 16)}, None),
    ],
)
def test_subd_5f_runs_from_the_councils_decision(events, due):
    j = library().get("tracy-mn")
    answer = j.deadline(
        "owner.prove_insurance",
        {"classification": D(2027, 2, 3), "hearing_request_received": D(2027, 2, 8), **events},
        designation="vicious",
    )
    if due is None:
        assert answer["status"] == "undetermined"
    else:
        assert answer["status"] == "determined"
        assert answer["due"] == due.isoformat()


def test_the_council_decision_recorded_later_counts_from_the_day_it_decided():
    steps = [
        (
            "classify",
            "police_officer",
            D(2027, 2, 3),
            {"designation": "vicious", "reasonable_cause": "bites"},
        ),
        (
            "notify_classification",
            "police_officer",
            D(2027, 2, 4),
            {"sent_on": "2027-02-04", "certified_mail": True},
        ),
        ("receive_classification_appeal", "city_clerk", D(2027, 2, 8), {"received_on": "2027-02-08"}),
        ("hold_classification_hearing", "council_clerk", D(2027, 2, 16), {"held_on": "2027-02-16"}),
    ]
    j, before = replay("tracy-mn", D(2027, 2, 1), steps)
    cleaned = j.validate_inputs(
        "decide_classification_appeal",
        before,
        {"outcome": "upheld", "decided_on": "2027-02-19"},
        _noon(j, D(2027, 2, 22)),
    )
    events = j.events_of("decide_classification_appeal", _noon(j, D(2027, 2, 22)), cleaned, before)
    assert events["council_decision"] == D(2027, 2, 19)
    # a decision dated before the hearing closed is refused (Subd 4.C: within three days after the close)
    with pytest.raises(Exception) as info:
        j.validate_inputs(
            "decide_classification_appeal",
            before,
            {"outcome": "upheld", "decided_on": "2027-02-15"},
            _noon(j, D(2027, 2, 22)),
        )
    assert "close of the hearing" in str(info.value)


# ------------------------------------------------------------------------------------------ 6. the pdd appeal

PDD = [
    (
        "declare",
        "animal_control_officer",
        D(2024, 5, 2),
        {"designation": "potentially_dangerous", "basis": "bite"},
    ),
    (
        "serve_notice",
        "animal_control_officer",
        D(2024, 5, 3),
        {
            "served_on": "2024-05-03",
            "method": "personal",
            "served_owner": "A. Owner",
            "received_on": "2024-05-03",
        },
    ),
    ("receive_hearing_request", "city_clerk", D(2024, 5, 8), {"received_on": "2024-05-08"}),
]


def _reaches(j, key: str, designation: str) -> bool:
    pack_id, _, pid = key.rpartition(":")
    layer = next(layer for layer in j.layers if layer.id == pack_id)
    effect = layer.provisions[pid].versions[-1].effect or {}
    scope = effect.get("for") or effect.get("designations")
    return not scope or designation in scope


@pytest.mark.parametrize(
    ("step_id", "who", "inputs", "cited"),
    [
        ("receive_hearing_request", "city_clerk", {"received_on": "2024-05-09"}, "§ 90.15 (H)"),
        ("decide_appeal", "hearing_officer", {"outcome": "upheld"}, "§ 90.15 (I)(4)"),
        ("serve_notice", "animal_control_officer", None, "§ 90.15 (B)(2)"),
    ],
)
def test_the_potentially_dangerous_appeal_cites_the_clause_that_gives_it(step_id, who, inputs, cited):
    j, state = replay("battle-lake-mn", D(2024, 5, 1), PDD)
    verdict = j.check_step(step_id, state, _actor(j, who), _noon(j, D(2024, 5, 10)), inputs)
    assert not verdict.allowed
    for refusal in verdict.refusals:
        key = refusal.provision["provision"]
        assert _reaches(j, key, "potentially_dangerous"), (refusal.code, key)
        assert (
            "347.541" not in refusal.provision["citation"] and "347.56" not in refusal.provision["citation"]
        )
    assert any(r.provision["citation"].startswith(cited) for r in verdict.refusals)


def test_a_step_of_another_designation_is_checked_without_a_crash_and_refused():
    # a potentially dangerous dog's case asked about the review of a dangerous designation (which the law does
    # not give it): refused as not applicable, the form-dependent date not waited on
    j, state = replay("battle-lake-mn", D(2024, 5, 1), PDD[:1])
    verdict = j.check_step(
        "review_designation", state, _actor(j, "animal_control_officer"), _noon(j, D(2024, 5, 5))
    )
    assert not verdict.allowed and "not_applicable" in verdict.codes
