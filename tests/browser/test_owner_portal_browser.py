"""The owner, on a 390-px-wide phone, from the code on the notice to a hearing request; the clerk then sees it
on the dashboard."""

import pytest

from dogcase.cases.models import Person
from dogcase.owners import codes
from tests.cases.conftest import BITE, Story
from tests.owners.conftest import served_recently

pytestmark = pytest.mark.django_db(transaction=True)

WIDTH = 390


def no_horizontal_overflow(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_the_owner_asks_for_a_hearing_from_a_phone(live_server, browser, make_staff_user):
    staff = {
        "officer": make_staff_user("animal_control_officer", cities=["battle-lake-mn"]),
        "clerk": make_staff_user("city_clerk", cities=["battle-lake-mn"]),
    }
    s = served_recently(lambda city, facts=BITE, day=0: Story(staff, city, facts, day))
    owner = Person.objects.get(ownerships__dog=s.dog)
    _row, code = codes.issue_code(s.case, owner, actor=staff["officer"])

    phone = browser.new_context(viewport={"width": WIDTH, "height": 844}, is_mobile=True, has_touch=True)
    page = phone.new_page()
    page.set_default_timeout(15_000)
    page.goto(live_server.url + "/owner/")
    assert no_horizontal_overflow(page)
    page.get_by_label("Case access code").fill(code)
    page.get_by_label("Your dog's name, or your ZIP code").fill("rex")
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{live_server.url}/owner/cases/{s.case.number}/")
    assert "potentially dangerous dog" in page.locator("#designation-h + p").inner_text()
    assert no_horizontal_overflow(page)

    page.get_by_role("link", name="Ask for a hearing").click()
    assert "The last day to do this is" in page.locator("#closing").inner_text()
    assert no_horizontal_overflow(page)
    page.get_by_role("button", name="Send to the city").click()
    page.wait_for_url(f"{live_server.url}/owner/cases/{s.case.number}/?filed=1")
    assert "Your filing was received" in page.get_by_role("status").inner_text()
    assert no_horizontal_overflow(page)
    phone.close()

    office = browser.new_context()
    clerk = office.new_page()
    clerk.goto(live_server.url + "/accounts/login/")
    clerk.get_by_label("Username").fill("clerk")
    clerk.get_by_label("Password").fill("correct horse battery staple")
    clerk.get_by_role("button", name="Log in").click()
    clerk.wait_for_url(live_server.url + "/")
    filings = clerk.locator("#owner-filings")
    assert s.case.number in filings.inner_text() and "Olive Owner" in filings.inner_text()
    assert "The owner asked in writing for a hearing" in filings.inner_text()  # what the owner did
    assert s.case.number in clerk.locator("#schedule").inner_text()
    office.close()
