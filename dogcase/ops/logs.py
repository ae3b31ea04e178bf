"""Structured logs: one JSON object a line on stdout, and one line for every request (its id, the user,
the status and the time it took). Query strings are never logged: a search carries people's names."""

from __future__ import annotations

import contextvars
import datetime as dt
import json
import logging
import re
import time
import uuid

from django.http import HttpRequest

request_log = logging.getLogger("dogcase.request")

# The id of the request being served, added to every log line written while serving it.
current_request_id: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="")

# An id from the proxy in front (nginx's $request_id) is kept so both logs can be joined; anything else
# (too long, odd characters) is replaced rather than written into the log.
VALID_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")

# Attributes every LogRecord has; whatever else a caller put in `extra` is written out as a field, except
# Django's `request` (its text carries the query string) and the socket django.server puts there.
_STANDARD = set(logging.makeLogRecord({}).__dict__) | {"message", "asctime", "request"}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": dt.datetime.fromtimestamp(record.created, tz=dt.UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        request_id = current_request_id.get()
        if request_id:
            line["request_id"] = request_id
        for key, value in record.__dict__.items():
            if key not in _STANDARD and not key.startswith("_"):
                line[key] = value
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str, ensure_ascii=False)


class RequestLog:
    """Gives every request an id (X-Request-ID, echoed on the response) and logs it once when answered."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest):
        given = request.headers.get("X-Request-ID", "")
        request_id = given if VALID_REQUEST_ID.fullmatch(given) else uuid.uuid4().hex
        token = current_request_id.set(request_id)
        start = time.perf_counter()
        try:
            response = self.get_response(request)
            duration_ms = round((time.perf_counter() - start) * 1000, 1)
            response["X-Request-ID"] = request_id
            user = getattr(request, "user", None)
            # a view whose path carries a secret (the calendar feed's token) names the path to log instead
            path = getattr(request, "log_path", request.path)
            request_log.info(
                "%s %s %s",
                request.method,
                path,
                response.status_code,
                extra={
                    "request_id": request_id,
                    "method": request.method,
                    "path": path,
                    "status": response.status_code,
                    "duration_ms": duration_ms,
                    "user_id": user.pk if user is not None and user.is_authenticated else None,
                },
            )
            return response
        finally:
            current_request_id.reset(token)
