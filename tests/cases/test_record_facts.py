"""Facts from the dog's record: bites on separate occasions, a prior designation and the owner's notice of it
are read from the dog's own history in dogcase (earlier incidents and cases) and the prior history recorded
on the dog — never typed at intake."""

import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied

from dogcase.cases import acts, updates
from dogcase.cases.models import Event, PriorHistoryEntry
from dogcase.cases.record_facts import computable
from dogcase.law import library
from tests.cases.conftest import BITE, at, on
from tests.cases.test_battle_lake_case import appeal_to_decision, declared

BATTLE_LAKE = "battle-lake-mn"
TRACY = "tracy-mn"
PRIOR = (
    "previously_potentially_dangerous",
    "owner_had_notice_of_potentially_dangerous",
    "previously_dangerous",
)


def bite_again(s, day: int, *, victim: str = "human"):
    """The same dog bites again on `day`: its new case's record facts, by fact, and its classification."""
    officer = s.staff["officer"]
    incident = acts.record_incident(
        jurisdiction=s.case.jurisdiction,
        actor=officer,
        occurred_at=at(day, 8),
        place="Lake Park",
        place_type="public",
        kind="bite",
        dogs=[s.dog],
        facts=BITE,
        victims=[{"kind": victim, "name": "Second Victim", "injury": "minor"}],
        at=at(day, 9),
    )
    case = acts.open_case(incident=incident, dog=s.dog, actor=officer, at=at(day, 9, 30))
    data = case.events.get(act="open_case").data
    status = {d["designation"]: d["status"] for d in data["classification"]["designations"]}
    return {f["fact"]: f for f in data["record_facts"]}, status


def test_a_second_bite_on_a_person_is_a_second_separate_occasion(story):
    s = story(BATTLE_LAKE)
    first = {f["fact"]: f for f in s.case.events.get(act="open_case").data["record_facts"]}
    assert first["bit_person_on_separate_occasions"]["value"] is False
    assert first["bit_person_on_separate_occasions"]["sources"] == ["one occasion only: this incident"]

    record, _ = bite_again(s, 30)

    separate = record["bit_person_on_separate_occasions"]
    assert separate["value"] is True
    assert separate["sources"] == [f"incident {s.incident.number} on 1 June 2026", "this incident"]


def test_a_bite_on_an_animal_is_not_an_occasion_of_biting_a_person(story):
    s = story(BATTLE_LAKE)
    record, _ = bite_again(s, 30, victim="domestic_animal")
    assert record["bit_person_on_separate_occasions"]["value"] is False


def test_a_served_potentially_dangerous_finding_makes_the_next_aggressive_bite_dangerous(story):
    # 347.50 subd. 2(3) / § 90.15 (A) DANGEROUS DOG (c): found potentially dangerous, the owner had notice,
    # then an aggressive bite — read from the dog's first case, not typed by the officer
    s = declared(story)  # declared potentially dangerous on day 0, notice served on day 1

    record, status = bite_again(s, 30)

    assert record["previously_potentially_dangerous"]["value"] is True
    assert record["previously_potentially_dangerous"]["sources"] == [
        f"declared potentially dangerous dog on 1 June 2026 in case {s.case.number}"
    ]
    assert record["owner_had_notice_of_potentially_dangerous"]["value"] is True
    assert "served on 2 June 2026" in record["owner_had_notice_of_potentially_dangerous"]["sources"][0]
    assert record["previously_dangerous"]["value"] is False
    assert status["dangerous"] == "eligible"


def test_a_first_bite_of_a_dog_without_record_is_not_dangerous_under_2_3(story):
    s = story(BATTLE_LAKE)  # a minor bite: only the (c) ground could make it dangerous
    data = s.case.events.get(act="open_case").data
    status = {d["designation"]: d["status"] for d in data["classification"]["designations"]}
    record = {f["fact"]: f for f in data["record_facts"]}
    assert record["previously_potentially_dangerous"]["sources"] == [
        "no potentially dangerous dog declaration in the dog's record"
    ]
    assert status["dangerous"] != "eligible"


