"""A dangerous dog moves from Battle Lake to Tracy, in the browser: the officer records the owner's notice on the
Battle Lake case, choosing Tracy among the cities served here; the case page then points to the case opened in
Tracy, whose page says where it came from, with what happened there and its documents."""

import datetime as dt
import re

import pytest
from django.utils import timezone

from dogcase.cases.models import CaseMove
from tests.browser.test_case_flow_browser import log_in, take_step_button
from tests.staff.conftest import declare, record_bite

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_dangerous_dog_moves_with_its_case_between_the_demo_cities(live_server, page, make_staff_user):
    officer = make_staff_user("animal_control_officer")  # works for both cities
    case = record_bite(officer, dog_name="Brutus", owner_name="Dana Dogwood")
    declare(case, officer, designation="dangerous")
    left = timezone.localdate() - dt.timedelta(days=2)

    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, live_server, "officer")
    page.goto(f"{live_server.url}/cases/{case.number}")
    take_step_button(page, "Record the move of the dog to another jurisdiction")
    form = page.locator("form.act-form")
    form.get_by_label("Date the dog left the city").fill(left.isoformat())
    form.get_by_label("City of Tracy, Minnesota").check()
    form.get_by_label("Address where the dog will reside in the new jurisdiction").fill(
        "9 Oak Avenue, Tracy, MN 56175"
    )
    form.locator("button[type=submit]").click()
    page.wait_for_url(re.compile(rf".*/cases/{case.number}#timeline"))

    there = CaseMove.objects.get(from_case=case).to_case
    moved = page.locator("#moved")
    assert "The dog moved to Tracy" in moved.inner_text()
    moved.get_by_role("link", name=f"case {there.number}").click()
    page.wait_for_url(re.compile(rf".*/cases/{there.number}$"))
    panel = page.locator("#moved")
    assert "Moved here from Battle Lake" in panel.inner_text()
    assert case.number in panel.inner_text() and "§ 90.15 (M)" in panel.inner_text()
    panel.locator("summary", has_text="What happened in Battle Lake").click()
    history = panel.locator(".moved-history li").all_inner_texts()
    assert any("declared" in line.lower() and "dangerous" in line.lower() for line in history), history
    assert page.locator(".designation-now").get_attribute("data-designation") == "dangerous"
    # the page fits a phone: nothing wider than the screen
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
