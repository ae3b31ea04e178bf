"""Dates on a case in order (docs/procedure.md, "Dates in order"): a date a form gives may not precede the
case's date of an event its own event cannot precede (packschema.EVENT_ORDER, and a pack's `event_order:`);
the refusal names the field and the earlier date."""

from __future__ import annotations

import pytest

from dogcase.law import Actor, CaseState, InputError, TakenStep, library
from dogcase.law.errors import PackError

from .test_legal_dates import INCIDENT, noon, noticed, take
from .test_procedure import CITY_WITH_PROCEDURE, _load


def requested(day: str = "2024-05-08"):
    j, state = noticed("dangerous")
    return j, take(j, state, "receive_hearing_request", "city_clerk", day, received_on=day)


def schedule(j, state, hearing_at: str, day: str = "2024-05-09"):
    return take(
        j,
        state,
        "schedule_hearing",
        "city_clerk",
        day,
        hearing_at=hearing_at,
        place="City Hall",
        hearing_officer="H. Officer",
        contents="all",
    )


def refusal(j, state, step: str, inputs: dict, day: str) -> InputError:
    with pytest.raises(InputError) as caught:
        j.validate_inputs(step, state, inputs, noon(day))
    return caught.value


def test_a_hearing_is_not_scheduled_before_the_request_it_answers():
    j, state = requested("2024-05-08")
    error = refusal(
        j,
        state,
        "schedule_hearing",
        {
            "hearing_at": "2024-05-07T10:00:00-05:00",
            "place": "City Hall",
            "hearing_officer": "H",
            "contents": "all",
        },
        "2024-05-09",
    )
    assert error.field == "inputs.hearing_at"
    assert error.rule == "cannot be before receipt of the hearing request (Wednesday 8 May 2024)"
    schedule(j, state, "2024-05-08T16:00:00-05:00")  # the same day is fine


def test_a_hearing_is_not_scheduled_before_the_incident():
    j, state = requested()
    error = refusal(
        j,
        state,
        "schedule_hearing",
        {
            "hearing_at": "2024-04-30T10:00:00-05:00",
            "place": "City Hall",
            "hearing_officer": "H",
            "contents": "all",
        },
        "2024-05-09",
    )
    assert error.field == "inputs.hearing_at"
    assert error.rule == "cannot be before the incident of the case (Wednesday 1 May 2024)"
    assert state.incident_date == INCIDENT


def test_a_hearing_is_not_held_before_its_scheduled_date_a_new_date_is_a_correction():
    j, state = requested()
    state = schedule(j, state, "2024-05-16T18:00:00-05:00")
    error = refusal(j, state, "hold_hearing", {"held_on": "2024-05-15"}, "2024-05-17")
    assert error.field == "inputs.held_on"
    assert error.rule.startswith(
        "cannot be before the scheduled hearing (6:00 p.m. CDT on Thursday 16 May 2024)"
    )
    assert "correct the scheduled date first" in error.rule and "with the reason" in error.rule
    take(j, state, "hold_hearing", "hearing_officer", "2024-05-17", held_on="2024-05-16")


def test_a_notice_is_not_received_before_it_was_served():
    j = library().get("battle-lake-mn")
    state = take(
        j,
        CaseState(None, INCIDENT),
        "declare",
        "animal_control_officer",
        "2024-05-02",
        designation="dangerous",
        basis="bite",
    )
    inputs = {
        "served_on": "2024-05-06",
        "method": "personal",
        "served_owner": "A. Owner",
        "received_on": "2024-05-03",
        "contents": "all",
    }
    error = refusal(j, state, "serve_notice", inputs, "2024-05-06")
    assert error.field == "inputs.received_on"
    # the earlier date is given in the same form: the refusal says which field gave it
    assert (
        error.rule
        == "cannot be before the notice (Monday 6 May 2024, given in “Date of the notice (served)”)"
    )
    # and a receipt recorded later is held to the notice the case has
    state = take(
        j, state, "serve_notice", "animal_control_officer", "2024-05-06", **{**inputs, "received_on": None}
    )
    error = refusal(j, state, "record_notice_receipt", {"received_on": "2024-05-05"}, "2024-05-08")
    assert (error.field, error.rule) == (
        "inputs.received_on",
        "cannot be before the notice (Monday 6 May 2024)",
    )


def test_the_council_does_not_decide_before_the_recommendation():
    j, state = requested()
    state = schedule(j, state, "2024-05-16T18:00:00-05:00")
    state = take(j, state, "hold_hearing", "hearing_officer", "2024-05-16", held_on="2024-05-16")
    state = take(j, state, "decide_appeal", "hearing_officer", "2024-05-20", outcome="upheld", contents="all")
    state = take(j, state, "recommend", "hearing_officer", "2024-05-21", outcome="confirm")
    error = refusal(
        j, state, "confirm_or_rescind", {"outcome": "confirmed", "decided_on": "2024-05-20"}, "2024-05-28"
    )
    assert (error.field, error.rule) == (
        "inputs.decided_on",
        "cannot be before the recommendation (Tuesday 21 May 2024)",
    )
    take(
        j,
        state,
        "confirm_or_rescind",
        "council_clerk",
        "2024-05-28",
        outcome="confirmed",
        decided_on="2024-05-27",
    )


EXTRA_ORDER = CITY_WITH_PROCEDURE.replace(
    "      - {id: outcome, kind: outcome, label: Result, choices: [heard, dismissed]}\n",
    "      - {id: outcome, kind: outcome, label: Result, choices: [heard, dismissed]}\n"
    "      - {id: received_on, kind: date, label: Date received, records: hearing_request_received}\n",
).replace(
    "procedure:\n",
    "event_order:\n"
    '  - {event: hearing_request_received, not_before: [notice_sent], provision: "1.b",\n'
    "     why: the owner asks for a hearing on the notice}\n"
    "procedure:\n",
)


def test_a_pack_states_an_ordering_of_its_own(tmp_path):
    j = _load(tmp_path, EXTRA_ORDER).get("south-city")
    state = CaseState(None, INCIDENT.replace(year=2024, month=6))
    marshal = Actor("m1", frozenset({"marshal"}))
    for step, day, inputs in (
        ("declare", "2024-06-02", {"designation": "nuisance"}),
        ("send_notice", "2024-06-05", {"sent_on": "2024-06-05"}),
    ):
        cleaned = j.validate_inputs(step, state, inputs, noon(day))
        assert j.check_step(step, state, marshal, noon(day), cleaned).allowed
        taken = TakenStep(step, noon(day), "m1", events=j.events_of(step, noon(day), cleaned), inputs=cleaned)
        state = CaseState(
            cleaned.get("designation", state.designation), state.incident_date, (*state.taken, taken)
        )
    error = refusal(
        j, state, "receive_request", {"outcome": "heard", "received_on": "2024-06-04"}, "2024-06-06"
    )
    assert error.field == "inputs.received_on"
    assert error.rule == (
        "cannot be before the sending of the notice (Wednesday 5 June 2024): the owner asks for a hearing on the "
        "notice (South City Code § 1(b))"
    )


def test_a_pack_ordering_names_events_and_provisions_that_exist(tmp_path):
    broken = EXTRA_ORDER.replace("not_before: [notice_sent]", "not_before: [notice_snet]")
    with pytest.raises(PackError) as caught:
        _load(tmp_path, broken)
    assert "notice_snet" in str(caught.value)
    broken = EXTRA_ORDER.replace('provision: "1.b",', 'provision: "9.z",')
    with pytest.raises(PackError) as caught:
        _load(tmp_path / "again", broken)
    assert "9.z" in str(caught.value)
