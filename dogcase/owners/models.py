"""The owner's access to the portal: a case access code per owner per case (stored hashed), and the one-time
sign-in links e-mailed to an owner (stored hashed)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class CaseAccessCode(models.Model):
    """One owner's code for one case: printed on the owner's notices, never stored in clear. Issuing a new
    code for the same owner and case revokes the one before (the owner's latest notice carries the live one)."""

    case = models.ForeignKey("cases.Case", on_delete=models.PROTECT, related_name="access_codes")
    person = models.ForeignKey("cases.Person", on_delete=models.PROTECT, related_name="access_codes")
    code_hash = models.CharField(max_length=64, unique=True)
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
