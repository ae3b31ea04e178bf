"""What the pages of every app share: the request's now and today, the cities' names, ids and rules in words."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.urls import reverse
from django.utils import timezone

from dogcase.law import library
from dogcase.law.procedure import past_tense

# An obligation's status in words, on every page and in every export that shows one.
OBLIGATION_STATUS_WORDS = {
    "open": "Open",
    "overdue": "Overdue",
    "met": "Done",
    "not_yet": "Not yet",
    "available": "Open to act",
    "withdrawn": "No longer applies",
    "lapsed": "Time ended unused (a right, not a duty)",
    "undetermined": "Cannot be worked out yet",
}


def stage_words(stage: str) -> str:
    """Where a case stands, from what its last step did, as a clerk says it. A case's stage is the outcome of
    its latest act ("The City Council confirmed the designation", `dogcase.cases.outcomes`); a case recorded
    before outcomes were kept has its last step's label, said in the past tense: "Case opened" -> "Incident
    recorded, not yet decided"; "Issue the hearing officer's decision" -> "Issued the hearing officer's
    decision"."""
    if not stage or stage == "Case opened":
        return "Incident recorded, not yet decided"
    return past_tense(stage).removeprefix("Recorded: ")


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


_MARKER = 987654321


def numbered_urls(name: str, *args: Any):
    """The url `name` takes with `args` and a number last (an event's seq, a document's pk), for each number:
    reversed once, then each number put in its place (a page lists dozens of them); reversed for each number
    when the marker is not found once in the url."""
    base = reverse(name, args=[*args, _MARKER])
    head, found, tail = base.rpartition(str(_MARKER))
    if not found or str(_MARKER) in head:

        def each(number: int) -> str:
            return reverse(name, args=[*args, number])

        return each

    def url(number: int) -> str:
        return f"{head}{number}{tail}"

    return url
