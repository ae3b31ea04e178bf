"""Money in a case: the city's fee schedule, the charges the acts incur, and what is paid, refunded, waived or
cancelled. Every row is written once (a refund, a waiver or a cancellation is a new row, never an edit of the
one it answers), and with an audit event in its chain: a rate in the city's, the rest in the case's. The only
field written later is a charge per day's end (`ends_on`), once, by the act that ends it (the dog's release),
with an event of its own. Amounts are exact decimals (dollars and cents), never floats."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.conf import settings
from django.db import models

from dogcase.cases.models import Case, Event

CENT = Decimal("0.01")


class WrittenOnce(models.Model):
    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if not self._state.adding and not getattr(self, "_ending", False):
            raise PermissionError("money records are written once: record a new entry instead")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise PermissionError("money records are never deleted")


class FeeRate(WrittenOnce):
    """One dated value of the city's fee schedule for a charge of its law (`charges:` in its pack): in force
    from `effective_from` until the next value of the same charge, with the council resolution that set it."""

    jurisdiction = models.CharField(max_length=64)
    charge = models.CharField(max_length=64, help_text="The charge's id in the city's law")
    amount = models.DecimalField(max_digits=10, decimal_places=2)
    effective_from = models.DateField()
    resolution = models.CharField(max_length=100, help_text="The resolution (or order) that set it")
    adopted_on = models.DateField()
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    entered_at = models.DateTimeField()
    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="+")

    class Meta:
        indexes = [models.Index(fields=["jurisdiction", "charge", "effective_from"], name="fee_rate_on")]
        constraints = [
            models.CheckConstraint(condition=models.Q(amount__gte=0), name="fee_rate_not_negative")
        ]

    def __str__(self) -> str:
        return f"{self.jurisdiction} {self.charge} ${self.amount} from {self.effective_from}"


class Charge(WrittenOnce):
    """What the owner owes for one act: a fee at the city's rate, a charge per day (boarding) from the day of
    the act to the day of the act that ends it, or an actual cost the city entered."""

    class Per(models.TextChoices):
        EACH = "each", "Each"
        DAY = "day", "Per day"

    jurisdiction = models.CharField(max_length=64)
    case = models.ForeignKey(Case, on_delete=models.PROTECT, related_name="charges")
    charge = models.CharField(max_length=64, help_text="The charge's id in the city's law")
    label = models.CharField(max_length=200)
    citation = models.CharField(max_length=200)
    per = models.CharField(max_length=4, choices=Per.choices, default=Per.EACH)
    rate = models.DecimalField(max_digits=10, decimal_places=2, null=True, blank=True)
    fee_rate = models.ForeignKey(FeeRate, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    # each: the amount; per day: null (rate x days held)
    amount = models.DecimalField(max_digits=10, decimal_places=2, null=True, blank=True)
    starts_on = models.DateField()
    ends_on = models.DateField(null=True, blank=True)
    note = models.TextField(blank=True, max_length=2000)
    step_event = models.ForeignKey(Event, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="+")
    end_event = models.ForeignKey(Event, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField()
    # null: incurred by the owner's own filing on the portal (the event names the owner)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["starts_on", "id"]
        indexes = [models.Index(fields=["case", "starts_on"], name="charge_case")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(per="day", rate__isnull=False)
                | models.Q(per="each", amount__isnull=False),
                name="charge_has_amount_or_rate",
            )
        ]

    def __str__(self) -> str:
        return f"{self.label} ({self.case_id})"

    def days(self, on: dt.date) -> int:
        """Days held through `on` (or the day it ended): each day or part of a day, the first one counted."""
        last = min(self.ends_on, on) if self.ends_on else on
        return max((last - self.starts_on).days + 1, 0)

    def amount_on(self, on: dt.date) -> Decimal:
        if self.per == self.Per.DAY:
            return (self.rate * self.days(on)).quantize(CENT)
        return self.amount

    @property
    def running(self) -> bool:
        return self.per == self.Per.DAY and self.ends_on is None


class Entry(WrittenOnce):
    """Money received or given back, or owed no more: a payment (with its receipt), a refund of a payment, a
    waiver by the council's resolution, or the cancellation of a charge recorded in error (with the reason)."""

    class Kind(models.TextChoices):
        PAYMENT = "payment", "Payment"
        REFUND = "refund", "Refund"
        WAIVER = "waiver", "Waived by the council"
        CANCELLATION = "cancellation", "Charge cancelled"

    class Method(models.TextChoices):
        CASH = "cash", "Cash"
        CHECK = "check", "Check"
        CARD = "card", "Card (taken by the city's processor)"
        OTHER = "other", "Other"

    jurisdiction = models.CharField(max_length=64)
    case = models.ForeignKey(Case, on_delete=models.PROTECT, related_name="money_entries")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    amount = models.DecimalField(max_digits=10, decimal_places=2)
    on = models.DateField(help_text="The day it was received, given back or decided")
    method = models.CharField(max_length=8, choices=Method.choices, blank=True)
    reference = models.CharField(max_length=100, blank=True, help_text="Check number or processor reference")
    paid_by = models.CharField(max_length=200, blank=True)
    resolution = models.CharField(max_length=100, blank=True)
    reason = models.TextField(blank=True, max_length=2000)
    refund_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="refunds"
    )
    charge = models.ForeignKey(
        Charge, null=True, blank=True, on_delete=models.PROTECT, related_name="entries"
    )
    receipt = models.OneToOneField(
        "documents.IssuedDocument",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="money_entry",
    )
    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["on", "id"]
        indexes = [models.Index(fields=["case", "on"], name="money_entry_case")]
        constraints = [
            models.CheckConstraint(condition=models.Q(amount__gt=0), name="money_entry_positive"),
            models.CheckConstraint(
                condition=~models.Q(kind="waiver") | ~models.Q(resolution=""), name="waiver_has_resolution"
            ),
            models.CheckConstraint(
                condition=~models.Q(kind="refund") | models.Q(refund_of__isnull=False),
                name="refund_has_payment",
            ),
            models.CheckConstraint(
                condition=~models.Q(kind="cancellation")
                | (models.Q(charge__isnull=False) & ~models.Q(reason="")),
                name="cancellation_has_charge_and_reason",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} ${self.amount} ({self.case_id})"

    @property
    def sign(self) -> int:
        """+1: adds to what is owed (a refund gives money back); -1: takes from it."""
        return 1 if self.kind == self.Kind.REFUND else -1
