"""The legal acts and record changes of a case. Nothing else writes case records (DESIGN.md principle 5).

Every function here:
- checks the person's city and role on the server;
- asks the law engine whether the step is allowed now, by this person, with these facts (the procedure in the
  city's law pack), and refuses with the reason and the citation when it is not;
- runs in one transaction, first locks the audit chain its event goes to (its case's, or its city's records'),
  and writes its audit event in that transaction;
- detects a stale form (optimistic locking on `Case.version`) and a double submission (`idempotency_key`).
"""

from __future__ import annotations

import bisect
import datetime as dt
import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Count, Q
from django.db.models.functions import Length
from django.utils import timezone

from dogcase.cases import files as file_store
from dogcase.cases import vocabulary
from dogcase.cases.access import (
    RECORD_KEEPERS,
    law_actor,
    require_city,
    require_record_keeper,
    staff_roles,
    staff_roles_for_pack_roles,
)
from dogcase.cases.audit import append_event, case_chain, city_chain, jsonable, lock_chain
from dogcase.cases.models import (
    Case,
    Dog,
    Event,
    Evidence,
    Incident,
    Obligation,
    Ownership,
    Person,
    Premises,
    StoredFile,
    Task,
    Victim,
    Witness,
)
from dogcase.cases.record_facts import bites_on_a_person, record_facts
from dogcase.law import CaseState, InputError, TakenStep, clock, library
from dogcase.law.procedure import too_long

# ------------------------------------------------------------------------------------------------ errors


class ActError(Exception):
    """A legal act or record change that could not be done; nothing was written."""


class Refused(ActError):
    """The law does not allow the step now, for this person, with these facts."""

    def __init__(self, label: str, refusals: list[dict[str, Any]]) -> None:
        self.label = label
        self.refusals = refusals
        reasons = "; ".join(
            f"{r['reason']} ({r['citation']})" if r.get("citation") else r["reason"] for r in refusals
        )
        super().__init__(f"{label}: refused — {reasons}")


class StaleCase(ActError):
    """Someone else acted on the case since the form was opened."""

    def __init__(self, case: Case, expected: int) -> None:
        self.case = case
        self.expected = expected
        super().__init__(
            f"Case {case.number} changed since you opened it (now at version {case.version}, your form was "
            f"for version {expected}). Nothing was saved; review the case as it is now and try again."
        )


class InvalidInput(ActError):
    def __init__(self, field: str, rule: str) -> None:
        self.field = field
        self.rule = rule
        super().__init__(f"{field}: {rule}")


def now() -> dt.datetime:
    return timezone.now()


def _lock_case(case_id: int) -> None:
    """Serialize the acts on one case on its audit chain's head (docs/cases.md, "The audit trail"): taken
    first, before the act reads what it decides on; acts on other cases go on side by side."""
    lock_chain(case_chain(case_id))


def _lock_city(jurisdiction: str) -> None:
    """Serialize one city's record changes, and its case and incident numbers, on its records' chain."""
    lock_chain(city_chain(jurisdiction))


def _replayed(key: str | None, *, actor, act: str, case: Case | None = None) -> Event | None:
    """The event already written for this submission, if the same person submitted the same form twice."""
    if not key:
        return None
    event = Event.objects.filter(idempotency_key=key).first()
    if event is None:
        return None
    if event.act != act or event.actor_id != actor.pk or (case is not None and event.case_id != case.pk):
        raise InvalidInput(
            "idempotency_key", "this form token was already used for another act; reload the page"
        )
    return event


def _roles_text(user) -> str:
    return ",".join(sorted(staff_roles(user)))


def jurisdiction_of(record) -> Any:
    return library().get(record.jurisdiction)


# ------------------------------------------------------------------------------------------- case state


def _parse_value(value: Any) -> dt.date | dt.datetime | Any:
    if isinstance(value, str):
        try:
            if "T" in value:
                return dt.datetime.fromisoformat(value)
            return dt.date.fromisoformat(value)
        except ValueError:
            return value
    return value


def case_state(case: Case, events: list[Event] | None = None) -> CaseState:
    """The case as the law engine reads it: the steps taken, with corrections applied to their dates."""
    if events is None:
        events = list(case.events.filter(kind__in=[Event.Kind.STEP, Event.Kind.CORRECTION]).order_by("seq"))
    corrections = Event.corrected_dates(events)
    taken = []
    for e in events:
        if e.kind != Event.Kind.STEP:
            continue
        recorded = dict(e.data.get("events", {}))
        recorded.update(corrections.get(e.pk, {}))
        taken.append(
            TakenStep(
                step=e.act,
                at=e.at,
                actor=str(e.actor_id),
                outcome=e.data.get("outcome"),
                events={k: _parse_value(v) for k, v in recorded.items()},
                inputs=e.data.get("inputs", {}),
            )
        )
    return CaseState(
        designation=case.designation or None,
        incident_date=timezone.localtime(case.incident.occurred_at).date(),
        taken=tuple(taken),
    )


# ------------------------------------------------------------------------------------------- obligations


def _satisfier_roles(j, on: dt.date) -> dict[str, str]:
    """deadline id -> ",role,role," of the staff roles that can take a step meeting it."""
    out: dict[str, set[str]] = {}
    for step in j.procedure(on):
        staff = staff_roles_for_pack_roles(j.id, step.roles)
        for deadline_id in step.satisfies:
            out.setdefault(deadline_id, set()).update(staff)
    return {k: "," + ",".join(sorted(v)) + "," for k, v in out.items()}


# Bump when the code that turns the engine's answer into obligation rows changes: every case is recomputed by
# the next sweep, as for a new pack.
OBLIGATION_ROWS_VERSION = "1"

_CONTENT_HASHES: dict[str, tuple[Any, str]] = {}


def _law_content_hash(j) -> str:
    """The hash of the law a jurisdiction's obligations are computed from: its packs' files (state and city)
    and the shared fact vocabulary. Read once per loaded library."""
    cached = _CONTENT_HASHES.get(j.id)
    if cached is not None and cached[0] is j:
        return cached[1]
    digest = hashlib.sha256(OBLIGATION_ROWS_VERSION.encode())
    files = [Path(layer.folder) / "pack.yaml" for layer in j.layers]
    files.append(Path(library().root) / "facts.yaml")
    for path in files:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    value = digest.hexdigest()[:40]
    _CONTENT_HASHES[j.id] = (j, value)
    return value


def law_fingerprint(j, at: dt.datetime) -> str:
    """The law a case's obligations computed at `at` depend on: the packs' content and the stretch of
    unchanged law `at` falls in (a provision or step coming into force, or ending, starts a new stretch).
    Two computations with one fingerprint differ only by the time passing, which `Obligation.sweep_at`
    tracks."""
    days = j._procedure._days
    index = bisect.bisect_right(days, timezone.localtime(at, j.tz).date())
    since = days[index - 1].isoformat() if index else "start"
    return f"{_law_content_hash(j)}@{since}"


def _midnight(j, day: dt.date) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(0), tzinfo=j.tz)


def _time_runs_out(j, ob) -> dt.datetime | None:
    """When the obligation's status changes by the time passing alone (the engine's `_status`): an open time
    ends after its due date or instant (overdue, or lapsed for a right); a time that may not start before a
    date becomes available on it. An overdue obligation: the instant it became overdue (its tasks). None when
    only an act can change it."""
    due = ob.due
    if due is None:
        return None
    if ob.status in ("open", "overdue"):
        if isinstance(due, dt.datetime):
            return due + dt.timedelta(microseconds=1)
        return _midnight(j, due + dt.timedelta(days=1))
    if ob.status == "not_yet":
        return due if isinstance(due, dt.datetime) else _midnight(j, due)
    return None


