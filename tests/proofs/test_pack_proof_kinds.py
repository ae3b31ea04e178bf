"""A requirement's `proof:` (docs/law-packs.md, docs/proofs.md): the kinds the schema allows, and the kind and
amount the proof form takes from the installed packs."""

import datetime as dt
import shutil

import pytest

from dogcase.law.errors import PackError
from dogcase.law.loader import PACKS_DIR, Library
from dogcase.law.vocabulary import PROOF_KINDS

ON = dt.date(2026, 6, 1)


def test_every_condition_of_registration_of_the_installed_packs_says_how_it_is_proven_or_takes_a_document():
    lib = Library()
    seen = {}
    for jid in ("mn-statute", "battle-lake-mn", "tracy-mn"):
        for v in lib.get(jid).versions_on(ON):
            if v.effect_kind == "requirement" and v.effect.get("condition_of_registration"):
                seen[(jid, v.effect["id"])] = v.effect.get("proof", "document")
    assert seen[("mn-statute", "liability_coverage")] == "coverage"
    assert seen[("mn-statute", "microchip_for_certificate")] == "microchip"
    assert seen[("battle-lake-mn", "liability_coverage")] == "coverage"
    assert seen[("battle-lake-mn", "registration_fee")] == "document"
    assert seen[("tracy-mn", "warning_sign")] == "photos"
    assert set(seen.values()) <= set(PROOF_KINDS)


def test_a_proof_kind_the_schema_does_not_know_is_refused(tmp_path):
    folder = tmp_path / "packs"
    shutil.copytree(PACKS_DIR, folder)
    pack = folder / "tracy-mn" / "pack.yaml"
    text = pack.read_text(encoding="utf-8")
    assert "proof: coverage" in text
    pack.write_text(text.replace("proof: coverage", "proof: fax", 1), encoding="utf-8")
    with pytest.raises(PackError) as caught:
        Library(folder).get("tracy-mn")
    assert "fax" in str(caught.value)


@pytest.mark.django_db
def test_the_coverage_amount_and_its_citations_come_from_both_layers(officer):
    # Battle Lake's (C)(5)(e) and the state's 347.51 subd. 2 both make liability coverage a condition of
    # $300,000: the proof form holds the owner to that amount and cites both provisions
    from dogcase.proofs import conditions
    from tests.proofs.conftest import BATTLE_LAKE
    from tests.staff.conftest import declare, record_bite

    case = record_bite(officer, city=BATTLE_LAKE)
    declare(case, officer, designation="dangerous")
    case.refresh_from_db()
    cond = conditions.condition(case, "liability_coverage")
    assert cond.kind == "coverage" and cond.min_amount == 300000
    assert "§ 90.15 (C)(5)(e)" in cond.citations
    assert any(c.startswith("Minn. Stat. § 347.51, subd. 2") for c in cond.citations)
