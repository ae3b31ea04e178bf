"""Refuse text no database column can keep: a NUL character in any submitted field.

PostgreSQL rejects "\\x00" in text (SQLite keeps it silently), so without this check a pasted NUL would end a
request in a server error, or be stored only on one of the two databases. Checked once, before any view, for
form fields and query parameters by name, for JSON bodies, and for the URL's path itself (a case number or a
jurisdiction id read from the path would reach the database the same way).
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
            field = self._offending_field(request)
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
            if is_api:
                return JsonResponse({"error": {"field": field, "rule": rule}}, status=400)
            return HttpResponseBadRequest(
                f"The field “{field}” {rule}.", content_type="text/plain; charset=utf-8"
            )
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
                    return _json_field(json.loads(body))
                except ValueError:
                    return "body"
        return None


def _declared_length(request) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


def _json_field(value, path: str = "body") -> str | None:
    if isinstance(value, str):
        return path if "\x00" in value else None
    if isinstance(value, dict):
        for k, v in value.items():
            found = (path + "." + str(k)) if "\x00" in str(k) else _json_field(v, f"{path}.{k}")
            if found:
                return found
    if isinstance(value, list):
        for i, v in enumerate(value):
            found = _json_field(v, f"{path}[{i}]")
            if found:
                return found
    return None
