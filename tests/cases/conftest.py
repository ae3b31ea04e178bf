"""Named actors and a small story-teller for whole-case tests: every record and act goes through
dogcase.cases.acts with an explicit `at`, so the clocks are exact and nothing depends on today."""

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth.models import Group

from dogcase.cases import acts
from dogcase.demo import with_complete_notices
from dogcase.documents import acts as document_acts

CT = ZoneInfo("America/Chicago")
# A Monday, clear of holidays for weeks either side (Memorial Day 2026 is May 25, Juneteenth June 19).
DAY0 = dt.date(2026, 6, 1)

BITE = {
    "bit": True,
    "attacked": True,
    "victim": "human",
    "injury": "minor",
    "place": "public",
    "provoked": False,
    "victim_conduct": [],
    "law_enforcement_dog": False,
    "aggressive": True,
}
SERIOUS = {**BITE, "injury": "substantial_bodily_harm"}


def at(day: int, hour: int = 10, minute: int = 0) -> dt.datetime:
    """An instant `day` days after DAY0, Minnesota time."""
    return dt.datetime.combine(DAY0 + dt.timedelta(days=day), dt.time(hour, minute), tzinfo=CT)


def on(day: int) -> str:
    return (DAY0 + dt.timedelta(days=day)).isoformat()


def add_role(user, group: str) -> None:
    user.groups.add(Group.objects.get_or_create(name=group)[0])
    user.__dict__.pop("_dogcase_roles", None)  # the roles are cached per user object


class Story:
    """A case under way: `step()` takes the next act and keeps the case (and its version) current."""

    def __init__(self, staff, city: str, facts: dict, day: int = 0) -> None:
        self.staff = staff
        officer = staff["officer"]
        owner = acts.record_person(jurisdiction=city, actor=officer, full_name="Olive Owner", at=at(day, 9))
        self.dog = acts.record_dog(
            jurisdiction=city, actor=officer, owners=[owner], name="Rex", at=at(day, 9)
        )
        self.incident = acts.record_incident(
            jurisdiction=city,
            actor=officer,
            occurred_at=at(day, 8),
            place="Main Street",
            place_type=facts["place"],
            kind="bite",
            dogs=[self.dog],
            facts=facts,
            victims=[{"kind": "human", "name": "Val Victim", "injury": facts.get("injury", "minor")}],
            at=at(day, 9),
        )
        self.case = acts.open_case(incident=self.incident, dog=self.dog, actor=officer, at=at(day, 9, 30))

    def step(self, step_id: str, who: str, day: int, hour: int = 11, **inputs):
        # a notice served is complete unless the test says what it lacks; the procedure alone, no document
        # rendered (tests/documents take steps with their documents)
        inputs = with_complete_notices(self.case, step_id, at(day, hour), inputs)
        result = document_acts.take_step_without_issuing(
            self.case,
            step_id,
            actor=self.staff[who] if isinstance(who, str) else who,
            inputs=inputs,
            expected_version=self.case.version,
            at=at(day, hour),
        )
        self.case = result.case
        return result.event

    def refused(self, step_id: str, who: str, day: int, hour: int = 11, **inputs) -> acts.Refused:
        with pytest.raises(acts.Refused) as info:
            self.step(step_id, who, day, hour, **inputs)
        return info.value

    def obligation(self, deadline_id: str, day: int | None = None):
        if day is not None:
            acts.recompute_obligations(self.case, at=at(day, 12))
        return self.case.obligations.get(deadline_id=deadline_id)


@pytest.fixture
def story(staff, db):
    def make(city: str, facts: dict = BITE, day: int = 0) -> Story:
        return Story(staff, city, facts, day)

    return make
