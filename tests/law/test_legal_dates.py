"""Legal dates, fact dates, rights and the proof checklist (docs/procedure.md).

- A step is judged by its legal date — the date of the fact it records (its first past-fact input, or the one
  `dated_by` names) — not by when staff recorded it: for `within`, `from`, `after` and for met/late.
- A fact date may not be after the moment the step is recorded, nor before the incident; a `when: future`
  input (a scheduled date) is neither.
- A deadline with `right: true` is the owner's right: unused at the end of its time it is `lapsed`, not
  `overdue`, and carries no consequences.
- The proofs checklist flags exactly what the `proven: condition_of_registration` test demands.
"""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from dogcase.law import Actor, CaseState, InputError, TakenStep, library
from dogcase.law.errors import PackError

from .invented_packs import CITY, STATE
from .test_procedure import CITY_WITH_PROCEDURE, _load

CHICAGO = ZoneInfo("America/Chicago")
INCIDENT = dt.date(2024, 5, 1)


def noon(day: str) -> dt.datetime:
    return dt.datetime.combine(dt.date.fromisoformat(day), dt.time(12), tzinfo=CHICAGO)


def actor(j, staff: str) -> Actor:
    return Actor(staff, j.pack_roles_for([staff]))


def take(j, state: CaseState, step: str, by: str, day: str, **inputs) -> CaseState:
    """Take a step as the Django side does: validate, check, store; it must be allowed."""
    at = noon(day)
    cleaned = j.validate_inputs(step, state, inputs, at)
    verdict = j.check_step(step, state, actor(j, by), at, cleaned)
    assert verdict.allowed, [r.reason for r in verdict.refusals]
    designation = state.designation
    if verdict.step.opens_case:
        designation = cleaned["designation"]
    taken = TakenStep(
        step,
        at,
        by,
        outcome=cleaned.get("outcome"),
        events=j.events_of(step, at, cleaned),
        inputs=cleaned,
    )
    return CaseState(designation, state.incident_date, (*state.taken, taken), state.settings)


def noticed(designation: str = "potentially_dangerous") -> tuple:
    """Battle Lake: declared May 2, notice dated May 3 and received May 6 — the request is due May 20."""
    j = library().get("battle-lake-mn")
    state = CaseState(None, INCIDENT)
    state = take(
        j, state, "declare", "animal_control_officer", "2024-05-02", designation=designation, basis="bite"
    )
    state = take(
        j,
        state,
        "serve_notice",
        "animal_control_officer",
        "2024-05-06",
        served_on="2024-05-03",
        method="personal",
        served_owner="A. Owner",
        received_on="2024-05-06",
        contents="all",
    )
    return j, state


def owed(j, state: CaseState, day: str) -> dict:
    return {o.deadline_id: o for o in j.obligations(state, noon(day)) if o.deadline_id}


# ------------------------------------------------------------------------------------------ legal dates


def test_a_request_received_on_the_last_day_and_recorded_later_is_not_refused():
    j, state = noticed()
    assert owed(j, state, "2024-05-10")["owner.request_hearing"].due == dt.date(2024, 5, 20)
    clerk = actor(j, "city_clerk")
    on_time = j.check_step(
        "receive_hearing_request", state, clerk, noon("2024-05-22"), {"received_on": "2024-05-20"}
    )
    assert on_time.allowed, on_time.refusals
    late = j.check_step(
        "receive_hearing_request", state, clerk, noon("2024-05-22"), {"received_on": "2024-05-21"}
    )
    assert late.codes == ["too_late"]
    # the refusal names the last day the request could be received, in words
    assert "ended on Monday 20 May 2024" in late.refusals[0].reason


def test_without_the_form_a_passed_within_waits_for_the_fact_date():
    j, state = noticed()
    verdict = j.check_step("receive_hearing_request", state, actor(j, "city_clerk"), noon("2024-05-22"))
    assert verdict.allowed
    assert any("Date the City Clerk/Treasurer received the request" in n for n in verdict.needs_inputs)
    # a step with no fact input is still judged by `at`
    assert j.step("seize", dt.date(2024, 5, 22)).legal_input is None


