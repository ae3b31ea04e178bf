"""Plain-English wording for what the staff pages show: countdowns, layers, citations, designations."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from typing import Any

from django.utils import timezone

from dogcase.cases.pages import OBLIGATION_STATUS_WORDS, humanize
from dogcase.law.jurisdiction import EVENT_WORDS

LAYER_WORDS = {
    "city": "City ordinance",
    "state": "State law",
    "city+state": "City ordinance, with the state's minimum added",
}

STATUS_WORDS = OBLIGATION_STATUS_WORDS  # an obligation's status in words (dogcase/cases/pages.py)

CLASSIFICATION_WORDS = {
    "eligible": "The facts support it",
    "barred": "Ruled out by an exemption",
    "undetermined": "Not enough facts yet",
    "not_eligible": "The facts do not support it",
}


def explained_classification(result: dict[str, Any] | None) -> dict[str, Any] | None:
    """A classification answer with each designation's status in plain words."""
    if not result:
        return None

    def worded(items, *, eligibility: bool = False):
        return [
            {
                **d,
                "status_words": CLASSIFICATION_WORDS.get(d.get("status", ""), humanize(d.get("status", ""))),
                "summary": _undetermined_words(d, eligibility=eligibility)
                if d.get("status") == "undetermined"
                else d.get("summary", ""),
            }
            for d in items
        ]

    # eligibilities: acts the law allows without a designation (347.56 destruction)
    return {
        **result,
        "designations": worded(result.get("designations", [])),
        "eligibilities": worded(result.get("eligibilities", []), eligibility=True),
    }


def _undetermined_words(d: dict[str, Any], *, eligibility: bool) -> str:
    """The engine's summary of an undetermined answer names the missing facts by id; the page lists them by
    their questions ("Still needed to decide"), so the summary says only how many."""
    label = str(d.get("label") or humanize(d.get("designation") or d.get("eligibility") or ""))
    missing = len(d.get("missing_facts") or ())
    still = f" ({plural(missing, 'question')} still to answer)" if missing else ""
    if eligibility:
        return f"{label}: not enough facts yet to say{still}."
    return f"Not enough facts yet to say whether the dog is a {label.lower()}{still}."


WHO_WORDS = {"owner": "The owner", "city": "The city"}


def layer_words(layer: str | None) -> str:
    return LAYER_WORDS.get(layer or "", layer or "")


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def countdown(
    due: dt.date | dt.datetime | None, *, today: dt.date, now: dt.datetime, kind: str = "due"
) -> dict[str, Any]:
    """How far away a due date is, as a phrase and a tone (for colour): "due in 3 days", "2 days overdue".

    A date is due at the end of that day (645.15 counts whole days); an instant is due at that instant.
    """
    if kind == "ongoing":
        return {"text": "ongoing", "tone": "ongoing", "days": None}
    if due is None:
        return {"text": "no date yet", "tone": "unknown", "days": None}
    if isinstance(due, dt.datetime):
        seconds = (due - now).total_seconds()
        due_day = timezone.localtime(due).date()
        if abs(seconds) < 24 * 3600:
            hours = max(1, round(abs(seconds) / 3600))
            if kind == "not_before":
                text = f"may act in {plural(hours, 'hour')}" if seconds > 0 else "may act now"
                return {"text": text, "tone": "waiting" if seconds > 0 else "ok", "days": 0}
            if seconds >= 0:
                return {"text": f"due in {plural(hours, 'hour')}", "tone": "today", "days": 0}
            return {"text": f"{plural(hours, 'hour')} overdue", "tone": "overdue", "days": -1}
        days = (due_day - today).days
    else:
        days = (due - today).days
    if kind == "not_before":
        if days > 0:
            return {"text": f"may act in {plural(days, 'day')}", "tone": "waiting", "days": days}
        return {"text": "may act now", "tone": "ok", "days": days}
    if days == 0:
        return {"text": "due today", "tone": "today", "days": 0}
    if days == 1:
        return {"text": "due tomorrow", "tone": "soon", "days": 1}
    if days > 1:
        return {"text": f"due in {days} days", "tone": "soon" if days <= 7 else "later", "days": days}
    return {"text": f"{plural(-days, 'day')} overdue", "tone": "overdue", "days": days}