def recompute_obligations(
    case: Case,
    *,
    at: dt.datetime,
    state: CaseState | None = None,
    actor=None,
    existing: dict[str, Obligation] | None = None,
) -> list[dict]:
    """Bring the case's obligation rows in line with the law engine; return what changed (for the audit).
    Each row gets its `sweep_at`, and the case the instant and the law it was computed with, so that the
    sweep comes back to the case only when its time runs out or its law changes."""
    j = jurisdiction_of(case)
    state = state or case_state(case)
    computed = j.obligations(state, at)
    roles_by_deadline = _satisfier_roles(j, timezone.localtime(at).date())
    fingerprint = law_fingerprint(j, at)
    # a new law (or rows computed before their sweep_at was kept): look at the overdue ones' tasks again
    refresh = case.law_fingerprint != fingerprint
    closed = case.status == Case.Status.CLOSED  # the sweep passes over a closed case
    if existing is None:
        existing = {o.deadline_id: o for o in case.obligations.all()}
    changes: list[dict] = []
    seen = set()
    for ob in computed:
        key = ob.deadline_id or f"requirement:{ob.requirement}"
        seen.add(key)
        due_date, due_at = _due_parts(ob.due)
        detail = jsonable(
            {
                "citations": list(ob.citations),
                "consequences": list(ob.consequences),
                "rule": ob.rule,
                "notes": list(ob.notes),
                "reason": getattr(ob, "reason", "") or "",
                # the events the time is counted from, shown in the city's words for them
                "from": list(
                    dict.fromkeys(e["trigger"] for e in ob.answer.get("entries", ()) if e.get("trigger"))
                ),
            }
        )
        who_roles = roles_by_deadline.get(key, "")
        row = existing.get(key)
        fields = {
            "who": ob.who,
            "kind": ob.kind,
            "what": ob.what[:500],
            "status": ob.status,
            "due_date": due_date,
            "due_at": due_at,
            "late": bool(getattr(ob, "late", False)),
            "met_by": ob.met_by or "",
            "staff_roles": who_roles,
            "detail": detail,
        }
        sweep_at = None if closed else _time_runs_out(j, ob)
        if row is None:
            Obligation.objects.create(
                case=case,
                jurisdiction=case.jurisdiction,
                deadline_id=key,
                updated_at=at,
                sweep_at=sweep_at,
                **fields,
            )
            changes.append({"deadline": key, "old_due": None, "new_due": _iso(ob.due), "status": ob.status})
            continue
        old_due = row.due_at or row.due_date
        changed = any(getattr(row, k) != v for k, v in fields.items())
        if ob.status == "overdue" and not changed and not refresh:
            sweep_at = row.sweep_at  # its tasks were raised already (None), or are still to raise
        if changed:
            if old_due != (due_at or due_date) or row.status != ob.status:
                changes.append(
                    {
                        "deadline": key,
                        "old_due": _iso(old_due),
                        "new_due": _iso(ob.due),
                        "old_status": row.status,
                        "status": ob.status,
                    }
                )
            for k, v in fields.items():
                setattr(row, k, v)
            row.sweep_at = sweep_at
            row.updated_at = at
            row.save()
            if actor is not None and ob.status != "overdue":
                # the act that met (or ended) the obligation also settles the tasks it had raised
                Task.objects.filter(obligation=row, done_at__isnull=True).update(done_at=at, done_by=actor)
        elif row.sweep_at != sweep_at:
            row.sweep_at = sweep_at
            row.save(update_fields=["sweep_at"])
    for deadline_id, row in existing.items():
        if deadline_id not in seen and row.status != "withdrawn":
            changes.append({"deadline": deadline_id, "old_status": row.status, "status": "withdrawn"})
            row.status = "withdrawn"
            row.sweep_at = None
            row.updated_at = at
            row.save(update_fields=["status", "sweep_at", "updated_at"])
            if actor is not None:
                Task.objects.filter(obligation=row, done_at__isnull=True).update(done_at=at, done_by=actor)
    if case.obligations_at != at or case.law_fingerprint != fingerprint:
        case.obligations_at, case.law_fingerprint = at, fingerprint
        Case.objects.filter(pk=case.pk).update(obligations_at=at, law_fingerprint=fingerprint)
    return changes


def _due_parts(due) -> tuple[dt.date | None, dt.datetime | None]:
    if due is None:
        return None, None
    if isinstance(due, dt.datetime):
        return timezone.localtime(due).date(), due
    return due, None


def _iso(value) -> str | None:
    return value.isoformat() if value is not None else None


# --------------------------------------------------------------------------------------------- the acts


@dataclass(frozen=True)
class StepResult:
    event: Event
    case: Case
    replayed: bool = False


def take_step(
    case: Case,
    step_id: str,
    *,
    actor,
    inputs: Mapping[str, Any],
    expected_version: int,
    uploads: Mapping[str, Any] | None = None,
    idempotency_key: str | None = None,
    at: dt.datetime | None = None,
) -> StepResult:
    """Take one step of the case's procedure (declare, serve the notice, record a hearing request, decide,
    register, seize, ...): the law pack says who may take it, when and with what; this function asks the law
    engine, records the events the step starts, recomputes the obligations and writes the audit event, all in
    one transaction. Raises Refused (with reasons and citations), InvalidInput, StaleCase or PermissionDenied.
    """
    at = at or now()
    require_city(actor, case.jurisdiction)
    if staff_roles(actor) <= {"auditor"}:
        raise Refused(
            "This act", [{"reason": "The auditor role is read-only.", "citation": "", "code": "read_only"}]
        )
    with transaction.atomic():
        _lock_case(case.pk)
        replay = _replayed(idempotency_key, actor=actor, act=step_id, case=case)
        if replay is not None:
            return StepResult(replay, Case.objects.get(pk=case.pk), replayed=True)
        locked = Case.objects.select_for_update().select_related("incident").get(pk=case.pk)
        if locked.version != expected_version:
            raise StaleCase(locked, expected_version)
        j = jurisdiction_of(locked)
        if locked.status == Case.Status.CLOSED and not _concerns_person(j, step_id, at):
            raise Refused(
                "This step",
                [
                    {
                        "reason": f"Case {locked.number} is closed; no further step can be taken.",
                        "citation": "",
                        "code": "closed",
                    }
                ],
            )
        state = case_state(locked)
        # only accepted proof counts toward a condition of registration (dogcase.proofs.counting)
        from dogcase.proofs.counting import with_accepted_proofs

        inputs, proofs_counted = with_accepted_proofs(j, locked, step_id, state, inputs, at)
        _check_staff_members(j, step_id, state, inputs, at)
        try:
            cleaned = j.validate_inputs(step_id, state, dict(inputs), at)
        except InputError as exc:
            # the form's field name, as the view shows it beside the input
            raise InvalidInput(exc.field.removeprefix("inputs."), exc.rule) from None
        verdict = j.check_step(step_id, state, law_actor(actor, locked.jurisdiction), at, cleaned)
        step = verdict.step
        if not verdict.allowed:
            raise Refused(
                step.label,
                [
                    {"reason": r.reason, "citation": (r.provision or {}).get("citation", ""), "code": r.code}
                    for r in verdict.refusals
                ],
            )
        stored = {}
        for inp in step.inputs:
            if inp.kind == "file":
                upload = (uploads or {}).get(inp.id)
                if upload is None:
                    if inp.required:
                        raise InvalidInput(inp.id, "a file is required")
                    continue
                stored[inp.id] = _store(upload, inp.id, locked.jurisdiction, actor, at)
        extra = {"accepted_proofs": proofs_counted} if proofs_counted else {}
        event = _record_step(
            locked,
            j,
            step,
            cleaned,
            state,
            at,
            stored=stored,
            extra=extra,
            actor=actor,
            actor_roles=_roles_text(actor),
            idempotency_key=idempotency_key,
        )
    return StepResult(event, locked)