def test_the_request_met_on_the_last_day_is_not_late_though_recorded_later():
    j, state = noticed()
    state = take(j, state, "receive_hearing_request", "city_clerk", "2024-05-22", received_on="2024-05-20")
    request = owed(j, state, "2024-05-23")["owner.request_hearing"]
    assert (request.status, request.late, request.met_by) == ("met", False, "receive_hearing_request")


@pytest.mark.parametrize(("sterilized_on", "late"), [("2024-06-03", False), ("2024-06-04", True)])
def test_met_late_is_judged_by_the_date_of_the_fact(sterilized_on, late):
    j, state = noticed("dangerous")
    assert owed(j, state, "2024-05-10")["owner.sterilize"].due == dt.date(2024, 6, 3)
    state = take(
        j,
        state,
        "record_sterilization",
        "animal_control_officer",
        "2024-06-10",
        sterilized_on=sterilized_on,
        veterinarian="Dr. V",
    )
    sterilize = owed(j, state, "2024-06-11")["owner.sterilize"]
    assert (sterilize.status, sterilize.late) == ("met", late)


def test_a_from_condition_is_judged_by_the_date_of_the_request():
    """(C)(7): review from six months after the declaration — the owner's request date counts, not the
    decision's."""
    j, state = noticed("dangerous")
    officer = actor(j, "animal_control_officer")
    form = {"evidence": "obedience training", "outcome": "rescinded"}
    early = j.check_step(
        "review_designation", state, officer, noon("2024-11-20"), {**form, "requested_on": "2024-10-30"}
    )
    assert early.codes == ["not_yet"]
    ok = j.check_step(
        "review_designation", state, officer, noon("2024-11-20"), {**form, "requested_on": "2024-11-04"}
    )
    assert ok.allowed, ok.refusals


def test_dated_by_picks_the_fact_that_meets_the_duty():
    """Tracy Subd 10: the owner's report is dated by when it was made, not by the escape it reports."""
    j = library().get("tracy-mn")
    step = j.step("receive_owner_report", dt.date(2026, 6, 1))
    assert step.legal_input.id == "reported_at"
    # the Council's decision is dated by the day it decided (Subd 5.F counts from it), not the owner's notification
    assert j.step("decide_classification_appeal", dt.date(2026, 6, 1)).legal_input.id == "decided_on"
    assert library().get("battle-lake-mn").step(
        "receive_hearing_request", dt.date(2026, 6, 1)
    ).legal_input.id == ("received_on")


def test_a_decision_is_dated_when_issued_and_its_receipt_recorded_when_known():
    j, state = noticed("dangerous")
    state = take(j, state, "receive_hearing_request", "city_clerk", "2024-05-08", received_on="2024-05-08")
    state = take(
        j,
        state,
        "schedule_hearing",
        "city_clerk",
        "2024-05-09",
        hearing_at="2024-05-16T18:00:00-05:00",  # a future date: when: future
        place="City Hall",
        hearing_officer="H. Officer",
        contents="all",
    )
    state = take(j, state, "hold_hearing", "hearing_officer", "2024-05-16", held_on="2024-05-16")
    with pytest.raises(InputError) as caught:
        j.validate_inputs(
            "decide_appeal", state, {"outcome": "upheld", "delivered_on": "2024-05-22"}, noon("2024-05-20")
        )
    assert caught.value.field == "inputs.delivered_on"
    state = take(j, state, "decide_appeal", "hearing_officer", "2024-05-20", outcome="upheld", contents="all")
    assert "owner.comply_after_decision" not in owed(j, state, "2024-05-21")
    state = take(j, state, "record_decision_receipt", "city_clerk", "2024-05-23", received_on="2024-05-22")
    found = owed(j, state, "2024-05-23")
    assert found["owner.comply_after_decision"].due == dt.date(2024, 6, 5)
    assert (found["city.issue_decision"].status, found["city.issue_decision"].late) == ("met", False)


