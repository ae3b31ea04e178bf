"""axe-core on every main page of the demo data (as the public, an officer and a clerk, at desktop and phone
widths): no serious or critical violation. The officer's dashboard fits in two desktop screens."""

import pytest
from django.core.management import call_command

from tests.browser.axe import describe, violations

pytestmark = pytest.mark.django_db(transaction=True)

DEMO_PASSWORD = "Demo-accessibility-walk-2026"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


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


def assert_accessible(page, url):
    page.goto(url)
    found = violations(page)
    assert not found, f"{url}:\n{describe(found)}"
    # nothing widens the page past the screen (a phone then scrolls sideways to read a line)
    wide = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert wide <= 1, f"{url}: the page is {wide} px wider than the screen"
    # nor is a value squeezed into a sliver beside its label (its words then wrap a letter a line)
    narrow = page.evaluate(
        "() => Array.from(document.querySelectorAll('.facts dd, .inputs dd')).filter(d => d.textContent.trim().length > 40"
        " && d.getBoundingClientRect().width > 0 && d.getBoundingClientRect().width < 120).map(d => d.textContent.trim().slice(0, 60))"
    )
    assert not narrow, f"{url}: values squeezed beside their labels: {narrow}"


PUBLIC_PAGES = [
    "/",
    "/accounts/login/",
    "/law/",
    "/law/battle-lake-mn/",
    "/law/tracy-mn/",
    "/law/mn-statute/",
]
OFFICER_PAGES = [
    "/",
    "/incidents/new",
    "/incidents/",
    "/cases/",
    "/cases/BL-2026-0001",
    "/cases/BL-2026-0003",
    "/cases/T-2026-0002",
    "/cases/BL-2026-0001/act/declare",
    "/cases/BL-2026-0002/act/serve_notice",
    "/dogs/",
    "/people/",
    "/search?q=Rex",
]


def test_no_serious_or_critical_violation_on_the_main_pages(live_server, browser, demo):
    from dogcase.cases.models import Case, Incident

    case = Case.objects.select_related("dog").get(number="BL-2026-0003")
    owner = case.dog.owners.first()
    incident = Incident.objects.order_by("id").first()
    for viewport in (DESKTOP, PHONE):
        context = browser.new_context(viewport=viewport)
        page = context.new_page()
        for path in PUBLIC_PAGES:
            assert_accessible(page, live_server.url + path)
        log_in(page, live_server, "officer")
        pages = OFFICER_PAGES + [
            f"/dogs/{case.dog.pk}",
            f"/people/{owner.pk}",
            f"/incidents/{incident.number}",
        ]
        for path in pages:
            assert_accessible(page, live_server.url + path)
        context.close()
        for username in ("clerk", "hearing", "council"):
            context = browser.new_context(viewport=viewport)
            page = context.new_page()
            log_in(page, live_server, username)
            assert_accessible(page, live_server.url + "/")
            context.close()


def test_the_officers_dashboard_of_the_demo_data_fits_in_two_desktop_screens(live_server, browser, demo):
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    log_in(page, live_server, "officer")
    height = page.evaluate("() => document.documentElement.scrollHeight")
    assert height <= 2 * DESKTOP["height"], height
    for heading in ("Incidents to decide", "Seizures authorized"):
        assert page.get_by_role("heading", level=2, name=heading).is_visible()
    # what missing a deadline brings is folded into the row, one click away
    details = page.locator("#seizures details.work-details").first
    if details.count():
        assert not details.locator("li").first.is_visible()
        details.locator("summary").click()
        assert details.locator("li").first.is_visible()
    context.close()
