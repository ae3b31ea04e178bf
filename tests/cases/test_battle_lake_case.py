"""Whole cases under § 90.15 (battle-lake-mn), from the incident to the end, through the legal acts."""

import pytest

from dogcase.cases import acts
from dogcase.cases.audit import verify_chain
from dogcase.cases.models import Case, Dog, Event
from tests.cases.conftest import SERIOUS, add_role, at, on

CITY = "battle-lake-mn"


def declared(story, designation="potentially_dangerous", facts=None, served_day=1):
    s = story(CITY, facts or (SERIOUS if designation == "dangerous" else None) or story.__defaults__[0])
    s.step("declare", "officer", 0, designation=designation, basis="Unprovoked bite, see incident report")
    s.step(
        "serve_notice",
        "officer",
        served_day,
        served_on=on(served_day),
        method="personal",
        served_owner="Olive Owner",
        received_on=on(served_day),
    )
    return s


def test_declaration_without_appeal_the_window_closes(story):
    s = declared(story)
    request = s.obligation("owner.request_hearing")
    assert request.who == "owner"
    assert str(request.due_date) == on(15)  # 14 days from the notice of June 2 -> June 16
    assert any("(H)" in c["citation"] or "(B)(2)(b)" in c["citation"] for c in request.citations)
    refused = s.refused("receive_hearing_request", "clerk", 16, received_on=on(16))
    assert [r["code"] for r in refused.refusals] == ["too_late"]
    assert refused.refusals[0]["citation"]
    assert s.case.designation_in_effect and s.case.status == Case.Status.OPEN
    assert verify_chain().ok


def appeal_to_decision(s, outcome, decided_day=20):
    s.step("receive_hearing_request", "clerk", 5, received_on=on(5))
    hold = s.obligation("city.hold_hearing")
    # 14 days after the request of June 6 is Saturday June 20, which rolls to Monday June 22 (645.15)
    assert (hold.who, str(hold.due_date)) == ("city", on(21))
    assert ",hearing_officer," in hold.staff_roles
    s.step(
        "schedule_hearing",
        "clerk",
        6,
        hearing_at=at(15, 14).isoformat(),
        place="City Hall",
        hearing_officer=str(s.staff["hearing"].pk),
    )
    s.step("hold_hearing", "hearing", 15, held_on=on(15), owner_present=True)
    decide = s.obligation("city.issue_decision")
    assert str(decide.due_date) == on(25)  # 10 days after the hearing
    s.step(
        "decide_appeal",
        "hearing",
        decided_day,
        outcome=outcome,
        method="registered_mail",
        copy_to_authority=True,
    )
    assert s.obligation("city.issue_decision").status == "met"
    s.step("recommend", "hearing", decided_day, outcome="confirm" if outcome == "upheld" else "rescind")
    # the owner's receipt of the decision is a later fact, recorded when the receipt comes back — and only for
    # an affirming decision: (C)(2)(d)'s 14 days run "if the hearing officer affirms"
    if outcome == "upheld":
        s.step("record_decision_receipt", "clerk", decided_day + 2, received_on=on(decided_day + 2))
    else:
        refused = s.refused(
            "record_decision_receipt", "clerk", decided_day + 2, received_on=on(decided_day + 2)
        )
        assert [r["code"] for r in refused.refusals] == ["outcome"]
        assert "city attorney" in refused.refusals[0]["reason"]


def test_appeal_upheld_and_confirmed_by_the_council(story):
    s = declared(story, "dangerous", SERIOUS)
    appeal_to_decision(s, "upheld")
    s.step("confirm_or_rescind", "council", 30, outcome="confirmed", resolution="Res. 2026-1")
    s.case.refresh_from_db()
    assert (s.case.designation, s.case.designation_in_effect, s.case.status) == ("dangerous", True, "open")
    comply = s.obligation("owner.comply_after_decision")
    assert str(comply.due_date) == on(36)  # 14 days from receipt of the decision (June 23 -> July 7)
    kinds = list(s.case.events.filter(kind=Event.Kind.STEP).values_list("act", flat=True))
    assert kinds == [
        "declare",
        "serve_notice",
        "receive_hearing_request",
        "schedule_hearing",
        "hold_hearing",
        "decide_appeal",
        "recommend",
        "record_decision_receipt",
        "confirm_or_rescind",
    ]


