"""A city step that replaces a state step of the same id: it takes none of the state step's inputs, keeps its
conditions (the floor), and must have every input those conditions read (docs/procedure.md, Layering)."""

from __future__ import annotations

import datetime as dt

import pytest

from dogcase.law.errors import PackError
from dogcase.law.loader import Library

from .lakeview import LAKEVIEW, install_lakeview

CITY_DISPOSE = """
  - id: dispose
    label: "Send the unclaimed dog out of the city"
    act: dispose
    phase: seizure
    for: [potentially_dangerous, dangerous]
    roles: [county_sheriff]
    reading: "The Sheriff holds the dog for the City."
    inputs:
      - {id: destination, kind: text, label: "Where the dog was taken"}
    records: [disposal]
    closes_case: true
"""

CITY_RELEASE = """
  - id: release
    label: "Release the dog"
    act: release
    phase: seizure
    for: [potentially_dangerous, dangerous]
    roles: [county_sheriff]
    reading: "The Sheriff holds the dog for the City."
    inputs:
      - {id: proofs, kind: proofs, label: "Requirements shown to be met"}
      - {id: released_to, kind: text, label: "Released to"}
    records: [release]
"""


def _with_steps(tmp_path, steps: str) -> Library:
    folder = install_lakeview(tmp_path / "packs", shipped=("mn-statute",))
    text = (LAKEVIEW / "pack.yaml").read_text(encoding="utf-8") + steps
    (folder / "lakeview-mn" / "pack.yaml").write_text(text, encoding="utf-8")
    return Library(folder)


def test_a_city_step_replacing_a_state_step_has_only_its_own_inputs_and_keeps_the_state_conditions(tmp_path):
    j = _with_steps(tmp_path, CITY_DISPOSE).get("lakeview-mn")
    step = j.step("dispose", dt.date(2026, 3, 2))
    assert step.layer == "city+state"
    assert [i.id for i in step.inputs] == ["destination"]
    tests = [(c.test, c.arg) for c in step.requires]
    assert ("after", "owner.reclaim") in tests  # 347.54: the owner's seven days to reclaim are the floor
    assert ("not_done", "post_security") in tests


def test_a_state_condition_reading_an_input_the_city_step_lacks_is_refused(tmp_path):
    with pytest.raises(PackError) as caught:
        _with_steps(tmp_path, CITY_RELEASE)
    error = caught.value
    assert error.file.endswith("lakeview-mn/pack.yaml")
    assert "step 'release' replaces the state's step of that id" in error.message
    assert "reads input 'fees_paid' (bool)" in error.message
    assert "mn-statute/pack.yaml:" in error.message
    text = (LAKEVIEW / "pack.yaml").read_text(encoding="utf-8") + CITY_RELEASE
    assert error.line == next(i for i, line in enumerate(text.splitlines(), 1) if "- id: release" in line)
