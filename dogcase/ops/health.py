"""GET /healthz: is this web process able to serve? For load balancers and monitoring: no login, no secrets."""

from __future__ import annotations

import logging

from django.db import connection
from django.http import HttpRequest, JsonResponse

from dogcase.law import library

logger = logging.getLogger(__name__)

PATH = "/healthz"


def health() -> tuple[bool, dict]:
    """Whether the database answers and the law packs are loaded, as a JSON-ready report. A failure is named
    by what failed, never by its message (a connection error can carry a host name or a user)."""
    report: dict = {}
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        report["database"] = "ok"
    except Exception:  # noqa: BLE001 - any failure means "not healthy"; the log has the details
        logger.exception("health check: the database is unreachable")
        report["database"] = "unreachable"
    try:
        packs = library().packs
        report["packs"] = len(packs)
        packs_ok = bool(packs)
    except Exception:  # noqa: BLE001
        logger.exception("health check: the law packs did not load")
        report["packs"] = 0
        packs_ok = False
    ok = report["database"] == "ok" and packs_ok
    return ok, {"status": "ok" if ok else "error", **report}


class HealthCheck:
    """Answers /healthz first of all the middleware: before the host check (a load balancer asks by the
    machine's address), the HTTPS redirect, sessions and login."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest):
        if request.path != PATH:
            return self.get_response(request)
        if request.method not in ("GET", "HEAD"):
            return JsonResponse({"error": "use GET"}, status=405, headers={"Allow": "GET, HEAD"})
        ok, report = health()
        return JsonResponse(report, status=200 if ok else 503, headers={"Cache-Control": "no-store"})
