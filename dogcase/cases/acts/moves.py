"""A dog that moves to another city or county (347.52 (c); § 90.15 (M)).

The step that records the owner's notice of a move names where the dog went in its `jurisdiction` input: a city
or county this deployment serves (its pack id) or `elsewhere`, with its name written beside it. Where the
deployment serves it and the input `carries:` the case's designation, the case goes with the dog: a case is
opened there with the designation, the dog, its owner at the new address and the incident as the first city
recorded it (`hand_over`), linked to the case it left (`CaseMove`), whose history and documents its staff read
from there. What follows is that city's law. The documents of the step (the letter to the new jurisdiction's
animal control authority) are issued either way.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.utils import timezone

from dogcase.cases.acts.core import InvalidInput, lock_city
from dogcase.cases.acts.obligations import recompute_obligations
from dogcase.cases.acts.records import DOG_FIELDS, next_number
from dogcase.cases.audit import append_event
from dogcase.cases.models import Case, CaseMove, Dog, Event, Incident, Ownership, Person, Victim
from dogcase.law import ELSEWHERE, InputError, library

ELSEWHERE_LABEL = "Another city or county (write its name below)"


def served_places(exclude: str = "") -> list[tuple[str, str]]:
    """The cities and counties this deployment serves, (id, name) in name order, but `exclude`."""
    lib = library()
    return sorted(
        ((jid, j.name) for jid, j in lib.jurisdictions.items() if j.pack.kind != "state" and jid != exclude),
        key=lambda p: p[1],
    )


def destination_choices(case: Case) -> list[dict[str, str]]:
    """What a `jurisdiction` input offers on this case: the other cities served, then any other place."""
    return [{"value": jid, "label": name} for jid, name in served_places(case.jurisdiction)] + [
        {"value": ELSEWHERE, "label": ELSEWHERE_LABEL}
    ]


def jurisdiction_input(step):
    return next((i for i in step.inputs if i.kind == "jurisdiction"), None)


def check_destination(j, step_id: str, state, case: Case, inputs: Mapping[str, Any], at: dt.datetime) -> None:
    """The place a move names is one the form offers; a place not served is named (its name is printed on the
    letter to its animal control authority). Raises InvalidInput naming the field."""
    try:
        step = j.case_step(step_id, state, at)
    except InputError:
        return  # an unknown step: the engine refuses it with its own words
    inp = jurisdiction_input(step)
    if inp is None or not isinstance(inputs, Mapping):
        return
    value = str(inputs.get(inp.id) or "").strip()
    if not value:
        return  # the engine says it is required
    if value == case.jurisdiction:
        raise InvalidInput(
            inp.id,
            "the dog stays in this city: a move within it is a new address on the dog's and the owner's pages, "
            "not a move to another jurisdiction",
        )
    served = dict(served_places(case.jurisdiction))
    if value != ELSEWHERE and value not in served:
        names = "; ".join([*served.values(), ELSEWHERE_LABEL])
        raise InvalidInput(inp.id, f"choose one of the places offered: {names}")
    limit = Person._meta.get_field("street").max_length
    if value != ELSEWHERE and len(str(inputs.get("new_address") or "").strip()) > limit:
        # the owner is recorded there at this address (hand_over): never cut
        raise InvalidInput(
            "new_address", f"at most {limit} characters: the owner's address there is kept whole"
        )
    if value == ELSEWHERE and not str(inputs.get("destination_name") or "").strip():
        raise InvalidInput(
            "destination_name", "name the city or county the dog moved to (it is not in the list)"
        )


def destination_words(inputs: Mapping[str, Any], step=None) -> str | None:
    """Where the dog moved, in words: the served city's name, or the name written for another place."""
    inp = jurisdiction_input(step) if step is not None else None
    value = str((inputs or {}).get(inp.id if inp is not None else "destination") or "")
    if not value:
        return None
    if value == ELSEWHERE:
        return str(inputs.get("destination_name") or "").strip() or None
    j = library().jurisdictions.get(value)
    return j.name if j is not None else value