def test_appeal_rescinded_closes_the_case(story):
    s = declared(story)
    appeal_to_decision(s, "rescinded")
    s.step("confirm_or_rescind", "council", 30, outcome="rescinded")
    s.case.refresh_from_db()
    assert (s.case.designation_in_effect, s.case.status) == (False, Case.Status.CLOSED)
    assert not s.case.obligations.exclude(status__in=["withdrawn", "met"]).filter(who="city").exists()
    refused = s.refused("seize", "officer", 60, ground="not_registered")
    assert refused.refusals[0]["code"] == "closed"


def test_no_registration_then_seizure_then_reclaim(story):
    s = declared(story, "dangerous", SERIOUS)
    early = s.refused("seize", "officer", 5, ground="not_registered")
    assert "too_late" not in [r["code"] for r in early.refusals]
    assert any(r["citation"].startswith("§ 90.15 (J)(1)") for r in early.refusals)
    s.step("seize", "officer", 20, ground="not_registered", place="the owner's yard")
    assert s.obligation("owner.post_security").status == "open"
    proofs = [c for c in s.case.obligations.values_list("deadline_id", flat=True)]
    assert "owner.reclaim" in proofs
    s.step("release", "officer", 22, fees_paid=True, proofs=all_proofs(s, "release", 22))
    assert s.case.events.filter(act="release").count() == 1
    again = s.refused("release", "officer", 23, fees_paid=True, proofs=all_proofs(s, "release", 23))
    assert "wrong_state" in [r["code"] for r in again.refusals] or "missing_step" in [
        r["code"] for r in again.refusals
    ]


def all_proofs(s, step_id, day):
    from dogcase.law import library

    choices = library().get(CITY).input_choices(step_id, acts.case_state(s.case), at(day))
    return [c["value"] for c in choices["proofs"]]


def test_seizure_then_disposal_only_after_the_window(story):
    s = declared(story, "dangerous", SERIOUS)
    s.step("seize", "officer", 20, ground="not_registered")
    reclaim = s.obligation("owner.reclaim")
    too_soon = s.refused("dispose", "officer", 22)
    assert "waiting" in [r["code"] for r in too_soon.refusals]
    assert any("(J)(2)" in r["citation"] or "347.54" in r["citation"] for r in too_soon.refusals)
    late_day = (reclaim.due_date - at(0).date()).days + 1
    s.step("dispose", "officer", late_day)
    assert s.case.events.filter(act="dispose").exists()


def test_destruction_refused_before_the_hearing_opportunity(story):
    s = declared(story, "dangerous", SERIOUS)
    refused = s.refused("destroy", "officer", 3, facts="Severe attack", unprovoked_harm=True)
    assert "waiting" in [r["code"] for r in refused.refusals]
    assert any("(K)" in r["citation"] for r in refused.refusals)
    # (K), the owner-protective reading: the lapse of the appeal of the declaration is not the opportunity for
    # a hearing on the destruction — notice of the intended destruction must be served and its 14 days run
    still = s.refused(
        "destroy", "officer", 30, facts="Severe attack; no appeal was filed", unprovoked_harm=True
    )
    assert "waiting" in [r["code"] for r in still.refusals]
    assert not s.case.events.filter(act="destroy").exists()
    s.step(
        "serve_destruction_notice",
        "officer",
        30,
        served_on=on(30),
        contents="all",
        received_on=on(30),
        incident="Day 29: attacked a second person without provocation; stitches",
        method="personal service",
    )
    window = s.obligation("owner.request_destruction_hearing")
    assert (window.who, str(window.due_date)) == ("owner", on(44))
    s.refused("destroy", "officer", 44, facts="Severe attack", unprovoked_harm=True)
    s.step("destroy", "officer", 45, facts="Severe attack; no hearing requested", unprovoked_harm=True)
    s.case.dog.refresh_from_db()
    assert s.case.dog.status == Dog.Status.DEAD