# ------------------------------------------------------------------------------------------ fact dates


def test_a_fact_date_after_the_day_it_is_recorded_is_refused():
    j, state = noticed()
    with pytest.raises(InputError) as caught:
        j.validate_inputs("receive_hearing_request", state, {"received_on": "2024-05-23"}, noon("2024-05-22"))
    assert caught.value.field == "inputs.received_on"
    assert caught.value.rule.startswith("cannot be after the day it is recorded (")
    assert "2024" in caught.value.rule
    # the same day is fine
    assert j.validate_inputs(
        "receive_hearing_request", state, {"received_on": "2024-05-22"}, noon("2024-05-22")
    )


def test_a_fact_instant_after_the_moment_it_is_recorded_is_refused():
    j = library().get("tracy-mn")
    state = CaseState("vicious", dt.date(2026, 5, 1))
    at = dt.datetime(2026, 6, 1, 10, tzinfo=CHICAGO)
    form = {"happened_at": "2026-06-01T08:00:00-05:00", "what": "escaped"}
    with pytest.raises(InputError) as caught:
        j.validate_inputs(
            "receive_owner_report", state, {**form, "reported_at": "2026-06-01T11:00:00-05:00"}, at
        )
    assert caught.value.field == "inputs.reported_at"
    assert caught.value.rule.startswith("cannot be after the time it is recorded")
    assert j.validate_inputs(
        "receive_owner_report", state, {**form, "reported_at": "2026-06-01T09:00:00-05:00"}, at
    )


def test_a_fact_date_before_the_incident_is_refused():
    j, state = noticed()
    with pytest.raises(InputError) as caught:
        j.validate_inputs("receive_hearing_request", state, {"received_on": "2024-04-30"}, noon("2024-05-22"))
    assert caught.value.field == "inputs.received_on"
    assert "before the incident" in caught.value.rule


def test_check_step_applies_the_fact_date_rules_too():
    j, state = noticed()
    with pytest.raises(InputError, match="cannot be after the day it is recorded"):
        j.check_step(
            "receive_hearing_request",
            state,
            actor(j, "city_clerk"),
            noon("2024-05-10"),
            {"received_on": "2024-05-12"},
        )


def test_a_scheduled_date_may_lie_ahead_and_does_not_date_the_step():
    j, state = noticed()
    step = j.step("schedule_hearing", dt.date(2024, 5, 9))
    hearing_at = next(i for i in step.inputs if i.id == "hearing_at")
    assert (hearing_at.when, hearing_at.is_fact) == ("future", False)
    assert step.legal_input is None
    assert hearing_at.as_dict()["when"] == "future"


# ------------------------------------------------------------------------------------------ rights


def test_an_unused_right_lapses_and_a_missed_duty_is_overdue():
    j, state = noticed("dangerous")
    found = owed(j, state, "2024-06-10")
    request = found["owner.request_hearing"]
    assert (request.status, request.right, request.consequences) == ("lapsed", True, ())
    assert "right" in request.reason
    assert request.as_dict()["right"] is True
    sterilize = found["owner.sterilize"]
    assert (sterilize.status, sterilize.right) == ("overdue", False)
    assert sterilize.consequences
    # no hearing was asked for, so the city owes none: a lapsed right leaves no duty to hold one behind
    assert "city.hold_hearing" not in found


def test_a_right_still_running_is_open():
    j, state = noticed()
    assert owed(j, state, "2024-05-20")["owner.request_hearing"].status == "open"


