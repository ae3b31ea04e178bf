"""The demo stories of Tracy: its cases at every stage of the procedure."""

from __future__ import annotations

from .dates import d, t
from .story import ALL_CONDITIONS, BITE, CHASE, HEARING_OFFICER, SERIOUS, Story


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
                # Subd 12: a misdemeanor citation for walking the dog unmuzzled, dismissed in court
                (
                    "issue_citation",
                    "police",
                    20,
                    {
                        "number": "TPD-2026-0412",
                        "violated": "Subd 5.C",
                        "violation": "On Hollinger Street the dog was walked off the owner's property without a "
                        "muzzle.",
                        "cited_on": d(20),
                        "court": "Lyon County Courthouse, 607 West Main Street, Marshall, MN",
                        "court_at": t(6, 9),
                    },
                ),
                ("record_citation_outcome", "police", 5, {"outcome": "dismissed", "decided_on": d(6)}),
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
        # A dog declared dangerous under the state's law that moved to a place dogcase does not serve: the letter
        # to that place's animal control authority (347.52 (c)). The place and its address are fictional.
        Story(
            owner="Gary Pietrzak",
            street="410 Harvey Street",
            dog={
                "name": "Tank",
                "breed": "Presa Canario",
                "colour": "fawn",
                "sex": "male",
                "birth_year": 2019,
            },
            incident={
                "days": 60,
                "place": "Harvey Street and 4th Street",
                "kind": "attack",
                "facts": SERIOUS,
                "victim": ("Paula Engen", "human", "substantial_bodily_harm"),
                "narrative": "Knocked a woman off her bicycle and bit her leg; she was kept in hospital overnight.",
            },
            steps=[
                (
                    "declare",
                    "officer",
                    58,
                    {
                        "designation": "dangerous",
                        "basis": "Without provocation inflicted substantial bodily harm on a person, Minn. Stat. "
                        "347.50, subd. 2(1).",
                        "declarant_telephone": "507-629-5560",
                        "declared_on": d(58),
                    },
                ),
                (
                    "serve_notice",
                    "officer",
                    57,
                    {"served_on": d(57), "method": "personal", "received_on": d(57)},
                ),
                (
                    "record_move",
                    "officer",
                    5,
                    {
                        "moved_on": d(6),
                        "destination": "elsewhere",
                        "destination_name": "Pleasant Valley, MN (a fictional city of the demo)",
                        "new_address": "12 Prairie Road, Pleasant Valley, MN 56000",
                        "authority_address": "Pleasant Valley Police Department, 1 Main Street, Pleasant Valley, "
                        "MN 56000",
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
                (
                    "schedule_hearing",
                    "officer",
                    39,
                    {
                        "hearing_at": t(30, 14),
                        "place": "Tracy City Hall, 336 Morgan Street",
                        "hearing_officer": HEARING_OFFICER,
                        "mailed_on": d(39),
                    },
                ),
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
                # 347.541 subd. 4: the declaration upheld, the hearing's actual expenses (up to $1,000) are the owner's
                (
                    "cost",
                    "clerk",
                    27,
                    {
                        "charge": "hearing_expense",
                        "amount": "450.00",
                        "note": "Hearing officer's fee and room",
                    },
                ),
                ("issue_certificate", "officer", 18, {"proofs": ALL_CONDITIONS}),
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
                (
                    "schedule_destruction_hearing",
                    "officer",
                    9,
                    {
                        "hearing_at": t(4, 10),
                        "place": "Tracy City Hall, 336 Morgan Street",
                        "hearing_officer": HEARING_OFFICER,
                        "mailed_on": d(9),
                    },
                ),
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
