"""What a pack may add to the shared vocabulary by data alone: fact value labels, its own facts and values."""

from __future__ import annotations

import pytest

from dogcase.law.errors import PackError
from dogcase.law.loader import PACKS_DIR, Library, load_all

from .invented_packs import write_invented_packs


def test_every_enum_and_set_value_of_the_shared_facts_has_a_label():
    facts = load_all().facts.facts
    for fact in facts.values():
        if fact.type == "bool":
            assert not fact.labels
            continue
        missing = [v for v in fact.ordered_values if v not in fact.labels]
        assert not missing, f"{fact.id}: no label for {missing}"


def test_label_of_gives_the_label_or_the_id_in_words():
    facts = load_all().facts.facts
    assert facts["injury"].label_of("great_bodily_harm") == "Great bodily harm (Minn. Stat. 609.02 subd. 8)"
    assert facts["place"].label_of("private_other") == "Someone else's private property"
    assert facts["victim_conduct"].label_of("committing_crime") == "Committing a crime"
    # a value without a label reads as its id in words
    assert facts["bit"].label_of("some_new_value") == "Some new value"
    assert dict(facts["bit"].labels) == {}


def _facts_with(tmp_path, old: str, new: str) -> Library:
    folder = write_invented_packs(tmp_path / "packs")
    text = (PACKS_DIR / "facts.yaml").read_text(encoding="utf-8")
    assert old in text
    (folder / "facts.yaml").write_text(text.replace(old, new, 1), encoding="utf-8")
    return Library(folder)


def test_a_label_for_a_value_the_fact_does_not_have_names_file_and_line(tmp_path):
    with pytest.raises(PackError) as caught:
        _facts_with(tmp_path, "      human: A person\n", "      postman: A postman\n")
    error = caught.value
    assert error.file.endswith("facts.yaml")
    assert "'postman' is not a value of fact 'victim'" in error.message
    text = (tmp_path / "packs" / "facts.yaml").read_text(encoding="utf-8")
    assert error.line == next(i for i, line in enumerate(text.splitlines(), 1) if "postman" in line)


def test_a_bool_fact_takes_no_labels(tmp_path):
    with pytest.raises(PackError, match="a bool fact takes no labels"):
        _facts_with(
            tmp_path,
            "  - id: bit\n    type: bool\n",
            "  - id: bit\n    type: bool\n    labels: {bitten: Bit}\n",
        )
