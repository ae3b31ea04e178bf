"""The records of a city: people, premises, dogs and incidents, and the opening of a case for a dog of an
incident."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.db.models.functions import Length
from django.utils import timezone

from dogcase.cases import vocabulary
from dogcase.cases.access import RECORD_KEEPERS, require_city, require_record_keeper, staff_roles
from dogcase.cases.acts.core import (
    NARRATIVE_LIMIT,
    STATEMENT_LIMIT,
    InvalidInput,
    Refused,
    check_email,
    check_language,
    check_lengths,
    check_text,
    lock_city,
    now,
    record_event,
    replayed,
    store,
)
from dogcase.cases.acts.obligations import recompute_obligations
from dogcase.cases.acts.observation import observation_obligation, start_observations
from dogcase.cases.audit import jsonable
from dogcase.cases.models import Case, Dog, Evidence, Incident, Ownership, Person, Premises, Victim, Witness
from dogcase.cases.observations import RabiesObservation
from dogcase.cases.record_facts import bites_on_a_person, record_facts
from dogcase.law import InputError, clock, library

PERSON_FIELDS = (
    "full_name",
    "phone",
    "email",
    "street",
    "city_name",
    "state",
    "postal_code",
    "preferred_language",
)


def record_person(
    *, jurisdiction: str, actor, idempotency_key: str | None = None, at: dt.datetime | None = None, **fields
) -> Person:
    """Record an owner, victim, witness or landlord."""
    require_record_keeper(actor, jurisdiction)
    unknown = set(fields) - set(PERSON_FIELDS)
    if unknown:
        raise InvalidInput(sorted(unknown)[0], "unknown field")
    if not (fields.get("full_name") or "").strip():
        raise InvalidInput("full_name", "a name is required")
    check_lengths(Person, fields)
    check_email(fields.get("email"))
    if not fields.get("preferred_language"):
        fields.pop("preferred_language", None)  # not given: the default, English
    check_language(fields.get("preferred_language"))
    at = at or now()
    with transaction.atomic():
        lock_city(jurisdiction)
        replay = replayed(idempotency_key, actor=actor, act="record_person")
        if replay is not None:
            return Person.objects.get(pk=replay.data["id"])
        person = Person.objects.create(jurisdiction=jurisdiction, created_at=at, **fields)
        record_event(
            actor=actor,
            jurisdiction=jurisdiction,
            act="record_person",
            summary=f"Recorded person {person.full_name}",
            data={"id": person.pk, **fields},
            at=at,
            key=idempotency_key,
        )
    return person


def record_premises(
    *,
    jurisdiction: str,
    actor,
    street: str,
    city_name: str,
    unit: str = "",
    postal_code: str = "",
    tenure: str = Premises.Tenure.UNKNOWN,
    landlord: Person | None = None,
    idempotency_key: str | None = None,
    at: dt.datetime | None = None,
) -> Premises:
    """Record where a dog is kept, and its landlord when the premises are rented (§ 90.15 (N))."""
    require_record_keeper(actor, jurisdiction)
    if not street.strip():
        raise InvalidInput("street", "a street address is required")
    check_lengths(
        Premises, {"street": street, "unit": unit, "city_name": city_name, "postal_code": postal_code}
    )
    if tenure not in Premises.Tenure.values:
        raise InvalidInput("tenure", f"must be one of {', '.join(Premises.Tenure.values)}")
    if landlord is not None and landlord.jurisdiction != jurisdiction:
        raise InvalidInput("landlord", "the landlord must be recorded in the same city")
    at = at or now()
    with transaction.atomic():
        lock_city(jurisdiction)
        replay = replayed(idempotency_key, actor=actor, act="record_premises")
        if replay is not None:
            return Premises.objects.get(pk=replay.data["id"])
        premises = Premises.objects.create(
            jurisdiction=jurisdiction,
            street=street,
            unit=unit,
            city_name=city_name,
            postal_code=postal_code,
            tenure=tenure,
            landlord=landlord,
            created_at=at,
        )
        record_event(
            actor=actor,
            jurisdiction=jurisdiction,
            act="record_premises",
            summary=f"Recorded premises {premises}",
            data={
                "id": premises.pk,
                "street": street,
                "unit": unit,
                "tenure": tenure,
                "landlord": landlord and landlord.pk,
            },
            at=at,
            key=idempotency_key,
        )
    return premises


DOG_FIELDS = (
    "name",
    "breed",
    "colour",
    "sex",
    "sterilized",
    "birth_year",
    "microchip_manufacturer",
    "microchip_number",
    "licence_number",
)


def record_dog(
    *,
    jurisdiction: str,
    actor,
    owners: list[Person],
    premises: Premises | None = None,
    photo=None,
    idempotency_key: str | None = None,
    at: dt.datetime | None = None,
    **fields,
) -> Dog:
    """Record a dog, its owners (one or several) and where it is kept."""
    require_record_keeper(actor, jurisdiction)
    unknown = set(fields) - set(DOG_FIELDS)
    if unknown:
        raise InvalidInput(sorted(unknown)[0], "unknown field")
    if not (fields.get("name") or "").strip():
        raise InvalidInput("name", "the dog's name is required (write “unknown” if nobody knows it)")
    check_lengths(Dog, fields)
    if fields.get("sex", "unknown") not in Dog.Sex.values:
        raise InvalidInput("sex", f"must be one of {', '.join(Dog.Sex.values)}")
    year = fields.get("birth_year")
    if year is not None and not (1990 <= int(year) <= now().year):
        raise InvalidInput("birth_year", f"must be a year between 1990 and {now().year}")
    for person in owners:
        if person.jurisdiction != jurisdiction:
            raise InvalidInput("owners", f"{person} is recorded in another city")
    if premises is not None and premises.jurisdiction != jurisdiction:
        raise InvalidInput("premises", "the premises are recorded in another city")
    at = at or now()
    with transaction.atomic():
        lock_city(jurisdiction)
        replay = replayed(idempotency_key, actor=actor, act="record_dog")
        if replay is not None:
            return Dog.objects.get(pk=replay.data["id"])
        stored = store(photo, "photo", jurisdiction, actor, at) if photo is not None else None
        if stored is not None and not stored.content_type.startswith("image/"):
            raise InvalidInput("photo", "the photo must be a JPEG, PNG, GIF or WebP image")
        dog = Dog.objects.create(
            jurisdiction=jurisdiction, premises=premises, photo=stored, created_at=at, **fields
        )
        for person in owners:
            Ownership.objects.create(dog=dog, person=person, since=timezone.localtime(at).date())
        record_event(
            actor=actor,
            jurisdiction=jurisdiction,
            act="record_dog",
            summary=f"Recorded dog {dog.description}",
            data={
                "id": dog.pk,
                **fields,
                "owners": [p.pk for p in owners],
                "premises": premises and premises.pk,
                "photo": stored and {"id": stored.pk, "sha256": stored.sha256, "name": stored.original_name},
            },
            at=at,
            key=idempotency_key,
        )
    return dog


def record_incident(
    *,
    jurisdiction: str,
    actor,
    occurred_at: dt.datetime,
    place: str,
    place_type: str,
    kind: str,
    dogs: list[Dog],
    facts: Mapping[str, Any],
    narrative: str = "",
    victims: list[Mapping[str, Any]] = (),
    witnesses: list[Mapping[str, Any]] = (),
    evidence: list[tuple[Any, str]] = (),
    idempotency_key: str | None = None,
    at: dt.datetime | None = None,
) -> Incident:
    """Record what happened: when, where, which dogs, victims and their injuries, witnesses, the narrative,
    evidence files, and the law facts the classifier reads (validated against the fact vocabulary)."""
    require_record_keeper(actor, jurisdiction)
    j = library().get(jurisdiction)
    if timezone.is_naive(occurred_at):
        raise InvalidInput("occurred_at", "give the date and time with its time zone")
    at = at or now()
    if occurred_at > at:
        raise InvalidInput("occurred_at", "the incident cannot be in the future")
    if not clock.MIN_DATE <= timezone.localtime(occurred_at).date() <= clock.MAX_DATE:
        # The law's calendar starts in 1900: a case opened on an earlier incident could not be classified.
        raise InvalidInput(
            "occurred_at",
            f"must be on or after {clock.MIN_DATE.isoformat()}, the earliest date the law's calendar reads",
        )
    if not place.strip():
        raise InvalidInput("place", "say where it happened")
    if problem := vocabulary.PLACE_TYPE.problem(j.facts, place_type):
        raise InvalidInput("place_type", problem)
    check_lengths(Incident, {"place": place, "place_type": place_type})
    check_text("narrative", narrative or "", NARRATIVE_LIMIT)
    if kind not in Incident.Kind.values:
        raise InvalidInput("kind", f"must be one of {', '.join(Incident.Kind.values)}")
    if not dogs:
        raise InvalidInput("dogs", "name at least one dog")
    for dog in dogs:
        if dog.jurisdiction != jurisdiction:
            raise InvalidInput("dogs", f"{dog} is recorded in another city")
    try:
        parsed = j.facts.parse(dict(facts))
    except InputError as exc:
        raise InvalidInput(exc.field, exc.rule) from None
    for name in parsed:
        if j.facts.facts[name].from_record:
            raise InvalidInput(
                f"facts.{name}",
                "comes from the dog's record (its earlier incidents and cases, and the prior history recorded "
                "on the dog), not from the incident",
            )
    _check_victims(jurisdiction, victims)
    for index, witness in enumerate(witnesses):
        if not (witness.get("name") or "").strip():
            raise InvalidInput(f"witnesses[{index}].name", "a witness needs a name")
        check_lengths(Witness, {k: witness.get(k) for k in ("name", "contact")}, f"witnesses[{index}].")
        check_text(f"witnesses[{index}].statement", witness.get("statement") or "", STATEMENT_LIMIT)
    for index, (_upload, description) in enumerate(evidence):
        check_lengths(Evidence, {"description": description}, f"evidence[{index}].")
    with transaction.atomic():
        lock_city(jurisdiction)
        replay = replayed(idempotency_key, actor=actor, act="record_incident")
        if replay is not None:
            return Incident.objects.get(pk=replay.data["id"])
        incident = Incident.objects.create(
            jurisdiction=jurisdiction,
            number=next_number(Incident, f"{j.pack.case_prefix}-I{timezone.localtime(at).year}-"),
            occurred_at=occurred_at,
            place=place,
            place_type=place_type,
            kind=kind,
            narrative=narrative,
            facts=jsonable(parsed),
            reported_by=actor,
            created_at=at,
        )
        incident.dogs.set(dogs)
        for victim in victims:
            Victim.objects.create(
                incident=incident,
                kind=victim["kind"],
                name=victim["name"],
                injury=victim["injury"],
                conduct=victim.get("conduct", ""),
            )
        for witness in witnesses:
            Witness.objects.create(
                incident=incident,
                name=witness["name"],
                contact=witness.get("contact", ""),
                statement=witness.get("statement", ""),
            )
        stored = []
        for index, (upload, description) in enumerate(evidence):
            f = store(upload, f"evidence[{index}]", jurisdiction, actor, at)
            Evidence.objects.create(incident=incident, file=f, description=description)
            stored.append(
                {"id": f.pk, "sha256": f.sha256, "name": f.original_name, "description": description}
            )
        record_event(
            actor=actor,
            jurisdiction=jurisdiction,
            act="record_incident",
            summary=f"Recorded incident {incident.number}: {incident.get_kind_display().lower()} at {place}",
            data={
                "id": incident.pk,
                "number": incident.number,
                "occurred_at": occurred_at,
                "place": place,
                "place_type": place_type,
                "kind": kind,
                "dogs": [d.pk for d in dogs],
                "facts": parsed,
                "victims": list(victims),
                "witnesses": [dict(w) for w in witnesses],
                "evidence": stored,
            },
            at=at,
            key=idempotency_key,
        )
        # a bite to a person starts the dog's rabies observation, as the city's pack sets it
        start_observations(incident, actor=actor, at=at)
    return incident


def add_to_incident(
    incident: Incident,
    *,
    actor,
    evidence: list[tuple[Any, str]] = (),
    witnesses: list[Mapping[str, Any]] = (),
    victims: list[Mapping[str, Any]] = (),
    idempotency_key: str | None = None,
    at: dt.datetime | None = None,
) -> Incident:
    """Add evidence files, witnesses or victims found after the intake. Nothing recorded is changed: the
    additions are new rows, and their audit event names them with the files' hashes. A person bitten added to
    an incident of a bite starts the dog's rabies observation."""
    require_record_keeper(actor, incident.jurisdiction)
    if not evidence and not witnesses and not victims:
        raise InvalidInput("evidence", "add a file, a witness or a victim")
    _check_victims(incident.jurisdiction, victims)
    for index, witness in enumerate(witnesses):
        if not (witness.get("name") or "").strip():
            raise InvalidInput(f"witnesses[{index}].name", "a witness needs a name")
        check_lengths(Witness, {k: witness.get(k) for k in ("name", "contact")}, f"witnesses[{index}].")
        check_text(f"witnesses[{index}].statement", witness.get("statement") or "", STATEMENT_LIMIT)
    for index, (_upload, description) in enumerate(evidence):
        check_lengths(Evidence, {"description": description}, f"evidence[{index}].")
    at = at or now()
    with transaction.atomic():
        lock_city(incident.jurisdiction)
        if replayed(idempotency_key, actor=actor, act="add_to_incident") is not None:
            return incident
        stored = []
        for index, (upload, description) in enumerate(evidence):
            f = store(upload, f"evidence[{index}]", incident.jurisdiction, actor, at)
            Evidence.objects.create(incident=incident, file=f, description=description)
            stored.append(
                {"id": f.pk, "sha256": f.sha256, "name": f.original_name, "description": description}
            )
        for witness in witnesses:
            Witness.objects.create(
                incident=incident,
                name=witness["name"].strip(),
                contact=witness.get("contact", ""),
                statement=witness.get("statement", ""),
            )
        for victim in victims:
            Victim.objects.create(
                incident=incident,
                kind=victim["kind"],
                name=victim["name"].strip(),
                injury=victim["injury"],
                conduct=victim.get("conduct", ""),
            )
        parts = [f"{len(stored)} file(s)"] if stored else []
        parts += [f"witness {w['name'].strip()}" for w in witnesses]
        parts += [f"victim {v['name'].strip()}" for v in victims]
        data = {"id": incident.pk, "evidence": stored, "witnesses": [dict(w) for w in witnesses]}
        if victims:
            data["victims"] = [dict(v) for v in victims]
        record_event(
            actor=actor,
            jurisdiction=incident.jurisdiction,
            act="add_to_incident",
            summary=f"Added to incident {incident.number}: {', '.join(parts)}"[:500],
            data=data,
            at=at,
            key=idempotency_key,
        )
        if victims:
            start_observations(incident, actor=actor, at=at)
    return incident


