"""The yearly renewal of a dangerous dog's registration, in the browser (issue 22): the owner, on a phone, applies
for it from the portal and sees the year's fee with its law; the clerk records the payment on the case page,
which issues the receipt, and issues the renewed certificate; the owner then sees nothing owed and the receipt."""

import datetime as dt
import re

import pytest
from django.utils import timezone

from dogcase.cases import acts
from dogcase.cases.models import Person, case_state
from dogcase.demo.seed import demo_offices
from dogcase.documents.models import IssuedDocument
from dogcase.law import library
from dogcase.money import schedule
from dogcase.money.models import Entry
from dogcase.owners import codes
from tests.browser.test_case_flow_browser import log_in, take_step_button
from tests.documents.conftest import SERIOUS
from tests.staff.conftest import declare, take

pytestmark = pytest.mark.django_db(transaction=True)

BATTLE_LAKE = "battle-lake-mn"
WIDTH = 390


def registered_a_year_ago(staff):
    """A Battle Lake dangerous dog declared 400 days ago, its certificate issued 345 days ago: the renewal is due
    in 20 days (347.52 (b); § 90.15 (C)(5))."""
    now = timezone.now()
    officer, start = staff["officer"], now - dt.timedelta(days=402)
    owner = acts.record_person(
        jurisdiction=BATTLE_LAKE,
        actor=officer,
        full_name="Sigrid Halvorsen",
        street="310 Lake Avenue N",
        city_name="Battle Lake",
        postal_code="56515",
        at=start,
    )
    premises = acts.record_premises(
        jurisdiction=BATTLE_LAKE, actor=officer, street="310 Lake Avenue N", city_name="Battle Lake", at=start
    )
    dog = acts.record_dog(
        jurisdiction=BATTLE_LAKE,
        actor=officer,
        owners=[owner],
        premises=premises,
        name="Kaiser",
        breed="Doberman pinscher",
        microchip_number="985112004411223",
        at=start,
    )
    incident = acts.record_incident(
        jurisdiction=BATTLE_LAKE,
        actor=officer,
        occurred_at=start,
        place="Lake Avenue N, by the marina",
        place_type="public",
        kind="bite",
        narrative="Bit a man loading a boat trailer.",
        dogs=[dog],
        facts=SERIOUS,
        victims=[{"kind": "human", "name": "Per Sandvik", "injury": "substantial_bodily_harm"}],
        at=start,
    )
    case = acts.open_case(incident=incident, dog=dog, actor=officer, at=start)
    declare(case, officer, designation="dangerous", at=now - dt.timedelta(days=400))
    case.refresh_from_db()
    issued_at = now - dt.timedelta(days=345)
    j = library().get(BATTLE_LAKE)
    proofs = [c["value"] for c in j.input_choices("issue_certificate", case_state(case), issued_at)["proofs"]]
    take(case, "issue_certificate", staff["clerk"], at=issued_at, proofs=proofs, number="BL-DD-2025-07")
    case.refresh_from_db()
    return case


