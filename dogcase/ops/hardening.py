"""Headers and limits every response and request gets, whatever view serves it (issue 19, item 10).

- NoStoreByDefault: a page a view made (a case, an owner's portal, the API: names, addresses, dogs' records) is
  never kept by a browser's or a proxy's cache ("Cache-Control: no-store, private"), unless the view set its own
  Cache-Control. The static files (WhiteNoise, before this middleware) keep their long caching.
- RequestSizeLimit: a request whose declared body (Content-Length) is larger than DOGCASE_MAX_REQUEST_BYTES is
  answered 413 before a byte of it is read, so a huge upload never reaches a temporary file or the memory.
- security_headers(): the headers the 500 page and the 413 answer set themselves, because they can be made
  outside the middleware that adds them to every other page.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.csp import CSP, build_policy

from dogcase.imports.reading import MAX_BYTES as IMPORT_MAX_BYTES

NO_STORE = "no-store, private"


def security_headers(response: HttpResponse) -> HttpResponse:
    """The site's Content-Security-Policy, no framing, no sniffing, no caching (kept where already set)."""
    if settings.SECURE_CSP and str(CSP.HEADER_ENFORCE) not in response:
        response.headers[str(CSP.HEADER_ENFORCE)] = build_policy(settings.SECURE_CSP)
    response.headers.setdefault("X-Frame-Options", settings.X_FRAME_OPTIONS or "DENY")
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Cache-Control", NO_STORE)
    return response


class NoStoreByDefault:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if "Cache-Control" not in response:
            response["Cache-Control"] = NO_STORE
        return response


def declared_length(request: HttpRequest) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


IMPORT_PATH = "/imports/"


class RequestSizeLimit:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = settings.DOGCASE_MAX_REQUEST_BYTES
        if request.path == IMPORT_PATH:  # a city's records in one file (docs/data.md), and the form around it
            limit = max(limit, IMPORT_MAX_BYTES + 1024 * 1024)
        if declared_length(request) > limit:
            response = HttpResponse(
                f"The request is too large: at most {limit // (1024 * 1024)} MB can be sent at once. "
                "Send fewer or smaller files.\n",
                status=413,
                content_type="text/plain; charset=utf-8",
            )
            # The body is not read: the server closes the connection rather than read what is left.
            response["Connection"] = "close"
            return security_headers(response)
        return self.get_response(request)
