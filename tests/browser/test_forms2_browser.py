"""Forms that say what they need (issue 20, item 7), in a real browser at 1280 and 390 px: the telephone field
and its rule, the reason a law's "optional" input is required, the last allowed day of a hearing, a paper
proof's scan and the file's name, and the owner's hearing request with the reasons and the hearing's costs."""

import datetime as dt
import re

import pytest
from django.utils import timezone

from dogcase.cases import acts
from dogcase.cases.models import Person
from dogcase.owners import codes
from tests.cases.conftest import BITE, Story
from tests.owners.conftest import served_recently
from tests.staff.conftest import declare, record_bite, take

pytestmark = pytest.mark.django_db(transaction=True)

WIDTHS = (1280, 390)
PASSWORD = "correct horse battery staple"


def no_horizontal_overflow(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def staff_page(browser, live_server, username, width):
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(live_server.url + "/")
    return context, page


@pytest.mark.parametrize("width", WIDTHS)
def test_the_declaration_asks_for_a_telephone_and_says_why(live_server, browser, make_staff_user, width):
    officer = make_staff_user("animal_control_officer", cities=["battle-lake-mn"])
    case = record_bite(officer, dog_name="Brutus")
    context, page = staff_page(browser, live_server, officer.username, width)
    page.goto(f"{live_server.url}/cases/{case.number}/act/declare")
    phone = page.locator("#in-declarant_telephone")
    assert phone.get_attribute("type") == "tel" and phone.is_visible()
    assert "Needed to issue “" in page.locator("#in-declarant_telephone-why").inner_text()
    assert no_horizontal_overflow(page)
    page.get_by_label("Potentially dangerous dog", exact=True).check()
    page.locator("#in-basis").fill("Unprovoked bite on a jogger in a public park")
    phone.fill("ask at the desk")
    page.locator("form.act-form button[type=submit]").click()
    page.wait_for_selector("#error-summary")
    assert "Write a telephone number" in page.locator("#in-declarant_telephone-error").inner_text()
    assert no_horizontal_overflow(page)
    page.locator("#in-declarant_telephone").fill("218-555-0102")
    page.locator("form.act-form button[type=submit]").click()
    page.wait_for_url(re.compile(rf".*/cases/{case.number}#timeline"))
    context.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_a_late_hearing_date_is_refused_with_the_last_allowed_day(
    live_server, browser, make_staff_user, width
):
    officer = make_staff_user("animal_control_officer", cities=["battle-lake-mn"])
    clerk = make_staff_user("city_clerk", cities=["battle-lake-mn"])
    hearing = make_staff_user("hearing_officer", cities=["battle-lake-mn"])
    now = acts.now()
    case = record_bite(officer, occurred_at=now - dt.timedelta(days=3))
    declare(case, officer, designation="dangerous", at=now - dt.timedelta(days=2))
    day_before = timezone.localdate(now) - dt.timedelta(days=1)
    yesterday = day_before.isoformat()
    take(
        case,
        "serve_notice",
        officer,
        # noon yesterday in the city: "an hour before yesterday this time" is the day before in the first hour
        # of a day (and served_on may not be after the day it is recorded)
        at=timezone.make_aware(dt.datetime.combine(day_before, dt.time(12))),
        served_on=yesterday,
        method="personal",
        served_owner="Owner",
        received_on=yesterday,
    )
    take(case, "receive_hearing_request", clerk, at=now - dt.timedelta(hours=1), received_on=yesterday)
    last = case.obligations.get(deadline_id="city.hold_hearing").due_date
    context, page = staff_page(browser, live_server, clerk.username, width)
    page.goto(f"{live_server.url}/cases/{case.number}/act/schedule_hearing")
    late = dt.datetime.combine(last + dt.timedelta(days=5), dt.time(14))
    page.locator("#in-hearing_at").fill(late.strftime("%Y-%m-%dT%H:%M"))
    page.locator("#in-place").fill("City Hall")
    page.locator(f"input[name=in-hearing_officer][value='{hearing.pk}']").check()
    page.locator("form.act-form button[type=submit]").click()
    page.wait_for_selector(".refusals")
    from dogcase.law import clock

    text = page.locator(".refusals").first.inner_text()
    assert f"The last allowed day is {clock.format_date(last)}" in text and "(I)(1)" in text
    assert no_horizontal_overflow(page)
    context.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_a_microchip_on_paper_takes_its_scan_and_shows_the_files_name(
    live_server, browser, make_staff_user, tmp_path, width
):
    officer = make_staff_user("animal_control_officer", cities=["tracy-mn"])
    case = record_bite(officer, city="tracy-mn")
    declare(case, officer, designation="dangerous")
    case.refresh_from_db()
    from dogcase.proofs import conditions

    chip = next(c for c in conditions.conditions(case) if c.kind == "microchip")
    scan = tmp_path / "chip record.pdf"
    scan.write_bytes(b"%PDF-1.4\n%chip record\n")
    context, page = staff_page(browser, live_server, officer.username, width)
    page.goto(f"{live_server.url}/staff/proofs/cases/{case.number}/{chip.id}/record")
    files = page.locator("input[type=file]")
    assert files.count() == 1
    assert page.get_by_text("A scan or photo of the paper").first.is_visible()
    page.get_by_label("Microchip number").fill("985112003456789")
    page.get_by_label("Microchip manufacturer").fill("HomeAgain")
    page.get_by_role("button", name="Record the proof").click()
    page.wait_for_selector(".error-summary")
    assert "Attach a scan or photo of the paper" in page.locator(".error-summary").inner_text()
    files.set_input_files(str(scan))
    page.get_by_role("button", name="Record the proof").click()
    page.wait_for_url(re.compile(r".*/staff/proofs/\d+/$"))
    assert page.locator(".proof-fields .file-name").inner_text() == "chip record.pdf"
    assert "PDF 1" not in page.content()
    assert no_horizontal_overflow(page)
    context.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_the_owner_reads_the_costs_and_gives_reasons(live_server, browser, make_staff_user, width):
    staff = {
        "officer": make_staff_user("animal_control_officer", cities=["battle-lake-mn"]),
        "clerk": make_staff_user("city_clerk", cities=["battle-lake-mn"]),
    }
    s = served_recently(
        lambda city, facts=BITE, day=0: Story(staff, city, facts, day), designation="dangerous"
    )
    owner = Person.objects.get(ownerships__dog=s.dog)
    _row, code = codes.issue_code(s.case, owner, actor=staff["officer"])
    context = browser.new_context(viewport={"width": width, "height": 844}, is_mobile=width < 600)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(live_server.url + "/owner/")
    page.get_by_label("Case access code").fill(code)
    page.get_by_label("Your dog's name, or your ZIP code").fill("rex")
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{live_server.url}/owner/cases/{s.case.number}/")
    page.get_by_role("link", name="Ask for a hearing").click()
    costs = page.locator("#costs").inner_text()
    assert "up to $1,000" in costs and "§ 90.15 (C)(3)" in costs
    assert no_horizontal_overflow(page)
    page.get_by_label("Reasons for asking for a hearing").fill("My dog was provoked.")
    page.get_by_role("button", name="Send to the city").click()
    page.wait_for_url(f"{live_server.url}/owner/cases/{s.case.number}/?filed=1")
    event = s.case.events.get(act="receive_hearing_request")
    assert event.data["inputs"]["reasons"] == "My dog was provoked."
    context.close()
