"""Small helpers the staff views share."""

from __future__ import annotations

import datetime as dt
import uuid

from django.utils import timezone

from dogcase.law import library
from dogcase.staff.guards import not_installed


def now_and_today() -> tuple[dt.datetime, dt.date]:
    """Read "now" once per request; "today" is the Minnesota date (settings.TIME_ZONE)."""
    now = timezone.now()
    return now, timezone.localdate(now)


def new_form_token() -> str:
    return str(uuid.uuid4())


def clean_token(value: str | None) -> str | None:
    """A form's idempotency key as sent back, if it is a well-formed uuid (else a fresh one is not made up)."""
    try:
        return str(uuid.UUID(str(value)))
    except (ValueError, TypeError):
        return None


def jurisdiction(jurisdiction_id: str):
    return library().get(jurisdiction_id)


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


def sentence(text: str) -> str:
    """A rule from the law engine or an act ("must be a date ...") as a sentence shown on a form."""
    text = str(text).strip()
    return text[:1].upper() + text[1:]
