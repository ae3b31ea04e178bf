"""A demo story (one case: its owner, dog and incident, and the steps taken so far, in days ago) and what the
stories are written with: the incidents' facts, the demo officer's telephone, the hearing officer."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


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

# Stands for "every condition the law puts on registration, proven": filled from the pack at play time.
ALL_CONDITIONS = "all conditions of registration"


# in a story's inputs: the demo's hearing officer (a user), designated to hold the hearing
HEARING_OFFICER = "@hearing"