def test_a_renewal_and_its_fee_from_the_owners_application_to_the_receipt(
    live_server, browser, make_staff_user
):
    staff = {
        role: make_staff_user(group, cities=[BATTLE_LAKE])
        for role, group in (
            ("officer", "animal_control_officer"),
            ("clerk", "city_clerk"),
            ("admin", "administrator"),
        )
    }
    demo_offices(BATTLE_LAKE)
    today = timezone.localdate()
    schedule.set_rate(
        BATTLE_LAKE,
        "registration_fee",
        amount="75",
        effective_from=today - dt.timedelta(days=500),
        resolution="Res. 2025-04",
        adopted_on=today - dt.timedelta(days=510),
        actor=staff["admin"],
        at=timezone.now(),
    )
    case = registered_a_year_ago(staff)
    owner = Person.objects.get(ownerships__dog=case.dog)
    _row, code = codes.issue_code(case, owner, actor=staff["officer"])

    # the owner, on a phone: the renewal is due, and they apply for it
    phone = browser.new_context(viewport={"width": WIDTH, "height": 844}, is_mobile=True, has_touch=True)
    page = phone.new_page()
    page.set_default_timeout(15_000)
    page.goto(live_server.url + "/owner/")
    page.get_by_label("Case access code").fill(code)
    page.get_by_label("Your dog's name, or your ZIP code").fill("kaiser")
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{live_server.url}/owner/cases/{case.number}/")
    assert "renew" in page.content().lower()
    page.get_by_role("link", name="Apply for the certificate of registration, or its yearly renewal").click()
    page.get_by_role("button", name="Send to the city").click()
    page.wait_for_url(f"{live_server.url}/owner/cases/{case.number}/?filed=1")
    owed = page.locator("section.owed")
    assert "$75.00" in owed.inner_text() and "§ 90.15 (C)(5)(a)" in owed.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    # the clerk: the payment on the case page, with its receipt, then the renewed certificate
    office = browser.new_context()
    clerk = office.new_page()
    clerk.set_default_timeout(15_000)
    log_in(clerk, live_server, "clerk")
    clerk.goto(f"{live_server.url}/cases/{case.number}")
    money = clerk.locator("#money")
    assert "$75.00" in money.inner_text() and "§ 90.15 (C)(5)(a)" in money.inner_text()
    # the certificate waits for the fee: its form says so, naming the amount and the provision
    clerk.goto(f"{live_server.url}/cases/{case.number}/act/issue_certificate")
    first = clerk.locator("#owed-before").inner_text()
    assert "$75.00 is still owed" in first and "§ 90.15 (C)(5)(a)" in first
    clerk.goto(f"{live_server.url}/cases/{case.number}")
    clerk.locator("#money").get_by_role("link", name="Record a payment").click()
    form = clerk.locator("form.money-form")
    form.get_by_label("Amount received").fill("75.00")
    form.get_by_label("How it was paid").select_option("check")
    form.get_by_label("Check number or the card processor's reference").fill("1187")
    form.locator("button[type=submit]").click()
    clerk.wait_for_url(re.compile(rf".*/cases/{case.number}.*"))
    payment = Entry.objects.get(case=case, kind="payment")
    assert payment.receipt is not None and payment.paid_by == "Sigrid Halvorsen"
    receipt_link = clerk.get_by_role("link", name=f"Receipt No. {payment.receipt.number} (PDF)")
    assert receipt_link.count() >= 1
    assert "$0.00" in clerk.locator("#money .balance").inner_text()

    take_step_button(clerk, "Issue the annual certificate of registration")
    act = clerk.locator("form.act-form")
    proven = act.locator("fieldset", has_text="Conditions the owner has proven")
    for box in proven.locator("input[type=checkbox]").all():
        box.check()
    act.get_by_label("Certificate number").fill("BL-DD-2026-07")
    act.locator("button[type=submit]").click()
    clerk.wait_for_url(re.compile(rf".*/cases/{case.number}#timeline"))
    certificates = IssuedDocument.objects.filter(case=case, doc_type="certificate_of_registration")
    assert certificates.count() == 1  # the renewed certificate (the first was recorded without its document)
    renewal = case.obligations.get(deadline_id="owner.renew_registration")
    assert renewal.due_date > today + dt.timedelta(days=300)  # a year from the renewed certificate
    office.close()

    # the owner again: nothing owed, the receipt among their documents
    page.goto(f"{live_server.url}/owner/cases/{case.number}/")
    assert "$0.00" in page.locator("section.owed").inner_text()
    receipt = page.get_by_role("link", name=re.compile("Receipt for payment"))
    assert receipt.count() == 1
    with page.expect_download() as download:
        receipt.click()
    assert download.value.suggested_filename.endswith(".pdf")
    phone.close()
