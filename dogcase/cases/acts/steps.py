"""Taking a step of the case's procedure: by a member of staff (`take_step`) or filed by the owner from the
portal (`take_owner_step`); the step recorded with the events it starts, the dog's status it changes and the
obligations recomputed."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from dogcase.cases.access import (
    CASE_RECORDERS,
    law_actor,
    require_city,
    staff_roles,
    staff_roles_for_pack_roles,
)
from dogcase.cases.acts.core import (
    InvalidInput,
    Refused,
    StaleCase,
    lock_case,
    now,
    replayed,
    roles_text,
    store,
)
from dogcase.cases.acts.declarations import check_declaration
from dogcase.cases.acts.moves import check_destination, hand_over
from dogcase.cases.acts.obligations import recompute_obligations, task_key
from dogcase.cases.audit import append_event
from dogcase.cases.hearings import check_room, designatable_staff
from dogcase.cases.models import (
    Case,
    Dog,
    Event,
    Ownership,
    Person,
    StoredFile,
    Task,
    case_state,
    jurisdiction_of,
)
from dogcase.cases.outcomes import stage_text
from dogcase.law import CaseState, InputError

# Only accepted proof counts toward a condition of registration. The rule is the proofs app's
# (dogcase.proofs.counting.with_accepted_proofs), which sits above the cases: it hands it over when Django
# starts (ProofsConfig.ready), and a step is refused to be taken without it rather than read its inputs unproven.
ProofCounter = Callable[..., tuple[dict[str, Any], list[dict[str, Any]]]]
_proof_counter: list[ProofCounter] = []


def count_accepted_proofs_with(counter: ProofCounter) -> None:
    """Set the rule that completes a step's `proofs` inputs with the accepted proofs (called once, by the proofs
    app when Django starts)."""
    _proof_counter[:] = [counter]


# One way to act: the documents a step issues are filled, checked, issued and recorded by the documents' act
# (dogcase.documents.acts.take_step), and what a notice contains (a step's `document` input) is read from the
# documents it issued, never from a caller. The documents' act claims this key when it loads (only one module
# can: a second claim is refused) and passes it to `take_step`; without it, `take_step` refuses a step that
# issues documents and any `document` input.
_issuing_key: list[object] = []


def claim_issuing_key() -> object:
    """The key that lets the documents' act take a step that issues documents (called once, by
    dogcase.documents.acts when it loads)."""
    if _issuing_key:
        raise ImproperlyConfigured(
            "the documents' act already holds the key: a step that issues documents is taken through "
            "dogcase.documents.acts.take_step"
        )
    key = object()
    _issuing_key.append(key)
    return key


class ContentsGiven(InvalidInput):
    """A caller said what a notice contains (a step's `document` input): only the documents issued say that."""

    def __init__(self, field: str) -> None:
        super().__init__(
            field,
            "what a notice contains is read from the documents dogcase issues with the step; it cannot be "
            "sent: leave this field out",
        )


def document_inputs_given(step, inputs: Mapping[str, Any]) -> list[str]:
    """The ids of the step's `document` inputs (what its notices contain) present in `inputs`."""
    return [i.id for i in step.inputs if i.kind == "document" and i.id in inputs]


def _refuse_unissued(j, step_id: str, state: CaseState, inputs: Mapping[str, Any], at: dt.datetime) -> None:
    """A caller without the documents' key: refused a `document` input (ContentsGiven) and a step that issues
    documents for this case (Refused, code `issues_documents`)."""
    try:
        step = j.case_step(step_id, state, at)
    except InputError:
        return  # an unknown step or one that does not apply: the engine refuses it with its own words
    given = document_inputs_given(step, inputs)
    if given:
        raise ContentsGiven(given[0])
    try:
        types = j.document_types(step.id, state.designation, timezone.localtime(at).date())
    except (InputError, KeyError):
        types = []
    if types:
        titles = "; ".join(f"“{t.title}”" for t in types)
        raise Refused(
            step.label,
            [
                {
                    "reason": f"This step issues {titles}: it is taken only together with the issue of "
                    "those documents.",
                    "citation": "",
                    "code": "issues_documents",
                }
            ],
        )


# What an act costs the owner (dogcase.money.charging): the money app sets, when Django starts, the rule that
# refuses a step while the charges it waits for are owed (before the act) and the one that records the charges
# the act incurs (in the act's transaction, every act: staff's, the owner's filings, the documents' act).
_money_rules: list[tuple[Any, Any]] = []


def charge_acts_with(refuse_unpaid, charge_for_step) -> None:
    """Set the money rules (called once, by the money app when Django starts)."""
    _money_rules[:] = [(refuse_unpaid, charge_for_step)]


def with_accepted_proofs(j, case, step_id: str, state, inputs: Mapping[str, Any], at: dt.datetime):
    if not _proof_counter:
        raise ImproperlyConfigured(
            "dogcase.proofs is not installed: no rule counts the accepted proofs of a step"
        )
    return _proof_counter[0](j, case, step_id, state, inputs, at)


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
    issuing: object | None = None,
    departure_reason: str | None = None,
) -> StepResult:
    """Take one step of the case's procedure (declare, serve the notice, record a hearing request, decide,
    register, seize, ...): the law pack says who may take it, when and with what; this function asks the law
    engine, records the events the step starts, recomputes the obligations and writes the audit event, all in
    one transaction. Raises Refused (with reasons and citations), InvalidInput, StaleCase or PermissionDenied.

    A step that issues documents, and a step's `document` input (what its notices contain), are taken only
    with `issuing`, the key the documents' act holds (`claim_issuing_key`): every page, the API and the
    commands take steps through dogcase.documents.acts.take_step, which fills, checks and issues them.

    `departure_reason` (a string, maybe empty): a step that sets a designation the case's recorded facts do not
    support needs a reason, recorded in the event (dogcase.cases.acts.declarations); None leaves the rule out
    (the statewide data set and the procedure's own tests, through take_step_without_issuing).
    """
    at = at or now()
    require_city(actor, case.jurisdiction)
    if staff_roles(actor) <= {"auditor"}:
        raise Refused(
            "This act", [{"reason": "The auditor role is read-only.", "citation": "", "code": "read_only"}]
        )
    with transaction.atomic():
        lock_case(case.pk)
        replay = replayed(idempotency_key, actor=actor, act=step_id, case=case)
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
        if not (_issuing_key and issuing is _issuing_key[0]):
            _refuse_unissued(j, step_id, state, inputs, at)
        # only accepted proof counts toward a condition of registration (dogcase.proofs.counting)
        inputs, proofs_counted = with_accepted_proofs(j, locked, step_id, state, inputs, at)
        check_staff_members(j, step_id, state, inputs, at)
        check_destination(j, step_id, state, locked, inputs, at)
        for refuse_unpaid, _charge in _money_rules:
            refuse_unpaid(locked, step_id, at)
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
        refuse_booked_room(j, locked, step.id, cleaned, at)
        stored = {}
        for inp in step.inputs:
            if inp.kind == "file":
                upload = (uploads or {}).get(inp.id)
                if upload is None:
                    if inp.required:
                        raise InvalidInput(inp.id, "a file is required")
                    continue
                stored[inp.id] = store(upload, inp.id, locked.jurisdiction, actor, at)
        extra: dict[str, Any] = {"accepted_proofs": proofs_counted} if proofs_counted else {}
        extra.update(declaration_departure(locked, step, cleaned, departure_reason))
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
            actor_roles=roles_text(actor),
            idempotency_key=idempotency_key,
        )
    return StepResult(event, locked)