def hand_over(
    case: Case, step, cleaned: Mapping[str, Any], event: Event, at: dt.datetime, actor
) -> Case | None:
    """Open the case where the dog went when the move names a city served here and the step carries the case's
    designation, in effect, there; None otherwise (a place not served, a designation the law does not send on
    or no longer in effect, a case already handed over). Runs in the act's transaction."""
    inp = jurisdiction_input(step)
    if inp is None or not case.designation or case.designation not in inp.carries:
        return None
    if not case.designation_in_effect:  # rescinded, or ended on review: nothing to register there
        return None
    destination = str(cleaned.get(inp.id) or "")
    if destination in ("", ELSEWHERE, case.jurisdiction) or destination not in library().jurisdictions:
        return None
    if CaseMove.objects.filter(from_case=case).exists():
        return None
    source_j, j = library().get(case.jurisdiction), library().get(destination)
    if case.designation not in j.designations:
        return None
    moved_on = cleaned.get("moved_on") or timezone.localtime(at).date()
    new_address = str(cleaned.get("new_address") or "")
    lock_city(destination)
    source = f"moved here from {source_j.name} (case {case.number})"
    dog, new_dog = _dog_there(case.dog, destination, at)
    owners = _owners_there(case, destination, new_address, at, (dog, new_dog), event, source)
    if new_dog:  # the records as the city's intake writes them, each with its event (ops/integrity.py)
        _record(
            event,
            jurisdiction=destination,
            act="record_dog",
            summary=f"Recorded dog {dog.description}, {source}"[:500],
            data={
                "id": dog.pk,
                **{f: getattr(dog, f) for f in DOG_FIELDS},
                "owners": [p.pk for p in owners],
                "premises": None,
                "photo": None,
            },
            at=at,
        )
    incident = _incident_there(case.incident, destination, j, at, source_j.name, dog)
    _record(
        event,
        jurisdiction=destination,
        act="record_incident",
        summary=f"Recorded incident {incident.number}, {source}"[:500],
        data={
            "id": incident.pk,
            "number": incident.number,
            "occurred_at": incident.occurred_at.isoformat(),
            "place": incident.place,
            "place_type": incident.place_type,
            "kind": incident.kind,
            "dogs": [dog.pk],
            "facts": incident.facts,
            "victims": [
                {"kind": v.kind, "name": v.name, "injury": v.injury, "conduct": v.conduct}
                for v in incident.victims.all()
            ],
            "witnesses": [],
            "evidence": [],
            "moved_from": case.incident.number,
        },
        at=at,
    )
    year = timezone.localtime(at).year
    moved = Case.objects.create(
        jurisdiction=destination,
        number=next_number(Case, f"{j.pack.case_prefix}-{year}-"),
        dog=dog,
        incident=incident,
        designation=case.designation,
        designation_in_effect=True,
        opened_at=at,
        opened_by=actor,
        updated_at=at,
        stage=f"Moved here from {source_j.name}",
    )
    CaseMove.objects.create(from_case=case, to_case=moved, event=event, moved_on=moved_on, at=at)
    provision = step_cite(j, inp.carries_provision, at) or step_cite(source_j, inp.carries_provision, at)
    designation = j.designations[case.designation].label.lower()
    _record(
        event,
        jurisdiction=destination,
        act="open_case",
        summary=(
            f"Opened case {moved.number}: {dog.name}, declared a {designation} in {source_j.name} (case "
            f"{case.number}), moved here on {moved_on:%-d %B %Y}"
        )[:500],
        data={
            "id": moved.pk,
            "number": moved.number,
            "from_case": case.number,
            "from_city": case.jurisdiction,
            "designation": case.designation,
            "moved_on": moved_on.isoformat(),
            "dog": dog.pk,
            "owners": [p.pk for p in owners],
            "incident": incident.pk,
            "provision": provision,
            # how the case was opened: with its designation, not as a new case is (ops/integrity.py)
            "opened_as": {
                "designation": moved.designation,
                "designation_in_effect": moved.designation_in_effect,
                "stage": moved.stage,
            },
        },
        at=at,
        case=moved,
        citation=(provision or {}).get("citation", ""),
    )
    _record(
        event,
        jurisdiction=case.jurisdiction,
        act="case_moved_away",
        summary=f"The case goes on in {j.name} as case {moved.number}, where the dog moved"[:500],
        data={"to_case": moved.number, "to_city": destination, "event": event.seq, "provision": provision},
        at=at,
        case=case,
        citation=(provision or {}).get("citation", ""),
    )
    recompute_obligations(moved, at=at, actor=actor)
    return moved


