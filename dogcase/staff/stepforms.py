"""The form of a legal act, built from the step's `inputs` in the law pack (docs/procedure.md), and the
reading of what was submitted into the values `acts.take_step` takes."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from dogcase.cases.hearings import designatable_staff
from dogcase.law import clock
from dogcase.staff.entered import staff_name
from dogcase.staff.present import designation_label, humanize

# Inputs answered by ticking several boxes: the conditions proven.
LIST_KINDS = frozenset({"proofs"})
# Inputs the form does not show: the elements the issued documents contain are given by the documents app
# (dogcase.documents.acts), never ticked.
HIDDEN_KINDS = frozenset({"document"})


class FormProblem(ValueError):
    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


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
            "required": bool(inp.required),
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


def raw_values(step, post) -> dict[str, Any]:
    """What the user typed, to re-show in the form after a refusal."""
    out: dict[str, Any] = {}
    for inp in step.inputs:
        name = f"in-{inp.id}"
        if inp.kind in HIDDEN_KINDS:
            continue
        if inp.kind in LIST_KINDS:
            out[inp.id] = post.getlist(name)
        elif inp.kind != "file":
            out[inp.id] = (post.get(name) or "").strip()
    return out


def read_inputs(step, post, files, *, tz) -> dict[str, Any]:
    """The submitted values as `take_step` takes them: dates as YYYY-MM-DD, instants as ISO text with the
    city's offset, yes/no as booleans, the proofs as a list. Empty optional fields are left out. A file
    input carries the upload's name (the file itself goes to `take_step` as an upload), so that a required
    file passes the law's check of the form."""
    out: dict[str, Any] = {}
    for inp in step.inputs:
        name = f"in-{inp.id}"
        required = bool(inp.required)
        if inp.kind in HIDDEN_KINDS:
            continue
        if inp.kind == "file":
            upload = files.get(name)
            if upload is not None:
                out[inp.id] = upload.name or "upload"
            elif required:
                raise FormProblem(inp.id, "Choose the file to upload.")
            continue
        if inp.kind in LIST_KINDS:
            chosen = [v for v in post.getlist(name) if v]
            out[inp.id] = chosen
            continue
        raw = (post.get(name) or "").strip()
        if not raw:
            if required:
                raise FormProblem(inp.id, _missing(inp.kind))
            continue
        if inp.kind == "date":
            try:
                out[inp.id] = dt.date.fromisoformat(raw).isoformat()
            except ValueError:
                raise FormProblem(inp.id, _date_problem(raw, "Write the date as YYYY-MM-DD.")) from None
        elif inp.kind == "datetime":
            try:
                moment = dt.datetime.fromisoformat(raw)
            except ValueError:
                raise FormProblem(inp.id, _date_problem(raw, "Give a date and a time.")) from None
            if moment.tzinfo is None:
                moment = moment.replace(tzinfo=tz)
            out[inp.id] = moment.isoformat()
        elif inp.kind == "bool":
            if raw not in ("yes", "no"):
                raise FormProblem(inp.id, "Answer yes or no.")
            out[inp.id] = raw == "yes"
        else:
            out[inp.id] = raw  # the law engine holds a text to its limit, on the form and the API alike
    return out


def _date_problem(raw: str, otherwise: str) -> str:
    """A date that is written right but does not exist (2026-02-30) is said to not exist."""
    missing = clock.missing_day(raw)
    return f"{missing[:1].upper()}{missing[1:]}." if missing else otherwise


def _missing(kind: str) -> str:
    return {
        "date": "Give the date.",
        "datetime": "Give the date and time.",
        "bool": "Answer yes or no.",
        "designation": "Choose the designation.",
        "service_method": "Choose how it was served.",
        "outcome": "Choose the decision.",
        "seizure_ground": "Choose the ground for seizure.",
        "staff_member": "Choose the person.",
    }.get(kind, "This is required.")