def test_review_refused_before_six_months_and_granted_after(story):
    s = declared(story, "dangerous", SERIOUS)
    review = s.obligation("owner.request_review")
    assert review.kind == "not_before"
    assert str(review.due_date) == "2026-12-01"  # six months after the June 1 declaration
    early = s.refused(
        "review_designation", "officer", 150, requested_on=on(150), evidence="Training", outcome="continued"
    )
    assert [r["code"] for r in early.refusals] == ["not_yet"]
    assert "(C)(7)" in early.refusals[0]["citation"]
    s.step(
        "review_designation",
        "officer",
        190,
        requested_on=on(185),
        evidence="Completed training",
        outcome="continued",
    )
    assert s.case.events.filter(act="review_designation").count() == 1


def test_transfer_and_death_notices(story):
    s = declared(story)
    s.step("record_transfer", "officer", 40, transferred_on=on(38), new_owner="Nora New, 1 Elm St")
    s.case.dog.refresh_from_db()
    assert s.case.dog.status == Dog.Status.TRANSFERRED
    s.step("record_death", "officer", 60, died_on=on(58))
    s.case.refresh_from_db()
    s.case.dog.refresh_from_db()
    assert (s.case.dog.status, s.case.status) == (Dog.Status.DEAD, Case.Status.CLOSED)


def test_the_hearing_officer_who_declared_the_dog_may_not_hear_the_appeal(story, staff):
    both = staff["hearing"]
    add_role(both, "animal_control_officer")
    s = story(CITY)
    s.step("declare", both, 0, designation="potentially_dangerous", basis="Bite")
    s.step(
        "serve_notice",
        "officer",
        1,
        served_on=on(1),
        method="personal",
        served_owner="Olive",
        received_on=on(1),
    )
    s.step("receive_hearing_request", "clerk", 3, received_on=on(3))
    # the one who declared the dog is not designated to hold the hearing (impartiality, (I)(3))
    with pytest.raises(acts.InvalidInput) as info:
        s.step(
            "schedule_hearing",
            "clerk",
            4,
            hearing_at=at(10, 14).isoformat(),
            place="City Hall",
            hearing_officer=str(both.pk),
        )
    assert info.value.field == "hearing_officer"
    assert "already took part in the case (“Declare the dog" in info.value.rule
    assert "(§ 90.15 (I)(3))" in info.value.rule
    s.step(
        "schedule_hearing",
        "clerk",
        4,
        hearing_at=at(10, 14).isoformat(),
        place="City Hall",
        hearing_officer=str(staff["clerk"].pk),
    )
    refused = s.refused("hold_hearing", both, 10, held_on=on(10))
    assert "not_impartial" in [r["code"] for r in refused.refusals]
    assert any(r["citation"] for r in refused.refusals if r["code"] == "not_impartial")
    s.step("hold_hearing", "hearing" if False else staff["clerk"], 10, held_on=on(10))


def test_a_correction_recomputes_the_deadlines_and_is_audited(story, staff):
    s = story(CITY)
    s.step("declare", "officer", 0, designation="potentially_dangerous", basis="Bite")
    # recorded on day 5 as served on day 1; it was in fact served on day 3
    s.step(
        "serve_notice", "officer", 5, served_on=on(1), method="personal", served_owner="O", received_on=on(1)
    )
    before = s.obligation("owner.request_hearing").due_date
    served = s.case.events.get(act="serve_notice")
    result = acts.correct_event_date(
        s.case,
        event=served,
        name="notice_date",
        value=at(3).date(),
        reason="The notice was served on June 4, not June 2",
        actor=staff["officer"],
        expected_version=s.case.version,
        at=at(6),
    )
    s.case = result.case
    after = s.obligation("owner.request_hearing")
    assert before != after.due_date
    recompute = s.case.events.get(act="recompute_deadlines")
    assert any(c["deadline"] == "owner.request_hearing" for c in recompute.data["changed"])
    assert result.event.data["reason"].startswith("The notice")
    assert Event.objects.get(pk=served.pk).data["events"]["notice_date"] == on(1)  # the original is untouched
    assert verify_chain().ok


def test_a_double_submission_creates_one_event(story, staff):
    s = story(CITY)
    kwargs = dict(
        actor=staff["officer"],
        inputs={"designation": "potentially_dangerous", "basis": "Bite"},
        idempotency_key="form-123",
        at=at(0, 11),
    )
    first = acts.take_step(s.case, "declare", expected_version=s.case.version, **kwargs)
    second = acts.take_step(s.case, "declare", expected_version=s.case.version, **kwargs)
    assert second.replayed and second.event.pk == first.event.pk
    assert s.case.events.filter(act="declare").count() == 1


