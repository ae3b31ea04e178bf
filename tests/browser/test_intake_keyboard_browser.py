"""The intake in a browser: the classification panel stays in view beside the form on a desktop and as a bar
on a phone; the landlord's fields open when "rented" is chosen; and a keyboard-only walk from the intake to
the declaration, with axe-core checking each page on the way."""

import datetime as dt
import re

import pytest
from django.utils import timezone

from tests.browser.axe import describe, violations
from tests.browser.test_case_flow_browser import log_in

pytestmark = pytest.mark.django_db(transaction=True)


# Where an element is in the viewport, read in one go in the page (a locator's box can miss a re-rendered element).
BOX = "sel => { const r = document.querySelector(sel).getBoundingClientRect(); return {y: r.top, height: r.height}; }"
ON_SCREEN = """([sel, h]) => {
  const e = document.querySelector(sel);
  if (!e) return false;
  const r = e.getBoundingClientRect();
  return r.height > 0 && r.top >= 0 && r.top < h && r.top + Math.min(r.height, 40) <= h;
}"""


def focused(page, selector: str) -> bool:
    return page.evaluate("(sel) => !!document.activeElement && document.activeElement.matches(sel)", selector)


def tab_to(page, selector: str, limit: int = 400) -> None:
    """Press Tab until the element matching `selector` has the focus: it must be reachable by the keyboard."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if focused(page, selector):
            return
    raise AssertionError(f"{selector} is not reachable with the Tab key")


def choose(page, name: str, value: str) -> None:
    """Reach a group of radio buttons with Tab and choose one with the arrow keys, as a keyboard user does."""
    tab_to(page, f"input[type=radio][name='{name}']")
    for _ in range(12):
        if focused(page, f"input[type=radio][name='{name}'][value='{value}']"):
            page.keyboard.press("Space")
            assert page.locator(f"input[name='{name}'][value='{value}']").is_checked()
            return
        page.keyboard.press("ArrowDown")
    raise AssertionError(f"no choice {value!r} in {name}")


def no_blocking_violations(page):
    found = violations(page)
    assert not found, f"{page.url}:\n{describe(found)}"


def test_a_keyboard_alone_goes_from_the_intake_to_the_declaration(live_server, page, make_staff_user):
    make_staff_user("animal_control_officer", cities=["battle-lake-mn"])
    log_in(page, live_server, "officer")
    tab_to(page, "a[href='/incidents/new']")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r".*/incidents/new\?key=[0-9a-f-]{36}$"))  # the form's one-time key
    no_blocking_violations(page)

    yesterday = timezone.localdate() - dt.timedelta(days=1)
    tab_to(page, "#occurred_at")
    page.keyboard.type(f"{yesterday:%m%d%Y}")  # the year takes up to six digits: Tab to the time
    page.keyboard.press("Tab")
    page.keyboard.type("0445P")
    assert page.locator("#occurred_at").input_value() == f"{yesterday.isoformat()}T16:45"
    tab_to(page, "#place")
    page.keyboard.type("Lakeside Park")
    choose(page, "place_type", "public")
    choose(page, "kind", "bite")
    tab_to(page, "#dog-0-name")
    page.keyboard.type("Brutus")
    tab_to(page, "#dog-0-owner_name")
    page.keyboard.type("Pat Owner")
    tab_to(page, "#add-victim")
    page.keyboard.press("Enter")
    page.locator("#victim-0").wait_for()
    tab_to(page, "#victim-0-name")
    page.keyboard.type("Jo Jogger")
    choose(page, "victim-0-kind", "human")
    tab_to(page, "#victim-0-injury")
    page.keyboard.press("ArrowDown")  # the first injury listed after "— choose —"
    # what the victim was doing: the law asks it; left unanswered, the facts cannot support a declaration
    tab_to(page, "input[name='victim-0-conduct_none']")
    page.keyboard.press("Space")
    choose(page, "fact-provoked", "no")
    choose(page, "fact-law_enforcement_dog", "no")
    page.locator("#classification [data-designation=potentially_dangerous]").wait_for()
    tab_to(page, "#intake-form button[type=submit]")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r".*/cases/BL-\d{4}-\d{4}$"))
    number = page.url.rsplit("/", 1)[1]
    no_blocking_violations(page)

    tab_to(page, f"a[href='/cases/{number}/act/declare']")
    page.keyboard.press("Enter")
    page.wait_for_selector("form.act-form")
    no_blocking_violations(page)
    choose(page, "in-designation", "potentially_dangerous")
    tab_to(page, "#in-basis")
    page.keyboard.type("Unprovoked bite on a jogger in a public park")
    tab_to(page, "#in-declarant_telephone")
    page.keyboard.type("218-555-0102")
    tab_to(page, "form.act-form button[type=submit]")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(rf".*/cases/{number}#timeline"))
    assert "Potentially dangerous dog — in effect" in page.locator(".designation-now").inner_text()
    assert page.get_by_text("Declared Brutus potentially dangerous under § 90.15").is_visible()


def test_the_classification_stays_in_view_on_a_desktop_and_as_a_bar_on_a_phone(
    live_server, browser, make_staff_user
):
    make_staff_user("animal_control_officer", cities=["battle-lake-mn"])
    for width, height in ((1280, 800), (390, 844)):
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        log_in(page, live_server, "officer")
        page.goto(live_server.url + "/incidents/new")
        page.locator("input[name=kind][value=bite]").check()
        page.locator("#q-provoked").get_by_label("No", exact=True).check()
        page.locator("#classification .live-classification").wait_for()
        # scrolled down to the questions, the answer is still on screen
        page.locator("#q-law_enforcement_dog").scroll_into_view_if_needed()
        page.mouse.wheel(0, 600)
        page.wait_for_timeout(200)
        target = "#classification" if width > 1000 else "#classification-bar"
        # Each answer re-renders the bar out of band, so the element can be replaced between two reads: wait until
        # the one in the page has its top 40 pixels on screen, then read where it is.
        page.wait_for_function(ON_SCREEN, arg=[target, height], timeout=10_000)
        box = page.evaluate(BOX, target)
        assert 0 <= box["y"] < height and box["y"] + min(box["height"], 40) <= height, (width, box)
        if width < 1000:
            assert "The facts support" in page.locator("#classification-bar").inner_text()
            assert (
                not page.locator("#classification").is_visible()
                or page.evaluate(BOX, "#classification")["y"] > height
                # or folded to its heading (issue 20: a page a phone can hold)
                or page.locator("#classification details.live-fold:not([open])").count() == 1
            )
        else:
            assert not page.locator("#classification-bar").is_visible()
        context.close()


def test_the_landlords_fields_open_when_rented_is_chosen(live_server, page, make_staff_user):
    make_staff_user("animal_control_officer", cities=["battle-lake-mn"])
    log_in(page, live_server, "officer")
    page.goto(live_server.url + "/incidents/new")
    landlord = page.locator("#dog-0-landlord_name")
    assert not landlord.is_visible()
    page.locator("input[name=dog-0-tenure][value=rented]").check()
    assert landlord.is_visible()
    page.locator("input[name=dog-0-tenure][value=owned]").check()
    assert not landlord.is_visible()
