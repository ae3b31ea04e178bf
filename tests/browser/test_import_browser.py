"""Bringing a city's dogs in from ASM3, in the browser (issue 23): the clerk sends ASM3's animal export, sees its
columns matched with the file's first rows, has every row checked, and brings the file in; on a phone, a file
with a bad row lists its problem by row and column and offers nothing to bring in."""

import pytest

from dogcase.cases.models import Dog
from tests.browser.test_case_flow_browser import log_in
from tests.imports.conftest import FILES

pytestmark = pytest.mark.django_db(transaction=True)

BATTLE_LAKE = "battle-lake-mn"


@pytest.fixture(autouse=True)
def tasks_at_once(settings):
    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}


def send(page, live_server, path, kind_label, source="ASM3"):
    page.goto(live_server.url + "/imports/")
    page.get_by_label("What the file holds").select_option(label=kind_label)
    page.get_by_label("Where it comes from").fill(source)
    page.get_by_label("The file (CSV or .xlsx").set_input_files(str(path))
    page.get_by_role("button", name="Send and match its columns").click()
    page.wait_for_selector("h1:has-text('Match the columns')")


def test_the_clerk_brings_in_asm3_animals(live_server, browser, make_staff_user):
    make_staff_user("city_clerk", username="clerk", cities=[BATTLE_LAKE])
    page = browser.new_page()
    page.set_default_timeout(15_000)
    log_in(page, live_server, "clerk")
    page.get_by_role("link", name="Import").click()
    send(
        page,
        live_server,
        FILES / "asm3_animals.csv",
        "Dogs, with their owners, homes, licences and microchips",
    )
    assert page.get_by_label("Dog's name").input_value() == "ANIMALNAME"
    page.locator("details.samples summary").click()
    assert "Rocky" in page.locator("details.samples").inner_text()
    page.get_by_role("button", name="Check every row").click()
    page.wait_for_selector("h2:has-text('What the check found')")
    found = page.locator("main").inner_text()
    assert "3 dogs" in found and "Skipped, animals other than dogs: 1" in found
    assert Dog.objects.count() == 0
    page.get_by_role("button", name="Bring in 6 rows").click()
    page.wait_for_selector("h2:has-text('What was brought in')")
    assert "Created: 3 dogs" in page.locator("main").inner_text()
    assert sorted(Dog.objects.values_list("name", flat=True)) == ["Bruno", "Daisy", "Rocky"]


def test_a_bad_row_on_a_phone(live_server, browser, make_staff_user, tmp_path):
    make_staff_user("city_clerk", username="clerk", cities=[BATTLE_LAKE])
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = phone.new_page()
    page.set_default_timeout(15_000)
    log_in(page, live_server, "clerk")
    bad = tmp_path / "dogs.csv"
    bad.write_text("Dog name,Sex,Microchip\nMax,M,900001000000001\nBella,sometimes,900001000000002\n")
    send(
        page,
        live_server,
        bad,
        "Dogs, with their owners, homes, licences and microchips",
        source="Spreadsheet",
    )
    page.get_by_role("button", name="Check every row").click()
    page.wait_for_selector("h2:has-text('1 problem')")
    problem = page.locator("table.problems tbody tr").first.inner_text()
    assert "3" in problem and "Sex" in problem and "Not a sex" in problem
    assert page.get_by_role("button", name="Bring in").count() == 0
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
