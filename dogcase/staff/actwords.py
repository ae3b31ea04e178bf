"""What an act form starts with and what it says once the act is recorded, generic over every step of every
pack: the dates of facts start at today (change them to back-date), a person served starts as the owner on
record, and the confirmation says what was recorded in a clerk's words ("Declared Rex dangerous under
§ 90.15 (C)(1)(a)")."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

from dogcase.cases.pages import stage_words  # noqa: F401 - where the staff pages read it
from dogcase.law.procedure import past_tense

# The inputs that name who was served: they start as the owner (or owners) on record.
SERVED_INPUTS = ("served_owner", "served_on_owner", "person_served", "served_person")


def owners_on_record(case) -> str:
    """The dog's owners on record, with their address: who a notice is served on unless staff say otherwise."""
    people = list(case.dog.owners.order_by("full_name", "id"))
    out = []
    for p in people:
        street = getattr(p, "street", "") or ""
        out.append(f"{p.full_name}, {street}" if street else p.full_name)
    return "; ".join(out)


def prefill(step, case, *, today: dt.date) -> tuple[dict[str, Any], set[str]]:
    """The values an act form starts with, and the ids of the dates set to today: the required dates of a
    fact (a date that has happened), and the date that dates the step itself (its legal date: the day of the
    declaration, of the Council meeting), which staff change to back-date. Any other optional date left blank
    means "not known yet", and a scheduled date lies ahead."""
    values: dict[str, Any] = {}
    today_ids: set[str] = set()
    legal = getattr(step, "legal_input", None)
    for inp in step.inputs:
        fact = inp.kind == "date" and inp.when != "future" and bool(inp.all_records)
        if fact and (inp.required or (legal is not None and inp.id == legal.id)):
            values[inp.id] = today.isoformat()
            today_ids.add(inp.id)
        elif inp.kind == "text" and inp.id in SERVED_INPUTS:
            owners = owners_on_record(case)
            if owners:
                values[inp.id] = owners
    return values, today_ids


def _designation_citation(j, case, designation: str) -> str:
    """The clause the incident's facts meet for the designation (the city's, where it has one)."""
    try:
        incident = case.incident
        on = timezone.localtime(incident.occurred_at).date()
        result = j.classify(j.facts.parse(dict(incident.facts)), on).as_dict()
    except Exception:  # noqa: BLE001 - a confirmation never fails the act already recorded
        return ""
    for d in result.get("designations", ()):
        if d.get("designation") != designation:
            continue
        matched = d.get("matched") or ()
        city = [m for m in matched if m.get("layer") == "city"]
        chosen = (city or list(matched))[-1:] if matched else []
        return chosen[0].get("citation", "") if chosen else ""
    return ""


def _date_words(value) -> str:
    if isinstance(value, str):
        try:
            value = dt.datetime.fromisoformat(value) if "T" in value else dt.date.fromisoformat(value)
        except ValueError:
            return ""
    if isinstance(value, dt.datetime):
        return (
            timezone.localtime(value)
            .strftime("%a %-d %b %Y, %-I:%M %p")
            .replace("AM", "am")
            .replace("PM", "pm")
        )
    if isinstance(value, dt.date):
        return value.strftime("%a %-d %b %Y")
    return ""


def confirmation(j, step, case, inputs: dict[str, Any], *, designation_words: str = "") -> str:
    """What was recorded, in one sentence: "Declared Rex dangerous under § 90.15 (C)(1)(a)." or "Served the
    notice of declaration on the owner for Rex, dated Mon 30 Nov 2026." """
    dog = case.dog.name
    designation = inputs.get("designation") if step.opens_case else None
    if designation:
        verb = past_tense(step.label).split(" ", 1)[0]
        if verb == "Recorded:":
            verb = "Declared"
        words = (designation_words or str(designation)).removesuffix(" dog").removesuffix(" Dog")
        words = words[:1].lower() + words[1:]
        citation = _designation_citation(j, case, str(designation))
        return f"{verb} {dog} {words}" + (f" under {citation}." if citation else ".")
    sentence = past_tense(step.label)
    extra = []
    outcome = next((inputs[i.id] for i in step.inputs if i.kind == "outcome" and inputs.get(i.id)), None)
    if outcome:
        extra.append(f"decision: {str(outcome).replace('_', ' ')}")
    dated = next(
        (
            inputs[i.id]
            for i in step.inputs
            if i.kind in ("date", "datetime") and inputs.get(i.id) is not None
        ),
        None,
    )
    if dated is not None:
        extra.append(_date_words(dated))
    return f"{sentence} — {dog}" + (f" ({'; '.join(extra)})" if extra else "") + "."
