"""Issuing documents: the step that issues them and the documents, in one transaction; corrections.

`take_step` is the one way every page, the API, the portal's staff side and the commands take a step: for a
step whose law names documents (a step's `documents:`) it fills each document the step issues for the case from the case's records and the step's inputs, refuses — writing
nothing — when an element has no value (naming the element, its citation and where to supply it), gives the
engine the elements the documents contain (its `document` input: the check the old tick boxes made), takes the
step, then numbers, renders and stores each document, with one audit event per document in the case's chain.
What a notice contains is never the caller's to say: a `document` input given is refused (`ContentsGiven`),
and `cases.acts.take_step` refuses a step that issues documents unless this module, which holds the key, takes
it. `take_step_without_issuing` is the statewide data set's and the procedure tests' way round the documents
(nothing a person or a client uses calls it; tests/api/test_one_way_to_act.py holds the product to that).

`correct_document` issues the next version of a document, filled again from the records as they are now, with
an actor and a reason; the version it replaces, and its bytes, stay as they were.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone

from dogcase.cases import acts as case_acts
from dogcase.cases.access import law_actor, require_city, staff_roles
from dogcase.cases.acts.moves import check_destination
from dogcase.cases.audit import append_event
from dogcase.cases.files import write_blob
from dogcase.cases.models import Case, Event
from dogcase.documents import fill, render, serving
from dogcase.documents.models import IssuedDocument
from dogcase.law import InputError
from dogcase.money.charging import refuse_unpaid

# Verification codes: 10 characters of base32 (RFC 4648 alphabet: no 0, 1, 8, 9), 50 random bits; not derived
# from the case or a person, and the public page refuses a client that tries many codes that do not exist.
CODE_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
CODE_LENGTH = 10

# The key that lets this module take a step that issues documents (dogcase.cases.acts.steps, "One way to act").
_ISSUING = case_acts.claim_issuing_key()


class MissingElements(case_acts.ActError):
    """A document of the step has an element (or a statement) without a value: nothing was written."""

    def __init__(self, missing: list[fill.Missing]) -> None:
        self.missing = missing
        super().__init__("; ".join(m.sentence() for m in missing))


@dataclass(frozen=True)
class IssueResult:
    step: case_acts.StepResult
    documents: list[IssuedDocument] = field(default_factory=list)

    @property
    def event(self) -> Event:
        return self.step.event

    @property
    def case(self) -> Case:
        return self.step.case

    @property
    def replayed(self) -> bool:
        return self.step.replayed


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def _unused_code() -> str:
    while True:
        code = new_code()
        if not IssuedDocument.objects.filter(verification_code=code).exists():
            return code


def _next_number(case: Case) -> str:
    """`<case number>-D<n>`: n counts the case's documents (a correction keeps its document's number)."""
    count = IssuedDocument.objects.filter(case=case).values("number").distinct().count()
    return f"{case.number}-D{count + 1}"


def document_inputs(j, step, state, at: dt.datetime, drafts: list[fill.Draft]) -> dict[str, Any]:
    """The step's `document` inputs (its `contents`), given the elements the documents contain: of the elements
    the documents state, those the step's notices list (DOCSPEC.md, the engine bridge). Elements of a
    document's own (a form's, a certificate's) are not notice elements and are not passed."""
    contained: list[str] = []
    for d in drafts:
        for value in d.elements:
            if value not in contained:
                contained.append(value)
    choices = j.input_choices(step.id, state, at)
    out = {}
    for inp in step.inputs:
        if inp.kind != "document":
            continue
        offered = {c["value"] for c in choices.get(inp.id, ())}
        out[inp.id] = [e for e in contained if e in offered]
    return out


def drafts_for_step(case: Case, step_id: str, *, inputs: Mapping[str, Any], at: dt.datetime, actor):
    """(step, cleaned inputs, drafts) for the step taken now with these inputs; InvalidInput on bad inputs."""
    j = case_acts.jurisdiction_of(case)
    state = case_acts.case_state(case)
    try:
        step = j.case_step(step_id, state, at)
        given = {k: v for k, v in inputs.items() if not _is_document_input(step, k)}
        cleaned = validate_partly(j, step, state, given, at)
    except InputError as exc:
        raise case_acts.InvalidInput(exc.field.removeprefix("inputs."), exc.rule) from None
    for inp in step.inputs:
        if inp.required and inp.kind not in ("document", "file") and inp.id not in cleaned:
            raise case_acts.InvalidInput(inp.id, f"required: {inp.label}")
    if _posted(step, cleaned):  # the preview says what the posted notice prints instead of the code
        from dogcase.owners.notice import codes_for_issue

        with codes_for_issue(case, None, actor=actor, at=at, posted=True):
            drafts = fill.draft_documents(case, j, step, state=state, inputs=cleaned, at=at, actor=actor)
    else:
        drafts = fill.draft_documents(case, j, step, state=state, inputs=cleaned, at=at, actor=actor)
    return step, cleaned, drafts