def test_a_declaration_never_served_gives_the_owner_no_notice(story):
    s = story(BATTLE_LAKE)
    s.step("declare", "officer", 0, designation="potentially_dangerous", basis="Unprovoked bite")
    record, status = bite_again(s, 30)
    assert record["previously_potentially_dangerous"]["value"] is True
    assert record["owner_had_notice_of_potentially_dangerous"]["value"] is False
    assert status["dangerous"] != "eligible"


def test_a_declaration_reversed_on_appeal_is_no_prior_finding(story):
    s = declared(story)
    appeal_to_decision(s, "rescinded")
    s.step("confirm_or_rescind", "council", 30, outcome="rescinded")

    record, _ = bite_again(s, 60)

    assert record["previously_potentially_dangerous"]["value"] is False
    assert record["previously_potentially_dangerous"]["sources"][0].startswith(
        "not counted: declared potentially dangerous dog in case"
    )
    assert record["owner_had_notice_of_potentially_dangerous"]["value"] is False


def test_a_vicious_classification_is_not_a_potentially_dangerous_finding(story):
    # 347.50 subd. 2(3) reaches the potentially dangerous finding only; Tracy's vicious is its own designation
    s = story(TRACY)
    s.step("classify", "clerk", 0, designation="vicious", reasonable_cause="Unprovoked bite, two witnesses")

    record, _ = bite_again(s, 30)

    assert record["previously_vicious"]["value"] is True
    assert record["previously_vicious"]["sources"] == [
        f"declared vicious dog on 1 June 2026 in case {s.case.number}"
    ]
    assert record["previously_potentially_dangerous"]["value"] is False
    assert record["owner_had_notice_of_potentially_dangerous"]["value"] is False


def test_prior_history_before_dogcase_is_part_of_the_record(story, staff):
    s = story(BATTLE_LAKE)
    officer = staff["officer"]
    for what, extra in (
        ("bite_on_person", {}),
        ("designation", {"designation": "potentially_dangerous", "by_whom": "City of Fergus Falls"}),
        ("notice", {"designation": "potentially_dangerous", "by_whom": "Fergus Falls animal control"}),
    ):
        updates.record_prior_history(
            s.dog,
            actor=officer,
            on=dt.date(2025, 3, 4),
            what=what,
            source="Fergus Falls file 25-117",
            at=at(10),
            **extra,
        )

    record, status = bite_again(s, 30)

    assert all(record[f]["value"] for f in ("bit_person_on_separate_occasions", *PRIOR[:2]))
    assert record["previously_potentially_dangerous"]["sources"][-1] == (
        "prior history: declared potentially dangerous dog by City of Fergus Falls on 4 March 2025 "
        "(Fergus Falls file 25-117)"
    )
    assert len(record["bit_person_on_separate_occasions"]["sources"]) == 3  # two incidents, one prior bite
    assert status["dangerous"] == "eligible"


def test_prior_history_is_audited_and_shown_in_the_dogs_history(story, staff):
    s = story(BATTLE_LAKE)
    entry = updates.record_prior_history(
        s.dog,
        actor=staff["officer"],
        on=dt.date(2024, 8, 1),
        what="designation",
        designation="dangerous",
        by_whom="Otter Tail County Sheriff",
        source="Sheriff's letter of 1 Aug 2024",
        at=at(2),
    )
    event = Event.objects.get(act="record_prior_history")
    assert (event.actor, event.data["id"], event.data["dog"]) == (staff["officer"], entry.pk, s.dog.pk)
    assert "declared dangerous dog by Otter Tail County Sheriff on 2024-08-01" in event.summary
    assert entry.recorded_by == staff["officer"] and entry.jurisdiction == BATTLE_LAKE


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"what": "designation", "designation": "", "by_whom": "X city"}, "designation"),
        ({"what": "designation", "designation": "feral", "by_whom": "X city"}, "designation"),
        ({"what": "designation", "designation": "dangerous", "by_whom": ""}, "by_whom"),
        ({"what": "bite_on_person", "source": ""}, "source"),
        ({"what": "bite_on_person", "on": dt.date(2026, 6, 20)}, "on"),
        ({"what": "growled"}, "what"),
    ],
)
def test_prior_history_is_checked_field_by_field(story, staff, changes, field):
    s = story(BATTLE_LAKE)
    args = {"on": dt.date(2025, 1, 2), "source": "Report 12", **changes}
    with pytest.raises(acts.InvalidInput) as caught:
        updates.record_prior_history(s.dog, actor=staff["officer"], at=at(2), **args)
    assert caught.value.field == field
    assert not PriorHistoryEntry.objects.exists()