def _check_victims(jurisdiction: str, victims: list[Mapping[str, Any]]) -> None:
    j = library().get(jurisdiction)
    for index, victim in enumerate(victims):
        for name, field in (("kind", vocabulary.VICTIM_KIND), ("injury", vocabulary.INJURY)):
            if problem := field.problem(j.facts, victim.get(name)):
                raise InvalidInput(f"victims[{index}].{name}", problem)
        if not (victim.get("name") or "").strip():
            raise InvalidInput(f"victims[{index}].name", "name the person, or describe the animal")
        check_lengths(
            Victim, {k: victim.get(k) for k in ("name", "conduct", "kind", "injury")}, f"victims[{index}]."
        )


def next_number(model, stem: str) -> str:
    """The next number after `stem` ("BL-2026-"): one past the highest already given, whichever jurisdiction
    id holds it (a pack renamed keeps its prefix, and its old numbers are not given again). Runs under the
    city's chain lock, so two acts never draw the same number."""
    last = (
        model.objects.filter(number__startswith=stem)
        .annotate(width=Length("number"))
        .order_by("-width", "-number")  # BL-2026-10000 after BL-2026-9999
        .values_list("number", flat=True)
        .first()
    )
    tail = last.removeprefix(stem) if last else "0"
    return f"{stem}{(int(tail) if tail.isdecimal() else 0) + 1:04d}"


