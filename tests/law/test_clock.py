"""Minnesota time: 645.15 counting, 645.44 subd. 5 holidays as data, business days, hours, months."""

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from dogcase.law.clock import (
    ClockResult,
    Holiday,
    HolidayCalendar,
    HolidayRule,
    add_days,
    add_months,
    add_years,
    business_days,
    compute,
    days_645_15,
    days_including_trigger,
    hours_elapsed,
    months,
    weeks,
    years,
)

CHICAGO = ZoneInfo("America/Chicago")
SUBD5 = "Minn. Stat. 645.44, subd. 5"
Y2023 = date(2023, 1, 1)


def minnesota_rules() -> list[HolidayRule]:
    """645.44 subd. 5 as the state law pack states it (the clock itself holds no holiday list)."""
    shift = "weekend_shift"
    return [
        HolidayRule(
            "new_years_day", "New Year's Day", "fixed", month=1, day=1, observed=shift, citation=SUBD5
        ),
        HolidayRule(
            "mlk_day", "Martin Luther King's Birthday", "nth_weekday", month=1, weekday=0, n=3, citation=SUBD5
        ),
        HolidayRule(
            "washington_lincoln",
            "Washington's and Lincoln's Birthday",
            "nth_weekday",
            month=2,
            weekday=0,
            n=3,
            citation=SUBD5,
        ),
        HolidayRule("memorial_day", "Memorial Day", "nth_weekday", month=5, weekday=0, n=-1, citation=SUBD5),
        HolidayRule(
            "juneteenth",
            "Juneteenth",
            "fixed",
            month=6,
            day=19,
            observed=shift,
            valid_from=Y2023,
            citation=SUBD5,
        ),
        HolidayRule(
            "independence_day", "Independence Day", "fixed", month=7, day=4, observed=shift, citation=SUBD5
        ),
        HolidayRule("labor_day", "Labor Day", "nth_weekday", month=9, weekday=0, n=1, citation=SUBD5),
        HolidayRule(
            "indigenous_peoples_day",
            "Indigenous Peoples Day",
            "nth_weekday",
            month=10,
            weekday=0,
            n=2,
            names=(("Christopher Columbus Day", None, Y2023), ("Indigenous Peoples Day", Y2023, None)),
            optional=True,
            citation=SUBD5,
        ),
        HolidayRule(
            "veterans_day", "Veterans Day", "fixed", month=11, day=11, observed=shift, citation=SUBD5
        ),
        HolidayRule(
            "thanksgiving", "Thanksgiving Day", "nth_weekday", month=11, weekday=3, n=4, citation=SUBD5
        ),
        HolidayRule(
            "day_after_thanksgiving",
            "Day after Thanksgiving",
            "after",
            after="thanksgiving",
            after_days=1,
            optional=True,
            citation=SUBD5,
        ),
        HolidayRule("christmas", "Christmas Day", "fixed", month=12, day=25, observed=shift, citation=SUBD5),
    ]


def minnesota(october: bool = True, friday: bool = True) -> HolidayCalendar:
    return HolidayCalendar(
        minnesota_rules(),
        {"indigenous_peoples_day": october, "day_after_thanksgiving": friday},
        name="test city",
    )


MN = minnesota()


# ------------------------------------------------------------------------------------------- holidays


def test_minnesota_holidays_2024_are_exactly_the_twelve_statutory_days():
    assert list(MN.holidays(2024)) == [
        date(2024, 1, 1),
        date(2024, 1, 15),
        date(2024, 2, 19),
        date(2024, 5, 27),
        date(2024, 6, 19),
        date(2024, 7, 4),
        date(2024, 9, 2),
        date(2024, 10, 14),
        date(2024, 11, 11),
        date(2024, 11, 28),
        date(2024, 11, 29),
        date(2024, 12, 25),
    ]


