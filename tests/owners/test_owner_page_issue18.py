"""Issue 18, items 2, 3 and 10, on the owner's page ("What you must do, and by when"): the annual review is a right
that opens, not one lost by waiting; a seizure the owner's appeal holds says so, once, with every provision; the
cut-off § 90.15 (C)(4) reaches the owner as what to do, never as the text's defect."""

import re

import time_machine
from django.test import Client

from dogcase.owners import codes
from tests.cases.conftest import SERIOUS, at, on, story  # noqa: F401  (the story fixture)
from tests.owners.conftest import owner_of

CITY = "battle-lake-mn"


def _text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).replace("&#x27;", "'").split())


def _obligations(html: str) -> list[str]:
    """Each obligation of the owner's page, as text."""
    card = re.search(
        r'<section class="card" aria-labelledby="obligations-h">(.*?)</section>', html, re.DOTALL
    )
    assert card
    return [_text(li) for li in re.findall(r'<li class="obligation">(.*?)</li>', card.group(1), re.DOTALL)]


def _served_dangerous(story):  # noqa: F811
    """Declared dangerous on June 1, 2026, the notice handed to the owner on June 2."""
    s = story(CITY, SERIOUS)
    s.step("declare", "officer", 0, designation="dangerous", basis="Unprovoked bite, see incident report")
    s.step(
        "serve_notice",
        "officer",
        1,
        served_on=on(1),
        method="personal",
        served_owner="Olive Owner",
        received_on=on(1),
    )
    return s


def _owners_page(s, day: int) -> list[str]:
    _row, code = codes.issue_code(s.case, owner_of(s), actor=s.staff["officer"])
    with time_machine.travel(at(day, 12), tick=False):
        client = Client()
        signed_in = client.post("/owner/", {"code": code, "fact": "Rex"})
        assert signed_in.status_code == 302
        page = client.get(signed_in["Location"])
    assert page.status_code == 200
    return _obligations(page.content.decode())


def _one(items: list[str], starts: str) -> str:
    found = [i for i in items if i.startswith(starts)]
    assert len(found) == 1, (starts, items)
    return found[0]


def test_the_review_is_a_right_that_opens_and_the_hearing_request_one_that_ends(story):  # noqa: F811
    items = _owners_page(_served_dangerous(story), 2)
    review = _one(items, "Request that the animal control authority review the dangerous dog designation")
    assert "From Tuesday, 1 December 2026" in review  # six months after the declaration (§ 90.15 (C)(7))
    assert "If missed" not in review and "lose this right" not in review
    hearing = _one(items, "Request a hearing on the dangerous dog declaration")
    assert "If missed: If you do not do it by then, you lose this right." in hearing


def test_the_cut_off_registration_clause_reaches_the_owner_as_what_to_do(story):  # noqa: F811
    items = _owners_page(_served_dangerous(story), 2)
    register = _one(items, "Complete registration of the dangerous dog (within 14 days)")
    assert "No date can be worked out yet. The city will tell you when this starts." in register
    for engine_words in ("cut off", "setting", "the owner’", "registration_trigger"):
        assert engine_words not in " ".join(items), engine_words


def test_an_appeal_holds_the_sterilization_seizure_and_the_page_says_so_once(story):  # noqa: F811
    s = _served_dangerous(story)
    before = _one(_owners_page(s, 2), "Have the dog sterilized")
    assert before.count("If missed:") == 1  # the state's, (C)(6)'s and (J)(1)(e)'s seizure: one line
    assert "§ 347.52 (sterilization); § 90.15 (C)(6); § 90.15 (J)(1)(e)" in before
    assert "Not yet" not in before

    s.step("receive_hearing_request", "clerk", 5, received_on=on(5))
    after = _one(_owners_page(s, 31), "Have the dog sterilized")  # the 30 days ended July 1 (day 30)
    assert "1 day late" in after
    assert after.count("If missed:") == 1
    assert (
        "Not yet: the city must first wait until the owner's time to comply with all requirements of Minn. Stat. "
        "347.51, 347.515 and 347.52 after the hearing officer affirms the dangerous dog declaration" in after
    )
    assert "§ 90.15 (C)(2)(d)" in after


def test_a_time_an_appeal_may_extend_is_not_counted_late_on_its_earliest_day(story):  # noqa: F811
    """Tracy Subd 5.F: proof of insurance ten days after the classification or after the hearing that upholds
    it, the later. With the owner's appeal pending only the first date is known: once it has passed the owner
    is not "late" — the later date cannot be worked out yet."""
    s = story("tracy-mn")
    s.step("classify", "clerk", 0, designation="vicious", reasonable_cause="Unprovoked bite, two witnesses")
    s.step("notify_classification", "clerk", 0, sent_on=on(0), certified_mail=True)
    s.step("receive_classification_appeal", "clerk", 3, received_on=on(3))
    insurance = _one(_owners_page(s, 12), "Give the City Administrator proof of the liability insurance")
    assert "By Thursday, 11 June 2026 or, if that is later," in insurance
    assert "day late" not in insurance and "days late" not in insurance
    assert "— no date yet" in insurance
