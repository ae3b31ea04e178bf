"""No step is offered that is already done or bound to be refused, and citations are listed once (issue 10,
item 5)."""

import pytest
from django.test import Client

from dogcase.cases.models import Event
from tests.cases.conftest import BITE, SERIOUS, Story, at, on

pytestmark = pytest.mark.django_db


@pytest.fixture
def story(staff, db):
    return lambda city, facts=BITE, day=0: Story(staff, city, facts, day)


def page(user, case):
    client = Client()
    client.force_login(user)
    response = client.get(f"/cases/{case.number}")
    assert response.status_code == 200
    return response


def offered(response) -> set[str]:
    return {s["id"] for s in response.context["allowed_steps"]}


def refused(response, step_id: str) -> list[str]:
    row = next(s for s in response.context["refused_steps"] if s["id"] == step_id)
    return [r["reason"] for r in row["refusals"]]


def decided(story, **decision):
    s = story("battle-lake-mn", SERIOUS)
    s.step("declare", "officer", 0, designation="dangerous", basis="Serious bite")
    s.step(
        "serve_notice", "officer", 1, served_on=on(1), method="personal", served_owner="O", received_on=on(1)
    )
    s.step("receive_hearing_request", "clerk", 5, received_on=on(5))
    s.step(
        "schedule_hearing",
        "clerk",
        6,
        hearing_at=at(15, 14).isoformat(),
        place="City Hall",
        hearing_officer=str(s.staff["hearing"].pk),
    )
    s.step("hold_hearing", "hearing", 15, held_on=on(15))
    s.step("decide_appeal", "hearing", 20, outcome="upheld", **decision)
    return s


def test_the_receipt_of_the_decision_is_not_offered_once_the_decision_recorded_it(story, staff):
    s = decided(story, method="registered_mail", delivered_on=on(20))
    response = page(staff["clerk"], s.case)
    assert "record_decision_receipt" not in offered(response)
    assert any("already on record" in reason for reason in refused(response, "record_decision_receipt"))


def test_the_receipt_of_the_decision_is_offered_when_the_decision_did_not_record_it(story, staff):
    s = decided(story, method="registered_mail")
    assert "record_decision_receipt" in offered(page(staff["clerk"], s.case))


def classified(story):
    s = story("tracy-mn", BITE)
    s.step("classify", "clerk", 0, designation="vicious", reasonable_cause="Unprovoked bite, two witnesses")
    return s


def test_tracy_impoundment_is_not_offered_right_after_the_classification(story, staff):
    s = classified(story)
    response = page(staff["police"], s.case)
    assert "impound" not in offered(response)
    reasons = refused(response, "impound")
    assert any("City Council's order" in r for r in reasons)
    assert any("finding must be on record first" in r for r in reasons)


def test_tracy_impoundment_is_offered_once_the_owner_cannot_be_located_is_on_record(story, staff):
    s = classified(story)
    s.step(
        "post_notice_owner_not_located",
        "clerk",
        0,
        sent_on=on(0),
        method="posting_on_owner_property",
        search="Knocked on doors on Morgan Street; no licence on file",
    )
    assert "impound" in offered(page(staff["police"], s.case))


def test_citations_are_listed_once(story, staff):
    s = story("battle-lake-mn", SERIOUS)
    s.step("declare", "officer", 0, designation="dangerous", basis="Serious bite")
    s.step(
        "serve_notice", "officer", 1, served_on=on(1), method="personal", served_owner="O", received_on=on(1)
    )
    s.step("receive_hearing_request", "clerk", 5, received_on=on(5))
    event = s.case.events.get(act="receive_hearing_request", kind=Event.Kind.STEP)
    cited = event.citation.split("; ")
    assert cited.count("§ 90.15 (H)") == 1 and len(cited) == len(set(cited))
    html = page(staff["clerk"], s.case).content.decode()
    assert "§ 90.15 (H); § 90.15 (H)" not in html
    for row in page(staff["hearing"], s.case).context["timeline"]:
        parts = row["citation"].split("; ")
        assert len(parts) == len(set(parts)), row["citation"]


def test_an_act_recorded_with_repeated_citations_shows_each_once(story, staff):
    from dogcase.staff.views.cases import timeline

    s = story("battle-lake-mn", SERIOUS)
    s.step("declare", "officer", 0, designation="dangerous", basis="Serious bite")
    event = s.case.events.get(act="declare", kind=Event.Kind.STEP)
    event.citation = "§ 90.15 (B)(1); § 90.15 (B)(1)"  # as an act recorded before stored it (never saved)
    (row,) = timeline([event], may_correct=False)
    assert row["citation"] == "§ 90.15 (B)(1)"
