"""A declaration and a Council decision recorded after the day they were made: their date is the day given
(`declared_on`, `decided_on`), and the clocks they start run from it."""

import datetime as dt

from dogcase.cases import acts
from dogcase.cases.models import Obligation
from tests.cases.conftest import SERIOUS, on

CITY = "battle-lake-mn"


def test_a_declaration_recorded_later_is_dated_the_day_it_was_made(story):
    s = story(CITY, SERIOUS)
    s.step("declare", "officer", 5, designation="dangerous", basis="Unprovoked attack", declared_on=on(0))
    recorded = acts.case_state(s.case).taken[-1].events["declaration"]
    assert recorded.isoformat() == on(0)
    sterilize = Obligation.objects.get(case=s.case, deadline_id="owner.sterilize")
    # 30 days from the declaration (§ 347.52 (d)), not from the day it was recorded
    assert sterilize.due_date - dt.date.fromisoformat(on(0)) <= dt.timedelta(days=33)
    assert sterilize.due_date - dt.date.fromisoformat(on(0)) >= dt.timedelta(days=30)


def test_without_the_date_the_declaration_is_dated_when_recorded(story):
    s = story(CITY, SERIOUS)
    s.step("declare", "officer", 5, designation="dangerous", basis="Unprovoked attack")
    assert acts.case_state(s.case).taken[-1].events["declaration"].isoformat() == on(5)
