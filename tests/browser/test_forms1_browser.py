"""Issue 20 items 4 and 5 in a browser, on a desktop (1280 px) and a phone (390 px): Back and submit again
on the intake form lands on the record first created, never a second one; a declaration against what the
recorded facts support shows the warning and requires the reason, which the case page then shows."""

import datetime as dt
import re

import pytest
from django.utils import timezone

from dogcase.cases.models import Case, Incident
from tests.browser.test_case_flow_browser import log_in
from tests.staff.conftest import record_bite

pytestmark = pytest.mark.django_db(transaction=True)

WIDTHS = ((1280, 800), (390, 844))
REASON = "The hospital report received after the intake shows the jogger's wrist was broken."


def no_sideways_scroll(page, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width, page.url


def fill_intake(page) -> None:
    yesterday = timezone.localdate() - dt.timedelta(days=1)
    page.locator("#occurred_at").fill(f"{yesterday.isoformat()}T16:45")
    page.locator("#place").fill("Lakeside Park")
    page.locator("input[name=place_type][value=public]").check()
    page.locator("input[name=kind][value=bite]").check()
    page.locator("#dog-0-name").fill("Brutus")
    page.locator("#dog-0-owner_name").fill("Pat Owner")
    page.locator("#add-victim").click()
    page.locator("#victim-0").wait_for()
    page.locator("#victim-0-name").fill("Jo Jogger")
    page.locator("input[name=victim-0-kind][value=human]").check()
    page.locator("#victim-0-injury").select_option(index=1)
    page.locator("input[name='victim-0-conduct_none']").check()
    page.locator("#q-provoked").get_by_label("No", exact=True).check()
    page.locator("#q-law_enforcement_dog").get_by_label("No", exact=True).check()


@pytest.mark.parametrize(("width", "height"), WIDTHS)
def test_back_and_submit_again_lands_on_the_first_record(
    live_server, browser, make_staff_user, width, height
):
    make_staff_user("animal_control_officer", cities=["battle-lake-mn"])
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(15_000)
    log_in(page, live_server, "officer")
    page.goto(live_server.url + "/incidents/new")
    page.wait_for_url(re.compile(r".*/incidents/new\?key=[0-9a-f-]{36}$"))
    fill_intake(page)
    page.locator("#intake-form button[type=submit]").click()
    page.wait_for_url(re.compile(r".*/cases/BL-\d{4}-\d{4}$"))
    first = page.url
    incident = Incident.objects.get()

    page.go_back()
    page.wait_for_load_state()
    if "/incidents/new" in page.url:  # the browser kept the filled form: submit it again
        page.locator("#intake-form button[type=submit]").click()
    page.wait_for_url(first)
    said = page.locator(".messages, [role=status], .message").first.inner_text()
    assert "This was already recorded" in said and incident.number in said
    no_sideways_scroll(page, width)
    assert Incident.objects.count() == 1 and Case.objects.count() == 1
    context.close()


@pytest.mark.parametrize(("width", "height"), WIDTHS)
def test_a_declaration_against_the_facts_warns_and_requires_the_reason(
    live_server, browser, make_staff_user, width, height
):
    officer = make_staff_user("animal_control_officer", cities=["battle-lake-mn"])
    case = record_bite(officer)  # the facts support a potentially dangerous dog, not a dangerous one
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(15_000)
    log_in(page, live_server, "officer")
    page.goto(f"{live_server.url}/cases/{case.number}/act/declare")
    warning = page.locator("#declaration-warning")
    assert "Before you choose: what the facts recorded support" in warning.inner_text()
    assert "Dangerous dog:" in warning.inner_text()
    page.locator("input[name=in-designation][value=dangerous]").check()
    page.locator("#in-basis").fill("Bit a jogger on the wrist")
    page.locator("#in-declarant_telephone").fill("218-555-0102")
    page.locator("form.act-form button[type=submit]").click()
    page.wait_for_load_state()

    # refused: the warning for the designation chosen, and the reason now required
    warning = page.locator("#declaration-warning")
    assert "The facts recorded do not support this declaration" in warning.inner_text()
    assert "give the reason for the declaration" in warning.inner_text()
    reason = page.locator("#departure_reason")
    assert reason.is_visible() and reason.get_attribute("required") is not None
    assert page.locator("input[name=in-designation][value=dangerous]").is_checked()
    no_sideways_scroll(page, width)
    assert not case.events.filter(act="declare").exists()

    reason.fill(REASON)
    page.locator("form.act-form button[type=submit]").click()
    page.wait_for_url(re.compile(rf".*/cases/{case.number}#timeline"))
    shown = page.locator(".declaration-departure")
    assert "Declared against what the facts recorded supported" in shown.inner_text()
    assert REASON in shown.inner_text()
    no_sideways_scroll(page, width)
    assert case.events.get(act="declare").data["departure"]["reason"] == REASON
    context.close()
