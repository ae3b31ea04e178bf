"""The law engine over HTTP: public, read-only computations over public law.

No login and no CSRF token: these routes read no session, touch no personal data and write nothing, so a
forged cross-site request can learn or change nothing (ninja checks CSRF only for cookie-authenticated routes,
and these have no authentication at all).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any

from django.http import HttpResponse
from ninja import Field, Query, Router, Schema
from pydantic import BaseModel, BeforeValidator, ConfigDict, WithJsonSchema

from dogcase import law
from dogcase.api.errors import ERRORS
from dogcase.api.vocabulary import DATE_SCHEMA, schema_of

PUBLIC = (
    "Public: no login needed. A read-only computation over public law — no personal data is stored and "
    "nothing is written."
)

router = Router(tags=["law"])


def _iso_date(value: Any) -> dt.date:
    # Only the written form YYYY-MM-DD: pydantic would otherwise take a number as a Unix timestamp, and
    # date.fromisoformat also reads 20260302 and 2026-W10-1.
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return value
    if not isinstance(value, str) or not _WRITTEN_DATE.fullmatch(value):
        raise ValueError("must be a date written YYYY-MM-DD")
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise ValueError(f"{value!r} is not a real date (YYYY-MM-DD)") from None


_WRITTEN_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
IsoDate = Annotated[dt.date, BeforeValidator(_iso_date), WithJsonSchema(DATE_SCHEMA)]
JurisdictionId = Annotated[
    str, WithJsonSchema(schema_of("jurisdiction", {"type": "string"}, description="A jurisdiction's id."))
]


class OnQuery(Schema):
    on: IsoDate | None = Field(
        None, description="Read the law as in force on this date (default: today in the jurisdiction)."
    )


class JurisdictionOut(Schema):
    id: str
    name: str
    kind: str
    layer_over: str | None
    timezone: str


class FactValueOut(Schema):
    value: str
    label: str = Field(..., description="The value in plain English.")
    added_by: str | None = Field(
        None,
        description="The pack that added this value to a shared fact (`fact_values:`); null: facts.yaml.",
    )


class FactOut(Schema):
    id: str
    type: str
    values: list[str] = Field(
        ..., description="The allowed values, least to most serious where that matters."
    )
    question: str
    labels: list[FactValueOut] = Field(default_factory=list, description="Each value with its words.")
    declared_by: str | None = Field(
        None, description="The pack that declares the fact (`facts:`); null: the shared facts.yaml."
    )
    from_record: bool = Field(
        False, description="Computed from the dog's own record in dogcase, never asked at intake."
    )


class FactsQuery(Schema):
    jurisdiction: JurisdictionId | None = Field(
        None,
        max_length=64,
        description="A jurisdiction's id: its facts (the shared ones, the state's and the city's own, with the "
        "values its packs add). Without it, the shared vocabulary.",
    )


class ClassifyIn(BaseModel):
    # A plain pydantic model, not ninja's Schema: a request body needs none of Schema's reading of Django
    # objects, whose validator would run on every classify request.
    model_config = ConfigDict(extra="forbid")  # a misspelled field is an error, never silently ignored

    incident_date: IsoDate = Field(
        ..., description="The incident date: the law in force that day is applied."
    )
    facts: Annotated[dict[str, Any], WithJsonSchema(schema_of("facts", {"type": "object"}))] = Field(
        default_factory=dict, description="Fact name -> value (see GET /facts); a fact left out is unknown."
    )


class DeadlineIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    deadline: Annotated[str, WithJsonSchema(schema_of("deadline", {"type": "string"}))] = Field(
        ..., description="The deadline id, e.g. owner.request_hearing (see the law's `deadlines`)."
    )
    events: Annotated[dict[str, Any], WithJsonSchema(schema_of("events", {"type": "object"}))] = Field(
        default_factory=dict,
        description='Event -> date (YYYY-MM-DD) or instant with offset, e.g. {"notice_date": "2026-03-02"}.',
    )
    on: IsoDate | None = Field(
        None, description="Read the law as in force on this date (default: the trigger's date)."
    )
    settings: dict[str, Any] = Field(default_factory=dict, description="City settings the text leaves open.")
    designation: Annotated[str, WithJsonSchema(schema_of("designation", {"type": "string"}))] | None = Field(
        None,
        description="A designation id (see the law's `designations`): combine only the provisions that concern "
        "a case with this designation. Without it, where the provisions that set the deadline differ by "
        'designation, no single date is given: `status` is "by_designation", `due` is null, and '
        "`by_designation` holds one answer per designation (its own `due`, `set_by`, `what` and `entries`), "
        "`not_set_for` the designations no provision reaches; where the same provisions reach every "
        "designation, they are combined into one answer.",
    )


@router.get("/jurisdictions", response={200: list[JurisdictionOut], **ERRORS}, description=PUBLIC)
def list_jurisdictions(request):
    return [j.describe() for j in law.library().jurisdictions.values()]


@router.get(
    "/facts",
    response={200: list[FactOut], **ERRORS},
    description="The fact vocabulary: the shared one, or a jurisdiction's (`?jurisdiction=`). " + PUBLIC,
)
def list_facts(request, params: Query[FactsQuery]):
    lib = law.library()
    if params.jurisdiction is None:
        return _facts_out(lib.facts)
    try:
        j = lib.get(params.jurisdiction)
    except law.UnknownJurisdiction as exc:
        exc.field = "query.jurisdiction"
        raise
    return _facts_out(j.facts)


@router.get(
    "/jurisdictions/{id}/facts",
    response={200: list[FactOut], **ERRORS},
    description="The facts of a jurisdiction: the shared ones, the state's and the city's own, with the values "
    "its packs add, each with its words. " + PUBLIC,
)
def jurisdiction_facts(request, id: JurisdictionId):
    return _facts_out(law.library().get(id).facts)


def _facts_out(vocabulary) -> list[dict[str, Any]]:
    return [
        {
            "id": f.id,
            "type": f.type,
            "values": list(f.ordered_values),
            "question": f.question,
            "labels": [
                {"value": v, "label": f.label_of(v), "added_by": f.added_values.get(v)}
                for v in f.ordered_values
            ],
            "declared_by": f.pack,
            "from_record": f.from_record,
        }
        for f in vocabulary.facts.values()
    ]


@router.get(
    "/jurisdictions/{id}/law",
    response={200: dict[str, Any], **ERRORS},
    description="Every provision in force on `on`, by layer, with designations, defects, settings, holidays. "
    + PUBLIC,
)
def show_law(request, id: JurisdictionId, params: Query[OnQuery]):
    j = law.library().get(id)
    return j.show(params.on or j.today())


@router.get(
    "/jurisdictions/{id}/conflicts",
    response={200: dict[str, Any], **ERRORS},
    description="Where the city departs from state law on `on`, both citations, and what dogcase applies. "
    + PUBLIC,
)
def show_conflicts(request, id: JurisdictionId, params: Query[OnQuery]):
    lib = law.library()
    j = lib.get(id)
    return law.conflicts(id, params.on or j.today(), lib=lib)


@router.post(
    "/jurisdictions/{id}/classify",
    response={200: dict[str, Any], **ERRORS},
    description="What the incident facts make the dog, under the law in force on the incident date, and why. "
    + PUBLIC,
)
def classify(request, id: JurisdictionId, payload: ClassifyIn):
    with _body_fields():
        # The answer's JSON text as the engine encoded it (its parts cached per law in force): the same content
        # as law.classify(), without validating and encoding ~10 KB of static law text for every request.
        return HttpResponse(
            law.classify_json(id, payload.facts, payload.incident_date), content_type="application/json"
        )


@router.post(
    "/jurisdictions/{id}/deadline",
    response={200: dict[str, Any], **ERRORS},
    description="By when an act is due (or allowed), from the events, with every provision that sets it; "
    "for one designation (`designation`), or each designation on its own where their provisions differ. "
    + PUBLIC,
)
def deadline(request, id: JurisdictionId, payload: DeadlineIn):
    law.library().get(id)  # an unknown jurisdiction is a 404 before any body field is judged
    with _body_fields():
        events = law.parse_events(payload.events, "events")
        return law.deadline(
            id,
            payload.deadline,
            events,
            on=payload.on,
            settings=payload.settings or None,
            designation=payload.designation,
        )


@contextmanager
def _body_fields() -> Iterator[None]:
    """Engine errors name body fields ("facts.bit"); the API says where they are ("body.facts.bit")."""
    try:
        yield
    except law.InputError as exc:
        if not isinstance(exc, law.UnknownJurisdiction) and (
            exc.field in ("date", "on", "incident_date")
            or exc.field.split(".")[0] in ("facts", "events", "settings", "deadline", "designation")
        ):
            exc.field = "body." + ("incident_date" if exc.field == "date" else exc.field)
        raise
