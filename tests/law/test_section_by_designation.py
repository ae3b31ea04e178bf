"""A document's section may say something for one designation only (`when: {designation: [...]}`): the same
notice of hearing can tell the owner of a dangerous dog what the owner of a potentially dangerous dog is not
told. A designation the pack does not know is a pack error naming the line."""

import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from dogcase.law import CaseState
from dogcase.law.errors import PackError
from dogcase.law.loader import Library
from tests.packs_library import big_lake_pack, packs_folder

SECTION = """
      - heading: "Only for a dangerous dog"
        text: "This is said to the owner of a dangerous dog only."
        provision: I.2
        when: {designation: [%s]}"""
ANCHOR = """        text: "{hearing.subject}"
"""
AT = dt.datetime(2026, 6, 1, 12, tzinfo=ZoneInfo("America/Chicago"))


def _library(tmp_path, designation: str) -> Library:
    text = big_lake_pack()
    assert text.count(ANCHOR) == 1
    text = text.replace(ANCHOR, ANCHOR.rstrip("\n") + SECTION % designation + "\n", 1)
    return Library(packs_folder(tmp_path / "packs", add={"big-lake-mn": text}, drop=("battle-lake-mn",)))


def test_a_section_for_one_designation_is_in_that_designations_document_only(tmp_path):
    j = _library(tmp_path, "dangerous").get("big-lake-mn")
    doc = j.document_type("hearing_notice", AT.date())
    headings = {
        designation: [s.heading for s in j.applicable_sections(doc, CaseState(designation, AT.date()), AT)]
        for designation in ("dangerous", "potentially_dangerous")
    }
    assert "Only for a dangerous dog" in headings["dangerous"]
    assert "Only for a dangerous dog" not in headings["potentially_dangerous"]


def test_an_unknown_designation_is_a_pack_error(tmp_path):
    with pytest.raises(PackError, match="unknown designation 'menacing'"):
        _library(tmp_path, "menacing")
