"""Failed logins, counted per key, lock a key out for a while — without letting an attacker lock staff out.

Three keys per attempt: the username from this client address (the usual guessing), the username from any
address (guessing spread over many machines) and the address for any username (one machine trying many
accounts). The last two allow more failures, so that a colleague behind the same office address or someone
mistyping an account name does not lock out others. A lock ends by itself after DOGCASE_LOGIN_LOCKOUT_SECONDS;
a successful login clears the counts of its username (the any-address count only while it is not locked, so
that the user's own login does not hand a distributed guesser a fresh allowance).

Anybody can make the last two keys fail (twenty wrong passwords from twenty addresses), so they do not stop
the user where the user is known:

- from a *known device* (the browser carries the signed cookie set at a successful login of this user, with a
  device id of its own, bound to their current password) only that device's own count applies: the limit of
  guesses per device, one device's lock not reaching the user's other devices;
- from a *known address* (the user logged in successfully from it before) only the username-from-this-address
  count applies: an attacker elsewhere cannot make it fail.

Both still allow DOGCASE_LOGIN_FAILURE_LIMIT wrong passwords per lockout period, so the guess limits hold. When
a username's count locks, a SignInLock is kept for the user (shown to them at their next login) and for the
administrators of their cities (on the staff accounts page and at their login). The old password on the
password-change form goes through the same counts.

The counting itself (count_failure, lock_of, remember, is_known) is shared with the owner portal's sign-in
(dogcase.owners.throttle), which has keys of its own.
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Max
from django.utils.crypto import constant_time_compare, salted_hmac

from dogcase.accounts.models import KnownSignIn, LoginThrottle, SignInLock

SPREAD_FACTOR = 4  # the username-only and address-only keys allow this many times the failures
DEVICE_COOKIE = "dogcase_device"
DEVICE_SALT = "dogcase.accounts.known-device"
KNOWN_FOR = dt.timedelta(days=180)  # a device or an address unused this long is no longer known


@dataclass(frozen=True)
class Limit:
    key: str
    failures: int
    period: dt.timedelta  # the count expires, and a lock lasts, this long


# -- the counting, shared with the owner portal -----------------------------------------------------------


def lock_of(keys: Iterable[str], now: dt.datetime) -> dt.datetime | None:
    """When the last lock among these keys ends, or None when none is locked."""
    keys = list(keys)
    if not keys:
        return None
    until = LoginThrottle.objects.filter(key__in=keys, locked_until__gt=now).aggregate(m=Max("locked_until"))
    return until["m"]


def count_failure(limits: Iterable[Limit], now: dt.datetime) -> list[str]:
    """Count one failure under each key; returns the keys this failure locked (that were not locked before)."""
    newly_locked = []
    with transaction.atomic():
        for limit in limits:
            row, created = LoginThrottle.objects.select_for_update().get_or_create(
                key=limit.key, defaults={"failures": 0, "first_failure_at": now}
            )
            if not created and row.first_failure_at <= now - limit.period:
                row.failures, row.first_failure_at, row.locked_until = 0, now, None  # an old count expires
            was_locked = row.locked_until is not None and row.locked_until > now
            row.failures += 1
            if row.failures >= limit.failures and not was_locked:
                row.locked_until = now + limit.period
                newly_locked.append(limit.key)
            row.save()
    return newly_locked


def remember(key: str, now: dt.datetime) -> None:
    """Note a successful sign-in under a key (a user from an address), which is then known."""
    KnownSignIn.objects.update_or_create(key=key, defaults={"last_at": now})


def is_known(key: str, now: dt.datetime) -> bool:
    return KnownSignIn.objects.filter(key=key, last_at__gt=now - KNOWN_FOR).exists()


# -- the staff login -------------------------------------------------------------------------------------


def _name(username: str) -> str:
    return (username or "").strip().lower()[:150]


def _period() -> dt.timedelta:
    return dt.timedelta(seconds=settings.DOGCASE_LOGIN_LOCKOUT_SECONDS)


def _limits(username: str, address: str) -> list[Limit]:
    name = _name(username)
    limit, period = settings.DOGCASE_LOGIN_FAILURE_LIMIT, _period()
    return [
        Limit(f"user@address:{name}@{address}", limit, period),
        Limit(f"user:{name}", limit * SPREAD_FACTOR, period),
        Limit(f"address:{address}", limit * SPREAD_FACTOR, period),
    ]


def _device_limit(username: str, device: str) -> Limit:
    return Limit(f"user@device:{_name(username)}@{device}", settings.DOGCASE_LOGIN_FAILURE_LIMIT, _period())


def _known_address_key(username: str, address: str) -> str:
    return f"staff:{_name(username)}@{address}"


def _device_token(user, device_id: str) -> str:
    # bound to the device and to the password: a new password makes every device unknown again
    return salted_hmac(DEVICE_SALT, f"{user.pk}:{device_id}:{user.password}", algorithm="sha256").hexdigest()[
        :32
    ]


def _device_cookie(request) -> tuple[str, str, str] | None:
    """The (user pk, device id, token) of the request's device cookie, if it is signed by us and unexpired."""
    if request is None:
        return None
    value = request.get_signed_cookie(
        DEVICE_COOKIE, default=None, salt=DEVICE_SALT, max_age=KNOWN_FOR.total_seconds()
    )
    parts = (value or "").split(":")
    if len(parts) != 3 or not all(parts):
        return None
    return parts[0], parts[1], parts[2]


