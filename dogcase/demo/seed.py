"""Seeding the demo: each city's stories played through the legal-act functions (`at=` in the past), the
demo users' names and the demo values of the city's offices."""

from __future__ import annotations

import datetime as dt
import zlib
from typing import Any

from django.contrib.auth import get_user_model

from dogcase.cases import acts
from dogcase.cases.models import Case, Incident
from dogcase.cases.observations import RabiesObservation
from dogcase.documents.models import CityOffice
from dogcase.law import library

from . import dates
from .battle_lake_stories import battle_lake
from .compliance import EXTRA, demo_fees, play_extra
from .story import ALL_CONDITIONS, HEARING_OFFICER, Story
from .tracy_stories import tracy

# What a deployed city supplies on its City settings page for its documents (documents.CityOffice): demo values,
# marked so.
DEMO_OFFICE = {
    "address": "City Hall (demo address: set the real one on the City settings page)",
    "telephone": "218-555-0150",
}
# The demo users' names, which documents print (who declared the dog, who decided).
DEMO_NAMES = {
    "officer": ("Dana", "Reiter"),
    "police": ("Chris", "Halvorsen"),
    "clerk": ("Kim", "Aasen"),
    "hearing": ("Ruth", "Aamodt"),
    "council": ("Lee", "Brandvold"),
}


STORIES = {"battle-lake-mn": battle_lake, "tracy-mn": tracy}


def load_demo(out=None) -> dict[str, int]:
    """Create the demo records of every city that has none yet; return how many cases each got."""
    users = {
        u.username: u
        for u in get_user_model().objects.filter(
            username__in=["officer", "police", "clerk", "hearing", "council", "admin"]
        )
    }
    for username, (first, last) in DEMO_NAMES.items():
        user = users.get(username)
        if user is not None and not user.first_name:
            user.first_name, user.last_name = first, last
            user.save(update_fields=["first_name", "last_name"])
    made: dict[str, int] = {}
    for city in STORIES:
        library().get(city)  # an unknown city is an error here, not a silent skip
    # the cities not seeded yet, read before any story is played: a story of one city may open a case in another
    # (a dog that moves with its case), and that city's own stories are still to be played; each city's offices
    # are filled first, for the letters one city writes to another
    pending = [city for city in STORIES if not Incident.objects.filter(jurisdiction=city).exists()]
    for city in pending:
        demo_offices(city)
        demo_fees(city, users.get("admin"))  # before the stories: the acts charge at the rates in force
    for city in pending:
        stories = STORIES[city]
        made[city] = 0
        for story in stories():
            play(city, story, users)
            made[city] += 1
        from dogcase.proofs.demo import demo_proofs

        demo_proofs(city, users)  # an owner's proof, reviewed and waiting (docs/proofs.md)
    if pending:
        from dogcase.demo.imports import demo_imports

        demo_imports(users)  # files brought in, checked, and one with a problem (docs/data.md)
    acts.sweep()
    if out is not None:
        for city, n in made.items():
            out.write(f"Demo data: {n} cases in {city}\n")
    return made


def demo_offices(city: str) -> None:
    """The demo values of what a city supplies on its City settings page, where it supplied nothing."""
    if CityOffice.objects.filter(jurisdiction=city).exists():
        return
    j = library().get(city)
    for office in [*(getattr(j, "offices", None) or {}), CityOffice.LETTERHEAD]:
        CityOffice.objects.get_or_create(jurisdiction=city, office=office, defaults=DEMO_OFFICE)


def play(city: str, story: Story, users: dict[str, Any]) -> Case:
    officer = users["officer"]
    inc = story.incident
    start = dates.local(inc["days"], 9)
    landlord = None
    if story.rented_from:
        landlord = acts.record_person(jurisdiction=city, actor=officer, full_name=story.rented_from, at=start)
    owner = acts.record_person(
        jurisdiction=city,
        actor=officer,
        full_name=story.owner,
        street=story.street,
        city_name="Battle Lake" if city == "battle-lake-mn" else "Tracy",
        postal_code="56515" if city == "battle-lake-mn" else "56175",
        phone=f"218-555-01{len(story.owner) % 100:02d}",
        preferred_language=story.owner_language,
        at=start,
    )
    premises = acts.record_premises(
        jurisdiction=city,
        actor=officer,
        street=story.street,
        city_name=owner.city_name,
        postal_code=owner.postal_code,
        tenure="rented" if landlord else "owned",
        landlord=landlord,
        at=start,
    )
    dog = acts.record_dog(
        jurisdiction=city, actor=officer, owners=[owner], premises=premises, at=start, **story.dog
    )
    victim_name, victim_kind, injury = inc["victim"]
    incident = acts.record_incident(
        jurisdiction=city,
        actor=officer,
        occurred_at=dates.local(inc["days"], 8),
        place=inc["place"],
        place_type=inc["facts"]["place"],
        kind=inc["kind"],
        dogs=[dog],
        facts=inc["facts"],
        narrative=inc["narrative"],
        victims=[{"kind": victim_kind, "name": victim_name, "injury": injury}],
        witnesses=[{"name": "Pat Reinke", "contact": "218-555-0199", "statement": "Saw it happen."}],
        at=start,
    )
    place_on_map(city, incident, premises, officer, start)
    case = acts.open_case(incident=incident, dog=dog, actor=officer, at=start)
    observe(incident, dog, users, inc["days"])
    return play_steps(case, story.steps, users)


