"""The rabies observation of a dog that bit a person: the record the acts keep (`acts/observation.py`).

The city's pack sets the observation (law/observation.py): no text in the packs says anything of it, so it is
the city's procedure, never a provision. The row is a summary kept by the acts; its history is its audit
events (start, each change with its actor, each correction), which are never changed.
Registered with the app by `cases/models.py`; it names the other records by their model label.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

# the obligation row of an observation (cases.Obligation.deadline_id): "rabies_observation:<pk>"
OBSERVATION_DEADLINE = "rabies_observation:"


class RabiesObservation(models.Model):
    class Status(models.TextChoices):
        UNDER_WAY = "under_way", "Under way"
        ENDED = "ended", "Ended"

    class Vaccination(models.TextChoices):
        CURRENT = "current", "Vaccinated against rabies, and the vaccination is current"
        EXPIRED = "expired", "Vaccinated against rabies, but the vaccination has expired"
        NONE = "none", "Never vaccinated against rabies"
        UNKNOWN = "unknown", "Not known"

    class Outcome(models.TextChoices):
        HEALTHY = "healthy", "Healthy at the end of the observation"
        SIGNS = "signs", "Showed signs of rabies"
        DIED = "died", "Died during the observation"
        EUTHANIZED = "euthanized_tested", "Euthanized and tested for rabies"
        LOST = "lost", "Lost or escaped during the observation"

    jurisdiction = models.CharField(max_length=64, db_index=True)
    dog = models.ForeignKey("cases.Dog", on_delete=models.PROTECT, related_name="rabies_observations")
    incident = models.ForeignKey(
        "cases.Incident", on_delete=models.PROTECT, related_name="rabies_observations"
    )
    bitten = models.CharField("people bitten", max_length=500)
    bite_on = models.DateField("day of the bite")
    period_days = models.PositiveSmallIntegerField()
    ends_on = models.DateField("last day of the observation")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.UNDER_WAY)
    # one of the ids the city's pack lists (`held_at:`), and the address or the facility's name
    held_at = models.CharField("where the dog is held", max_length=64, blank=True)
    held_place = models.CharField("address or facility", max_length=200, blank=True)
    veterinarian = models.CharField(max_length=200, blank=True)
    veterinarian_contact = models.CharField("veterinarian's telephone or address", max_length=200, blank=True)
    vaccination = models.CharField(
        "rabies vaccination", max_length=10, choices=Vaccination.choices, blank=True
    )
    vaccinated_on = models.DateField("date of the last rabies vaccination", null=True, blank=True)
    vaccination_record = models.ForeignKey(
        "cases.StoredFile", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    outcome = models.CharField(max_length=20, choices=Outcome.choices, blank=True)
    outcome_on = models.DateField("date of the outcome", null=True, blank=True)
    outcome_note = models.TextField("the veterinarian's report, in short", blank=True)
    started_at = models.DateTimeField()
    started_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    updated_at = models.DateTimeField()
    version = models.PositiveIntegerField(default=1)

    class Meta:
        ordering = ["ends_on", "id"]
        constraints = [models.UniqueConstraint(fields=["incident", "dog"], name="unique_rabies_observation")]
        indexes = [models.Index(fields=["jurisdiction", "status", "ends_on"], name="observation_city_due")]

    def __str__(self) -> str:
        return f"Rabies observation of {self.dog} ({self.incident})"

    @property
    def deadline_id(self) -> str:
        return f"{OBSERVATION_DEADLINE}{self.pk}"
