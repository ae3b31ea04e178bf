"""The form of a legal act, built from the step's `inputs` in the law pack (docs/procedure.md); what was
submitted is read into the values `acts.take_step` takes by dogcase.cases.act_forms."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from dogcase.cases.act_forms import HIDDEN_KINDS, LIST_KINDS
from dogcase.cases.hearings import designatable_staff
from dogcase.documents.fill import inputs_documents_need
from dogcase.staff.entered import staff_name
from dogcase.staff.present import designation_label, humanize


def _choice(c: Mapping[str, Any]) -> dict[str, Any]:
    provision = c.get("provision") or {}
    label = str(c.get("label") or c.get("value"))
    out = {
        "value": c.get("value"),
        "label": label[:1].upper() + label[1:],
        "citation": provision.get("citation", "") if isinstance(provision, Mapping) else "",
        # a notice element with a condition ("if the dog was seized"): whether it holds in this case, and
        # the condition in words; an element that does not apply is not demanded
        "applies": c.get("applies", True) is not False,
        "when": condition_sentence(str(c["when"])) if c.get("when") else "",
    }
    return out


def condition_sentence(when: str) -> str:
    """A notice element's condition as a sentence: "if the dog was seized" -> "Only if the dog was seized"."""
    when = " ".join(when.split()).rstrip(".")
    if when.startswith("if "):
        return f"Only {when}"
    if when.startswith("unless "):
        return f"Needed {when}"
    return when[:1].upper() + when[1:]


def fields_for(j, step, *, state, at: dt.datetime, values=None, errors=None, case=None) -> list[dict]:
    """One dict per input, ready for the template: kind, label, whether required, the law's choices (with
    their citations), the value to re-show and its message. With the `case`, a `proofs` input shows the proof
    sent for each condition and is ticked where an accepted proof counts (dogcase.proofs)."""
    values = values or {}
    errors = errors or {}
    choices = j.input_choices(step.id, state, at)
    # an input the law lets the step leave empty that a document cannot be issued without is not "optional"
    needs = inputs_documents_need(j, step, state.designation, at.astimezone(j.tz).date())
    out = []
    for inp in step.inputs:
        if inp.kind in HIDDEN_KINDS:
            continue
        given = choices.get(inp.id)
        if given is None and inp.choices:
            given = [{"value": c, "label": humanize(c)} for c in inp.choices]
        f = {
            "id": inp.id,
            "name": f"in-{inp.id}",
            "kind": inp.kind,
            "label": inp.label,
            "required": bool(inp.required) or (inp.id in needs and needs[inp.id].now),
            "needed_for": "; ".join(f"“{t}”" for t in needs[inp.id].documents) if inp.id in needs else "",
            "records": inp.records,
            "choices": [_choice(c) for c in given or ()],
            "value": values.get(inp.id, [] if inp.kind in LIST_KINDS else ""),
            "error": errors.get(inp.id, ""),
            "help": inp.help or "",
            # a text input's limit, said beside it (a `maxlength` would cut a pasted text silently)
            "max_length": f"{inp.text_limit:,}" if inp.kind == "text" else "",
        }
        if inp.kind == "proofs" and case is not None:
            from dogcase.proofs.counting import annotate_choices

            annotate_choices(case, f, at, j.tz)
        if inp.kind == "designation":
            f["choices"] = [{**c, "label": designation_label(j, c["value"])} for c in f["choices"]]
        if inp.kind == "staff_member":
            # the people the law empowers for the act they are designated to take (the hearing officer)
            day = at.astimezone(j.tz).date()
            f["choices"] = [
                _choice({"value": str(u.pk), "label": staff_name(u)})
                for u in designatable_staff(j, inp.act, state.designation, day)
            ]
        out.append(f)
    return out


# Inputs whose values come from the law's choices: the engine's refusal of a value names the ids it allows,
# the form names the choices it offered.
CHOICE_KINDS = frozenset(
    {"designation", "service_method", "outcome", "seizure_ground", "staff_member", *LIST_KINDS}
)


def choice_message(field: dict[str, Any] | None) -> str:
    """What to say when a value is not one of a choice input's choices, in the words the form shows."""
    if field is None or field["kind"] not in CHOICE_KINDS:
        return ""
    labels = "; ".join(c["label"] for c in field["choices"] if c.get("applies", True))
    if field["kind"] in LIST_KINDS:
        return f"Tick only the boxes offered here{f': {labels}' if labels else ''}."
    return f"Choose one of the choices offered{f': {labels}' if labels else ''}."
