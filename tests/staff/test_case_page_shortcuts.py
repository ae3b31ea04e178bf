"""What the case page works out once instead of for each step and each question: the same answers as the long
way round."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from dogcase.law import library
from dogcase.staff.views.cases import act_urls


class _Case:
    def __init__(self, number: str) -> None:
        self.number = number


@pytest.mark.parametrize("city", ["battle-lake-mn", "tracy-mn"])
def test_each_steps_act_url_is_the_one_reverse_gives(city):
    j = library().get(city)
    case = _Case("BL-2026-0001")
    url = act_urls(case)
    ids = {step.id for day in (dt.date(2024, 1, 1), dt.date(2026, 6, 1)) for step in j.procedure(day)}
    assert len(ids) > 10
    for step_id in sorted(ids):
        assert url(step_id) == reverse("staff:act", args=[case.number, step_id])


def test_a_case_number_that_url_quoting_changes_is_quoted_the_same():
    case = _Case("T 2026 #7")  # not a number dogcase gives; reverse quotes it, and so does the shortcut
    assert act_urls(case)("declare") == reverse("staff:act", args=[case.number, "declare"])


@pytest.mark.parametrize("city", ["battle-lake-mn", "tracy-mn"])
def test_the_versions_in_force_kept_for_a_day_are_those_of_that_day(city):
    j = library().get(city)
    days = sorted({*j.boundaries, *(b - dt.timedelta(days=1) for b in j.boundaries), dt.date(2026, 12, 3)})
    for day in days:
        expected = tuple(
            v
            for layer in j.layers
            for provision in layer.provisions.values()
            if (v := provision.version_on(day)) is not None
        )
        assert j.versions_on(day) == expected
        assert j.versions_on(day) is j.versions_on(day)  # asked again: the same answer, kept