@pytest.mark.parametrize(
    ("jurisdiction", "deadline", "right"),
    [
        ("mn-statute", "owner.request_hearing", True),
        ("mn-statute", "owner.request_review", True),
        ("mn-statute", "owner.request_ban_review", True),
        ("mn-statute", "owner.post_security", True),
        ("mn-statute", "owner.sterilize", False),
        ("mn-statute", "owner.comply_after_decision", False),
        ("mn-statute", "city.hold_hearing", False),
        ("battle-lake-mn", "owner.request_hearing", True),
        ("battle-lake-mn", "owner.request_review", True),
        ("battle-lake-mn", "owner.register", False),
        ("battle-lake-mn", "city.schedule_hearing", False),
        ("tracy-mn", "owner.request_hearing", True),
        ("tracy-mn", "owner.request_impoundment_hearing", True),
        ("tracy-mn", "owner.prove_insurance", False),
        ("tracy-mn", "owner.report_to_police", False),
        ("tracy-mn", "city.notify_impoundment", False),
    ],
)
def test_rights_and_duties_of_the_packs(jurisdiction, deadline, right):
    j = library().get(jurisdiction)
    assert j.deadline_plans[deadline].right is right


def test_a_lapsed_tracy_impoundment_hearing_right_has_no_consequences():
    j = library().get("tracy-mn")
    state = CaseState(
        "vicious",
        dt.date(2026, 5, 1),
        (
            TakenStep(
                "notify_impoundment",
                noon("2026-05-04"),
                "chief",
                events={"impoundment_notice_sent": dt.date(2026, 5, 4)},
            ),
        ),
    )
    request = owed(j, state, "2026-07-01")["owner.request_impoundment_hearing"]
    assert (request.status, request.consequences) == ("lapsed", ())


def test_a_right_on_a_city_deadline_is_refused_by_the_loader(tmp_path):
    city = CITY.replace(
        "      who: owner\n      what: request a hearing\n      trigger: notice_sent",
        "      who: city\n      right: true\n      what: request a hearing\n      trigger: notice_sent",
    )
    assert city != CITY
    with pytest.raises(PackError) as caught:
        _load(tmp_path, city)
    assert "right: true is for the owner's rights" in caught.value.message
    assert caught.value.file.endswith("south-city/pack.yaml")


def test_layers_must_agree_whether_a_deadline_is_a_right(tmp_path):
    city = CITY.replace(
        "      who: owner\n      what: request a hearing\n      trigger: notice_sent",
        "      who: owner\n      right: true\n      what: request a hearing\n      trigger: notice_sent",
    )
    assert city != CITY
    with pytest.raises(PackError, match="must agree whether it is a right"):
        _load(tmp_path, city)
    both = STATE.replace(
        "      who: owner\n      what: request a hearing\n      trigger: notice_date",
        "      who: owner\n      right: true\n      what: request a hearing\n      trigger: notice_date",
    )
    assert both != STATE
    (tmp_path / "both").mkdir()
    from .invented_packs import write_invented_packs

    folder = write_invented_packs(tmp_path / "both" / "packs")
    (folder / "north-state" / "pack.yaml").write_text(both, encoding="utf-8")
    (folder / "south-city" / "pack.yaml").write_text(city, encoding="utf-8")
    from dogcase.law.loader import Library

    assert Library(folder).get("south-city").deadline_plans["owner.request_hearing"].right


# ------------------------------------------------------------------------------------------ loader: when, dated_by


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "      - {id: sent_on, kind: date, label: Date sent, records: notice_sent}",
            "      - {id: sent_on, kind: date, label: Date sent, records: notice_sent, when: later}",
            "must be one of past",
        ),
        (
            "    inputs:\n      - {id: outcome, kind: outcome, label: Result, choices: [heard, dismissed]}",
            "    inputs:\n      - {id: outcome, kind: outcome, label: Result, choices: [heard, dismissed], when: future}",
            "when: is for a date or datetime input that records an event",
        ),
        (
            "    act: serve_notice\n",
            "    act: serve_notice\n    dated_by: note\n",
            "dated_by: 'note' must name a date or datetime input",
        ),
        (
            "      - {id: sent_on, kind: date, label: Date sent, records: notice_sent}",
            "      - {id: sent_on, kind: date, label: Date sent, records: notice_sent, when: future}\n"
            "    dated_by: sent_on",
            "dated_by: 'sent_on' must name",
        ),
    ],
)
def test_the_loader_checks_when_and_dated_by(tmp_path, old, new, message):
    assert old in CITY_WITH_PROCEDURE
    with pytest.raises(PackError) as caught:
        _load(tmp_path, CITY_WITH_PROCEDURE.replace(old, new, 1))
    assert message in caught.value.message, caught.value.message


