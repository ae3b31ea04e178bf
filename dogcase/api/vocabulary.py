"""What the API's parameters may name, read from the installed law packs when the API is built, so that the
OpenAPI schema lists the jurisdictions, fact names and values, deadline ids, designations, events and step
ids a client may send. The schema only describes: the engine still judges every value and names the field of
a bad one (a fact one city declares is unknown in another, a date in range may have no law in force)."""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from dogcase.law import PackError, clock, library
from dogcase.law.packschema import EVENTS

log = logging.getLogger(__name__)

# YYYY-MM-DD between the engine's first and last dates (1900-01-01 .. 2200-12-31): the years in the pattern,
# the days by the date format.
DATE_PATTERN = r"^(19\d\d|2[01]\d\d|2200)-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$"
assert clock.MIN_DATE == dt.date(1900, 1, 1) and clock.MAX_DATE == dt.date(2200, 12, 31)  # noqa: S101
DATE_SCHEMA = {
    "type": "string",
    "format": "date",
    "pattern": DATE_PATTERN,
    "description": "A date written YYYY-MM-DD, from 1900-01-01 to 2200-12-31.",
}


def _enum(values) -> dict[str, Any]:
    values = sorted(set(values))
    return {"type": "string", "enum": values} if values else {"type": "string"}


def _fact_schema(facts: dict[str, Any]) -> dict[str, Any]:
    """One property per fact any installed pack declares, with the union of its values."""
    properties: dict[str, Any] = {}
    for name, fact in sorted(facts.items()):
        values = sorted(fact)
        if fact.type == "bool":
            properties[name] = {"type": ["boolean", "null"]}
        elif fact.type == "enum":
            properties[name] = {"enum": [*values, None]}
        else:
            properties[name] = {
                "type": ["array", "null"],
                "items": {"type": "string", "enum": values},
                "description": "A set: a value named twice counts once.",
            }
    return {
        "type": "object",
        "properties": properties,
        "additionalProperties": False,
        "description": "Fact name -> value (see GET /facts); a fact left out, or null, is unknown. A fact one "
        "city's pack declares is refused (400) in another jurisdiction.",
    }


class _Values(set):
    def __init__(self, type_: str) -> None:
        super().__init__()
        self.type = type_


def _collect() -> dict[str, dict[str, Any]]:
    try:
        lib = library()
    except PackError as exc:  # the API still starts; the routes answer 503 until the packs are fixed
        log.error("law packs invalid, API schema without their vocabulary: %s", exc)
        return {}
    facts: dict[str, _Values] = {}
    deadlines, designations, steps, events = set(), set(), set(), set(EVENTS)
    for j in lib.jurisdictions.values():
        for fact in j.facts.facts.values():
            facts.setdefault(fact.id, _Values(fact.type)).update(fact.ordered_values)
        deadlines |= set(j.deadline_ids())
        designations |= set(j.designations)
        steps |= set(j.step_ids())
        events |= set(j.pack.events) | (set(j.state.events) if j.state else set())
    return {
        "jurisdiction": _enum(lib.jurisdictions),
        "facts": _fact_schema(facts),
        "deadline": _enum(deadlines),
        "designation": _enum(designations),
        "step": _enum(steps),
        "events": {
            "type": "object",
            "properties": {
                e: {"type": "string", "description": "YYYY-MM-DD, or a date and time with its UTC offset"}
                for e in sorted(events)
            },
            "additionalProperties": False,
        },
    }


SCHEMAS = _collect()


def schema_of(name: str, fallback: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {**SCHEMAS.get(name, fallback), **extra}
