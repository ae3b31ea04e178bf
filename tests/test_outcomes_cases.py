"""Issue 20, items 2 and 11: cases taken through the legal acts read as what happened, with the date, on the
owner's page and the staff case page; "where it stands" follows the latest act; a hearing held no longer shows
as scheduled; the owner's page names the city office and its telephone."""

from __future__ import annotations

import re

import time_machine
from django.test import Client

from dogcase.cases import updates
from dogcase.cases.models import Case
from dogcase.cases.outcomes import event_outcome, latest_outcome
from dogcase.documents.models import CityOffice
from dogcase.law import library
from dogcase.owners import codes
from dogcase.staff.actwords import stage_words
from tests.cases.conftest import BITE, SERIOUS, at, on, story  # noqa: F401  (the story fixture)
from tests.cases.test_battle_lake_case import appeal_to_decision, declared
from tests.owners.conftest import owner_of

BATTLE_LAKE = "battle-lake-mn"
TRACY = "tracy-mn"
STEP_TITLES = (
    "Receive the owner's written request",
    "City Council: confirm or rescind",
    "Issue the hearing officer's decision",
    "Hold the appeal hearing",
)


def _text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).replace("&#x27;", "'").replace("&amp;", "&").split())


def _card(html: str, heading_id: str) -> str:
    found = re.search(
        rf'<section class="card" aria-labelledby="{heading_id}">(.*?)</section>', html, re.DOTALL
    )
    assert found, heading_id
    return _text(found.group(1))


def _owner_page(s, day: int) -> str:
    _row, code = codes.issue_code(s.case, owner_of(s), actor=s.staff["officer"])
    with time_machine.travel(at(day, 12), tick=False):
        client = Client()
        signed_in = client.post("/owner/", {"code": code, "fact": "Rex"})
        assert signed_in.status_code == 302
        page = client.get(signed_in["Location"])
    assert page.status_code == 200
    return page.content.decode()


def _staff_page(s, day: int) -> str:
    client = Client()
    client.force_login(s.staff["clerk"])
    with time_machine.travel(at(day, 12), tick=False):
        page = client.get(f"/cases/{s.case.number}")
    assert page.status_code == 200
    return page.content.decode()


def _council(story, outcome: str):  # noqa: F811
    s = declared(story, "dangerous", SERIOUS)
    appeal_to_decision(s, "upheld" if outcome == "confirmed" else "rescinded")
    s.step("confirm_or_rescind", "council", 30, outcome=outcome, decided_on=on(29), resolution="Res. 2026-1")
    s.case.refresh_from_db()
    return s


def test_after_the_council_confirms_the_owner_reads_that_it_confirmed(story):  # noqa: F811
    s = _council(story, "confirmed")
    # the Council met on June 30 (its meeting date dates the act, not the day the clerk recorded it)
    assert s.case.stage == "The City Council confirmed the designation"
    html = _owner_page(s, 31)
    stands = _card(html, "stands-h")
    assert "The City Council confirmed the designation on 30 June 2026." in stands
    history = _card(html, "history-h")
    assert "The City Council confirmed the designation on 30 June 2026." in history
    assert "The owner asked in writing for a hearing on the designation on 6 June 2026." in history
    assert "The hearing officer upheld the declaration in a written decision on" in history
    for title in STEP_TITLES:
        assert title not in history
    # the hearing was held: no longer shown as to come, and what followed it is said
    hearing = _card(html, "hearing-h")
    assert "The hearing set for Tuesday, 16 June 2026, 2:00 p.m. was held." in hearing
    assert "The City Council confirmed the designation on 30 June 2026." in hearing
    assert "No hearing is scheduled" not in hearing


def test_after_the_council_rescinds_the_owner_reads_that_it_rescinded(story):  # noqa: F811
    s = _council(story, "rescinded")
    assert s.case.status == Case.Status.CLOSED
    html = _owner_page(s, 31)
    assert "The City Council rescinded the designation on 30 June 2026." in _card(html, "stands-h")
    assert "confirmed the designation" not in html


def test_the_staff_page_shows_each_act_as_its_outcome_and_where_it_stands(story):  # noqa: F811
    s = _council(story, "confirmed")
    html = _staff_page(s, 31)
    stage = re.search(r'<dd class="stage">(.*?)</dd>', html, re.DOTALL)
    assert stage and _text(stage.group(1)) == "The City Council confirmed the designation"
    timeline = _text(html[html.index('id="timeline-h"') :])
    assert "The City Council confirmed the designation on 30 June 2026." in timeline
    assert "The city declared the dog dangerous on 1 June 2026." in timeline
    assert (
        "The hearing officer recommended in writing that the City Council confirm the designation" in timeline
    )


