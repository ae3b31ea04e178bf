from django.conf import settings
from django.db import models


class LoginThrottle(models.Model):
    """Failed logins counted under one key (a username from one address, a username, an address).

    Kept in the database, not a per-process cache, so every web worker and machine sees the same count.
    """

    key = models.CharField(max_length=250, unique=True)
    failures = models.PositiveIntegerField(default=0)
    first_failure_at = models.DateTimeField()
    locked_until = models.DateTimeField(null=True, blank=True, db_index=True)

    def __str__(self) -> str:
        return f"{self.key}: {self.failures} failed"


class KnownSignIn(models.Model):
    """A successful sign-in under a key (a staff user from an address, an owner's code from an address): an
    attempt from there later passes the locks that others can cause (dogcase.accounts.throttle)."""

    key = models.CharField(max_length=250, unique=True)
    last_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.key}: last {self.last_at:%Y-%m-%d}"


class SignInLock(models.Model):
    """A staff account's login locked after too many wrong passwords: told to the user at their next login
    (seen_at) and to the administrators of their cities on the staff accounts page."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sign_in_locks")
    locked_at = models.DateTimeField(db_index=True)
    locked_until = models.DateTimeField()
    # the address the wrong passwords came from; empty when they came from many addresses
    address = models.CharField(max_length=45, blank=True)
    seen_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-locked_at"]

    def __str__(self) -> str:
        return f"{self.user} locked at {self.locked_at:%Y-%m-%d %H:%M}"


class CalendarFeed(models.Model):
    """A user's private calendar address (an iCalendar feed of the hearings and Council items of the cases
    they may see). Only the SHA-256 of its random token is kept: the address is shown once, when issued; a
    new one replaces it, and revoking deletes it, so an address that leaked stops working at once."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="calendar_feed"
    )
    token_sha256 = models.CharField(max_length=64, unique=True)
    issued_at = models.DateTimeField()
    last_read_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"calendar feed of {self.user}"
