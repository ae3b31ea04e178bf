"""A session left idle ends: after DOGCASE_SESSION_IDLE_SECONDS without a request, the user is logged out;
and every session ends SESSION_COOKIE_AGE (DOGCASE_SESSION_MAX_SECONDS) after login, however active.

The last request's time is written into the session at most once a minute, so an active user's pages do
not each write the session row. Such a write would move Django's own expiry on (it counts from the last
change), so the maximum is kept as the login instant, checked here, and as an absolute expiry date.
"""

from __future__ import annotations

import datetime as dt
import time

from django.conf import settings
from django.contrib.auth import logout

LAST_SEEN = "dogcase_last_seen"
LOGGED_IN_AT = "dogcase_logged_in_at"
IDLE_LOGOUT = "dogcase_idle_logout"
WRITE_EVERY_SECONDS = 60


def start_idle_clock(sender, request, user, **kwargs) -> None:
    """On login (connected to user_logged_in), so that a fresh session's first page writes nothing more."""
    now = int(time.time())
    request.session[LAST_SEEN] = now
    request.session[LOGGED_IN_AT] = now
    # an absolute date: the cookie and the stored session end then, whatever is written into it later
    request.session.set_expiry(dt.datetime.fromtimestamp(now + settings.SESSION_COOKIE_AGE, tz=dt.UTC))


class IdleSessionTimeout:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        # No session cookie: nobody logged in, and no session to load just to find that out.
        if settings.SESSION_COOKIE_NAME in request.COOKIES and request.user.is_authenticated:
            now = int(time.time())
            last = request.session.get(LAST_SEEN)
            # a session from before the login instant was kept counts from its last request
            logged_in_at = request.session.get(LOGGED_IN_AT, last)
            if logged_in_at is not None and now - logged_in_at > settings.SESSION_COOKIE_AGE:
                logout(request)
                request.session[IDLE_LOGOUT] = True
            elif last is not None and now - last > settings.DOGCASE_SESSION_IDLE_SECONDS:
                logout(request)  # the view then sees an anonymous user: the login page, or the API's 401
                request.session[IDLE_LOGOUT] = True
            elif last is None or now - last >= WRITE_EVERY_SECONDS:
                request.session[LAST_SEEN] = now
        return self.get_response(request)
