import pytest


@pytest.mark.django_db(transaction=True)
def test_reader_picks_a_date_and_sees_it_stated_with_the_conflicts_table(live_server, page):
    page.goto(live_server.url + "/law/tracy-mn/")
    assert page.get_by_role("heading", level=1).inner_text() == "City of Tracy, Minnesota"

    page.get_by_label("Law in force on").fill("2016-01-04")
    page.get_by_role("button", name="Show the law").click()

    page.wait_for_url("**/law/tracy-mn/?on=2016-01-04")
    assert "Law in force on Monday 4 January 2016" in page.locator(".law-date").inner_text()
    conflicts = page.get_by_role(
        "table", name="Where the city's text departs from Minnesota law, and what dogcase applies"
    )
    assert conflicts.is_visible()
    assert "$50,000" in conflicts.inner_text()
    assert page.locator("#p-tracy-mn\\:12").count() == 0
