"""The case page does each piece of its work once: the dates it says are formatted once a process (the same words
as Django's `date` filter, in every time zone and language), the acts' days in words once, the correction forms'
urls reversed once a page, and the move and proof panels read nothing when the case's events record no move and
no proof."""

import datetime as dt
from unittest import mock

import pytest
from django.db import connection
from django.template import engines
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation

from dogcase.cases import outcomes
from dogcase.cases.pages import numbered_urls
from dogcase.staff.templatetags import staff_words
from tests.staff.conftest import client_for, declare, record_bite

# the formats the case page says dates in, and a few more of Django's characters
FORMATS = (
    "D j M Y, g:i a",
    "l j F Y, g:i a",
    "l j F Y",
    "D j M Y",
    "j M Y, g:i a",
    "N jS \\o\\f E, P",
    "W w z t L",
)
ZONES = ("America/Chicago", "UTC", "Asia/Kolkata", "Pacific/Chatham")
INSTANTS = (
    dt.datetime(2026, 12, 3, 6, 52, tzinfo=dt.UTC),
    dt.datetime(2026, 3, 8, 8, 30, tzinfo=dt.UTC),  # the morning the clocks go forward in Minnesota
    dt.datetime(2025, 11, 2, 6, 30, tzinfo=dt.UTC),  # and the night they go back
    dt.datetime(2024, 2, 29, 23, 59, 59, tzinfo=dt.UTC),
)


def _render(text: str, **context) -> str:
    return engines["django"].from_string("{% load staff_words %}" + text).render(context)


def _said(text: str, **context) -> str:
    """The words, or the error (a time of day asked of a date is refused by both filters alike)."""
    try:
        return _render(text, **context)
    except TypeError as exc:
        return f"refused: {exc}"


def test_datefmt_says_what_date_says_in_every_zone_and_language():
    staff_words._DATES.clear()
    values = [*INSTANTS, dt.date(2026, 12, 3), dt.date(2027, 1, 1)]
    # each zone and language after the others: a word kept for one is never said for another
    for _round in range(2):
        for zone in ZONES:
            for language in ("en", "es"):
                with timezone.override(zone), translation.override(language):
                    for value in values:
                        for fmt in FORMATS:
                            said = _said("{{ v|date:f }}", v=value, f=fmt)
                            where = (zone, language, value, fmt)
                            assert _said("{{ v|datefmt:f }}", v=value, f=fmt) == said, where
    # a format that names the zone is formatted each time
    with timezone.override("Asia/Kolkata"):
        assert _render('{{ v|datefmt:"j M Y, H:i T O" }}', v=INSTANTS[0]) == "3 Dec 2026, 12:22 IST +0530"
    assert _render('{{ v|datefmt:"j M Y" }}', v="") == ""
    assert _render('{{ v|datefmt:"j M Y" }}', v=None) == ""


@pytest.mark.parametrize("number", ["T-2026-0008", "BL-2026-987654321", "A B&C"])
def test_the_correction_urls_are_the_ones_reverse_gives(number):
    for name in ("staff:correct", "staff:correct_value"):
        url = numbered_urls(name, number)
        for seq in (1, 9, 10, 987654321, 123456789012):
            assert url(seq) == reverse(name, args=[number, seq])


def test_an_acts_day_is_said_once_a_process():
    outcomes.day_words.cache_clear()
    day = dt.date(2026, 12, 3)
    with mock.patch.object(outcomes, "date_format", wraps=outcomes.date_format) as said:
        assert outcomes.day_words(day) == "3 December 2026"
        assert outcomes.day_words(day) == "3 December 2026"
        assert outcomes.day_words(day, "es") != "3 December 2026"
    assert said.call_count == 2  # once in English, once in Spanish


@pytest.mark.django_db
def test_a_second_view_of_the_case_page_says_no_date_again_and_reads_no_move_or_proof(officer):
    case = record_bite(officer)
    declare(case, officer, designation="dangerous")
    client = client_for(officer)
    url = f"/cases/{case.number}"
    first = client.get(url).content.decode()
    with (
        mock.patch.object(staff_words, "date", wraps=staff_words.date) as formatted,
        mock.patch.object(outcomes, "date_format", wraps=outcomes.date_format) as days,
        CaptureQueriesContext(connection) as queries,
    ):
        again = client.get(url).content.decode()
    assert again.count("event-when") == first.count("event-when") >= 2
    assert formatted.call_count == 0  # every date of the page was said on the first view
    assert days.call_count == 0
    # the case's events record no move and no proof: neither panel reads its table
    sql = " ".join(q["sql"] for q in queries.captured_queries)
    assert "cases_casemove" not in sql
    assert "proofs_proofsubmission" not in sql
    assert "Proof of the conditions of registration" in again