def validate_partly(j, step, state, inputs: Mapping[str, Any], at: dt.datetime) -> dict[str, Any]:
    """The inputs given, cleaned as the engine cleans them, without requiring the ones not given (the
    documents' `contents` is given by this module; the act itself checks the whole form again)."""
    return j.validate_inputs_given(step, state, inputs, at)


def _is_document_input(step, input_id: str) -> bool:
    return any(i.id == input_id and i.kind == "document" for i in step.inputs)


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
    departure_reason: str = "",
) -> IssueResult:
    """Take a step and issue the documents it issues, in one transaction (see the module's docstring).
    `departure_reason`: why a designation the recorded facts do not support is declared (required then:
    dogcase.cases.acts.declarations)."""
    at = at or case_acts.now()
    require_city(actor, case.jurisdiction)
    _refuse_contents(case, step_id, inputs, at)
    with transaction.atomic():
        case_acts.lock_case(case.pk)
        if idempotency_key:
            replay = Event.objects.filter(idempotency_key=idempotency_key).first()
            if replay is not None:
                result = case_acts.take_step(
                    case,
                    step_id,
                    actor=actor,
                    inputs=inputs,
                    expected_version=expected_version,
                    uploads=uploads,
                    idempotency_key=idempotency_key,
                    at=at,
                )
                return IssueResult(result, list(IssuedDocument.objects.filter(step_event=result.event)))
        locked = Case.objects.select_related("dog", "dog__premises", "incident").get(pk=case.pk)
        if locked.version != expected_version:
            raise case_acts.StaleCase(locked, expected_version)
        # only accepted proof counts (dogcase.proofs.counting): the documents are drafted from the same list
        from dogcase.proofs.counting import with_accepted_proofs

        inputs, _counted = with_accepted_proofs(
            case_acts.jurisdiction_of(locked), locked, step_id, case_acts.case_state(locked), inputs, at
        )
        # where a dog moved is named before the letter to that place is drafted (cases/acts/moves.py)
        check_destination(
            case_acts.jurisdiction_of(locked), step_id, case_acts.case_state(locked), locked, inputs, at
        )
        # a step the owner may take only by paying (the release of a seized dog) waits for the payment: said
        # before the documents are drafted (the act says it again: dogcase.money.charging)
        refuse_unpaid(locked, step_id, at)
        if _refused_anyway(locked, step_id, actor, at):
            # not allowed whatever the documents say (the role, the order of the steps, the time): the act
            # refuses with its own reasons and citations; if the form's inputs make it allowed after all,
            # nothing is kept of that try and the step goes on to its documents
            try:
                with transaction.atomic():
                    case_acts.take_step(
                        locked,
                        step_id,
                        actor=actor,
                        inputs=inputs,
                        expected_version=expected_version,
                        uploads=uploads,
                        at=at,
                        issuing=_ISSUING,
                    )
                    raise _AllowedAfterAll
            except _AllowedAfterAll:
                pass
        # the person designated in the form (the hearing officer) is one the law empowers, checked as the act
        # checks it, before the documents are drafted with them
        case_acts.check_staff_members(
            case_acts.jurisdiction_of(locked), step_id, case_acts.case_state(locked), inputs, at
        )
        with _portal_codes(locked, step_id, actor=actor, at=at, inputs=inputs):
            step, _cleaned, drafts = drafts_for_step(locked, step_id, inputs=inputs, at=at, actor=actor)
        missing = [m for d in drafts for m in d.missing]
        if missing:
            raise MissingElements(missing)
        given = dict(inputs)
        if drafts:
            # the documents' contents are what the engine checks, never what the caller says they are
            given = {k: v for k, v in inputs.items() if not _is_document_input(step, k)}
            j = case_acts.jurisdiction_of(locked)
            given.update(document_inputs(j, step, case_acts.case_state(locked), at, drafts))
        result = case_acts.take_step(
            locked,
            step_id,
            actor=actor,
            inputs=given,
            expected_version=expected_version,
            uploads=uploads,
            idempotency_key=idempotency_key,
            at=at,
            issuing=_ISSUING,
            departure_reason=departure_reason,
        )
        issued = [
            _issue(result.case, d, actor=actor, at=at, step_id=step_id, step_event=result.event)
            for d in drafts
        ]
        for document in issued:  # attempt 1 of its service: the service the step recorded
            serving.record_issuing_service(document, actor=actor, at=at)
    return IssueResult(result, issued)


