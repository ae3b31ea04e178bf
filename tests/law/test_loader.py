"""Loading validates a pack: each broken rule is an error naming the file and the line."""

from __future__ import annotations

import pytest

from dogcase.law.errors import PackError
from dogcase.law.loader import Library

from .invented_packs import CITY, STATE, write_invented_packs


def _load_with(tmp_path, *, state=STATE, city=CITY):
    folder = write_invented_packs(tmp_path / "packs")
    (folder / "north-state" / "pack.yaml").write_text(state, encoding="utf-8")
    (folder / "south-city" / "pack.yaml").write_text(city, encoding="utf-8")
    return Library(folder)


def _line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def test_invented_packs_load(tmp_path):
    lib = _load_with(tmp_path)
    assert set(lib.jurisdictions) == {"north-state", "south-city"}


BROKEN = [
    pytest.param(
        "state",
        '    citation: "N.S. 9.2"\n',
        '    citation: "N.S. 9.2"\n    penalty: 100\n',
        "penalty: 100",
        "unknown key 'penalty'",
        id="unknown key",
    ),
    pytest.param(
        "state",
        '    citation: "N.S. 9.3"\n',
        "",
        '- id: "9.3"',
        "missing required key 'citation'",
        id="provision without citation",
    ),
    pytest.param(
        "city",
        "      - in_force: {from: 2024-01-01}\n",
        "      - in_force: {from: 2023-06-01}\n",
        "from: 2023-06-01",
        "overlap",
        id="overlapping versions",
    ),
    pytest.param(
        "state",
        'defined_by: "9.1"',
        'defined_by: "9.7"',
        "defined_by",
        "provision '9.7', which this pack does not define",
        id="reference to an undefined provision",
    ),
    pytest.param(
        "state",
        "{fact: victim, is: human}",
        "{fact: victim, is: postman}",
        "{fact: victim, is: postman}",
        "'postman' is not a value of fact 'victim'",
        id="a fact value the vocabulary does not have",
    ),
    pytest.param(
        "state",
        "{all: [bit, {not: provoked}",
        "{all: [barked, {not: provoked}",
        "barked",
        "unknown fact 'barked'",
        id="unknown fact",
    ),
    pytest.param(
        "state",
        "    exemption:\n      bars: [menacing]",
        "    exemption:\n      bars: [feral]",
        "bars: [feral]",
        "unknown designation 'feral'",
        id="unknown designation",
    ),
    pytest.param(
        "city",
        "  observes: {harvest_day: true}\n",
        "  observes: {}\n",
        "observes: {}",
        "must say whether it observes harvest_day",
        id="a city that leaves an optional holiday undecided",
    ),
    pytest.param(
        "state",
        "      period: {amount: 10, unit: calendar_days}\n      counting: mn_645_15",
        "      period: {amount: 10, unit: hours}\n      counting: mn_645_15",
        "unit: hours",
        "cannot be counted with mn_645_15",
        id="a period counted the wrong way",
    ),
    pytest.param(
        "state",
        '  - id: "9.4"\n',
        "  - id: 9.4\n",
        "id: 9.4",
        "write it in quotes",
        id="an id YAML reads as a number",
    ),
    pytest.param(
        "city",
        "  case_prefix: SC\n",
        "  case_prefix: sc\n",
        "case_prefix: sc",
        "must be a case number prefix",
        id="a lower-case case prefix",
    ),
    pytest.param(
        "city",
        "  case_prefix: SC\n",
        "  case_prefix: SOUTHCITY\n",
        "case_prefix: SOUTHCITY",
        "1 to 6 upper-case letters or digits",
        id="a case prefix too long",
    ),
    pytest.param(
        "city",
        "  case_prefix: SC\n",
        "",
        "jurisdiction:",
        "missing required key 'case_prefix'",
        id="a pack without a case prefix",
    ),
    pytest.param(
        "state",
        "  - {id: warden, label: Dog warden}\n",
        "  - {id: warden, label: Dog warden\n",
        "label: Dog warden",
        "not valid YAML",
        id="YAML syntax error",
    ),
]


@pytest.mark.parametrize(("which", "old", "new", "line_marker", "message"), BROKEN)
def test_broken_pack_names_file_line_and_rule(tmp_path, which, old, new, line_marker, message):
    texts = {"state": STATE, "city": CITY}
    assert old in texts[which], "the test's anchor text must exist in the pack"
    texts[which] = texts[which].replace(old, new, 1)
    with pytest.raises(PackError) as caught:
        _load_with(tmp_path, state=texts["state"], city=texts["city"])
    error = caught.value
    folder = "north-state" if which == "state" else "south-city"
    assert error.file.endswith(f"{folder}/pack.yaml")
    assert message in error.message
    expected_line = _line_of(texts[which], line_marker)
    assert error.line is not None
    assert abs(error.line - expected_line) <= 2, f"line {error.line}, expected about {expected_line}: {error}"


def test_city_over_a_missing_state_pack_is_an_error(tmp_path):
    with pytest.raises(PackError, match="layer_over names 'nowhere'"):
        _load_with(tmp_path, city=CITY.replace("layer_over: north-state", "layer_over: nowhere"))


def test_folder_name_must_match_jurisdiction_id(tmp_path):
    with pytest.raises(PackError, match="must match its folder name"):
        _load_with(tmp_path, city=CITY.replace("id: south-city", "id: west-city"))


def test_two_packs_with_one_case_prefix_is_an_error_naming_both(tmp_path):
    # big-lake-mn and battle-lake-mn once both numbered their cases BL-...: two cases, one number
    with pytest.raises(PackError) as caught:
        _load_with(tmp_path, city=CITY.replace("case_prefix: SC", "case_prefix: NS"))
    error = caught.value
    assert "case_prefix 'NS'" in error.message
    assert error.file.endswith("south-city/pack.yaml")
    assert "already the prefix of north-state" in error.message


def test_the_shipped_packs_keep_the_prefixes_their_case_numbers_already_have():
    from dogcase.law import library

    packs = library().packs
    assert packs["battle-lake-mn"].case_prefix == "BL"
    assert packs["tracy-mn"].case_prefix == "T"
    assert len({p.case_prefix for p in packs.values()}) == len(packs)
