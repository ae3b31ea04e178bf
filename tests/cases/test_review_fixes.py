"""Corrections stay within the case's own time and settle what they make wrong; tasks belong to roles;
a form token replays only its own author's act; overlong values are messages on the field."""

import pytest

from dogcase.cases import acts
from tests.cases.conftest import SERIOUS, at, on


def dangerous(story):
    s = story("battle-lake-mn", SERIOUS)
    s.step("declare", "officer", 0, designation="dangerous", basis="Serious bite")
    s.step(
        "serve_notice", "officer", 1, served_on=on(1), method="personal", served_owner="O", received_on=on(1)
    )
    return s


def test_a_correction_cannot_move_a_date_before_the_incident_or_after_the_act(story, staff):
    s = dangerous(story)
    served = s.case.events.get(act="serve_notice")
    for value, words in ((at(-30).date(), "before the incident"), (at(3).date(), "after the day")):
        with pytest.raises(acts.InvalidInput) as info:
            acts.correct_event_date(
                s.case,
                event=served,
                name="notice_date",
                value=value,
                reason="entered the wrong day",
                actor=staff["officer"],
                expected_version=s.case.version,
                at=at(4),
            )
        assert info.value.field == "value" and words in info.value.rule
    assert not s.case.events.filter(kind="correction").exists()


def test_a_correction_settles_the_tasks_it_makes_wrong(story, staff):
    s = story("battle-lake-mn")
    s.step("declare", "officer", 0, designation="potentially_dangerous", basis="Bite")
    s.step(
        "serve_notice", "officer", 1, served_on=on(1), method="personal", served_owner="O", received_on=on(1)
    )
    s.step("receive_hearing_request", "clerk", 3, received_on=on(3))
    s.step(
        "schedule_hearing",
        "clerk",
        4,
        hearing_at=at(5, 14).isoformat(),
        place="City Hall",
        hearing_officer=str(staff["hearing"].pk),
    )
    # a typo: the hearing, put off from day 5, was held on day 15 (a hearing held before its scheduled date is
    # refused, so the typo is a date on or after the scheduled one)
    s.step("hold_hearing", "hearing", 20, held_on=on(5))
    acts.sweep(at=at(21))
    decide = s.case.obligations.get(deadline_id="city.issue_decision")
    assert (
        decide.status == "overdue" and s.case.tasks.filter(obligation=decide, done_at__isnull=True).exists()
    )
    held = s.case.events.get(act="hold_hearing")
    acts.correct_event_date(
        s.case,
        event=held,
        name="hearing_closed",
        value=at(15).date(),
        reason="the hearing was held on day 15; day 5 was a typo",
        actor=staff["hearing"],
        expected_version=s.case.version,
        at=at(21, 12),
    )
    decide.refresh_from_db()
    assert decide.status == "open"
    assert not s.case.tasks.filter(obligation=decide, done_at__isnull=True).exists()
    assert s.case.tasks.filter(obligation=decide, done_by=staff["hearing"]).exists()


def test_a_task_is_done_only_by_its_role(story, staff):
    s = dangerous(story)
    acts.sweep(at=at(40))
    task = s.case.tasks.filter(text__startswith="Seizure authorized").first()
    with pytest.raises(acts.Refused):
        acts.complete_task(task, actor=staff["hearing"])
    done = acts.complete_task(task, actor=staff["officer"])
    assert done.done_by == staff["officer"]


def test_a_form_token_replays_only_for_its_author(story, staff):
    s = story("battle-lake-mn")
    acts.take_step(
        s.case,
        "declare",
        actor=staff["officer"],
        inputs={"designation": "dangerous", "basis": "x"},
        expected_version=s.case.version,
        idempotency_key="same",
        at=at(0, 11),
    )
    with pytest.raises(acts.InvalidInput) as info:
        acts.take_step(
            s.case,
            "declare",
            actor=staff["police"],
            inputs={"designation": "dangerous", "basis": "x"},
            expected_version=s.case.version,
            idempotency_key="same",
            at=at(0, 12),
        )
    assert info.value.field == "idempotency_key"


def test_an_overlong_value_is_a_message_on_its_field(staff, db):
    with pytest.raises(acts.InvalidInput) as info:
        acts.record_person(
            jurisdiction="tracy-mn",
            actor=staff["officer"],
            full_name="Pat",
            phone="(218) 864-5555 ext. 1234 — cell, evenings only",
        )
    assert info.value.field == "phone" and info.value.rule == "At most 40 characters (you wrote 46)"
