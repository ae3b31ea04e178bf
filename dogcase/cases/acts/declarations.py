"""A declaration the recorded facts do not support.

A case keeps the classification the facts supported when it was opened (the `open_case` event's
`classification`: what the officer saw when deciding). A step that sets the designation (Battle Lake's and the
state's `declare`, Tracy's `classify`: a step with a `designation` input) may still declare a designation that
classification does not support — the facts may be recorded incompletely, or the declarant may know more than
was recorded — but never without a word: the declarant gives the reason, and the reason is written into the
step's event when the step is taken (`data["departure"]`), with what the facts showed and what was missing.
The hearing officer reads it on the case page and on the forms of the case.

The rule is applied by every page and the API (dogcase.documents.acts.take_step passes the reason given, or
none), through `take_step(departure_reason=…)` (dogcase.cases.acts.steps).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from dogcase.cases.acts.core import REASON_LIMIT, InvalidInput, check_text
from dogcase.cases.models import Case, Event

FIELD = "departure_reason"

_STATUS_WORDS = {
    "undetermined": "the facts recorded are not enough to say",
    "not_eligible": "the facts recorded do not support it",
    "barred": "the facts recorded fall under an exemption that rules it out",
}


def case_classification(case: Case) -> dict[str, Any] | None:
    """The classification the case keeps: the one its opening recorded (the latest, if opened again)."""
    event = Event.objects.filter(case=case, act="open_case", kind=Event.Kind.RECORD).order_by("-seq").first()
    return (event.data or {}).get("classification") if event is not None else None


def sets_designation(step) -> bool:
    """Whether the step sets the case's designation (it has a designation input)."""
    return any(inp.kind == "designation" for inp in getattr(step, "inputs", ()))


def _citations(items: Iterable[Mapping[str, Any]]) -> list[str]:
    return list(dict.fromkeys(str(i.get("citation") or "") for i in items if i.get("citation")))


def _answer(classification: Mapping[str, Any] | None, designation: str) -> Mapping[str, Any] | None:
    for d in (classification or {}).get("designations", ()):
        if d.get("designation") == designation:
            return d
    return None


def departure_of(classification: Mapping[str, Any] | None, designation: str | None) -> dict[str, Any] | None:
    """What the recorded facts show of `designation` when they do not support it (None when they do, or when
    the classification does not speak of it): in plain words, what is missing, and the provisions read."""
    if not designation:
        return None
    d = _answer(classification, designation)
    if d is None or d.get("status") == "eligible":
        return None
    status = str(d.get("status") or "")
    label = str(d.get("label") or designation.replace("_", " "))
    trace = d.get("trace") or ()
    if status == "barred":
        cited = _citations(d.get("barred_by") or ())
    elif status == "undetermined":
        # the clauses that might still apply, once the missing facts are known
        cited = _citations(t for t in trace if t.get("role") == "ground" and t.get("value") == "unknown")
    else:
        cited = _citations(t for t in trace if t.get("role") == "ground")
    missing = [str(m.get("question") or m.get("fact") or "") for m in d.get("missing_facts") or ()]
    if status == "undetermined":
        shows = (
            f"The facts recorded are not enough to say whether the dog is a {label.lower()}: "
            f"{len(missing)} question{'' if len(missing) == 1 else 's'} the law asks "
            f"{'is' if len(missing) == 1 else 'are'} unanswered."
        )
    else:
        shows = str(d.get("summary") or "").strip() or f"The facts recorded do not support a {label.lower()}."
    supported = [
        {"label": str(s.get("label") or ""), "citation": "; ".join(_citations(s.get("matched") or ()))}
        for s in (classification or {}).get("designations", ())
        if s.get("status") == "eligible" and s.get("designation") != designation
    ]
    return {
        "designation": designation,
        "label": label,
        "status": status,
        "status_words": _STATUS_WORDS.get(status, status.replace("_", " ")),
        "facts_show": shows,
        "missing": missing,
        "citation": "; ".join(cited),
        "supported": supported,
    }


def rule_words(departure: Mapping[str, Any]) -> str:
    """The rule a declaration against the facts without a reason is refused under, in words."""
    return (
        f"the facts recorded on this case do not support declaring the dog a {departure['label'].lower()} "
        f"({departure['status_words']}): give the reason for the declaration"
    )


def check_declaration(
    case: Case, step, cleaned: Mapping[str, Any], reason: str | None
) -> dict[str, Any] | None:
    """For a step that sets the designation: None when the facts support the designation chosen; else what the
    event records of the departure, with the reason. InvalidInput (field `departure_reason`) when the reason is
    missing; a reason given for a declaration the facts support is not recorded."""
    if not sets_designation(step):
        return None
    departure = departure_of(case_classification(case), cleaned.get("designation"))
    if departure is None:
        return None
    reason = (reason or "").strip()
    if not reason:
        raise InvalidInput(FIELD, rule_words(departure))
    check_text(FIELD, reason, REASON_LIMIT)
    return {**departure, "reason": reason}


def recorded_departure(case: Case, events=None) -> dict[str, Any] | None:
    """The departure the latest step that set the case's designation recorded, with who gave the reason and
    when; None when that step followed the facts. `events`: all the case's events in order, when the caller
    has them already (the case page)."""
    if events is None:
        steps = Event.objects.filter(case=case, kind=Event.Kind.STEP).order_by("-seq")
    else:
        steps = [e for e in reversed(events) if e.kind == Event.Kind.STEP]
    for event in steps:
        data = event.data or {}
        if "departure" in data:
            return {**data["departure"], "at": event.at, "by": event.actor_name, "seq": event.seq}
        if (data.get("inputs") or {}).get("designation"):
            return None
    return None
