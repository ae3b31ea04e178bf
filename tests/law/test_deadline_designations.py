"""A deadline asked without a designation never merges the provisions of different designations into one date.

Where the provisions that set a time differ by designation (Tracy's five business days for a vicious dog,
347.541's 14 days for a dangerous one), the answer is one per designation — each its own due date, the
provisions that set it and its words — and no single `due`; where the same provisions reach every designation
they reach, they are combined as before.
"""

import datetime as dt

import pytest

from dogcase.law import library

# (jurisdiction, deadline, events, {designation: (due, set_by)}, designations no provision reaches)
SPLIT = [
    (
        "tracy-mn",
        "owner.request_hearing",
        {"notice_sent": dt.date(2026, 11, 24), "notice_date": dt.date(2026, 11, 24)},
        {
            # 347.541 subd. 1 and 3: 14 days from the date of the notice
            "dangerous": ("2026-12-08", ["mn-statute:347.541.1"]),
            # § 8.31 Subd 4.A: five regular business days after the certified-mail notice was sent
            # (Thanksgiving and the day after are not business days)
            "vicious": ("2026-12-03", ["tracy-mn:4.A.request"]),
        },
        {"potentially_dangerous"},
    ),
    (
        "tracy-mn",
        "city.hold_hearing",
        {"hearing_request_received": dt.date(2026, 6, 1)},
        {
            "dangerous": ("2026-06-15", ["mn-statute:347.541.4"]),
            "vicious": ("2026-06-08", ["tracy-mn:4.A.hearing"]),
        },
        {"potentially_dangerous"},
    ),
]


@pytest.mark.parametrize(("jurisdiction", "deadline_id", "events", "expected", "not_set"), SPLIT)
def test_without_a_designation_each_designation_is_answered_on_its_own(
    jurisdiction, deadline_id, events, expected, not_set
):
    j = library().get(jurisdiction)
    answer = j.deadline(deadline_id, events)

    assert answer["status"] == "by_designation"
    assert answer["due"] is None  # no one date for cases the law treats apart
    assert "set_by" not in answer and "entries" not in answer
    got = {a["designation"]: (a["due"], a["set_by"]) for a in answer["by_designation"]}
    assert got == expected
    assert answer["designations"] == list(expected)
    assert {n["designation"] for n in answer["not_set_for"]} == not_set
    # each designation's answer is the one asked with that designation: its own words and provisions
    for part in answer["by_designation"]:
        alone = j.deadline(deadline_id, events, designation=part["designation"])
        assert part["what"] == alone["what"]
        assert part["entries"] == alone["entries"]
        assert part["label"] == j.designations[part["designation"]].label
    whats = {a["what"] for a in answer["by_designation"]}
    assert len(whats) == len(
        answer["by_designation"]
    )  # a vicious dog's owner is not told of 347.541's hearing
    # the reason names the choices
    for d in expected:
        assert d in answer["reasons"][0]


def test_the_vicious_owners_request_is_not_answered_with_the_dangerous_dogs_14_days():
    # the defect of issue 18: asked without a designation, Tracy answered 347.541's date for every owner
    tracy = library().get("tracy-mn")
    events = {"notice_sent": dt.date(2027, 1, 14), "notice_date": dt.date(2027, 1, 15)}
    answer = tracy.deadline("owner.request_hearing", events)
    vicious = next(a for a in answer["by_designation"] if a["designation"] == "vicious")
    dangerous = next(a for a in answer["by_designation"] if a["designation"] == "dangerous")

    assert vicious["set_by"] == ["tracy-mn:4.A.request"]
    assert dangerous["set_by"] == ["mn-statute:347.541.1"]
    assert dangerous["due"] == "2027-01-29"  # 14 days from the notice of 15 January
    assert vicious["due"] < dangerous["due"]
    assert "vicious" in vicious["what"].lower() or "classif" in vicious["what"].lower()


def _events(j, steps) -> dict:
    """Every event that starts one of these provisions' time, on 2 March 2026 (at noon for a time in hours)."""
    day = dt.date(2026, 3, 2)
    noon = dt.datetime(2026, 3, 2, 12, tzinfo=j.tz)
    return {s.trigger: noon if s.unit == "hours" else day for s in steps if s.trigger}


def _same_everywhere(j):
    """The deadlines of `j` whose provisions are the same for every designation they reach."""
    return [
        d
        for d in j.deadline_ids()
        if j.deadline_plans[d].apart_by_designation(j.designations) is None
        and all(s.trigger for s in j.deadline_plans[d].steps)
    ]


@pytest.mark.parametrize("jurisdiction", ["mn-statute", "battle-lake-mn", "tracy-mn"])
def test_where_the_same_provisions_reach_every_designation_they_are_combined_as_one(jurisdiction):
    j = library().get(jurisdiction)
    same = _same_everywhere(j)
    assert same, f"{jurisdiction} has no deadline set alike for every designation"
    for deadline_id in same:
        events = _events(j, j.deadline_plans[deadline_id].steps)
        answer = j.deadline(deadline_id, events)
        assert answer["status"] != "by_designation", deadline_id
        assert "by_designation" not in answer
        # and it is what each designation it reaches gets
        for d in j.designations:
            if j.deadline_applies(deadline_id, d):
                alone = j.deadline(deadline_id, events, designation=d)
                assert alone["due"] == answer["due"], (deadline_id, d)


def test_every_split_deadline_of_the_shipped_packs_is_answered_per_designation():
    # the engine reads the packs: no deadline whose provisions differ by designation gets a single date
    for j in library().jurisdictions.values():
        for deadline_id in j.deadline_ids():
            plan = j.deadline_plans[deadline_id]
            apart = plan.apart_by_designation(j.designations)
            if apart is None:
                continue
            events = _events(j, plan.steps)
            answer = j.deadline(deadline_id, events)
            assert answer["status"] == "by_designation", (j.id, deadline_id)
            assert answer["due"] is None
            assert [a["designation"] for a in answer["by_designation"]] == apart[0]
            provisions = [
                {e["provision"]["provision"] for e in a.get("entries", [])} for a in answer["by_designation"]
            ]
            assert len({frozenset(p) for p in provisions}) > 1, (j.id, deadline_id)


def test_a_designation_given_still_gets_one_answer():
    tracy = library().get("tracy-mn")
    events = {"notice_sent": dt.date(2026, 11, 24), "notice_date": dt.date(2026, 11, 24)}
    answer = tracy.deadline("owner.request_hearing", events, designation="vicious")

    assert answer["status"] == "determined"
    assert (answer["due"], answer["set_by"]) == ("2026-12-03", ["tracy-mn:4.A.request"])
    assert "by_designation" not in answer
