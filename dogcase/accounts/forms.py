from __future__ import annotations

from django import forms
from django.contrib.auth.forms import AuthenticationForm, PasswordChangeForm
from django.utils import timezone

from dogcase.accounts import throttle


def _locked_error(until) -> forms.ValidationError:
    minutes = max(1, round((until - timezone.now()).total_seconds() / 60))
    return forms.ValidationError(
        "Too many failed logins. The password is refused here for about %(minutes)d more minute(s), even "
        "the right one. A browser you have logged in with before still takes the right password; or ask "
        "your administrator to lift the lock.",
        code="locked_out",
        params={"minutes": minutes},
    )


class LoginForm(AuthenticationForm):
    def get_invalid_login_error(self) -> forms.ValidationError:
        username = self.cleaned_data.get("username") or ""
        until = throttle.locked_until(self.request, username, timezone.now())
        if until is None:
            return super().get_invalid_login_error()
        return _locked_error(until)


class ThrottledPasswordChangeForm(PasswordChangeForm):
    """The old password is a password guess like a login's: it counts toward the same locks."""

    def __init__(self, user, *args, request=None, **kwargs) -> None:
        super().__init__(user, *args, **kwargs)
        self.request = request

    def clean_old_password(self):
        if self.request is None:
            return super().clean_old_password()
        username = self.user.get_username()
        now = timezone.now()
        until = throttle.locked_until(self.request, username, now)
        if until is not None:
            raise _locked_error(until)
        try:
            return super().clean_old_password()
        except forms.ValidationError:
            throttle.record_failure(self.request, username, now)
            raise