class OwnerRefused(Refused):
    """An owner's filing refused: by the law (as Refused), or because the step is not one an owner files, or
    the person is not an owner of the case's dog."""


def is_owner(person: Person, case: Case, on: dt.date | None = None) -> bool:
    """Whether `person` is (on `on`, default today) an owner of the case's dog: an ownership not ended."""
    on = on or timezone.localdate()
    return (
        Ownership.objects.filter(dog_id=case.dog_id, person_id=person.pk)
        .filter(Q(until__isnull=True) | Q(until__gte=on))
        .exists()
    )


def take_owner_step(
    case: Case,
    step_id: str,
    *,
    person: Person,
    inputs: Mapping[str, Any],
    expected_version: int,
    uploads: Mapping[str, Any] | None = None,
    idempotency_key: str | None = None,
    at: dt.datetime | None = None,
) -> StepResult:
    """A step the owner files themselves (the owner's portal): the hearing request, a notice of transfer,
    move or death, the landlord disclosure, the request for a review. The same engine checks as `take_step`;
    refused unless the pack marks the step `filed_by_owner: true` and `person` owns the case's dog. The filing
    is dated when submitted: `at`, and the inputs the pack marks `filing_date: true` take `at`'s date whatever
    was sent. The event has no user: its actor_name is the person's name, actor_roles "owner" and
    data["filed_by"] = {"person": pk, "via": "portal"}. Raises OwnerRefused, InvalidInput or StaleCase."""
    at = at or now()
    day = timezone.localtime(at).date()
    if uploads:
        # a file needs a staff user to own it (StoredFile.uploaded_by); the owner's proof has its own route
        raise InvalidInput("uploads", "files cannot be sent with this form")
    j = jurisdiction_of(case)
    try:
        step = j.step(step_id, day)
    except InputError:
        step = None
    if step is None or not step.filed_by_owner:
        raise OwnerRefused(
            getattr(step, "label", "This step"),
            [
                {
                    "reason": "An owner cannot file this; the city records it.",
                    "citation": "",
                    "code": "not_owner_step",
                }
            ],
        )
    if person.jurisdiction != case.jurisdiction or not is_owner(person, case, day):
        raise OwnerRefused(
            step.label,
            [{"reason": "Only an owner of the dog may file this.", "citation": "", "code": "not_owner"}],
        )
    with transaction.atomic():
        _lock_case(case.pk)
        if idempotency_key:
            replay = Event.objects.filter(idempotency_key=idempotency_key).first()
            if replay is not None:
                filed_by = (replay.data or {}).get("filed_by") or {}
                if replay.act != step_id or replay.case_id != case.pk or filed_by.get("person") != person.pk:
                    raise InvalidInput(
                        "idempotency_key", "this form token was already used for another act; reload the page"
                    )
                return StepResult(replay, Case.objects.get(pk=case.pk), replayed=True)
        locked = Case.objects.select_for_update().select_related("incident").get(pk=case.pk)
        if locked.version != expected_version:
            raise StaleCase(locked, expected_version)
        if locked.status == Case.Status.CLOSED:
            raise OwnerRefused(
                step.label,
                [{"reason": f"Case {locked.number} is closed.", "citation": "", "code": "closed"}],
            )
        state = case_state(locked)
        try:
            step = j.case_step(step_id, state, at)
        except InputError as exc:
            raise OwnerRefused(
                step.label, [{"reason": str(exc), "citation": "", "code": "not_applicable"}]
            ) from None
        given = {
            k: v
            for k, v in dict(inputs).items()
            if not any(i.id == k and i.kind == "file" for i in step.inputs)
        }
        for inp in step.inputs:
            if inp.filing_date:
                given[inp.id] = day.isoformat()
        try:
            cleaned = j.validate_inputs(step_id, state, given, at)
        except InputError as exc:
            raise InvalidInput(exc.field.removeprefix("inputs."), exc.rule) from None
        # filed with the office the pack names: the law engine sees the filing as received by it
        receiver = law_actor_for_filing(step, person)
        verdict = j.check_step(step_id, state, receiver, at, cleaned)
        if not verdict.allowed:
            raise OwnerRefused(
                step.label,
                [
                    {"reason": r.reason, "citation": (r.provision or {}).get("citation", ""), "code": r.code}
                    for r in verdict.refusals
                ],
            )
        event = _record_step(
            locked,
            j,
            step,
            cleaned,
            state,
            at,
            extra={"filed_by": {"person": person.pk, "via": "portal"}},
            actor=None,
            actor_name=person.full_name,
            actor_roles="owner",
            summary_suffix=" — filed by the owner",
            idempotency_key=idempotency_key,
        )
        _documents_to_send(j, locked, step, event, at)
    return StepResult(event, locked)


def _documents_to_send(j, case: Case, step, event: Event, at: dt.datetime) -> None:
    """A step that issues documents (Tracy's acknowledgment of a hearing request) filed by the owner issues
    none: no staff member issued it. A task tells the office the pack names to send them."""
    try:
        types = j.document_types(step.id, case.designation or None, timezone.localtime(at).date())
    except (InputError, KeyError):
        return
    if not types:
        return
    roles = staff_roles_for_pack_roles(
        j.id, frozenset().union(step.roles, *step.roles_by_designation.values())
    )
    titles = "; ".join(f"“{t.title}”" for t in types)
    Task.objects.create(
        case=case,
        jurisdiction=case.jurisdiction,
        key=_task_key(f"owner-filing:{event.pk}:documents"),
        text=f"The owner filed “{step.label}” from the portal: send the owner {titles}"[:500],
        citation=event.citation[:500],
        staff_roles="," + ",".join(sorted(roles)) + "," if roles else "",
        created_at=at,
    )


def law_actor_for_filing(step, person: Person):
    """The owner's filing as the law engine sees it: received by the office the pack names for the step (the
    roles empowered to take it), under an id no staff member has."""
    from dogcase.law.procedure import Actor

    roles = frozenset().union(step.roles, *step.roles_by_designation.values())
    return Actor(id=f"owner:{person.pk}", roles=roles)


def _record_step(
    locked: Case,
    j,
    step,
    cleaned: Mapping[str, Any],
    state: CaseState,
    at: dt.datetime,
    *,
    actor,
    actor_roles: str,
    stored: Mapping[str, StoredFile] | None = None,
    extra: Mapping[str, Any] | None = None,
    actor_name: str | None = None,
    summary_suffix: str = "",
    idempotency_key: str | None = None,
) -> Event:
    """Record a step the law allowed (by staff, `take_step`; by an owner, `take_owner_step`): the events it
    starts, the case's designation and status as it leaves them, the audit event with the inputs and files, the
    case's new version and stage, the dog's status and the obligations recomputed. Runs in the act's transaction,
    the case locked."""
    stored = stored or {}
    recorded = j.events_of(step.id, at, cleaned, state)
    outcome = cleaned.get("outcome")
    if step.opens_case and cleaned.get("designation"):
        locked.designation = cleaned["designation"]
        locked.designation_in_effect = True
    if step.ends_on(outcome):
        locked.designation_in_effect = False
    if step.closes_on(outcome):
        locked.status = Case.Status.CLOSED
    data = {
        "step": step.id,
        "act": step.act,
        "label": step.label,
        "inputs": {k: v for k, v in cleaned.items() if k not in stored},
        "files": {k: {"id": f.pk, "sha256": f.sha256, "name": f.original_name} for k, f in stored.items()},
        "events": recorded,
        "outcome": outcome,
        "designation": locked.designation,
        "law_date": timezone.localtime(at).date(),
        **(extra or {}),
        # the case's record as this act leaves it: what `dogcase audit verify` holds the row to
        "case_after": {
            "status": locked.status,
            "designation": locked.designation,
            "designation_in_effect": locked.designation_in_effect,
        },
    }
    event = append_event(
        at=at,
        jurisdiction=locked.jurisdiction,
        case=locked,
        actor=actor,
        actor_name=actor_name,
        actor_roles=actor_roles,
        kind=Event.Kind.STEP,
        act=step.id,
        summary=_step_summary(j, step, cleaned, outcome) + summary_suffix,
        citation="; ".join(dict.fromkeys(p["citation"] for p in step.provisions)),  # each once
        layer=step.layer,
        data=data,
        idempotency_key=idempotency_key,
    )
    locked.version += 1
    locked.stage = step.label
    locked.updated_at = at
    locked.save()
    _apply_dog_status(locked, recorded)
    recompute_obligations(locked, at=at, actor=actor)
    return event


