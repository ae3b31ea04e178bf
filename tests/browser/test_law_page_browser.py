"""The public law pages in a browser: the date picker, and (issue 20, item 6) a pack's contents with each part of
its text on a page a phone can hold; an old address into the one long page still lands on the provision."""

import re

import pytest

from tests.browser.axe import describe, violations

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


@pytest.mark.django_db(transaction=True)
def test_reader_picks_a_date_and_sees_it_stated_with_the_conflicts(live_server, page):
    page.goto(live_server.url + "/law/tracy-mn/")
    assert page.get_by_role("heading", level=1).inner_text() == "City of Tracy, Minnesota"

    page.get_by_label("Law in force on").fill("2016-01-04")
    page.get_by_role("button", name="Show the law").click()

    page.wait_for_url("**/law/tracy-mn/?on=2016-01-04")
    assert "Law in force on Monday 4 January 2016" in page.locator(".law-date").inner_text()
    assert page.locator("#p-tracy-mn\\:12").count() == 0
    page.get_by_role("link", name=re.compile(r"Conflicts with state law \(\d+\), on their own page")).click()
    page.wait_for_url("**/law/tracy-mn/conflicts/?on=2016-01-04")
    assert "Law in force on Monday 4 January 2016" in page.locator(".law-date").inner_text()
    insurance = page.locator("#conflicts .law-folds > li > details").filter(has_text="$50,000").first
    insurance.locator("> summary").click()
    assert "$50,000" in insurance.inner_text() and insurance.get_by_text("What dogcase applies").is_visible()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390", "1280"])
def test_an_old_address_of_a_provision_lands_on_it_and_each_page_reads_on_a_phone(
    live_server, browser, viewport
):
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    base = live_server.url

    # the law was one page: its addresses into a provision or a problem still land on it
    page.goto(base + "/law/tracy-mn/#p-tracy-mn:5.F")
    page.wait_for_url(re.compile(r"/law/tracy-mn/[a-z0-9-]+/#p-tracy-mn:5\.F$"))
    article = page.locator("#p-tracy-mn\\:5\\.F")
    assert "public liability insurance of at least Fifty Thousand" in article.inner_text()
    assert article.is_visible()
    page.goto(base + "/law/battle-lake-mn/?on=2026-11-30#d-battle-lake-mn:service-dates-by-method")
    page.wait_for_url(re.compile(r"/law/battle-lake-mn/problems(-\d+)?/\?on=2026-11-30#d-battle-lake-mn:"))
    problem = page.locator("#d-battle-lake-mn\\:service-dates-by-method")
    assert "dogcase's reading:" in problem.inner_text()
    assert problem.get_by_text("dogcase's reading:").is_visible()  # folds.js opens the fold it points into

    # the contents: every part a link, a part's provisions folded under it; a part page reads on its own
    page.goto(base + "/law/battle-lake-mn/")
    parts = page.locator(".law-contents > li")
    assert parts.count() > 10
    assert not page.locator("#p-battle-lake-mn\\:C\\.4").is_visible()
    parts.filter(has_text="Registration.").first.locator("summary").click()
    page.locator("#p-battle-lake-mn\\:C\\.4 a").click()
    page.wait_for_url(re.compile(r"/law/battle-lake-mn/registration/#p-battle-lake-mn:C\.4$"))
    assert page.get_by_role("heading", level=1).inner_text() == "Registration."
    headings = page.locator("h1, h2, h3, h4").evaluate_all("els => els.map(e => Number(e.tagName[1]))")
    assert headings[0] == 1 and all(b - a <= 1 for a, b in zip(headings, headings[1:], strict=False))
    assert page.get_by_role("main").count() == 1
    following = page.locator(".part-nav li", has_text="Next:")
    assert following.inner_text().startswith("Next: Certificate of registration.")
    following.get_by_role("link").click()
    page.wait_for_url(re.compile(r"/law/battle-lake-mn/certificate-of-registration/$"))

    for path in (
        "/law/battle-lake-mn/",
        "/law/battle-lake-mn/registration/",
        "/law/battle-lake-mn/problems/",
        "/law/tracy-mn/conflicts/",
        "/law/mn-statute/definitions/",
    ):
        page.goto(base + path)
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= viewport["width"], f"{path}: {width} px wide"
        found = violations(page)
        assert not found, f"{path}: {describe(found)}"
    context.close()
