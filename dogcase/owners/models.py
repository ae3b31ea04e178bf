"""The owner's access to the portal: a case access code per owner per case (stored hashed), and the one-time
sign-in links e-mailed to an owner (stored hashed)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class CaseAccessCode(models.Model):
    """One owner's code for one case: printed on every notice to that owner, never stored in clear. The code
    is derived from the site's key, the case, the owner and the code's `generation`, so a later notice prints
    the same code again; a new code (the next generation) is made only when staff re-issue it on purpose, and
    that revokes the one before. A code issued before codes were derived has no generation: it keeps working
    until the next notice to its owner, which replaces it once."""

    case = models.ForeignKey("cases.Case", on_delete=models.PROTECT, related_name="access_codes")
    person = models.ForeignKey("cases.Person", on_delete=models.PROTECT, related_name="access_codes")
    code_hash = models.CharField(max_length=64, unique=True)
    generation = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["case", "person"], name="access_code_case_person")]

    def __str__(self) -> str:
        state = "revoked" if self.revoked_at else "live"
        return f"access code for {self.person} on {self.case} ({state})"

    @property
    def live(self) -> bool:
        return self.revoked_at is None


class SignInLink(models.Model):
    """A one-time link completing an owner's sign-in: used once, within its minutes."""

    access_code = models.ForeignKey(CaseAccessCode, on_delete=models.CASCADE, related_name="links")
    token_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"sign-in link for {self.access_code.person}"
