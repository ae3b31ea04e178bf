"""The documents dogcase issues: notices, letters, orders and certificates, each an immutable PDF.

An `IssuedDocument` row is written once, by `dogcase.documents.acts`, in the transaction of the act that issues
it (a step of the procedure, or the correction of a document), and never updated or deleted: a correction is a
new row with the next `version` that `replaces` the old one, whose bytes stay as they were (DOCSPEC.md, "Issued
means immutable"). The bytes are stored once under their SHA-256 (`dogcase.cases.files.write_blob`).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class IssuedDocumentQuerySet(models.QuerySet):
    def update(self, **kwargs):  # noqa: ARG002
        raise PermissionError("issued documents are never changed: issue a corrected version instead")

    def delete(self):
        raise PermissionError("issued documents are never deleted")


# Documents no step of the law issues, numbered and verified like the notices: a receipt and a statement of
# charges (dogcase.money.payments). Their words are dogcase's, not a pack's; they are never re-filled as a
# corrected version (a refund, a cancellation or a new statement answers a mistake).
RECEIPT = "receipt"
STATEMENT_OF_CHARGES = "statement_of_charges"
RECORD_DOCUMENT_TYPES = (RECEIPT, STATEMENT_OF_CHARGES)


class IssuedDocument(models.Model):
    """One version of one document issued on a case.

    `number` names the document across its versions (`<case number>-D<n>`, n counting the case's documents);
    `verification_code` names this version: printed in every page's footer with the URL /verify/<code>, it is
    random (never derived from the case or a person) and leads anyone to the title, number, version, date,
    city and SHA-256 of this version only."""

    case = models.ForeignKey("cases.Case", on_delete=models.PROTECT, related_name="documents")
    jurisdiction = models.CharField(max_length=64, db_index=True)
    doc_type = models.CharField(max_length=64)
    title = models.CharField(max_length=300)
    number = models.CharField(max_length=48)
    version = models.PositiveIntegerField(default=1)
    replaces = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="replaced_by"
    )
    language = models.CharField(max_length=8, default="en")
    recipient = models.TextField(blank=True)
    audience = models.CharField(max_length=16, blank=True)
    step = models.CharField(max_length=64, blank=True, help_text="The procedure step that issued it")
    issued_at = models.DateTimeField()
    issued_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    # the audit event of the step that issued the document (for a correction: the step of the first version)
    step_event = models.ForeignKey(
        "cases.Event", null=True, blank=True, on_delete=models.PROTECT, related_name="issued_documents"
    )
    # the audit event that wrote this version: the step's event, or the correct_document event
    event = models.ForeignKey("cases.Event", on_delete=models.PROTECT, related_name="+")
    sha256 = models.CharField(max_length=64, db_index=True)
    blob = models.CharField(max_length=255, help_text="The name of the PDF in the storage")
    size = models.PositiveIntegerField()
    verification_code = models.CharField(max_length=16, unique=True)
    # element value ("<citation>/<element id>", as the engine's document check takes them) -> the filled text
    elements = models.JSONField(default=dict)
    reason = models.TextField(blank=True, help_text="Why this version corrects the one it replaces")

    objects = IssuedDocumentQuerySet.as_manager()

    class Meta:
        ordering = ["issued_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["number", "version"], name="unique_document_number_version"),
        ]
        indexes = [models.Index(fields=["case", "issued_at"], name="document_case_issued")]

    def __str__(self) -> str:
        return f"{self.number} v{self.version} {self.title}"

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise PermissionError("issued documents are never changed: issue a corrected version instead")
        kwargs["force_insert"] = True
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise PermissionError("issued documents are never deleted")

    @property
    def correctable(self) -> bool:
        """A document of the law may be issued again as a corrected version; a receipt or a statement may not."""
        return self.doc_type not in RECORD_DOCUMENT_TYPES

    @property
    def filename(self) -> str:
        return f"{self.number}-v{self.version}.pdf"


class CityOffice(models.Model):
    """What a city supplies for its documents beside its law pack: the address and telephone of an office the
    pack names without them (the ordinance names "the City Clerk/Treasurer", not where the office is), or of
    the letterhead (`office = "letterhead"`). A value the pack gives wins. Changed on the City settings page
    (documents.offices: each change audited); documents already issued keep what they printed."""

    LETTERHEAD = "letterhead"

    jurisdiction = models.CharField(max_length=64)
    office = models.CharField(
        max_length=64,
        help_text='An office id of the city\'s law pack (jurisdiction.offices), or "letterhead"',
    )
    address = models.CharField(max_length=300, blank=True)
    telephone = models.CharField(max_length=40, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["jurisdiction", "office"], name="unique_city_office")]
        verbose_name = "city office (for documents)"
        verbose_name_plural = "city offices (for documents)"

    def __str__(self) -> str:
        return f"{self.jurisdiction}: {self.office}"

    def clean(self) -> None:
        from django.core.exceptions import ValidationError

        from dogcase.law import library

        j = library().jurisdictions.get(self.jurisdiction)
        if j is None:
            raise ValidationError({"jurisdiction": "Unknown city"})
        known = set(getattr(j, "offices", {}) or {}) | {self.LETTERHEAD}
        if self.office not in known:
            raise ValidationError(
                {"office": f"Not an office of this city's law pack; known: {', '.join(sorted(known))}"}
            )


# service of an issued document (dogcase.documents.serving)
from dogcase.documents.service_models import ServiceAttempt  # noqa: E402, F401
