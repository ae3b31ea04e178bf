"""What the pages of every app share: the request's now and today, the cities' names, ids and rules in words."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

from dogcase.law import library


def now_and_today() -> tuple[dt.datetime, dt.date]:
    """Read "now" once per request; "today" is the Minnesota date (settings.TIME_ZONE)."""
    now = timezone.now()
    return now, timezone.localdate(now)


def not_installed(jurisdiction_id: str) -> str:
    return f"law pack {jurisdiction_id} is not installed"


def installed(jurisdiction_id: str):
    """The jurisdiction, or None when its law pack is no longer in the library (removed or renamed): its
    records are still shown, with `not_installed(...)` in place of what only the law could say."""
    return library().jurisdictions.get(jurisdiction_id)


def city_names(cities) -> dict[str, str]:
    out = {}
    for c in cities:
        j = installed(c)
        if j is None:  # a city access row, or records, for a pack no longer shipped
            out[c] = f"{c} ({not_installed(c)})"
            continue
        out[c] = j.name.removeprefix("City of ").removesuffix(", Minnesota")
    return out


def humanize(value: Any) -> str:
    """An id as words: `substantial_bodily_harm` -> "Substantial bodily harm"."""
    text = str(value).replace("_", " ").strip()
    return text[:1].upper() + text[1:]


def sentence(text: str) -> str:
    """A rule from the law engine or an act ("must be a date ...") as a sentence shown on a form."""
    text = str(text).strip()
    return text[:1].upper() + text[1:]
