"""A third jurisdiction is a pack, not code: an invented state and city, written to a temporary folder."""

from __future__ import annotations

import datetime as dt

import pytest

from dogcase.law import classify, conflicts, deadline
from dogcase.law.loader import Library

from .invented_packs import write_invented_packs


@pytest.fixture
def lib(tmp_path):
    return Library(write_invented_packs(tmp_path / "packs"))


ALL_FALSE = {
    "bit": True,
    "provoked": False,
    "victim": "human",
    "place": "public",
    "victim_conduct": [],
    "chased_or_approached": False,
}


def test_invented_city_classifies_with_its_own_definition_and_the_state_floor(lib):
    answer = classify("south-city", ALL_FALSE, dt.date(2024, 6, 1), lib=lib)
    status = {d["designation"]: d["status"] for d in answer["designations"]}
    assert status == {"menacing": "eligible", "nuisance": "eligible"}
    nuisance = next(d for d in answer["designations"] if d["designation"] == "nuisance")
    assert [m["citation"] for m in nuisance["matched"]] == ["South City Code § 1(a)"]


def test_invented_city_reads_the_version_in_force_on_the_incident_date(lib):
    # before 2024 the city's text covered only chasing, so a bite alone does not make a nuisance dog
    answer = classify("south-city", ALL_FALSE, dt.date(2023, 6, 1), lib=lib)
    status = {d["designation"]: d["status"] for d in answer["designations"]}
    assert status["nuisance"] == "not_eligible"
    assert answer["law"]["same_law_until"] == "2024-01-01"


def test_state_exemption_bars_only_the_designation_it_names_and_flags_the_city_one(lib):
    # N.S. 9.2 says "no dog is menacing": it bars the state's designation, not the city's nuisance dog that
    # names menacing as its state_counterpart (DESIGN.md principle 4: state_counterpart is a label)
    facts = dict(ALL_FALSE, victim_conduct=["trespass_on_owner_premises"])
    answer = classify("south-city", facts, dt.date(2024, 6, 1), lib=lib)
    status = {d["designation"]: d["status"] for d in answer["designations"]}
    assert status == {"menacing": "barred", "nuisance": "eligible"}
    nuisance = next(d for d in answer["designations"] if d["designation"] == "nuisance")
    assert nuisance["barred_by"] == []
    assert [f["provision"] for f in nuisance["flags"]] == ["north-state:9.2"]
    assert "would be barred" in nuisance["flags"][0]["reading"]
    assert any(n["kind"] == "flag" and n["provisions"] == ["north-state:9.2"] for n in answer["notes"])


def test_invented_city_deadline_uses_its_business_days_and_holidays(lib):
    # Friday 27 Feb 2026 + 3 business days, skipping the invented Founders Day (Tue 3 Mar): Thu 5 Mar;
    # the state's 10 days from the notice date (Sun 1 Mar) end Wed 11 Mar: the owner keeps the later.
    answer = deadline(
        "south-city",
        "owner.request_hearing",
        {"notice_sent": dt.date(2026, 2, 27), "notice_date": dt.date(2026, 3, 1)},
        lib=lib,
    )
    values = {e["provision"]["provision"]: e["value"] for e in answer["entries"]}
    assert values == {"north-state:9.3": "2026-03-11", "south-city:1.b": "2026-03-05"}
    assert answer["due"] == "2026-03-11"
    assert answer["set_by"] == ["north-state:9.3"]
    assert any("Founders Day" in line for line in answer["entries"][1]["trace"])


def test_invented_city_conflicts_are_computed_not_listed(lib):
    found = conflicts("south-city", dt.date(2026, 1, 1), lib=lib)["conflicts"]
    kinds = {(c["kind"], c["topic"]) for c in found}
    assert ("amount", "requirement liability_coverage") in kinds
    assert ("deadline", "deadline owner.request_hearing") in kinds
    assert ("missing_exemption", "exemption for nuisance") in kinds
    amount = next(c for c in found if c["kind"] == "amount")
    assert amount["applied"].startswith("$100,000")


def test_fact_ids_with_dashes_and_dots_compile(tmp_path):
    folder = write_invented_packs(tmp_path / "packs")
    facts = folder / "facts.yaml"
    facts.write_text(
        facts.read_text(encoding="utf-8")
        + "  - id: seen-by.warden\n    type: bool\n    question: Did the warden see it?\n",
        encoding="utf-8",
    )
    state = folder / "north-state" / "pack.yaml"
    text = state.read_text(encoding="utf-8")
    state.write_text(
        text.replace(
            "when: {all: [bit, {not: provoked}", "when: {all: [bit, seen-by.warden, {not: provoked}"
        ),
        encoding="utf-8",
    )
    lib = Library(folder)
    answer = classify("north-state", {**ALL_FALSE, "seen-by.warden": True}, dt.date(2024, 6, 1), lib=lib)
    assert answer["designations"][0]["status"] == "eligible"
