"""Service of a notice (dogcase/law/service.py and the packs' `service_of:` steps): the time starts from the
date the law ties to each service method, and not at all for a method the law does not name."""

from __future__ import annotations

import datetime as dt

import pytest

from dogcase.law import Actor, CaseState, TakenStep, library
from dogcase.law.service import service_rule, service_steps

D = dt.date


def _at(j, day: dt.date) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(12), tzinfo=j.tz)


def _take(j, state: CaseState, step_id: str, day: dt.date, by: str, **inputs) -> CaseState:
    """The case after the step, checked as the staff app takes it (a notice's contents, where the step still
    has a checklist of them, all present)."""
    at = _at(j, day)
    step = j.case_step(step_id, state, at)
    for item in step.inputs:
        if item.kind in ("notice_elements", "document"):
            inputs.setdefault(item.id, "all")
    cleaned = j.validate_inputs(step_id, state, inputs, at)
    verdict = j.check_step(step_id, state, Actor(by, j.pack_roles_for([by])), at, cleaned)
    assert verdict.allowed, [r.reason for r in verdict.refusals]
    designation = state.designation
    if step.opens_case:
        designation = cleaned["designation"]
    taken = TakenStep(
        step=step_id,
        at=at,
        actor=by,
        outcome=cleaned.get("outcome"),
        events=j.events_of(step_id, at, cleaned, state),
        inputs=cleaned,
    )
    return CaseState(designation, state.incident_date, (*state.taken, taken), state.settings)


def _due(j, state: CaseState, deadline_id: str, day: dt.date):
    found = [o for o in j.obligations(state, _at(j, day)) if o.deadline_id == deadline_id]
    return [o.due for o in found]


def _declared(pack: str, designation: str, step: str = "declare", by: str = "animal_control_officer"):
    j = library().get(pack)
    state = CaseState(None, D(2024, 5, 1), (), {})
    inputs = {"designation": designation}
    if pack == "tracy-mn":
        inputs["reasonable_cause"] = "bit a neighbour, Subd 1.B.2"
        by = "police_officer"
    else:
        inputs["basis"] = "bit a neighbour"
    return j, _take(j, state, step, D(2024, 5, 2), by, **inputs)


SERVED = D(2024, 5, 3)


def _battle_lake_served(designation: str, method: str, served_on: dt.date = SERVED, **extra):
    j, state = _declared("battle-lake-mn", designation)
    return j, _take(
        j,
        state,
        "serve_notice",
        served_on,
        "animal_control_officer",
        served_on=served_on,
        method=method,
        served_owner="A. Owner",
        **extra,
    )


# ------------------------------------------------------------------------------------------------ the rules


@pytest.mark.parametrize(
    ("designation", "method", "named", "starts"),
    [
        # (B)(2): "personally or by certified mail"
        ("potentially_dangerous", "personal", True, {("sent", "notice_date"), ("sent", "notice_received")}),
        (
            "potentially_dangerous",
            "certified_mail",
            True,
            {("sent", "notice_date"), ("received", "notice_received")},
        ),
        # a certified letter with a return receipt requested is certified mail
        (
            "potentially_dangerous",
            "certified_mail_return_receipt",
            True,
            {("sent", "notice_date"), ("received", "notice_received")},
        ),
        ("potentially_dangerous", "mail", False, set()),
        ("potentially_dangerous", "posting_where_dog_kept", False, set()),
        ("potentially_dangerous", "telephone_if_possible", False, set()),
        # (C)(2): personally, posting where the dog is kept, delivery to a resident; and telephoning, if possible
        ("dangerous", "posting_where_dog_kept", True, {("sent", "notice_date")}),
        ("dangerous", "delivery_to_resident", True, {("sent", "notice_date")}),
        ("dangerous", "certified_mail", False, set()),
        ("dangerous", "telephone_if_possible", False, set()),
    ],
)
def test_battle_lake_each_method_starts_what_90_15_ties_to_it(designation, method, named, starts):
    j = library().get("battle-lake-mn")
    rule = service_rule(
        j, "serve_notice", CaseState(designation, D(2024, 5, 1), (), {}), method, D(2024, 5, 3)
    )
    assert rule.named is named
    assert {(s.date, s.event) for s in rule.starts} >= starts
    if not named:
        assert rule.starts == ()
        assert rule.notice_citations.startswith("§ 90.15 (")
    assert rule.further_step == "record_further_service"
    assert rule.receipt_step == "record_notice_receipt"


def test_telephoning_is_an_additional_step_never_a_method_c2():
    j = library().get("battle-lake-mn")
    rule = service_rule(
        j,
        "serve_notice",
        CaseState("dangerous", D(2024, 5, 1), (), {}),
        "telephone_if_possible",
        D(2024, 5, 3),
    )
    assert rule.additional and not rule.named


def test_state_mail_takes_certified_and_registered_letters_as_mail_347_541():
    j = library().get("mn-statute")
    state = CaseState("dangerous", D(2024, 5, 1), (), {})
    for method in ("certified_mail", "registered_mail", "certified_mail_return_receipt"):
        rule = service_rule(j, "serve_notice", state, method, D(2024, 5, 3))
        assert rule.named and rule.served_as == "mail"
        assert {(s.date, s.event) for s in rule.starts} == {
            ("sent", "notice_date"),
            ("received", "notice_received"),
        }