def refuse_booked_room(
    j, case: Case, step_id: str, cleaned: Mapping[str, Any], at: dt.datetime, *, after=None
) -> None:
    """One room, one hearing at a time (dogcase.cases.hearings.check_room): InvalidInput on the hearing's time
    when the step schedules a hearing in a room already booked then (`after`: only a hearing starting after it
    is checked)."""
    clash = check_room(j, case, step_id, cleaned, at, after=after)
    if clash is not None:
        raise InvalidInput(*clash)


def declaration_departure(case: Case, step, cleaned: Mapping[str, Any], reason: str | None) -> dict[str, Any]:
    """What the step's event records of a declaration the case's recorded facts do not support
    (dogcase.cases.acts.declarations): {"departure": ...} with the reason, or nothing; InvalidInput (field
    `departure_reason`) when no reason is given for one. `reason` None leaves the rule out."""
    if reason is None:
        return {}
    departure = check_declaration(case, step, cleaned, reason)
    return {"departure": departure} if departure is not None else {}


def take_recorded_step(
    case: Case,
    step_id: str,
    *,
    recorder,
    inputs: Mapping[str, Any],
    at: dt.datetime,
    taken_by: str,
    record: Mapping[str, Any],
    issuing: object | None = None,
    departure_reason: str | None = None,
) -> StepResult:
    """A step the city took before it used dogcase, recorded from its records (an open case brought in at the
    stage it had reached, dogcase.imports): the same engine checks as `take_step` — the law's order of the steps,
    their dates, what each form needs, the hearing officer's impartiality — at the date it was taken (`at`), so
    the clocks run as if dogcase had recorded it then. The office the pack empowers for the step took it (the law
    engine sees it as `taken_by`, an id of its own: the hearing officer's user id, or the office's); the event's
    actor is the `recorder` and its data says where the step came from (`record`: the import, the row, who
    attested the notices). A notice the step issued was issued outside dogcase: what it contained is the
    recorder's attestation, given through the documents' act (`issuing`), which alone fills the `document`
    inputs. A hearing still to come books its room as one scheduled in dogcase does (a room already booked
    then is refused); one already past holds none. `departure_reason` as for `take_step`: a declaration the
    case's recorded facts do not support needs a reason, recorded in the event. No charge waits: the city's
    own records say what was paid."""
    require_city(recorder, case.jurisdiction)
    if not staff_roles(recorder) & CASE_RECORDERS:
        raise Refused(
            "This act",
            [
                {
                    "reason": "Only the city clerk or the administrator may record steps taken before dogcase.",
                    "citation": "",
                    "code": "not_empowered",
                }
            ],
        )
    if at > timezone.now() + dt.timedelta(minutes=1):
        raise Refused(
            "This act",
            [
                {
                    "reason": "A step taken before dogcase cannot be dated later than now.",
                    "citation": "",
                    "code": "future",
                }
            ],
        )
    with transaction.atomic():
        lock_case(case.pk)
        locked = Case.objects.select_for_update().select_related("incident").get(pk=case.pk)
        j = jurisdiction_of(locked)
        if locked.status == Case.Status.CLOSED:
            raise Refused(
                "This step",
                [{"reason": f"Case {locked.number} is closed.", "citation": "", "code": "closed"}],
            )
        state = case_state(locked)
        if not (_issuing_key and issuing is _issuing_key[0]):
            _refuse_unissued(j, step_id, state, inputs, at)
        check_staff_members(j, step_id, state, inputs, at)
        try:
            cleaned = j.validate_inputs(step_id, state, dict(inputs), at)
        except InputError as exc:
            raise InvalidInput(exc.field.removeprefix("inputs."), exc.rule) from None
        step = j.case_step(step_id, state, at)
        office = law_actor_for_office(step, taken_by)
        verdict = j.check_step(step_id, state, office, at, cleaned)
        if not verdict.allowed:
            raise Refused(
                verdict.step.label,
                [
                    {"reason": r.reason, "citation": (r.provision or {}).get("citation", ""), "code": r.code}
                    for r in verdict.refusals
                ],
            )
        # a hearing still to come holds its room; one already past holds none
        refuse_booked_room(j, locked, verdict.step.id, cleaned, at, after=now())
        departure = declaration_departure(locked, verdict.step, cleaned, departure_reason)
        event = _record_step(
            locked,
            j,
            verdict.step,
            cleaned,
            state,
            at,
            extra={"recorded": {**record, "taken_by": taken_by}, **departure},
            actor=recorder,
            actor_roles=roles_text(recorder),
            summary_suffix=" — recorded from the city's records",
        )
    return StepResult(event, locked)


