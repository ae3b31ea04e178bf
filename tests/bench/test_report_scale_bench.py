"""The report benchmark at a city's full size (bench/report_scale.py) on a small data set, on PostgreSQL: the
copies bring the busiest city to exactly the number of cases asked for in its report year, each copied case
with its obligations and acts, and the report over that year still counts what the raw counts count."""

import io

import pytest
from django.core.management import call_command
from django.db import connection

from bench import report_scale, scale
from dogcase.cases.models import Case, Event, Obligation

pytestmark = pytest.mark.skipif(connection.vendor != "postgresql", reason="the copies are PostgreSQL's SQL")


@pytest.fixture
def data_set(db):
    call_command(
        "seed_scale", dogs=400, incidents=40, cases=24, seed=3, stdout=io.StringIO(), stderr=io.StringIO()
    )


def test_copies_bring_the_busiest_city_to_the_cases_asked_for_and_the_report_agrees(data_set, capsys):
    city, start, end, in_year = report_scale.busiest_in_year()
    originals = {
        "cases": Case.objects.count(),
        "obligations": Obligation.objects.count(),
        "case events": Event.objects.filter(case__isnull=False).count(),
    }
    target = 3 * in_year + 3  # two whole copies and three cases of a third
    made = report_scale.make_copies(target)
    assert made["city"] == city and made["copies"] == 3 and made["cases_before"] == in_year
    raw, _ = scale.raw_report_counts(city, start, end)
    assert raw["cases"] == target
    # each copied case has its own number and the obligations and acts of the case it copies
    copied = Case.objects.filter(number__contains="/")
    assert copied.count() == made["copied"]["cases"] == Case.objects.count() - originals["cases"]
    assert Case.objects.values("number").distinct().count() == Case.objects.count()
    sample = copied.order_by("pk").first()
    source = Case.objects.get(number=sample.number.split("/")[0])
    assert (sample.jurisdiction, sample.stage, sample.opened_at) == (
        source.jurisdiction,
        source.stage,
        source.opened_at,
    )
    assert sorted(sample.obligations.values_list("deadline_id", "status", "due_date")) == sorted(
        source.obligations.values_list("deadline_id", "status", "due_date")
    )
    assert list(sample.events.values_list("act", "at")) == list(source.events.values_list("act", "at"))
    assert {e.chain.rsplit("/", 1)[1] for e in sample.events.all()} == {"copy 1"}
    assert Obligation.objects.count() - originals["obligations"] == made["copied"]["obligations"]
    copied_events = Event.objects.filter(case__isnull=False).count() - originals["case events"]
    assert copied_events == made["copied"]["case events"]
    # the originals are as they were
    assert Case.objects.exclude(number__contains="/").count() == originals["cases"]
    # the report of that city alone, over the year, counts what the raw counts count
    result = scale.measure_reports(reps=1, budget=0, pdf=False, only=city)
    assert [c["city"] for c in result["cities"]] == [city]
    (measured,) = result["cities"]
    assert measured["cases_in_period"] == target and measured["agrees"]
    assert "the report's totals agree with the raw counts: True" in capsys.readouterr().out


def test_the_data_set_is_swept_before_its_cases_are_copied(data_set):
    swept = report_scale.sweep()
    assert swept["cases"] == Case.objects.filter(status="open").count() > 0
    assert swept["seconds"] >= 0
    # swept: a second sweep at once has nothing left to recompute
    assert report_scale.sweep()["recomputed"] == 0


def test_a_city_already_at_the_size_asked_for_is_not_copied(data_set):
    city, _start, _end, in_year = report_scale.busiest_in_year()
    before = Case.objects.count()
    made = report_scale.make_copies(in_year)
    assert made == {"city": city, "copies": 0, "cases_before": in_year, "copied": {}}
    assert Case.objects.count() == before