def set_known_device(response, user, request=None) -> None:
    """Mark the browser of a successful login as a known device of this user (a signed cookie). Each browser
    has a device id of its own: a lock earned by guesses on one device does not lock the user's others, and
    the count of one device is not shared by a copy of another's cookie made under another id. A browser that
    already carries this user's cookie keeps its id."""
    current = _device_cookie(request)
    device_id = current[1] if current and current[0] == str(user.pk) else secrets.token_hex(8)
    response.set_signed_cookie(
        DEVICE_COOKIE,
        f"{user.pk}:{device_id}:{_device_token(user, device_id)}",
        salt=DEVICE_SALT,
        max_age=int(KNOWN_FOR.total_seconds()),
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


def known_device(request, username: str) -> str | None:
    """The device id when the request carries this user's valid device cookie (for their current password),
    else None."""
    cookie = _device_cookie(request)
    if cookie is None:
        return None
    pk, device_id, token = cookie
    user = get_user_model().objects.filter(pk=pk if pk.isdigit() else None).first()
    if user is None or _name(user.get_username()) != _name(username):
        return None
    if not constant_time_compare(_device_token(user, device_id), token):
        return None
    return device_id


def _checked(request, username: str, address: str, now: dt.datetime) -> tuple[list[Limit], str | None]:
    """The limits that decide this attempt, and the known device token (if any)."""
    device = known_device(request, username)
    if device is not None:
        return [_device_limit(username, device)], device
    limits = _limits(username, address)
    if is_known(_known_address_key(username, address), now):
        return limits[:1], None
    return limits, None


def locked_until(request, username: str, now: dt.datetime) -> dt.datetime | None:
    """When the lock on this attempt ends, or None when it may try."""
    limits, _ = _checked(request, username, client_address(request), now)
    return lock_of((limit.key for limit in limits), now)


def record_failure(request, username: str, now: dt.datetime) -> None:
    address = client_address(request)
    limits = _limits(username, address)
    device = known_device(request, username)
    if device is not None:
        limits.append(_device_limit(username, device))
    locked = count_failure(limits, now)
    user_keys = [limit.key for limit in limits if not limit.key.startswith("address:")]
    if any(key in user_keys for key in locked):
        _note_lock(username, address, now, spread=f"user:{_name(username)}" in locked)


def record_success(request, username: str, now: dt.datetime) -> None:
    address = client_address(request)
    limits = _limits(username, address)
    keys = [limits[0].key]  # the address keeps its count
    device = known_device(request, username)
    if device is not None:
        keys.append(_device_limit(username, device).key)
    LoginThrottle.objects.filter(key__in=keys).delete()
    # the any-address count ends with a login only while it has not locked (else a guesser starts afresh)
    LoginThrottle.objects.filter(key=limits[1].key).exclude(locked_until__gt=now).delete()
    remember(_known_address_key(username, address), now)


def _note_lock(username: str, address: str, now: dt.datetime, *, spread: bool) -> None:
    User = get_user_model()
    user = User.objects.filter(**{f"{User.USERNAME_FIELD}__iexact": _name(username)}).first()
    if user is None:
        return  # a name nobody has: nobody to tell
    SignInLock.objects.create(
        user=user,
        locked_at=now,
        locked_until=now + _period(),
        address="" if spread else address,
    )


def client_address(request) -> str:
    """The client's address: REMOTE_ADDR, or behind a reverse proxy the header it sets
    (DOGCASE_CLIENT_IP_HEADER, e.g. X-Forwarded-For: the last address, the one our proxy appended). The header
    is believed only on a request from one of DOGCASE_TRUSTED_PROXIES (addresses or networks): anyone who
    reaches the server directly could write any address in it."""
    import ipaddress

    remote = request.META.get("REMOTE_ADDR", "")[:45]
    header = settings.DOGCASE_CLIENT_IP_HEADER
    if not header:
        return remote
    try:
        peer = ipaddress.ip_address(remote)
    except ValueError:
        return remote
    trusted = False
    for entry in settings.DOGCASE_TRUSTED_PROXIES:
        try:
            trusted = trusted or peer in ipaddress.ip_network(entry, strict=False)
        except ValueError:
            continue
    if trusted:
        value = request.META.get("HTTP_" + header.upper().replace("-", "_"), "")
        last = value.split(",")[-1].strip()
        if last:
            return last[:45]
    return remote
