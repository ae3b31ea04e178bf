"""The form of a legal act, as the pages of every app read it: the step's inputs from what was submitted (into
the values `acts.take_step` takes), the form's idempotency token, and the act's refusals sorted onto the form."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from dogcase.cases import acts
from dogcase.cases.pages import humanize, sentence
from dogcase.law import clock

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


def read_inputs(
    step, post, files, *, tz, needs: Mapping[str, tuple[Any, str]] | None = None
) -> dict[str, Any]:
    """The submitted values as `take_step` takes them: dates as YYYY-MM-DD, instants as ISO text with the
    city's offset, yes/no as booleans, the proofs as a list. Empty optional fields are left out. A file
    input carries the upload's name (the file itself goes to `take_step` as an upload), so that a required
    file passes the law's check of the form.

    `needs`: the inputs the law lets the step leave empty that a document cannot be issued without (input id ->
    (the decisions that need it, or None for every case; the message saying why)): left empty, the form is
    refused on that field before any act is taken."""
    needs = needs or {}
    out: dict[str, Any] = {}
    for inp in step.inputs:
        name = f"in-{inp.id}"
        required = bool(inp.required) or (inp.id in needs and needs[inp.id][0] is None)
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
                raise FormProblem(inp.id, needs[inp.id][1] if inp.id in needs else missing_message(inp.kind))
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
    decision = next((out.get(i.id) for i in step.inputs if i.kind == "outcome"), None)
    for inp in step.inputs:
        outcomes, message = needs.get(inp.id, (None, ""))
        if outcomes and decision in outcomes and inp.id not in out:
            raise FormProblem(inp.id, message)
    return out


def _date_problem(raw: str, otherwise: str) -> str:
    """A date that is written right but does not exist (2026-02-30) is said to not exist."""
    missing = clock.missing_day(raw)
    return f"{missing[:1].upper()}{missing[1:]}." if missing else otherwise


def missing_message(kind: str) -> str:
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


# -------------------------------------------------------------------------------------- the act


def new_form_token() -> str:
    return str(uuid.uuid4())


def clean_token(value: str | None) -> str | None:
    """A form's idempotency key as sent back, if it is a well-formed uuid (else a fresh one is not made up)."""
    try:
        return str(uuid.UUID(str(value)))
    except (ValueError, TypeError):
        return None


def refusal_row(reason: str, citation: str, code: str = "") -> dict[str, str]:
    """A refusal; its citation is left out where the reason already quotes it."""
    return {"reason": reason, "citation": "" if citation and citation in reason else citation, "code": code}


@dataclass
class ActAttempt:
    """What a form's call of an act function came to: its result, or the problems to show on the form again
    (each field's error, errors that name no field of the form, the law's refusals) and, when someone else acted
    on the case first, the case's version now. `status` is the HTTP status to answer the form with."""

    result: Any = None
    errors: dict[str, str] = field(default_factory=dict)
    general: list[str] = field(default_factory=list)
    refusals: list[dict[str, str]] = field(default_factory=list)
    stale: Any = None
    status: int = 200

    @property
    def done(self) -> bool:
        return self.status == 200


def attempt_act(call: Callable[[], Any], *, fields: Iterable[str], fallback: str | None = None) -> ActAttempt:
    """Call an act (`acts.take_step`, `serving.record_service_attempt`, ...) for a form and sort what it
    refuses: bad input goes beside the form's field it names (or `fallback`, or the form's general errors, when
    it names none of `fields`), the law's refusals with their citations, a stale case with its current version.
    Nothing the act refused was saved, so the form is shown again with what was typed."""
    fields = tuple(fields)
    try:
        return ActAttempt(result=call())
    except acts.InvalidInput as exc:
        out = ActAttempt(status=400)
        target = exc.field if exc.field in fields else fallback
        if target:
            out.errors[target] = sentence(exc.rule)
        else:
            out.general.append(sentence(f"{humanize(exc.field)}: {exc.rule}"))
        return out
    except acts.Refused as exc:
        return ActAttempt(
            refusals=[
                refusal_row(r["reason"], r.get("citation", ""), r.get("code", "")) for r in exc.refusals
            ],
            status=409,
        )
    except acts.StaleCase as exc:
        return ActAttempt(stale=exc, status=409)
