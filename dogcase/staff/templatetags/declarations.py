"""The staff pages' view of a declaration the recorded facts do not support (dogcase.cases.acts.declarations):
the warning on the form of a step that sets the designation, and the reason recorded, for the hearing officer."""

from __future__ import annotations

from typing import Any

from django import template

from dogcase.cases.acts import declarations

register = template.Library()


@register.simple_tag(takes_context=True)
def declaration_departure(context, case) -> dict[str, Any] | None:
    """The reason recorded for declaring a designation the facts did not support, if the case's latest
    declaration did (read from the page's `case_events`, the case's events in order, when it has them)."""
    if case is None or not getattr(case, "pk", None):
        return None
    return declarations.recorded_departure(case, context.get("case_events"))


@register.simple_tag(takes_context=True)
def declaration_warning(context) -> dict[str, Any] | None:
    """On the form of a step that sets the designation: each designation offered that the facts recorded do
    not support, the one chosen (after a submission), and the reason typed."""
    step, case = context.get("step"), context.get("case")
    if step is None or case is None or not declarations.sets_designation(step):
        return None
    classification = declarations.case_classification(case)
    offered = getattr(step, "for_", None)
    departures = []
    for d in (classification or {}).get("designations", ()):
        if offered is not None and d.get("designation") not in offered:
            continue
        found = declarations.departure_of(classification, d.get("designation"))
        if found is not None:
            departures.append(found)
    if not departures:
        return None
    request = context.get("request")
    post = request.POST if request is not None and request.method == "POST" else {}
    chosen = next((d for d in departures if d["designation"] == post.get("in-designation")), None)
    return {
        "departures": departures,
        "chosen": chosen,
        "reason": (post.get(declarations.FIELD) or "").strip(),
        "error": context.get("departure_error", ""),
        "field": declarations.FIELD,
    }
