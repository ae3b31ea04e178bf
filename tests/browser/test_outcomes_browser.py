"""Issue 20, items 2 and 11: after the City Council's decision, the owner's page — on a desk (1280 px) and a
phone (390 px) — says where the case stands as what the Council did, shows the hearing as held, lists every act
as what it did, and names the office and telephone to call."""

import pytest

from dogcase.cases.models import Person
from dogcase.documents.models import CityOffice
from dogcase.owners import codes
from tests.cases.conftest import SERIOUS, Story, on
from tests.cases.test_battle_lake_case import appeal_to_decision

pytestmark = pytest.mark.django_db(transaction=True)
CITY = "battle-lake-mn"


def no_horizontal_overflow(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.fixture
def confirmed(make_staff_user):
    staff = {
        "officer": make_staff_user("animal_control_officer", cities=[CITY]),
        "clerk": make_staff_user("city_clerk", cities=[CITY]),
        "hearing": make_staff_user("hearing_officer", cities=[CITY]),
        "council": make_staff_user("council_clerk", cities=[CITY]),
    }
    s = Story(staff, CITY, SERIOUS)
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
    appeal_to_decision(s, "upheld")
    s.step(
        "confirm_or_rescind", "council", 30, outcome="confirmed", decided_on=on(29), resolution="Res. 2026-1"
    )
    CityOffice.objects.update_or_create(
        jurisdiction=CITY, office=CityOffice.LETTERHEAD, defaults={"telephone": "218-555-0142"}
    )
    owner = Person.objects.get(ownerships__dog=s.dog)
    _row, code = codes.issue_code(s.case, owner, actor=staff["officer"])
    return s, code


@pytest.mark.parametrize("width", [1280, 390])
def test_the_owner_reads_what_the_council_decided(live_server, browser, confirmed, width):
    s, code = confirmed
    context = browser.new_context(
        viewport={"width": width, "height": 900 if width > 400 else 844},
        is_mobile=width < 400,
        has_touch=width < 400,
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(live_server.url + "/owner/")
    page.get_by_label("Case access code").fill(code)
    page.get_by_label("Your dog's name, or your ZIP code").fill("rex")
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{live_server.url}/owner/cases/{s.case.number}/")

    stands = page.locator("section[aria-labelledby=stands-h]")
    assert (
        "The City Council confirmed the designation on 30 June 2026."
        in stands.locator(".stands").inner_text()
    )
    # the first screen says where the case stands and whom to call
    box = stands.bounding_box()
    assert box is not None and box["y"] < page.viewport_size["height"]
    call = stands.get_by_role("link", name="218-555-0142")
    assert call.get_attribute("href") == "tel:218-555-0142"
    assert "Call City of Battle Lake at" in stands.inner_text()

    hearing = page.locator("section[aria-labelledby=hearing-h]").inner_text()
    assert "The hearing set for Tuesday, 16 June 2026, 2:00 p.m. was held." in hearing
    assert "The City Council confirmed the designation on 30 June 2026." in hearing

    history = page.locator("section[aria-labelledby=history-h]").inner_text()
    assert "The owner asked in writing for a hearing on the designation on 6 June 2026." in history
    for title in ("Receive the owner's written request", "City Council: confirm or rescind", "_"):
        assert title not in history
    assert no_horizontal_overflow(page)
    context.close()
