"""The common legal acts by name (declare the dog, serve the notice, hold the hearing, register, seize, ...):
each is `take_step` with the step the packs usually give it."""

from __future__ import annotations

import datetime as dt

from dogcase.cases.acts.steps import StepResult, take_step
from dogcase.cases.models import Case

# ------------------------------------------------------------------------------------ named legal acts
# The steps are data (each city's pack names its own); these name the common ones for code and tests. Each
# passes its keyword arguments as the step's inputs; `step=` picks the city's step where its id differs
# (Tracy's opening step is "classify").


def _named(default_step: str, doc: str):
    def act(
        case: Case,
        *,
        actor,
        expected_version: int,
        step: str = default_step,
        uploads=None,
        idempotency_key: str | None = None,
        at: dt.datetime | None = None,
        **inputs,
    ) -> StepResult:
        return take_step(
            case,
            step,
            actor=actor,
            inputs=inputs,
            expected_version=expected_version,
            uploads=uploads,
            idempotency_key=idempotency_key,
            at=at,
        )

    act.__name__ = act.__qualname__ = f"{default_step}_act"
    act.__doc__ = doc
    return act


declare_dog = _named(
    "declare", "Declare the dog (potentially) dangerous — or, with step='classify', vicious."
)
serve_notice = _named("serve_notice", "Record the service of the notice of declaration: date, method, proof.")
file_hearing_request = _named("receive_hearing_request", "Record the owner's hearing request, if in time.")
schedule_hearing = _named("schedule_hearing", "Schedule the hearing before an impartial hearing officer.")
hold_hearing = _named("hold_hearing", "Record that the hearing was held.")
record_decision = _named("decide_appeal", "Record the hearing officer's decision and its delivery.")
issue_certificate = _named("issue_certificate", "Register the dog: only when every condition is proven.")
seize_dog = _named("seize", "Seize the dog on a ground the law gives.")
release_dog = _named("release", "Release a seized dog to its owner (reclaim).")
dispose_of_dog = _named("dispose", "Dispose of a seized dog not reclaimed in time.")
destroy_dog = _named("destroy", "Destroy the dog: only after the owner's hearing opportunity.")
review_designation = _named("review_designation", "Review the designation at the owner's request.")
record_transfer = _named("record_transfer", "Record the transfer of the dog to a new owner.")
record_death = _named("record_death", "Record the death of the dog.")
