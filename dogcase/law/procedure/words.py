"""The words the procedure writes: refusal codes and reasons, conditions and dates in plain English."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from typing import Any

from .. import clock
from .model import DEADLINE_TESTS, Condition, Step

DEFAULT_CODES = {
    "done": "missing_step",
    "not_done": "already_taken",
    "within": "too_late",
    "from": "not_yet",
    "after": "waiting",
    "outcome": "outcome",
    "not_outcome": "outcome",
    "proven": "not_proven",
    "seizure_ground": "no_ground",
    "ground_in": "no_ground",
    "confirmed": "not_proven",
    "prohibited": "prohibited",
    "last": "wrong_state",
    "not": "wrong_state",
    "ground_of": "wrong_state",
    "input_by": "too_late",
    "recorded": "missing_step",
    "designation": "not_applicable",
}
ACT_WORDS = {
    "seize": "seizure",
    "impound": "impoundment",
    "order_impoundment": "an impoundment order",
}


def when_words(value: dt.date | dt.datetime, j) -> str:
    if isinstance(value, dt.datetime):
        return clock.format_time(value.astimezone(j.tz))
    return clock.format_date(value)


def hold_words(held: Mapping[str, Any], format_date: Callable[[dt.date], str] = clock.format_date) -> str:
    """Why a consequence of a missed time does not follow at once, in words: "Not before Thursday 29 October
    2026: the city must first wait until the owner's time to comply … (§ 90.15 (C)(2)(d)) has passed."
    (obligations.py, `_hold`; a document passes its own `format_date`)."""
    parts = []
    for w in held.get("waits_for", ()):
        who = "the owner's" if w["who"] == "owner" else "the city's"
        cite = f" ({w['citation']})" if w.get("citation") else ""
        parts.append(f"{who} time to {w['what']}{cite}")
    waited = " and ".join(parts)
    if held.get("until"):
        day = format_date(dt.date.fromisoformat(held["until"]))
        return f"Not before {day}" + (
            f": the city must first wait until {waited} has passed." if waited else "."
        )
    if waited:
        return (
            f"Not yet: the city must first wait until {waited} has passed, and when that is cannot be worked out "
            "yet."
        )
    return "Not as the case stands now."


# `ctx` below: the CaseContext asking (context.py, which imports this module)


def condition_words(ctx: Any, cond: Condition, step: Step) -> str:
    """A notice element's condition in words ("if “Seize the dog” has been done")."""
    if cond.test == "done":
        return f"if “{ctx.label(cond.arg)}” has been done"
    if cond.test == "not_done":
        return f"unless “{ctx.label(cond.arg)}” has been done"
    if cond.test == "recorded":
        return f"if the date of {ctx.j.event_label(cond.arg)} is on record"
    if cond.test == "designation":
        return f"if the dog is declared a {_designations(ctx.j, cond.arg)}"
    if cond.test == "outcome":
        wanted = " or ".join(o.replace("_", " ") for o in cond.arg["in"])
        return f"if “{ctx.label(cond.arg['step'])}” ended with: {wanted}"
    return "only when its condition holds for the case"


def default_reason(ctx: Any, cond: Condition, step: Step, extra: Any = None) -> str:
    test, arg = cond.test, cond.arg
    j = ctx.j
    if test == "done":
        return f"“{ctx.label(arg)}” must come first, and it has not been done in this case."
    if test == "not_done":
        return f"Not possible once “{ctx.label(arg)}” has been done, and it has been."
    if test == "recorded":
        return f"The date of {j.event_label(arg)} must be on record first."
    if test == "designation":
        return f"Only for a dog declared a {_designations(j, arg)}."
    if test in DEADLINE_TESTS:
        plan = j.deadline_plans[arg]
        who = "the owner's" if plan.who == "owner" else "the city's"
        if extra is None:
            return f"This depends on {who} time to {plan.what}."
        if test == "within":
            return f"Too late: {who} time to {plan.what} ended on {when_words(extra, j)}."
        if test == "from":
            return f"Not yet: this is possible from {when_words(extra, j)} ({plan.what})."
        return f"Not yet: this must wait until {who} time to {plan.what} has passed (it ends on {when_words(extra, j)})."
    if test == "outcome":
        wanted = " or ".join(o.replace("_", " ") for o in arg["in"])
        return f"This needs “{ctx.label(arg['step'])}” to have ended with: {wanted}."
    if test == "not_outcome":
        got = extra.outcome.replace("_", " ") if extra is not None and extra.outcome else ""
        return f"Not possible: “{ctx.label(arg['step'])}” ended with {got}."
    if test == "last":
        return "Not possible in the case's present state."
    if test == "proven":
        return "The owner must prove every condition of registration (checked with the form's proofs)."
    if test in ("seizure_ground", "ground_in"):
        return "Needs the legal ground for the step (checked with the form)."
    if test == "confirmed":
        label = next((i.label for i in step.inputs if i.id == arg), arg)
        return f"Needs confirmation: {label}."
    if test == "ground_of":
        grounds = ", ".join(g.replace("_", " ") for g in arg["in"])
        return f"This applies only when the latest “{ctx.label(arg['step'])}” was on the ground: {grounds}."
    if test == "input_by":
        label = next((i.label for i in step.inputs if i.id == arg["input"]), arg["input"])
        plan = j.deadline_plans[arg["deadline"]]
        who = "the owner's" if plan.who == "owner" else "the city's"
        if extra is None:
            return f"“{label}” must fall within {who} time to {plan.what}."
        return f"“{label}” must be on or before {when_words(extra, j)} ({who} time to {plan.what})."
    return "Not possible now."


def _designations(j, ids) -> str:
    """Designations in words: "dangerous dog or potentially dangerous dog"."""
    return " or ".join(
        (j.designations[d].label if d in j.designations else d.replace("_", " ")).lower() for d in ids
    )
