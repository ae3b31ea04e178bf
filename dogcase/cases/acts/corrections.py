"""Correcting what a legal act recorded: a date (`correct_event_date`) or a value typed in its form
(`correct_event_input`: a telephone left out, a name misspelt), each a correction event with the actor and the
reason, the act's own event never changed, and the obligations recomputed."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from dogcase.cases.access import require_city, staff_roles, staff_roles_for_pack_roles
from dogcase.cases.acts.core import (
    REASON_LIMIT,
    InvalidInput,
    Refused,
    StaleCase,
    check_text,
    lock_case,
    now,
    replayed,
    roles_text,
)
from dogcase.cases.acts.obligations import iso, recompute_obligations
from dogcase.cases.acts.steps import StepResult
from dogcase.cases.audit import append_event
from dogcase.cases.hearings import check_room
from dogcase.cases.models import INPUT_CORRECTION, Case, Event, case_state, jurisdiction_of
from dogcase.law import CaseState, InputError, clock


@dataclass
class _Opened:
    """A case locked for a correction of one of its acts: the case, its law and the step the act took; or, for
    a form submitted twice, the first submission's result."""

    locked: Case | None = None
    j: object = None
    step: object = None
    replay: StepResult | None = None


def _reason(reason: str, what: str) -> str:
    reason = (reason or "").strip()
    if len(reason) < 10:
        raise InvalidInput("reason", f"say why the {what} was wrong (at least 10 characters)")
    check_text("reason", reason, REASON_LIMIT)
    return reason


def _open(
    case: Case, event: Event, actor, expected_version: int, idempotency_key, *, act: str, title: str
) -> _Opened:
    """Lock the case for a correction of `event` (inside the caller's transaction) and check that it may be
    corrected, and by `actor`: someone who may take the step, or an administrator."""
    lock_case(case.pk)
    replay = replayed(idempotency_key, actor=actor, act=act, case=case)
    if replay is not None:
        return _Opened(replay=StepResult(replay, Case.objects.get(pk=case.pk), replayed=True))
    locked = Case.objects.select_for_update().select_related("incident").get(pk=case.pk)
    if locked.version != expected_version:
        raise StaleCase(locked, expected_version)
    if event.case_id != locked.pk or event.kind != Event.Kind.STEP:
        raise InvalidInput("event", "only a legal act of this case can be corrected")
    if locked.status == Case.Status.CLOSED:
        raise Refused(
            title, [{"reason": f"Case {locked.number} is closed.", "citation": "", "code": "closed"}]
        )
    j = jurisdiction_of(locked)
    step = next((s for s in j.procedure(timezone.localtime(event.at).date()) if s.id == event.act), None)
    allowed = "administrator" in staff_roles(actor) or (
        step is not None and staff_roles(actor) & staff_roles_for_pack_roles(j.id, step.roles)
    )
    if not allowed:
        raise Refused(
            title,
            [
                {
                    "reason": "Only someone who may take this step, or an administrator, may correct it.",
                    "citation": "",
                    "code": "not_empowered",
                }
            ],
        )
    return _Opened(locked=locked, j=j, step=step)


def _record(
    locked: Case,
    event: Event,
    actor,
    at: dt.datetime,
    *,
    act: str,
    summary: str,
    data: dict,
    idempotency_key,
    always_list: bool,
) -> Event:
    """The correction event, the case's next version, its obligations recomputed and — with `always_list`, or
    when a due date moved — an event listing each due date that changed."""
    before = {o.deadline_id: (o.due_at or o.due_date) for o in locked.obligations.all()}
    correction = append_event(
        at=at,
        jurisdiction=locked.jurisdiction,
        case=locked,
        actor=actor,
        actor_roles=roles_text(actor),
        kind=Event.Kind.CORRECTION,
        act=act,
        summary=summary,
        citation=event.citation,
        layer=event.layer,
        data={**data, "corrects_seq": event.seq},
        corrects=event,
        idempotency_key=idempotency_key,
    )
    locked.version += 1
    locked.updated_at = at
    locked.save()
    recompute_obligations(locked, at=at, actor=actor)
    after = {o.deadline_id: (o.due_at or o.due_date) for o in locked.obligations.all()}
    changed = [
        {"deadline": k, "old_due": iso(before.get(k)), "new_due": iso(v)}
        for k, v in after.items()
        if before.get(k) != v
    ]
    if always_list or changed:
        append_event(
            at=at,
            jurisdiction=locked.jurisdiction,
            case=locked,
            actor=actor,
            actor_roles=roles_text(actor),
            kind=Event.Kind.SYSTEM,
            act="recompute_deadlines",
            summary=f"Deadlines recomputed after the correction of event #{event.seq}: {len(changed)} changed",
            citation=event.citation,
            data={"correction_seq": correction.seq, "changed": changed},
        )
    return correction