def citations_text(cites: Iterable[Mapping[str, Any]] | None) -> str:
    seen: list[str] = []
    for c in cites or ():
        text = c.get("citation", "") if isinstance(c, Mapping) else str(c)
        if text and text not in seen:
            seen.append(text)
    return "; ".join(seen)


def event_words(j, name: str) -> str:
    """A recorded event as the date it is, in the city's words for its events (a pack may add its own):
    notice_received -> "Date of receipt of the notice"."""
    if j is not None:
        return f"Date of {j.event_label(name)}"
    words = EVENT_WORDS.get(name)
    return f"Date of {words}" if words else humanize(name)


def designation_label(j, designation_id: str | None) -> str:
    if not designation_id:
        return "Not declared"
    d = j.designations.get(designation_id) if j is not None else None
    return d.label if d is not None else humanize(designation_id)


# ------------------------------------------------------------------------------------ history of a record

FIELD_WORDS = {
    "name": "Name",
    "breed": "Breed",
    "colour": "Colour",
    "sex": "Sex",
    "sterilized": "Sterilized",
    "birth_year": "Birth year",
    "microchip_manufacturer": "Microchip manufacturer",
    "microchip_number": "Microchip number",
    "licence_number": "City licence",
    "full_name": "Name",
    "phone": "Phone",
    "email": "E-mail",
    "street": "Street address",
    "unit": "Unit",
    "city_name": "City",
    "state": "State",
    "postal_code": "ZIP code",
    "tenure": "Owned or rented",
}

CHOICE_WORDS = {
    "sex": {"male": "Male", "female": "Female", "unknown": "Not known"},
    "tenure": {"owned": "Owned by the dog's owner", "rented": "Rented", "unknown": "Not known"},
}

HISTORY_WORDS = {
    "record_dog": "Dog first recorded",
    "update_dog": "Dog's details changed",
    "record_person": "Person first recorded",
    "update_person": "Details changed",
    "record_premises": "Premises first recorded",
    "update_premises": "Premises changed",
    "set_premises_location": "Premises placed on the map",
    "add_owner": "Owner added",
    "end_ownership": "No longer an owner",
    "record_prior_history": "Prior history recorded (before dogcase)",
}


def field_value_words(field: str, value: Any) -> str:
    """A recorded value as a reader would say it: blank, yes/no/not known, the label of a choice."""
    if field == "sterilized":
        return {True: "Yes", False: "No"}.get(value, "Not known")
    if value is None or value == "":
        return "blank"
    return CHOICE_WORDS.get(field, {}).get(str(value), str(value))


def _date_words(value: Any) -> str:
    if isinstance(value, dt.date):
        return value.strftime("%-d %b %Y")
    try:
        return dt.date.fromisoformat(str(value)).strftime("%-d %b %Y")
    except ValueError:
        return str(value)


def history_rows(events, *, people=None, dogs=None) -> list[dict[str, Any]]:
    """Each record event with who, when, what changed (old → new) and why; newest first."""
    people, dogs = people or {}, dogs or {}
    rows = []
    for e in events:
        data = e.data or {}
        detail = ""
        if e.act in ("add_owner", "end_ownership"):
            person = people.get(data.get("person"))
            dog = dogs.get(data.get("dog"))
            who = person.full_name if person else (dog.name if dog else "")
            if e.act == "add_owner":
                detail = f"{who} — owner since {_date_words(data.get('since'))}"
            else:
                detail = f"{who} — no longer an owner from {_date_words(data.get('until'))}"
        rows.append(
            {
                "seq": e.seq,
                "at": e.at,
                "actor": e.actor_name,
                "what": HISTORY_WORDS.get(e.act, humanize(e.act)),
                "detail": detail,
                "summary": e.summary,
                "changes": [
                    {
                        "field": FIELD_WORDS.get(f, humanize(f)),
                        "old": field_value_words(f, old),
                        "new": field_value_words(f, new),
                    }
                    for f, (old, new) in (data.get("changes") or {}).items()
                ],
                "reason": data.get("reason", ""),
            }
        )
    rows.reverse()
    return rows
