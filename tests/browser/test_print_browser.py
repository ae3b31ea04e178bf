"""The case page printed (print media, then a PDF) by headless Chromium: a case summary without the site's
navigation or buttons — the dog, the owner, the designation, the obligations with their citations and the
timeline (issue 8, item 7)."""

import shutil
import subprocess

import pytest
from django.utils import timezone

from tests.browser.test_case_flow_browser import log_in
from tests.staff.conftest import declare, record_bite, take

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_case_page_prints_as_a_case_summary(live_server, page, make_staff_user, tmp_path):
    officer = make_staff_user("animal_control_officer", cities=["battle-lake-mn"])
    case = record_bite(officer, dog_name="Biscuit", owner_name="Pat Printer")
    declare(case, officer)
    take(
        case,
        "serve_notice",
        officer,
        served_on=timezone.localtime(case.opened_at).date().isoformat(),
        method="personal",
        served_owner="Pat Printer",
    )
    log_in(page, live_server, "officer")
    page.goto(f"{live_server.url}/cases/{case.number}")
    assert page.locator("nav.nav").is_visible()
    assert page.get_by_role("button", name="Print the case summary").is_visible()

    page.emulate_media(media="print")
    assert not page.locator("nav.nav").is_visible()
    assert not page.locator(".search-bar").is_visible()
    assert not page.locator("#next").is_visible()
    assert page.locator("button:visible, .button:visible, form:visible").count() == 0
    assert page.locator(".summary-head").is_visible()
    summary = page.locator("main").inner_text()
    for expected in (
        "Case summary",
        "Biscuit",
        "Pat Printer",
        "Potentially dangerous",
        "What is owed",
        "What has happened",
        "§ 90.15",
    ):
        assert expected.lower() in summary.lower(), expected

    pdf = tmp_path / "case.pdf"
    page.pdf(path=str(pdf), format="Letter")
    assert pdf.read_bytes().startswith(b"%PDF")
    pdftotext = shutil.which("pdftotext")  # Debian's poppler-utils, when installed
    if pdftotext:
        text = subprocess.run(  # noqa: S603 - a fixed local tool on a file this test wrote
            [pdftotext, "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
        ).stdout
        assert "Case summary" in text and "Biscuit" in text and "Pat Printer" in text
        assert "Log out" not in text and "Search" not in text and "Print the case summary" not in text
