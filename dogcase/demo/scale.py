"""A statewide data set for the scale benchmarks: `manage.py seed_scale --dogs N --incidents N --cases N`.

The records (people, premises, dogs, ownerships, incidents with their victims) are written in bulk — they are
the background a city searches and lists, and a million `record_dog` calls would take hours. One audit event
per city records the load (its seed and counts). The cases, which carry the law, are written through the
legal-act functions (`acts.open_case`, then `acts.take_step` for each step of a demo story), so each has its
real audit events, clocks and obligations: the stories of `demo/`, both cities, every stage, each
moved back a random number of days so that deadlines fall due across the calendar.

Everything is drawn from one `random.Random(seed)`: the same seed gives the same records, the same stories
and the same stages (dates are relative to the day it runs, as in the demo data).
"""

from __future__ import annotations

import datetime as dt
import multiprocessing as mp
import os
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import connection, connections, transaction
from django.utils import timezone

from dogcase import demo
from dogcase.cases import acts
from dogcase.cases.audit import append_event, jsonable
from dogcase.cases.models import (
    Case,
    CityAccess,
    Dog,
    Event,
    Incident,
    Ownership,
    Person,
    Premises,
    Victim,
)
from dogcase.cases.roles import ROLES
from dogcase.demo import dates
from dogcase.demo.offices import appoint_by_role
from dogcase.law import library

# The shipped cities whose procedures the demo stories walk through, stage by stage.
CITIES: tuple[str, ...] = tuple(demo.STORIES)
TOWN = {"battle-lake-mn": ("Battle Lake", "56515"), "tracy-mn": ("Tracy", "56175")}
MAX_SHIFT_DAYS = 60

FIRST_NAMES = (
    "Anna Bjorn Carl Dana Erik Freya Gus Hanna Ivar Jana Karl Lena Mats Nora Olaf Petra Quinn Rolf Siri Tor "
    "Ulla Vera Walt Xena Yngve Zoe Ada Ben Cora Dale Ella Finn Greta Hal Iris Jon Kari Lars Maja Nils"
).split()
SURNAMES = (
    "Aamodt Berg Dahl Evenson Fjeld Halvorsen Johnson Knutson Lindqvist Moen Nygaard Olson Peterson Quale "
    "Rud Solberg Tangen Ulvestad Vik Wold Anderson Brekke Carlson Dokken Engen Foss Gunderson Hagen Iverson "
    "Jensen Kvale Larson Mikkelsen Nelson Ostby Paulson Rasmussen Strand Thompson Vang Poppe DeSmet Hennen "
    "Vander Buysse Coudron Larsen Holm Vos Reinke"
).split()
DOG_NAMES = (
    "Bella Max Luna Charlie Lucy Cooper Bailey Daisy Sadie Rocky Bear Duke Molly Tucker Buddy Maggie Zeus "
    "Roxy Thor Kona Bruno Sasha Odin Lady Diesel Tank Brutus Buster Rex Ginger Pepper Scout Willow Ranger "
    "Koda Nala Moose Otis Penny Rosie Jack Lola Milo Finn Ruby Hank Winston Gus Tilly"
).split()
BREEDS = (
    "Labrador retriever",
    "German shepherd",
    "Golden retriever",
    "Rottweiler",
    "Beagle",
    "Boxer",
    "Husky",
    "Pit bull terrier mix",
    "Border collie",
    "Dachshund",
    "Mixed breed",
    "Akita",
)
COLOURS = ("black", "brown", "white", "tan", "brindle", "black and tan", "grey", "fawn", "red")
STREETS = (
    "Lake Avenue",
    "Main Street",
    "Summit Street",
    "Olaf Street",
    "Broadway",
    "Pine Street",
    "Oak Street",
    "Birch Lane",
    "Morgan Street",
    "State Street",
    "Hollinger Street",
    "5th Street",
)


class SeedError(Exception):
    """The data set cannot be built as asked; nothing was written."""


@dataclass
class ScaleReport:
    seed: int
    counts: dict[str, int] = field(default_factory=dict)
    stages: Counter = field(default_factory=Counter)
    seconds: dict[str, float] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "counts": self.counts,
            "stages": dict(sorted(self.stages.items())),
            "seconds": {k: round(v, 2) for k, v in self.seconds.items()},
        }


