"""Refuse text no database column can keep: a NUL character in any submitted field.

PostgreSQL rejects "\\x00" in text (SQLite keeps it silently), so without this check a pasted NUL would end a
request in a server error, or be stored only on one of the two databases. Checked once, before any view, for
form fields and query parameters by name, for JSON bodies, and for the URL's path itself (a case number or a
jurisdiction id read from the path would reach the database the same way).

A JSON body is read here only when it holds a NUL, and walked without recursion: a body nested a thousand deep
is refused as such (400, field "body"), never a RecursionError.
"""

from __future__ import annotations

import json

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpResponseBadRequest, JsonResponse


class RejectNulCharacters:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        is_api = request.path.startswith("/api/")
        try:
            if is_api and _declared_length(request) > settings.DATA_UPLOAD_MAX_MEMORY_SIZE:
                raise RequestDataTooBig
            if is_api and request.method == "POST":
                # read (and keep) the body before the form fields are parsed from it: a form-encoded or
                # multipart POST to the API would otherwise be consumed here, and ninja could not read it
                request.body  # noqa: B018
            field = self._offending_field(request)
        except _TooDeep:
            rule = f"is nested more than {MAX_JSON_DEPTH} levels deep, which no request of dogcase is"
            return _bad_request(is_api, "body", rule)
        except RequestDataTooBig:
            if not is_api:
                raise  # the pages keep Django's own 400
            limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
            rule = f"the request body is larger than the {limit:,} bytes accepted"
            return JsonResponse({"error": {"field": "body", "rule": rule}}, status=413)
        if field is not None:
            if field == "path":
                rule = "contains a NUL character (%00), which no address of dogcase has"
            else:
                rule = "contains a NUL character (\\x00), which cannot be stored; remove it and submit again"
            return _bad_request(is_api, field, rule)
        return self.get_response(request)

    @staticmethod
    def _offending_field(request) -> str | None:
        if "\x00" in request.path_info:
            return "path"
        sources = [request.GET, request.POST] if request.method == "POST" else [request.GET]
        for source in sources:
            for key, values in source.lists():
                if "\x00" in key or any("\x00" in v for v in values):
                    return key.replace("\x00", "")
        if request.content_type == "application/json" and request.body:
            body = request.body
            if b"\x00" in body or b"\\u0000" in body:
                try:
                    value = json.loads(body)
                except ValueError:
                    return "body"
                except RecursionError:
                    raise _TooDeep from None
                return _json_field(value)
        return None


def _bad_request(is_api: bool, field: str, rule: str):
    if is_api:
        return JsonResponse({"error": {"field": field, "rule": rule}}, status=400)
    return HttpResponseBadRequest(f"The field “{field}” {rule}.", content_type="text/plain; charset=utf-8")


def _declared_length(request) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


MAX_JSON_DEPTH = 64  # dogcase's deepest body (a deadline's events, a step's inputs) is three levels


class _TooDeep(Exception):
    pass


def _json_field(value) -> str | None:
    """The first field (as body.a[0].b) whose name or text holds a NUL; walked with a stack, not recursion."""
    stack = [(value, "body", 0)]
    while stack:
        item, path, depth = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return path
        elif isinstance(item, dict | list):
            if depth >= MAX_JSON_DEPTH:
                raise _TooDeep
            pairs = item.items() if isinstance(item, dict) else enumerate(item)
            children = []
            for k, v in pairs:
                if isinstance(k, str) and "\x00" in k:
                    return f"{path}.{k.replace(chr(0), '')}"
                children.append((v, f"{path}.{k}" if isinstance(k, str) else f"{path}[{k}]", depth + 1))
            stack.extend(reversed(children))  # in the body's order: the first offending field is named
    return None
