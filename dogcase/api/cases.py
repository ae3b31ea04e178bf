"""Cases over HTTP, for staff: read a case, its obligations and timeline; take a legal act.

Authenticated by the staff session (django-ninja's SessionAuth checks the CSRF token on every unsafe
request); every record is checked against the user's cities, every act against the law pack, on the server.
Errors keep the API's one shape, {"error": {"field", "rule"}}, with extra keys where they help:
`refusals` (each reason with its citation) for an act the law does not allow, `version` for a case that
changed since the client read it, and `missing` for a document the step issues that the case's records cannot
fill yet.

A step is taken as the staff pages take it (dogcase.documents.acts.take_step): the documents it issues are
filled from the case's records, checked, issued and recorded with it. What a notice contains is read from the
documents issued: a client that sends a step's `contents` is refused (400 naming the field).
"""

from __future__ import annotations

from typing import Annotated, Any

from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import HttpResponse, JsonResponse
from django.utils import timezone
from ninja import Field, Query, Router, Schema, Status
from ninja.security import SessionAuth
from pydantic import WithJsonSchema

from dogcase.api.errors import ErrorDetail, ErrorOut
from dogcase.api.vocabulary import schema_of
from dogcase.cases import acts
from dogcase.cases.access import READ_ONLY, cities_of, law_actor, staff_roles
from dogcase.cases.acts import declarations
from dogcase.cases.models import Case
from dogcase.documents import acts as document_acts
from dogcase.law import library
from dogcase.staff import keyset
from dogcase.staff.queries import CASE_ORDER

router = Router(tags=["cases"], auth=SessionAuth())

STAFF = "Staff only: log in first (session cookie); unsafe methods need the CSRF token (X-CSRFToken header)."


class ObligationOut(Schema):
    deadline: str
    who: str
    what: str
    status: str
    due: str | None
    late: bool
    citations: list[str]
    consequences: list[str]


class EventOut(Schema):
    seq: int
    at: str
    actor: str
    kind: str
    act: str
    summary: str
    citation: str
    layer: str


class StepOut(Schema):
    step: str
    label: str
    layer: str
    allowed: bool
    refusals: list[dict[str, Any]]


class CaseOut(Schema):
    number: str
    jurisdiction: str
    dog: str
    designation: str | None
    designation_in_effect: bool
    status: str
    stage: str
    version: int


class CaseDetailOut(CaseOut):
    obligations: list[ObligationOut]
    events: list[EventOut]
    steps: list[StepOut]


class ConflictDetail(ErrorDetail):
    refusals: list[dict[str, Any]] | None = Field(None, description="Each reason the law refuses the step.")
    version: int | None = Field(None, description="The case's current version, when it changed.")


class ConflictOut(Schema):
    error: ConflictDetail


class CasesQuery(Schema):
    status: Case.Status | None = Field(None, description="Only open or only closed cases.")
    q: str | None = Field(None, max_length=100, description="Part of a case number or of the dog's name.")
    after: str | None = Field(
        None,
        pattern=r"^[0-9]{1,19}$",
        description='Continue after this position: the `after` of the previous answer\'s `Link: <…>; rel="next"` '
        "header (the newest cases come first).",
    )
    limit: int = Field(100, ge=1, le=200, description="At most this many cases in one answer.")


CaseNumber = Annotated[str, Field(max_length=32, description="The case number, e.g. BL-2026-0001.")]
StepId = Annotated[str, WithJsonSchema(schema_of("step", {"type": "string"}, description="A step id."))]

# The statuses every case operation may answer, besides its own.
SESSION = {401: ErrorOut, 422: ErrorOut}


class StepIn(Schema):
    version: int = Field(..., description="Case.version as read; a different current version is a 409.")
    inputs: dict[str, Any] = Field(default_factory=dict, description="The step's inputs (see `steps`).")
    idempotency_key: str | None = Field(
        None, max_length=64, description="Send the same key again and the first result is returned."
    )
    departure_reason: str | None = Field(
        None,
        max_length=2000,
        description="Why the dog is declared a designation the facts recorded on the case do not support "
        "(required then: 422 naming `departure_reason` without it); recorded in the step's event.",
    )


class IssuedOut(Schema):
    number: str
    version: int
    title: str
    recipient: str


class StepResultOut(Schema):
    event: EventOut
    case: CaseOut
    replayed: bool
    documents: list[IssuedOut] = Field(default_factory=list, description="The documents the step issued.")


def _error(status: int, field: str, rule: str, **extra) -> Status:
    return Status(status, {"error": {"field": field, "rule": rule, **extra}})


def _case_out(case: Case) -> dict[str, Any]:
    return {
        "number": case.number,
        "jurisdiction": case.jurisdiction,
        "dog": case.dog.name,
        "designation": case.designation or None,
        "designation_in_effect": case.designation_in_effect,
        "status": case.status,
        "stage": case.stage,
        "version": case.version,
    }


def _event_out(e) -> dict[str, Any]:
    return {
        "seq": e.seq,
        "at": e.at.isoformat(),
        "actor": e.actor_name,
        "kind": e.kind,
        "act": e.act,
        "summary": e.summary,
        "citation": e.citation,
        "layer": e.layer,
    }


def _missing_out(missing) -> list[dict[str, str]]:
    """Each element of a document that has no value yet: the document, the element, its citation, what is
    missing and where to supply it."""
    return [
        {
            "document": m.document,
            "element": m.element_text or m.what,
            "citation": m.citation,
            "what": m.what,
            "where": m.where,
        }
        for m in missing
    ]


def _get_case(request, number: str) -> Case:
    case = (
        Case.objects.select_related("dog", "incident")
        .filter(number=number, jurisdiction__in=cities_of(request.user))
        .first()
    )
    if case is None:  # another city's case is as absent as a case that does not exist
        raise LookupError(number)
    return case


