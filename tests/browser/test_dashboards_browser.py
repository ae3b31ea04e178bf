"""Every role's dashboard over the demo data, at desktop and phone widths: at 390 px no taller than eight
phone screens (8 × 844 px), no more than 60 KB of HTML, nothing wider than the screen; each list a fold whose
summary gives its count, and axe-core finds no serious or critical violation. After the README's walk-through up to the hearing officer's recommendation, the
council clerk's dashboard lists the recommendation waiting for the Council."""

import pytest
from django.core.management import call_command

from dogcase.cases.roles import ROLES
from tests.browser.axe import describe, violations
from tests.staff.test_dashboards_per_role import walk_through_to_the_recommendation

pytestmark = pytest.mark.django_db(transaction=True)

DEMO_PASSWORD = "Demo-dashboards-walk-2026"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
MAX_HEIGHT = 8 * 844  # eight phone screens
MAX_BYTES = 60 * 1024


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


def measure(page) -> dict:
    return page.evaluate(
        "() => ({height: document.documentElement.scrollHeight,"
        " wide: document.documentElement.scrollWidth - document.documentElement.clientWidth})"
    )


def test_every_roles_dashboard_holds_on_a_phone(live_server, browser, demo):
    sizes = {}
    for viewport in (DESKTOP, PHONE):
        for role in ROLES:
            context = browser.new_context(viewport=viewport)
            page = context.new_page()
            log_in(page, live_server, role.demo_username)
            html = page.request.get(live_server.url + "/").body()
            got = measure(page)
            sizes[(role.demo_username, viewport["width"])] = (got["height"], len(html))
            assert got["wide"] <= 1, (role.demo_username, viewport, got)
            assert len(html) <= MAX_BYTES, (role.demo_username, len(html))
            if viewport is PHONE:
                assert got["height"] <= MAX_HEIGHT, (role.demo_username, got["height"])
            # every list is a fold whose summary is its heading with its count
            folds = page.locator("section.work-list > details > summary h2")
            assert folds.count() >= 2
            for text in folds.all_inner_texts():
                assert text.rstrip().endswith(")") and "(" in text, text
            found = violations(page)
            assert not found, f"{role.demo_username}:\n{describe(found)}"
            # a count at the top opens its list's fold
            page.locator(".counts a[href='#tasks']").click()
            assert page.locator("#tasks > details").evaluate("d => d.open")
            context.close()
    print("\n".join(f"{who} {w}px: {h} px, {b / 1024:.1f} KB" for (who, w), (h, b) in sorted(sizes.items())))


def test_the_council_clerk_sees_the_recommendation_waiting_after_the_walk_through(live_server, browser, demo):
    walk_through_to_the_recommendation()
    for viewport in (DESKTOP, PHONE):
        context = browser.new_context(viewport=viewport)
        page = context.new_page()
        log_in(page, live_server, "council")
        council = page.locator("#council")
        assert council.locator(":scope > details").evaluate("d => d.open")
        row = council.locator(".work-row", has_text="BL-2026-0003")
        assert row.count() == 1
        text = row.inner_text()
        assert "City Council: confirm or rescind the designation" in text
        assert "no time set by law" in text
        assert "§ 90.15 (I)(4)" in text
        assert row.locator("a").first.is_visible()
        assert measure(page)["wide"] <= 1
        row.locator("a").first.click()
        page.wait_for_url(live_server.url + "/cases/BL-2026-0003")
        context.close()