def _check_staff_members(
    j, step_id: str, state: CaseState, inputs: Mapping[str, Any], at: dt.datetime
) -> None:
    """A person designated in a step's form (the hearing officer) is one of the users the law empowers for the
    act they are to take, with access to the city; the law engine then holds them to impartiality."""
    from dogcase.cases.hearings import designatable_staff

    try:
        step = j.case_step(step_id, state, at)
    except InputError:
        return  # an unknown step: the engine refuses it with its own words
    for inp in step.inputs:
        value = inputs.get(inp.id) if isinstance(inputs, Mapping) else None
        if inp.kind != "staff_member" or value in (None, ""):
            continue
        allowed = designatable_staff(j, inp.act, state.designation, timezone.localtime(at).date())
        if str(value).strip() not in {str(u.pk) for u in allowed}:
            names = ", ".join(u.get_full_name() or u.get_username() for u in allowed) or "nobody yet"
            raise InvalidInput(inp.id, f"choose one of the people who may do this in this city: {names}")


def _concerns_person(j, step_id: str, at: dt.datetime) -> bool:
    """A step that concerns a person, not the dog's case (the 347.542 ownership ban that follows the owner's
    conviction), may be taken on a closed case: a dog destroyed under 347.56 closes its case first."""
    try:
        return j.step(step_id, timezone.localtime(at).date()).concerns == "person"
    except InputError:
        return False


# Which recorded events change the dog's status, first match wins (a move also records a transfer).
_DOG_STATUS_BY_EVENT = (
    ("death", Dog.Status.DEAD),
    ("destruction", Dog.Status.DEAD),
    ("move", Dog.Status.MOVED),
    ("transfer", Dog.Status.TRANSFERRED),
)


def _apply_dog_status(case: Case, recorded: Mapping[str, Any]) -> None:
    for event_name, status in _DOG_STATUS_BY_EVENT:
        if event_name in recorded:
            Dog.objects.filter(pk=case.dog_id).update(status=status)
            return


