"""The core every act shares: its errors, the locks it takes first, the replay of a form submitted twice, the
checks of what it is given, the storing of its uploads and the audit event of a record change."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils import timezone

from dogcase.cases import files as file_store
from dogcase.cases.access import staff_roles
from dogcase.cases.audit import append_event, case_chain, city_chain, lock_chain
from dogcase.cases.models import Case, Event, Person, StoredFile
from dogcase.law.procedure import too_long

# ------------------------------------------------------------------------------------------------ errors


class ActError(Exception):
    """A legal act or record change that could not be done; nothing was written."""


class Refused(ActError):
    """The law does not allow the step now, for this person, with these facts."""

    def __init__(self, label: str, refusals: list[dict[str, Any]]) -> None:
        self.label = label
        self.refusals = refusals
        reasons = "; ".join(
            f"{r['reason']} ({r['citation']})" if r.get("citation") else r["reason"] for r in refusals
        )
        super().__init__(f"{label}: refused — {reasons}")


class StaleCase(ActError):
    """Someone else acted on the case since the form was opened."""

    def __init__(self, case: Case, expected: int) -> None:
        self.case = case
        self.expected = expected
        super().__init__(
            f"Case {case.number} changed since you opened it (now at version {case.version}, your form was "
            f"for version {expected}). Nothing was saved; review the case as it is now and try again."
        )


class InvalidInput(ActError):
    def __init__(self, field: str, rule: str) -> None:
        self.field = field
        self.rule = rule
        super().__init__(f"{field}: {rule}")

    def __reduce__(self):
        # raised in a worker process (the statewide data set's), it travels back to the parent whole
        return (type(self), (self.field, self.rule))


def now() -> dt.datetime:
    return timezone.now()


def lock_case(case_id: int) -> None:
    """Serialize the acts on one case on its audit chain's head (docs/cases.md, "The audit trail"): taken
    first, before the act reads what it decides on; acts on other cases go on side by side."""
    lock_chain(case_chain(case_id))


def lock_city(jurisdiction: str) -> None:
    """Serialize one city's record changes, and its case and incident numbers, on its records' chain."""
    lock_chain(city_chain(jurisdiction))


def replayed(key: str | None, *, actor, act: str, case: Case | None = None) -> Event | None:
    """The event already written for this submission, if the same person submitted the same form twice."""
    if not key:
        return None
    event = Event.objects.filter(idempotency_key=key).first()
    if event is None:
        return None
    if event.act != act or event.actor_id != actor.pk or (case is not None and event.case_id != case.pk):
        raise InvalidInput(
            "idempotency_key", "this form token was already used for another act; reload the page"
        )
    return event


def roles_text(user) -> str:
    return ",".join(sorted(staff_roles(user)))


# --------------------------------------------------------- checks, uploads and the record's audit event


# The documented limits of the long texts (docs/cases.md, "Text limits"); a shorter text goes in its column's
# max_length. Nothing longer is stored, nor written to the audit trail: it is refused on its field.
NARRATIVE_LIMIT = 20_000
STATEMENT_LIMIT = 5_000  # a witness statement, a note on a prior history entry
REASON_LIMIT = 2_000  # the reason given for a correction or a change of a record


def check_text(field: str, value: str, limit: int) -> None:
    if len(value) > limit:
        raise InvalidInput(field, too_long(limit, len(value)))


def check_lengths(model, values: Mapping[str, Any], prefix: str = "") -> None:
    """A value longer than its column is a message on the field, never a database error (PostgreSQL)."""
    for name, value in values.items():
        try:
            limit = model._meta.get_field(name).max_length
        except Exception:  # noqa: BLE001, S112 - not a model field (e.g. owners): nothing to check
            continue
        if limit and isinstance(value, str) and len(value) > limit:
            raise InvalidInput(f"{prefix}{name}", too_long(limit, len(value)))


def check_email(value) -> None:
    if value:
        try:
            validate_email(value)
        except ValidationError:
            raise InvalidInput("email", "is not an e-mail address") from None


def store(upload, field: str, jurisdiction: str, actor, at: dt.datetime) -> StoredFile:
    try:
        data, content_type, ext = file_store.read_upload(upload, field)
    except file_store.UploadRejected as exc:
        raise InvalidInput(exc.field, exc.rule) from None
    digest, relative = file_store.write_blob(data, ext)
    return StoredFile.objects.create(
        jurisdiction=jurisdiction,
        sha256=digest,
        original_name=(getattr(upload, "name", "") or f"upload{ext}")[:255],
        content_type=content_type,
        size=len(data),
        path=relative,
        uploaded_by=actor,
        uploaded_at=at,
    )


def record_event(*, actor, jurisdiction: str, act: str, summary: str, data: dict, at, case=None, key=None):
    return append_event(
        at=at,
        jurisdiction=jurisdiction,
        case=case,
        actor=actor,
        actor_roles=roles_text(actor),
        kind=Event.Kind.RECORD,
        act=act,
        summary=summary,
        data=data,
        idempotency_key=key,
    )


def check_language(value) -> None:
    if value is not None and value not in Person.Language.values:
        offered = ", ".join(f"{code} ({label})" for code, label in Person.Language.choices)
        raise InvalidInput("preferred_language", f"choose one of the languages offered: {offered}")
