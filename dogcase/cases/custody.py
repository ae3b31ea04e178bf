"""Where a seized dog is, read from the case's acts (issue 22, item 5): the last seizure or impoundment not yet
followed by a release, a disposal or a destruction — with the ground, the place and its contact, the dog's
condition when taken, and for how many days it has been held — or how the last custody ended. The case page and
the owner's page show it; the boarding the city charges for those days is dogcase/money's."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.utils import timezone

from dogcase.cases.models import Case, Event
from dogcase.cases.outcomes import event_outcome

# the events that take the dog into the city's custody, and those that end it
TAKEN = ("seizure", "impoundment")
ENDED = ("release", "disposal", "destruction", "transfer", "death")


@dataclass(frozen=True)
class Custody:
    held: bool
    since: dt.date  # the day the dog was taken (held) or the day custody ended (not held)
    sentence: str  # what the act did, in the reader's language where translated ("The city seized the dog …")
    lang: str
    place: str = ""
    contact: str = ""
    telephone: str = ""
    condition: str = ""
    taken_on: dt.date | None = None

    def days(self, today: dt.date) -> int:
        """Days held so far, the day it was taken counted (as the boarding is)."""
        return (today - self.since).days + 1 if self.held else 0


def where_held(case: Case, j, *, language: str = "en", viewer=None, events=None) -> Custody | None:
    """The dog's custody as the case's acts leave it; None when it was never taken. `events`: all the case's
    events in order, when the caller has them already (the case page)."""
    if events is None:
        events = list(case.events.filter(kind=Event.Kind.STEP).order_by("seq"))
    else:
        events = [e for e in events if e.kind == Event.Kind.STEP]
    last = None
    taken = None
    for e in events:
        recorded = set((e.data or {}).get("events") or ())
        if recorded & set(TAKEN):
            last, taken = e, e
        elif recorded & set(ENDED) and taken is not None:
            last = e
    if last is None:
        return None
    said = event_outcome(last, j, language=language, viewer=viewer, case=case)
    inputs: dict[str, Any] = (taken.data or {}).get("inputs") or {}
    taken_day = event_outcome(taken, j, case=case).get("day")
    taken_on = taken_day if isinstance(taken_day, dt.date) else timezone.localtime(taken.at, j.tz).date()
    if last is taken:
        return Custody(
            held=True,
            since=taken_on,
            sentence=said["what"].rstrip("."),
            lang=said["lang"],
            place=str(inputs.get("place") or ""),
            contact=str(inputs.get("contact") or ""),
            telephone=str(inputs.get("telephone") or ""),
            condition=str(inputs.get("condition") or ""),
            taken_on=taken_on,
        )
    return Custody(
        held=False,
        since=said["day"]
        if isinstance(said.get("day"), dt.date)
        else timezone.localtime(last.at, j.tz).date(),
        sentence=said["what"].rstrip("."),
        lang=said["lang"],
        taken_on=taken_on,
    )
