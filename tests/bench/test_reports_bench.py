"""The scale benchmark's reports part on a small data set: correctness only, no timing. The year it measures
ends on the day the city's last case was opened and holds the cases it says; the floor's raw counts are the
report's own totals; every page it measures answers; the table prints it."""

import datetime as dt
import io

import pytest
from django.core.management import call_command

from bench import scale
from dogcase.cases.models import Case, Obligation
from dogcase.law.clock import MINNESOTA_TZ
from dogcase.reports import figures


@pytest.fixture
def data_set(db):
    call_command(
        "seed_scale", dogs=400, incidents=40, cases=24, seed=3, stdout=io.StringIO(), stderr=io.StringIO()
    )


def local_day(instant: dt.datetime) -> dt.date:
    return instant.astimezone(MINNESOTA_TZ).date()


def test_each_city_s_year_is_measured_beside_its_floors_and_agrees_with_them(data_set, capsys):
    result = scale.measure_reports(reps=1, budget=0)
    assert result["user"] == scale.REPORT_USER
    cities = result["cities"]
    assert [c["city"] for c in cities] == [city for city, _ in scale.report_cities()]
    assert {c["city"] for c in cities} == set(Case.objects.values_list("jurisdiction", flat=True))
    for c in cities:
        city = c["city"]
        start, end = dt.date.fromisoformat(c["start"]), dt.date.fromisoformat(c["end"])
        opened = [
            local_day(x) for x in Case.objects.filter(jurisdiction=city).values_list("opened_at", flat=True)
        ]
        # a year, both days included, ending on the day the city's last case was opened
        assert end == max(opened) and (end - start).days == 364
        # the cases it says it holds, counted here one by one
        assert c["cases_in_city"] == len(opened)
        assert c["cases_in_period"] == sum(start <= day <= end for day in opened) > 0
        obligations = Obligation.objects.filter(jurisdiction=city, status__in=("met", "overdue", "lapsed"))
        assert c["raw_counts"]["obligations"] == sum(
            start <= o.due_date <= end for o in obligations if o.due_date
        )
        # the report's own totals are the floor's counts
        assert c["agrees"]
        assert c["report_totals"]["cases"] == c["report_totals"]["cases (stages)"] == c["cases_in_period"]
        assert c["report_totals"]["obligations"] == c["raw_counts"]["obligations"]
        rows = {r["what"].split(" (")[0]: r for r in c["rows"]}
        assert rows["figures.report"]["queries"] == figures.QUERIES
        assert rows["floor: the raw counts, one statement"]["queries"] == 1
        pages = [r for r in c["rows"] if "status" in r]
        assert len(pages) == 3  # the report page, the annual PDF and the page over an empty year
        assert {r["status"] for r in pages} == {200}
        assert all(r["bytes"] > 0 and r["queries"] > 0 and r["n"] == 1 for r in pages)
        assert any(r["what"].startswith(f"annual PDF {end.year}") for r in pages)
    printed = capsys.readouterr().out
    assert "the report's totals agree with the raw counts: True" in printed
    text = scale.table(
        {
            "parameters": {"dogs": 400, "incidents": 40, "cases": 24, "seed": 3},
            "environment": {"postgresql": "-", "cpus": 1},
            "sweep": [],
            "pages": [],
            "reports": result,
            "writers": [],
        }
    )
    assert "| report: battle-lake-mn, " in text and "totals = raw counts: yes" in text
    assert "| figures.report (in process) |" in text and "| report page |" in text


def test_a_report_that_counts_otherwise_than_the_raw_counts_disagrees(data_set):
    city = "battle-lake-mn"
    start, end = scale.report_period(city)
    raw, _ = scale.raw_report_counts(city, start, end)
    totals = scale.report_totals(figures.report(city, start, end))
    assert scale.report_agrees(totals, raw)
    for field in ("cases", "obligations", "charges", "entries"):
        assert not scale.report_agrees(totals, {**raw, field: raw[field] + 1})
    # a year with nothing in it: zero everywhere, and still agreeing
    empty, _ = scale.raw_report_counts(city, *scale.EMPTY_YEAR)
    assert empty == dict.fromkeys(scale.RAW_REPORT_FIELDS, 0)
    assert scale.report_agrees(scale.report_totals(figures.report(city, *scale.EMPTY_YEAR)), empty)