def test_where_it_stands_follows_the_latest_act(story):  # noqa: F811
    s = declared(story, "dangerous", SERIOUS)
    j = library().jurisdictions[BATTLE_LAKE]
    assert latest_outcome(s.case, j)["what"] == "The city served the notice of the declaration on the owner"
    assert stage_words(s.case.stage) == "The city served the notice of the declaration on the owner"
    s.step("receive_hearing_request", "clerk", 5, received_on=on(5))
    s.case.refresh_from_db()
    assert latest_outcome(s.case, j)["what"] == "The owner asked in writing for a hearing on the designation"
    assert s.case.stage == "The owner asked in writing for a hearing on the designation"


def test_a_seizure_says_its_ground_in_words(story):  # noqa: F811
    s = declared(story, "dangerous", SERIOUS)
    s.step("seize", "officer", 20, ground="not_registered")
    e = s.case.events.filter(act="seize").get()
    said = event_outcome(e, library().jurisdictions[BATTLE_LAKE])
    assert said["text"].startswith("The city seized the dog (ground: the dog is not validly registered")
    assert "not_registered" not in said["text"]


def test_a_tracy_case_reads_as_what_the_council_decided(story):  # noqa: F811
    s = story(TRACY, BITE)
    s.step("classify", "clerk", 0, designation="vicious", reasonable_cause="Unprovoked bite, two witnesses")
    s.step("notify_classification", "clerk", 0, sent_on=on(0), certified_mail=True)
    s.step("receive_classification_appeal", "clerk", 2, received_on=on(2))
    s.step("hold_classification_hearing", "council", 6, held_on=on(6))
    s.step("decide_classification_appeal", "council", 7, outcome="upheld", notified_on=on(7))
    s.case.refresh_from_db()
    assert s.case.stage == "The City Council upheld the vicious dog classification"
    html = _owner_page(s, 8)
    assert "The City Council upheld the vicious dog classification on 8 June 2026." in _card(html, "stands-h")
    history = _card(html, "history-h")
    assert "The city classified the dog as vicious on 1 June 2026." in history
    assert "The City Council held the hearing on the classification on 7 June 2026." in history
    staff = _staff_page(s, 8)
    assert "The City Council upheld the vicious dog classification on 8 June 2026." in _text(staff)


def test_the_owner_reads_it_in_spanish(story):  # noqa: F811
    s = _council(story, "confirmed")
    owner = owner_of(s)
    updates.update_person(
        owner, actor=s.staff["officer"], changes={"preferred_language": "es"}, reason="Asked for it"
    )
    html = _owner_page(s, 31)
    stands = re.search(r'<p class="stands"[^>]*>(.*?)</p>', html, re.DOTALL)
    assert (
        stands
        and _text(stands.group(1)) == "El Concejo Municipal confirmó la designación el 30 de junio de 2026."
    )
    assert 'lang="en"' not in stands.group(0)


def test_the_owner_page_names_the_office_and_telephone_to_call(story):  # noqa: F811
    s = declared(story, "dangerous", SERIOUS)
    CityOffice.objects.update_or_create(
        jurisdiction=BATTLE_LAKE, office=CityOffice.LETTERHEAD, defaults={"telephone": "218-555-0142"}
    )
    html = _owner_page(s, 3)
    stands = _card(html, "stands-h")
    assert "Questions about your case? Call City of Battle Lake at 218-555-0142" in stands
    assert 'href="tel:218-555-0142"' in html


def test_without_a_telephone_the_owner_page_names_the_office(story):  # noqa: F811
    s = declared(story, "dangerous", SERIOUS)
    CityOffice.objects.filter(jurisdiction=BATTLE_LAKE).delete()
    html = _owner_page(s, 3)
    assert "Questions about your case? Contact City of Battle Lake." in _card(html, "stands-h")


def test_the_owners_own_filing_reads_as_you_asked(story):  # noqa: F811
    from dogcase.cases import acts

    s = declared(story, "dangerous", SERIOUS)
    person = owner_of(s)
    acts.take_owner_step(
        s.case,
        "receive_hearing_request",
        person=person,
        inputs={},
        expected_version=s.case.version,
        at=at(5, 11),
    )
    s.case.refresh_from_db()
    j = library().jurisdictions[BATTLE_LAKE]
    mine = latest_outcome(s.case, j, viewer=person)
    assert mine["text"] == "You asked in writing for a hearing on the designation on 6 June 2026."
    # the staff, and any other reader, read it as the owner's
    assert latest_outcome(s.case, j)["text"].startswith("The owner asked in writing for a hearing")
    assert latest_outcome(s.case, j, language="es", viewer=person)["text"] == (
        "Usted pidió por escrito una audiencia sobre la designación el 6 de junio de 2026."
    )