def test_tracy_written_notice_names_no_method_and_only_certified_mail_rrr_starts_subd_4a():
    j = library().get("tracy-mn")
    state = CaseState("vicious", D(2024, 5, 1), (), {})
    rrr = service_rule(j, "notify_classification", state, "certified_mail_return_receipt", D(2024, 5, 3))
    assert rrr.open and rrr.named
    assert [(s.date, s.event) for s in rrr.starts] == [("sent", "notice_sent")]
    for method in ("mail", "certified_mail", "personal"):
        other = service_rule(j, "notify_classification", state, method, D(2024, 5, 3))
        assert other.named and other.starts == (), method
    assert rrr.receipt_step is None  # Subd 4.A counts from the sending: a return receipt starts nothing
    impound = service_rule(j, "notify_impoundment", state, "certified_mail_return_receipt", D(2024, 5, 3))
    assert [(s.date, s.event) for s in impound.starts] == [("sent", "impoundment_notice_sent")]


def test_every_service_of_names_a_step_of_its_jurisdiction():
    for pack_id in ("battle-lake-mn", "tracy-mn", "mn-statute"):
        j = library().get(pack_id)
        day = D(2024, 6, 1)
        ids = {s.id for s in j.procedure(day)}
        for step in j.procedure(day):
            if step.service_of:
                assert step.service_of in ids, (pack_id, step.id)
                further, receipt = service_steps(j, step.service_of, day)
                assert step.id in {getattr(further, "id", None), getattr(receipt, "id", None)}


# ------------------------------------------------------------------------------------------ the clocks run


def test_personal_delivery_starts_both_14_day_times_from_delivery_b2b_h():
    j, state = _battle_lake_served("potentially_dangerous", "certified_mail")
    state = _take(
        j,
        state,
        "record_further_service",
        D(2024, 5, 10),
        "animal_control_officer",
        method="personal",
        sent_on=D(2024, 5, 10),
    )
    assert state.events["notice_date"] == D(2024, 5, 10)
    assert state.events["notice_received"] == D(2024, 5, 10)
    # 14 days from 10 May 2024 (a Friday): 24 May
    assert D(2024, 5, 24) in _due(j, state, "owner.request_hearing", D(2024, 5, 11))


def test_certified_mail_returned_unclaimed_then_personal_delivery_starts_the_time_at_delivery():
    # mailed 3 May, unclaimed: no receipt, so (H) cannot run; handed over on 20 May
    j, state = _battle_lake_served("potentially_dangerous", "certified_mail")
    assert "notice_received" not in state.events
    assert _due(j, state, "owner.request_hearing", D(2024, 5, 18)).count(None) >= 1  # (H) undetermined
    state = _take(
        j,
        state,
        "record_further_service",
        D(2024, 5, 20),
        "animal_control_officer",
        method="personal",
        sent_on=D(2024, 5, 20),
    )
    dues = _due(j, state, "owner.request_hearing", D(2024, 5, 21))
    assert dues and all(d == D(2024, 6, 3) for d in dues), dues  # 14 days from 20 May: 3 June


def test_green_card_date_records_receipt_of_certified_mail_h():
    j, state = _battle_lake_served("potentially_dangerous", "certified_mail")
    state = _take(
        j, state, "record_notice_receipt", D(2024, 5, 8), "animal_control_officer", received_on=D(2024, 5, 7)
    )
    assert state.events["notice_received"] == D(2024, 5, 7)
    assert state.events["notice_date"] == D(2024, 5, 3)
    # (B)(2)(b) from 3 May: 17 May; (H) from 7 May: 21 May — both computed, the owner keeps the later
    dues = set(_due(j, state, "owner.request_hearing", D(2024, 5, 8)))
    assert D(2024, 5, 21) in dues


def test_a_method_90_15_b2_does_not_name_is_refused_by_the_further_service_step():
    from dogcase.law import InputError

    j, state = _battle_lake_served("potentially_dangerous", "personal")
    with pytest.raises(InputError):
        j.validate_inputs(
            "record_further_service",
            state,
            {"method": "mail", "sent_on": D(2024, 5, 9)},
            _at(j, D(2024, 5, 9)),
        )


def test_posting_where_the_dog_is_kept_dates_the_notice_but_records_no_receipt_c2():
    j, state = _declared("battle-lake-mn", "dangerous")
    state = _take(
        j,
        state,
        "serve_notice",
        D(2024, 5, 3),
        "animal_control_officer",
        served_on=D(2024, 5, 3),
        method="personal",
        served_owner="A. Owner",
        received_on=D(2024, 5, 3),
    )
    state = _take(
        j,
        state,
        "record_further_service",
        D(2024, 5, 9),
        "animal_control_officer",
        method="posting_where_dog_kept",
        sent_on=D(2024, 5, 9),
    )
    assert state.events["notice_date"] == D(2024, 5, 9)
    assert state.events["notice_received"] == D(2024, 5, 3)  # the earlier delivery stays the receipt


def test_tracy_further_notice_by_certified_mail_rrr_starts_the_five_business_days_subd_4a():
    j, state = _declared("tracy-mn", "vicious", step="classify")
    state = _take(
        j,
        state,
        "notify_classification",
        D(2024, 5, 3),
        "police_officer",
        sent_on=D(2024, 5, 3),
        certified_mail=False,
    )
    assert "notice_sent" not in state.events
    ordinary = _take(
        j,
        state,
        "record_further_classification_notice",
        D(2024, 5, 6),
        "police_officer",
        method="mail",
        sent_on=D(2024, 5, 6),
    )
    assert "notice_sent" not in ordinary.events  # ordinary mail starts nothing
    certified = _take(
        j,
        state,
        "record_further_classification_notice",
        D(2024, 5, 6),
        "police_officer",
        method="certified_mail_return_receipt",
        sent_on=D(2024, 5, 6),
    )
    assert certified.events["notice_sent"] == D(2024, 5, 6)
    # five business days after Monday 6 May 2024: Monday 13 May
    assert _due(j, certified, "owner.request_hearing", D(2024, 5, 7)) == [D(2024, 5, 13)]
