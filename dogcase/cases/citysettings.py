"""The choices a city's law leaves to the city (its pack's `settings:`: when Battle Lake's 14 days to register
begin, where its text is cut off; whether it has confirmed its holiday choices; how long a hearing holds its
room), made by the city's administrator on City settings instead of in YAML. Each choice is a row here and an
event in the city's chain; the law engine reads it with the case (`case_state`), and a case's obligations are
recomputed with it (its law fingerprint names the choices: the hourly sweep, or the case's next act). The page
and the choosing: dogcase/staff/city_choices.py."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.conf import settings as django_settings
from django.db import models


class CitySetting(models.Model):
    """One choice a city made of a setting its law pack leaves open (the pack's value until it chooses)."""

    jurisdiction = models.CharField(max_length=64)
    setting = models.CharField(max_length=64, help_text="A setting id of the city's law pack")
    value = models.JSONField(null=True)
    updated_at = models.DateTimeField()
    updated_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        app_label = "cases"
        constraints = [
            models.UniqueConstraint(fields=["jurisdiction", "setting"], name="unique_city_setting")
        ]

    def __str__(self) -> str:
        return f"{self.jurisdiction}: {self.setting}"


def supplied(jurisdiction: str) -> dict[str, Any]:
    """The city's own choices, {setting id: value}; a setting it has not chosen keeps the pack's value."""
    return dict(CitySetting.objects.filter(jurisdiction=jurisdiction).values_list("setting", "value"))


def supplied_in(jurisdictions) -> dict[str, dict[str, Any]]:
    """`supplied` of each of the cities, in one query."""
    chosen: dict[str, dict[str, Any]] = {j: {} for j in jurisdictions}
    rows = CitySetting.objects.filter(jurisdiction__in=list(chosen)).values_list(
        "jurisdiction", "setting", "value"
    )
    for jurisdiction, setting, value in rows:
        chosen[jurisdiction][setting] = value
    return chosen


def fingerprint(jurisdiction: str) -> str:
    """A short mark of the city's choices, for the obligations' law fingerprint ("" when it made none)."""
    return mark(supplied(jurisdiction))


def fingerprints(jurisdictions) -> dict[str, str]:
    """`fingerprint` of each of the cities, in one query (the sweep's, whatever the number of cities)."""
    return {j: mark(c) for j, c in supplied_in(jurisdictions).items()}


def mark(chosen: dict[str, Any]) -> str:
    """A short mark of a city's choices (as `supplied` gives them): "" when it made none."""
    if not chosen:
        return ""
    return "+" + hashlib.sha256(json.dumps(chosen, sort_keys=True).encode()).hexdigest()[:8]
