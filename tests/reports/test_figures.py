"""Each figure of a report equals an independent count of the demo data, written here case by case in Python
from the records (not from the report's queries); the period is inclusive; another city's records never count;
the number of queries does not grow with the number of cases."""

from __future__ import annotations

import datetime as dt
import statistics
from collections import Counter
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from dogcase.cases.models import Case, Event, Obligation
from dogcase.cases.roles import ROLES_BY_GROUP
from dogcase.law import library
from dogcase.law.clock import MINNESOTA_TZ
from dogcase.money.models import Charge, Entry
from dogcase.reports import figures
from dogcase.reports.figures import PeriodError, parse_period, report, stage_group

pytestmark = pytest.mark.django_db

CITIES = ("battle-lake-mn", "tracy-mn")
# wide enough for the whole demo (its stories go back a year and more)
START, END = dt.date(2020, 1, 1), dt.date(2030, 12, 31)


def local_day(instant: dt.datetime) -> dt.date:
    return instant.astimezone(MINNESOTA_TZ).date()


def rows(report_, table_id: str) -> dict:
    table = report_.table(table_id)
    return {r[0]: tuple(r[1:]) for r in table.rows}


def in_period(day: dt.date, start=START, end=END) -> bool:
    return start <= day <= end


def step_events(city: str, kinds: tuple[str, ...], start=START, end=END) -> list[Event]:
    """The city's legal acts of the given kinds (the kind each event records of itself) recorded in the
    period, read one by one."""
    return [
        e
        for e in Event.objects.filter(jurisdiction=city, kind="step")
        if e.data.get("act") in kinds and in_period(local_day(e.at), start, end)
    ]


def expected_cases(city: str, start=START, end=END) -> dict:
    j = library().get(city)
    counts: Counter = Counter()
    for case in Case.objects.filter(jurisdiction=city):
        if in_period(local_day(case.opened_at), start, end):
            label = j.designations[case.designation].label if case.designation else "Not declared"
            counts[(label, case.status)] += 1
    labels = {label for label, _ in counts}
    return {
        label: (
            counts[(label, "open")],
            counts[(label, "closed")],
            counts[(label, "open")] + counts[(label, "closed")],
        )
        for label in labels
    }


def expected_obligations(city: str) -> dict:
    counts: dict[str, list[int]] = {}
    for o in Obligation.objects.filter(jurisdiction=city).exclude(due_date=None):
        if not in_period(o.due_date) or o.status not in ("met", "overdue", "lapsed"):
            continue
        column = {"met": 1 if o.late else 0, "overdue": 2, "lapsed": 3}[o.status]
        if o.who == "owner":
            who = ["Owner"]
        else:
            who = [ROLES_BY_GROUP[r].label for r in o.staff_roles.split(",") if r] or [
                "The city (no staff role named)"
            ]
        for name in who:
            counts.setdefault(name, [0, 0, 0, 0])[column] += 1
    return {k: tuple(v) for k, v in counts.items()}


def check_cases_by_designation_equal_the_cases_opened_in_the_period():
    for city in CITIES:
        assert rows(report(city, START, END), "cases") == expected_cases(city)


def check_stages_count_each_case_opened_in_the_period_once():
    for city in CITIES:
        got = rows(report(city, START, END), "stages")
        expected = Counter(stage_group(c.stage) for c in Case.objects.filter(jurisdiction=city))
        assert {k: v[0] for k, v in got.items()} == dict(expected)
        assert sum(v[0] for v in got.values()) == Case.objects.filter(jurisdiction=city).count()
        assert not any("(ground:" in label for label in got)  # particulars are not a stage of their own


def check_obligations_per_role_equal_the_obligations_due_in_the_period():
    for city in CITIES:
        got = rows(report(city, START, END), "obligations")
        assert got == expected_obligations(city)
        assert got["Owner"][3] > 0  # the demo has owners who let the time to ask for a hearing pass


