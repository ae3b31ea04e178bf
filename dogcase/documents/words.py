"""How the documents write a recorded value: dates, times and instants in words, any value as text."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone


def date_words(value: dt.date | dt.datetime | None, tz=None) -> str:
    """A date as the documents write it: "Monday, 14 December 2026"."""
    if value is None:
        return ""
    if isinstance(value, dt.datetime):
        value = (value.astimezone(tz) if tz else timezone.localtime(value)).date()
    return f"{value:%A}, {value.day} {value:%B %Y}"


def time_words(value: dt.datetime, tz=None) -> str:
    local = value.astimezone(tz) if tz else timezone.localtime(value)
    hour = local.hour % 12 or 12
    half = "a.m." if local.hour < 12 else "p.m."
    return f"{hour}:{local.minute:02d} {half}"


def instant_words(value: dt.datetime, tz=None) -> str:
    """ "Monday, 14 December 2026 at 10:00 a.m."."""
    return f"{date_words(value, tz)} at {time_words(value, tz)}"


def words(value: Any, tz=None) -> str | None:
    """Any recorded value as text; None when there is none."""
    if value is None or value == "" or value == []:
        return None
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dt.datetime):
        return instant_words(value, tz)
    if isinstance(value, dt.date):
        return date_words(value)
    if isinstance(value, str):
        parsed = parse(value)
        if parsed is not value:
            return words(parsed, tz)
        return value.strip() or None
    if isinstance(value, list | tuple):
        parts = [w for w in (words(v, tz) for v in value) if w]
        return "; ".join(parts) or None
    return str(value)


def parse(value: str) -> Any:
    try:
        if len(value) == 10 and value[4] == "-" and value[7] == "-":
            return dt.date.fromisoformat(value)
        if "T" in value and value[:4].isdigit():
            return dt.datetime.fromisoformat(value)
    except ValueError:
        pass
    return value


def humanize(value: str) -> str:
    return str(value).replace("_", " ")
