"""What an owner (or a member of staff) sends to prove one condition of registration, and its review.

A row is never rewritten in substance: a review changes its status once (submitted -> accepted or rejected),
and is recorded as an audit event on the case with the reviewer and the reason; a new proof is a new row.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from dogcase.cases.models import Case, Event, Person


class ProofSubmission(models.Model):
    class Status(models.TextChoices):
        SUBMITTED = "submitted", "Waiting for review"
        ACCEPTED = "accepted", "Accepted"
        REJECTED = "rejected", "Not accepted"

    class Form(models.TextChoices):
        # a `coverage` proof: which of the two the law allows
        SURETY_BOND = "surety_bond", "Surety bond"
        LIABILITY_INSURANCE = "liability_insurance", "Liability insurance"

    jurisdiction = models.CharField(max_length=64, db_index=True)
    case = models.ForeignKey(Case, on_delete=models.PROTECT, related_name="proofs")
    # the requirement's id in the law pack (e.g. liability_coverage) and the kind of proof it takes
    condition = models.CharField(max_length=64)
    kind = models.CharField(max_length=16)
    submitted_by_person = models.ForeignKey(
        Person, null=True, blank=True, on_delete=models.PROTECT, related_name="proofs"
    )
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    submitted_at = models.DateTimeField()
    # coverage (surety bond or liability insurance)
    coverage_form = models.CharField(max_length=24, blank=True, choices=Form.choices)
    issuer = models.CharField("insurer or surety", max_length=200, blank=True)
    policy_number = models.CharField("policy or bond number", max_length=100, blank=True)
    amount_usd = models.DecimalField(max_digits=12, decimal_places=2, null=True, blank=True)
    starts_on = models.DateField(null=True, blank=True)
    ends_on = models.DateField(null=True, blank=True)
    # microchip
    microchip_number = models.CharField(max_length=15, blank=True)
    microchip_manufacturer = models.CharField(max_length=200, blank=True)
    # sterilization
    sterilized_on = models.DateField(null=True, blank=True)
    veterinarian_name = models.CharField(max_length=200, blank=True)
    veterinarian_address = models.CharField(max_length=300, blank=True)
    veterinarian_phone = models.CharField(max_length=40, blank=True)
    note = models.TextField(blank=True, max_length=2000)
    # the review
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SUBMITTED)
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    reviewed_at = models.DateTimeField(null=True, blank=True)
    reason = models.TextField(blank=True, max_length=2000)
    submitted_event = models.ForeignKey(
        Event, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    review_event = models.ForeignKey(Event, null=True, blank=True, on_delete=models.PROTECT, related_name="+")

    class Meta:
        indexes = [
            models.Index(fields=["case", "condition", "status"], name="proof_case_condition"),
            models.Index(fields=["jurisdiction", "status", "submitted_at", "id"], name="proof_queue"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(status="rejected") | ~models.Q(reason=""),
                name="proof_rejected_has_reason",
            ),
            models.CheckConstraint(
                condition=models.Q(submitted_by_person__isnull=False) | models.Q(submitted_by__isnull=False),
                name="proof_has_submitter",
            ),
        ]

    def __str__(self) -> str:
        return f"Proof of {self.condition} for {self.case_id} ({self.status})"

    @property
    def submitter_name(self) -> str:
        if self.submitted_by_person_id:
            return self.submitted_by_person.full_name
        if self.submitted_by_id:
            return self.submitted_by.get_full_name() or self.submitted_by.get_username()
        return ""


class ProofFile(models.Model):
    """A file sent with a proof (a certificate of insurance, a photograph of the enclosure), checked by content
    and stored once under its SHA-256 (dogcase.cases.files)."""

    proof = models.ForeignKey(ProofSubmission, on_delete=models.PROTECT, related_name="files")
    sha256 = models.CharField(max_length=64)
    original_name = models.CharField(max_length=255)
    content_type = models.CharField(max_length=100)
    size = models.PositiveIntegerField()
    path = models.CharField(max_length=255)

    def __str__(self) -> str:
        return self.original_name

    @property
    def shown_name(self) -> str:
        """The name the file was uploaded with, as pages show it: without a folder, control characters or
        runs of spaces, at most 80 characters (the middle cut, the extension kept); a file sent without a
        name is called by its kind."""
        return shown_file_name(self.original_name, self.content_type)


SHOWN_NAME_MAX = 80


def shown_file_name(name: str, content_type: str = "") -> str:
    text = str(name or "").replace("\\", "/").rsplit("/", 1)[-1]
    text = "".join(
        ch
        for ch in text
        if ch.isprintable()
        and ch not in "\u200b\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
    )
    text = " ".join(text.split()).strip(" .")
    if not text:
        return "PDF" if content_type == "application/pdf" else "Photo"
    if len(text) > SHOWN_NAME_MAX:
        stem, dot, ext = text.rpartition(".")
        ext = f".{ext}" if dot and len(ext) <= 5 else ""
        keep = SHOWN_NAME_MAX - len(ext) - 1
        text = f"{(stem if ext else text)[:keep]}…{ext}"
    return text