def check_each_deadline_row_carries_its_citation_and_the_rows_add_up():
    for city in CITIES:
        table = report(city, START, END).table("deadlines")
        due = [
            o
            for o in Obligation.objects.filter(jurisdiction=city, status__in=("met", "overdue", "lapsed"))
            if o.due_date is not None and in_period(o.due_date)
        ]
        assert sum(sum(r[2:]) for r in table.rows) == len(due)
        assert all(r[1] for r in table.rows), "every deadline names the provision that sets it"
        rabies = [r for r in table.rows if r[0] == "Rabies observation"]
        assert len(rabies) == 1  # numbered per observation, one deadline of the law
        assert sum(rabies[0][2:]) == sum(o.deadline_id.startswith("rabies_observation:") for o in due)
        for o in due:
            if ":" not in o.deadline_id:  # one row per deadline, with the citations stored on it
                cited = [c["citation"] for c in o.citations]
                assert any(all(c in r[1] for c in cited) for r in table.rows), o.deadline_id


def check_median_days_equal_the_intervals_of_the_demo():
    for city in CITIES:
        got = rows(report(city, START, END), "timeliness")
        declared = [
            (dt.date.fromisoformat(e.data["law_date"]) - local_day(e.case.incident.occurred_at)).days
            for e in step_events(city, ("declare", "classify"))
        ]
        assert got["From the incident to the declaration"] == (
            statistics.median(declared),
            min(declared),
            max(declared),
            len(declared),
        )
        intervals = []
        for decision in step_events(city, ("decide_appeal", "order_destruction")):
            decided = dt.date.fromisoformat(decision.data["law_date"])
            asked = [
                dt.date.fromisoformat(r.data["law_date"])
                for r in Event.objects.filter(case=decision.case, kind="step")
                if r.data.get("act") == "receive_hearing_request"
                and dt.date.fromisoformat(r.data["law_date"]) <= decided
            ]
            if asked:
                intervals.append((decided - max(asked)).days)
        assert intervals, "the demo has hearings decided"
        row = got["From the owner's request for a hearing to the decision"]
        assert row == (statistics.median(intervals), min(intervals), max(intervals), len(intervals))


def check_hearings_by_outcome_equal_the_decisions_recorded():
    for city in CITIES:
        table = report(city, START, END).table("hearings")
        decisions = step_events(city, ("decide_appeal", "order_destruction"))
        assert sum(r[1] for r in table.rows) == len(decisions)
        outcomes = Counter(e.data.get("outcome") for e in decisions)
        for outcome, n in outcomes.items():
            words = outcome.replace("_", " ")
            assert sum(r[1] for r in table.rows if r[0].endswith(f"— {words}")) == n


def check_seizures_and_their_outcomes_equal_the_acts_recorded():
    for city in CITIES:
        got = rows(report(city, START, END), "seizures")
        assert got["Dogs seized or impounded"] == (len(step_events(city, ("seize", "impound"))),)
        assert got["Released to the owner"] == (len(step_events(city, ("release",))),)
        assert got["Disposed of (not reclaimed)"] == (len(step_events(city, ("dispose",))),)
        assert got["Destroyed"] == (len(step_events(city, ("destroy",))),)
    assert rows(report("battle-lake-mn", START, END), "seizures")["Dogs seized or impounded"][0] >= 1


def check_money_equals_the_charges_and_entries_of_the_period():
    for city in CITIES:
        got = rows(report(city, START, END), "money")
        charges = [c for c in Charge.objects.filter(jurisdiction=city) if in_period(c.starts_on)]
        total = sum((c.amount or Decimal(0) for c in charges), Decimal(0))
        assert got["Charges incurred"] == (len(charges), f"{total:.2f}")
        payments = [e for e in Entry.objects.filter(jurisdiction=city, kind="payment") if in_period(e.on)]
        paid = sum((e.amount for e in payments), Decimal(0))
        assert got["Payments received"] == (len(payments), f"{paid:.2f}")
    assert rows(report("battle-lake-mn", START, END), "money")["Payments received"][0] > 0


