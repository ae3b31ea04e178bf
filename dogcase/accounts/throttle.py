"""Failed logins, counted per key, lock a key out for a while.

Three keys per attempt: the username from this client address (the usual guessing), the username from any
address (guessing spread over many machines) and the address for any username (one machine trying many
accounts). The last two allow more failures, so that a colleague behind the same office address or someone
mistyping an account name does not lock out others. A lock ends by itself after DOGCASE_LOGIN_LOCKOUT_SECONDS;
a successful login clears the counts of its username.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import transaction
from django.db.models import Max

from dogcase.accounts.models import LoginThrottle

SPREAD_FACTOR = 4  # the username-only and address-only keys allow this many times the failures


def _limits(username: str, address: str) -> list[tuple[str, int]]:
    name = (username or "").strip().lower()[:150]
    limit = settings.DOGCASE_LOGIN_FAILURE_LIMIT
    return [
        (f"user@address:{name}@{address}", limit),
        (f"user:{name}", limit * SPREAD_FACTOR),
        (f"address:{address}", limit * SPREAD_FACTOR),
    ]


def _lockout() -> dt.timedelta:
    return dt.timedelta(seconds=settings.DOGCASE_LOGIN_LOCKOUT_SECONDS)


def locked_until(username: str, address: str, now: dt.datetime) -> dt.datetime | None:
    """When the lock on this attempt ends, or None when it may try."""
    keys = [key for key, _ in _limits(username, address)]
    until = LoginThrottle.objects.filter(key__in=keys, locked_until__gt=now).aggregate(m=Max("locked_until"))
    return until["m"]


def record_failure(username: str, address: str, now: dt.datetime) -> None:
    with transaction.atomic():
        for key, limit in _limits(username, address):
            row, created = LoginThrottle.objects.select_for_update().get_or_create(
                key=key, defaults={"failures": 0, "first_failure_at": now}
            )
            if not created and row.first_failure_at <= now - _lockout():
                row.failures, row.first_failure_at, row.locked_until = 0, now, None  # an old count expires
            row.failures += 1
            if row.failures >= limit:
                row.locked_until = now + _lockout()
            row.save()


def record_success(username: str, address: str) -> None:
    keys = [key for key, _ in _limits(username, address)[:2]]  # the address keeps its count
    LoginThrottle.objects.filter(key__in=keys).delete()


def client_address(request) -> str:
    """The client's address: REMOTE_ADDR, or behind a reverse proxy the header it sets
    (DOGCASE_CLIENT_IP_HEADER, e.g. X-Forwarded-For: the last address, the one our proxy appended)."""
    header = settings.DOGCASE_CLIENT_IP_HEADER
    if header:
        value = request.META.get("HTTP_" + header.upper().replace("-", "_"), "")
        last = value.split(",")[-1].strip()
        if last:
            return last[:45]
    return request.META.get("REMOTE_ADDR", "")[:45]
