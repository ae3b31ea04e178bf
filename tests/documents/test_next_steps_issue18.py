"""Issue 18, items 2, 3 and 10: the rows of "What happens next, and by when" say what the law says.

- A right that opens (the annual review, § 90.15 (C)(7), 347.51 subd. 3a: "Beginning six months after ... an owner
  may request annually") is not lost by waiting: no "you lose this right" beside it.
- A consequence that an appeal holds ((C)(2)(c)-(d), 347.541 subd. 3-4) says so, with the first date the law lets it
  follow — the date the act itself (`seize`) is first allowed; the (J)(1) row is not printed while the appeal holds
  it, and it lists its grounds; the seizure the state and the city attach to the same missed time is one line
  listing every provision.
- No engine text reaches the owner: the cut-off (C)(4) is the city attorney's matter; the owner reads what to do and
  that the city will tell when the time starts.
"""

import re

import pytest

from dogcase.cases import acts
from dogcase.documents.next_steps import box_rows, next_steps, render_next_steps
from tests.cases.conftest import DAY0, SERIOUS, at, on, story  # noqa: F401

BATTLE_LAKE = "battle-lake-mn"
TRACY = "tracy-mn"


def _text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).replace("&#x27;", "'").split())


def _served(story, city=BATTLE_LAKE):  # noqa: F811
    """A dog declared dangerous on DAY0 (June 1, 2026), the notice handed to the owner on June 2: the owner's
    14 days to ask for a hearing end June 16, the 30 days to sterilize July 1 (day 30)."""
    s = story(city, SERIOUS)
    s.step("declare", "officer", 0, designation="dangerous", basis="Unprovoked bite, see incident report")
    served = {"served_owner": "Olive Owner"} if city == BATTLE_LAKE else {}
    s.step("serve_notice", "officer", 1, served_on=on(1), method="personal", received_on=on(1), **served)
    return s


def _appealed(story):  # noqa: F811
    s = _served(story)
    s.step("receive_hearing_request", "clerk", 5, received_on=on(5))
    return s


def _confirmed(story):  # noqa: F811
    """Appealed, heard, upheld (June 21), the decision received June 23, confirmed by the Council on day 29:
    the owner's 14 days of (C)(2)(d) end July 7 (day 36)."""
    s = _appealed(story)
    s.step(
        "schedule_hearing",
        "clerk",
        6,
        hearing_at=at(15, 14).isoformat(),
        place="City Hall",
        hearing_officer=str(s.staff["hearing"].pk),
    )
    s.step("hold_hearing", "hearing", 15, held_on=on(15), owner_present=True)
    s.step("decide_appeal", "hearing", 20, outcome="upheld", method="registered_mail", copy_to_authority=True)
    s.step("recommend", "hearing", 20, outcome="confirm")
    s.step("record_decision_receipt", "clerk", 22, received_on=on(22))
    s.step("confirm_or_rescind", "council", 29, outcome="confirmed", resolution="Res. 2026-1")
    return s


def _row(rows, starts: str):
    return next(r for r in rows if r["what"].lower().startswith(starts))


def _step(steps, starts: str):
    return next(x for x in steps if x.what.lower().startswith(starts))


# ------------------------------------------------------------------------------------ item 2: a right that opens


@pytest.mark.parametrize(
    ("city", "review"),
    [
        (BATTLE_LAKE, "request that the animal control authority review"),  # § 90.15 (C)(7)
        (TRACY, "ask the animal control authority to review"),  # the state's 347.51 subd. 3a, in Tracy
    ],
)
def test_the_annual_review_opens_and_is_never_lost_by_waiting(story, city, review):  # noqa: F811
    s = _served(story, city)
    steps = next_steps(s.case, at=at(1, 12))
    rows = box_rows(steps)
    opening = _row(rows, review)
    assert opening["when_words"] == "not before"  # six months after the declaration
    assert opening["missed"] == []  # nothing is lost by waiting
    # the hearing request is a right whose time ends: it keeps its sentence
    hearing = _row(rows, "request a hearing")
    assert [m["what"] for m in hearing["missed"]] == ["If you do not do it by then, you lose this right."]
    text = _text(render_next_steps(s.case, at=at(1, 12)))
    assert text.count("you lose this right") == 1


