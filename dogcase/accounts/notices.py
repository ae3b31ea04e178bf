"""Telling people about login locks (dogcase.accounts.throttle): the locked user at their next login, and the
administrators of the user's cities on the staff accounts page and at their own login."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

from dogcase.accounts import manage
from dogcase.accounts.models import SignInLock

RECENT = dt.timedelta(days=7)


def _when(at: dt.datetime) -> str:
    local = timezone.localtime(at)
    return f"{local:%B} {local.day}, {local.year} at {local:%H:%M}"


def _source(lock: SignInLock) -> str:
    return f"from the address {lock.address}" if lock.address else "from many addresses"


def own_locks_notice(user, now: dt.datetime) -> str:
    """The notice of the locks of the user's login they have not been told of (then marked told), or ''."""
    locks = list(SignInLock.objects.filter(user=user, seen_at__isnull=True))
    if not locks:
        return ""
    SignInLock.objects.filter(pk__in=[lock.pk for lock in locks]).update(seen_at=now)
    last = locks[0]
    times = "once" if len(locks) == 1 else f"{len(locks)} times"
    return (
        f"Your login was locked {times} since you last logged in, after too many wrong passwords for your "
        f"username (the last on {_when(last.locked_at)}, {_source(last)}). If that was not you, change your "
        "password and tell your administrator."
    )


def managed_locks(admin, since: dt.datetime):
    """The locks since a time of the accounts an administrator manages (not their own), newest first."""
    users = manage.manageable_users(admin).exclude(pk=admin.pk).values("pk")
    return SignInLock.objects.filter(user__in=users, locked_at__gt=since).select_related("user")


def administrator_notice(admin, since: dt.datetime | None, now: dt.datetime) -> str:
    """For an administrator logging in: the locks of their cities' accounts since their last login, or ''."""
    if not manage.may_manage_users(admin):
        return ""
    locks = list(managed_locks(admin, max(since or now - RECENT, now - RECENT)))
    if not locks:
        return ""
    names = sorted({lock.user.username for lock in locks})
    return (
        f"Login locks of staff accounts of your cities since you last logged in: {len(locks)} "
        f"({', '.join(names)}), after too many wrong passwords. See Staff accounts."
    )


def recent_lock_rows(admin, now: dt.datetime) -> list[dict]:
    return [
        {
            "username": lock.user.username,
            "pk": lock.user.pk,
            "when": _when(lock.locked_at),
            "until": _when(lock.locked_until),
            "source": _source(lock),
            "seen": lock.seen_at is not None,
        }
        for lock in managed_locks(admin, now - RECENT)
    ]
