"""Issuing a notice from the case page: the draft on the act form, re-filled as the form is typed, then the
issued PDF downloaded from the timeline."""

import datetime as dt
import hashlib
import re

import pytest
from django.utils import timezone

from dogcase.documents.models import IssuedDocument
from tests.browser.test_case_flow_browser import log_in, take_step_button
from tests.documents.conftest import Case

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_officer_issues_the_notice_from_the_case_page_and_downloads_it(
    live_server, page, staff, settings, tmp_path
):
    settings.MEDIA_ROOT = tmp_path / "media"
    c = Case(staff)
    c.declare()
    today = timezone.localdate()
    log_in(page, live_server, "officer")
    page.goto(f"{live_server.url}/cases/{c.case.number}")
    take_step_button(page, "Serve the notice of declaration on the owner")
    draft = page.locator(".draft").first
    assert "Rexford" in draft.inner_text()
    assert "(B)(2)(a)" in draft.inner_text()
    assert page.locator("input[name=in-contents]").count() == 0  # no tick boxes
    # the form starts at today's date of the notice: the draft gives the owner's last day at once
    hearing_right = page.locator(".draft [data-element$='/hearing_right']").first
    assert hearing_right.locator("mark.unfilled").count() == 0
    before = hearing_right.inner_text()
    assert str(today.year) in before or str(today.year + 1) in before
    # back-dating the notice re-fills the draft as it is typed (htmx): the last day moves a week earlier
    page.locator("#in-served_on").fill((today - dt.timedelta(days=7)).isoformat())
    page.locator("input[name=in-method][value=personal]").check()
    page.wait_for_function(
        "(before) => { const s = document.querySelector(\".draft [data-element$='/hearing_right']\");"
        " return s && s.innerText !== before && !s.querySelector('mark.unfilled'); }",
        arg=before,
    )
    page.locator("#in-served_owner").fill("Olive Ostrander, at the door")
    page.locator("form.act-form button[type=submit]").click()
    page.wait_for_url(re.compile(rf".*/cases/{c.case.number}#timeline"))
    doc = IssuedDocument.objects.filter(case=c.case).order_by("id").first()
    link = page.locator(f"a[href='/documents/{doc.pk}.pdf']")
    assert doc.number in link.inner_text()
    with page.expect_download() as info:
        link.click()
    path = info.value.path()
    data = open(path, "rb").read()
    assert data.startswith(b"%PDF-")
    assert hashlib.sha256(data).hexdigest() == doc.sha256
