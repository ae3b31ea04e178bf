"""dogcase's law engine: pure Python, no Django.

Entry points:
- `library()` — every shipped law pack, loaded and validated once per process.
- `classify(jurisdiction, facts, incident_date)` — what the facts make the dog, and why.
- `deadline(jurisdiction, deadline_id, events, ...)` — by when, and why.
- `conflicts(jurisdiction, on)` / `show(jurisdiction, on)` — the law itself.
- `Jurisdiction.check_step(...)` / `.obligations(...)` — procedure as law data (docs/procedure.md).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from .errors import InputError, LawError, LawNotInForce, PackError, RuleConflict, UnknownJurisdiction
from .loader import Library, load_all
from .procedure import Actor, CaseState, Condition, Input, Obligation, Refusal, Step, TakenStep, Verdict
from .vocabulary import ELSEWHERE

__all__ = [
    "Actor",
    "ELSEWHERE",
    "CaseState",
    "Condition",
    "Input",
    "Obligation",
    "Refusal",
    "Step",
    "TakenStep",
    "Verdict",
    "InputError",
    "LawError",
    "LawNotInForce",
    "Library",
    "PackError",
    "RuleConflict",
    "UnknownJurisdiction",
    "classify",
    "conflicts",
    "deadline",
    "library",
    "parse_date",
    "parse_events",
    "show",
]


def library() -> Library:
    return load_all()


def parse_date(value: Any, field: str) -> dt.date:
    """A calendar date from ISO text (or a date). Names the field when it is not one."""
    if isinstance(value, dt.datetime):
        raise InputError(field, "must be a date (YYYY-MM-DD), not a date and time")
    if isinstance(value, dt.date):
        return value
    if not isinstance(value, str):
        raise InputError(field, "must be a date written YYYY-MM-DD")
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise InputError(field, f"{value!r} is not a real date (YYYY-MM-DD)") from None


def parse_events(raw: Any, field: str = "events") -> dict[str, dt.date | dt.datetime]:
    """Event dates (YYYY-MM-DD) or instants (ISO date and time with a UTC offset)."""
    if not isinstance(raw, Mapping):
        raise InputError(field, "must be an object mapping event names to dates")
    out: dict[str, dt.date | dt.datetime] = {}
    for name, value in raw.items():
        where = f"{field}.{name}"
        if isinstance(value, dt.date):
            out[name] = value
            continue
        if not isinstance(value, str):
            raise InputError(where, "must be a date (YYYY-MM-DD) or a date and time with offset")
        if "T" in value or " " in value.strip():
            try:
                instant = dt.datetime.fromisoformat(value)
            except ValueError:
                raise InputError(where, f"{value!r} is not a real date and time (ISO 8601)") from None
            if instant.tzinfo is None:
                raise InputError(
                    where, "a date and time needs its UTC offset, e.g. 2026-11-01T01:30:00-05:00"
                )
            out[name] = instant
        else:
            out[name] = parse_date(value, where)
    return out


def classify(
    jurisdiction: str, facts: Mapping[str, Any], incident_date: dt.date, *, lib: Library | None = None
) -> dict[str, Any]:
    """Every designation the facts make the dog eligible for, under the law in force on the incident date."""
    j = (lib or load_all()).get(jurisdiction)
    parsed = j.facts.parse(facts)
    return j.classify(parsed, incident_date).as_dict()


def classify_json(
    jurisdiction: str, facts: Mapping[str, Any], incident_date: dt.date, *, lib: Library | None = None
) -> str:
    """classify() as JSON text, from parts encoded once per law in force (what the API sends)."""
    j = (lib or load_all()).get(jurisdiction)
    return j.classify(j.facts.parse(facts), incident_date).as_json()


def deadline(
    jurisdiction: str,
    deadline_id: str,
    events: Mapping[str, dt.date | dt.datetime],
    *,
    on: dt.date | None = None,
    settings: Mapping[str, Any] | None = None,
    designation: str | None = None,
    lib: Library | None = None,
) -> dict[str, Any]:
    return (
        (lib or load_all())
        .get(jurisdiction)
        .deadline(deadline_id, events, on=on, settings=settings, designation=designation)
    )


def conflicts(jurisdiction: str, on: dt.date, *, lib: Library | None = None) -> dict[str, Any]:
    j = (lib or load_all()).get(jurisdiction)
    return {"jurisdiction": j.describe(), "on": on.isoformat(), "conflicts": j.conflicts(on)}


def show(jurisdiction: str, on: dt.date, *, lib: Library | None = None) -> dict[str, Any]:
    return (lib or load_all()).get(jurisdiction).show(on)