@pytest.mark.parametrize(
    ("day", "rule_id"),
    [
        (date(2022, 6, 19), None),  # Juneteenth 2022: not yet a Minnesota holiday (a Sunday)
        (date(2022, 6, 20), None),  # ...and no Monday shift either
        (date(2023, 6, 19), "juneteenth"),  # first observed 2023, a Monday
        (date(2026, 7, 3), "independence_day"),  # 4 July 2026 is a Saturday: Friday is off
        (date(2026, 7, 4), None),
        (date(2022, 12, 26), "christmas"),  # Christmas 2022 is a Sunday: Monday is off
        (date(2022, 12, 25), None),
        (date(2023, 11, 10), "veterans_day"),  # 11 November 2023 is a Saturday
        (date(2024, 5, 27), "memorial_day"),  # last Monday in May
        (date(2025, 1, 20), "mlk_day"),  # third Monday in January
        (date(2024, 11, 29), "day_after_thanksgiving"),
        (date(2024, 11, 22), None),  # a Friday that is not after Thanksgiving
    ],
)
def test_holiday_on_applies_statute_and_weekend_shift(day, rule_id):
    hol = MN.holiday_on(day)
    assert (hol.rule_id if hol else None) == rule_id


def test_shifted_holiday_records_the_actual_date_and_the_day_off():
    hol = MN.holiday_on(date(2026, 7, 3))
    assert hol == Holiday(date(2026, 7, 3), "independence_day", "Independence Day", SUBD5, date(2026, 7, 4))
    assert hol.shifted
    assert "Saturday 4 July 2026 falls on a weekend, so the Friday before is the day off" in hol.describe()


def test_saturday_new_years_day_is_observed_on_friday_of_the_previous_year():
    assert date(2021, 12, 31) in MN.holidays(2021)
    assert MN.holidays(2021)[date(2021, 12, 31)].actual_date == date(2022, 1, 1)
    assert date(2021, 12, 31) not in MN.holidays(2022)
    assert not MN.is_business_day(date(2021, 12, 31))


@pytest.mark.parametrize(
    ("year", "name"),
    [
        (2020, "Christopher Columbus Day"),
        (2022, "Christopher Columbus Day"),
        (2023, "Indigenous Peoples Day"),
        (2030, "Indigenous Peoples Day"),
    ],
)
def test_october_holiday_is_named_by_year(year, name):
    [hol] = [h for h in MN.holidays(year).values() if h.rule_id == "indigenous_peoples_day"]
    assert hol.name == name
    assert hol.date.month == 10 and hol.date.weekday() == 0 and 8 <= hol.date.day <= 14


def test_city_that_does_not_observe_the_october_holiday_counts_it_as_a_business_day():
    working = minnesota(october=False)
    assert working.is_business_day(date(2023, 10, 9))
    assert not MN.is_business_day(date(2023, 10, 9))
    assert business_days(date(2023, 10, 6), 1, working).value == date(2023, 10, 9)
    assert business_days(date(2023, 10, 6), 1, MN).value == date(2023, 10, 10)


def test_holidays_are_cached_per_year_and_read_only():
    first = MN.holidays(2031)
    assert MN.holidays(2031) is first
    with pytest.raises(TypeError):
        first[date(2031, 3, 3)] = None  # type: ignore[index]


def test_business_day_is_a_weekday_that_is_not_a_holiday():
    assert MN.is_business_day(date(2024, 5, 28))
    assert not MN.is_business_day(date(2024, 5, 27))  # Memorial Day
    assert not MN.is_business_day(date(2024, 5, 25))  # Saturday
    assert not MN.is_business_day(date(2024, 5, 26))  # Sunday


def test_calendar_requires_every_optional_holiday_to_be_decided():
    with pytest.raises(ValueError, match="day_after_thanksgiving"):
        HolidayCalendar(minnesota_rules(), {"indigenous_peoples_day": True})


def test_calendar_rejects_choices_about_unknown_or_mandatory_holidays():
    decided = {"indigenous_peoples_day": True, "day_after_thanksgiving": True}
    with pytest.raises(ValueError, match="arbor_day"):
        HolidayCalendar(minnesota_rules(), {**decided, "arbor_day": True})
    with pytest.raises(ValueError, match="christmas"):
        HolidayCalendar(minnesota_rules(), {**decided, "christmas": False})
    with pytest.raises(ValueError, match="True or False"):
        HolidayCalendar(minnesota_rules(), {**decided, "day_after_thanksgiving": "yes"})


