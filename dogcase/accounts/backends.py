"""Django's model backend, refusing an attempt whose username or address is locked out (a known device or
address of the user passes the locks others can cause: dogcase.accounts.throttle)."""

from __future__ import annotations

from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from dogcase.accounts import throttle


class ThrottledModelBackend(ModelBackend):
    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:  # not a client logging in (a management command, a test's client.login)
            return super().authenticate(request, username=username, password=password, **kwargs)
        now = timezone.now()
        if throttle.locked_until(request, username or "", now):
            # Even the right password is refused until the lock ends; PermissionDenied stops other backends.
            raise PermissionDenied("locked out")
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None:
            throttle.record_failure(request, username or "", now)
        else:
            throttle.record_success(request, username or "", now)
        return user
