"""The letter on a dangerous dog's move (347.52 (c)): to the animal control authority of the city or county it
moved to — one served here, at the address its City settings give, or another, at the address recorded with the
move — read back from its PDF. A potentially dangerous dog's move issues none (the rule reaches a dangerous dog)."""

import pytest

from dogcase.cases.models import CaseMove
from dogcase.documents.models import CityOffice
from dogcase.law import ELSEWHERE
from tests.documents.conftest import SERIOUS, on, pdf_text, without_footers

pytestmark = pytest.mark.django_db


def flat(doc) -> str:
    return " ".join(without_footers(pdf_text(doc)).split())


def letter(result):
    found = [d for d in result.documents if d.doc_type == "new_jurisdiction_letter"]
    assert found, [d.doc_type for d in result.documents]
    return found[0]


def moved(make_case, destination, designation="dangerous", **more):
    c = make_case("battle-lake-mn", facts=SERIOUS)
    c.declare(day=1, designation=designation)
    inputs = {"moved_on": on(38), "destination": destination, "new_address": "9 Oak Avenue, Tracy, MN 56175"}
    return c, c.step("record_move", "officer", 40, **{**inputs, **more})


def test_a_move_to_a_place_not_served_writes_to_its_animal_control_authority(make_case):
    c, result = moved(
        make_case,
        ELSEWHERE,
        destination_name="Fergus Falls, MN",
        authority_address="112 West Washington Avenue, Fergus Falls, MN 56537",
    )
    text = flat(letter(result))
    assert (
        "Animal control authority, Fergus Falls, MN 112 West Washington Avenue, Fergus Falls, MN 56537"
        in text
    )
    assert f"declared a dangerous dog in City of Battle Lake (case {c.case.number})" in text
    assert (
        "moved to Fergus Falls, MN on Thursday, 9 July 2026, to live at 9 Oak Avenue, Tracy, MN 56175" in text
    )
    assert "must be registered as a dangerous dog in its new jurisdiction" in text
    assert "Rexford" in text and "985112003456789" in text
    assert "Minn. Stat. § 347.52(c)" in text
    assert not CaseMove.objects.exists()


def test_a_move_to_a_city_served_here_writes_to_it_at_its_own_address_and_takes_the_case(make_case):
    CityOffice.objects.update_or_create(
        jurisdiction="tracy-mn",
        office="animal_control_authority",
        defaults={"address": "336 Morgan Street, Tracy, MN 56175", "telephone": "507-555-0199"},
    )
    c, result = moved(make_case, "tracy-mn")
    text = flat(letter(result))
    assert "Animal control authority, City of Tracy, Minnesota 336 Morgan Street, Tracy, MN 56175" in text
    assert "moved to City of Tracy, Minnesota on Thursday, 9 July 2026" in text
    assert CaseMove.objects.get(from_case=c.case).to_case.jurisdiction == "tracy-mn"


def test_a_potentially_dangerous_dog_s_move_issues_no_letter(make_case):
    _c, result = moved(make_case, "tracy-mn", designation="potentially_dangerous")
    assert [d.doc_type for d in result.documents if d.doc_type == "new_jurisdiction_letter"] == []
    assert not CaseMove.objects.exists()