def test_a_right_with_no_date_yet_is_lost_only_if_not_used_in_time(story):  # noqa: F811
    s = story(TRACY)
    s.step("classify", "clerk", 0, designation="vicious", reasonable_cause="Unprovoked bite, two witnesses")
    s.step("notify_classification", "clerk", 0, sent_on=on(0), certified_mail=False)
    rows = box_rows(next_steps(s.case, at=at(1, 12)))
    request = _row(rows, "file a written request for a hearing")
    assert request["when"] == "" and request["at_least"] == ""  # no certified mail: Subd 4.A has not started
    assert [m["what"] for m in request["missed"]] == ["If you do not do it in time, you lose this right."]


# ------------------------------------------------------------------------ item 3: consequences and the appeal


def test_the_sterilization_seizure_is_one_line_listing_every_provision(story):  # noqa: F811
    s = _served(story)
    sterilize = _step(next_steps(s.case, at=at(1, 12)), "have the dog sterilized")
    assert len(sterilize.consequences) == 1
    line = sterilize.consequences[0]
    cites = line.citation.split("; ")
    assert {"Minn. Stat. § 347.52 (sterilization)", "§ 90.15 (C)(6)", "§ 90.15 (J)(1)(e)"} <= set(cites)
    assert not line.held  # no appeal: the seizure may follow as soon as the 30 days have passed
    text = _text(render_next_steps(s.case, at=at(1, 12)))
    assert text.count("Seizure authorized") == 1
    # and the act agrees: the day after the 30 days the dog may be seized for it
    s.step("seize", "officer", 31, ground="not_sterilized", place="the owner's yard")


def test_while_the_appeal_is_pending_the_sterilization_seizure_is_held(story):  # noqa: F811
    s = _appealed(story)
    sterilize = _step(next_steps(s.case, at=at(5, 12)), "have the dog sterilized")
    (line,) = sterilize.consequences
    assert line.held and line.held_until is None
    waited = " ".join(what for _who, what, _cite in line.waits_for)
    assert "after the hearing officer affirms" in waited
    assert any("§ 90.15 (C)(2)(d)" in cite for _who, _what, cite in line.waits_for)
    row = _row(box_rows([sterilize]), "have the dog sterilized")
    (missed,) = row["missed"]
    assert missed["hold"].startswith("Not yet: the city must first wait until the owner's time to comply")
    text = _text(render_next_steps(s.case, at=at(5, 12)))
    assert "Not yet: the city must first wait until the owner's time to comply" in text
    # the act agrees: after the 30 days, with the appeal still undecided, the seizure for it is refused
    refused = s.refused("seize", "officer", 31, ground="not_sterilized")
    assert "waiting" in [r["code"] for r in refused.refusals]


def test_while_the_appeal_is_pending_the_j1_row_is_not_printed(story):  # noqa: F811
    served = _served(story)
    before = next_steps(served.case, at=at(1, 12))
    assert any(x.who == "city" and x.what.startswith("seize under (J)(1)") for x in before)
    s = _appealed(story)
    after = next_steps(s.case, at=at(5, 12))
    assert not any(x.who == "city" and x.what.startswith("seize under (J)(1)") for x in after)
    assert "Seize under (J)(1)" not in _text(render_next_steps(s.case, at=at(5, 12)))


