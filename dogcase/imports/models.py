"""What a city brought in, and from where: each file read (an ImportRun: the file's name and SHA-256, what it
holds, the column mapping used, the problems the check found, how far it got), the mapping of columns
remembered for each source (ImportSource: "ASM3", "the clerk's licence spreadsheet"), and each record created,
with the row it came from and the source's own reference for it (ImportedRecord), so that a later file of the
same source finds it again (an ASM3 licence row naming its animal by the animal's code)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Kind(models.TextChoices):
    PEOPLE = "people", "People (owners), with their licences"
    DOGS = "dogs", "Dogs, with their owners, homes, licences and microchips"
    INCIDENTS = "incidents", "Incidents (bites, attacks), with the dogs involved"
    CASES = "cases", "Open cases, at the stage they have reached"


class ImportSource(models.Model):
    """The columns of one source's files of one kind, as last mapped in one city: offered again for its next
    file (a mapping is remembered, never applied without being shown)."""

    jurisdiction = models.CharField(max_length=64)
    name = models.CharField(max_length=100, help_text="Where the files come from, e.g. ASM3")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    mapping = models.JSONField(default=dict, help_text="Our field -> the file's column")
    updated_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    updated_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["jurisdiction", "name", "kind"], name="import_source_once")
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_kind_display().lower()})"


class ImportRun(models.Model):
    """One file brought in (or checked and not brought in). Problems are listed by row and column; the file is
    brought in whole or not at all."""

    class Status(models.TextChoices):
        MAPPING = "mapping", "Waiting for its columns to be matched"
        CHECKING = "checking", "Being checked"
        CHECKED = "checked", "Checked"
        IMPORTING = "importing", "Being brought in"
        IMPORTED = "imported", "Brought in"
        FAILED = "failed", "Not brought in"

    jurisdiction = models.CharField(max_length=64, db_index=True)
    kind = models.CharField(max_length=12, choices=Kind.choices)
    source = models.CharField(max_length=100)
    file_name = models.CharField(max_length=255)
    sha256 = models.CharField(max_length=64)
    blob = models.CharField(max_length=255, help_text="The file as uploaded, in the file store")
    file_format = models.JSONField(default=dict, help_text="ext, encoding and delimiter, as read on receipt")
    columns = models.JSONField(default=list, help_text="The file's column headings, in order")
    mapping = models.JSONField(default=dict)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.MAPPING)
    rows_total = models.PositiveIntegerField(default=0)
    rows_done = models.PositiveIntegerField(default=0)
    problems = models.JSONField(default=list, help_text="[{row, column, field, problem}], the first 1,000")
    problem_count = models.PositiveIntegerField(default=0)
    summary = models.JSONField(default=dict, help_text="What the check found: new, already there, skipped")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField()
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    finished_at = models.DateTimeField(null=True, blank=True)
    event_seq = models.BigIntegerField(null=True, blank=True, help_text="The audit event of the import")

    class Meta:
        indexes = [models.Index(fields=["jurisdiction", "-created_at"], name="import_run_recent")]

    def __str__(self) -> str:
        return f"{self.file_name} ({self.get_status_display().lower()})"


class ImportedRecord(models.Model):
    """A record an import created (or found already there and linked), with the row it came from."""

    run = models.ForeignKey(ImportRun, on_delete=models.PROTECT, related_name="records")
    jurisdiction = models.CharField(max_length=64)
    source = models.CharField(max_length=100)
    model = models.CharField(max_length=20, help_text="person, dog, premises, incident, case")
    object_id = models.BigIntegerField()
    row = models.PositiveIntegerField(help_text="The row of the file (the heading is row 1)")
    source_ref = models.CharField(max_length=100, blank=True, help_text="The source's own id or code")
    created = models.BooleanField(default=True, help_text="False: found already there and linked")

    class Meta:
        indexes = [
            models.Index(fields=["jurisdiction", "source", "model", "source_ref"], name="imported_by_ref"),
            models.Index(fields=["model", "object_id"], name="imported_record_of"),
        ]

    def __str__(self) -> str:
        return f"{self.model} {self.object_id} from row {self.row} of {self.source}"
