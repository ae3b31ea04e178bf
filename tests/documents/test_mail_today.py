"""The day's mail (issue 20, item 8): every document to be mailed today in one PDF — the stored PDFs, in order,
behind a certified-mail sheet in the style of PS Form 3877 — and "Mark all as mailed today", one service
attempt (an audited act) a document, refusing what is already recorded."""

from __future__ import annotations

import shutil
import subprocess

import pytest
import time_machine
from django.test import Client

from dogcase.cases.models import Event
from dogcase.documents import mail_today as mail
from dogcase.documents import serving
from dogcase.documents.models import CityOffice, IssuedDocument
from dogcase.documents.service_models import ServiceAttempt
from tests.conftest import OFFICE_ADDRESS
from tests.documents.conftest import DAY0, at, on

pytestmark = pytest.mark.django_db
CITIES = ["battle-lake-mn", "tracy-mn"]
TODAY = 4
ARTICLE = "9407 1112 0620 1234 5678 90"


def text_of(data: bytes) -> str:
    pdftotext = shutil.which("pdftotext")
    if pdftotext is None:
        pytest.fail("pdftotext is missing: scripts/system-packages.sh installs poppler-utils")
    out = subprocess.run([pdftotext, "-layout", "-", "-"], input=data, capture_output=True, check=True)  # noqa: S603
    return out.stdout.decode()


@pytest.fixture
def day_of_mail(make_case, staff):
    """On day 4: Battle Lake's notice of declaration served by certified mail (recorded so by the step), its
    notice of hearing issued (no sending recorded), and Tracy's notice of classification (none recorded)."""
    bl = make_case()
    bl.declare(day=1)
    bl.serve(day=TODAY, method="certified_mail", telephoned=True)
    bl.step("receive_hearing_request", "clerk", TODAY, hour=12, received_on=on(TODAY))
    bl.step(
        "schedule_hearing",
        "clerk",
        TODAY,
        hour=13,
        hearing_at=at(TODAY + 6, 14).isoformat(),
        place="City Hall council chambers",
        hearing_officer=str(staff["hearing"].pk),
    )
    tracy = make_case("tracy-mn")
    tracy.step("classify", "clerk", 3, designation="vicious", reasonable_cause="Unprovoked bite on a person.")
    CityOffice.objects.update_or_create(
        jurisdiction="tracy-mn", office="city_administrator", defaults={"address": OFFICE_ADDRESS}
    )
    tracy.step("notify_classification", "clerk", TODAY, hour=14, sent_on=on(TODAY), certified_mail=True)
    certified = ServiceAttempt.objects.get(method="certified_mail")
    serving.record_article_number(
        certified,
        actor=staff["clerk"],
        article_number=ARTICLE,
        expected_version=certified.document.case.version,
        at=at(TODAY, 15),
    )
    return bl, tracy


def today():
    return DAY0 + __import__("datetime").timedelta(days=TODAY)


def test_the_days_mail_is_every_owners_document_not_yet_sent_and_those_mailed_today(day_of_mail):
    days = mail.days_mail(CITIES, day=today())
    owners = set(IssuedDocument.objects.filter(audience="owner").values_list("number", flat=True))
    assert len(owners) >= 3
    assert {p.document.number for p in days.pieces} == owners
    certified = [p for p in days.marked if p.certified]
    assert [p.article_number for p in certified] == [ARTICLE]
    assert {p.document.number for p in days.to_mark}.isdisjoint({p.document.number for p in days.marked})
    # another day's list is not today's: the notice mailed on day 4 is not "mailed" on day 5
    assert not mail.days_mail(CITIES, day=today() + __import__("datetime").timedelta(days=1)).marked
    # one city's list holds none of the other's
    assert all(
        p.document.jurisdiction == "tracy-mn" for p in mail.days_mail(["tracy-mn"], day=today()).pieces
    )


def test_the_bundle_holds_every_document_in_order_behind_the_certified_mail_sheet(day_of_mail):
    days = mail.days_mail(CITIES, day=today())
    text = text_of(mail.bundle_pdf(days))
    sheet, _, rest = text.partition("Postmaster, per")
    assert "Certified mail" in sheet and "Article number" in sheet and "Postage" in sheet and "fee" in sheet
    positions = []
    for p in days.pieces:
        heading = f"No. {p.document.number} · version {p.document.version} · issued"
        assert heading in rest, f"{p.document.number} is missing from the day's PDF"
        positions.append(rest.index(heading))
    assert positions == sorted(positions) and len(set(positions)) == len(days.pieces)
    # every page of every stored PDF is there
    pages = sum(text_of(open_blob_bytes(p.document)).count("\f") for p in days.pieces)
    assert rest.count("\f") >= pages


def open_blob_bytes(document) -> bytes:
    from dogcase.cases.files import open_blob

    with open_blob(document.blob) as f:
        return f.read()


