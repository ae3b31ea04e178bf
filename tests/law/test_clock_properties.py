"""Properties of Minnesota time that must hold for every date, not only the examples."""

from calendar import monthrange
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

from hypothesis import given, settings
from hypothesis import strategies as st

from dogcase.law.clock import (
    HolidayCalendar,
    HolidayRule,
    add_months,
    add_years,
    business_days,
    days_645_15,
    hours_elapsed,
)

CHICAGO = ZoneInfo("America/Chicago")
Y2023 = date(2023, 1, 1)


def _minnesota(october: bool, friday: bool) -> HolidayCalendar:
    """645.44 subd. 5 as data (kept independent of test_clock.py so each file stands alone)."""
    shift = "weekend_shift"
    rules = [
        HolidayRule("new_years_day", "New Year's Day", "fixed", month=1, day=1, observed=shift),
        HolidayRule("mlk_day", "Martin Luther King's Birthday", "nth_weekday", month=1, weekday=0, n=3),
        HolidayRule(
            "washington_lincoln",
            "Washington's and Lincoln's Birthday",
            "nth_weekday",
            month=2,
            weekday=0,
            n=3,
        ),
        HolidayRule("memorial_day", "Memorial Day", "nth_weekday", month=5, weekday=0, n=-1),
        HolidayRule("juneteenth", "Juneteenth", "fixed", month=6, day=19, observed=shift, valid_from=Y2023),
        HolidayRule("independence_day", "Independence Day", "fixed", month=7, day=4, observed=shift),
        HolidayRule("labor_day", "Labor Day", "nth_weekday", month=9, weekday=0, n=1),
        HolidayRule(
            "indigenous_peoples_day",
            "Indigenous Peoples Day",
            "nth_weekday",
            month=10,
            weekday=0,
            n=2,
            names=(("Christopher Columbus Day", None, Y2023),),
            optional=True,
        ),
        HolidayRule("veterans_day", "Veterans Day", "fixed", month=11, day=11, observed=shift),
        HolidayRule("thanksgiving", "Thanksgiving Day", "nth_weekday", month=11, weekday=3, n=4),
        HolidayRule(
            "day_after_thanksgiving",
            "Day after Thanksgiving",
            "after",
            after="thanksgiving",
            after_days=1,
            optional=True,
        ),
        HolidayRule("christmas", "Christmas Day", "fixed", month=12, day=25, observed=shift),
    ]
    return HolidayCalendar(rules, {"indigenous_peoples_day": october, "day_after_thanksgiving": friday})


CALENDARS = [_minnesota(o, f) for o in (True, False) for f in (True, False)]

calendars = st.sampled_from(CALENDARS)
triggers = st.dates(min_value=date(2000, 1, 1), max_value=date(2100, 12, 31))
day_counts = st.integers(min_value=0, max_value=400)


@given(trigger=triggers, days=st.integers(min_value=1, max_value=400), cal=calendars)
def test_645_15_due_date_is_never_a_weekend_or_holiday(trigger, days, cal):
    due = days_645_15(trigger, days, cal).value
    assert due.weekday() < 5
    assert cal.holiday_on(due) is None
    assert cal.is_business_day(due)


@given(trigger=triggers, days=day_counts, cal=calendars)
def test_645_15_due_date_is_between_the_last_day_and_five_days_after(trigger, days, cal):
    due = days_645_15(trigger, days, cal).value
    assert trigger + timedelta(days=days) <= due <= trigger + timedelta(days=days + 5)


@given(trigger=triggers, days=day_counts, shift=st.integers(min_value=0, max_value=30), cal=calendars)
def test_645_15_due_date_never_moves_earlier_when_the_trigger_moves_later(trigger, days, shift, cal):
    later = trigger + timedelta(days=shift)
    assert days_645_15(trigger, days, cal).value <= days_645_15(later, days, cal).value


@given(trigger=triggers, days=st.integers(min_value=1, max_value=400), cal=calendars)
def test_645_15_rolls_only_when_the_last_day_is_not_a_business_day(trigger, days, cal):
    last = trigger + timedelta(days=days)
    result = days_645_15(trigger, days, cal)
    assert (result.value == last) == cal.is_business_day(last)
    assert len(result.trace) == (1 if result.value == last else 2)
    # every day skipped by the roll is a weekend or holiday
    d = last
    while d < result.value:
        assert not cal.is_business_day(d)
        d += timedelta(days=1)


@given(trigger=triggers, n=st.integers(min_value=1, max_value=60), extra=st.integers(1, 20), cal=calendars)
def test_business_days_land_on_a_business_day_and_strictly_increase(trigger, n, extra, cal):
    due = business_days(trigger, n, cal).value
    assert cal.is_business_day(due)
    assert due > trigger
    assert business_days(trigger, n + extra, cal).value > due
    # exactly n business days lie in (trigger, due]
    span = range(1, (due - trigger).days + 1)
    counted = sum(cal.is_business_day(trigger + timedelta(days=i)) for i in span)
    assert counted == n


instants = st.datetimes(
    min_value=datetime(2000, 1, 1),  # noqa: DTZ001 -- bounds are naive by Hypothesis' design
    max_value=datetime(2100, 12, 31),  # noqa: DTZ001
    timezones=st.sampled_from([CHICAGO, UTC, ZoneInfo("America/New_York")]),
    allow_imaginary=True,
)


@given(instant=instants, hours=st.integers(min_value=0, max_value=24 * 400))
def test_hours_elapsed_is_exactly_n_hours_of_real_time(instant, hours):
    result = hours_elapsed(instant, hours, CHICAGO).value
    assert result.tzinfo is CHICAGO
    assert result.astimezone(UTC) - instant.astimezone(UTC) == timedelta(hours=hours)


@settings(max_examples=300)
@given(d=st.dates(min_value=date(1900, 1, 1), max_value=date(2200, 12, 31)), n=st.integers(0, 1200))
def test_add_months_never_raises_and_never_moves_the_day_later(d, n):
    result = add_months(d, n).value
    assert result.day <= d.day
    # the same day of the month, or the target month's last day when it has no such day
    assert result.day == min(d.day, monthrange(result.year, result.month)[1])
    assert (result.year - d.year) * 12 + result.month - d.month == n
    assert (result.day == d.day) == (len(add_months(d, n).trace) == 1)


@given(d=st.dates(min_value=date(1900, 1, 1), max_value=date(2200, 12, 31)), n=st.integers(0, 100))
def test_add_years_keeps_month_and_clamps_only_29_february(d, n):
    result = add_years(d, n).value
    assert (result.year, result.month) == (d.year + n, d.month)
    assert result.day == d.day or (d.month, d.day, result.day) == (2, 29, 28)
