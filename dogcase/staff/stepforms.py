"""The form of a legal act, built from the step's `inputs` in the law pack (docs/procedure.md); what was
submitted is read into the values `acts.take_step` takes by dogcase.cases.act_forms."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from dogcase.cases.act_forms import HIDDEN_KINDS, LIST_KINDS
from dogcase.cases.acts.moves import destination_choices
from dogcase.cases.hearings import designatable_staff
from dogcase.documents.fill import attachments_of, document_types_for, inputs_documents_need
from dogcase.documents.sources import INPUT_SOURCES
from dogcase.law.documents import placeholders
from dogcase.law.procedure import TELEPHONE_MAX
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


@dataclass
class DocumentNeed:
    """An input the law lets the step leave empty that a document the step issues prints: needed always
    (`outcomes` None) or only when the step's decision is one of `outcomes`; `why` says so with the
    documents and their citations."""

    outcomes: frozenset[str] | None
    documents: list[str] = field(default_factory=list)
    citations: list[str] = field(default_factory=list)

    later: bool = False  # needed by a document a later step issues (it cannot be added then)

    @property
    def why(self) -> str:
        docs = " and ".join(f"“{d}”" for d in self.documents)
        cites = f" ({'; '.join(self.citations)})" if self.citations else ""
        if self.later:
            return f"Needed to issue {docs}{cites}; it is given only here and cannot be added later."
        return f"Needed to issue {docs}{cites}, which this step issues."

    def message(self) -> str:
        return f"{self.why} Fill it in."


def document_needs(j, step, state, at: dt.datetime) -> dict[str, DocumentNeed]:
    """The optional inputs of the step that a document the step itself issues for this case cannot be issued
    without: a section (of the document or a page attached to it) that prints the input's value and applies in
    this case, or applies when the step's own decision is one of some outcomes (then needed for those). An input
    another required input of the step can stand for (the hearing's closing day for its day) is not needed."""
    optional = {i.id for i in step.inputs if not i.required}
    required = {i.id for i in step.inputs if i.required}
    if not optional:
        return {}
    if state.designation is None and len(step.for_ or ()) > 1:
        # the form chooses the designation (the declaration): needed if needed whichever is chosen
        each = [document_needs(j, step, replace(state, designation=d), at) for d in step.for_]
        out = {}
        for input_id in set.intersection(*(set(n) for n in each)):
            needs = [n[input_id] for n in each]
            merged = DocumentNeed(
                None
                if any(n.outcomes is None for n in needs)
                else frozenset().union(*(n.outcomes for n in needs)),
                later=all(n.later for n in needs),
            )
            for n in needs:
                merged.documents += [d for d in n.documents if d not in merged.documents]
                merged.citations += [c for c in n.citations if c not in merged.citations]
            out[input_id] = merged
        return out
    day = at.astimezone(j.tz).date()
    try:
        types = document_types_for(j, step, state, at)
        pages = [p for t in types for p in [t, *attachments_of(j, t, day)]]
    except (LookupError, ValueError):
        return {}
    applies = getattr(j, "section_applies", None)
    own_ids = {p.id for p in pages}
    taken = {t.step for t in state.taken}
    designations = (state.designation,) if state.designation else tuple(step.for_ or ())
    # a document a later step of the case issues, not yet issued, that prints the input in every case (or
    # whenever this step has been taken): it could not be issued without it, and it cannot be added later
    later = [
        t
        for t in j.all_document_types(day)
        if t.id not in own_ids
        and t.issued_by
        and not (set(t.issued_by) & taken)
        and (not designations or any(t.reaches(d) for d in designations))
    ]
    out: dict[str, DocumentNeed] = {}
    for doc in [*pages, *later]:
        for section in doc.sections:
            when = section.when
            outcomes: frozenset[str] | None = None
            test = getattr(when, "test", "")
            arg = getattr(when, "arg", None)
            if when is None:
                pass
            elif doc.id not in own_ids:
                if not (test == "done" and arg == step.id):
                    continue  # a later document prints it only in some cases: the form says so, no more
            elif test == "outcome" and (arg or {}).get("step") == step.id:
                outcomes = frozenset(arg.get("in") or ())
            elif applies is None or not applies(section, state, at):
                continue  # printed only in another case
            for name in placeholders(str(section.text or "")):
                if name.startswith("input."):
                    ids: tuple[str, ...] = (name.removeprefix("input."),)
                elif name in INPUT_SOURCES and {step.act, step.id} & set(INPUT_SOURCES[name][0]):
                    ids = INPUT_SOURCES[name][1]
                else:
                    continue
                own = [i for i in ids if i in optional or i in required]
                if not own or own[0] not in optional or any(i in required for i in own):
                    continue
                need = out.get(own[0])
                if need is None:
                    need = out[own[0]] = DocumentNeed(outcomes, later=doc.id not in own_ids)
                elif need.outcomes is not None:
                    need.outcomes = None if outcomes is None else need.outcomes | outcomes
                if doc.title not in need.documents:
                    need.documents.append(doc.title)
                cite = (section.citation or {}).get("citation", "") if section.citation else ""
                if cite and cite not in need.citations:
                    need.citations.append(cite)
    # a decision every choice of which needs the input: always needed
    outcome_input = next((i for i in step.inputs if i.kind == "outcome"), None)
    for need in out.values():
        if (
            need.outcomes is not None
            and outcome_input is not None
            and set(outcome_input.choices) <= need.outcomes
        ):
            need.outcomes = None
    return out


def missing_on_form(step, missing) -> dict[str, str]:
    """The documents' missing values this step's form gives (input id -> what to say): a value the form left
    empty is named on its field, with the document and the clause that needs it."""
    ids = {i.id for i in step.inputs}
    out: dict[str, str] = {}
    for m in missing:
        name = m.source
        if name.startswith("input."):
            given = [name.removeprefix("input.")]
        elif name in INPUT_SOURCES and {step.act, step.id} & set(INPUT_SOURCES[name][0]):
            given = list(INPUT_SOURCES[name][1])
        else:
            continue
        field_id = next((i for i in given if i in ids), None)
        if field_id and field_id not in out:
            cite = f" ({m.citation})" if m.citation else ""
            out[field_id] = f"Needed to issue “{m.document}”{cite}, which this step issues. Fill it in."
    return out


def form_needs(needs: dict[str, DocumentNeed]) -> dict[str, tuple[frozenset[str] | None, str]]:
    """The needs as `act_forms.read_inputs` takes them: input id -> (outcomes or None, the message)."""
    return {k: (n.outcomes, n.message()) for k, n in needs.items()}


def outcome_words(outcomes) -> str:
    """The decisions that need an input, as the form's choices show them."""
    return " or ".join(f"“{humanize(o)[:1].upper() + humanize(o)[1:]}”" for o in sorted(outcomes))


def fields_for(j, step, *, state, at: dt.datetime, values=None, errors=None, case=None) -> list[dict]:
    """One dict per input, ready for the template: kind, label, whether required, the law's choices (with
    their citations), the value to re-show and its message. With the `case`, a `proofs` input shows the proof
    sent for each condition and is ticked where an accepted proof counts (dogcase.proofs)."""
    values = values or {}
    errors = errors or {}
    choices = j.input_choices(step.id, state, at)
    # an input the law lets the step leave empty that a document cannot be issued without is not "optional"
    needs = inputs_documents_need(j, step, state.designation, at.astimezone(j.tz).date())
    # what the documents need of this form now: required (always, or for some decisions), and why
    demanded = document_needs(j, step, state, at)
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
            "required": bool(inp.required)
            or (inp.id in needs and needs[inp.id].now)
            or (inp.id in demanded and demanded[inp.id].outcomes is None),
            "needed_for": "; ".join(f"“{t}”" for t in needs[inp.id].documents) if inp.id in needs else "",
            # why the law's "optional" input is required here (the document that prints it, with its citation)
            "needed_why": demanded[inp.id].why if inp.id in demanded else "",
            "required_if": outcome_words(demanded[inp.id].outcomes)
            if inp.id in demanded and demanded[inp.id].outcomes
            else "",
            "records": inp.records,
            "choices": [_choice(c) for c in given or ()],
            "value": values.get(inp.id, [] if inp.kind in LIST_KINDS else ""),
            "error": errors.get(inp.id, ""),
            "help": inp.help or "",
            # a text input's limit, said beside it (a `maxlength` would cut a pasted text silently); a short
            # one is a one-line field
            "max_length": f"{inp.text_limit:,}" if inp.kind == "text" else "",
            "short": inp.kind == "text" and inp.text_limit <= SHORT_TEXT,
        }
        if inp.kind == "telephone":
            f["max_length"] = f"{TELEPHONE_MAX:,}"
            f["help"] = f["help"] or TELEPHONE_HELP
        if inp.kind == "proofs" and case is not None:
            from dogcase.proofs.counting import annotate_choices

            annotate_choices(case, f, at, j.tz)
        if inp.kind == "designation":
            f["choices"] = [{**c, "label": designation_label(j, c["value"])} for c in f["choices"]]
        if inp.kind == "jurisdiction" and case is not None:
            # where the dog moved: the other cities and counties served here, or any other place (named)
            f["choices"] = [_choice(c) for c in destination_choices(case)]
        if inp.kind == "staff_member":
            # the people the law empowers for the act they are designated to take (the hearing officer)
            day = at.astimezone(j.tz).date()
            f["choices"] = [
                _choice({"value": str(u.pk), "label": staff_name(u)})
                for u in designatable_staff(j, inp.act, state.designation, day)
            ]
        out.append(f)
    return out


# A text input of at most this many characters is a one-line field (a name, a place, a number).
SHORT_TEXT = 300
TELEPHONE_HELP = "A telephone number, e.g. 218-555-0150; an extension as “ext. 12”."


# Inputs whose values come from the law's choices: the engine's refusal of a value names the ids it allows,
# the form names the choices it offered.
CHOICE_KINDS = frozenset(
    {
        "designation",
        "service_method",
        "outcome",
        "seizure_ground",
        "staff_member",
        "jurisdiction",
        *LIST_KINDS,
    }
)


def choice_message(field: dict[str, Any] | None) -> str:
    """What to say when a value is not one of a choice input's choices, in the words the form shows."""
    if field is None or field["kind"] not in CHOICE_KINDS:
        return ""
    labels = "; ".join(c["label"] for c in field["choices"] if c.get("applies", True))
    if field["kind"] in LIST_KINDS:
        return f"Tick only the boxes offered here{f': {labels}' if labels else ''}."
    return f"Choose one of the choices offered{f': {labels}' if labels else ''}."
