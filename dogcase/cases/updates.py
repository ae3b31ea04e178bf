"""Corrections and updates of the records (a dog's description, an owner's address, who owns the dog).

These are not legal acts of a procedure, but they change what the notices, the case page and the owner's
letters say, so each is audited like one: the change is applied in one transaction with an event that keeps
every old and new value, the person and the reason. A form carries the values it was rendered with; when the
record has changed since (someone else saved first), nothing is written and the user is told.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone

from dogcase.cases.access import require_record_keeper
from dogcase.cases.acts import (
    DOG_FIELDS,
    PERSON_FIELDS,
    REASON_LIMIT,
    STATEMENT_LIMIT,
    ActError,
    InvalidInput,
    check_email,
    check_language,
    check_lengths,
    check_text,
    lock_case,
    lock_city,
    now,
    record_event,
    replayed,
)
from dogcase.cases.models import Case, Dog, Ownership, Person, Premises, PriorHistoryEntry
from dogcase.cases.record_facts import prior_designations, prior_history_words
from dogcase.law import clock, library

PREMISES_FIELDS = ("street", "unit", "city_name", "postal_code", "tenure")


class StaleRecord(ActError):
    """The record changed since the form was opened."""

    def __init__(self, record, fields: list[str]) -> None:
        self.record = record
        self.fields = fields
        super().__init__(
            f"{record} was changed by someone else since you opened the form ({', '.join(fields)}). Nothing "
            "was saved; review the record as it is now and try again."
        )


def _reason(reason: str) -> str:
    reason = (reason or "").strip()
    if len(reason) < 5:
        raise InvalidInput("reason", "say why the record changes (at least 5 characters)")
    check_text("reason", reason, REASON_LIMIT)
    return reason


def _apply(record, allowed: tuple[str, ...], changes: Mapping[str, Any], seen: Mapping[str, Any] | None):
    """The changes as {field: [old, new]}, after checking the fields and that nobody saved in between."""
    unknown = set(changes) - set(allowed)
    if unknown:
        raise InvalidInput(sorted(unknown)[0], "this field cannot be changed here")
    stale = [f for f in changes if seen is not None and f in seen and seen[f] != getattr(record, f)]
    if stale:
        raise StaleRecord(record, stale)
    diff = {f: [getattr(record, f), v] for f, v in changes.items() if getattr(record, f) != v}
    if not diff:
        raise InvalidInput("changes", "nothing changed")
    check_lengths(type(record), {f: new for f, (_, new) in diff.items()})
    for f, (_, new) in diff.items():
        setattr(record, f, new)
    return diff


def _update(record, *, allowed, changes, seen, actor, reason: str, at, act: str, name: str):
    """One audited change of a record: locked, checked against what the form showed, saved with its event."""
    at = at or now()
    with transaction.atomic():
        lock_city(record.jurisdiction)
        record = type(record).objects.select_for_update().get(pk=record.pk)
        diff = _apply(record, allowed, changes, seen)
        record.save(update_fields=list(diff))
        record_event(
            actor=actor,
            jurisdiction=record.jurisdiction,
            act=act,
            summary=f"Updated {name.format(record=record)}: {', '.join(f.replace('_', ' ') for f in diff)} — "
            f"{reason}",
            data={"id": record.pk, "changes": diff, "reason": reason},
            at=at,
        )
    return record


def update_person(
    person: Person,
    *,
    actor,
    changes: Mapping[str, Any],
    reason: str,
    seen: Mapping[str, Any] | None = None,
    at: dt.datetime | None = None,
) -> Person:
    """Correct or update a person's name, contact details or language for letters, with the reason; the old
    values are kept."""
    require_record_keeper(actor, person.jurisdiction)
    reason = _reason(reason)
    if "full_name" in changes and not (changes["full_name"] or "").strip():
        raise InvalidInput("full_name", "a name is required")
    check_email(changes.get("email"))
    check_language(changes.get("preferred_language"))
    return _update(
        person,
        allowed=PERSON_FIELDS,
        changes=changes,
        seen=seen,
        actor=actor,
        reason=reason,
        at=at,
        act="update_person",
        name="{record.full_name}",
    )


def update_dog(
    dog: Dog,
    *,
    actor,
    changes: Mapping[str, Any],
    reason: str,
    seen: Mapping[str, Any] | None = None,
    at: dt.datetime | None = None,
) -> Dog:
    """Correct or update a dog's description, microchip or licence, with the reason; the old values are kept.
    (Its status — moved, transferred, dead — changes only through the legal acts that report it.)"""
    require_record_keeper(actor, dog.jurisdiction)
    reason = _reason(reason)
    if "name" in changes and not (changes["name"] or "").strip():
        raise InvalidInput("name", "the dog's name is required (write “unknown” if nobody knows it)")
    if "sex" in changes and changes["sex"] not in Dog.Sex.values:
        raise InvalidInput("sex", f"must be one of {', '.join(Dog.Sex.values)}")
    if changes.get("birth_year") is not None:
        try:
            year = int(changes["birth_year"])
        except (TypeError, ValueError):
            raise InvalidInput("birth_year", "must be a year, e.g. 2021") from None
        if not 1990 <= year <= timezone.localdate().year:
            raise InvalidInput("birth_year", f"must be a year between 1990 and {timezone.localdate().year}")
        changes = {**changes, "birth_year": year}
    return _update(
        dog,
        allowed=DOG_FIELDS,
        changes=changes,
        seen=seen,
        actor=actor,
        reason=reason,
        at=at,
        act="update_dog",
        name="dog {record.name}",
    )


def update_premises(
    premises: Premises,
    *,
    actor,
    changes: Mapping[str, Any],
    reason: str,
    seen: Mapping[str, Any] | None = None,
    at: dt.datetime | None = None,
) -> Premises:
    """Correct the address of the premises or whether they are owned or rented, with the reason."""
    require_record_keeper(actor, premises.jurisdiction)
    reason = _reason(reason)
    if "tenure" in changes and changes["tenure"] not in Premises.Tenure.values:
        raise InvalidInput("tenure", f"must be one of {', '.join(Premises.Tenure.values)}")
    for field, rule in (("street", "a street address is required"), ("city_name", "the city is required")):
        if field in changes and not (changes[field] or "").strip():
            raise InvalidInput(field, rule)
    return _update(
        premises,
        allowed=PREMISES_FIELDS,
        changes=changes,
        seen=seen,
        actor=actor,
        reason=reason,
        at=at,
        act="update_premises",
        name="premises {record}",
    )


def _no_designated_case(dog: Dog, field: str) -> None:
    """Who owns a designated dog changes through its case (the transfer step, with its duties and notices, or
    its ban in Tracy), never as a correction of the records. The dog's open cases are locked (after the
    city's records, the order every act keeps) so that no declaration lands between this check and the
    change."""
    for case_id in (
        Case.objects.filter(dog=dog, status=Case.Status.OPEN).order_by("pk").values_list("pk", flat=True)
    ):
        lock_case(case_id)
    case = Case.objects.filter(dog=dog, status=Case.Status.OPEN, designation_in_effect=True).first()
    if case is not None:
        raise InvalidInput(
            field,
            f"{dog.name} is a designated dog (case {case.number}): record a change of owner through the case's "
            "transfer step, so that the law's duties and notices follow it",
        )


def add_owner(dog: Dog, *, person: Person, actor, since: dt.date, reason: str, at=None) -> Ownership:
    """Record another owner of the dog (a dog may have several; service on one is effective for all)."""
    require_record_keeper(actor, dog.jurisdiction)
    reason = _reason(reason)
    if person.jurisdiction != dog.jurisdiction:
        raise InvalidInput("person", "the owner must be recorded in the same city as the dog")
    at = at or now()
    today = timezone.localtime(at).date()
    if since > today:
        raise InvalidInput("since", f"cannot be in the future (today is {clock.format_date(today)})")
    if since < clock.MIN_DATE:
        raise InvalidInput("since", f"cannot be before {clock.format_date(clock.MIN_DATE)}")
    with transaction.atomic():
        lock_city(dog.jurisdiction)
        _no_designated_case(dog, "person")
        if Ownership.objects.filter(dog=dog, person=person, until__isnull=True).exists():
            raise InvalidInput("person", f"{person} already owns {dog.name}")
        if Ownership.objects.filter(dog=dog, person=person, since=since).exists():
            raise InvalidInput(
                "since",
                f"{person} was already recorded as an owner from {since}; give the day this ownership began",
            )
        ownership = Ownership.objects.create(dog=dog, person=person, since=since)
        record_event(
            actor=actor,
            jurisdiction=dog.jurisdiction,
            act="add_owner",
            summary=f"{person.full_name} recorded as an owner of {dog.name} since {since} — {reason}",
            data={"dog": dog.pk, "person": person.pk, "since": since, "reason": reason},
            at=at,
        )
    return ownership


def end_ownership(ownership: Ownership, *, actor, until: dt.date, reason: str, at=None) -> Ownership:
    """Record that a person no longer owns the dog (the ownership stays on record with its end date). A
    transfer of a designated dog is a legal act of its case (record the transfer there); this corrects the
    records, e.g. an owner entered by mistake or a co-owner who moved out."""
    dog = ownership.dog
    require_record_keeper(actor, dog.jurisdiction)
    reason = _reason(reason)
    at = at or now()
    with transaction.atomic():
        lock_city(dog.jurisdiction)
        ownership = Ownership.objects.select_for_update().get(pk=ownership.pk)
        _no_designated_case(dog, "until")
        if ownership.until is not None:
            raise StaleRecord(ownership, ["until"])
        if ownership.since and until < ownership.since:
            raise InvalidInput("until", f"cannot be before the ownership began ({ownership.since})")
        if until > timezone.localtime(at).date():
            raise InvalidInput("until", "cannot be in the future")
        if not Ownership.objects.filter(dog=dog, until__isnull=True).exclude(pk=ownership.pk).exists():
            raise InvalidInput(
                "until", f"{dog.name} would have no owner on record; record the new owner first"
            )
        ownership.until = until
        ownership.save(update_fields=["until"])
        record_event(
            actor=actor,
            jurisdiction=dog.jurisdiction,
            act="end_ownership",
            summary=f"{ownership.person.full_name} no longer an owner of {dog.name} from {until} — {reason}",
            data={
                "dog": dog.pk,
                "person": ownership.person_id,
                "ownership": ownership.pk,
                "since": ownership.since,
                "until": until,
                "reason": reason,
            },
            at=at,
        )
    return ownership


def record_prior_history(
    dog: Dog,
    *,
    actor,
    on: dt.date,
    what: str,
    source: str,
    designation: str = "",
    by_whom: str = "",
    note: str = "",
    idempotency_key: str | None = None,
    at: dt.datetime | None = None,
) -> PriorHistoryEntry:
    """Record what happened to the dog before dogcase, as found recorded elsewhere: a bite on a person, a
    designation (and by whom), a notice of a designation served on the owner — with where it is recorded. The
    facts from the dog's record read it (cases/record_facts.py); kept, never changed."""
    require_record_keeper(actor, dog.jurisdiction)
    at = at or now()
    if what not in PriorHistoryEntry.What.values:
        raise InvalidInput("what", f"must be one of {', '.join(PriorHistoryEntry.What.values)}")
    if not isinstance(on, dt.date) or isinstance(on, dt.datetime):
        raise InvalidInput("on", "give the date it happened")
    if on > timezone.localtime(at).date():
        raise InvalidInput("on", "cannot be in the future")
    source = (source or "").strip()
    if len(source) < 3:
        raise InvalidInput("source", "say where it is recorded (a report, a letter, a file number)")
    by_whom, note = (by_whom or "").strip(), (note or "").strip()
    allowed = dict(prior_designations(library().get(dog.jurisdiction).facts))
    if what == PriorHistoryEntry.What.BITE:
        if designation:
            raise InvalidInput("designation", "a bite names no designation")
    elif designation not in allowed:
        raise InvalidInput("designation", f"must be one of {', '.join(allowed)}")
    if what == PriorHistoryEntry.What.DESIGNATION and not by_whom:
        raise InvalidInput("by_whom", "say who declared it (e.g. the city or county and its officer)")
    fields = {"designation": designation, "by_whom": by_whom, "source": source}
    check_lengths(PriorHistoryEntry, fields)
    check_text("note", note, STATEMENT_LIMIT)
    with transaction.atomic():
        lock_city(dog.jurisdiction)
        replay = replayed(idempotency_key, actor=actor, act="record_prior_history")
        if replay is not None:
            return PriorHistoryEntry.objects.get(pk=replay.data["id"])
        entry = PriorHistoryEntry.objects.create(
            dog=dog,
            jurisdiction=dog.jurisdiction,
            on=on,
            what=what,
            note=note,
            recorded_by=actor,
            recorded_at=at,
            **fields,
        )
        words = prior_history_words(what, designation, by_whom)
        record_event(
            actor=actor,
            jurisdiction=dog.jurisdiction,
            act="record_prior_history",
            summary=f"Prior history of {dog.name} (before dogcase): {words} on {on} — source: {source}"[:500],
            data={"dog": dog.pk, "id": entry.pk, "on": on, "what": what, "note": note, **fields},
            at=at,
            key=idempotency_key,
        )
    return entry
