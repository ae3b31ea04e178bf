"""The versions of the law packs a deployment has used, and when each came into use: a case's obligations and
acts can always be read against the very text they were computed from (recorded by dogcase.cases.lawchanges)."""

from __future__ import annotations

from django.db import models


class LawVersion(models.Model):
    """One version of the law files (facts.yaml and each pack.yaml) as taken into use, with what changed from
    the version used before it. A version used again later (a change undone) is a new row."""

    fingerprint = models.CharField(max_length=64, db_index=True)
    texts = models.JSONField()  # file path under the packs folder -> its text
    first_used_at = models.DateTimeField()
    changes = models.JSONField(default=list)  # plain-English lines, "<pack>: <what changed>"

    class Meta:
        app_label = "cases"
        ordering = ("-first_used_at", "-id")
        get_latest_by = ("first_used_at", "id")

    def __str__(self) -> str:
        return f"law {self.fingerprint[:12]} in use from {self.first_used_at:%Y-%m-%d %H:%M}"


def current() -> LawVersion | None:
    return LawVersion.objects.order_by("-first_used_at", "-id").first()
