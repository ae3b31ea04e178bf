"""A city's pack may ship its own words in an owner's language (`<pack>/es.yaml`): owner pages read the shipped
catalogue, then the pack's; a text neither translates is shown in English, and `dogcase law check` lists it as a
warning, never a failure. A translation that drops a {placeholder} is refused when the packs load."""

import json

import pytest

from dogcase.cases.translation import missing_translations, owner_words, translated
from dogcase.cli import main
from dogcase.law.errors import PackError
from dogcase.law.loader import Library
from tests.law.lakeview import install_lakeview
from tests.packs_library import use_library

DECLARED = "Declare the dog aggressive"


@pytest.fixture
def packs(tmp_path):
    return install_lakeview(tmp_path / "packs")


def _lakeview_steps(lib) -> set[str]:
    j = lib.get("lakeview-mn")
    return owner_words(j, j.today())["step's name"]


def test_a_city_without_spanish_is_warned_of_each_text_an_owner_reads_in_english(packs, monkeypatch):
    lib = use_library(monkeypatch, Library(packs))
    assert DECLARED in _lakeview_steps(lib)
    warned = {w["warning"] for w in missing_translations(lib) if w["pack"] == "lakeview-mn"}
    assert any(repr(DECLARED) in w and "lakeview-mn/es.yaml" in w for w in warned)
    # the shipped packs are all in the catalogue: nothing to warn of
    assert not [w for w in missing_translations(lib) if w["pack"] != "lakeview-mn"]


def test_the_packs_own_spanish_is_used_and_the_warning_goes(packs, monkeypatch):
    (packs / "lakeview-mn" / "es.yaml").write_text(
        f'"{DECLARED}": "Declarar agresivo al perro"\n', encoding="utf-8"
    )
    lib = use_library(monkeypatch, Library(packs))
    assert translated(DECLARED, "es") == "Declarar agresivo al perro"
    assert translated(DECLARED, "en") is None  # English pages show the pack's own words
    assert not [w for w in missing_translations(lib) if repr(DECLARED) in w["warning"]]


def test_a_translation_that_drops_a_placeholder_is_refused_naming_the_file(packs):
    (packs / "lakeview-mn" / "es.yaml").write_text(
        '"The dog was seized ({ground})": "El perro fue incautado"\n', encoding="utf-8"
    )
    with pytest.raises(PackError, match="placeholders") as error:
        Library(packs)
    assert error.value.file.endswith("lakeview-mn/es.yaml")


def test_law_check_lists_the_missing_words_as_warnings_and_still_passes(packs, capsys):
    assert main(["law", "check", "--packs", str(packs)]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["ok"] is True
    assert any(DECLARED in w["warning"] for w in answer["warnings"] if w["pack"] == "lakeview-mn")