def test_the_auditor_cannot_record_prior_history(story, staff):
    s = story(BATTLE_LAKE)
    with pytest.raises(PermissionDenied):
        updates.record_prior_history(
            s.dog, actor=staff["auditor"], on=dt.date(2025, 1, 2), what="bite_on_person", source="Report 12"
        )


def test_a_fact_from_the_record_cannot_be_typed_with_the_incident(story, staff):
    s = story(BATTLE_LAKE)
    with pytest.raises(acts.InvalidInput) as caught:
        acts.record_incident(
            jurisdiction=BATTLE_LAKE,
            actor=staff["officer"],
            occurred_at=at(3, 8),
            place="Main Street",
            place_type="public",
            kind="bite",
            dogs=[s.dog],
            facts={**BITE, "previously_dangerous": True},
            at=at(3, 9),
        )
    assert caught.value.field == "facts.previously_dangerous"
    assert "comes from the dog's record" in caught.value.rule


def test_every_fact_marked_from_the_record_is_one_dogcase_computes():
    marked = [f.id for f in library().facts.facts.values() if f.from_record]
    assert {"bit_person_on_separate_occasions", "previously_vicious", *PRIOR} <= set(marked)
    assert all(computable(f) for f in marked)
    assert not library().facts.facts["aggressive"].from_record


def test_the_record_is_read_in_a_fixed_number_of_queries_whatever_its_length(story):
    # intake and case opening read it: the dog's own history, never a scan of every case or event
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from dogcase.cases.record_facts import record_facts

    s = declared(story)
    j = library().get(s.case.jurisdiction)
    later = dt.date(2027, 1, 1)

    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            record_facts(s.dog, vocabulary=j.facts, incident_day=later, bite_on_person_now=True)
        return len(queries)

    before = count()
    bite_again(s, 30)
    bite_again(s, 60)
    assert count() == before <= 4  # incidents, their victims, the steps of its cases, its prior history


def test_a_corrected_notice_date_is_the_date_the_record_reads(story, staff):
    # the notice of the potentially dangerous declaration was recorded late, dated the day it was recorded;
    # corrected to the day it was in fact served, it was served before the dog's next bite: the owner had
    # notice (347.50 subd. 2(3)), as the case itself reads the corrected date
    s = story(BATTLE_LAKE)
    s.step("declare", "officer", 0, designation="potentially_dangerous", basis="Unprovoked bite")
    s.step(
        "serve_notice",
        "officer",
        40,
        served_on=on(40),
        method="personal",
        served_owner="O",
        received_on=on(40),
    )
    served = s.case.events.get(act="serve_notice")
    s.case = acts.correct_event_date(
        s.case,
        event=served,
        name="notice_date",
        value=at(1).date(),
        reason="The notice was served on June 2; it was recorded late",
        actor=staff["officer"],
        expected_version=s.case.version,
        at=at(41),
    ).case
    officer = staff["officer"]
    incident = acts.record_incident(
        jurisdiction=BATTLE_LAKE,
        actor=officer,
        occurred_at=at(30, 8),
        place="Lake Park",
        place_type="public",
        kind="bite",
        dogs=[s.dog],
        facts=BITE,
        victims=[{"kind": "human", "name": "Second Victim", "injury": "minor"}],
        at=at(42),
    )
    case = acts.open_case(incident=incident, dog=s.dog, actor=officer, at=at(42, 10))
    record = {f["fact"]: f for f in case.events.get(act="open_case").data["record_facts"]}
    notice = record["owner_had_notice_of_potentially_dangerous"]
    assert notice["value"] is True
    assert "served on 2 June 2026" in notice["sources"][0]
