"""The hearing calendar and the day's mail (issue 20, item 8) in headless Chromium over the demo data, at 1280
and 390 px: the month is a table on a desktop and a list on a phone, the week a list; no page scrolls sideways;
axe finds nothing serious; "Mark all as mailed today" asks first, then records, and the list empties."""

import pytest
from django.core.management import call_command
from django.utils import timezone

from tests.browser.axe import describe, violations

pytestmark = pytest.mark.django_db(transaction=True)

DEMO_PASSWORD = "Demo-calendar-walk-2026"
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


def test_the_calendar_and_the_days_mail_at_desktop_and_phone_widths(live_server, browser, demo):
    from dogcase.documents.calendar import scheduled_dates

    hearings = scheduled_dates(["battle-lake-mn", "tracy-mn"], now=timezone.now())
    assert hearings, "the demo schedules hearings"
    hearing = hearings[-1]
    day = timezone.localtime(hearing.start).date()
    number = hearing.event.case.number
    for name, size in WIDTHS.items():
        context = browser.new_context(viewport=size)
        page = context.new_page()
        page.set_default_timeout(15_000)
        log_in(page, live_server, "clerk")
        page.get_by_role("link", name="Calendar").first.click()
        page.wait_for_url(f"{live_server.url}/calendar/")
        fits(page, "/calendar/")
        assert page.locator('td[aria-current="date"]').count() == 1  # today marked in the month
        month = f"{live_server.url}/calendar/?view=month&day={day.isoformat()}"
        page.goto(month)
        fits(page, month)
        if name == "desktop":
            assert page.locator("table.month-grid").is_visible()
            assert (
                page.locator("table.month-grid").get_by_role("link", name=f"case {number}").first.is_visible()
            )
        else:
            assert not page.locator("table.month-grid").is_visible()
            assert page.locator(".month-list").get_by_role("link", name=f"case {number}").first.is_visible()
        page.get_by_role("link", name="Week").click()
        page.goto(f"{live_server.url}/calendar/?view=week&day={day.isoformat()}")
        fits(page, "week")
        item = page.locator(".week-list").get_by_role("link", name=f"case {number}").first
        assert item.is_visible()
        assert str(hearing.inputs.get("place")) in page.locator(".week-list").inner_text()
        page.get_by_role("link", name="Next week").click()
        page.wait_for_url(lambda url: "view=week" in url and day.isoformat() not in url)
        assert f"case {number}" not in page.locator(".week-list").inner_text()
        page.get_by_role("link", name="Mail today").first.click()
        page.wait_for_url(f"{live_server.url}/mail/today")
        fits(page, "/mail/today")
        context.close()
    # the clerk marks the day's mail, on a phone: a confirmation first, then the list is empty
    context = browser.new_context(viewport=WIDTHS["phone"])
    page = context.new_page()
    page.set_default_timeout(30_000)
    log_in(page, live_server, "clerk")
    page.goto(f"{live_server.url}/mail/today")
    waiting = page.locator("#to-mark-h + form .mail-piece").count()
    assert waiting > 0
    page.get_by_role("button", name="Mark all as mailed today…").click()
    confirm = page.get_by_role("button", name=f"Yes, record {waiting} as mailed today")
    confirm.wait_for(state="visible")  # the confirmation is the form's answer from the server: wait for it
    assert confirm.is_visible()
    fits(page, "the confirmation")
    confirm.click()
    page.wait_for_url(f"{live_server.url}/mail/today")
    assert f"Recorded as mailed today: {waiting} document" in page.locator("main").inner_text()
    assert "Nothing is waiting to be mailed." in page.locator("main").inner_text()
    assert page.locator("#marked-h ~ ol .mail-piece").count() >= waiting
    context.close()
