"""What the staff pages keep of their own: the one-time keys of the forms that create records
(dogcase/staff/onetime.py)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class FormKey(models.Model):
    """A create form's one-time key, claimed in the same transaction as the record it creates: a second
    submission of the same form (a double click, Back and submit again, two tabs) finds the claim and is shown
    the record already created; the unique key keeps two concurrent submissions from both creating one."""

    key = models.CharField(max_length=64, unique=True)
    form = models.CharField(max_length=40)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    claimed_at = models.DateTimeField()
    label = models.CharField(max_length=300, blank=True)
    url = models.CharField(max_length=300, blank=True)

    def __str__(self) -> str:
        return f"{self.form} {self.key}"
