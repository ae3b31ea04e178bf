"""A step the law gives no one for the dog's designation is refused in words that say so (never "Only the no one
may do this"): security for the costs of care is 347.541's, a dangerous dog's only."""

import datetime as dt

from dogcase.law import library

from .procedure_rows import actor_of, instant_of, replay


def test_a_step_no_one_may_take_for_the_designation_says_so():
    j = library().get("mn-statute")
    row = {
        "incident": dt.date(2024, 5, 1),
        "taken": [
            {
                "step": "declare",
                "by": "animal_control_officer",
                "at": dt.date(2024, 5, 2),
                "inputs": {"designation": "potentially_dangerous", "basis": "bite"},
            },
            {
                "step": "seize",
                "by": "animal_control_officer",
                "at": dt.date(2024, 9, 10),
                "inputs": {"ground": "subsequent_violation"},
            },
        ],
    }
    state = replay(j, row)
    verdict = j.check_step(
        "post_security",
        state,
        actor_of(j, row, "animal_control_officer"),
        instant_of(j, dt.date(2024, 9, 11)),
    )
    reasons = {r.code: r.reason for r in verdict.refusals}
    assert not verdict.allowed
    assert reasons["not_empowered"] == "The law gives no one this step for a potentially dangerous dog."
    assert all("no one may" not in r.reason.lower() for r in verdict.refusals)
