"""Whole cases under Tracy § 8.31 (vicious dogs), through the legal acts."""

from dogcase.cases import acts
from dogcase.cases.models import Case, Dog
from tests.cases.conftest import BITE, on

CITY = "tracy-mn"


def classified(story, day=0):
    s = story(CITY, BITE, day)
    s.step("classify", "clerk", day, designation="vicious", reasonable_cause="Unprovoked bite, two witnesses")
    return s


def test_notice_of_classification_is_due_within_three_calendar_days(story):
    s = classified(story)
    notice = s.obligation("city.notify_classification")
    assert (notice.who, str(notice.due_date)) == ("city", on(3))
    assert any("Subd 3" in c["citation"] for c in notice.citations)
    s.step("notify_classification", "clerk", 1, sent_on=on(1), certified_mail=True)
    assert s.obligation("city.notify_classification").status == "met"


def test_hearing_request_after_five_business_days_is_refused(story):
    s = classified(story)
    s.step("notify_classification", "clerk", 0, sent_on=on(0), certified_mail=True)
    window = s.obligation("owner.request_hearing")
    # sent Monday June 1: five business days are June 2-5 and Monday June 8
    assert str(window.due_date) >= on(7)
    late = (window.due_date - s.case.opened_at.date()).days + 1
    refused = s.refused("receive_classification_appeal", "clerk", late, received_on=on(late))
    assert "too_late" in [r["code"] for r in refused.refusals]


def test_council_hearing_and_final_decision(story):
    s = classified(story)
    s.step("notify_classification", "clerk", 0, sent_on=on(0), certified_mail=True)
    s.step("receive_classification_appeal", "clerk", 2, received_on=on(2))
    hold = s.obligation("city.hold_hearing")
    assert str(hold.due_date) == on(9)  # 7 calendar days after the request
    assert ",council_clerk," in hold.staff_roles
    s.step("hold_classification_hearing", "council", 6, held_on=on(6))
    assert str(s.obligation("city.issue_decision").due_date) == on(9)  # 3 days after the close
    s.step("decide_classification_appeal", "council", 7, outcome="upheld", notified_on=on(7))
    s.case.refresh_from_db()
    assert s.case.designation_in_effect and s.case.status == Case.Status.OPEN


def test_owner_not_found_immediate_impoundment_then_default_order(story):
    s = classified(story)
    s.step(
        "post_notice_owner_not_located",
        "clerk",
        0,
        sent_on=on(0),
        method="posting_on_owner_property",
        search="Knocked on doors on Morgan Street; no licence on file",
    )
    s.step("impound", "police", 0, ground="owner_not_located", place="Swift Lake Park")
    notify = s.obligation("city.notify_impoundment")
    assert str(notify.due_date) == on(3)
    s.step("notify_impoundment", "clerk", 1, sent_on=on(1), certified_mail=True)
    early = s.refused("order_after_default", "council", 3, outcome="destroy")
    assert "waiting" in [r["code"] for r in early.refusals]
    s.step(
        "order_after_default",
        "council",
        12,
        outcome="transfer_to_responsible_person",
        responsible_person="Tracy Humane Society foster",
    )
    s.step(
        "transfer_to_responsible_person",
        "council",
        13,
        new_owner="Jo Foster, 3 Elm St",
        transferred_on=on(13),
    )
    s.case.dog.refresh_from_db()
    assert s.case.dog.status == Dog.Status.TRANSFERRED


def test_destruction_needs_the_councils_order_after_a_hearing_or_default(story):
    s = classified(story)
    s.step(
        "post_notice_owner_not_located",
        "clerk",
        0,
        sent_on=on(0),
        method="certified_mail_return_receipt",
        search="No owner found",
    )
    s.step("impound", "police", 0, ground="owner_not_located")
    refused = s.refused("destroy_impounded_dog", "officer", 2)
    assert refused.refusals and all(r["citation"] for r in refused.refusals)
    assert not s.case.events.filter(act="destroy_impounded_dog").exists()


def test_the_sale_or_transfer_of_a_vicious_dog_is_refused(story):
    s = classified(story)
    refused = s.refused("record_vicious_transfer", "clerk", 5, transferred_on=on(5), new_owner="Buyer")
    assert "prohibited" in [r["code"] for r in refused.refusals]
    assert any("5.E" in r["citation"] for r in refused.refusals)


def test_classification_by_someone_the_ordinance_does_not_empower_is_refused(story):
    s = story(CITY)
    for who in ("officer", "hearing", "council"):
        refused = s.refused("classify", who, 0, designation="vicious", reasonable_cause="x")
        assert "not_empowered" in [r["code"] for r in refused.refusals], who
        assert any("Subd 2" in r["citation"] for r in refused.refusals), who
    s.step("classify", "police", 0, designation="vicious", reasonable_cause="Chief of Police")


def test_owner_report_within_one_hour_is_an_elapsed_time_clock(story):
    s = classified(story)
    s.step("notify_classification", "clerk", 0, sent_on=on(0), certified_mail=True)
    s.step(
        "record_escape_or_attack", "police", 3, happened_at=f"{on(3)}T10:00:00-05:00", what="Loose on 4th St"
    )
    report = s.obligation("owner.report_to_police")
    assert report.due_at is not None and report.due_at.isoformat().startswith(f"{on(3)}T16:00")


def test_a_user_of_another_city_cannot_act(story, make_staff_user):
    import pytest
    from django.core.exceptions import PermissionDenied

    s = classified(story)
    outsider = make_staff_user("city_clerk", username="bl-clerk", cities=("battle-lake-mn",))
    with pytest.raises(PermissionDenied):
        acts.take_step(
            s.case,
            "notify_classification",
            actor=outsider,
            inputs={"sent_on": on(1)},
            expected_version=s.case.version,
        )


def test_without_certified_mail_the_owners_five_business_days_do_not_start(story):
    s = classified(story)
    s.step("notify_classification", "clerk", 0, sent_on=on(0), certified_mail=False)
    assert s.obligation("city.notify_classification").status == "met"
    window = s.obligation("owner.request_hearing")
    # the state's 14 days (347.541) are known; the city's five business days have not started
    assert window.status == "undetermined"
    # weeks later the owner's request is still in time: Subd 4.A's clock never started
    s.step("receive_classification_appeal", "clerk", 30, received_on=on(30))
    assert s.case.events.filter(act="receive_classification_appeal").exists()


def test_by_certified_mail_the_five_business_days_run_from_the_day_it_was_sent(story):
    s = classified(story)
    s.step("notify_classification", "clerk", 0, sent_on=on(0), certified_mail=True)
    window = s.obligation("owner.request_hearing")
    # Subd 4.A's five business days end Monday June 8; 347.541's 14 days concern a dangerous declaration and
    # do not reach a vicious classification (they used to, through state_counterpart: no longer)
    assert str(window.due_date) == "2026-06-08"
