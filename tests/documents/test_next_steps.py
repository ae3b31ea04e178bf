"""The "what happens next and by when" box of the owner's documents: computed from the case by the law
engine, each line with its date, its citation and what happens if it is missed (issue 8, item 5)."""

import datetime as dt
import re

from dogcase.documents.next_steps import date_words, next_steps, render_next_steps
from tests.cases.conftest import SERIOUS, at, on, story  # noqa: F401

BATTLE_LAKE = "battle-lake-mn"
TRACY = "tracy-mn"


def served_dangerous(story):  # noqa: F811
    s = story(BATTLE_LAKE, SERIOUS)
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


def classified_vicious(story):  # noqa: F811
    s = story(TRACY)
    s.step("classify", "clerk", 0, designation="vicious", reasonable_cause="Unprovoked bite, two witnesses")
    s.step("notify_classification", "clerk", 0, sent_on=on(0), certified_mail=True)
    return s


def _text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_battle_lake_owner_is_told_the_hearing_window_and_the_sterilization_with_their_law(story):  # noqa: F811
    s = served_dangerous(story)
    steps = next_steps(s.case, at=at(1, 12))
    owner = [x for x in steps if x.who == "owner"]
    assert steps[: len(owner)] == owner  # the owner's lines come first
    hearing = next(
        x for x in owner if x.what.startswith("request a hearing on the dangerous dog declaration")
    )
    assert hearing.due == dt.date(2026, 6, 16)  # 14 days from the notice of June 2 (645.15)
    assert hearing.right and "§ 90.15 (H)" in hearing.citation and "347.541" in hearing.citation
    sterilize = next(x for x in owner if "sterilized" in x.what)
    assert sterilize.due == dt.date(2026, 7, 1)
    assert not sterilize.right
    # one seizure, with every provision that attaches it (issue 18: not one line per provision)
    assert any("§ 90.15 (C)(6)" in c.citation.split("; ") for c in sterilize.consequences)

    text = _text(render_next_steps(s.case, at=at(1, 12)))
    assert "What happens next, and by when" in text
    assert "by Tuesday, 16 June 2026" in text
    assert "If you do not do it by then, you lose this right." in text
    # what happens if the sterilization is missed: one seizure, every provision that attaches it
    assert "Seizure authorized under Minn. Stat. § 347.52 (sterilization); § 90.15 (C)(6)" in text
    assert "§ 90.15 (C)(6); § 90.15 (J)(1)(e))" in text
    # the city's side too: it may not seize under (J)(1) until the owner's 14 days to appeal have run (the day
    # after their last day, 16 June: dogcase's reading of (J)(1), J1-seizure-wait-counting)
    assert "The city" in text and "not before Wednesday, 17 June 2026" in text


def test_battle_lake_after_the_request_the_city_must_hold_the_hearing(story):  # noqa: F811
    s = served_dangerous(story)
    s.step("receive_hearing_request", "clerk", 5, received_on=on(5))
    steps = next_steps(s.case, at=at(5, 12))
    assert not any(x.what.startswith("request a hearing") for x in steps)  # met: no longer listed
    hold = next(x for x in steps if x.what == "hold the hearing on the dangerous dog declaration")
    assert (hold.who, hold.due) == ("city", dt.date(2026, 6, 22))  # June 20 is a Saturday: Monday (645.15)
    assert "§ 90.15 (C)(3)" in hold.citation


def test_tracy_vicious_owner_has_five_business_days_and_the_insurance_proof(story):  # noqa: F811
    s = classified_vicious(story)
    steps = next_steps(s.case, at=at(1, 12))
    request = next(
        x for x in steps if x.what.startswith("file a written request for a hearing before the City")
    )
    assert request.due == dt.date(2026, 6, 8)  # five business days from Monday June 1
    assert request.citation == "Tracy City Code § 8.31, Subd 4.A"
    insurance = next(x for x in steps if "liability insurance" in x.what)
    assert insurance.due == dt.date(2026, 6, 11)
    assert insurance.consequences[0].citation == "Tracy City Code § 8.31, Subd 6.B"
    text = _text(render_next_steps(s.case, at=at(1, 12)))
    assert "by Monday, 8 June 2026" in text and "Tracy City Code § 8.31, Subd 4.A" in text
    assert "An impoundment order authorized under Tracy City Code § 8.31, Subd 6.B" in text


def test_the_box_shows_no_engine_identifiers(story):  # noqa: F811
    s = served_dangerous(story)
    html = render_next_steps(s.case, at=at(1, 12))
    for identifier in ("owner.request_hearing", "registration_trigger", "city.seizure_wait", "not_yet"):
        assert identifier not in html
    # the cut-off (C)(4) leaves the registration date open: said in words, with its clause
    assert "the date cannot be worked out yet" in _text(html)


def test_a_state_after_the_step_is_used_when_given(story):  # noqa: F811
    s = story(BATTLE_LAKE, SERIOUS)
    s.step("declare", "officer", 0, designation="dangerous", basis="Unprovoked bite, see incident report")
    before = next_steps(s.case, at=at(1, 12))
    assert not any(x.what.startswith("request a hearing") for x in before)  # no notice yet: no clock
    served = served_dangerous(story)
    from dogcase.cases.acts import case_state

    after = next_steps(s.case, at=at(1, 12), state=case_state(served.case))
    assert any(x.what.startswith("request a hearing") for x in after)


def test_dates_in_words_in_english_and_spanish():
    day = dt.date(2026, 12, 14)
    assert date_words(day) == "Monday, 14 December 2026"
    assert date_words(day, "es") == "lunes 14 de diciembre de 2026"
