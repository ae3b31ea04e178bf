from __future__ import annotations

from django import forms
from django.contrib.auth.forms import AuthenticationForm
from django.utils import timezone

from dogcase.accounts import throttle


class LoginForm(AuthenticationForm):
    def get_invalid_login_error(self) -> forms.ValidationError:
        username = self.cleaned_data.get("username") or ""
        until = throttle.locked_until(username, throttle.client_address(self.request), timezone.now())
        if until is None:
            return super().get_invalid_login_error()
        minutes = max(1, round((until - timezone.now()).total_seconds() / 60))
        return forms.ValidationError(
            "Too many failed logins. Logging in is refused for about %(minutes)d more minute(s), even with "
            "the right password; ask an administrator if you are locked out.",
            code="locked_out",
            params={"minutes": minutes},
        )