def _refuse_contents(case: Case, step_id: str, inputs: Mapping[str, Any], at: dt.datetime) -> None:
    """ContentsGiven when the caller says what a notice of the step contains (its `document` input)."""
    try:
        step = case_acts.jurisdiction_of(case).step(step_id, timezone.localtime(at).date())
    except InputError:
        return  # an unknown step: the act refuses it with the law's words
    given = case_acts.document_inputs_given(step, inputs)
    if given:
        raise case_acts.ContentsGiven(given[0])


def take_step_without_issuing(
    case: Case,
    step_id: str,
    *,
    actor,
    inputs: Mapping[str, Any],
    expected_version: int,
    uploads: Mapping[str, Any] | None = None,
    idempotency_key: str | None = None,
    at: dt.datetime | None = None,
) -> case_acts.StepResult:
    """The step recorded without filling or issuing the documents it issues, what its notices contain taken
    from `inputs` as given. Only for the statewide data set (dogcase.demo, whose notices contain what the law
    requires) and the tests of the procedure alone: no page, API operation, portal or command calls it."""
    return case_acts.take_step(
        case,
        step_id,
        actor=actor,
        inputs=inputs,
        expected_version=expected_version,
        uploads=uploads,
        idempotency_key=idempotency_key,
        at=at,
        issuing=_ISSUING,
    )


def complete_notice_inputs(
    case: Case, step_id: str, at: dt.datetime, inputs: Mapping[str, Any]
) -> dict[str, Any]:
    """The inputs, with every notice-contents list of the step (its `document` inputs) holding every element
    the law requires of it, unless the inputs already answer it: what a notice issued outside dogcase
    contained, as its issuer attests (the statewide data set's notices, and a case brought in)."""
    j = case_acts.jurisdiction_of(case)
    state = case_acts.case_state(case)
    step = j.case_step(step_id, state, at)  # the form this case runs (a dog not declared: the state's 347.56)
    lists = [i.id for i in step.inputs if i.kind == "document" and i.id not in inputs]
    if not lists:
        return dict(inputs)
    choices = j.input_choices(step_id, state, at)
    return {**inputs, **{name: [c["value"] for c in choices.get(name, [])] for name in lists}}


def record_step_taken_before(
    case: Case,
    step_id: str,
    *,
    recorder,
    inputs: Mapping[str, Any],
    at: dt.datetime,
    taken_by: str,
    record: Mapping[str, Any],
    departure_reason: str = "",
) -> case_acts.StepResult:
    """A step the city took before it used dogcase, recorded from its records (dogcase.imports: an open case
    brought in at its stage). Its notices were issued outside dogcase: none is filled or rendered here, and what
    they contained is what the law requires, as `record["attested_by"]` attested when the file was brought in
    (the event keeps the attestation). The cases' act checks the step as the law would have then.
    `departure_reason`: why a designation the recorded facts do not support was declared (required then, as
    for a step taken in dogcase: dogcase.cases.acts.declarations)."""
    if not record.get("attested_by"):
        raise case_acts.InvalidInput(
            "attest", "say that the notices were served as the rows say and contained what the law requires"
        )
    try:
        given = complete_notice_inputs(case, step_id, at, inputs)
    except InputError as exc:
        raise case_acts.InvalidInput("step", str(exc)) from None
    return case_acts.take_recorded_step(
        case,
        step_id,
        recorder=recorder,
        inputs=given,
        at=at,
        taken_by=taken_by,
        record=record,
        issuing=_ISSUING,
        departure_reason=departure_reason,
    )


def _prints_portal_code(doc_type) -> bool:
    """An owner-facing document: it prints the owner's portal code (in its own wording's {portal.code}, or in
    the block "Your case online" that fill adds to every other owner-facing document)."""
    return getattr(doc_type, "audience", "") == "owner"