@router.get(
    "/cases",
    response={200: list[CaseOut], **SESSION},
    summary="The open and closed cases of your cities",
    description=STAFF,
)
def list_cases(request, response: HttpResponse, params: Query[CasesQuery]):
    cases = Case.objects.select_related("dog").filter(jurisdiction__in=cities_of(request.user))
    if params.status:
        cases = cases.filter(status=params.status)
    if params.q:
        cases = cases.filter(Q(number__icontains=params.q) | Q(dog__name__icontains=params.q))
    # a page at a time after a position (one index range scan, however deep): every case can be reached
    page = keyset.paginate(cases, CASE_ORDER, after=params.after or "", size=params.limit)
    if page.next_cursor:
        query = request.GET.copy()
        query["after"] = page.next_cursor
        response["Link"] = f'<{request.path}?{query.urlencode()}>; rel="next"'
    return [_case_out(c) for c in page.object_list]


@router.get(
    "/cases/{number}",
    response={200: CaseDetailOut, 404: ErrorOut, 503: ErrorOut, **SESSION},
    summary="A case: its obligations, timeline and the steps you may take",
    description=STAFF,
)
def get_case(request, number: CaseNumber):
    try:
        case = _get_case(request, number)
    except LookupError:
        return _error(404, "number", "no such case in your cities")
    j = library().jurisdictions.get(case.jurisdiction)
    if j is None:  # the case's pack was removed or renamed: its law cannot be read
        return _error(503, "jurisdiction", f"law pack {case.jurisdiction} is not installed")
    now = timezone.now()
    state = acts.case_state(case)
    steps = [
        {
            "step": v.step.id,
            "label": v.step.label,
            "layer": v.step.layer,
            "allowed": v.allowed,
            "refusals": [
                {"reason": r.reason, "citation": (r.provision or {}).get("citation", ""), "code": r.code}
                for r in v.refusals
            ],
        }
        for v in j.available_steps(state, law_actor(request.user, case.jurisdiction), now)
    ]
    obligations = [
        {
            "deadline": o.deadline_id,
            "who": o.who,
            "what": o.what,
            "status": o.status,
            "due": (o.due_at or o.due_date).isoformat() if (o.due_at or o.due_date) else None,
            "late": o.late,
            "citations": [c.get("citation", "") for c in o.citations],
            "consequences": [c.get("what", "") for c in o.consequences],
        }
        for o in case.obligations.exclude(kind="act")  # acts waiting are the steps of the case
    ]
    return {
        **_case_out(case),
        "obligations": obligations,
        "events": [_event_out(e) for e in case.events.order_by("seq")],
        "steps": steps,
    }


@router.post(
    "/cases/{number}/steps/{step_id}",
    response={
        201: StepResultOut,
        200: StepResultOut,
        400: ErrorOut,
        403: ErrorOut,
        404: ErrorOut,
        409: ConflictOut,
        503: ErrorOut,
        **SESSION,
    },
    summary="Take a legal act on the case",
    description=STAFF
    + " The documents the step issues are filled from the case's records, issued and listed in `documents`. "
    "400 naming `inputs.contents` when the request says what a notice contains (the documents issued say that), "
    "403 for a role that may not act (the read-only auditor) or without the CSRF token, 409 with "
    "`refusals` when the law does not allow the step (each reason with its citation), 409 with `version` when "
    "the case changed since you read it, 422 naming the input that is wrong, 422 with `missing` when a "
    "document the step issues cannot be filled from the case's records yet.",
)
def take_step(request, number: CaseNumber, step_id: StepId, payload: StepIn):
    try:
        case = _get_case(request, number)
    except LookupError:
        return _error(404, "number", "no such case in your cities")
    if not staff_roles(request.user) - READ_ONLY:
        # a role that reads cases (the auditor) takes no act: forbidden, whatever the law would say of the step
        return _error(403, "user", "your role may read cases but take no act")
    try:
        # one way to act: the staff pages' function, which fills, checks, issues and records the documents
        result = document_acts.take_step(
            case,
            step_id,
            actor=request.user,
            inputs=payload.inputs,
            expected_version=payload.version,
            idempotency_key=payload.idempotency_key,
            departure_reason=payload.departure_reason or "",
        )
    except acts.ContentsGiven as exc:
        return _error(400, f"inputs.{exc.field}", exc.rule)
    except document_acts.MissingElements as exc:
        # the API's error shape with `missing` beside it (a 422 of the schema's ErrorOut, one key more)
        return JsonResponse(
            {
                "error": {
                    "field": "documents",
                    "rule": f"a document this step issues cannot be filled yet: {exc}",
                    "missing": _missing_out(exc.missing),
                }
            },
            status=422,
        )
    except acts.InvalidInput as exc:
        if exc.field == declarations.FIELD:  # a declaration against the recorded facts, without its reason
            return _error(422, declarations.FIELD, exc.rule)
        return _error(422, f"inputs.{exc.field}", exc.rule)
    except acts.StaleCase as exc:
        return _error(409, "version", str(exc), version=exc.case.version)
    except acts.Refused as exc:
        return _error(409, "step", str(exc), refusals=exc.refusals)
    except PermissionDenied as exc:
        return _error(403, "user", str(exc) or "not allowed")
    return Status(
        200 if result.replayed else 201,
        {
            "event": _event_out(result.event),
            "case": _case_out(result.case),
            "replayed": result.replayed,
            "documents": [
                {
                    "number": d.number,
                    "version": d.version,
                    "title": d.title,
                    "recipient": d.recipient,
                }
                for d in result.documents
            ],
        },
    )
