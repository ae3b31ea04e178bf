"""Demo data: for each demo city, owners, dogs, incidents and cases at every stage of the procedure.

Everything is written through the legal-act functions (with `at=` in the past), so the demo cases carry real
audit events, real clocks and real obligations — some met, some open, some overdue — relative to today.
Idempotent: a city that already has incidents is left alone.
"""

from __future__ import annotations

from .battle_lake_stories import battle_lake
from .dates import d, local, t
from .seed import (
    DEMO_NAMES,
    DEMO_OFFICE,
    STORIES,
    conditions_of_registration,
    demo_offices,
    load_demo,
    play,
    play_steps,
    with_complete_notices,
)
from .story import ALL_CONDITIONS, BITE, CHASE, DEMO_TELEPHONE, HEARING_OFFICER, SERIOUS, Story
from .tracy_stories import tracy

__all__ = [
    "ALL_CONDITIONS",
    "BITE",
    "CHASE",
    "DEMO_NAMES",
    "DEMO_OFFICE",
    "DEMO_TELEPHONE",
    "HEARING_OFFICER",
    "SERIOUS",
    "STORIES",
    "Story",
    "battle_lake",
    "conditions_of_registration",
    "d",
    "demo_offices",
    "load_demo",
    "local",
    "play",
    "play_steps",
    "t",
    "tracy",
    "with_complete_notices",
]
