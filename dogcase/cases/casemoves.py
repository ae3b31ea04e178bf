"""The record of a case that moved with its dog from one city this deployment serves to another."""

from __future__ import annotations

from django.db import models


class CaseMove(models.Model):
    """A dog that moved from one city this deployment serves to another, with its case: the case it left
    (`from_case`, which keeps its history and documents) and the case opened for it where it went (`to_case`,
    under that city's law for what follows), by the act that recorded the move (`event`). Written once by
    acts.moves.hand_over; never changed."""

    from_case = models.OneToOneField("cases.Case", on_delete=models.PROTECT, related_name="moved_to")
    to_case = models.OneToOneField("cases.Case", on_delete=models.PROTECT, related_name="moved_from")
    event = models.ForeignKey("cases.Event", on_delete=models.PROTECT, related_name="+")
    moved_on = models.DateField()
    at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.from_case} moved to {self.to_case}"
