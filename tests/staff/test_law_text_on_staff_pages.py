"""The law's text on a case page: a city's provision is quoted; the state layer's text is dogcase's summary of
the statute and says so (its wording is not the Revisor's); the engine's names for an obligation are kept behind
the city attorney's fold."""

import pytest

from tests.staff.conftest import client_for
from tests.staff.page_words import visible_text
from tests.staff.test_case_page import served_dangerous  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db


def obligation(page: str, deadline: str) -> str:
    start = page.rindex("<li", 0, page.index(f'data-deadline="{deadline}"'))
    return page[start : page.index("</li>", start)]


def test_a_state_text_on_the_case_page_is_labelled_a_summary_and_a_city_text_is_quoted(
    officer,
    served_dangerous,  # noqa: F811 - the fixture imported above
):
    page = client_for(officer).get(f"/cases/{served_dangerous.number}").content.decode()
    sterilize = obligation(page, "owner.sterilize")
    state = sterilize[
        sterilize.index("Minn. Stat. § 347.52 (sterilization) <span") : sterilize.index(
            "§ 90.15 (C)(6) <span"
        )
    ]
    assert "A summary of the statute in our words — check the Revisor's text." in state
    assert "<blockquote" not in state
    city = sterilize[sterilize.index("§ 90.15 (C)(6) <span") :]
    assert '<blockquote class="law-text">Upon designation of a dog as dangerous' in city
    fold = sterilize[sterilize.index('<details class="attorney">') :]
    assert "owner.sterilize" in fold and "battle-lake-mn:C.6" in fold
    assert "owner.sterilize" not in visible_text(sterilize)
