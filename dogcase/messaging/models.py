"""A message sent (or not) about a case, and the days the daily sweep was scheduled for."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Message(models.Model):
    """One message to one recipient. Written once with its subject and body (what the recipient reads), then
    only its delivery changes: queued -> sending -> sent, or back to queued for a retry, or failed; a bounce
    reported later marks a sent message bounced. A worker that stops half-way leaves it queued or sending: the
    recovery pass (dogcase.messaging.recovery) queues it again once, or fails it to a paper task. `key` is unique: a message asked for twice (a job run again,
    a sweep run twice in a day) is one row, and a row is sent at most once."""

    class Kind(models.TextChoices):
        DOCUMENT_ISSUED = "document_issued", "Document issued"
        DEADLINE_SOON = "deadline_soon", "Deadline reminder"
        DEADLINE_MISSED = "deadline_missed", "Deadline missed"
        HEARING_SCHEDULED = "hearing_scheduled", "Hearing scheduled"
        PROOF_ACCEPTED = "proof_accepted", "Proof accepted"
        PROOF_REJECTED = "proof_rejected", "Proof rejected"
        PORTAL_SIGN_IN_LINK = "portal_sign_in_link", "Sign-in link"

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        SENDING = "sending", "Being sent"
        SENT = "sent", "Sent"
        FAILED = "failed", "Failed"
        BOUNCED = "bounced", "Bounced"
        NOT_SENT = "not_sent", "Not sent"

    case = models.ForeignKey("cases.Case", on_delete=models.PROTECT, related_name="messages")
    jurisdiction = models.CharField(max_length=64, db_index=True)
    kind = models.CharField(max_length=32, choices=Kind.choices)
    person = models.ForeignKey(
        "cases.Person", null=True, blank=True, on_delete=models.PROTECT, related_name="messages"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    recipient_name = models.CharField(max_length=200)
    address = models.EmailField(blank=True)
    subject = models.CharField(max_length=300)
    body = models.TextField()
    language = models.CharField(max_length=8, default="en")
    created_at = models.DateTimeField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    status_reason = models.CharField(max_length=500, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    # when this attempt was handed to the mail server: a worker stopped after it may have sent the message
    handed_at = models.DateTimeField(null=True, blank=True)
    # times the recovery pass queued it again after its worker stopped (dogcase.messaging.recovery): once
    recoveries = models.PositiveSmallIntegerField(default=0)
    # every attempt: {"at": ISO, "outcome": "sent"|"error", "detail": ...}, and a bounce when one is reported
    history = models.JSONField(default=list)
    sent_at = models.DateTimeField(null=True, blank=True)
    # the Message-ID header it was sent with: how a bounce report finds it (manage.py record_bounce)
    message_id = models.CharField(max_length=255, blank=True, db_index=True)
    key = models.CharField(max_length=200, unique=True)
    # the staff task raised when it could not be delivered (serve on paper)
    paper_task = models.ForeignKey(
        "cases.Task", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["case", "created_at"], name="message_case_created")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} to {self.recipient_name} ({self.get_status_display()})"

    @property
    def undelivered(self) -> bool:
        return self.status in (self.Status.FAILED, self.Status.BOUNCED, self.Status.NOT_SENT)


class DailyRun(models.Model):
    """A day the daily sweep was enqueued for: one row a day, so a scheduler restarted (or two of them) never
    sweeps a day twice; the worker writes when it finished and what it did."""

    day = models.DateField(unique=True)
    enqueued_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)
    report = models.JSONField(default=dict)

    class Meta:
        ordering = ["-day"]

    def __str__(self) -> str:
        return f"daily sweep {self.day}"