def _step_summary(j, step, cleaned: Mapping[str, Any], outcome) -> str:
    """The act in words, with the city's labels for its designation and service method (a pack may add its
    own), never their ids."""
    parts = [step.label]
    designation = cleaned.get("designation")
    if designation:
        known = j.designations.get(designation)
        parts.append(f"designation: {known.label if known else designation.replace('_', ' ')}")
    if outcome:
        parts.append(f"outcome: {outcome.replace('_', ' ')}")
    if cleaned.get("method"):
        parts.append(f"method: {j.service_method_label(str(cleaned['method']))}")
    if cleaned.get("ground"):
        parts.append(f"ground: {str(cleaned['ground']).replace('_', ' ')}")
    return " — ".join(parts)


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
    reason = (reason or "").strip()
    if len(reason) < 10:
        raise InvalidInput("reason", "say why the date was wrong (at least 10 characters)")
    check_text("reason", reason, REASON_LIMIT)
    with transaction.atomic():
        _lock_case(case.pk)
        replay = _replayed(idempotency_key, actor=actor, act="correct_date", case=case)
        if replay is not None:
            return StepResult(replay, Case.objects.get(pk=case.pk), replayed=True)
        locked = Case.objects.select_for_update().select_related("incident").get(pk=case.pk)
        if locked.version != expected_version:
            raise StaleCase(locked, expected_version)
        if event.case_id != locked.pk or event.kind != Event.Kind.STEP:
            raise InvalidInput("event", "only a legal act of this case can be corrected")
        if locked.status == Case.Status.CLOSED:
            raise Refused(
                "Correct a date",
                [{"reason": f"Case {locked.number} is closed.", "citation": "", "code": "closed"}],
            )
        j = jurisdiction_of(locked)
        step = next((s for s in j.procedure(timezone.localtime(event.at).date()) if s.id == event.act), None)
        allowed = "administrator" in staff_roles(actor) or (
            step is not None and staff_roles(actor) & staff_roles_for_pack_roles(j.id, step.roles)
        )
        if not allowed:
            raise Refused(
                "Correct a date",
                [
                    {
                        "reason": "Only someone who may take this step, or an administrator, may correct it.",
                        "citation": "",
                        "code": "not_empowered",
                    }
                ],
            )
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
        before = {o.deadline_id: (o.due_at or o.due_date) for o in locked.obligations.all()}
        correction = append_event(
            at=at,
            jurisdiction=locked.jurisdiction,
            case=locked,
            actor=actor,
            actor_roles=_roles_text(actor),
            kind=Event.Kind.CORRECTION,
            act="correct_date",
            summary=f"Corrected the date of {j.event_label(name)} of “{event.summary[:120]}” from {current} to "
            f"{value}: {reason}",
            citation=event.citation,
            layer=event.layer,
            data={
                "event": name,
                "events": names,
                "old": current,
                "new": value,
                "reason": reason,
                "corrects_seq": event.seq,
            },
            corrects=event,
            idempotency_key=idempotency_key,
        )
        locked.version += 1
        locked.updated_at = at
        locked.save()
        recompute_obligations(locked, at=at, actor=actor)
        after = {o.deadline_id: (o.due_at or o.due_date) for o in locked.obligations.all()}
        changed = [
            {"deadline": k, "old_due": _iso(before.get(k)), "new_due": _iso(v)}
            for k, v in after.items()
            if before.get(k) != v
        ]
        append_event(
            at=at,
            jurisdiction=locked.jurisdiction,
            case=locked,
            actor=actor,
            actor_roles=_roles_text(actor),
            kind=Event.Kind.SYSTEM,
            act="recompute_deadlines",
            summary=f"Deadlines recomputed after the correction of event #{event.seq}: {len(changed)} changed",
            citation=event.citation,
            data={"correction_seq": correction.seq, "changed": changed},
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


# ------------------------------------------------------------------------------------------ the records


# The documented limits of the long texts (docs/cases.md, "Text limits"); a shorter text goes in its column's
# max_length. Nothing longer is stored, nor written to the audit trail: it is refused on its field.
NARRATIVE_LIMIT = 20_000
STATEMENT_LIMIT = 5_000  # a witness statement, a note on a prior history entry
REASON_LIMIT = 2_000  # the reason given for a correction or a change of a record


def check_text(field: str, value: str, limit: int) -> None:
    if len(value) > limit:
        raise InvalidInput(field, too_long(limit, len(value)))


def _check_lengths(model, values: Mapping[str, Any], prefix: str = "") -> None:
    """A value longer than its column is a message on the field, never a database error (PostgreSQL)."""
    for name, value in values.items():
        try:
            limit = model._meta.get_field(name).max_length
        except Exception:  # noqa: BLE001, S112 - not a model field (e.g. owners): nothing to check
            continue
        if limit and isinstance(value, str) and len(value) > limit:
            raise InvalidInput(f"{prefix}{name}", too_long(limit, len(value)))


def _check_email(value) -> None:
    if value:
        try:
            validate_email(value)
        except ValidationError:
            raise InvalidInput("email", "is not an e-mail address") from None


def _store(upload, field: str, jurisdiction: str, actor, at: dt.datetime) -> StoredFile:
    try:
        data, content_type, ext = file_store.read_upload(upload, field)
    except file_store.UploadRejected as exc:
        raise InvalidInput(exc.field, exc.rule) from None
    digest, relative = file_store.write_blob(data, ext)
    return StoredFile.objects.create(
        jurisdiction=jurisdiction,
        sha256=digest,
        original_name=(getattr(upload, "name", "") or f"upload{ext}")[:255],
        content_type=content_type,
        size=len(data),
        path=relative,
        uploaded_by=actor,
        uploaded_at=at,
    )


def _record_event(*, actor, jurisdiction: str, act: str, summary: str, data: dict, at, case=None, key=None):
    return append_event(
        at=at,
        jurisdiction=jurisdiction,
        case=case,
        actor=actor,
        actor_roles=_roles_text(actor),
        kind=Event.Kind.RECORD,
        act=act,
        summary=summary,
        data=data,
        idempotency_key=key,
    )


PERSON_FIELDS = (
    "full_name",
    "phone",
    "email",
    "street",
    "city_name",
    "state",
    "postal_code",
    "preferred_language",
)


def _check_language(value) -> None:
    if value is not None and value not in Person.Language.values:
        offered = ", ".join(f"{code} ({label})" for code, label in Person.Language.choices)
        raise InvalidInput("preferred_language", f"choose one of the languages offered: {offered}")


def record_person(
    *, jurisdiction: str, actor, idempotency_key: str | None = None, at: dt.datetime | None = None, **fields
) -> Person:
    """Record an owner, victim, witness or landlord."""
    require_record_keeper(actor, jurisdiction)
    unknown = set(fields) - set(PERSON_FIELDS)
    if unknown:
        raise InvalidInput(sorted(unknown)[0], "unknown field")
    if not (fields.get("full_name") or "").strip():
        raise InvalidInput("full_name", "a name is required")
    _check_lengths(Person, fields)
    _check_email(fields.get("email"))
    if not fields.get("preferred_language"):
        fields.pop("preferred_language", None)  # not given: the default, English
    _check_language(fields.get("preferred_language"))
    at = at or now()
    with transaction.atomic():
        _lock_city(jurisdiction)
        replay = _replayed(idempotency_key, actor=actor, act="record_person")
        if replay is not None:
            return Person.objects.get(pk=replay.data["id"])
        person = Person.objects.create(jurisdiction=jurisdiction, created_at=at, **fields)
        _record_event(
            actor=actor,
            jurisdiction=jurisdiction,
            act="record_person",
            summary=f"Recorded person {person.full_name}",
            data={"id": person.pk, **fields},
            at=at,
            key=idempotency_key,
        )
    return person


def record_premises(
    *,
    jurisdiction: str,
    actor,
    street: str,
    city_name: str,
    unit: str = "",
    postal_code: str = "",
    tenure: str = Premises.Tenure.UNKNOWN,
    landlord: Person | None = None,
    idempotency_key: str | None = None,
    at: dt.datetime | None = None,
) -> Premises:
    """Record where a dog is kept, and its landlord when the premises are rented (§ 90.15 (N))."""
    require_record_keeper(actor, jurisdiction)
    if not street.strip():
        raise InvalidInput("street", "a street address is required")
    _check_lengths(
        Premises, {"street": street, "unit": unit, "city_name": city_name, "postal_code": postal_code}
    )
    if tenure not in Premises.Tenure.values:
        raise InvalidInput("tenure", f"must be one of {', '.join(Premises.Tenure.values)}")
    if landlord is not None and landlord.jurisdiction != jurisdiction:
        raise InvalidInput("landlord", "the landlord must be recorded in the same city")
    at = at or now()
    with transaction.atomic():
        _lock_city(jurisdiction)
        replay = _replayed(idempotency_key, actor=actor, act="record_premises")
        if replay is not None:
            return Premises.objects.get(pk=replay.data["id"])
        premises = Premises.objects.create(
            jurisdiction=jurisdiction,
            street=street,
            unit=unit,
            city_name=city_name,
            postal_code=postal_code,
            tenure=tenure,
            landlord=landlord,
            created_at=at,
        )
        _record_event(
            actor=actor,
            jurisdiction=jurisdiction,
            act="record_premises",
            summary=f"Recorded premises {premises}",
            data={
                "id": premises.pk,
                "street": street,
                "unit": unit,
                "tenure": tenure,
                "landlord": landlord and landlord.pk,
            },
            at=at,
            key=idempotency_key,
        )
    return premises


DOG_FIELDS = (
    "name",
    "breed",
    "colour",
    "sex",
    "sterilized",
    "birth_year",
    "microchip_manufacturer",
    "microchip_number",
    "licence_number",
)


def record_dog(
    *,
    jurisdiction: str,
    actor,
    owners: list[Person],
    premises: Premises | None = None,
    photo=None,
    idempotency_key: str | None = None,
    at: dt.datetime | None = None,
    **fields,
) -> Dog:
    """Record a dog, its owners (one or several) and where it is kept."""
    require_record_keeper(actor, jurisdiction)
    unknown = set(fields) - set(DOG_FIELDS)
    if unknown:
        raise InvalidInput(sorted(unknown)[0], "unknown field")
    if not (fields.get("name") or "").strip():
        raise InvalidInput("name", "the dog's name is required (write “unknown” if nobody knows it)")
    _check_lengths(Dog, fields)
    if fields.get("sex", "unknown") not in Dog.Sex.values:
        raise InvalidInput("sex", f"must be one of {', '.join(Dog.Sex.values)}")
    year = fields.get("birth_year")
    if year is not None and not (1990 <= int(year) <= now().year):
        raise InvalidInput("birth_year", f"must be a year between 1990 and {now().year}")
    for person in owners:
        if person.jurisdiction != jurisdiction:
            raise InvalidInput("owners", f"{person} is recorded in another city")
    if premises is not None and premises.jurisdiction != jurisdiction:
        raise InvalidInput("premises", "the premises are recorded in another city")
    at = at or now()
    with transaction.atomic():
        _lock_city(jurisdiction)
        replay = _replayed(idempotency_key, actor=actor, act="record_dog")
        if replay is not None:
            return Dog.objects.get(pk=replay.data["id"])
        stored = _store(photo, "photo", jurisdiction, actor, at) if photo is not None else None
        if stored is not None and not stored.content_type.startswith("image/"):
            raise InvalidInput("photo", "the photo must be a JPEG, PNG, GIF or WebP image")
        dog = Dog.objects.create(
            jurisdiction=jurisdiction, premises=premises, photo=stored, created_at=at, **fields
        )
        for person in owners:
            Ownership.objects.create(dog=dog, person=person, since=timezone.localtime(at).date())
        _record_event(
            actor=actor,
            jurisdiction=jurisdiction,
            act="record_dog",
            summary=f"Recorded dog {dog.description}",
            data={
                "id": dog.pk,
                **fields,
                "owners": [p.pk for p in owners],
                "premises": premises and premises.pk,
                "photo": stored and {"id": stored.pk, "sha256": stored.sha256, "name": stored.original_name},
            },
            at=at,
            key=idempotency_key,
        )
    return dog


def record_incident(
    *,
    jurisdiction: str,
    actor,
    occurred_at: dt.datetime,
    place: str,
    place_type: str,
    kind: str,
    dogs: list[Dog],
    facts: Mapping[str, Any],
    narrative: str = "",
    victims: list[Mapping[str, Any]] = (),
    witnesses: list[Mapping[str, Any]] = (),
    evidence: list[tuple[Any, str]] = (),
    idempotency_key: str | None = None,
    at: dt.datetime | None = None,
) -> Incident:
    """Record what happened: when, where, which dogs, victims and their injuries, witnesses, the narrative,
    evidence files, and the law facts the classifier reads (validated against the fact vocabulary)."""
    require_record_keeper(actor, jurisdiction)
    j = library().get(jurisdiction)
    if timezone.is_naive(occurred_at):
        raise InvalidInput("occurred_at", "give the date and time with its time zone")
    at = at or now()
    if occurred_at > at:
        raise InvalidInput("occurred_at", "the incident cannot be in the future")
    if not clock.MIN_DATE <= timezone.localtime(occurred_at).date() <= clock.MAX_DATE:
        # The law's calendar starts in 1900: a case opened on an earlier incident could not be classified.
        raise InvalidInput(
            "occurred_at",
            f"must be on or after {clock.MIN_DATE.isoformat()}, the earliest date the law's calendar reads",
        )
    if not place.strip():
        raise InvalidInput("place", "say where it happened")
    if problem := vocabulary.PLACE_TYPE.problem(j.facts, place_type):
        raise InvalidInput("place_type", problem)
    _check_lengths(Incident, {"place": place, "place_type": place_type})
    check_text("narrative", narrative or "", NARRATIVE_LIMIT)
    if kind not in Incident.Kind.values:
        raise InvalidInput("kind", f"must be one of {', '.join(Incident.Kind.values)}")
    if not dogs:
        raise InvalidInput("dogs", "name at least one dog")
    for dog in dogs:
        if dog.jurisdiction != jurisdiction:
            raise InvalidInput("dogs", f"{dog} is recorded in another city")
    try:
        parsed = j.facts.parse(dict(facts))
    except InputError as exc:
        raise InvalidInput(exc.field, exc.rule) from None
    for name in parsed:
        if j.facts.facts[name].from_record:
            raise InvalidInput(
                f"facts.{name}",
                "comes from the dog's record (its earlier incidents and cases, and the prior history recorded "
                "on the dog), not from the incident",
            )
    for index, victim in enumerate(victims):
        for name, field in (("kind", vocabulary.VICTIM_KIND), ("injury", vocabulary.INJURY)):
            if problem := field.problem(j.facts, victim.get(name)):
                raise InvalidInput(f"victims[{index}].{name}", problem)
        if not (victim.get("name") or "").strip():
            raise InvalidInput(f"victims[{index}].name", "name the person, or describe the animal")
        _check_lengths(
            Victim, {k: victim.get(k) for k in ("name", "conduct", "kind", "injury")}, f"victims[{index}]."
        )
    for index, witness in enumerate(witnesses):
        if not (witness.get("name") or "").strip():
            raise InvalidInput(f"witnesses[{index}].name", "a witness needs a name")
        _check_lengths(Witness, {k: witness.get(k) for k in ("name", "contact")}, f"witnesses[{index}].")
        check_text(f"witnesses[{index}].statement", witness.get("statement") or "", STATEMENT_LIMIT)
    for index, (_upload, description) in enumerate(evidence):
        _check_lengths(Evidence, {"description": description}, f"evidence[{index}].")
    with transaction.atomic():
        _lock_city(jurisdiction)
        replay = _replayed(idempotency_key, actor=actor, act="record_incident")
        if replay is not None:
            return Incident.objects.get(pk=replay.data["id"])
        incident = Incident.objects.create(
            jurisdiction=jurisdiction,
            number=_next_number(Incident, f"{j.pack.case_prefix}-I{timezone.localtime(at).year}-"),
            occurred_at=occurred_at,
            place=place,
            place_type=place_type,
            kind=kind,
            narrative=narrative,
            facts=jsonable(parsed),
            reported_by=actor,
            created_at=at,
        )
        incident.dogs.set(dogs)
        for victim in victims:
            Victim.objects.create(
                incident=incident,
                kind=victim["kind"],
                name=victim["name"],
                injury=victim["injury"],
                conduct=victim.get("conduct", ""),
            )
        for witness in witnesses:
            Witness.objects.create(
                incident=incident,
                name=witness["name"],
                contact=witness.get("contact", ""),
                statement=witness.get("statement", ""),
            )
        stored = []
        for index, (upload, description) in enumerate(evidence):
            f = _store(upload, f"evidence[{index}]", jurisdiction, actor, at)
            Evidence.objects.create(incident=incident, file=f, description=description)
            stored.append(
                {"id": f.pk, "sha256": f.sha256, "name": f.original_name, "description": description}
            )
        _record_event(
            actor=actor,
            jurisdiction=jurisdiction,
            act="record_incident",
            summary=f"Recorded incident {incident.number}: {incident.get_kind_display().lower()} at {place}",
            data={
                "id": incident.pk,
                "number": incident.number,
                "occurred_at": occurred_at,
                "place": place,
                "place_type": place_type,
                "kind": kind,
                "dogs": [d.pk for d in dogs],
                "facts": parsed,
                "victims": list(victims),
                "witnesses": [dict(w) for w in witnesses],
                "evidence": stored,
            },
            at=at,
            key=idempotency_key,
        )
    return incident


def add_to_incident(
    incident: Incident,
    *,
    actor,
    evidence: list[tuple[Any, str]] = (),
    witnesses: list[Mapping[str, Any]] = (),
    idempotency_key: str | None = None,
    at: dt.datetime | None = None,
) -> Incident:
    """Add evidence files or witnesses found after the intake. Nothing recorded is changed: the additions are
    new rows, and their audit event names them with the files' hashes."""
    require_record_keeper(actor, incident.jurisdiction)
    if not evidence and not witnesses:
        raise InvalidInput("evidence", "add a file or a witness")
    for index, witness in enumerate(witnesses):
        if not (witness.get("name") or "").strip():
            raise InvalidInput(f"witnesses[{index}].name", "a witness needs a name")
        _check_lengths(Witness, {k: witness.get(k) for k in ("name", "contact")}, f"witnesses[{index}].")
        check_text(f"witnesses[{index}].statement", witness.get("statement") or "", STATEMENT_LIMIT)
    for index, (_upload, description) in enumerate(evidence):
        _check_lengths(Evidence, {"description": description}, f"evidence[{index}].")
    at = at or now()
    with transaction.atomic():
        _lock_city(incident.jurisdiction)
        if _replayed(idempotency_key, actor=actor, act="add_to_incident") is not None:
            return incident
        stored = []
        for index, (upload, description) in enumerate(evidence):
            f = _store(upload, f"evidence[{index}]", incident.jurisdiction, actor, at)
            Evidence.objects.create(incident=incident, file=f, description=description)
            stored.append(
                {"id": f.pk, "sha256": f.sha256, "name": f.original_name, "description": description}
            )
        for witness in witnesses:
            Witness.objects.create(
                incident=incident,
                name=witness["name"].strip(),
                contact=witness.get("contact", ""),
                statement=witness.get("statement", ""),
            )
        parts = [f"{len(stored)} file(s)"] if stored else []
        parts += [f"witness {w['name'].strip()}" for w in witnesses]
        _record_event(
            actor=actor,
            jurisdiction=incident.jurisdiction,
            act="add_to_incident",
            summary=f"Added to incident {incident.number}: {', '.join(parts)}",
            data={"id": incident.pk, "evidence": stored, "witnesses": [dict(w) for w in witnesses]},
            at=at,
            key=idempotency_key,
        )
    return incident


def _next_number(model, stem: str) -> str:
    """The next number after `stem` ("BL-2026-"): one past the highest already given, whichever jurisdiction
    id holds it (a pack renamed keeps its prefix, and its old numbers are not given again). Runs under the
    city's chain lock, so two acts never draw the same number."""
    last = (
        model.objects.filter(number__startswith=stem)
        .annotate(width=Length("number"))
        .order_by("-width", "-number")  # BL-2026-10000 after BL-2026-9999
        .values_list("number", flat=True)
        .first()
    )
    tail = last.removeprefix(stem) if last else "0"
    return f"{stem}{(int(tail) if tail.isdecimal() else 0) + 1:04d}"


def open_case(
    *, incident: Incident, dog: Dog, actor, idempotency_key: str | None = None, at: dt.datetime | None = None
) -> Case:
    """Open a case for one dog of an incident. The event keeps the classification the facts supported under
    the law in force on the incident date, so the case shows what the officer saw when deciding."""
    require_city(actor, incident.jurisdiction)
    if not staff_roles(actor) & RECORD_KEEPERS:
        raise Refused(
            "Open a case",
            [{"reason": "Your role may not open cases.", "citation": "", "code": "not_empowered"}],
        )
    if not incident.dogs.filter(pk=dog.pk).exists():
        raise InvalidInput("dog", "the dog is not named in this incident")
    j = library().get(incident.jurisdiction)
    incident_date = timezone.localtime(incident.occurred_at).date()
    from_record = record_facts(
        dog,
        vocabulary=j.facts,
        incident_day=incident_date,
        bite_on_person_now=bites_on_a_person(incident.facts, incident.victims.all()),
        exclude_incident=incident,
    )
    facts = {**j.facts.parse(dict(incident.facts)), **{f.fact: f.value for f in from_record}}
    classification = j.classify(facts, incident_date).as_dict()
    at = at or now()
    with transaction.atomic():
        _lock_city(incident.jurisdiction)
        replay = _replayed(idempotency_key, actor=actor, act="open_case")
        if replay is not None:
            return Case.objects.get(pk=replay.data["id"])
        if Case.objects.filter(incident=incident, dog=dog, status=Case.Status.OPEN).exists():
            raise InvalidInput("dog", f"{dog} already has an open case for this incident")
        case = Case.objects.create(
            jurisdiction=incident.jurisdiction,
            number=_next_number(Case, f"{j.pack.case_prefix}-{timezone.localtime(at).year}-"),
            dog=dog,
            incident=incident,
            opened_at=at,
            opened_by=actor,
            updated_at=at,
            stage="Case opened",
        )
        summary_bits = [
            f"{d['label']}: {d['status'].replace('_', ' ')}" for d in classification.get("designations", [])
        ]
        _record_event(
            actor=actor,
            jurisdiction=incident.jurisdiction,
            act="open_case",
            summary=f"Opened case {case.number} for {dog.name} (incident {incident.number})"
            + (f" — {'; '.join(summary_bits)}" if summary_bits else ""),
            data={
                "id": case.pk,
                "number": case.number,
                "incident": incident.pk,
                "dog": dog.pk,
                "classification": classification,
                "record_facts": [f.as_dict() for f in from_record],
            },
            at=at,
            case=case,
            key=idempotency_key,
        )
        recompute_obligations(case, at=at)
    return case


# ------------------------------------------------------------------------------------------------ sweep


@dataclass
class SweepReport:
    # the open cases of installed packs the sweep looked after (most need no work: see `recomputed`)
    cases: int = 0
    overdue: int = 0
    tasks_raised: int = 0
    changes: int = 0
    # open cases of a city whose law pack is no longer installed: no clock can be computed for them
    not_installed: int = 0
    # the cases whose obligations were computed again: a time ran out, the law changed, or --full
    recomputed: int = 0
    # of those, the cases recomputed because their law changed (a new pack, a provision coming into force)
    law_changed: int = 0

    def as_dict(self) -> dict[str, int]:
        return {
            "cases": self.cases,
            "overdue": self.overdue,
            "tasks_raised": self.tasks_raised,
            "changes": self.changes,
            "not_installed": self.not_installed,
            "recomputed": self.recomputed,
            "law_changed": self.law_changed,
        }


SWEEP_BATCH = 500


class _BatchRead:
    """What recomputing a batch of cases reads, in three queries for the batch instead of two for each case:
    their versions, their step events and their obligation rows. Read before each case's lock is taken, so a
    case an act changed since (its version moved on) is read again under the lock."""

    def __init__(self, ids: list[int]) -> None:
        self.versions = dict(Case.objects.filter(pk__in=ids).values_list("pk", "version"))
        self.events: dict[int, list[Event]] = {pk: [] for pk in ids}
        steps = Event.objects.filter(case_id__in=ids, kind__in=[Event.Kind.STEP, Event.Kind.CORRECTION])
        for e in steps.order_by("case_id", "seq"):
            self.events[e.case_id].append(e)
        self.obligations: dict[int, dict[str, Obligation]] = {pk: {} for pk in ids}
        for o in Obligation.objects.filter(case_id__in=ids).order_by():
            self.obligations[o.case_id][o.deadline_id] = o

    def for_case(self, case: Case) -> dict:
        if self.versions.get(case.pk) != case.version:
            return {}  # changed since the batch was read: recompute_obligations reads it itself
        return {"state": case_state(case, self.events[case.pk]), "existing": self.obligations[case.pk]}


def sweep(
    *,
    at: dt.datetime | None = None,
    jurisdiction: str | None = None,
    full: bool = False,
    progress: Callable[[str], None] | None = None,
) -> SweepReport:
    """Bring the clocks of the open cases up to `at`, mark what is overdue, and raise a staff task for each
    overdue obligation and for what the law attaches to it (e.g. "seizure authorized under (J)(1)(a)"). Safe
    to run as often as wanted: a task is raised once.

    Incremental: the acts recompute a case's obligations in their own transaction, so the sweep recomputes
    only the cases where
    - a time ran out: a row whose `sweep_at` has come (open -> overdue or lapsed, not yet -> available);
    - the law changed: the case's `law_fingerprint` is not the law in force at `at` (a new pack, or a
      provision or step coming into force); these are recomputed in batches, with `progress` told of each;
    - the rows were computed as of an instant after `at` (a sweep run for an earlier date);
    and raises the tasks of the overdue rows whose tasks are still to raise. The audit chain is locked only
    for a case it raises tasks in. `full` recomputes every open case and looks at every overdue obligation's
    tasks (what every sweep did before; for after an upgrade of dogcase's own code)."""
    at = at or now()
    report = SweepReport()
    lib = library()
    cases = Case.objects.filter(status=Case.Status.OPEN).order_by()
    if jurisdiction:
        cases = cases.filter(jurisdiction=jurisdiction)
    installed = [j for j in lib.jurisdictions if not jurisdiction or j == jurisdiction]
    counts = cases.aggregate(all=Count("pk"), installed=Count("pk", filter=Q(jurisdiction__in=installed)))
    report.cases, report.not_installed = counts["installed"], counts["all"] - counts["installed"]
    cases = cases.filter(jurisdiction__in=installed)
    # every query below is a range of an index: the sweep's cost grows with what is due or changed
    if full:
        law_ids: list[int] = []
        other_ids = list(cases.order_by("pk").values_list("pk", flat=True))
    else:
        # one seek of the (status, jurisdiction, law_fingerprint) index on either side of each jurisdiction's
        # law in force: the terms are whole, so the database ORs index ranges instead of scanning
        stale_law = Q(pk__in=[])
        for jid in installed:
            fingerprint = law_fingerprint(lib.get(jid), at)
            for other in (Q(law_fingerprint__lt=fingerprint), Q(law_fingerprint__gt=fingerprint)):
                stale_law |= Q(status=Case.Status.OPEN, jurisdiction=jid) & other
        law_ids = sorted(Case.objects.filter(stale_law).order_by().values_list("pk", flat=True))
        # the rows whose time has come; an overdue one has its tasks still to raise
        come = Obligation.objects.filter(sweep_at__lte=at).order_by().values_list("case_id", "status")
        due = {case_id for case_id, status in come if status != "overdue"}
        if due:
            due = set(cases.filter(pk__in=due).values_list("pk", flat=True))
        # rows computed as of a later instant than this sweep's (a sweep run for an earlier date)
        due |= set(cases.filter(obligations_at__gt=at).values_list("pk", flat=True))
        other_ids = sorted(due - set(law_ids))
    report.law_changed = len(law_ids)
    for ids, why in ((law_ids, "law changed"), (other_ids, "full" if full else "time ran out")):
        for start in range(0, len(ids), SWEEP_BATCH):
            batch = ids[start : start + SWEEP_BATCH]
            read = _BatchRead(batch)
            for pk in batch:
                with transaction.atomic():
                    if ids is law_ids:
                        # a new law may move the case's times: what it moved goes into the case's chain
                        # (locked first, as every act does)
                        _lock_case(pk)
                    # the case's row only: an act on it waits, acts on other cases do not
                    case = Case.objects.select_for_update().select_related("incident").get(pk=pk)
                    if case.status != Case.Status.OPEN:
                        continue  # closed by an act since the selection
                    old_fingerprint = case.law_fingerprint
                    changes = recompute_obligations(case, at=at, **read.for_case(case))
                    if changes and ids is law_ids:
                        _record_law_change(case, changes, old_fingerprint, at)
                    report.changes += len(changes)
                    report.recomputed += 1
            if progress is not None and len(ids) > SWEEP_BATCH:
                progress(f"{why}: recomputed {min(start + SWEEP_BATCH, len(ids))} of {len(ids)} cases")
    overdue = Obligation.objects.filter(
        status="overdue", case__status=Case.Status.OPEN, case__jurisdiction__in=installed
    ).order_by()
    if full:
        pending = set(overdue.values_list("case_id", flat=True))
    elif report.recomputed:
        pending = set(overdue.filter(sweep_at__lte=at).values_list("case_id", flat=True))
    else:
        pending = {case_id for case_id, status in come if status == "overdue"}
    for pk in sorted(pending):
        with transaction.atomic():
            _lock_case(pk)  # the case's audit chain: only for a case the sweep raises tasks in
            case = Case.objects.select_for_update().get(pk=pk)
            if case.status != Case.Status.OPEN or case.jurisdiction not in installed:
                continue
            rows = case.obligations.filter(status="overdue")
            # only the rows handled: a row an act made overdue after this sweep began (due after `at`)
            # keeps its mark for the next sweep
            handled = rows if full else rows.filter(sweep_at__lte=at)
            for ob in handled:
                report.tasks_raised += _raise_tasks(case, ob, at)
            handled.exclude(sweep_at=None).update(sweep_at=None)
    report.overdue = overdue.count()
    return report


def _record_law_change(case: Case, changes: list[dict], old_fingerprint: str, at: dt.datetime) -> None:
    """The times a change of the law in force moved, in the case's chain: why a due date moved, or a time
    ended, is on the record even though no one acted."""
    what = dict(case.obligations.values_list("deadline_id", "what"))

    def words(c: dict) -> str:
        text = what.get(c["deadline"], "a time of the case")
        if c["status"] == "withdrawn":
            return f"{text}: no longer required"
        was = f" (was {c['old_due']})" if c.get("old_due") and c.get("old_due") != c.get("new_due") else ""
        return f"{text}: due {c.get('new_due') or 'not yet known'}{was}"

    moved = "; ".join(words(c) for c in changes[:10])
    append_event(
        at=at,
        jurisdiction=case.jurisdiction,
        case=case,
        kind=Event.Kind.SYSTEM,
        act="recompute_deadlines",
        summary=f"The law in force changed; the case's times were recomputed — {moved}"[:500],
        data={"changes": changes, "law_before": old_fingerprint, "law_after": case.law_fingerprint},
    )


def _raise_tasks(case: Case, ob: Obligation, at: dt.datetime) -> int:
    """A task for the overdue obligation, and one for each act the law attaches to it; each raised once."""
    due = ob.due_at or ob.due_date
    citation = "; ".join(dict.fromkeys(c.get("citation", "") for c in ob.citations))
    who = "the owner" if ob.who == "owner" else "the city"
    base = f"{case.pk}:{ob.deadline_id}:{_iso(due)}"
    items = [(base, f"Overdue since {_iso(due)}: {who} had to {ob.what}", citation, ob.staff_roles)]
    for c in ob.consequences:
        cite = (c.get("provision") or {}).get("citation", "")
        key = f"{base}:{c.get('trigger') or cite}"
        items.append((key, c.get("what", ""), cite, _consequence_roles(case, c.get("act"), at)))
    raised = 0
    keys = [_task_key(item[0]) for item in items]
    present = set(Task.objects.filter(key__in=keys).values_list("key", flat=True))  # one query for them all
    for key, (_long_key, text, cite, roles) in zip(keys, items, strict=True):
        if key in present:
            continue
        present.add(key)  # two of the law's consequences may come to one task
        Task.objects.create(
            case=case,
            jurisdiction=case.jurisdiction,
            obligation=ob,
            key=key,
            text=text[:500],
            citation=cite[:500],
            staff_roles=roles,
            created_at=at,
        )
        append_event(
            at=at,
            jurisdiction=case.jurisdiction,
            case=case,
            kind=Event.Kind.SYSTEM,
            act="raise_task",
            summary=f"Task raised: {text}"[:500],
            citation=cite,
            data={"task": key, "obligation": ob.deadline_id, "due": _iso(due)},
        )
        raised += 1
    return raised


def _task_key(key: str) -> str:
    """The key as stored (200 characters at most): a longer one (a pack's long ids) ends in its own hash, so
    that two keys cut to the same first characters stay two tasks and the check before raising one holds."""
    if len(key) <= 200:
        return key
    return f"{key[:135]}#{hashlib.sha256(key.encode()).hexdigest()}"


def _consequence_roles(case: Case, act: str | None, at: dt.datetime) -> str:
    """ ",role,role," of the staff roles who can take the act the law attaches (e.g. seize), from the pack."""
    if not act:
        return ""
    j = jurisdiction_of(case)
    pack_roles: set[str] = set()
    for step in j.procedure(timezone.localtime(at).date()):
        if step.act == act:
            pack_roles.update(step.roles)
    staff = staff_roles_for_pack_roles(j.id, pack_roles)
    return "," + ",".join(sorted(staff)) + "," if staff else ""


def complete_task(task: Task, *, actor, at: dt.datetime | None = None) -> Task:
    at = at or now()
    require_city(actor, task.jurisdiction)
    if staff_roles(actor) <= {"auditor"}:
        raise Refused(
            "Complete a task",
            [{"reason": "The auditor role is read-only.", "citation": "", "code": "read_only"}],
        )
    roles = staff_roles(actor)
    if (
        task.staff_roles
        and "administrator" not in roles
        and not any(f",{r}," in task.staff_roles for r in roles)
    ):
        raise Refused(
            "Complete a task",
            [
                {
                    "reason": "This task is for another role.",
                    "citation": task.citation,
                    "code": "not_empowered",
                }
            ],
        )
    with transaction.atomic():
        _lock_case(task.case_id)
        task = Task.objects.select_for_update().get(pk=task.pk)
        if task.done_at is not None:
            return task
        task.done_at = at
        task.done_by = actor
        task.save(update_fields=["done_at", "done_by"])
        append_event(
            at=at,
            jurisdiction=task.jurisdiction,
            case=task.case,
            actor=actor,
            actor_roles=_roles_text(actor),
            kind=Event.Kind.RECORD,
            act="complete_task",
            summary=f"Task done: {task.text}"[:500],
            citation=task.citation,
            data={"task": task.key},
        )
    return task


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
