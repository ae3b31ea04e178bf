"""The benchmark's hand-written floor (bench/floor.py) must give the engine's answers: correctness only, no timing.

When a law pack changes Battle Lake's rules, this fails until the floor is written out again by hand.
"""

import datetime as dt

import pytest

from bench import floor
from dogcase.law import library

J = library().get(floor.JURISDICTION)

BASE = {
    "bit": False,
    "attacked": False,
    "chased_or_approached": False,
    "apparent_attitude_of_attack": False,
    "endangered_safety": False,
    "provoked": False,
    "law_enforcement_dog": False,
    "known_propensity": False,
    "previously_potentially_dangerous": False,
    "owner_had_notice_of_potentially_dangerous": False,
    "aggressive": False,
    "victim": "human",
    "injury": "none",
    "place": "public",
    "victim_conduct": [],
}

FACTS = {
    "unprovoked bite": {"bit": True, "injury": "minor"},
    "serious bite": {"bit": True, "injury": "great_bodily_harm"},
    "killed a cat off the owner's property": {"bit": True, "victim": "domestic_animal", "injury": "death"},
    "(C)(1)(b) only: substantial harm to an animal": {
        "bit": True,
        "victim": "domestic_animal",
        "injury": "substantial_bodily_harm",
        "place": "private_other",
    },
    "provoked by the victim": {"bit": True, "provoked": True, "victim_conduct": ["provoking"]},
    "trespasser": {"bit": True, "place": "owner_property", "victim_conduct": ["trespass_on_owner_premises"]},
    "police dog": {"bit": True, "law_enforcement_dog": True},
    "chase": {"chased_or_approached": True, "apparent_attitude_of_attack": True},
    "after notice": {
        "previously_potentially_dangerous": True,
        "owner_had_notice_of_potentially_dangerous": True,
        "aggressive": True,
        "attacked": True,
    },
    "nothing happened": {"victim": "none"},
    "provocation unknown": {"bit": True, "provoked": None},
    "conduct and place unknown": {
        "bit": True,
        "injury": "substantial_bodily_harm",
        "victim_conduct": None,
        "place": None,
    },
    "victim unknown": {"bit": True, "victim": None},
    "after notice, act unknown": {
        "previously_potentially_dangerous": True,
        "owner_had_notice_of_potentially_dangerous": None,
        "aggressive": True,
        "bit": None,
        "attacked": None,
    },
    "everything unknown": dict.fromkeys(BASE),
}


def _summary(results):
    return [
        (r.designation.id, r.status, [x.key for x in r.matched], [x.key for x in r.barred_by], r.missing)
        for r in results
    ]


@pytest.mark.parametrize("name", list(FACTS))
def test_classify_floor_agrees_with_engine(name):
    facts = J.facts.parse({**BASE, **FACTS[name]})
    engine = J.classify(facts, floor.DAY).results
    mine = floor.classify_floor(facts)
    assert _summary(mine) == _summary(engine)
    for e, f in zip(engine, mine, strict=True):
        assert f.designation is e.designation
        assert f.rules is e.rules
        assert all(a is b for a, b in zip(f.matched, e.matched, strict=True))
        assert all(a is b for a, b in zip(f.barred_by, e.barred_by, strict=True))


CST = dt.timezone(dt.timedelta(hours=-6))
EVENTS = {
    "both dates, receipt later": {"notice_date": dt.date(2025, 6, 6), "notice_received": dt.date(2025, 6, 9)},
    "both the same day": {"notice_date": dt.date(2025, 6, 6), "notice_received": dt.date(2025, 6, 6)},
    "rolled past Thanksgiving and the day after": {
        "notice_date": dt.date(2025, 11, 13),
        "notice_received": dt.datetime(2025, 11, 13, 9, 30, tzinfo=CST),
    },
    "rolled past a weekend": {"notice_date": dt.date(2025, 6, 7), "notice_received": dt.date(2025, 6, 7)},
    "receipt unknown": {"notice_date": dt.date(2025, 6, 6), "incident": dt.date(2025, 6, 1)},
    "notice date unknown": {"notice_received": dt.date(2025, 12, 11)},
    "nothing known": {},
}


@pytest.mark.parametrize("name", list(EVENTS))
def test_deadline_floor_agrees_with_engine(name):
    events = EVENTS[name]
    engine = J.deadline(floor.DEADLINE, events, on=floor.DAY, designation=floor.DESIGNATION)
    assert floor.deadline_floor(events) == engine