def open_case(
    *, incident: Incident, dog: Dog, actor, idempotency_key: str | None = None, at: dt.datetime | None = None
) -> Case:
    """Open a case for one dog of an incident. The event keeps the classification the facts supported under
    the law in force on the incident date, so the case shows what the officer saw when deciding."""
    require_city(actor, incident.jurisdiction)
    if not staff_roles(actor) & RECORD_KEEPERS:
        raise Refused(
            "Open a case",
            [{"reason": "Your role may not open cases.", "citation": "", "code": "not_empowered"}],
        )
    if not incident.dogs.filter(pk=dog.pk).exists():
        raise InvalidInput("dog", "the dog is not named in this incident")
    j = library().get(incident.jurisdiction)
    incident_date = timezone.localtime(incident.occurred_at).date()
    from_record = record_facts(
        dog,
        vocabulary=j.facts,
        incident_day=incident_date,
        bite_on_person_now=bites_on_a_person(incident.facts, incident.victims.all()),
        exclude_incident=incident,
    )
    facts = {**j.facts.parse(dict(incident.facts)), **{f.fact: f.value for f in from_record}}
    classification = j.classify(facts, incident_date).as_dict()
    at = at or now()
    with transaction.atomic():
        lock_city(incident.jurisdiction)
        replay = replayed(idempotency_key, actor=actor, act="open_case")
        if replay is not None:
            return Case.objects.get(pk=replay.data["id"])
        if Case.objects.filter(incident=incident, dog=dog, status=Case.Status.OPEN).exists():
            raise InvalidInput("dog", f"{dog} already has an open case for this incident")
        case = Case.objects.create(
            jurisdiction=incident.jurisdiction,
            number=next_number(Case, f"{j.pack.case_prefix}-{timezone.localtime(at).year}-"),
            dog=dog,
            incident=incident,
            opened_at=at,
            opened_by=actor,
            updated_at=at,
            stage="Case opened",
        )
        summary_bits = [
            f"{d['label']}: {d['status'].replace('_', ' ')}" for d in classification.get("designations", [])
        ]
        record_event(
            actor=actor,
            jurisdiction=incident.jurisdiction,
            act="open_case",
            summary=f"Opened case {case.number} for {dog.name} (incident {incident.number})"
            + (f" — {'; '.join(summary_bits)}" if summary_bits else ""),
            data={
                "id": case.pk,
                "number": case.number,
                "incident": incident.pk,
                "dog": dog.pk,
                "classification": classification,
                "record_facts": [f.as_dict() for f in from_record],
            },
            at=at,
            case=case,
            key=idempotency_key,
        )
        recompute_obligations(case, at=at)
        observation = RabiesObservation.objects.filter(incident=incident, dog=dog).first()
        if observation is not None:
            observation_obligation(observation, case, at=at)
    return case