def test_the_3877_sheet_lists_each_certified_piece_with_its_sender(day_of_mail):
    days = mail.days_mail(CITIES, day=today())
    sheet = text_of(mail.sheet_pdf(days))
    certified = [p for p in days.pieces if p.certified]
    assert certified
    for p in certified:
        assert p.document.number in sheet
        assert p.addressee.splitlines()[0] in sheet
    assert ARTICLE in sheet
    first_class = [p for p in days.pieces if not p.certified]
    assert first_class and all(p.document.number not in sheet for p in first_class)
    assert "City of Battle Lake" in sheet  # the sender
    assert f"Total number of pieces listed by sender: {len(certified)}" in " ".join(sheet.split())
    assert mail.sheet_pdf(mail.days_mail(["tracy-mn"], day=today())) == b""  # nothing certified: no sheet


def test_marking_records_one_service_attempt_each_and_a_second_click_records_nothing(day_of_mail, staff):
    days = mail.days_mail(CITIES, day=today())
    ids = [p.document.pk for p in days.to_mark]
    assert ids
    attempts, audited = (
        ServiceAttempt.objects.count(),
        Event.objects.filter(act="record_service_attempt").count(),
    )
    done = mail.mark_mailed_today(CITIES, ids, actor=staff["clerk"], at=at(TODAY, 16))
    assert len(done.recorded) == len(ids) and not done.refused
    assert ServiceAttempt.objects.count() == attempts + len(ids)
    assert Event.objects.filter(act="record_service_attempt").count() == audited + len(ids)
    for pk in ids:
        a = ServiceAttempt.objects.exclude(method="").get(document_id=pk)
        assert (a.sent_on, a.outcome, a.recorded_by) == (today(), "sent", staff["clerk"])
        assert serving.method_kind(a.method) == "mail"
    after = mail.days_mail(CITIES, day=today())
    assert not after.to_mark and {p.document.pk for p in after.marked} >= set(ids)
    again = mail.mark_mailed_today(CITIES, ids, actor=staff["clerk"], at=at(TODAY, 17))
    assert not again.recorded and len(again.refused) == len(ids)
    assert ServiceAttempt.objects.count() == attempts + len(ids)
    assert Event.objects.filter(act="record_service_attempt").count() == audited + len(ids)


def client(user, **kwargs) -> Client:
    c = Client(**kwargs)
    c.force_login(user)
    return c


def test_the_page_confirms_before_acting_and_checks_role_city_and_csrf(day_of_mail, staff, make_staff_user):
    with time_machine.travel(at(TODAY, 16), tick=False):
        days = mail.days_mail(CITIES, day=today())
        ids = [str(p.document.pk) for p in days.to_mark]
        page = client(staff["clerk"]).get("/mail/today")
        assert page.status_code == 200
        html = page.content.decode()
        assert f"<strong>{len(ids)}</strong> document" in html and "Mark all as mailed today" in html
        before = ServiceAttempt.objects.count()
        # the first click asks; nothing is recorded
        confirm = client(staff["clerk"]).post("/mail/today", {"document": ids, "step": "confirm"})
        assert confirm.status_code == 200 and "Yes, record" in confirm.content.decode()
        assert ServiceAttempt.objects.count() == before
        # the auditor reads the page but records nothing
        assert client(staff["auditor"]).get("/mail/today").status_code == 200
        refused = client(staff["auditor"]).post("/mail/today", {"document": ids, "step": "mark"})
        assert refused.status_code == 403 and ServiceAttempt.objects.count() == before
        # without the form's CSRF token: refused
        forged = client(staff["clerk"], enforce_csrf_checks=True).post(
            "/mail/today", {"document": ids, "step": "mark"}
        )
        assert forged.status_code == 403 and ServiceAttempt.objects.count() == before
        # a clerk of Tracy only: Battle Lake's documents are not theirs to list or mark
        tracy_clerk = make_staff_user("city_clerk", username="tracy-clerk", cities=("tracy-mn",))
        theirs = client(tracy_clerk).get("/mail/today").context["to_mark"]
        assert {p.document.jurisdiction for p in theirs} == {"tracy-mn"}
        client(tracy_clerk).post("/mail/today", {"document": ids, "step": "mark"})
        bl_ids = {p.document.pk for p in days.to_mark if p.document.jurisdiction == "battle-lake-mn"}
        assert not ServiceAttempt.objects.filter(document_id__in=bl_ids).exclude(method="").exists()
        # the clerk confirms: one attempt each
        done = client(staff["clerk"]).post("/mail/today", {"document": ids, "step": "mark"})
        assert done.status_code == 302
        assert ServiceAttempt.objects.exclude(method="").filter(document_id__in=ids).count() == len(ids)
        pdf = client(staff["clerk"]).get("/mail/today.pdf")
        assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
