"""The rabies observation (issue 20, item 9) in headless Chromium over the demo data, at 1280 and 390 px: the
officer finds the observation under way from the menu, reads that it is the city's procedure (the ordinance is
silent), gets a bad entry back with the message on its field, and records the outcome; no page scrolls
sideways and axe finds nothing serious."""

import pytest
from django.core.management import call_command
from django.utils import timezone

from tests.browser.axe import describe, violations

pytestmark = pytest.mark.django_db(transaction=True)

DEMO_PASSWORD = "Demo-observation-walk-2026"
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


def test_the_observation_under_way_at_desktop_and_phone_widths(live_server, browser, demo):
    from dogcase.cases.models import Obligation
    from dogcase.cases.observations import RabiesObservation

    under_way = RabiesObservation.objects.filter(jurisdiction="battle-lake-mn", status="under_way")
    obs = under_way.exclude(veterinarian="").select_related("dog").first()
    assert obs is not None, "the demo has an observation under way, its veterinarian recorded"
    assert RabiesObservation.objects.filter(status="ended").exists(), "and older ones ended"
    # its obligation (the outcome, due on its last day) is among the case's, for the dashboards and reminders
    assert Obligation.objects.get(deadline_id=obs.deadline_id).status == "open"
    url = f"{live_server.url}/observations/{obs.pk}"
    for name, size in WIDTHS.items():
        context = browser.new_context(viewport=size)
        page = context.new_page()
        page.set_default_timeout(15_000)
        log_in(page, live_server, "officer")
        if name == "phone":
            page.goto(live_server.url + "/observations/")
        else:
            page.get_by_role("link", name="Observations").first.click()
        page.wait_for_url(f"{live_server.url}/observations/")
        fits(page, "/observations/")
        page.get_by_role("link", name=obs.dog.name).first.click()
        page.wait_for_url(url)
        fits(page, url)
        text = page.locator("main").inner_text()
        assert "City procedure (the ordinance is silent on rabies observation)" in text
        assert "Under way" in text and obs.veterinarian in text
        if name == "desktop":
            # an outcome without its date: the message is on the date's field, nothing recorded
            page.locator("#outcome").select_option(label="Healthy at the end of the observation")
            page.get_by_role("button", name="Record", exact=True).click()
            error = page.locator("#outcome_on-error")
            error.wait_for(state="visible")  # the form comes back from the server with the message
            assert error.is_visible() and "date of the outcome" in error.inner_text()
            assert page.get_by_label("Date of the outcome").get_attribute("aria-invalid") == "true"
            fits(page, "the form with an error")
        else:
            page.locator("#outcome").select_option(label="Died during the observation")
            page.get_by_label("Date of the outcome").fill(timezone.localdate().isoformat())
            page.get_by_label("The veterinarian's report, in short").fill("Brain tissue sent for testing.")
            page.get_by_role("button", name="Record", exact=True).click()
            page.wait_for_url(url)
            text = page.locator("main").inner_text()
            assert "Ended: died during the observation" in text
            assert "Correct the observation" in text  # a further change is a correction, with its reason
            history = page.locator("#obs-history").locator("..").inner_text()
            assert "Dana Reiter" in history and "ended" in history
            fits(page, "the observation ended")
        context.close()
    obs.refresh_from_db()
    assert (obs.status, obs.outcome) == ("ended", "died")