def test_dated_by_at_and_an_input_load(tmp_path):
    text = CITY_WITH_PROCEDURE.replace(
        "    act: serve_notice\n", "    act: serve_notice\n    dated_by: at\n", 1
    )
    j = _load(tmp_path, text).get("south-city")
    assert j.step("send_notice", dt.date(2024, 6, 1)).legal_input is None
    text = CITY_WITH_PROCEDURE.replace(
        "    act: serve_notice\n", "    act: serve_notice\n    dated_by: sent_on\n", 1
    )
    j = _load(tmp_path / "again", text).get("south-city")
    assert j.step("send_notice", dt.date(2024, 6, 1)).legal_input.id == "sent_on"


# ------------------------------------------------------------------------------------------ proofs


def _certificate_case():
    j = library().get("battle-lake-mn")
    state = CaseState(
        "dangerous",
        INCIDENT,
        (
            TakenStep(
                "declare",
                noon("2024-05-02"),
                "aco",
                events={"declaration": dt.date(2024, 5, 2)},
                inputs={"designation": "dangerous", "basis": "bite"},
            ),
        ),
    )
    return j, state


def test_ticking_exactly_the_flagged_proofs_is_allowed():
    j, state = _certificate_case()
    at = noon("2024-05-20")
    proofs = j.input_choices("issue_certificate", state, at)["proofs"]
    flagged = [c["value"] for c in proofs if c["condition_of_registration"]]
    assert {"dangerous_dog_tag", "microchip"} <= set(flagged)  # (C)(5)(d), (C)(5)(f)
    assert "sterilization" not in flagged
    tag = next(c for c in proofs if c["value"] == "dangerous_dog_tag")
    assert "(C)(5)(d)" in tag["provision"]["citation"]
    cleaned = j.validate_inputs("issue_certificate", state, {"proofs": flagged}, at)
    verdict = j.check_step("issue_certificate", state, actor(j, "city_clerk"), at, cleaned)
    assert verdict.allowed, [r.reason for r in verdict.refusals]


@pytest.mark.parametrize("left_out", ["dangerous_dog_tag", "microchip", "warning_sign"])
def test_leaving_one_flagged_proof_out_is_refused_naming_it(left_out):
    j, state = _certificate_case()
    at = noon("2024-05-20")
    proofs = j.input_choices("issue_certificate", state, at)["proofs"]
    flagged = [c["value"] for c in proofs if c["condition_of_registration"]]
    wanted = next(c for c in proofs if c["value"] == left_out)
    verdict = j.check_step(
        "issue_certificate",
        state,
        actor(j, "city_clerk"),
        at,
        {"proofs": [p for p in flagged if p != left_out]},
    )
    assert verdict.codes == ["not_proven"]
    assert len(verdict.refusals) == 1
    assert wanted["label"] in verdict.refusals[0].reason
    assert verdict.refusals[0].provision["citation"] == wanted["provision"]["citation"]


@pytest.mark.parametrize("jurisdiction", ["battle-lake-mn", "mn-statute", "tracy-mn"])
def test_the_flag_and_the_proven_test_agree_everywhere(jurisdiction):
    j = library().get(jurisdiction)
    for step in j.procedure(dt.date(2026, 1, 1)):
        if not any(i.kind == "proofs" for i in step.inputs):
            continue
        for designation in step.for_ or j.designations:
            state = CaseState(designation, INCIDENT)
            field = next(i.id for i in step.inputs if i.kind == "proofs")
            choices = j.input_choices(step.id, state, noon("2026-01-05"))[field]
            flagged = {c["value"] for c in choices if c["condition_of_registration"]}
            demanded = set(j._procedure._registration_conditions(designation, dt.date(2026, 1, 5)))
            assert flagged == demanded, (step.id, designation)