def check_the_period_includes_both_its_days_and_nothing_outside():
    case = Case.objects.filter(jurisdiction="battle-lake-mn").order_by("opened_at").last()
    day = local_day(case.opened_at)
    same_day = Case.objects.filter(jurisdiction="battle-lake-mn")
    on_day = sum(local_day(c.opened_at) == day for c in same_day)

    def opened(start, end) -> int:
        return sum(r[3] for r in report("battle-lake-mn", start, end).table("cases").rows)

    assert opened(day, day) == on_day >= 1
    assert opened(day - dt.timedelta(days=1), day) >= on_day
    assert opened(day + dt.timedelta(days=1), day + dt.timedelta(days=30)) == 0
    before = sum(local_day(c.opened_at) < day for c in same_day)
    assert opened(START, day - dt.timedelta(days=1)) == before
    # an act on the last day counts; the day after does not
    declaration = step_events("battle-lake-mn", ("declare",))[-1]
    acted = local_day(declaration.at)
    on = report("battle-lake-mn", acted, acted).table("timeliness").rows[0][4]
    after = report("battle-lake-mn", acted + dt.timedelta(days=1), acted + dt.timedelta(days=1))
    assert on >= 1
    assert after.table("timeliness").rows[0][4] == len(
        step_events(
            "battle-lake-mn", ("declare",), acted + dt.timedelta(days=1), acted + dt.timedelta(days=1)
        )
    )


def check_another_citys_records_never_count():
    battle_lake = report("battle-lake-mn", START, END)
    opened = sum(r[3] for r in battle_lake.table("cases").rows)
    assert opened == Case.objects.filter(jurisdiction="battle-lake-mn").count()
    # a case moved to Tracy is Tracy's: Battle Lake's figures are the same with or without Tracy's records
    tracy_only = {c.number for c in Case.objects.filter(jurisdiction="tracy-mn")}
    assert tracy_only
    assert "Vicious dog" not in rows(battle_lake, "cases")
    assert "Vicious dog" in rows(report("tracy-mn", START, END), "cases")
    assert rows(battle_lake, "obligations") == expected_obligations("battle-lake-mn")


def test_every_figure_equals_an_independent_count_of_the_demo_data(demo):
    # one seeding of the demo for all of them (it is the slow part)
    check_cases_by_designation_equal_the_cases_opened_in_the_period()
    check_stages_count_each_case_opened_in_the_period_once()
    check_obligations_per_role_equal_the_obligations_due_in_the_period()
    check_each_deadline_row_carries_its_citation_and_the_rows_add_up()
    check_median_days_equal_the_intervals_of_the_demo()
    check_hearings_by_outcome_equal_the_decisions_recorded()
    check_seizures_and_their_outcomes_equal_the_acts_recorded()
    check_money_equals_the_charges_and_entries_of_the_period()


def test_the_period_is_inclusive_and_another_citys_records_never_count(demo):
    check_the_period_includes_both_its_days_and_nothing_outside()
    check_another_citys_records_never_count()


def test_a_report_runs_the_same_few_queries_with_few_cases_and_with_many(db, staff):
    from dogcase.demo.scale import seed_scale

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            report("battle-lake-mn", START, END)
        return len(captured.captured_queries)

    library().get("battle-lake-mn").procedure(START)  # the law loaded once, as in a running server
    assert queries() <= figures.QUERIES  # with nothing due, the deadlines' words are not read
    seed_scale(dogs=80, incidents=40, cases=30, sweep=False)
    assert Case.objects.count() >= 30
    assert queries() == figures.QUERIES


@pytest.mark.parametrize(
    ("start", "end", "field", "words"),
    [
        ("2026-02-30", "2026-03-01", "from", "real date written YYYY-MM-DD"),
        ("2026-01-01", "31/12/2026", "to", "real date written YYYY-MM-DD"),
        ("2026-06-01", "2026-05-31", "from", "on or before"),
        ("1800-01-01", "2026-01-01", "from", "between the years"),
    ],
)
def test_a_bad_date_names_its_field_and_the_rule(start, end, field, words):
    with pytest.raises(PeriodError) as raised:
        parse_period(start, end, today=dt.date(2026, 12, 2))
    assert raised.value.field == field
    assert words in str(raised.value)


def test_no_dates_means_the_year_to_date():
    assert parse_period("", None, today=dt.date(2026, 12, 2)) == (dt.date(2026, 1, 1), dt.date(2026, 12, 2))
