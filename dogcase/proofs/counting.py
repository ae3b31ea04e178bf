"""Only accepted proof counts: the hook `acts.take_step` calls before the law engine reads a step's form.

A step with a `proofs` input (the certificate, the release) is checked by the engine's `proven:` test against
the conditions ticked in that input. The conditions with an accepted proof that counts on the day of the step
are added to it here, so that the engine sees them proven; a condition whose only proof is waiting or was
rejected is not. A member of staff may still tick a condition in the form: that tick, recorded in the step's
event with its author, is the staff's own record of the proof (docs/proofs.md)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.utils import timezone


def with_accepted_proofs(
    j, case, step_id: str, state, inputs: Mapping[str, Any], at: dt.datetime
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The inputs with each `proofs` input completed by the accepted proofs, and the accepted proofs that
    count (input, condition and proof id, for the step's audit event). Idempotent: the documents' act calls it
    before drafting the documents, the act again."""
    from dogcase.proofs.services import accepted_on

    out = dict(inputs)
    try:
        step = j.case_step(step_id, state, at)
    except Exception:  # noqa: BLE001 - an unknown step: the engine refuses it with its own words
        return out, []
    ids = [i.id for i in step.inputs if i.kind == "proofs"]
    if not ids:
        return out, []
    accepted = accepted_on(case, timezone.localtime(at, j.tz).date())
    if not accepted:
        return out, []
    choices = j.input_choices(step_id, state, at)
    added: list[dict[str, Any]] = []
    for input_id in ids:
        offered = {c["value"] for c in choices.get(input_id, ())}
        given = out.get(input_id)
        ticked = [] if given is None or isinstance(given, str) else list(given)
        if isinstance(given, str):
            continue  # not a list: the engine refuses it in its own words
        for condition, proof in accepted.items():
            if condition in offered:
                added.append({"input": input_id, "condition": condition, "proof": proof.pk})
                if condition not in ticked:
                    ticked.append(condition)
        out[input_id] = ticked
    return out, added


def annotate_choices(case, field: dict[str, Any], at: dt.datetime, tz) -> None:
    """The staff form's `proofs` field: beside each condition, the accepted proof (ticked, with a link), or the
    proof waiting for review, or the reason the last one was not accepted."""
    from dogcase.proofs.services import by_condition, counts_on

    day = timezone.localtime(at, tz).date()
    proofs = by_condition(case)
    for choice in field["choices"]:
        mine = proofs.get(choice["value"], [])
        counting = next((p for p in mine if counts_on(p, day)), None)
        waiting = next((p for p in mine if p.status == "submitted"), None)
        latest = mine[0] if mine else None
        choice["proof_accepted"] = counting
        choice["proof_waiting"] = waiting
        choice["proof_rejected"] = latest if latest is not None and latest.status == "rejected" else None
    if not field["value"]:
        field["value"] = [c["value"] for c in field["choices"] if c.get("proof_accepted")]
