"""The 500 page (config.urls.handler500): Django's, with the site's security headers set by itself. An error
raised in a middleware outside the Content-Security-Policy and X-Frame-Options middleware (a session that
cannot be saved while the database is down) makes its 500 page where those never see it."""

from __future__ import annotations

import logging

from django.http import HttpResponseServerError
from django.views.defaults import server_error as django_server_error

from dogcase.ops.hardening import security_headers

logger = logging.getLogger(__name__)

PLAIN = (
    "<!doctype html><html lang=en><meta charset=utf-8><title>Something went wrong · dogcase</title>"
    "<h1>Something went wrong on our side</h1><p>Try again in a minute. The error has been logged.</p></html>"
)


def server_error(request, *args, **kwargs):
    try:
        response = django_server_error(request, *args, **kwargs)
    except Exception:  # noqa: BLE001 - the error page itself must not fail (a missing static manifest)
        logger.exception("the 500 page could not be rendered")
        response = HttpResponseServerError(PLAIN)
    return security_headers(response)