def test_calendar_rejects_duplicate_ids_unknown_and_cyclic_after_rules():
    a = HolidayRule("a", "A", "after", after="b", after_days=1)
    b = HolidayRule("b", "B", "after", after="a", after_days=1)
    with pytest.raises(ValueError, match="cycle"):
        HolidayCalendar([a, b])
    with pytest.raises(ValueError, match="unknown holiday 'b'"):
        HolidayCalendar([a])
    with pytest.raises(ValueError, match="twice"):
        HolidayCalendar([HolidayRule("x", "X", "fixed", month=1, day=2)] * 2)


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(kind="easter"),
        dict(kind="fixed", month=2, day=30),
        dict(kind="fixed", month=13, day=1),
        dict(kind="fixed", month=1),
        dict(kind="nth_weekday", month=5, weekday=0, n=5),
        dict(kind="nth_weekday", month=5, weekday=7, n=1),
        dict(kind="fixed", month=1, day=1, observed="nearest"),
        dict(kind="after"),
        dict(kind="fixed", month=1, day=1, valid_from=date(2023, 1, 1), valid_until=date(2022, 1, 1)),
    ],
)
def test_holiday_rule_rejects_malformed_data(kwargs):
    with pytest.raises(ValueError, match="'bad'"):
        HolidayRule("bad", "Bad", **kwargs)


def test_valid_until_ends_a_holiday():
    gone = HolidayRule("old", "Old Day", "fixed", month=3, day=3, valid_until=date(2010, 1, 1))
    cal = HolidayCalendar([gone])
    assert cal.holiday_on(date(2009, 3, 3)) is not None
    assert cal.holiday_on(date(2010, 3, 3)) is None


def test_holiday_on_29_february_exists_only_in_leap_years():
    cal = HolidayCalendar([HolidayRule("leap", "Leap Day", "fixed", month=2, day=29)])
    assert cal.holiday_on(date(2024, 2, 29)) is not None
    assert cal.holidays(2023) == {}


# ------------------------------------------------------------------------------------------- 645.15


def test_645_15_excludes_first_day_and_traces_plainly():
    result = days_645_15(date(2024, 5, 3), 14, MN, event="the notice")
    assert result == ClockResult(
        date(2024, 5, 17),
        (
            "14 days after Friday 3 May 2024 (the day of the notice is not counted, Minn. Stat. 645.15) "
            "is Friday 17 May 2024",
        ),
    )


def test_period_ending_on_memorial_day_runs_to_tuesday():
    result = days_645_15(date(2024, 5, 13), 14, MN)
    assert result.value == date(2024, 5, 28)
    assert result.trace[-1] == (
        f"Monday 27 May 2024 is Memorial Day, a legal holiday ({SUBD5}): "
        "the period runs to Tuesday 28 May 2024 (Minn. Stat. 645.15)"
    )


def test_period_ending_saturday_before_a_monday_holiday_runs_to_tuesday():
    # the last day is Saturday 30 August 2025; Monday 1 September is Labor Day
    result = days_645_15(date(2025, 8, 16), 14, MN)
    assert result.value == date(2025, 9, 2)
    note = result.trace[-1]
    assert "Saturday 30 August 2025 is a weekend day" in note
    assert "Sunday 31 August 2025 is a weekend day" in note
    assert "Monday 1 September 2025 is Labor Day" in note
    assert note.endswith("the period runs to Tuesday 2 September 2025 (Minn. Stat. 645.15)")


def test_period_ending_on_a_shifted_holiday_rolls_past_it_and_the_weekend():
    # last day Friday 3 July 2026 (Independence Day observed), then Saturday and Sunday
    assert days_645_15(date(2026, 6, 19), 14, MN).value == date(2026, 7, 6)


def test_period_ending_on_an_ordinary_weekday_does_not_roll():
    result = days_645_15(date(2024, 5, 1), 14, MN)
    assert result.value == date(2024, 5, 15)
    assert len(result.trace) == 1


