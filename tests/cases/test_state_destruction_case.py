"""347.56 in a whole case: a dog never declared is destroyed after notice and the owner's hearing opportunity
(notwithstanding 347.51 to 347.55), in a city whose own destruction clause ((K)) reaches declared dogs only."""

import pytest

from dogcase.cases.models import Dog
from tests.cases.conftest import SERIOUS, on


@pytest.mark.parametrize("city", ["battle-lake-mn", "tracy-mn"])
def test_a_dog_never_declared_is_destroyed_under_347_56_after_the_hearing_opportunity(story, city):
    s = story(city, SERIOUS)
    assert s.case.designation == ""
    early = s.refused("destroy", "officer", 2, facts="Mauled a child", unprovoked_harm=True)
    assert "waiting" in [r["code"] for r in early.refusals]
    assert any("347.56" in r["citation"] for r in early.refusals)
    s.step(
        "serve_destruction_notice",
        "officer",
        2,
        served_on=on(2),
        incident="Day 0: mauled a child without provocation; hospitalised",
        method="personal service",
    )
    window = s.obligation("owner.request_destruction_hearing")
    assert (window.who, str(window.due_date)) == ("owner", on(16))
    s.refused("destroy", "officer", 16, facts="Mauled a child", unprovoked_harm=True)
    s.step("destroy", "officer", 17, facts="Mauled a child; no hearing requested", unprovoked_harm=True)
    s.case.dog.refresh_from_db()
    assert s.case.dog.status == Dog.Status.DEAD
    assert s.case.designation == ""  # never declared


def test_the_owner_of_a_dog_destroyed_under_347_56_is_barred_after_a_conviction_on_the_closed_case(story):
    s = story("battle-lake-mn", SERIOUS)
    s.step(
        "serve_destruction_notice",
        "officer",
        2,
        served_on=on(2),
        incident="Day 0: mauled a child without provocation",
        method="personal service",
    )
    s.step("destroy", "officer", 17, facts="Mauled a child; no hearing requested", unprovoked_harm=True)
    assert s.case.status == "closed"
    # the dog's case is closed; the ban concerns the owner and follows the conviction (347.542)
    s.step(
        "record_conviction",
        "officer",
        40,
        person="Olive Owner",
        outcome="dog_destroyed_under_347.56_and_a_conviction",
        convicted_on=on(38),
        court="Otter Tail County District Court",
    )
    s.step("record_ownership_ban", "officer", 41, person="Olive Owner", household="Oscar Owner")
    review = s.obligation("owner.request_ban_review", 41)
    assert (review.kind, review.status) == ("not_before", "not_yet")
    assert str(review.due_date) == "2029-07-09"  # three years after the conviction of 2026-07-09
    early = s.refused("review_ownership_ban", "officer", 60, requested_on=on(60), outcome="lifted")
    assert [r["code"] for r in early.refusals] == ["not_yet"]
    # an act of the dog's case stays refused on the closed case
    closed = s.refused("serve_notice", "officer", 41)
    assert [r["code"] for r in closed.refusals] == ["closed"]