def _posted(step, inputs: Mapping[str, Any]) -> bool:
    """Is the document served by posting it (where anyone may read it)? Then it prints no access code."""
    if step is None:
        return False
    return any(
        i.kind == "service_method" and serving.method_kind(str(inputs.get(i.id) or "")) == "posting"
        for i in step.inputs
    )


def _portal_code_of(case: Case, doc_type, *, actor, at: dt.datetime, posted: bool = False):
    """While `doc_type` (one that prints the owner's portal code, else None: nothing) is filled for issue: the
    recipient's code is issued (or re-issued) now, inside the act's transaction, and printed only in the PDF
    (dogcase.owners.notice); a notice that is `posted` prints none and issues none."""
    import contextlib

    from dogcase.owners.notice import codes_for_issue

    if doc_type is None:
        return contextlib.nullcontext()
    if posted:
        return codes_for_issue(case, None, actor=actor, at=at, posted=True)
    day = at.astimezone(case_acts.jurisdiction_of(case).tz).date()
    owners = [
        o.person
        for o in case.dog.ownerships.select_related("person").order_by("since", "id")
        if o.until is None or o.until >= day
    ]
    return codes_for_issue(case, owners[0] if owners else None, actor=actor, at=at)


def _portal_codes(case: Case, step_id: str, *, actor, at: dt.datetime, inputs: Mapping[str, Any]):
    """The documents the step issues, for issue: the owner's portal code, when one of them prints it."""
    j = case_acts.jurisdiction_of(case)
    day = at.astimezone(j.tz).date()
    state = case_acts.case_state(case)
    try:
        types = j.document_types(step_id, state.designation, day)
    except (InputError, KeyError):
        types = []
    printing = next((t for t in types if _prints_portal_code(t)), None)
    try:
        posted = _posted(j.case_step(step_id, state, at), inputs)
    except (InputError, KeyError):
        posted = False
    return _portal_code_of(case, printing, actor=actor, at=at, posted=posted)


class _AllowedAfterAll(Exception):
    """The step, refused without the form's inputs, is allowed with them (the try is rolled back)."""


def _refused_anyway(case: Case, step_id: str, actor, at: dt.datetime) -> bool:
    if staff_roles(actor) <= {"auditor"}:
        return True
    j = case_acts.jurisdiction_of(case)
    try:
        verdict = j.check_step(step_id, case_acts.case_state(case), law_actor(actor, case.jurisdiction), at)
    except InputError:
        return True
    return not verdict.allowed


def _issue(
    case: Case,
    draft: fill.Draft,
    *,
    actor,
    at: dt.datetime,
    step_id: str,
    step_event: Event | None,
    replaces: IssuedDocument | None = None,
    reason: str = "",
) -> IssuedDocument:
    """Number, render, store and record one document (inside the act's transaction, the case locked)."""
    number = replaces.number if replaces else _next_number(case)
    version = replaces.version + 1 if replaces else 1
    code = _unused_code()
    replaced = None
    if replaces is not None:
        replaced = {
            "number": replaces.number,
            "version": replaces.version,
            "issued_on": fill.date_words(replaces.issued_at),
        }
    pdf = render.render_pdf(
        draft, number=number, version=version, code=code, issued_at=at, replaces=replaced, reason=reason
    )
    digest, blob = write_blob(pdf, ".pdf")
    elements = {**draft.elements}
    summary = f"Issued: {draft.title}, No. {number}" + (f", version {version}" if version > 1 else "")
    event = append_event(
        at=at,
        jurisdiction=case.jurisdiction,
        case=case,
        actor=actor,
        actor_roles=",".join(sorted(staff_roles(actor))),
        kind=Event.Kind.RECORD,
        act="correct_document" if replaces else "issue_document",
        summary=summary[:500],
        citation="; ".join(draft.provisions)[:500],
        data={
            "doc_type": draft.id,
            "title": draft.title,
            "number": number,
            "version": version,
            "sha256": digest,
            "size": len(pdf),
            "verification_code": code,
            "step": step_id,
            "step_event": step_event.seq if step_event else None,
            "replaces": {"number": replaces.number, "version": replaces.version, "sha256": replaces.sha256}
            if replaces
            else None,
            "reason": reason,
            "elements": sorted(elements),
        },
    )
    return IssuedDocument.objects.create(
        case=case,
        jurisdiction=case.jurisdiction,
        doc_type=draft.id,
        title=draft.title[:300],
        number=number,
        version=version,
        replaces=replaces,
        language=draft.language,
        recipient=draft.recipient,
        audience=draft.audience,
        step=step_id,
        issued_at=at,
        issued_by=actor,
        step_event=step_event,
        event=event,
        sha256=digest,
        blob=blob,
        size=len(pdf),
        verification_code=code,
        elements=elements,
        reason=reason,
    )