def test_zero_day_period_is_the_day_itself_without_roll():
    saturday = date(2024, 5, 25)
    assert days_645_15(saturday, 0, MN).value == saturday
    assert "0 days" in days_645_15(saturday, 0, MN).trace[0]


def test_counting_the_trigger_day_ends_one_day_earlier_than_645_15():
    seizure = date(2024, 6, 5)  # Wednesday
    included = days_including_trigger(seizure, 14, MN, event="seizure")
    assert included.value == date(2024, 6, 18)
    assert "counting Wednesday 5 June 2024 as day 1 (the day of seizure is included)" in included.trace[0]
    # 645.15 would end on Juneteenth (Wednesday 19 June 2024), which rolls to Thursday
    assert days_645_15(seizure, 14, MN).value == date(2024, 6, 20)


def test_counting_the_trigger_day_still_rolls_off_a_weekend():
    # day 14 is Sunday 16 June 2024
    assert days_including_trigger(date(2024, 6, 3), 14, MN).value == date(2024, 6, 17)


def test_counting_the_trigger_day_needs_at_least_one_day():
    with pytest.raises(ValueError, match="at least 1 day"):
        days_including_trigger(date(2024, 6, 3), 0, MN)


def test_weeks_are_seven_days_each_under_645_15():
    result = weeks(date(2024, 5, 6), 3, MN)
    assert result.value == date(2024, 5, 28)  # 27 May is Memorial Day
    assert result.trace[0] == "3 weeks is 21 days"


def test_add_days_does_not_roll():
    assert add_days(date(2024, 5, 13), 14).value == date(2024, 5, 27)


# ------------------------------------------------------------------------------------------- business days


def test_business_days_over_thanksgiving_with_the_day_after_off():
    result = business_days(date(2024, 11, 27), 5, MN)
    assert result.value == date(2024, 12, 6)
    assert any("Thanksgiving Day" in line for line in result.trace)
    assert any("Day after Thanksgiving" in line for line in result.trace)


def test_business_days_over_thanksgiving_when_the_city_works_the_day_after():
    result = business_days(date(2024, 11, 27), 5, minnesota(friday=False))
    assert result.value == date(2024, 12, 5)
    assert not any("Day after Thanksgiving" in line for line in result.trace)


def test_business_days_start_the_day_after_the_trigger():
    assert business_days(date(2024, 5, 6), 1, MN).value == date(2024, 5, 7)
    assert business_days(date(2024, 5, 3), 1, MN).value == date(2024, 5, 6)  # Friday -> Monday
    assert business_days(date(2024, 5, 3), 0, MN).value == date(2024, 5, 3)


# ------------------------------------------------------------------------------------------- months, years


@pytest.mark.parametrize(
    ("start", "n", "expected"),
    [
        (date(2026, 8, 31), 6, date(2027, 2, 28)),
        (date(2027, 8, 31), 6, date(2028, 2, 29)),
        (date(2024, 1, 31), 1, date(2024, 2, 29)),
        (date(2024, 1, 31), 3, date(2024, 4, 30)),
        (date(2024, 1, 15), 11, date(2024, 12, 15)),
        (date(2024, 12, 31), 1, date(2025, 1, 31)),
        (date(2024, 2, 28), 1, date(2024, 3, 28)),
    ],
)
def test_add_months_clamps_to_the_end_of_the_month(start, n, expected):
    assert add_months(start, n).value == expected


def test_month_clamp_is_stated_in_the_trace():
    result = add_months(date(2026, 8, 31), 6)
    assert result.trace == (
        "6 months after Monday 31 August 2026 is Sunday 28 February 2027",
        "there is no 31st in February 2027: the last day of the month is used, Sunday 28 February 2027",
    )
    assert len(add_months(date(2026, 8, 15), 6).trace) == 1


def test_29_february_plus_one_year_is_28_february():
    result = add_years(date(2024, 2, 29), 1)
    assert result.value == date(2025, 2, 28)
    assert "no 29th in February 2025" in result.trace[-1]
    assert add_years(date(2024, 2, 29), 4).value == date(2028, 2, 29)


