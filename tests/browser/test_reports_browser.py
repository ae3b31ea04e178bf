"""Reports in headless Chromium over the demo data: the clerk opens Reports, chooses a city's year to date,
changes the period, and sees a chart and its table; at 390 px no page scrolls sideways and axe finds nothing
serious."""

import datetime as dt

import pytest
from django.core.management import call_command
from django.utils import timezone

from tests.browser.axe import describe, violations

pytestmark = pytest.mark.django_db(transaction=True)

DEMO_PASSWORD = "Demo-reports-walk-2026"
WIDTHS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


@pytest.fixture
def demo(monkeypatch):
    monkeypatch.setenv("DOGCASE_DEMO_PASSWORD", DEMO_PASSWORD)
    call_command("seed_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115 - closed with the process


def log_in(page, live_server, username):
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(DEMO_PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(live_server.url + "/")


def fits(page, url: str) -> None:
    found = violations(page)
    assert not found, f"{url}:\n{describe(found)}"
    wide = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert wide <= 1, f"{url}: the page is {wide} px wider than the screen"


def test_the_clerk_reads_a_report_and_changes_its_period_at_desktop_and_phone_widths(
    live_server, browser, demo
):
    start = (timezone.localdate() - dt.timedelta(days=400)).isoformat()
    for name, size in WIDTHS.items():
        context = browser.new_context(viewport=size)
        page = context.new_page()
        page.set_default_timeout(15_000)
        log_in(page, live_server, "clerk")
        if name == "phone":
            page.goto(live_server.url + "/reports/")
        else:
            page.get_by_role("link", name="Reports").first.click()
        page.wait_for_url(f"{live_server.url}/reports/")
        fits(page, "/reports/")
        page.locator("section", has_text="Battle Lake").get_by_role("link", name="This year to date").click()
        page.wait_for_url("**/reports/battle-lake-mn/?from=*")
        fits(page, "report, year to date")
        page.get_by_label("From").fill(start)
        page.get_by_role("button", name="Show").click()
        page.wait_for_url(f"**/reports/battle-lake-mn/?from={start}*")
        assert page.get_by_label("From").input_value() == start
        fits(page, "report, changed period")
        chart = page.get_by_role("img", name="Cases opened, by designation")
        assert chart.is_visible()
        box = chart.bounding_box()
        assert 0 < box["width"] <= size["width"]
        table = page.locator("#figure-cases table")
        assert table.is_visible()
        assert "Dangerous dog" in table.inner_text()
        assert page.locator("#figure-deadlines").get_by_text("§ 90.15").first.is_visible()
        assert page.get_by_role("link", name="Download this table as CSV").count() == 8
        context.close()
