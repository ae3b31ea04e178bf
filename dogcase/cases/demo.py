"""Demo data: for each demo city, owners, dogs, incidents and cases at every stage of the procedure.

Everything is written through the legal-act functions (with `at=` in the past), so the demo cases carry real
audit events, real clocks and real obligations — some met, some open, some overdue — relative to today.
Idempotent: a city that already has incidents is left alone.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone

from dogcase.cases import acts
from dogcase.cases.models import Case, Incident
from dogcase.documents.models import CityOffice
from dogcase.law import library


@dataclass
class Story:
    """One demo case: who owns which dog, what happened, and the steps taken so far (days ago)."""

    owner: str
    street: str
    dog: dict[str, Any]
    incident: dict[str, Any]
    steps: list[tuple[str, str, float, dict[str, Any]]] = field(default_factory=list)
    rented_from: str | None = None
    owner_language: str = "en"  # the owner's language for letters (Person.preferred_language)


def _local(days_ago: float, hour: int = 10) -> dt.datetime:
    today = timezone.localdate()
    day = today - dt.timedelta(days=int(days_ago))
    minutes = int(round((days_ago - int(days_ago)) * 60 * 8))  # fractional days = minutes after the hour
    return timezone.make_aware(dt.datetime.combine(day, dt.time(hour, 0))) + dt.timedelta(minutes=minutes)


def d(days_ago: float) -> str:
    return _local(days_ago).date().isoformat()


def t(days_ago: float, hour: int = 10) -> str:
    return _local(days_ago, hour).isoformat()


BITE = {
    "bit": True,
    "attacked": True,
    "victim": "human",
    "injury": "minor",
    "place": "public",
    "provoked": False,
    "victim_conduct": [],
    "law_enforcement_dog": False,
    "aggressive": True,
}
SERIOUS = {**BITE, "injury": "substantial_bodily_harm"}
CHASE = {
    "bit": False,
    "attacked": False,
    "chased_or_approached": True,
    "apparent_attitude_of_attack": True,
    "victim": "human",
    "injury": "none",
    "place": "public",
    "provoked": False,
    "victim_conduct": [],
    "law_enforcement_dog": False,
}

# The demo officer's telephone, which a notice of declaration states (§ 90.15 (B)(2)(a)); 555 numbers are fictional.
DEMO_TELEPHONE = "218-555-0160"
# What a deployed city supplies in the admin for its documents (documents.CityOffice): demo values, marked so.
DEMO_OFFICE = {
    "address": "City Hall (demo address: set the real one in the admin)",
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

# Stands for "every condition the law puts on registration, proven": filled from the pack at play time.
ALL_CONDITIONS = "all conditions of registration"


# in a story's inputs: the demo's hearing officer (a user), designated to hold the hearing
HEARING_OFFICER = "@hearing"


def battle_lake() -> list[Story]:
    declare_d = (
        "declare",
        "officer",
        0,
        {
            "designation": "dangerous",
            "basis": "Unprovoked bite causing substantial bodily harm, see incident report.",
            "declarant_telephone": DEMO_TELEPHONE,
        },
    )
    declare_p = (
        "declare",
        "officer",
        0,
        {
            "designation": "potentially_dangerous",
            "basis": "Unprovoked bite on a person in a public place.",
            "declarant_telephone": DEMO_TELEPHONE,
        },
    )

    def at(step, days, **extra):
        sid, who, _, inputs = step
        return (sid, who, days, {**inputs, **extra})

    def serve(days, method="personal"):
        return (
            "serve_notice",
            "officer",
            days,
            {
                "served_on": d(days),
                "method": method,
                "served_owner": "the owner, at the door",
                "received_on": d(days),
            },
        )

    return [
        Story(
            owner="Maria Lindqvist",
            street="104 Lake Avenue S",
            dog={
                "name": "Bruno",
                "breed": "Rottweiler mix",
                "colour": "black and tan",
                "sex": "male",
                "birth_year": 2021,
            },
            incident={
                "days": 1,
                "place": "Glendalough trailhead parking lot",
                "kind": "bite",
                "facts": BITE,
                "victim": ("Jonas Berg", "human", "minor"),
                "narrative": "Dog ran off leash and bit a jogger on the calf.",
            },
            steps=[],
        ),
        Story(
            owner="Dale Okafor",
            street="22 Summit Street W",
            dog={
                "name": "Roxy",
                "breed": "Labrador retriever",
                "colour": "yellow",
                "sex": "female",
                "birth_year": 2020,
            },
            incident={
                "days": 4,
                "place": "Battle Lake public beach",
                "kind": "bite",
                "facts": BITE,
                "victim": ("Ellen Hart", "human", "minor"),
                "narrative": "Bit a child's hand at the public beach; child did not touch the dog.",
            },
            steps=[at(declare_p, 2)],
        ),
        Story(
            owner="Greta Halvorsen",
            street="310 Main Street N",
            dog={
                "name": "Duke",
                "breed": "German shepherd",
                "colour": "black and tan",
                "sex": "male",
                "birth_year": 2019,
                "microchip_manufacturer": "HomeAgain",
                "microchip_number": "985112003456789",
            },
            incident={
                "days": 12,
                "place": "Corner of Main Street and Lake Avenue",
                "kind": "attack",
                "facts": SERIOUS,
                "victim": ("Sam Olson", "human", "substantial_bodily_harm"),
                "narrative": "Attacked a mail carrier; stitches and a fractured finger.",
            },
            steps=[at(declare_d, 10), serve(8)],
        ),
        Story(
            owner="Peter Nygaard",
            owner_language="es",  # the owner reads Spanish: letters carry the Spanish explanation
            street="7 Bass Street",
            rented_from="Lakeview Rentals LLC",
            dog={
                "name": "Kona",
                "breed": "Husky",
                "colour": "grey and white",
                "sex": "female",
                "birth_year": 2022,
            },
            incident={
                "days": 20,
                "place": "Sidewalk outside 12 Bass Street",
                "kind": "bite",
                "facts": BITE,
                "victim": ("Ann Moe", "human", "minor"),
                "narrative": "Bit a neighbour walking by.",
            },
            steps=[
                at(declare_p, 18),
                serve(17),
                ("receive_hearing_request", "clerk", 10, {"received_on": d(10)}),
                (
                    "schedule_hearing",
                    "clerk",
                    9,
                    {
                        "hearing_at": t(-3, 14),
                        "place": "City Hall council chambers",
                        "hearing_officer": HEARING_OFFICER,
                    },
                ),
            ],
        ),
        Story(
            owner="Lars Evenson",
            street="55 Olaf Street",
            dog={
                "name": "Thor",
                "breed": "Cane corso",
                "colour": "brindle",
                "sex": "male",
                "birth_year": 2020,
            },
            incident={
                "days": 45,
                "place": "Battle Lake city park",
                "kind": "attack",
                "facts": SERIOUS,
                "victim": ("Karen Dahl", "human", "substantial_bodily_harm"),
                "narrative": "Attacked a woman at the park; hospital treatment.",
            },
            steps=[
                at(declare_d, 43),
                serve(42),
                ("receive_hearing_request", "clerk", 35, {"received_on": d(35)}),
                (
                    "schedule_hearing",
                    "clerk",
                    34,
                    {
                        "hearing_at": t(26, 14),
                        "place": "City Hall council chambers",
                        "hearing_officer": HEARING_OFFICER,
                    },
                ),
                ("hold_hearing", "hearing", 26, {"held_on": d(26), "owner_present": True}),
            ],
        ),
        Story(
            owner="Ingrid Solberg",
            street="401 Broadway",
            dog={"name": "Bear", "breed": "Akita", "colour": "white", "sex": "male", "birth_year": 2018},
            incident={
                "days": 70,
                "place": "Alley behind 400 Broadway",
                "kind": "attack",
                "facts": SERIOUS,
                "victim": ("Tom Vik", "human", "substantial_bodily_harm"),
                "narrative": "Attacked a man taking out trash.",
            },
            steps=[
                at(declare_d, 68),
                serve(67),
                ("receive_hearing_request", "clerk", 60, {"received_on": d(60)}),
                (
                    "schedule_hearing",
                    "clerk",
                    59,
                    {
                        "hearing_at": t(55, 14),
                        "place": "City Hall",
                        "hearing_officer": HEARING_OFFICER,
                    },
                ),
                ("hold_hearing", "hearing", 55, {"held_on": d(55), "owner_present": True}),
                (
                    "decide_appeal",
                    "hearing",
                    48,
                    {
                        "outcome": "upheld",
                        "reasons": "The bite was unprovoked and in a public place; the owner offered no evidence "
                        "that the dog was provoked.",
                        "method": "registered_mail",
                        "delivered_on": d(48),
                        "copy_to_authority": True,
                    },
                ),
                ("recommend", "hearing", 48, {"outcome": "confirm"}),
                ("confirm_or_rescind", "council", 40, {"outcome": "confirmed", "resolution": "Res. 2026-41"}),
            ],
        ),
        Story(
            owner="Nils Brekke",
            street="18 Pine Street",
            dog={
                "name": "Zeus",
                "breed": "Mastiff",
                "colour": "fawn",
                "sex": "male",
                "birth_year": 2019,
                "microchip_manufacturer": "AVID",
                "microchip_number": "977200009876543",
            },
            incident={
                "days": 120,
                "place": "Pine Street sidewalk",
                "kind": "attack",
                "facts": SERIOUS,
                "victim": ("Liv Haug", "human", "substantial_bodily_harm"),
                "narrative": "Attacked a cyclist.",
            },
            steps=[
                at(declare_d, 118),
                serve(117),
                (
                    "record_sterilization",
                    "officer",
                    100,
                    {"sterilized_on": d(100), "veterinarian": "Lakes Area Vet Clinic"},
                ),
                (
                    "issue_certificate",
                    "clerk",
                    95,
                    {"proofs": ALL_CONDITIONS, "number": "BL-DD-2026-01"},
                ),
                # (K): a later bite, the notice of the intended destruction, its hearing and the Council's decision
                (
                    "serve_destruction_notice",
                    "officer",
                    60,
                    {
                        "served_on": d(60),
                        "incident": "Two days before this notice, in the yard of 18 Pine Street, the dog bit a "
                        "visiting relative on the forearm without provocation; the wound needed stitches.",
                        "method": "personal service, at the door",
                        "received_on": d(60),
                    },
                ),
                ("receive_destruction_hearing_request", "clerk", 55, {"received_on": d(55)}),
                (
                    "schedule_destruction_hearing",
                    "clerk",
                    54,
                    {
                        "hearing_at": t(48, 14),
                        "place": "City Hall council chambers",
                        "hearing_officer": HEARING_OFFICER,
                        "mailed_on": d(54),
                    },
                ),
                ("hold_destruction_hearing", "hearing", 48, {"held_on": d(48), "owner_present": True}),
                (
                    "decide_destruction",
                    "hearing",
                    47,
                    {
                        "outcome": "not_appropriate",
                        "reasons": "The relative had entered the dog's kennel uninvited; the owner has since "
                        "added a locked gate.",
                    },
                ),
                (
                    "confirm_or_rescind_destruction",
                    "council",
                    40,
                    {"outcome": "rescinded", "resolution": "Res. 2026-52", "decided_on": d(40)},
                ),
            ],
        ),
        Story(
            owner="Erik Tangen",
            street="9 Holmes Street",
            dog={
                "name": "Max",
                "breed": "Pit bull terrier mix",
                "colour": "blue",
                "sex": "male",
                "birth_year": 2021,
            },
            incident={
                "days": 40,
                "place": "Holmes Street",
                "kind": "bite",
                "facts": BITE,
                "victim": ("Mia Strand", "human", "minor"),
                "narrative": "Bit a child through a fence gap while loose.",
            },
            steps=[
                at(declare_p, 38),
                serve(37),
                ("seize", "officer", 3, {"ground": "not_enclosed", "place": "9 Holmes Street"}),
            ],
        ),
        Story(
            owner="Hanna Rud",
            street="66 Lake Avenue N",
            dog={"name": "Lady", "breed": "Boxer", "colour": "brindle", "sex": "female", "birth_year": 2017},
            incident={
                "days": 60,
                "place": "Lake Avenue",
                "kind": "bite",
                "facts": BITE,
                "victim": ("Ole Fjeld", "human", "minor"),
                "narrative": "Nip while the victim reached over the fence.",
            },
            steps=[
                at(declare_p, 58),
                serve(57),
                ("receive_hearing_request", "clerk", 50, {"received_on": d(50)}),
                (
                    "schedule_hearing",
                    "clerk",
                    49,
                    {
                        "hearing_at": t(45, 14),
                        "place": "City Hall",
                        "hearing_officer": HEARING_OFFICER,
                    },
                ),
                ("hold_hearing", "hearing", 45, {"held_on": d(45), "owner_present": True}),
                (
                    "decide_appeal",
                    "hearing",
                    42,
                    {
                        "outcome": "rescinded",
                        "reasons": "The witness statements show the dog was teased through the fence before it "
                        "bit; the bite was provoked.",
                        "method": "hand_delivery",
                        "delivered_on": d(42),
                        "copy_to_authority": True,
                    },
                ),
                ("recommend", "hearing", 42, {"outcome": "rescind"}),
                ("confirm_or_rescind", "council", 30, {"outcome": "rescinded", "resolution": "Res. 2026-33"}),
            ],
        ),
        Story(
            owner="Astrid Moen",
            street="12 Oak Street",
            dog={
                "name": "Odin",
                "breed": "Dogo Argentino",
                "colour": "white",
                "sex": "male",
                "birth_year": 2017,
                "microchip_manufacturer": "HomeAgain",
                "microchip_number": "985112007654321",
            },
            incident={
                "days": 230,
                "place": "Oak Street",
                "kind": "attack",
                "facts": SERIOUS,
                "victim": ("Bjorn Lie", "human", "substantial_bodily_harm"),
                "narrative": "Attacked a delivery driver.",
            },
            steps=[
                at(declare_d, 228),
                serve(227),
                (
                    "record_sterilization",
                    "officer",
                    210,
                    {"sterilized_on": d(211), "veterinarian": "Lakes Area Vet Clinic"},
                ),
                ("issue_certificate", "clerk", 205, {"proofs": ALL_CONDITIONS, "number": "BL-DD-2026-02"}),
            ],
        ),
        Story(
            owner="Karl Ostby",
            street="3 Birch Lane",
            dog={"name": "Sasha", "breed": "Malinois", "colour": "fawn", "sex": "female", "birth_year": 2016},
            incident={
                "days": 90,
                "place": "Birch Lane",
                "kind": "bite",
                "facts": BITE,
                "victim": ("Eva Lund", "human", "minor"),
                "narrative": "Bit a neighbour's child on the arm.",
            },
            steps=[
                at(declare_p, 88),
                serve(87),
                ("record_death", "officer", 10, {"died_on": d(12)}),
            ],
        ),
    ]


def tracy() -> list[Story]:
    classify = (
        "classify",
        "clerk",
        0,
        {"designation": "vicious", "reasonable_cause": "Unprovoked bite on a person, witnessed."},
    )

    def at(step, days, **extra):
        sid, who, _, inputs = step
        return (sid, who, days, {**inputs, **extra})

    return [
        Story(
            owner="Jim Vander Wal",
            street="245 5th Street",
            dog={"name": "Rocky", "breed": "Chow chow", "colour": "red", "sex": "male", "birth_year": 2020},
            incident={
                "days": 3,
                "place": "Tracy Area High School parking lot",
                "kind": "bite",
                "facts": BITE,
                "victim": ("Beth Larsen", "human", "minor"),
                "narrative": "Bit a student in the school parking lot.",
            },
            steps=[
                at(classify, 2),
                ("notify_classification", "clerk", 1, {"sent_on": d(1), "certified_mail": True}),
            ],
        ),
        Story(
            owner="Unknown owner (tag: 'Buster')",
            street="Swift Lake Park",
            dog={"name": "Buster", "breed": "Shepherd mix", "colour": "brown", "sex": "male"},
            incident={
                "days": 2,
                "place": "Swift Lake Park",
                "kind": "chase_or_approach",
                "facts": CHASE,
                "victim": ("Gary Holm", "human", "none"),
                "narrative": "Chased a cyclist in an attitude of attack; owner not found.",
            },
            steps=[
                at(classify, 2),
                (
                    "post_notice_owner_not_located",
                    "clerk",
                    1,
                    {
                        "sent_on": d(1),
                        "method": "posting_on_owner_property",
                        "search": "Door-to-door along Swift Lake Park; no licence on file.",
                    },
                ),
                ("impound", "police", 1, {"ground": "owner_not_located", "place": "Swift Lake Park"}),
            ],
        ),
        Story(
            owner="Sandra Poppe",
            owner_language="es",  # the owner reads Spanish: letters carry the Spanish explanation
            street="512 Morgan Street",
            dog={
                "name": "Diesel",
                "breed": "Rottweiler",
                "colour": "black and tan",
                "sex": "male",
                "birth_year": 2019,
            },
            incident={
                "days": 12,
                "place": "Morgan Street sidewalk",
                "kind": "bite",
                "facts": BITE,
                "victim": ("Ray Buysse", "human", "minor"),
                "narrative": "Bit a passer-by.",
            },
            steps=[
                at(classify, 11),
                ("notify_classification", "clerk", 10, {"sent_on": d(10), "certified_mail": True}),
                ("receive_classification_appeal", "clerk", 8, {"received_on": d(8)}),
            ],
        ),
        Story(
            owner="Ken DeSmet",
            street="88 Hollinger Street",
            dog={
                "name": "Tank",
                "breed": "American bulldog",
                "colour": "white",
                "sex": "male",
                "birth_year": 2018,
            },
            incident={
                "days": 40,
                "place": "Hollinger Street",
                "kind": "attack",
                "facts": SERIOUS,
                "victim": ("Deb Coudron", "human", "substantial_bodily_harm"),
                "narrative": "Attacked a neighbour.",
            },
            steps=[
                at(classify, 38),
                ("notify_classification", "clerk", 37, {"sent_on": d(37), "certified_mail": True}),
                ("receive_classification_appeal", "clerk", 35, {"received_on": d(35)}),
                ("hold_classification_hearing", "council", 30, {"held_on": d(30)}),
                (
                    "decide_classification_appeal",
                    "council",
                    28,
                    {
                        "outcome": "upheld",
                        "reasons": "The dog attacked a person without provocation (Subd 2).",
                        "notified_on": d(28),
                    },
                ),
            ],
        ),
        Story(
            owner="Marv Hennen",
            street="301 State Street",
            dog={
                "name": "Brutus",
                "breed": "Presa Canario",
                "colour": "black",
                "sex": "male",
                "birth_year": 2019,
            },
            incident={
                "days": 50,
                "place": "State Street",
                "kind": "attack",
                "facts": SERIOUS,
                "victim": ("Al Vos", "human", "substantial_bodily_harm"),
                "narrative": "Attacked a man walking his dog.",
            },
            steps=[
                at(classify, 48),
                ("notify_classification", "clerk", 47, {"sent_on": d(47), "certified_mail": True}),
                (
                    "order_impoundment",
                    "council",
                    20,
                    {"ground": "no_insurance_proof", "resolution": "Council motion 2026-17"},
                ),
                ("impound", "police", 19, {"place": "301 State Street"}),
                ("notify_impoundment", "clerk", 18, {"sent_on": d(18), "certified_mail": True}),
                ("receive_impoundment_appeal", "clerk", 16, {"received_on": d(16)}),
                ("hold_impoundment_hearing", "council", 14, {"held_on": d(14), "outcome": "appeared"}),
                (
                    "decide_impoundment",
                    "council",
                    13,
                    {
                        "outcome": "release_conditionally",
                        "conditions": "The owner meets every requirement of Subd 5 for keeping a vicious dog "
                        "before the dog is released.",
                        "notified_on": d(13),
                    },
                ),
            ],
        ),
        # The state's law in Tracy (Minn. Stat. 347.565): a dog declared dangerous under 347.50, its notice under
        # 347.541 subd. 3, the owner's hearing and the hearing officer's decision (subd. 4), then a later attack
        # and the notice of intended destruction under 347.56.
        Story(
            owner="Lorna Buysse",
            street="140 Rowe Street",
            dog={"name": "Ranger", "breed": "Akita", "colour": "brindle", "sex": "male", "birth_year": 2019},
            incident={
                "days": 45,
                "place": "Rowe Street, in front of the post office",
                "kind": "attack",
                "facts": SERIOUS,
                "victim": ("Dale Vos", "human", "substantial_bodily_harm"),
                "narrative": "Ran from an open car and bit a man on the arm; the wound needed surgery.",
            },
            steps=[
                (
                    "declare",
                    "officer",
                    44,
                    {
                        "designation": "dangerous",
                        "basis": "Without provocation inflicted substantial bodily harm on a person, Minn. Stat. "
                        "347.50, subd. 2(1).",
                        "declarant_telephone": "507-629-5560",
                        "declared_on": d(44),
                    },
                ),
                (
                    "serve_notice",
                    "officer",
                    43,
                    {"served_on": d(43), "method": "personal", "received_on": d(43)},
                ),
                ("receive_hearing_request", "officer", 40, {"received_on": d(40)}),
                ("hold_hearing", "hearing", 30, {"held_on": d(30)}),
                (
                    "decide_appeal",
                    "hearing",
                    28,
                    {
                        "outcome": "upheld",
                        "reasons": "The dog bit without provocation and the wound needed surgery: substantial "
                        "bodily harm under 347.50, subd. 2(1).",
                        "method": "hand_delivery",
                        "delivered_on": d(28),
                    },
                ),
                (
                    "record_sterilization",
                    "officer",
                    20,
                    {
                        "sterilized_on": d(21),
                        "veterinarian": "Dr. Anna Koster, Tracy Veterinary Clinic, 250 Craig Avenue, Tracy; "
                        "507-629-4550",
                    },
                ),
                (
                    "serve_destruction_notice",
                    "officer",
                    12,
                    {
                        "served_on": d(12),
                        "incident": "Three days before this notice, on Rowe Street, the dog attacked a second "
                        "person without provocation and inflicted substantial bodily harm.",
                        "method": "personal service, at the door",
                    },
                ),
                ("receive_destruction_hearing_request", "officer", 10, {"received_on": d(10)}),
                ("hold_destruction_hearing", "hearing", 4, {"held_on": d(4)}),
                (
                    "decide_destruction",
                    "hearing",
                    3,
                    {
                        "outcome": "not_appropriate",
                        "reasons": "The second person had climbed into the fenced yard; the owner has since "
                        "locked the gate and completed a training course with the dog.",
                    },
                ),
            ],
        ),
    ]


STORIES = {"battle-lake-mn": battle_lake, "tracy-mn": tracy}


def load_demo(out=None) -> dict[str, int]:
    """Create the demo records of every city that has none yet; return how many cases each got."""
    users = {
        u.username: u
        for u in get_user_model().objects.filter(
            username__in=["officer", "police", "clerk", "hearing", "council"]
        )
    }
    for username, (first, last) in DEMO_NAMES.items():
        user = users.get(username)
        if user is not None and not user.first_name:
            user.first_name, user.last_name = first, last
            user.save(update_fields=["first_name", "last_name"])
    made: dict[str, int] = {}
    for city, stories in STORIES.items():
        library().get(city)  # an unknown city is an error here, not a silent skip
        if Incident.objects.filter(jurisdiction=city).exists():
            continue
        demo_offices(city)
        made[city] = 0
        for story in stories():
            play(city, story, users)
            made[city] += 1
        from dogcase.proofs.demo import demo_proofs

        demo_proofs(city, users)  # an owner's proof, reviewed and waiting (docs/proofs.md)
    acts.sweep()
    if out is not None:
        for city, n in made.items():
            out.write(f"Demo data: {n} cases in {city}\n")
    return made


def demo_offices(city: str) -> None:
    """The demo values of what a city supplies in the admin for its documents, where it supplied nothing."""
    if CityOffice.objects.filter(jurisdiction=city).exists():
        return
    j = library().get(city)
    for office in [*(getattr(j, "offices", None) or {}), CityOffice.LETTERHEAD]:
        CityOffice.objects.get_or_create(jurisdiction=city, office=office, defaults=DEMO_OFFICE)


def play(city: str, story: Story, users: dict[str, Any]) -> Case:
    officer = users["officer"]
    inc = story.incident
    start = _local(inc["days"], 9)
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
        occurred_at=_local(inc["days"], 8),
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
    case = acts.open_case(incident=incident, dog=dog, actor=officer, at=start)
    return play_steps(case, story.steps, users)


def play_steps(case: Case, steps, users: dict[str, Any], *, issue_documents: bool = True) -> Case:
    """Take a story's steps on its case, each at 11:00 on its day (days ago): a step that issues documents
    issues them (`documents.acts.take_step`, filled from the demo records), the others through
    `acts.take_step`. Without `issue_documents`, no document is rendered: the notices' contents are what the
    law requires (the statewide data set)."""
    from dogcase.documents import acts as document_acts
    from dogcase.documents.fill import document_types_for

    if issue_documents:
        demo_offices(case.jurisdiction)
    for step_id, who, days, inputs in steps:
        at = _local(days, 11)
        inputs = {k: str(users["hearing"].pk) if v == HEARING_OFFICER else v for k, v in inputs.items()}
        if inputs.get("proofs") == ALL_CONDITIONS:
            inputs = {**inputs, "proofs": conditions_of_registration(case, step_id, at)}
        j = library().get(case.jurisdiction)
        state = acts.case_state(case)
        if issue_documents and document_types_for(j, j.case_step(step_id, state, at), state, at):
            case = document_acts.take_step(
                case, step_id, actor=users[who], inputs=inputs, expected_version=case.version, at=at
            ).case
            continue
        # a notice no document of the pack writes yet: its contents as the law requires them
        inputs = with_complete_notices(case, step_id, at, inputs)
        case = acts.take_step(
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
    j = library().get(case.jurisdiction)
    state = acts.case_state(case)
    step = j.case_step(step_id, state, at)  # the form this case runs (a dog not declared: the state's 347.56)
    lists = [i.id for i in step.inputs if i.kind == "document" and i.id not in inputs]
    if not lists:
        return inputs
    choices = j.input_choices(step_id, state, at)
    return {**inputs, **{name: [c["value"] for c in choices.get(name, [])] for name in lists}}