def test_months_roll_only_when_asked():
    assert months(date(2026, 1, 4), 6, MN, roll=False).value == date(2026, 7, 4)  # a Saturday
    rolled = months(date(2026, 1, 4), 6, MN, roll=True)
    assert rolled.value == date(2026, 7, 6)
    assert rolled.trace[-1].endswith("the period runs to Monday 6 July 2026 (Minn. Stat. 645.15)")


def test_years_roll_off_christmas_on_a_weekday():
    assert years(date(2023, 12, 25), 1, MN, roll=True).value == date(2024, 12, 26)
    assert years(date(2023, 12, 25), 1, MN, roll=False).value == date(2024, 12, 25)


# ------------------------------------------------------------------------------------------- hours


def test_one_hour_after_0130_cdt_on_fall_back_night_is_0130_cst():
    start = datetime(2026, 11, 1, 1, 30, tzinfo=CHICAGO)  # fold=0: the first 01:30, CDT
    assert start.tzname() == "CDT"
    result = hours_elapsed(start, 1, CHICAGO)
    assert (result.value.hour, result.value.minute, result.value.tzname()) == (1, 30, "CST")
    assert result.value.utcoffset() == timedelta(hours=-6)
    assert result.trace[0] == (
        "1 hour after 1:30 a.m. CDT on Sunday 1 November 2026 is 1:30 a.m. CST on Sunday 1 November 2026"
    )
    assert "clocks went back" in result.trace[1]


def test_one_hour_after_0130_cst_on_spring_forward_night_is_0330_cdt():
    result = hours_elapsed(datetime(2026, 3, 8, 1, 30, tzinfo=CHICAGO), 1, CHICAGO)
    assert (result.value.date(), result.value.hour, result.value.minute) == (date(2026, 3, 8), 3, 30)
    assert result.value.tzname() == "CDT"
    assert "clocks went forward" in result.trace[1]


def test_hours_from_a_utc_instant_are_shown_in_minnesota_time():
    result = hours_elapsed(datetime(2024, 7, 1, 17, 0, tzinfo=UTC), 72, CHICAGO)
    assert result.value == datetime(2024, 7, 4, 12, 0, tzinfo=CHICAGO)
    assert result.value.tzinfo is CHICAGO
    assert len(result.trace) == 1


def test_naive_datetime_is_rejected():
    naive = datetime(2026, 11, 1, 1, 30)  # noqa: DTZ001 -- the point of the test
    with pytest.raises(ValueError, match="instant must be timezone-aware"):
        hours_elapsed(naive, 1, CHICAGO)
    with pytest.raises(ValueError, match="instant must be timezone-aware"):
        compute(naive, 1, "hours", "elapsed", MN, CHICAGO)
    with pytest.raises(ValueError, match="instant must be timezone-aware"):
        compute(naive, 14, "calendar_days", "mn_645_15", MN, CHICAGO)


# ------------------------------------------------------------------------------------------- compute


@pytest.mark.parametrize(
    ("trigger", "amount", "unit", "counting", "expected"),
    [
        (date(2024, 5, 13), 14, "calendar_days", "mn_645_15", date(2024, 5, 28)),
        (date(2024, 5, 13), 14, "calendar_days", "no_roll", date(2024, 5, 27)),
        (date(2024, 6, 5), 14, "calendar_days", "includes_trigger_day", date(2024, 6, 18)),
        (date(2024, 11, 27), 5, "business_days", "business_days", date(2024, 12, 6)),
        (date(2024, 5, 6), 3, "weeks", "mn_645_15", date(2024, 5, 28)),
        (date(2024, 5, 6), 3, "weeks", "no_roll", date(2024, 5, 27)),
        (date(2026, 1, 4), 6, "months", "mn_645_15", date(2026, 7, 6)),
        (date(2026, 1, 4), 6, "months", "no_roll", date(2026, 7, 4)),
        (date(2023, 12, 25), 1, "years", "mn_645_15", date(2024, 12, 26)),
        (date(2023, 12, 25), 1, "years", "no_roll", date(2024, 12, 25)),
        (
            datetime(2026, 11, 1, 1, 30, tzinfo=CHICAGO),
            1,
            "hours",
            "elapsed",
            datetime(2026, 11, 1, 1, 30, fold=1, tzinfo=CHICAGO),
        ),
    ],
)
def test_compute_dispatches_unit_and_counting(trigger, amount, unit, counting, expected):
    result = compute(trigger, amount, unit, counting, MN, CHICAGO)
    assert result.value == expected
    assert type(result.value) is type(expected)
    if isinstance(expected, datetime):
        assert result.value.utcoffset() == expected.utcoffset()


