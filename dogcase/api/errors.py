"""One error shape for the whole API: {"error": {"field": ..., "rule": ...}}, registered on the NinjaAPI."""

from __future__ import annotations

import json
import logging

from django.http import HttpRequest, HttpResponse
from ninja import NinjaAPI, Schema
from ninja.errors import AuthenticationError, HttpError, ValidationError

from dogcase.law.errors import InputError, LawError, PackError, UnknownJurisdiction

log = logging.getLogger(__name__)


class ErrorDetail(Schema):
    field: str
    rule: str


class ErrorOut(Schema):
    error: ErrorDetail


# Every law operation declares these, so clients can rely on the shape of every failure.
ERRORS = {400: ErrorOut, 404: ErrorOut, 422: ErrorOut, 503: ErrorOut}

# Answered before any operation runs, so every operation may return them (added to each in the schema):
# a NUL in the address or a field, a JSON body nested too deep to read (dogcase.staff.middleware), and a body
# over DATA_UPLOAD_MAX_MEMORY_SIZE.
EVERY_OPERATION = {
    "400": "Bad request: e.g. a NUL character (%00) in the address or a field, or a body nested too deep.",
    "413": "The request body is larger than the server accepts.",
}


class DogcaseAPI(NinjaAPI):
    def get_openapi_schema(self, *, path_prefix=None, path_params=None):
        schema = super().get_openapi_schema(path_prefix=path_prefix, path_params=path_params)
        error = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorOut"}}}
        for operations in schema["paths"].values():
            for operation in operations.values():
                responses = operation.setdefault("responses", {})
                for status, description in EVERY_OPERATION.items():
                    responses.setdefault(status, {"description": description, "content": error})
        schema.setdefault("components", {}).setdefault("schemas", {}).setdefault(
            "ErrorOut", ErrorOut.model_json_schema(ref_template="#/components/schemas/{model}")
        )
        return schema


def _error(api: NinjaAPI, request: HttpRequest, status: int, field: str, rule: str) -> HttpResponse:
    return api.create_response(request, {"error": {"field": field, "rule": rule}}, status=status)


def _field_path(loc: list | tuple) -> str:
    # ninja reports ("body", "<parameter name>", "incident_date");
    # clients know the body, not our parameter name.
    parts = [str(p) for p in loc]
    if len(parts) >= 2 and parts[0] == "body" and parts[1] == "payload":
        parts = [parts[0], *parts[2:]]
    return ".".join(parts)


def register_error_handlers(api: NinjaAPI) -> None:
    def on_input_error(request: HttpRequest, exc: InputError) -> HttpResponse:
        status = 404 if isinstance(exc, UnknownJurisdiction) else 400
        return _error(api, request, status, exc.field, exc.rule)

    def on_pack_error(request: HttpRequest, exc: PackError) -> HttpResponse:
        # A pack mid-edit is invalid for a moment: the service is unavailable, the client did nothing wrong.
        log.error("law pack invalid: %s", exc)
        where = f"{exc.file}:{exc.line}" if exc.line else exc.file
        return _error(api, request, 503, where, f"law pack invalid: {exc.message}")

    def on_law_error(request: HttpRequest, exc: LawError) -> HttpResponse:
        # e.g. RuleConflict: the packs disagree with themselves; never answered with a silent pick.
        return _error(api, request, 503, "law", str(exc))

    def on_validation_error(request: HttpRequest, exc: ValidationError) -> HttpResponse:
        first = exc.errors[0] if exc.errors else {"loc": ["body"], "msg": "invalid"}
        rule = first.get("msg", "invalid")
        rule = rule.removeprefix("Value error, ")
        return _error(api, request, 422, _field_path(first.get("loc", ["body"])), rule)

    def on_http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
        if isinstance(exc.__cause__, json.JSONDecodeError):
            cause = exc.__cause__
            return _error(
                api,
                request,
                400,
                "body",
                f"not valid JSON at line {cause.lineno} column {cause.colno}: {cause.msg}",
            )
        if exc.status_code == 400 and str(exc.message).startswith("Cannot parse request body"):
            return _error(api, request, 400, "body", "the request body cannot be read as JSON")
        if isinstance(exc, AuthenticationError):
            return _error(api, request, 401, "user", "log in first (the staff session cookie)")
        if exc.status_code == 403 and "CSRF" in str(exc.message):
            return _error(api, request, 403, "X-CSRFToken", "the CSRF token is missing or wrong")
        return _error(api, request, exc.status_code, "request", str(exc.message))

    api.add_exception_handler(InputError, on_input_error)
    api.add_exception_handler(PackError, on_pack_error)
    api.add_exception_handler(LawError, on_law_error)
    api.add_exception_handler(ValidationError, on_validation_error)
    api.add_exception_handler(HttpError, on_http_error)
