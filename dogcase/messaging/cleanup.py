"""The daily clean-up of credentials that no longer open anything (issue 19, item 10): run by the daily job
(dogcase.messaging.tasks.daily_sweep) and by `dogcase sweep`, after the day's sweep.

- failed-login counts and locks (staff and portal) whose lock is over and whose first failure is older than
  the longest counting window any key uses (COUNT_WINDOWS lockout periods, and at least a day): such a row counts
  as nothing any more (dogcase.accounts.throttle starts a new count over it);
- owners' one-time sign-in links that were used or whose minutes are over;
- sessions (staff and owners) past their expiry, like Django's `clearsessions`.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.contrib.sessions.models import Session
from django.db.models import Q
from django.utils import timezone

from dogcase.accounts.models import LoginThrottle
from dogcase.owners.models import SignInLink

# The portal's count per code runs over 4 lockout periods (dogcase.owners.throttle); no key counts longer.
COUNT_WINDOWS = 4


def delete_expired_credentials(at: dt.datetime | None = None) -> dict[str, int]:
    """Delete what has expired as of `at` (default now); the rows deleted, by kind."""
    at = at or timezone.now()
    window = max(
        dt.timedelta(days=1), COUNT_WINDOWS * dt.timedelta(seconds=settings.DOGCASE_LOGIN_LOCKOUT_SECONDS)
    )
    throttles, _ = LoginThrottle.objects.filter(
        Q(locked_until__isnull=True) | Q(locked_until__lte=at), first_failure_at__lte=at - window
    ).delete()
    links, _ = SignInLink.objects.filter(Q(expires_at__lte=at) | Q(used_at__isnull=False)).delete()
    sessions, _ = Session.objects.filter(expire_date__lte=at).delete()
    return {"login_throttles": throttles, "sign_in_links": links, "sessions": sessions}