def test_two_people_acting_at_once_the_second_is_told(story, staff):
    s = story(CITY)
    stale = s.case.version
    s.step("declare", "officer", 0, designation="potentially_dangerous", basis="Bite")
    with pytest.raises(acts.StaleCase) as info:
        acts.take_step(
            s.case,
            "declare",
            actor=staff["police"],
            inputs={"designation": "dangerous", "basis": "x"},
            expected_version=stale,
            at=at(0, 12),
        )
    assert info.value.case.version == stale + 1
    assert "changed since you opened it" in str(info.value)
    assert s.case.events.filter(act="declare").count() == 1


def test_bad_input_names_the_field_and_saves_nothing(story):
    s = story(CITY)
    with pytest.raises(acts.InvalidInput) as info:
        s.step("declare", "officer", 0, designation="vicious", basis="Bite")
    assert info.value.field == "designation"
    s.case.refresh_from_db()
    assert (s.case.designation, s.case.version) == ("", 1)


def test_the_sweep_raises_overdue_obligations_and_what_the_law_attaches_once(story):
    s = declared(story, "dangerous", SERIOUS)
    first = acts.sweep(at=at(40))
    assert first.overdue >= 1
    texts = list(s.case.tasks.values_list("text", flat=True))
    assert any("sterilized" in t for t in texts)
    assert any(t.startswith("Seizure authorized under") for t in texts)
    again = acts.sweep(at=at(41))
    assert again.tasks_raised == 0
    assert s.case.tasks.count() == len(texts)
    # the owner's proof of sterilization meets the obligation and settles the tasks it had raised
    s.step("record_sterilization", "officer", 42, sterilized_on=on(41), veterinarian="Lakes Area Vet Clinic")
    sterilize = s.case.obligations.get(deadline_id="owner.sterilize")
    assert sterilize.status == "met" and sterilize.late
    open_tasks = s.case.tasks.filter(obligation=sterilize, done_at__isnull=True)
    assert not open_tasks.exists()
    assert s.case.tasks.filter(obligation=sterilize, done_by__username="officer").exists()
    seize_tasks = s.case.tasks.filter(text__startswith="Seizure authorized")
    assert all(",animal_control_officer," in t.staff_roles for t in seize_tasks)


def test_a_right_left_unused_lapses_and_raises_no_task(story):
    s = declared(story)
    acts.sweep(at=at(20))
    request = s.case.obligations.get(deadline_id="owner.request_hearing")
    assert request.status == "lapsed"
    assert not s.case.tasks.filter(obligation=request).exists()


def test_a_request_received_in_time_may_be_recorded_later(story):
    s = declared(story)
    # received on the last day (June 16), recorded by the clerk two days later
    s.step("receive_hearing_request", "clerk", 17, received_on=on(15))
    assert s.obligation("owner.request_hearing").status == "met"


def test_a_fact_date_in_the_future_is_refused_on_its_field(story):
    s = declared(story)
    with pytest.raises(acts.InvalidInput) as info:
        s.step("receive_hearing_request", "clerk", 5, received_on=on(6))
    assert info.value.field == "received_on"
    assert "cannot be after" in info.value.rule
    assert not s.case.events.filter(act="receive_hearing_request").exists()


def test_a_notice_missing_a_required_element_is_not_valid_service(story):
    from dogcase.law import library

    s = story(CITY)
    s.step("declare", "officer", 0, designation="dangerous", basis="Serious bite")
    choices = library().get(CITY).input_choices("serve_notice", acts.case_state(s.case), at(1))["contents"]
    cites = {c["provision"]["citation"] for c in choices}
    assert any("(C)(2)" in c for c in cites) and any("347.541" in c for c in cites)  # city and state elements
    assert not any("(B)(2)" == c for c in cites)  # the PDD notice's elements are not asked of a dangerous one
    missing = choices[-1]
    with pytest.raises(acts.InvalidInput) as info:
        s.step(
            "serve_notice",
            "officer",
            1,
            served_on=on(1),
            method="personal",
            served_owner="O",
            contents=[c["value"] for c in choices[:-1]],
        )
    assert info.value.field == "contents"
    assert missing["provision"]["citation"] in info.value.rule
    assert not s.case.events.filter(act="serve_notice").exists()
