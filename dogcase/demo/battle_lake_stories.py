"""The demo stories of Battle Lake: its cases at every stage of the procedure."""

from __future__ import annotations

from .dates import d, t
from .story import ALL_CONDITIONS, BITE, DEMO_TELEPHONE, HEARING_OFFICER, SERIOUS, Story


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
                # (C)(3): the declaration upheld, the hearing's actual expenses (up to $1,000) are the owner's
                (
                    "cost",
                    "clerk",
                    39,
                    {
                        "charge": "hearing_expense",
                        "amount": "640.00",
                        "note": "Hearing officer's invoice 2026-118",
                    },
                ),
                ("pay", "clerk", 20, {"amount": "300.00", "method": "check", "reference": "4417"}),
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
                (
                    "seize",
                    "officer",
                    3,
                    {
                        "ground": "not_enclosed",
                        "place": "Lakes Area Kennel, 4 Kennel Road",
                        "condition": "Thin, a healed cut on the left ear; calm once in the van.",
                    },
                ),
                ("statement", "clerk", 1, {}),
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
                ("apply_for_registration", "clerk", 207, {"applied_on": d(207)}),
                ("pay", "clerk", 206, {"amount": "95.00", "method": "card", "reference": "SQ-20931"}),
                (
                    "coverage",
                    "clerk",
                    206,
                    {"starts_on": d(210), "ends_on": d(-24), "policy": "HO-2025-30117"},
                ),
                ("issue_certificate", "clerk", 205, {"proofs": ALL_CONDITIONS, "number": "BL-DD-2026-02"}),
            ],
        ),
        # A dangerous dog registered a year ago: its renewal falls due in 20 days, the owner applied for it from the
        # portal two days ago and owes the year's fees; the insurance on file ends in 20 days too (347.52 (b),
        # (C)(5); reminders 30 days ahead)
        Story(
            owner="Sigrid Halvorsen",
            street="310 Lake Avenue N",
            dog={
                "name": "Kaiser",
                "breed": "Doberman pinscher",
                "colour": "black and rust",
                "sex": "male",
                "birth_year": 2019,
                "microchip_manufacturer": "HomeAgain",
                "microchip_number": "985112004411223",
            },
            incident={
                "days": 402,
                "place": "Lake Avenue N, by the marina",
                "kind": "attack",
                "facts": SERIOUS,
                "victim": ("Per Sandvik", "human", "substantial_bodily_harm"),
                "narrative": "Attacked a man loading a boat trailer; the bite needed stitches.",
            },
            steps=[
                at(declare_d, 400),
                serve(399),
                (
                    "record_sterilization",
                    "officer",
                    380,
                    {"sterilized_on": d(381), "veterinarian": "Lakes Area Vet Clinic"},
                ),
                ("apply_for_registration", "clerk", 347, {"applied_on": d(347)}),
                ("pay", "clerk", 346, {"amount": "95.00", "method": "check", "reference": "1187"}),
                (
                    "coverage",
                    "clerk",
                    346,
                    {"starts_on": d(350), "ends_on": d(-20), "policy": "HO-2025-11873"},
                ),
                ("issue_certificate", "clerk", 345, {"proofs": ALL_CONDITIONS, "number": "BL-DD-2025-07"}),
                (
                    "owner_applies",
                    "clerk",
                    2,
                    {"note": "Same house, same enclosure; new insurance card coming."},
                ),
            ],
        ),
        # A registered dangerous dog whose insurance ended 12 days ago with no renewal shown: a breach, with the
        # seizure ground of 347.54 subd. 1; the officer cited the owner to court under § 90.15 (penalty: § 90.99)
        Story(
            owner="Knut Aasland",
            street="7 Mill Road",
            dog={
                "name": "Storm",
                "breed": "Rottweiler",
                "colour": "black and tan",
                "sex": "male",
                "birth_year": 2018,
                "microchip_manufacturer": "AVID",
                "microchip_number": "977200004455667",
            },
            incident={
                "days": 262,
                "place": "Mill Road",
                "kind": "attack",
                "facts": SERIOUS,
                "victim": ("Anne Moe", "human", "substantial_bodily_harm"),
                "narrative": "Attacked a mail carrier at the box; hospital treatment.",
            },
            steps=[
                at(declare_d, 260),
                serve(259),
                (
                    "record_sterilization",
                    "officer",
                    240,
                    {"sterilized_on": d(241), "veterinarian": "Lakes Area Vet Clinic"},
                ),
                (
                    "coverage",
                    "clerk",
                    231,
                    {"starts_on": d(235), "ends_on": d(12), "policy": "HO-2025-20410"},
                ),
                ("issue_certificate", "clerk", 230, {"proofs": ALL_CONDITIONS, "number": "BL-DD-2025-11"}),
                (
                    "issue_citation",
                    "officer",
                    5,
                    {
                        "number": "BL-C-2026-014",
                        "violated": "(C)(5)(e)",
                        "violation": "Since the liability insurance on file ended 12 days ago, the owner has kept "
                        "the dangerous dog at 7 Mill Road without the surety bond or liability insurance required.",
                        "cited_on": d(5),
                        "court": "Otter Tail County Courthouse, 121 West Junius Avenue, Fergus Falls, MN",
                        "court_at": t(-25, 9),
                    },
                ),
            ],
        ),
        # A dangerous dog that moved to Tracy: its case went with it (347.52 (c); § 90.15 (M)), and Tracy's
        # animal control authority was written to.
        Story(
            owner="Trygve Nelson",
            street="27 Shoreline Drive",
            dog={
                "name": "Moose",
                "breed": "Cane Corso",
                "colour": "grey",
                "sex": "male",
                "birth_year": 2020,
                "microchip_manufacturer": "AVID",
                "microchip_number": "985112009988776",
            },
            incident={
                "days": 75,
                "place": "Shoreline Drive, by the public beach",
                "kind": "attack",
                "facts": SERIOUS,
                "victim": ("Ingrid Berg", "human", "substantial_bodily_harm"),
                "narrative": "Attacked a swimmer walking up from the beach; the bite needed stitches and surgery.",
            },
            steps=[
                at(declare_d, 73),
                serve(72),
                (
                    "record_move",
                    "officer",
                    8,
                    {
                        "moved_on": d(10),
                        "destination": "tracy-mn",
                        "new_address": "88 Elm Street, Tracy, MN 56175",
                    },
                ),
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
