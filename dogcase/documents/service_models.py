"""Service of an issued document: each attempt to serve it (docs/service.md).

A `ServiceAttempt` is written by `dogcase.documents.serving` only, inside the act that records it (audited in the
case's chain). Attempt 1 is the service recorded by the step that issued the document; each later attempt that
the law says starts or moves a time took its step (`step_event`), and a return receipt that records the owner's
receipt took the receipt step (`receipt_event`). What the attempt started is the events of those steps: the
attempt row says what was done, the case's events what it meant.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class ServiceAttempt(models.Model):
    class Outcome(models.TextChoices):
        SENT = "sent", "Mailed or sent"
        DELIVERED = "delivered", "Delivered to the owner"
        REFUSED = "refused", "Refused"
        UNCLAIMED = "unclaimed", "Returned unclaimed"
        UNDELIVERABLE = "undeliverable", "Returned undeliverable"
        POSTED = "posted", "Posted"
        LEFT_WITH_RESIDENT = "left_with_resident", "Left with a person residing there"
        NOT_FOUND = "not_found", "Nobody found — not served"
        SPOKE = "spoke", "Spoke with the owner"
        NO_ANSWER = "no_answer", "No answer"

    document = models.ForeignKey(
        "documents.IssuedDocument", on_delete=models.PROTECT, related_name="service_attempts"
    )
    jurisdiction = models.CharField(max_length=64)
    number = models.PositiveIntegerField(help_text="1 for the service recorded when the document was issued")
    method = models.CharField(max_length=64, blank=True, help_text="Empty: as recorded on the issuing step")
    article_number = models.CharField(max_length=40, blank=True)
    addressee = models.TextField(blank=True)
    served_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    served_by_name = models.CharField(max_length=200, blank=True)
    sent_on = models.DateField(help_text="The day it was handed over, posted, left, mailed or telephoned")
    outcome = models.CharField(max_length=32, choices=Outcome.choices)
    received_on = models.DateField(null=True, blank=True, help_text="The return receipt's date, or delivery")
    proofs = models.ManyToManyField("cases.StoredFile", blank=True, related_name="+")
    notes = models.TextField(blank=True)
    step_event = models.ForeignKey(
        "cases.Event", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    receipt_event = models.ForeignKey(
        "cases.Event", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()

    class Meta:
        ordering = ["document", "number"]
        constraints = [
            models.UniqueConstraint(fields=["document", "number"], name="unique_service_attempt_number"),
        ]
        # the daily mailing sheet: one city, one day, the mail pieces
        indexes = [models.Index(fields=["jurisdiction", "sent_on", "id"], name="service_city_day")]

    def __str__(self) -> str:
        return f"{self.document_id} attempt {self.number}"
