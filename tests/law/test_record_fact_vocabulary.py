"""`from_record: true` in the fact vocabulary: only a yes/no fact dogcase knows how to read from a dog's record."""

import shutil

import pytest

from dogcase.cases.record_facts import prior_designations
from dogcase.law.errors import PackError
from dogcase.law.facts import FactVocabulary, record_fact_kind
from dogcase.law.loader import PACKS_DIR


def _load(tmp_path, extra: str) -> FactVocabulary:
    path = tmp_path / "facts.yaml"
    shutil.copy(PACKS_DIR / "facts.yaml", path)
    with path.open("a", encoding="utf-8") as f:
        f.write(extra)
    return FactVocabulary.load(path, "facts.yaml")


def test_the_shipped_record_facts_are_marked():
    facts = FactVocabulary.load(PACKS_DIR / "facts.yaml", "facts.yaml").facts
    marked = {f.id for f in facts.values() if f.from_record}
    assert marked == {
        "bit_person_on_separate_occasions",
        "previously_potentially_dangerous",
        "owner_had_notice_of_potentially_dangerous",
        "previously_dangerous",
        "previously_vicious",
    }
    assert facts["bit_person_on_separate_occasions"].type == "bool"


def test_a_new_designations_prior_declaration_can_be_read_from_the_record(tmp_path):
    facts = _load(
        tmp_path,
        "  - {id: previously_aggressive, type: bool, from_record: true, question: Declared aggressive?}\n",
    )
    # read from the record as an earlier declaration of that designation: a prior history entry may name it
    assert record_fact_kind("previously_aggressive") == "previously"
    # named in words: the label of a pack that declares the designation, else the id in words
    labels = dict(prior_designations(facts))
    assert labels["aggressive"] in ("Aggressive", "Aggressive dog")


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        (
            "{id: prior_warning, type: bool, from_record: true, question: A warning?}",
            "cannot read 'prior_warning'",
        ),
        (
            "{id: previously_seen, type: enum, values: [a, b], from_record: true, question: Seen?}",
            "a fact from the dog's record is bool",
        ),
    ],
)
def test_a_record_fact_dogcase_cannot_compute_is_refused_naming_the_line(tmp_path, entry, message):
    with pytest.raises(PackError) as caught:
        _load(tmp_path, f"  - {entry}\n")
    assert message in caught.value.message
    assert caught.value.line is not None and caught.value.line > 100
