"""Failed portal sign-ins, counted per code and per client address, lock the key out for a while (the staff
login's scheme, dogcase.accounts.throttle, with keys of the portal's own: an owner's mistakes never lock a staff
member out, nor the reverse). The address allows more failures than one code (a household or an office
behind one address); a lock ends by itself after DOGCASE_LOGIN_LOCKOUT_SECONDS."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import transaction
from django.db.models import Max

from dogcase.accounts.models import LoginThrottle
from dogcase.owners.codes import keyed_hash, normalize


def _keys(code: str, address: str) -> list[tuple[str, int]]:
    limit = settings.DOGCASE_OWNER_SIGN_IN_FAILURE_LIMIT
    return [
        (f"portal-code:{keyed_hash('throttle', normalize(code))[:40]}", limit),
        (f"portal-address:{address}", limit * 4),
    ]


def _lockout() -> dt.timedelta:
    return dt.timedelta(seconds=settings.DOGCASE_LOGIN_LOCKOUT_SECONDS)


def locked_until(code: str, address: str, now: dt.datetime) -> dt.datetime | None:
    keys = [k for k, _ in _keys(code, address)]
    return LoginThrottle.objects.filter(key__in=keys, locked_until__gt=now).aggregate(m=Max("locked_until"))[
        "m"
    ]


def record_failure(code: str, address: str, now: dt.datetime) -> None:
    with transaction.atomic():
        for key, limit in _keys(code, address):
            row, created = LoginThrottle.objects.select_for_update().get_or_create(
                key=key, defaults={"failures": 0, "first_failure_at": now}
            )
            if not created and row.first_failure_at <= now - _lockout():
                row.failures, row.first_failure_at, row.locked_until = 0, now, None
            row.failures += 1
            if row.failures >= limit:
                row.locked_until = now + _lockout()
            row.save()


def record_success(code: str, address: str) -> None:
    LoginThrottle.objects.filter(key=_keys(code, address)[0][0]).delete()  # the address keeps its count
