"""347.51 subd. 2(3): the annual fee of a dangerous dog's certificate is not more than $500 — the cap is data,
and a council-set registration fee above it is a computed conflict, never demanded."""

from __future__ import annotations

import datetime as dt
import shutil

import pytest

from dogcase.law.loader import PACKS_DIR, Library

ON = dt.date(2026, 3, 2)


def _with_battle_lake_fee(tmp_path, amount: str):
    folder = tmp_path / "packs"
    shutil.copytree(PACKS_DIR, folder)
    pack = folder / "battle-lake-mn" / "pack.yaml"
    text = pack.read_text(encoding="utf-8")
    old = "      set_by: council_resolution\n      amount_usd: null\n      resolution: null\n      adopted: null\n      for: [potentially_dangerous, dangerous]\n  - id: L.signs"
    assert old in text
    pack.write_text(
        text.replace(
            old,
            old.replace("amount_usd: null", f"amount_usd: {amount}").replace(
                "resolution: null", 'resolution: "Res. 2026-04 (test)"'
            ),
        ),
        encoding="utf-8",
    )
    return Library(folder).get("battle-lake-mn")


def test_state_pack_carries_the_500_dollar_cap_as_data():
    j = Library().get("mn-statute")
    answer = j.fee("annual_registration", ON, designation="dangerous")
    assert answer["cap_usd"] == 500
    assert answer["amount_usd"] is None and answer["demanded_usd"] is None
    assert any("subd. 2, clause (3)" in p["citation"] for p in answer["provisions"])


def test_no_fee_conflict_while_the_council_has_recorded_no_amount():
    found = Library().get("battle-lake-mn").conflicts(ON)
    assert not [c for c in found if c["kind"] == "fee_cap"]


def test_council_fee_above_the_cap_is_a_conflict_with_both_citations(tmp_path):
    j = _with_battle_lake_fee(tmp_path, "750")
    found = [c for c in j.conflicts(ON) if c["kind"] == "fee_cap"]
    assert len(found) == 1
    conflict = found[0]
    assert conflict["topic"] == "fee annual_registration"
    assert conflict["city"]["citation"] == "§ 90.15 (L)"
    assert conflict["city"]["value"] == "$750"
    assert conflict["state"]["citation"] == "Minn. Stat. § 347.51, subd. 2, clause (3)"
    assert conflict["applied"].startswith("$500 for a dangerous dog")
    # (L) also charges for a potentially dangerous dog's certificate: the state cap does not reach it
    assert "potentially dangerous dog the city's amount stands" in conflict["applied"]


def test_fee_above_the_cap_is_never_demanded(tmp_path):
    j = _with_battle_lake_fee(tmp_path, "750")
    dangerous = j.fee("annual_registration", ON, designation="dangerous")
    assert dangerous["amount_usd"] == 750
    assert dangerous["demanded_usd"] == 500
    assert "above the cap" in dangerous["why"]
    pdd = j.fee("annual_registration", ON, designation="potentially_dangerous")
    assert pdd["cap_usd"] is None and pdd["demanded_usd"] == 750


def test_fee_within_the_cap_is_no_conflict(tmp_path):
    j = _with_battle_lake_fee(tmp_path, "400")
    assert not [c for c in j.conflicts(ON) if c["kind"] == "fee_cap"]
    assert j.fee("annual_registration", ON, designation="dangerous")["demanded_usd"] == 400


def test_unknown_fee_is_an_input_error():
    from dogcase.law.errors import InputError

    with pytest.raises(InputError):
        Library().get("battle-lake-mn").fee("nope", ON)
