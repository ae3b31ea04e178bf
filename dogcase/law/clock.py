"""Minnesota time: when a period the law sets ends.

Pure Python (stdlib only). The clock knows how to count; it knows no holidays and no ordinance numbers.
Holiday rules come in as data (the state law pack lists them, the loader builds `HolidayRule` objects, a city
pack decides the optional ones), and every answer carries a plain-English trace of how it was reached.

Counting rules (docs/law-packs.md, "deadline"):

- ``mn_645_15``: Minn. Stat. 645.15 -- exclude the day of the trigger, include the last day; a last day that
  is a Saturday, Sunday or legal holiday moves to the next day that is none.
- ``includes_trigger_day``: the day of the trigger is day one; the 645.15 roll still applies.
- ``no_roll``: plain calendar arithmetic.
- ``business_days``: count weekdays that are not the calendar's holidays, starting the day after the trigger.
- ``elapsed``: hours of absolute (UTC) time, shown in local time -- DST-safe.

Months and years clamp to the end of the month when the day does not exist (31 August + 6 months is the last
day of February), and the trace says so.

A period of 0 (days, weeks, months, years) ends on the trigger day itself and is not rolled: there is no
period whose last day could be omitted. 0 business days is the trigger day; 0 hours is the trigger instant.
"""

from __future__ import annotations

import calendar as _calendar
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from types import MappingProxyType
from zoneinfo import ZoneInfo

__all__ = [
    "ALLOWED_COUNTING",
    "COUNTINGS",
    "ClockResult",
    "Holiday",
    "HolidayCalendar",
    "HolidayRule",
    "MAX_DATE",
    "MINNESOTA_TZ",
    "MIN_DATE",
    "UNITS",
    "add_days",
    "add_months",
    "add_years",
    "business_days",
    "compute",
    "days_645_15",
    "days_including_trigger",
    "format_date",
    "format_time",
    "hours_elapsed",
    "months",
    "weeks",
    "years",
]

MINNESOTA_TZ = ZoneInfo("America/Chicago")
MIN_DATE = date(1900, 1, 1)
MAX_DATE = date(2200, 12, 31)

UNITS = frozenset({"calendar_days", "business_days", "hours", "weeks", "months", "years"})
COUNTINGS = frozenset({"mn_645_15", "includes_trigger_day", "no_roll", "business_days", "elapsed"})
ALLOWED_COUNTING: Mapping[str, frozenset[str]] = MappingProxyType(
    {
        "calendar_days": frozenset({"mn_645_15", "includes_trigger_day", "no_roll"}),
        "weeks": frozenset({"mn_645_15", "includes_trigger_day", "no_roll"}),
        "months": frozenset({"mn_645_15", "no_roll"}),
        "years": frozenset({"mn_645_15", "no_roll"}),
        "business_days": frozenset({"business_days"}),
        "hours": frozenset({"elapsed"}),
    }
)