def _record(move: Event, **fields) -> Event:
    """A record event of the hand-over, by whoever recorded the move (a member of staff, or the owner's own
    notice from the portal)."""
    return append_event(
        actor=move.actor,
        actor_name=move.actor_name,
        actor_roles=move.actor_roles,
        kind=Event.Kind.RECORD,
        **fields,
    )


def step_cite(j, key: str | None, at: dt.datetime) -> dict[str, Any] | None:
    if not key:
        return None
    return j.provision_cite(key, timezone.localtime(at).date())


def _dog_there(dog: Dog, destination: str, at: dt.datetime) -> tuple[Dog, bool]:
    """The dog as the city it went to records it: the dog it already has with the same microchip, or a copy."""
    if dog.microchip_number:
        known = Dog.objects.filter(microchip_number=dog.microchip_number, jurisdiction=destination).first()
        if known is not None:
            return known, False
    # what the dog is, not what the city it left gave it (its licence there)
    fields = [f for f in DOG_FIELDS if f != "licence_number"]
    return Dog.objects.create(
        jurisdiction=destination, created_at=at, **{f: getattr(dog, f) for f in fields}
    ), True


def _owners_there(
    case: Case,
    destination: str,
    new_address: str,
    at: dt.datetime,
    there_dog: tuple[Dog, bool],
    move: Event,
    source: str,
) -> list[Person]:
    """The dog's current owners, recorded in the city it went to at the address where it now lives (the dog
    the city already records gets them as added owners), each with its event."""
    dog, new_dog = there_dog
    day = timezone.localtime(at).date()
    current = [
        o.person
        for o in case.dog.ownerships.select_related("person").order_by("since", "id")
        if o.until is None or o.until >= day
    ]
    out = []
    for person in current:
        known = (
            dog.ownerships.select_related("person")
            .filter(person__full_name=person.full_name, until__isnull=True)
            .first()
        )
        if known is not None:  # the dog the city already records, with this owner
            out.append(known.person)
            continue
        fields = {
            "full_name": person.full_name,
            "phone": person.phone,
            "email": person.email,
            "street": new_address,  # check_destination holds it to the column's length
            "city_name": "",
            "state": "",
            "postal_code": "",
            "preferred_language": person.preferred_language,
        }
        there = Person.objects.create(jurisdiction=destination, created_at=at, **fields)
        _record(
            move,
            jurisdiction=destination,
            act="record_person",
            summary=f"Recorded person {there.full_name}, {source}"[:500],
            data={"id": there.pk, **fields},
            at=at,
        )
        if not new_dog:  # the dog the city already records: an owner added, as its page adds one
            Ownership.objects.create(dog=dog, person=there, since=day)
            _record(
                move,
                jurisdiction=destination,
                act="add_owner",
                summary=f"{there.full_name} added as an owner of {dog.name}, {source}"[:500],
                data={"dog": dog.pk, "person": there.pk, "since": day.isoformat(), "reason": source},
                at=at,
            )
        else:
            Ownership.objects.create(dog=dog, person=there, since=day)
        out.append(there)
    return out


def _incident_there(
    incident: Incident, destination: str, j, at: dt.datetime, source_name: str, dog: Dog
) -> Incident:
    """The incident the designation rests on, as the first city recorded it, numbered in the city it went to."""
    copy = Incident.objects.create(
        jurisdiction=destination,
        number=next_number(Incident, f"{j.pack.case_prefix}-I{timezone.localtime(at).year}-"),
        occurred_at=incident.occurred_at,
        place=incident.place,
        place_type=incident.place_type,
        kind=incident.kind,
        narrative=(
            f"Recorded in {source_name} as incident {incident.number}."
            + (f"\n\n{incident.narrative}" if incident.narrative else "")
        ),
        facts=incident.facts,
        reported_by=incident.reported_by,
        created_at=at,
    )
    copy.dogs.set([dog])
    for v in incident.victims.all():
        Victim.objects.create(incident=copy, kind=v.kind, name=v.name, injury=v.injury, conduct=v.conduct)
    return copy