def correct_event_date(
    case: Case,
    *,
    event: Event,
    name: str,
    value: dt.date | dt.datetime,
    reason: str,
    actor,
    expected_version: int,
    idempotency_key: str | None = None,
    at: dt.datetime | None = None,
) -> StepResult:
    """Correct a date a step recorded (a service date entered wrong): a new correction event with the actor
    and the reason; the dependent deadlines are recomputed and the changes listed in the same event."""
    at = at or now()
    require_city(actor, case.jurisdiction)
    reason = _reason(reason, "date")
    with transaction.atomic():
        opened = _open(
            case, event, actor, expected_version, idempotency_key, act="correct_date", title="Correct a date"
        )
        if opened.replay is not None:
            return opened.replay
        locked, j, step = opened.locked, opened.j, opened.step
        state = case_state(locked)
        taken = next((t for t in state.taken if t.step == event.act and t.at == event.at), None)
        current = taken.events.get(name) if taken is not None else None
        if current is None:
            raise InvalidInput("name", f"the act did not record {name!r}")
        # one form date may have recorded several events (the hearing held and closed): correct them together
        source = next((i for i in step.inputs if name in i.records), None) if step is not None else None
        names = [n for n in (source.records if source else (name,)) if taken.events.get(n) == current]
        if isinstance(current, dt.datetime) != isinstance(value, dt.datetime):
            raise InvalidInput(
                "value", "give a " + ("date and time" if isinstance(current, dt.datetime) else "date")
            )
        day = timezone.localtime(value).date() if isinstance(value, dt.datetime) else value
        scheduled = step is not None and any(i.when == "future" and name in i.records for i in step.inputs)
        if not scheduled and day > timezone.localtime(event.at).date():
            raise InvalidInput(
                "value",
                f"cannot be after the day the act was recorded ({timezone.localtime(event.at):%-d %B %Y})",
            )
        if day < state.incident_date:
            raise InvalidInput(
                "value", f"cannot be before the incident of the case ({state.incident_date:%-d %B %Y})"
            )
        if value == current:
            raise InvalidInput("value", "that is already the recorded date")
        _check_corrected_order(j, state, names, value)
        if scheduled and source is not None and isinstance(value, dt.datetime):
            # a hearing moved by a correction is held to the same rule: one room, one hearing at a time
            place = (event.data.get("inputs") or {}).get("place")
            clash = check_room(j, locked, event.act, {source.id: value, "place": place}, at)
            if clash is not None:
                raise InvalidInput("value", clash[1])
        correction = _record(
            locked,
            event,
            actor,
            at,
            act="correct_date",
            summary=f"Corrected the date of {j.event_label(name)} of “{event.summary[:120]}” from {current} to "
            f"{value}: {reason}",
            data={"event": name, "events": names, "old": current, "new": value, "reason": reason},
            idempotency_key=idempotency_key,
            always_list=True,
        )
    return StepResult(correction, locked)


def _check_corrected_order(j, state: CaseState, names: list[str], value: dt.date | dt.datetime) -> None:
    """A corrected date keeps the case's dates in order, as a form's date must (docs/procedure.md, "Dates in
    order"): not before an event it cannot precede."""

    def local(v):
        return timezone.localtime(v).date() if isinstance(v, dt.datetime) else v

    for name in names:
        for earlier, _provision, _why in j.event_order.get(name, ()):
            before = state.events.get(earlier)
            if earlier in names or not isinstance(before, dt.date) or local(value) >= local(before):
                continue
            when = (
                clock.format_time(timezone.localtime(before))
                if isinstance(before, dt.datetime)
                else clock.format_date(before)
            )
            raise InvalidInput("value", f"cannot be before {j.event_label(earlier)} ({when})")


# the values of a form that a correction may change: what the act wrote down, not what it decided (a designation,
# an outcome, a ground or the proofs accepted are the act itself: a wrong one is answered by the law's own
# steps, a review or an appeal) nor a date (`correct_event_date`) or a file
CORRECTABLE_KINDS = ("text", "telephone")


def correctable_inputs(step) -> list:
    """The inputs of `step` a correction may change."""
    return [i for i in step.inputs if i.kind in CORRECTABLE_KINDS] if step is not None else []


def correct_event_input(
    case: Case,
    *,
    event: Event,
    input_id: str,
    value: str,
    reason: str,
    actor,
    expected_version: int,
    idempotency_key: str | None = None,
    at: dt.datetime | None = None,
) -> StepResult:
    """Correct a value a step recorded in its form (the officer's telephone left out of a declaration): a new
    correction event with the actor, the reason and both values; the case reads the corrected value from then
    on (its documents, the next acts' checks) and its deadlines are recomputed. The act's own event is never
    changed. Raises InvalidInput naming the field, Refused, or StaleCase."""
    at = at or now()
    require_city(actor, case.jurisdiction)
    reason = _reason(reason, "value")
    with transaction.atomic():
        opened = _open(
            case,
            event,
            actor,
            expected_version,
            idempotency_key,
            act=INPUT_CORRECTION,
            title="Correct what an act recorded",
        )
        if opened.replay is not None:
            return opened.replay
        locked, j, step = opened.locked, opened.j, opened.step
        source = next((i for i in correctable_inputs(step) if i.id == input_id), None)
        if source is None:
            names = ", ".join(i.label for i in correctable_inputs(step)) or "none"
            raise InvalidInput("input", f"this act has no such value to correct; its values: {names}")
        state = case_state(locked)
        taken = next((t for t in state.taken if t.step == event.act and t.at == event.at), None)
        current = (taken.inputs if taken is not None else {}).get(input_id)
        try:
            cleaned = j.validate_inputs_given(step, state, {input_id: value}, event.at).get(input_id)
        except InputError as problem:
            raise InvalidInput("value", problem.rule) from None
        if cleaned in (None, "") and source.required:
            raise InvalidInput("value", f"required: {source.label}")
        if (cleaned or "") == (current or ""):
            raise InvalidInput("value", "that is already the recorded value")
        correction = _record(
            locked,
            event,
            actor,
            at,
            act=INPUT_CORRECTION,
            summary=f"Corrected “{source.label}” of “{event.summary[:120]}” from {_shown(current)} to "
            f"{_shown(cleaned)}: {reason}",
            data={"input": input_id, "label": source.label, "old": current, "new": cleaned, "reason": reason},
            idempotency_key=idempotency_key,
            always_list=False,
        )
    return StepResult(correction, locked)


def _shown(value) -> str:
    return f"“{value}”" if value not in (None, "") else "(nothing)"