_S645 = "Minn. Stat. 645.15"
_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_MONTHS = (
    "",
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
_ONE_DAY = timedelta(days=1)
_KINDS = frozenset({"fixed", "nth_weekday", "after"})
_OBSERVED = frozenset({"none", "weekend_shift"})


# --------------------------------------------------------------------------------------------- formatting


def missing_day(text: str) -> str | None:
    """Why a date written YYYY-MM-DD does not exist ("30 February 2026 does not exist: February 2026 has 28
    days"), or None when the text is not written that way or the date exists."""
    text = text.strip()
    parts = text[:10].split("-")
    if len(parts) != 3 or not all(p.isdecimal() for p in parts) or [len(p) for p in parts] != [4, 2, 2]:
        return None
    year, month, day = (int(p) for p in parts)
    if not 1 <= month <= 12:
        return f"{text[:10]} does not exist: there is no month {month}"
    last = _calendar.monthrange(year, month)[1] if year >= 1 else 31
    if not 1 <= day <= last:
        return f"{day} {_MONTHS[month]} {year} does not exist: {_MONTHS[month]} {year} has {last} days"
    return None


def format_date(d: date) -> str:
    """'Friday 3 May 2024' -- no locale, no strftime."""
    return f"{_WEEKDAYS[d.weekday()]} {d.day} {_MONTHS[d.month]} {d.year}"


def format_time(t: datetime) -> str:
    """'1:30 a.m. CDT on Sunday 1 November 2026' (seconds only when not zero)."""
    h = t.hour
    h12 = h % 12 or 12
    half = "a.m." if h < 12 else "p.m."
    sec = f":{t.second:02d}" if t.second or t.microsecond else ""
    return f"{h12}:{t.minute:02d}{sec} {half} {t.tzname()} on {format_date(t)}"


def _ordinal(n: int) -> str:
    if 10 <= n % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


# --------------------------------------------------------------------------------------------- holidays


@dataclass(frozen=True, slots=True)
class HolidayRule:
    """One holiday as the law pack states it."""

    id: str
    name: str
    kind: str  # "fixed" | "nth_weekday" | "after"
    month: int | None = None
    day: int | None = None  # fixed
    weekday: int | None = None  # nth_weekday: 0=Monday..6=Sunday
    n: int | None = None  # nth_weekday: 1..4, or -1 for the last
    after: str | None = None  # kind "after": id of another rule
    after_days: int = 0
    observed: str = "none"  # "weekend_shift": Sunday -> Monday, Saturday -> preceding Friday
    valid_from: date | None = None  # first date the holiday exists (inclusive); None = always
    valid_until: date | None = None  # exclusive
    names: tuple[tuple[str, date | None, date | None], ...] = ()  # (name, from inclusive, until exclusive)
    optional: bool = False  # a city chooses whether to observe it
    citation: str = ""

    def __post_init__(self) -> None:
        def bad(msg: str) -> ValueError:
            return ValueError(f"holiday rule {self.id!r}: {msg}")

        if not isinstance(self.id, str) or not self.id:
            raise ValueError("holiday rule: id must be a non-empty string")
        if not isinstance(self.name, str) or not self.name:
            raise bad("name must be a non-empty string")
        if self.kind not in _KINDS:
            raise bad(f"kind must be one of {sorted(_KINDS)}, not {self.kind!r}")
        if self.observed not in _OBSERVED:
            raise bad(f"observed must be one of {sorted(_OBSERVED)}, not {self.observed!r}")
        if self.kind == "fixed":
            if self.month is None or self.day is None:
                raise bad("a fixed holiday needs month and day")
            _check_month(self.month, bad)
            if (
                not isinstance(self.day, int)
                or not 1 <= self.day <= _calendar.monthrange(2000, self.month)[1]
            ):
                raise bad(f"no day {self.day!r} in {_MONTHS[self.month]}")
            if self.weekday is not None or self.n is not None or self.after is not None:
                raise bad("a fixed holiday takes only month and day")
        elif self.kind == "nth_weekday":
            if self.month is None or self.weekday is None or self.n is None:
                raise bad("an nth_weekday holiday needs month, weekday and n")
            _check_month(self.month, bad)
            if not isinstance(self.weekday, int) or not 0 <= self.weekday <= 6:
                raise bad(f"weekday must be 0 (Monday) .. 6 (Sunday), not {self.weekday!r}")
            if self.n not in (1, 2, 3, 4, -1) or isinstance(self.n, bool):
                raise bad(f"n must be 1..4 or -1 (last), not {self.n!r}")
            if self.day is not None or self.after is not None:
                raise bad("an nth_weekday holiday takes only month, weekday and n")
        else:  # after
            if not isinstance(self.after, str) or not self.after:
                raise bad("an 'after' holiday needs the id of the holiday it follows")
            if self.after == self.id:
                raise bad("a holiday cannot follow itself")
            if (
                self.month is not None
                or self.day is not None
                or self.weekday is not None
                or self.n is not None
            ):
                raise bad("an 'after' holiday takes only after and after_days")
        if not isinstance(self.after_days, int) or isinstance(self.after_days, bool):
            raise bad("after_days must be an integer")
        if self.after_days and self.kind != "after":
            raise bad("after_days is only for 'after' holidays")
        for field in (self.valid_from, self.valid_until):
            if field is not None and (not isinstance(field, date) or isinstance(field, datetime)):
                raise bad("valid_from/valid_until must be dates")
        if (
            self.valid_from is not None
            and self.valid_until is not None
            and self.valid_until <= self.valid_from
        ):
            raise bad("valid_until must be after valid_from")
        if not isinstance(self.names, tuple):
            raise bad("names must be a tuple of (name, from, until)")
        for entry in self.names:
            if not (isinstance(entry, tuple) and len(entry) == 3 and isinstance(entry[0], str) and entry[0]):
                raise bad(f"names entry {entry!r} must be (name, from, until)")
            if entry[1] is not None and entry[2] is not None and entry[2] <= entry[1]:
                raise bad(f"names entry {entry[0]!r}: until must be after from")
        if not isinstance(self.optional, bool):
            raise bad("optional must be True or False")

    def name_on(self, d: date) -> str:
        """The holiday's name on date d (e.g. Christopher Columbus Day before 2023)."""
        for name, start, until in self.names:
            if (start is None or start <= d) and (until is None or d < until):
                return name
        return self.name

    def in_force_on(self, d: date) -> bool:
        return (self.valid_from is None or self.valid_from <= d) and (
            self.valid_until is None or d < self.valid_until
        )


def _check_month(month: object, bad) -> None:
    if not isinstance(month, int) or isinstance(month, bool) or not 1 <= month <= 12:
        raise bad(f"month must be 1..12, not {month!r}")


@dataclass(frozen=True, slots=True)
class Holiday:
    """One observed occurrence of a holiday."""

    date: date  # the day that is off
    rule_id: str
    name: str
    citation: str
    actual_date: date  # the calendar date of the holiday; differs from `date` when a weekend shifted it

    @property
    def shifted(self) -> bool:
        return self.date != self.actual_date

    def describe(self) -> str:
        """'Monday 27 May 2024 is Memorial Day, a legal holiday (Minn. Stat. 645.44, subd. 5)'."""
        cite = f" ({self.citation})" if self.citation else ""
        if self.date == self.actual_date:
            return f"{format_date(self.date)} is {self.name}, a legal holiday{cite}"
        side = "Friday before" if self.date < self.actual_date else "Monday after"
        return (
            f"{format_date(self.date)} is the legal holiday for {self.name}{cite}: "
            f"{format_date(self.actual_date)} falls on a weekend, so the {side} is the day off"
        )


class HolidayCalendar:
    """The holidays one body (the state, a city) observes, from rules given as data.

    Optional rules (a city's choice) are observed only when ``observes[rule.id]`` is True; every optional rule
    must be decided. Results are cached per year.
    """

    __slots__ = ("name", "_rules", "_by_id", "_observed", "_cache", "_proxies", "_order")

    def __init__(
        self,
        rules: Sequence[HolidayRule],
        observes: Mapping[str, bool] = MappingProxyType({}),
        *,
        name: str = "",
    ) -> None:
        self.name = name
        rules = tuple(rules)
        by_id: dict[str, HolidayRule] = {}
        for rule in rules:
            if not isinstance(rule, HolidayRule):
                raise TypeError(f"expected HolidayRule, got {type(rule).__name__}")
            if rule.id in by_id:
                raise ValueError(f"holiday rule {rule.id!r} is defined twice")
            by_id[rule.id] = rule
        for rule in rules:
            if rule.kind == "after" and rule.after not in by_id:
                raise ValueError(f"holiday rule {rule.id!r} follows unknown holiday {rule.after!r}")
        # order so that a rule comes after the rule it follows; detect cycles
        order: list[HolidayRule] = []
        state: dict[str, int] = {}

        def visit(rule: HolidayRule, path: tuple[str, ...]) -> None:
            s = state.get(rule.id)
            if s == 2:
                return
            if s == 1:
                raise ValueError(
                    f"holiday rules follow each other in a cycle: {' -> '.join(path + (rule.id,))}"
                )
            state[rule.id] = 1
            if rule.kind == "after":
                visit(by_id[rule.after], path + (rule.id,))  # type: ignore[index]
            state[rule.id] = 2
            order.append(rule)

        for rule in rules:
            visit(rule, ())

        for key, value in observes.items():
            if key not in by_id:
                raise ValueError(f"observes names unknown holiday {key!r}")
            if not by_id[key].optional:
                raise ValueError(f"holiday {key!r} is not optional: it cannot be chosen or declined")
            if not isinstance(value, bool):
                raise ValueError(f"observes[{key!r}] must be True or False, not {value!r}")
        missing = [r.id for r in rules if r.optional and r.id not in observes]
        if missing:
            raise ValueError(
                "the calendar must decide whether it observes optional holiday(s): "
                + ", ".join(repr(m) for m in missing)
            )
        self._rules = rules
        self._by_id = by_id
        self._order = tuple(order)
        self._observed = frozenset(r.id for r in rules if not r.optional or observes[r.id])
        self._cache: dict[int, dict[date, Holiday]] = {}
        self._proxies: dict[int, Mapping[date, Holiday]] = {}

    def __repr__(self) -> str:
        return f"HolidayCalendar({self.name!r}, {len(self._rules)} rules)"

    @property
    def rules(self) -> tuple[HolidayRule, ...]:
        return self._rules

    def observes(self, rule_id: str) -> bool:
        """Whether this calendar observes the holiday `rule_id` (KeyError on an unknown id)."""
        if rule_id not in self._by_id:
            raise KeyError(rule_id)
        return rule_id in self._observed

    def _actual_dates(self, year: int) -> dict[str, date]:
        """Calendar date of every rule in `year` that exists (in force), observed or not."""
        out: dict[str, date] = {}
        for rule in self._order:
            if rule.kind == "fixed":
                if rule.day > _calendar.monthrange(year, rule.month)[1]:  # 29 February in a common year
                    continue
                d = date(year, rule.month, rule.day)
            elif rule.kind == "nth_weekday":
                if rule.n == -1:
                    last = _calendar.monthrange(year, rule.month)[1]
                    d = date(year, rule.month, last)
                    d -= timedelta(days=(d.weekday() - rule.weekday) % 7)
                else:
                    first = date(year, rule.month, 1)
                    d = first + timedelta(days=(rule.weekday - first.weekday()) % 7 + 7 * (rule.n - 1))
            else:
                base = out.get(rule.after)  # type: ignore[arg-type]
                if base is None:
                    continue
                try:
                    d = base + timedelta(days=rule.after_days)
                except OverflowError:
                    continue
            if rule.in_force_on(d):
                out[rule.id] = d
        return out

    def _year(self, year: int) -> dict[date, Holiday]:
        cached = self._cache.get(year)
        if cached is not None:
            return cached
        if not isinstance(year, int) or isinstance(year, bool):
            raise TypeError("year must be an integer")
        if not 1 < year < 9999:
            raise ValueError(f"year {year} is out of range")
        result: dict[date, Holiday] = {}
        observed = self._observed
        for y in (year - 1, year, year + 1):
            for rule_id, actual in self._actual_dates(y).items():
                if rule_id not in observed:
                    continue
                rule = self._by_id[rule_id]
                day = actual
                if rule.observed == "weekend_shift":
                    wd = actual.weekday()
                    if wd == 5:
                        day = actual - _ONE_DAY
                    elif wd == 6:
                        day = actual + _ONE_DAY
                if day.year != year or day in result:  # first rule listed wins a collision
                    continue
                result[day] = Holiday(day, rule.id, rule.name_on(actual), rule.citation, actual)
        result = dict(sorted(result.items()))
        self._cache[year] = result
        return result

    def holidays(self, year: int) -> Mapping[date, Holiday]:
        """Observed holidays whose day off falls in `year` (a Saturday 1 January gives the Friday before)."""
        proxy = self._proxies.get(year)
        if proxy is None:
            proxy = self._proxies[year] = MappingProxyType(self._year(year))
        return proxy

    def holiday_on(self, d: date) -> Holiday | None:
        hol = self._cache.get(d.year)
        if hol is None:
            hol = self._year(d.year)
        return hol.get(d)

    def is_business_day(self, d: date) -> bool:
        """A weekday that is not a holiday of this calendar."""
        if d.weekday() >= 5:
            return False
        hol = self._cache.get(d.year)
        if hol is None:
            hol = self._year(d.year)
        return d not in hol


# --------------------------------------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class ClockResult:
    value: date | datetime
    trace: tuple[str, ...]


def _check_amount(amount: object, unit: str = "amount") -> int:
    if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
        raise ValueError(f"{unit} must be a whole number 0 or more, not {amount!r}")
    return amount


def _check_date(d: object, what: str = "trigger") -> date:
    if isinstance(d, datetime) or not isinstance(d, date):
        raise TypeError(f"{what} must be a date (not a datetime), got {type(d).__name__}")
    if not MIN_DATE <= d <= MAX_DATE:
        raise ValueError(f"{what} {d.isoformat()} is outside the supported range 1900-2200")
    return d


def _add(d: date, days: int) -> date:
    try:
        return d + timedelta(days=days)
    except OverflowError:
        raise ValueError(f"{days} days after {d.isoformat()} is beyond the calendar") from None


def _not_counted(event: str) -> str:
    return f"the day of {event} is not counted" if event else "that day itself is not counted"


def _roll(last: date, cal: HolidayCalendar) -> tuple[date, str | None]:
    """645.15: a last day that is a Saturday, Sunday or holiday moves to the next day that is none."""
    if cal.is_business_day(last):
        return last, None
    reasons = []
    d = last
    while not cal.is_business_day(d):
        wd = d.weekday()
        if wd >= 5:
            reasons.append(f"{format_date(d)} is a weekend day")
        else:
            reasons.append(cal.holiday_on(d).describe())  # type: ignore[union-attr]
        d += _ONE_DAY
    if len(reasons) == 1:
        joined = reasons[0]
    else:
        joined = "; ".join(reasons[:-1]) + "; and " + reasons[-1]
    return d, f"{joined}: the period runs to {format_date(d)} ({_S645})"


# --------------------------------------------------------------------------------------------- counting


def add_days(trigger: date, days: int) -> ClockResult:
    """Plain calendar arithmetic, no roll (counting ``no_roll``)."""
    _check_date(trigger)
    _check_amount(days, "days")
    value = _add(trigger, days)
    return ClockResult(
        value, (f"{_plural(days, 'day')} after {format_date(trigger)} is {format_date(value)}",)
    )


def days_645_15(trigger: date, days: int, cal: HolidayCalendar, *, event: str = "") -> ClockResult:
    """Minn. Stat. 645.15: exclude the first day, include the last; roll a weekend/holiday last day."""
    _check_date(trigger)
    _check_amount(days, "days")
    if days == 0:
        return ClockResult(
            trigger, (f"a period of 0 days ends on the day itself, {format_date(trigger)}: nothing to count",)
        )
    last = _add(trigger, days)
    first = (
        f"{_plural(days, 'day')} after {format_date(trigger)} ({_not_counted(event)}, {_S645}) "
        f"is {format_date(last)}"
    )
    value, note = _roll(last, cal)
    return ClockResult(value, (first,) if note is None else (first, note))


def days_including_trigger(trigger: date, days: int, cal: HolidayCalendar, *, event: str = "") -> ClockResult:
    """The day of the trigger is day 1 ("the day of seizure included"); the 645.15 roll applies."""
    _check_date(trigger)
    _check_amount(days, "days")
    if days == 0:
        raise ValueError("a period that counts the trigger day as day 1 needs at least 1 day")
    last = _add(trigger, days - 1)
    what = f"the day of {event}" if event else "that day"
    first = (
        f"{_plural(days, 'day')} counting {format_date(trigger)} as day 1 ({what} is included) "
        f"end on {format_date(last)}"
    )
    value, note = _roll(last, cal)
    return ClockResult(value, (first,) if note is None else (first, note))


def weeks(trigger: date, n: int, cal: HolidayCalendar, *, event: str = "", roll: bool = True) -> ClockResult:
    """n weeks = 7 x n days, counted as Minn. Stat. 645.15 days (or plain arithmetic with roll=False)."""
    _check_amount(n, "weeks")
    days = 7 * n
    inner = days_645_15(trigger, days, cal, event=event) if roll else add_days(trigger, days)
    if n == 0:
        return inner
    return ClockResult(inner.value, (f"{_plural(n, 'week')} is {days} days",) + inner.trace)


def _add_months(d: date, n: int) -> tuple[date, str | None]:
    total = d.month - 1 + n
    year = d.year + total // 12
    month = total % 12 + 1
    if year > 9999:
        raise ValueError(f"{n} months after {d.isoformat()} is beyond the calendar")
    last = _calendar.monthrange(year, month)[1]
    if d.day <= last:
        return date(year, month, d.day), None
    value = date(year, month, last)
    return value, (
        f"there is no {_ordinal(d.day)} in {_MONTHS[month]} {year}: the last day of the month is used, "
        f"{format_date(value)}"
    )


def add_months(d: date, n: int) -> ClockResult:
    """Calendar months; a day the target month lacks becomes that month's last day (end_of_month: clamp)."""
    _check_date(d, "date")
    _check_amount(n, "months")
    value, clamp = _add_months(d, n)
    first = f"{_plural(n, 'month')} after {format_date(d)} is {format_date(value)}"
    return ClockResult(value, (first,) if clamp is None else (first, clamp))


def add_years(d: date, n: int) -> ClockResult:
    """Calendar years; 29 February in a year without one becomes 28 February (end_of_month: clamp)."""
    _check_date(d, "date")
    _check_amount(n, "years")
    value, clamp = _add_months(d, 12 * n)
    first = f"{_plural(n, 'year')} after {format_date(d)} is {format_date(value)}"
    return ClockResult(value, (first,) if clamp is None else (first, clamp))


def _with_roll(base: ClockResult, n: int, cal: HolidayCalendar, roll: bool) -> ClockResult:
    if not roll or n == 0:
        return base
    value, note = _roll(base.value, cal)  # type: ignore[arg-type]
    return base if note is None else ClockResult(value, base.trace + (note,))


def months(trigger: date, n: int, cal: HolidayCalendar, roll: bool = True) -> ClockResult:
    """Calendar months after the trigger, then (roll=True) the 645.15 weekend/holiday roll."""
    return _with_roll(add_months(trigger, n), n, cal, roll)


def years(trigger: date, n: int, cal: HolidayCalendar, roll: bool = True) -> ClockResult:
    """Calendar years after the trigger, then (roll=True) the 645.15 weekend/holiday roll."""
    return _with_roll(add_years(trigger, n), n, cal, roll)


def business_days(trigger: date, n: int, cal: HolidayCalendar, *, event: str = "") -> ClockResult:
    """The n-th weekday that is not a holiday of `cal`, counting from the day after the trigger."""
    _check_date(trigger)
    _check_amount(n, "business days")
    if n == 0:
        return ClockResult(trigger, (f"0 business days after {format_date(trigger)} is that same day",))
    d = trigger
    count = 0
    skipped: list[Holiday] = []
    is_business_day = cal.is_business_day
    while count < n:
        d += _ONE_DAY
        if is_business_day(d):
            count += 1
        elif d.weekday() < 5:
            skipped.append(cal.holiday_on(d))  # type: ignore[arg-type]
    start = event if event else "that day"
    first = (
        f"{_plural(n, 'business day')} after {format_date(trigger)} (weekdays that are not holidays, "
        f"counted from the day after {start}) is {format_date(d)}"
    )
    if not skipped:
        return ClockResult(d, (first,))
    return ClockResult(d, (first,) + tuple(f"not counted: {h.describe()}" for h in skipped))


def hours_elapsed(instant: datetime, hours: int, tz: ZoneInfo = MINNESOTA_TZ) -> ClockResult:
    """`hours` of elapsed time after an aware instant, shown in `tz` (DST-safe: computed in UTC)."""
    if not isinstance(instant, datetime):
        raise TypeError(f"instant must be a datetime, got {type(instant).__name__}")
    if instant.tzinfo is None or instant.utcoffset() is None:
        raise ValueError("instant must be timezone-aware")
    _check_amount(hours, "hours")
    start = instant.astimezone(tz)
    _check_date(start.date(), "instant")
    try:
        value = (instant.astimezone(UTC) + timedelta(hours=hours)).astimezone(tz)
    except OverflowError:
        raise ValueError(f"{hours} hours after {instant.isoformat()} is beyond the calendar") from None
    first = f"{_plural(hours, 'hour')} after {format_time(start)} is {format_time(value)}"
    if start.utcoffset() == value.utcoffset():
        return ClockResult(value, (first,))
    direction = "back" if value.utcoffset() < start.utcoffset() else "forward"  # type: ignore[operator]
    note = f"the clocks went {direction} in between: the hours are counted as time that actually passes"
    return ClockResult(value, (first, note))


def compute(
    trigger: date | datetime,
    amount: int,
    unit: str,
    counting: str,
    cal: HolidayCalendar | None,
    tz: ZoneInfo = MINNESOTA_TZ,
    *,
    event: str = "",
) -> ClockResult:
    """Dispatch a law-pack deadline period {amount, unit} with its counting rule.

    A day-based unit accepts a date, or an aware datetime (its local date in `tz` is used, and the trace says
    so); hours need an aware datetime.
    """
    if unit not in UNITS:
        raise ValueError(f"unknown unit {unit!r}: expected one of {sorted(UNITS)}")
    if counting not in COUNTINGS:
        raise ValueError(f"unknown counting {counting!r}: expected one of {sorted(COUNTINGS)}")
    if counting not in ALLOWED_COUNTING[unit]:
        raise ValueError(
            f"unit {unit!r} cannot be counted with {counting!r} (allowed: {sorted(ALLOWED_COUNTING[unit])})"
        )
    _check_amount(amount, unit)
    if unit == "hours":
        if not isinstance(trigger, datetime):
            raise ValueError("hours are counted from an instant (a timezone-aware datetime), not a date")
        return hours_elapsed(trigger, amount, tz)

    prefix: tuple[str, ...] = ()
    if isinstance(trigger, datetime):
        if trigger.tzinfo is None or trigger.utcoffset() is None:
            raise ValueError("instant must be timezone-aware")
        local = trigger.astimezone(tz)
        day = local.date()
        prefix = (f"{format_time(local)} is on {format_date(day)}",)
    else:
        day = trigger
    if counting != "no_roll" and cal is None:
        raise ValueError(f"counting {counting!r} needs a holiday calendar")

    if unit == "calendar_days":
        if counting == "mn_645_15":
            result = days_645_15(day, amount, cal, event=event)  # type: ignore[arg-type]
        elif counting == "includes_trigger_day":
            result = days_including_trigger(day, amount, cal, event=event)  # type: ignore[arg-type]
        else:
            result = add_days(day, amount)
    elif unit == "weeks":
        if counting == "includes_trigger_day":
            result = days_including_trigger(day, 7 * amount, cal, event=event)  # type: ignore[arg-type]
            result = ClockResult(
                result.value, (f"{_plural(amount, 'week')} is {7 * amount} days",) + result.trace
            )
        else:
            result = weeks(day, amount, cal, event=event, roll=counting == "mn_645_15")  # type: ignore[arg-type]
    elif unit == "months":
        result = months(day, amount, cal, roll=counting == "mn_645_15")  # type: ignore[arg-type]
    elif unit == "years":
        result = years(day, amount, cal, roll=counting == "mn_645_15")  # type: ignore[arg-type]
    else:  # business_days
        result = business_days(day, amount, cal, event=event)  # type: ignore[arg-type]
    if prefix:
        return ClockResult(result.value, prefix + result.trace)
    return result
