"""Every clause, exemption and deadline of every pack has a row in that pack's table tests."""

from __future__ import annotations

import pytest

from dogcase.law import library
from dogcase.law.loader import PACKS_DIR
from dogcase.law.yamlsource import read_yaml


def _rows(pack_id: str) -> dict:
    return read_yaml(PACKS_DIR / pack_id / "cases.yaml", f"{pack_id}/cases.yaml")


def _key(pack_id: str, ref: str) -> str:
    return ref if ":" in ref else f"{pack_id}:{ref}"


@pytest.mark.parametrize("pack_id", sorted(library().packs))
def test_every_ground_and_exemption_has_a_row_that_shows_it_applying(pack_id):
    pack = library().packs[pack_id]
    rows = _rows(pack_id)
    shown = set()
    for row in rows.get("classify", ()):
        shown |= {_key(pack_id, r) for r in (*row.get("matched", ()), *row.get("barred_by", ()))}
    rules = {
        v.key
        for p in pack.provisions.values()
        for v in p.versions
        if v.effect_kind in ("ground", "exemption")
    }
    assert sorted(rules - shown) == []


@pytest.mark.parametrize("pack_id", sorted(library().packs))
def test_every_deadline_has_a_row(pack_id):
    pack = library().packs[pack_id]
    rows = _rows(pack_id)
    tested = {row["deadline"] for row in rows.get("deadlines", ())}
    deadlines = {
        v.effect["id"] for p in pack.provisions.values() for v in p.versions if v.effect_kind == "deadline"
    }
    assert sorted(deadlines - tested) == []