def issue_record_document(case: Case, draft: fill.Draft, *, actor, at: dt.datetime) -> IssuedDocument:
    """Number, render, store and record a document no step of the law issues (a receipt, a statement of
    charges), inside the caller's transaction with the case locked: numbered in the case's series, verified
    like every notice."""
    return _issue(case, draft, actor=actor, at=at, step_id="", step_event=None)


def correct_document(
    document: IssuedDocument,
    *,
    actor,
    reason: str,
    at: dt.datetime | None = None,
) -> IssuedDocument:
    """Issue the next version of `document`, filled again from the case's records as they are now (the step's
    own inputs as they were recorded), with the reason. Only the latest version can be corrected. The version
    it replaces is not touched: its row and its bytes stay as they were."""
    at = at or case_acts.now()
    require_city(actor, document.jurisdiction)
    if staff_roles(actor) <= {"auditor"}:
        raise case_acts.Refused(
            "Correct a document",
            [{"reason": "The auditor role is read-only.", "citation": "", "code": "read_only"}],
        )
    if not document.correctable:
        raise case_acts.InvalidInput(
            "document",
            "a receipt or a statement of charges is not corrected: record a refund or cancel the charge, and "
            "issue a new statement",
        )
    reason = (reason or "").strip()
    if not reason:
        raise case_acts.InvalidInput("reason", "say why the document is corrected")
    if len(reason) > 2000:
        raise case_acts.InvalidInput("reason", "at most 2,000 characters")
    with transaction.atomic():
        case_acts.lock_case(document.case_id)
        if IssuedDocument.objects.filter(replaces=document).exists():
            raise case_acts.InvalidInput(
                "document", "this version was already corrected; correct the latest version"
            )
        case = Case.objects.select_related("dog", "dog__premises", "incident").get(pk=document.case_id)
        j = case_acts.jurisdiction_of(case)
        state = case_acts.case_state(case)
        step_event = document.step_event
        # the step's own inputs as recorded, with any correction of them (cases.acts.correct_event_input)
        inputs = dict(
            next(
                (
                    t.inputs
                    for t in state.taken
                    if step_event and (t.step, t.at) == (step_event.act, step_event.at)
                ),
                None,
            )
            or {}
        )
        if step_event is not None:
            # the state as the step found it: the step's own record is the one the document is filled from
            state = _state_before(state, step_event)
        day = timezone.localtime(at).date()
        doc_type = j.document_type(document.doc_type, day)
        step = (
            j.case_step(document.step, state, step_event.at if step_event else at) if document.step else None
        )
        if step is not None:
            try:
                inputs = validate_partly(j, step, state, inputs, step_event.at if step_event else at)
            except InputError as exc:
                raise case_acts.InvalidInput(exc.field.removeprefix("inputs."), exc.rule) from None
        sources = fill.Sources(
            case,
            j,
            state=state,
            step=step,
            inputs=inputs,
            at=step_event.at if step_event else at,
            actor=actor,
        )
        sources.day = day  # "today" is the day of the corrected version
        attached = [
            fill.fill_document(a, sources, owner_box=False, attached=True)
            for a in fill.attachments_of(j, doc_type, day)
        ]
        with _portal_code_of(
            case,
            doc_type if _prints_portal_code(doc_type) else None,
            actor=actor,
            at=at,
            posted=_posted(step, inputs),
        ):
            draft = fill.fill_document(doc_type, sources, attachments=attached)
        if draft.missing:
            raise MissingElements(draft.missing)
        return _issue(
            case,
            draft,
            actor=actor,
            at=at,
            step_id=document.step,
            step_event=step_event,
            replaces=document,
            reason=reason,
        )


def _state_before(state, step_event: Event):
    """The case state without the step `step_event` recorded and anything after it."""
    taken = tuple(t for t in state.taken if t.at < step_event.at)
    return dataclasses.replace(state, taken=taken)