def law_actor_for_office(step, actor_id: str):
    """The office the pack empowers for `step` (its roles), as the law engine sees a step taken before dogcase:
    under `actor_id`, the same id for the same person across the case (the impartiality rule compares them)."""
    from dogcase.law.procedure import Actor

    return Actor(id=actor_id, roles=frozenset().union(step.roles, *step.roles_by_designation.values()))


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
        lock_case(case.pk)
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
        contents = document_inputs_given(step, inputs)
        if contents:  # what a notice contains is never the filer's to say
            raise ContentsGiven(contents[0])
        given = {
            k: v
            for k, v in dict(inputs).items()
            if not any(i.id == k and i.kind == "file" for i in step.inputs)
        }
        for inp in step.inputs:
            if inp.filing_date:
                given[inp.id] = day.isoformat()
        check_destination(j, step_id, state, locked, given, at)
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
        key=task_key(f"owner-filing:{event.pk}:documents"),
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
    # where the case stands once the act is recorded: what it did ("The City Council confirmed the designation")
    stage = stage_text(j, step, cleaned, case=locked, at=at)
    data = {
        "step": step.id,
        "act": step.act,
        "label": step.label,
        "stage": stage,
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
    locked.stage = stage
    locked.updated_at = at
    locked.save()
    _apply_dog_status(locked, recorded)
    recompute_obligations(locked, at=at, actor=actor)
    # a dog that moved to a city served here takes its case with it (acts/moves.py)
    hand_over(locked, step, cleaned, event, at, actor)
    for _refuse, charge_for_step in _money_rules:
        charge_for_step(locked, step.id, dict(cleaned), event=event, actor=actor, at=at)
    return event


def check_staff_members(
    j, step_id: str, state: CaseState, inputs: Mapping[str, Any], at: dt.datetime
) -> None:
    """A person designated in a step's form (the hearing officer) is one of the users the law empowers for the
    act they are to take, with access to the city; the law engine then holds them to impartiality."""
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
DOG_STATUS_BY_EVENT = (
    ("death", Dog.Status.DEAD),
    ("destruction", Dog.Status.DEAD),
    ("move", Dog.Status.MOVED),
    ("transfer", Dog.Status.TRANSFERRED),
)


def _apply_dog_status(case: Case, recorded: Mapping[str, Any]) -> None:
    for event_name, status in DOG_STATUS_BY_EVENT:
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