@dataclass(frozen=True)
class CasePlan:
    city: str
    story: demo.Story
    shift: int  # days the story is moved back
    dog_id: int


def _stays(story) -> bool:
    return not any(inputs.get("destination") in demo.STORIES for _step, _who, _days, inputs in story.steps)


def staff_users() -> dict[str, Any]:
    """One user per role (the demo usernames), working for every seeded city; created when missing. Their
    password is DOGCASE_DEMO_PASSWORD when set, else unusable (the benchmarks log in without one)."""
    password = os.getenv("DOGCASE_DEMO_PASSWORD")
    User = get_user_model()
    users = {}
    with transaction.atomic():
        for role in ROLES:
            group, _ = Group.objects.get_or_create(name=role.group)
            user, created = User.objects.get_or_create(username=role.demo_username)
            if created or password:
                is_admin = role.group == "administrator"
                user.is_staff = user.is_superuser = is_admin
                if password:
                    user.set_password(password)
                else:
                    user.set_unusable_password()
                user.save()
            user.groups.add(group)
            for city in CITIES:
                CityAccess.objects.get_or_create(user=user, jurisdiction=city)
            appoint_by_role(user, CITIES)
            users[role.demo_username] = user
    return users


def seed_scale(
    *,
    dogs: int,
    incidents: int,
    cases: int,
    seed: int = 1,
    sweep: bool = True,
    batch: int = 5000,
    workers: int = 1,
    out=None,
) -> ScaleReport:
    """Build the data set into an empty database (users may exist; records may not). `workers` > 1 plays the
    cases in that many processes (PostgreSQL only)."""
    for name, value in (("dogs", dogs), ("incidents", incidents), ("cases", cases)):
        if value < 0:
            raise SeedError(f"--{name}: must be 0 or more")
    if cases > incidents:
        raise SeedError("--cases: at most one case per incident (give --incidents at least --cases)")
    if cases > dogs // len(CITIES):
        raise SeedError(f"--cases: each case needs its own dog (give --dogs at least {cases * len(CITIES)})")
    if incidents and not dogs:
        raise SeedError("--incidents: an incident needs a dog (give --dogs)")
    if workers < 1:
        raise SeedError("--workers: must be 1 or more")
    if workers > 1 and connection.vendor == "sqlite":
        raise SeedError("--workers: SQLite takes one writer at a time; give --workers 1")
    if Dog.objects.exists() or Incident.objects.exists() or Case.objects.exists():
        raise SeedError("the database already has records: seed_scale builds into an empty database")
    for city in CITIES:
        library().get(city)  # an uninstalled city is an error here, not a silent skip

    def say(text: str) -> None:
        if out is not None:
            out.write(text + "\n")
            out.flush()

    rng = random.Random(seed)  # noqa: S311 - reproducible sample data, not a secret
    report = ScaleReport(seed=seed)
    now = timezone.now()
    users = staff_users()

    started = time.perf_counter()
    dog_ids = _bulk_records(rng, dogs, now, batch, report, say)
    report.seconds["records"] = time.perf_counter() - started

    # the stories whose case stays in its city: a dog that moves with its case to another city served here adds
    # a dog, an owner, an incident and a case there that the counts asked for do not hold
    stories = {city: [st for st in make() if _stays(st)] for city, make in demo.STORIES.items()}
    plans = []
    for i in range(cases):
        city = CITIES[i % len(CITIES)]
        plans.append(CasePlan(city, rng.choice(stories[city]), rng.randint(0, MAX_SHIFT_DAYS), 0))
    # each case its own dog, drawn without replacement from its city's dogs
    by_city = Counter(p.city for p in plans)
    chosen = {city: iter(rng.sample(dog_ids[city], n)) for city, n in by_city.items()}
    plans = [CasePlan(p.city, p.story, p.shift, next(chosen[p.city])) for p in plans]

    started = time.perf_counter()
    case_incidents = _bulk_incidents(rng, incidents, plans, dog_ids, users["officer"], now, batch, report)
    report.seconds["incidents"] = time.perf_counter() - started
    say(f"seed_scale: incidents {report.counts['incidents']} ({report.seconds['incidents']:.1f} s)")
    with connection.cursor() as cursor:
        cursor.execute(
            "ANALYZE"
        )  # the planner's statistics of the bulk-loaded tables, before the acts query them

    with transaction.atomic():
        for city in CITIES:
            counts = {k: v for k, v in report.counts.items() if k.startswith(city)}
            append_event(
                at=now,
                jurisdiction=city,
                kind=Event.Kind.SYSTEM,
                act="seed_scale",
                summary=f"Loaded a generated data set (seed {seed}): "
                + ", ".join(f"{v} {k.split(':')[1]}" for k, v in counts.items()),
                data={"seed": seed, "counts": {k.split(":")[1]: v for k, v in counts.items()}},
            )

    started = time.perf_counter()
    jobs = list(zip(plans, case_incidents, strict=True))
    step = max(1, cases // 10)
    done = 0
    for stages in _play_all(jobs, users, workers):
        report.stages.update(stages)
        before, done = done, done + len(stages)
        if done // step > before // step:
            rate = done / (time.perf_counter() - started)
            say(f"seed_scale: cases {done}/{cases} ({rate:.0f} cases/s)")
    report.seconds["cases"] = time.perf_counter() - started
    report.counts["cases"] = cases
    report.counts["events"] = Event.objects.count()

    if sweep:
        started = time.perf_counter()
        acts.sweep()
        report.seconds["sweep"] = time.perf_counter() - started
    return report


def _play_all(jobs: list[tuple[CasePlan, int]], users: dict[str, Any], workers: int):
    """Play the cases, yielding the stages reached, a case or a chunk at a time. With several workers
    (PostgreSQL), chunks are played in forked processes: the same cases and stages, but the order in which
    cases draw their numbers and events their sequence then varies from run to run."""
    if workers <= 1:
        for plan, incident_id in jobs:
            yield [f"{plan.city}: {play_case(plan, incident_id, users).stage}"]
        return
    connections.close_all()  # each forked worker opens its own
    chunks = [jobs[i : i + 25] for i in range(0, len(jobs), 25)]
    with mp.get_context("fork").Pool(workers) as pool:
        yield from pool.imap_unordered(_play_chunk, chunks)


def _play_chunk(jobs: list[tuple[CasePlan, int]]) -> list[str]:
    users = {
        u.username: u for u in get_user_model().objects.filter(username__in=[r.demo_username for r in ROLES])
    }
    try:
        return [f"{plan.city}: {play_case(plan, incident_id, users).stage}" for plan, incident_id in jobs]
    finally:
        connections.close_all()


def _ago(now: dt.datetime, rng: random.Random, max_days: int) -> dt.datetime:
    return now - dt.timedelta(days=rng.randint(1, max_days), minutes=rng.randint(0, 600))


def _bulk_records(rng, dogs: int, now, batch: int, report: ScaleReport, say) -> dict[str, list[int]]:
    """People, premises, dogs and ownerships, `batch` dogs at a time; returns each city's dog ids."""
    dog_ids: dict[str, list[int]] = {city: [] for city in CITIES}
    landlords: dict[str, list[Person]] = {}
    with transaction.atomic():
        for city in CITIES:
            town, zipcode = TOWN[city]
            landlords[city] = Person.objects.bulk_create(
                [
                    Person(
                        jurisdiction=city,
                        full_name=f"{rng.choice(SURNAMES)} Rentals LLC",
                        street=f"{rng.randint(1, 999)} {rng.choice(STREETS)}",
                        city_name=town,
                        postal_code=zipcode,
                        created_at=_ago(now, rng, 3000),
                    )
                    for _ in range(max(1, dogs // 400))
                ]
            )
    counts = Counter()
    for start in range(0, dogs, batch):
        people, premises, new_dogs, owner_of = [], [], [], []
        last_owner: dict[str, int] = {}
        for i in range(start, min(dogs, start + batch)):
            city = CITIES[i % len(CITIES)]
            town, zipcode = TOWN[city]
            created = _ago(now, rng, 1800)
            # a fifth of the dogs share a household with the city's dog before them in the batch
            if city in last_owner and rng.random() < 0.2:
                owner = last_owner[city]
            else:
                surname = rng.choice(SURNAMES)
                street = f"{rng.randint(1, 999)} {rng.choice(STREETS)}"
                people.append(
                    Person(
                        jurisdiction=city,
                        full_name=f"{rng.choice(FIRST_NAMES)} {surname}",
                        phone=f"218-555-{rng.randint(0, 9999):04d}",
                        street=street,
                        city_name=town,
                        postal_code=zipcode,
                        created_at=created,
                    )
                )
                rented = rng.random() < 0.25
                premises.append(
                    Premises(
                        jurisdiction=city,
                        street=street,
                        city_name=town,
                        postal_code=zipcode,
                        tenure=Premises.Tenure.RENTED if rented else Premises.Tenure.OWNED,
                        landlord=rng.choice(landlords[city]) if rented else None,
                        created_at=created,
                    )
                )
                owner = last_owner[city] = len(people) - 1
            new_dogs.append(
                Dog(
                    jurisdiction=city,
                    name=rng.choice(DOG_NAMES),
                    breed=rng.choice(BREEDS),
                    colour=rng.choice(COLOURS),
                    sex=rng.choice(("male", "female", "unknown")),
                    birth_year=rng.randint(2012, now.year),
                    licence_number=f"{city[:2].upper()}-{i + 1:07d}",
                    created_at=created,
                )
            )
            owner_of.append(owner)
        with transaction.atomic():
            Person.objects.bulk_create(people)
            Premises.objects.bulk_create(premises)
            # the premises of an owner are where their dogs are kept (people and premises are made in pairs)
            for d, owner in zip(new_dogs, owner_of, strict=True):
                d.premises = premises[owner]
            Dog.objects.bulk_create(new_dogs)
            Ownership.objects.bulk_create(
                [
                    Ownership(dog=d, person=people[owner], since=timezone.localtime(d.created_at).date())
                    for d, owner in zip(new_dogs, owner_of, strict=True)
                ]
            )
        for d in new_dogs:
            dog_ids[d.jurisdiction].append(d.pk)
            counts[f"{d.jurisdiction}:dogs"] += 1
        for p in people:
            counts[f"{p.jurisdiction}:people"] += 1
        for p in premises:
            counts[f"{p.jurisdiction}:premises"] += 1
        done = min(dogs, start + batch)
        if done % (batch * 20) == 0 or done == dogs:
            say(f"seed_scale: dogs {done}/{dogs}")
    for city, people in landlords.items():
        counts[f"{city}:people"] += len(people)
    report.counts.update(sorted(counts.items()))
    report.counts["dogs"] = dogs
    report.counts["people"] = sum(v for k, v in counts.items() if k.endswith(":people"))
    return dog_ids


# Incidents that open no case: a mix of what an animal control office records.
BACKGROUND_FACTS = (
    ("bite", demo.BITE, ("human", "minor")),
    ("attack", demo.SERIOUS, ("human", "substantial_bodily_harm")),
    ("chase_or_approach", demo.CHASE, ("human", "none")),
    ("bite", {**demo.BITE, "provoked": True}, ("human", "minor")),
    ("bite", {**demo.BITE, "place": "owner_property"}, ("human", "minor")),
)


def _bulk_incidents(rng, incidents: int, plans, dog_ids, officer, now, batch, report) -> list[int]:
    """The incidents (each with one dog and one victim); the first ones are the cases' incidents, timed as
    their stories say. Returns the case incidents' ids, in the order of `plans`."""
    parsed: dict[tuple[str, int], dict] = {}

    def facts_of(city: str, facts: dict) -> dict:
        key = (city, id(facts))
        if key not in parsed:
            parsed[key] = jsonable(library().get(city).facts.parse(dict(facts)))
        return parsed[key]

    numbers: Counter = Counter()
    prefixes = {city: library().get(city).pack.case_prefix for city in CITIES}
    case_ids: list[int] = []
    counts = Counter()

    def number(city: str, created: dt.datetime) -> str:
        stem = f"{prefixes[city]}-I{timezone.localtime(created).year}-"
        numbers[stem] += 1
        return f"{stem}{numbers[stem]:04d}"

    for start in range(0, incidents, batch):
        rows = []
        for i in range(start, min(incidents, start + batch)):
            if i < len(plans):
                plan = plans[i]
                city, dog_id, story = plan.city, plan.dog_id, plan.story
                days = story.incident["days"] + plan.shift
                occurred, created = dates.local(days, 8), dates.local(days, 9)
                kind, facts = story.incident["kind"], story.incident["facts"]
                victim = story.incident["victim"]
                place = story.incident["place"]
                narrative = story.incident["narrative"]
            else:
                city = CITIES[i % len(CITIES)]
                dog_id = rng.choice(dog_ids[city])
                occurred = _ago(now, rng, 1000)
                created = occurred + dt.timedelta(hours=1)
                kind, facts, (victim_kind, injury) = rng.choice(BACKGROUND_FACTS)
                victim = (f"{rng.choice(FIRST_NAMES)} {rng.choice(SURNAMES)}", victim_kind, injury)
                place = f"{rng.randint(1, 999)} {rng.choice(STREETS)}"
                narrative = "Reported by a neighbour."
            rows.append(
                (
                    Incident(
                        jurisdiction=city,
                        number=number(city, created),
                        occurred_at=occurred,
                        place=place,
                        place_type=facts["place"],
                        kind=kind,
                        narrative=narrative,
                        facts=facts_of(city, facts),
                        reported_by=officer,
                        created_at=created,
                    ),
                    dog_id,
                    victim,
                )
            )
        with transaction.atomic():
            made = Incident.objects.bulk_create([r[0] for r in rows])
            Incident.dogs.through.objects.bulk_create(
                [
                    Incident.dogs.through(incident_id=inc.pk, dog_id=dog)
                    for inc, (_, dog, _) in zip(made, rows, strict=True)
                ]
            )
            Victim.objects.bulk_create(
                [
                    Victim(incident=inc, kind=v[1], name=v[0], injury=v[2])
                    for inc, (_, _, v) in zip(made, rows, strict=True)
                ]
            )
        for offset, inc in enumerate(made):
            counts[f"{inc.jurisdiction}:incidents"] += 1
            if start + offset < len(plans):
                case_ids.append(inc.pk)
    report.counts.update(sorted(counts.items()))
    report.counts["incidents"] = incidents
    return case_ids


def shifted(value: Any, days: int) -> Any:
    """A story's date or date-time input (ISO text) moved `days` days back, at the same local time."""
    if not isinstance(value, str) or not value[:4].isdecimal():
        return value
    try:
        if "T" in value:
            local = timezone.localtime(dt.datetime.fromisoformat(value))
            moved = dt.datetime.combine(
                local.date() - dt.timedelta(days=days), local.time().replace(tzinfo=None)
            )
            return timezone.make_aware(moved).isoformat()
        return (dt.date.fromisoformat(value) - dt.timedelta(days=days)).isoformat()
    except ValueError:
        return value


def play_case(plan: CasePlan, incident_id: int, users: dict[str, Any]) -> Case:
    """Open the case and take its story's steps, moved back `plan.shift` days, through the act functions."""
    incident = Incident.objects.get(pk=incident_id)
    dog = Dog.objects.get(pk=plan.dog_id)
    start = dates.local(plan.story.incident["days"] + plan.shift, 9)
    case = acts.open_case(incident=incident, dog=dog, actor=users["officer"], at=start)
    steps = [
        (sid, who, days + plan.shift, {k: shifted(v, plan.shift) for k, v in inputs.items()})
        for sid, who, days, inputs in plan.story.steps
    ]
    # the statewide data set records the acts; its notices are not rendered (a PDF per act would be most of
    # the seeding time): their contents are what the law requires, as the demo's documents contain
    for sid, who, days, inputs in steps:
        for room in range(1, HEARING_ROOMS + 1):
            try:
                case = demo.play_steps(case, [(sid, who, days, inputs)], users, issue_documents=False)
                break
            except acts.InvalidInput as exc:
                # thousands of stories moved back by random days: two hearings may fall in the same room at
                # the same hour, which the act refuses; this one is held in another room of the same building
                # (its date and hour, which later steps count from, stay as the story has them)
                place = next((k for k in inputs if "place" in k and isinstance(inputs[k], str)), None)
                if "already booked" not in exc.rule or place is None:
                    raise
                base = inputs[place].split(" (room ")[0]
                inputs = {**inputs, place: f"{base} (room {room + 1})"}
        else:
            raise RuntimeError(f"no free room for the hearing of case {case.number}")
    return case


HEARING_ROOMS = 200  # rooms tried for a hearing whose room is taken at its hour
