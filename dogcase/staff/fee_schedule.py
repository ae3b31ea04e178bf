"""City settings' fees and charges (dogcase/money/schedule.py): each charge of the city's law that takes a rate,
with the law's citation and words, who sets it, the law's cap, the amount in force today and its history; and
the administrator's form of a new amount, shown again with its errors beside the fields and what was typed."""

from __future__ import annotations

import datetime as dt
from typing import Any

from dogcase.cases.pages import sentence
from dogcase.money import schedule
from dogcase.money.ledger import money

SET_BY = {
    "council_resolution": "Set by council resolution",
    "authority": "Set by the animal control authority",
    "": "Set by the city (the law does not say by whom)",
}
FIELDS = ("amount", "effective_from", "resolution", "adopted_on")
EVENT = "set_fee_rate"  # the fee schedule's events in the city's chain (its Changes list)


def field_id(charge_id: str, field: str) -> str:
    return f"fee-{charge_id}-{field}"


def _amount(value, per: str) -> str:
    return money(value) + (" a day" if per == "day" else "")


def rows(
    city: str,
    day: dt.date,
    *,
    charge: str = "",
    values: dict[str, str] | None = None,
    errors: dict[str, str] | None = None,
    may_set: bool,
) -> list[dict[str, Any]]:
    """Each charge of the schedule as the page shows it; `charge`'s form shows `values` and `errors` (by the
    act's field names), the others start empty."""
    out = []
    for r in schedule.schedule(city, day):
        c = r.charge
        mine = c.id == charge
        given = (values or {}) if mine else {}
        problems = (errors or {}) if mine else {}
        out.append(
            {
                "charge": c.id,
                "label": c.label,
                "citation": r.citation,
                "law_text": r.law_text,
                # what the fee is for, in the law's words, where it says more than the label
                "what": sentence(r.what) if r.what and r.what.lower() != c.label.lower() else "",
                "set_by": SET_BY.get(r.set_by, SET_BY[""]),
                "per_day": c.per == "day",
                "cap": money(r.cap) if r.cap is not None else "",
                "cap_citation": r.cap_citation,
                "current": (
                    {
                        "amount": _amount(r.current.amount, c.per),
                        "since": r.current.effective_from,
                        "resolution": r.current.resolution,
                    }
                    if r.current is not None
                    else None
                ),
                "history": [
                    {
                        "amount": _amount(h.amount, c.per),
                        "from": h.effective_from,
                        "resolution": h.resolution,
                        "adopted_on": h.adopted_on,
                        "by": h.entered_by.get_full_name() or h.entered_by.get_username(),
                        "in_force": r.current is not None and h.pk == r.current.pk,
                        "later": h.effective_from > day,
                    }
                    for h in r.history
                ],
                "fields": [
                    {
                        "id": field_id(c.id, name),
                        "name": name,
                        "label": _label(name, c.per, r.set_by),
                        "type": "date" if name in ("effective_from", "adopted_on") else "text",
                        "hint": _hint(name, r),
                        "value": given.get(name, ""),
                        "error": problems.get(name, ""),
                    }
                    for name in FIELDS
                ]
                if may_set
                else [],
                "general": problems.get("charge", ""),
                "open": bool(problems),  # the form sent, shown again with its problems
            }
        )
    return out


def _label(name: str, per: str, set_by: str) -> str:
    if name == "amount":
        return "New amount, in dollars" + (" a day" if per == "day" else "")
    if name == "resolution":
        return "Council resolution number" if set_by == "council_resolution" else "Resolution or order number"
    return {"effective_from": "First day it applies", "adopted_on": "Date adopted"}[name]


def _hint(name: str, r: schedule.ScheduleRow) -> str:
    if name == "amount" and r.cap is not None:
        return f"The law allows at most {money(r.cap)} ({r.cap_citation})."
    if name == "effective_from":
        return "Acts from this day on charge the new amount; acts before it keep the amount they charged."
    return ""