# The demo's points (no geocoder is asked): around each town's centre, each address at a spot of its own.
TOWN_CENTRES = {"battle-lake-mn": (46.2808, -95.7139), "tracy-mn": (44.2333, -95.6192)}


def demo_point(city: str, text: str) -> tuple[str, str]:
    """A plausible point in the town for an address or place, the same on every run (within about 1 km)."""
    lat, lon = TOWN_CENTRES[city]
    mark = zlib.crc32(text.encode())
    return (
        f"{lat + ((mark % 1000) - 500) / 60000:.6f}",
        f"{lon + (((mark // 1000) % 1000) - 500) / 40000:.6f}",
    )


def place_on_map(city: str, incident: Incident, premises, officer, at: dt.datetime) -> None:
    """The incident where the officer's phone put it and the dog's home as if geocoded; one incident in
    seven is left without a point, as the map's list of records to place shows. A city whose town the demo does
    not know (another pack's stories) gets no points: the map lists its records as not placed yet."""
    if city not in TOWN_CENTRES:
        return
    if zlib.crc32(incident.place.encode()) % 7:
        lat, lon = demo_point(city, incident.place)
        acts.set_location(incident, actor=officer, latitude=lat, longitude=lon, source="phone", at=at)
    lat, lon = demo_point(city, premises.street)
    acts.set_location(
        premises, actor=officer, latitude=lat, longitude=lon, source="geocoded", detail="demo point", at=at
    )


def observe(incident: Incident, dog, users: dict[str, Any], days_ago: int) -> None:
    """The rabies observation a bite to a person started (the city's procedure): where the dog is held and its
    veterinarian recorded the afternoon of the bite; an observation whose last day has passed ended healthy on it,
    the others still under way."""
    obs = RabiesObservation.objects.filter(incident=incident, dog=dog).first()
    if obs is None or days_ago < 1:
        return
    keeper = next(u for u in (users["officer"], users["police"]) if acts.may_keep_observation(u, obs))
    values = {
        "held_at": "owner_home",
        "held_place": str(dog.premises or ""),
        "veterinarian": "Dr. Karin Aune (demo veterinarian)",
        "veterinarian_contact": "218-555-0177",
        "vaccination": "current",
    }
    acts.record_observation(obs, actor=keeper, values=values, at=dates.local(days_ago, 14))
    end = days_ago - obs.period_days
    if end >= 1:
        outcome = {"outcome": "healthy", "outcome_on": dates.d(end), "outcome_note": "Examined: healthy."}
        acts.record_observation(obs, actor=keeper, values=outcome, at=dates.local(end, 16))


def play_steps(case: Case, steps, users: dict[str, Any], *, issue_documents: bool = True) -> Case:
    """Take a story's steps on its case, each at 11:00 on its day (days ago): a step that issues documents
    issues them (`documents.acts.take_step`, filled from the demo records), as every step is taken. Without
    `issue_documents`, no document is rendered (`documents.acts.take_step_without_issuing`): the notices'
    contents are what the law requires (the statewide data set)."""
    from dogcase.documents import acts as document_acts

    if issue_documents:
        demo_offices(case.jurisdiction)
    for step_id, who, days, inputs in steps:
        at = dates.local(days, 11)
        if step_id in EXTRA:
            # money and proof, beside the law's steps; the statewide data set renders no receipt and keeps no
            # fee schedule (nothing is charged there)
            if issue_documents:
                case = play_extra(case, step_id, users[who], at, inputs, users)
            continue
        inputs = {k: str(users["hearing"].pk) if v == HEARING_OFFICER else v for k, v in inputs.items()}
        if inputs.get("proofs") == ALL_CONDITIONS:
            inputs = {**inputs, "proofs": conditions_of_registration(case, step_id, at)}
        if not issue_documents:
            # the statewide data set: no document rendered, the notices' contents as the law requires them
            inputs = with_complete_notices(case, step_id, at, inputs)
            case = document_acts.take_step_without_issuing(
                case, step_id, actor=users[who], inputs=inputs, expected_version=case.version, at=at
            ).case
            continue
        case = document_acts.take_step(
            case, step_id, actor=users[who], inputs=inputs, expected_version=case.version, at=at
        ).case
    return case


def conditions_of_registration(case: Case, step_id: str, at: dt.datetime) -> list[str]:
    """Every requirement the pack lists for this case's designation, all proven (the demo owner complied)."""
    j = library().get(case.jurisdiction)
    choices = j.input_choices(step_id, acts.case_state(case), at).get("proofs", [])
    return [c["value"] for c in choices]


def with_complete_notices(
    case: Case, step_id: str, at: dt.datetime, inputs: dict[str, Any]
) -> dict[str, Any]:
    """The inputs, with every notice-contents checklist the step has ticked in full (the demo city's notices
    contain every element the law requires) unless the inputs already answer it."""
    from dogcase.documents.acts import complete_notice_inputs

    return complete_notice_inputs(case, step_id, at, inputs)