def test_the_j1_row_lists_its_grounds_and_the_first_day_the_city_may_act(story):  # noqa: F811
    s = _served(story)
    steps = next_steps(s.case, at=at(1, 12))
    j1 = _step(steps, "seize under (j)(1)")
    grounds = [g.citation.split("; ")[-1] for g in j1.grounds]
    assert grounds == ["§ 90.15 (J)(1)(a)", "§ 90.15 (J)(1)(b)", "§ 90.15 (J)(1)(c)", "§ 90.15 (J)(1)(d)"]
    # (J)(1) waits for the owner's time to ask for a hearing to pass (dogcase's reading J1-seizure-wait-counting):
    # it ends June 16, so the city may act from June 17 (day 16), not on the owner's last day
    assert j1.due == DAY0.replace(day=17)
    text = _text(render_next_steps(s.case, at=at(1, 12)))
    assert "The city — not before Wednesday, 17 June 2026" in text
    assert "Only on one of these grounds:" in text
    assert "The dog is not validly registered under this section" in text
    refused = s.refused("seize", "officer", 15, ground="not_registered")
    assert "waiting" in [r["code"] for r in refused.refusals]
    s.step("seize", "officer", 16, ground="not_registered", place="the owner's yard")


def test_after_an_affirming_decision_the_seizure_follows_the_owners_14_days_to_comply(story):  # noqa: F811
    s = _confirmed(story)
    steps = next_steps(s.case, at=at(29, 12))
    sterilize = _step(steps, "have the dog sterilized")
    assert sterilize.due == DAY0.replace(month=7, day=1)  # the duty keeps its date (day 30)
    (line,) = sterilize.consequences
    day_after_comply = DAY0.replace(month=7, day=8)  # the 14 days of (C)(2)(d) end July 7
    assert line.held_until == day_after_comply
    j1 = _step(steps, "seize under (j)(1)")
    assert j1.due == day_after_comply  # the (J)(1) grounds wait for them too (J1-seizure-after-appeal)
    text = _text(render_next_steps(s.case, at=at(29, 12)))
    assert (
        "Not before Wednesday, 8 July 2026: the city must first wait until the owner's time to comply" in text
    )
    assert "The city — not before Wednesday, 8 July 2026" in text
    # the printed date is the act's: refused the day before, allowed on it
    refused = s.refused("seize", "officer", 36, ground="not_sterilized")
    assert "waiting" in [r["code"] for r in refused.refusals]
    s.step("seize", "officer", 37, ground="not_sterilized", place="the owner's yard")


def test_an_obligation_the_dog_already_held_makes_moot_keeps_the_laws_words(story):  # noqa: F811
    s = _served(story)
    s.step("seize", "officer", 16, ground="not_registered", place="the owner's yard")
    sterilize = _step(next_steps(s.case, at=at(16, 12)), "have the dog sterilized")
    assert [c.held for c in sterilize.consequences] == [False]


# --------------------------------------------------------------------- item 10: no engine text for the owner


def test_the_cut_off_registration_clause_reaches_the_owner_as_what_to_do(story):  # noqa: F811
    s = _served(story)
    html = render_next_steps(s.case, at=at(1, 12))
    text = _text(html)
    assert "Complete registration of the dangerous dog (within 14 days)." in text
    assert "the date cannot be worked out yet: the city will tell you when this starts" in text
    for engine_words in ("cut off", "setting", "the owner’", "dogcase", "registration_trigger", "_"):
        assert engine_words not in text, engine_words
    # the defect stays where staff read it: the engine's reason, for the city attorney's fold
    state = acts.case_state(s.case)
    register = next(
        o
        for o in acts.jurisdiction_of(s.case).obligations(state, at(1, 12))
        if o.deadline_id == "owner.register"
    )
    assert "cut off" in register.reason


def test_the_spanish_explanation_says_the_city_will_tell_when_it_starts(story):  # noqa: F811
    s = _served(story)
    rows = box_rows(next_steps(s.case, at=at(1, 12)), "es")
    register = _row(rows, "complete registration")
    assert register["starts_later"]
    assert "The city will tell you when this starts." in register["explanation"]["sentence"] or (
        "ciudad" in register["explanation"]["sentence"]
    )
