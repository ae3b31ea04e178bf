"""The owner's side: a Battle Lake case served on its owner, with the story-teller of the case tests."""

import pytest

from dogcase.cases.models import Person
from tests.cases.conftest import Story, at, on, story  # noqa: F401  (the story fixture)

CITY = "battle-lake-mn"


def served(story, designation: str = "potentially_dangerous", served_day: int = 1) -> Story:  # noqa: F811
    """Declared on DAY0 and served in person on day 1 (June 2, 2026): the owner's 14 days to ask for a hearing
    end on day 15 (June 16)."""
    s = story(CITY)
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


def served_recently(story, designation: str = "potentially_dangerous") -> Story:  # noqa: F811
    """Declared and served in person yesterday (the portal's pages work with today's date)."""
    from django.utils import timezone

    from tests.cases.conftest import DAY0

    yesterday = (timezone.localdate() - DAY0).days - 1
    s = story(CITY, day=yesterday - 1)
    s.step(
        "declare",
        "officer",
        yesterday,
        9,
        designation=designation,
        basis="Unprovoked bite, see incident report",
    )
    s.step(
        "serve_notice",
        "officer",
        yesterday,
        10,
        served_on=on(yesterday),
        method="personal",
        served_owner="Olive Owner",
        received_on=on(yesterday),
    )
    return s


def owner_of(s: Story) -> Person:
    return Person.objects.get(ownerships__dog=s.dog, full_name="Olive Owner")


@pytest.fixture
def served_case(story):  # noqa: F811
    """Served yesterday: the owner's 14 days to ask for a hearing are running."""
    return served_recently(story)


__all__ = ["at", "on", "served", "owner_of"]