def test_compute_counts_days_from_the_local_date_of_an_instant():
    late_evening = datetime(2024, 5, 4, 3, 30, tzinfo=UTC)  # 22:30 CDT on Friday 3 May
    result = compute(late_evening, 14, "calendar_days", "mn_645_15", MN, CHICAGO, event="the notice")
    assert result.value == date(2024, 5, 17)
    assert result.trace[0] == "10:30 p.m. CDT on Friday 3 May 2024 is on Friday 3 May 2024"


@pytest.mark.parametrize(
    ("unit", "counting"),
    [
        ("hours", "mn_645_15"),
        ("calendar_days", "elapsed"),
        ("business_days", "mn_645_15"),
        ("calendar_days", "business_days"),
        ("months", "includes_trigger_day"),
        ("years", "elapsed"),
    ],
)
def test_compute_rejects_invalid_combinations_naming_both(unit, counting):
    trigger = datetime(2024, 5, 3, 12, tzinfo=CHICAGO) if unit == "hours" else date(2024, 5, 3)
    with pytest.raises(ValueError) as err:
        compute(trigger, 1, unit, counting, MN, CHICAGO)
    assert unit in str(err.value) and counting in str(err.value)


def test_compute_rejects_unknown_unit_and_counting():
    with pytest.raises(ValueError, match="fortnights"):
        compute(date(2024, 5, 3), 1, "fortnights", "mn_645_15", MN, CHICAGO)
    with pytest.raises(ValueError, match="roughly"):
        compute(date(2024, 5, 3), 1, "calendar_days", "roughly", MN, CHICAGO)


def test_compute_hours_needs_an_instant_not_a_date():
    with pytest.raises(ValueError, match="instant"):
        compute(date(2024, 5, 3), 1, "hours", "elapsed", MN, CHICAGO)


def test_compute_without_a_calendar_only_for_no_roll():
    plain = compute(date(2024, 5, 13), 14, "calendar_days", "no_roll", None, CHICAGO)
    assert plain.value == date(2024, 5, 27)
    with pytest.raises(ValueError, match="calendar"):
        compute(date(2024, 5, 13), 14, "calendar_days", "mn_645_15", None, CHICAGO)


@pytest.mark.parametrize("amount", [-1, 1.5, True, "14", None])
def test_amount_must_be_a_non_negative_whole_number(amount):
    with pytest.raises(ValueError, match="whole number"):
        days_645_15(date(2024, 5, 3), amount, MN)
    with pytest.raises(ValueError, match="whole number"):
        compute(date(2024, 5, 3), amount, "calendar_days", "mn_645_15", MN, CHICAGO)


@pytest.mark.parametrize("trigger", [date(1899, 12, 31), date(2201, 1, 1)])
def test_dates_outside_1900_to_2200_are_rejected(trigger):
    with pytest.raises(ValueError, match="1900-2200"):
        days_645_15(trigger, 14, MN)
    with pytest.raises(ValueError, match="1900-2200"):
        add_months(trigger, 1)
    with pytest.raises(ValueError, match="1900-2200"):
        business_days(trigger, 1, MN)


def test_edge_dates_of_the_range_are_accepted():
    assert days_645_15(date(1900, 1, 1), 1, MN).value == date(1900, 1, 2)
    assert days_645_15(date(2200, 12, 31), 1, MN).value == date(2201, 1, 2)  # 1 January 2201 is a holiday


def test_datetime_is_not_accepted_where_a_date_is_meant():
    with pytest.raises(TypeError, match="not a datetime"):
        days_645_15(datetime(2024, 5, 3, 12, tzinfo=CHICAGO), 14, MN)
