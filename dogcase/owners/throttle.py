"""Failed portal sign-ins lock out for a while (the staff login's counting, dogcase.accounts.throttle, with keys
of the portal's own: an owner's mistakes never lock a staff member out, nor the reverse).

Three keys per attempt:

- the code from this client address: DOGCASE_OWNER_SIGN_IN_FAILURE_LIMIT wrong answers lock it for
  DOGCASE_LOGIN_LOCKOUT_SECONDS (the usual guessing);
- the code from any address: four times as many wrong answers over four times as long (guessing spread over
  many machines is slowed, not left free);
- the address for any code: four times as many (one machine trying many codes).

Anybody who has seen a code could fail the last two on purpose, so they do not stop an address this code has
signed in from before: there only the code-from-this-address count applies, which an attacker elsewhere cannot
make fail. The guess limit per code and address holds everywhere."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.utils import timezone

from dogcase.accounts.models import LoginThrottle
from dogcase.accounts.throttle import Limit, count_failure, is_known, lock_of, remember
from dogcase.owners.codes import keyed_hash, normalize

SPREAD_FACTOR = 4


def _code(code: str) -> str:
    return keyed_hash("throttle", normalize(code))[:40]


def _limits(code: str, address: str) -> list[Limit]:
    limit = settings.DOGCASE_OWNER_SIGN_IN_FAILURE_LIMIT
    period = dt.timedelta(seconds=settings.DOGCASE_LOGIN_LOCKOUT_SECONDS)
    hashed = _code(code)
    return [
        Limit(f"portal-code@address:{hashed}@{address}", limit, period),
        Limit(f"portal-code:{hashed}", limit * SPREAD_FACTOR, period * SPREAD_FACTOR),
        Limit(f"portal-address:{address}", limit * SPREAD_FACTOR, period),
    ]


def _known_key(code: str, address: str) -> str:
    return f"portal:{_code(code)}@{address}"


def locked_until(code: str, address: str, now: dt.datetime) -> dt.datetime | None:
    limits = _limits(code, address)
    if is_known(_known_key(code, address), now):
        limits = limits[:1]
    return lock_of((limit.key for limit in limits), now)


def record_failure(code: str, address: str, now: dt.datetime) -> None:
    count_failure(_limits(code, address), now)


def record_success(code: str, address: str, now: dt.datetime | None = None) -> None:
    limits = _limits(code, address)
    LoginThrottle.objects.filter(key=limits[0].key).delete()  # the code's other counts and the address's stay
    remember(_known_key(code, address), now or timezone.now())
