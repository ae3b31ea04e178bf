"""Money on the staff pages (dogcase/money): the case page's panel says what is owed today, each charge with the
provision that allows it; its forms record a payment (with its receipt), a refund, a waiver, a cancellation, an
actual cost and a statement, each shown again with the message beside its field when the act refuses it, and
only to the roles the act allows; City settings keeps the fee schedule within the law's caps; the person page
says what an owner owes across their dogs' cases."""

import datetime as dt
import re
from decimal import Decimal

import pytest
import time_machine
from django.utils.html import escape

from dogcase.documents.models import IssuedDocument
from dogcase.money import schedule
from dogcase.money.models import Charge, Entry, FeeRate
from tests.documents.conftest import DAY0, SERIOUS, at, make_case, media  # noqa: F401 - fixtures
from tests.staff.conftest import BATTLE_LAKE, TRACY, client_for
from tests.staff.page_words import identifiers_on

pytestmark = pytest.mark.django_db

SETTINGS = "/city-settings/"


@pytest.fixture
def clock():
    """Friday 5 June 2026, 10:00 in the city: the dog seized on Wednesday has been held three days."""
    with time_machine.travel(at(4, 10), tick=True):
        yield


def rate(staff, city, charge, amount):
    start = DAY0 - dt.timedelta(days=30)
    return schedule.set_rate(
        city,
        charge,
        amount=amount,
        effective_from=start,
        resolution="2026-14",
        adopted_on=start - dt.timedelta(days=7),
        actor=staff["admin"],
        at=at(-1),
    )


@pytest.fixture
def seized(clock, make_case, staff):  # noqa: F811 - the fixture imported above
    """A Tracy dangerous dog seized on Wednesday 3 June (347.54), at $75.00 and $22.50 a day: $142.50 today."""
    rate(staff, TRACY, "impounding_fee", "75.00")
    rate(staff, TRACY, "boarding", "22.50")
    c = make_case(city=TRACY, facts=SERIOUS)
    c.declare(day=1, designation="dangerous")
    c.step(
        "seize",
        "officer",
        2,
        ground="not_enclosed",
        place="Lyon County Animal Shelter",
        contact="Pat Kennel",
        telephone="507-555-0199",
    )
    return c


def page(client, case) -> str:
    response = client.get(f"/cases/{case.number}")
    assert response.status_code == 200
    return response.content.decode()


def money_section(html: str) -> str:
    start = html.index('<section id="money"')
    return html[start : html.index("</section>", start)]


def forms(client, case) -> str:
    """The money forms the case page links to, each on its own page, as one text."""
    panel = money_section(page(client, case))
    urls = dict.fromkeys(re.findall(rf'href="(/cases/{re.escape(case.number)}/money/\w+)"', panel))
    out = []
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        out.append(response.content.decode())
    return "\n".join(out)


def form_key(html: str, kind: str) -> str:
    form = re.search(rf'<form[^>]*data-form="{kind}".*?</form>', html, flags=re.S)
    assert form, f"no {kind} form on the page"
    return re.search(r'name="idempotency_key" value="([^"]+)"', form.group(0)).group(1)


def pay(client, case, key, **given):
    data = {"amount": "100.00", "method": "cash", "reference": "", "paid_by": "Olive Ostrander", **given}
    return client.post(f"/cases/{case.number}/money/payment", {"idempotency_key": key, **data})


# ------------------------------------------------------------------------------------------ the case page


def test_the_panel_shows_the_balance_and_each_charge_with_its_provision(seized, staff):
    html = page(client_for(staff["clerk"]), seized.case)
    panel = money_section(html)
    assert '<span class="balance-amount">$142.50</span> owed on Friday 5 June 2026' in panel
    assert "Impounding fee" in panel and "(Minn. Stat. § 347.54, subd. 2)" in panel
    assert "3 days at $22.50 a day, since 3 Jun 2026" in panel and "still running" in panel
    assert "$22.50 more is charged for each further day" in panel
    assert "At the rate set by resolution 2026-14" in panel
    # the first screen says it too, with a link to the panel
    assert '<dd class="owed-now"><a href="#money">$142.50</a></dd>' in html
    assert identifiers_on(panel) == []


def test_a_payment_from_the_page_issues_a_receipt_and_lowers_the_balance(seized, staff):
    client = client_for(staff["clerk"])
    key = form_key(forms(client, seized.case), "payment")
    response = pay(client, seized.case, key, amount="100", method="check", reference="1042")
    assert response.status_code == 302 and response["Location"].endswith(f"/cases/{seized.case.number}#money")
    paid = Entry.objects.get(case=seized.case)
    assert (paid.kind, paid.amount, paid.reference) == ("payment", Decimal("100.00"), "1042")
    assert paid.receipt is not None and paid.receipt.title == "Receipt for payment"
    assert paid.recorded_by == staff["clerk"]
    after = client.get(f"/cases/{seized.case.number}", follow=False)
    html = after.content.decode()
    panel = money_section(html)
    assert '<span class="balance-amount">$42.50</span>' in panel
    assert (
        f'href="/documents/{paid.receipt.pk}.pdf"' in panel and f"Receipt No. {paid.receipt.number}" in panel
    )
    assert "By check No. 1042; paid by Olive Ostrander." in panel
    assert "Payment of $100.00 recorded" in html and "The balance is now $42.50." in html
    assert client.get(f"/documents/{paid.receipt.pk}.pdf").status_code == 200
    # the same form sent again (a double click) records nothing more
    again = pay(client, seized.case, key, amount="100", method="check", reference="1042")
    assert again.status_code == 302 and Entry.objects.filter(case=seized.case).count() == 1


@pytest.mark.parametrize(
    ("given", "field", "words"),
    [
        ({"amount": "12.345"}, "amount", "two digits after the point"),
        ({"amount": "500"}, "amount", "The balance is $142.50; a payment of $500.00 is more than is owed."),
        ({"method": "check", "reference": ""}, "reference", "Give the check number."),
        ({"paid_by": "  "}, "paid_by", "Give the name of the person who paid."),
    ],
)
def test_a_bad_payment_is_shown_again_with_the_message_beside_its_field_and_nothing_written(
    seized, staff, given, field, words
):
    client = client_for(staff["clerk"])
    key = form_key(forms(client, seized.case), "payment")
    typed = {"amount": "20.00", "method": "card", "reference": "SQ-77812", "paid_by": "Olive O.", **given}
    response = pay(client, seized.case, key, **typed)
    assert response.status_code == 400
    html = response.content.decode()
    beside = re.search(rf'<p class="error" id="payment-{field}-error" role="alert">([^<]*)</p>', html)
    assert beside and escape(words) in beside.group(1), html[:3000]
    assert f'id="payment-{field}"' in html and 'aria-invalid="true"' in html
    # every typed value kept, and the same one-time key (nothing was claimed)
    assert f'value="{escape(typed["amount"])}"' in html
    assert f'<option value="{typed["method"]}" selected>' in html
    assert f'value="{escape(typed["reference"])}"' in html
    assert f'name="idempotency_key" value="{key}"' in html
    assert not Entry.objects.exists()
    assert not IssuedDocument.objects.filter(case=seized.case, title="Receipt for payment").exists()


def test_a_clerk_sees_the_payment_form_an_officer_and_an_auditor_do_not(seized, staff):
    assert 'data-form="payment"' in forms(client_for(staff["clerk"]), seized.case)
    for who in ("officer", "auditor"):
        html = page(client_for(staff[who]), seized.case)
        panel = money_section(html)
        assert "$142.50" in panel and "Impounding fee" in panel, who  # the panel, read only
        assert "<form" not in panel, who
    # the officer may charge an actual cost (none open here), never record a payment
    officer = client_for(staff["officer"])
    response = pay(officer, seized.case, "4b1c8a52-7c0e-4d8c-9a55-3f1c50f0e0aa")
    assert response.status_code == 403
    assert officer.get(f"/cases/{seized.case.number}/money/payment").status_code == 403
    auditor = client_for(staff["auditor"])
    assert pay(auditor, seized.case, "5b1c8a52-7c0e-4d8c-9a55-3f1c50f0e0aa").status_code == 403
    assert not Entry.objects.exists()


def test_a_user_of_another_city_reaches_neither_the_case_nor_its_forms(seized, make_staff_user):
    outsider = client_for(make_staff_user("city_clerk", username="bl-clerk", cities=[BATTLE_LAKE]))
    assert outsider.get(f"/cases/{seized.case.number}").status_code == 404
    response = pay(outsider, seized.case, "6b1c8a52-7c0e-4d8c-9a55-3f1c50f0e0aa")
    assert response.status_code in (403, 404)
    assert outsider.post(f"/cases/{seized.case.number}/money/statement").status_code in (403, 404)
    assert not Entry.objects.exists()


def test_refund_waiver_cancellation_and_statement_from_their_forms(seized, staff):
    clerk = client_for(staff["clerk"])
    pay(clerk, seized.case, form_key(forms(clerk, seized.case), "payment"), amount="100")
    paid = Entry.objects.get(kind="payment")
    html = forms(clerk, seized.case)
    # a refund: the payment chosen from the list, at most what is left of it
    refund_url = f"/cases/{seized.case.number}/money/refund"
    too_much = clerk.post(
        refund_url,
        {
            "idempotency_key": form_key(html, "refund"),
            "payment": paid.pk,
            "amount": "100.01",
            "reason": "Twice",
        },
    )
    assert too_much.status_code == 400 and "At most $100.00 of that payment" in too_much.content.decode()
    assert ">Twice</textarea>" in too_much.content.decode()  # what was typed, kept
    done = clerk.post(
        refund_url,
        {"idempotency_key": form_key(html, "refund"), "payment": paid.pk, "amount": "30", "reason": "Twice"},
    )
    assert done.status_code == 302
    # a waiver without its resolution is refused on that field; with it, recorded
    council = client_for(staff["council"])
    html = forms(council, seized.case)
    assert 'data-form="waiver"' in html and 'data-form="payment"' not in html
    waiver_url = f"/cases/{seized.case.number}/money/waiver"
    key = form_key(html, "waiver")
    refused = council.post(waiver_url, {"idempotency_key": key, "amount": "10", "adopted_on": "2026-06-04"})
    assert refused.status_code == 400
    assert 'id="waiver-resolution-error"' in refused.content.decode()
    assert 'value="2026-06-04"' in refused.content.decode()
    ok = council.post(
        waiver_url,
        {"idempotency_key": key, "amount": "10", "resolution": "2026-31", "adopted_on": "2026-06-04"},
    )
    assert ok.status_code == 302
    # the impounding fee cancelled as recorded in error: its reason is required
    impounding = Charge.objects.get(case=seized.case, charge="impounding_fee")
    html = forms(clerk, seized.case)
    cancel_url = f"/cases/{seized.case.number}/money/cancel"
    blank = clerk.post(cancel_url, {"idempotency_key": form_key(html, "cancel"), "charge": impounding.pk})
    assert blank.status_code == 400 and 'id="cancel-reason-error"' in blank.content.decode()
    cancelled = clerk.post(
        cancel_url,
        {"idempotency_key": form_key(html, "cancel"), "charge": impounding.pk, "reason": "Charged twice"},
    )
    assert cancelled.status_code == 302
    # $142.50 charged, $100 paid, $30 given back, $10 waived, $75 cancelled
    html = forms(clerk, seized.case)
    panel = money_section(page(clerk, seized.case))
    assert '<span class="balance-amount">-$12.50</span> more was paid than is charged' in panel
    for words in ("Refund", "Waived by the council", "Council resolution 2026-31", "Charge cancelled"):
        assert words in panel
    assert panel.count("Recorded by ") == 4
    statement = clerk.post(
        f"/cases/{seized.case.number}/money/statement", {"idempotency_key": form_key(html, "statement")}
    )
    assert statement.status_code == 302
    doc = IssuedDocument.objects.get(case=seized.case, title="Statement of charges")
    assert f'href="/documents/{doc.pk}.pdf"' in page(clerk, seized.case)


def on(day: int) -> str:
    return (DAY0 + dt.timedelta(days=day)).isoformat()


@time_machine.travel(at(10, 10), tick=True)
def test_an_actual_cost_is_entered_from_the_open_costs_within_the_cap(make_case, staff):  # noqa: F811
    c = make_case(city=TRACY, facts=SERIOUS)
    c.declare(day=1, designation="dangerous")
    c.step("serve_notice", "officer", 2, served_on=on(2), method="personal", telephoned=True)
    c.step("receive_hearing_request", "officer", 3, received_on=on(3))
    c.step(
        "schedule_hearing",
        "officer",
        4,
        hearing_at=at(8, 14).isoformat(),
        place="City Hall",
        hearing_officer=str(staff["hearing"].pk),
    )
    c.step("hold_hearing", "hearing", 8, held_on=on(8))
    c.step("decide_appeal", "hearing", 9, outcome="upheld", reasons="Heard.")
    officer = client_for(staff["officer"])
    html = forms(officer, c.case)
    panel = money_section(page(officer, c.case))
    assert "Actual expenses of the hearing" in panel
    assert 'At most $1,000.00 <span class="cite">— Minn. Stat. § 347.541, subd. 4</span>' in panel
    url = f"/cases/{c.case.number}/money/cost"
    choice = re.search(r'<select id="cost-cost" name="cost">\s*<option value="([^"]+)"', html).group(1)
    data = {
        "idempotency_key": form_key(html, "cost"),
        "cost": choice,
        "note": "Hearing officer's invoice 118",
    }
    over = officer.post(url, {**data, "amount": "1200"})
    assert over.status_code == 400
    assert re.search(
        r'id="cost-amount-error" role="alert">The law allows at most \$1,000.00', over.content.decode()
    )
    assert "Hearing officer&#x27;s invoice 118</textarea>" in over.content.decode()
    assert not Charge.objects.filter(case=c.case).exists()
    assert officer.post(url, {**data, "amount": "800"}).status_code == 302
    charged = Charge.objects.get(case=c.case)
    assert (charged.amount, charged.note) == (Decimal("800.00"), "Hearing officer's invoice 118")
    assert "$800.00 charged under it so far" in money_section(page(officer, c.case))


# -------------------------------------------------------------------------------------- the fee schedule


def fee_form(**given):
    return {
        "city": BATTLE_LAKE,
        "charge": "registration_fee",
        "amount": "75.00",
        "effective_from": "2026-07-01",
        "resolution": "2026-22",
        "adopted_on": "2026-06-15",
        **given,
    }


def test_city_settings_lists_each_fee_with_its_law_and_who_sets_it(clock, staff):
    client = client_for(staff["admin"])
    html = client.get(f"{SETTINGS}?city={BATTLE_LAKE}").content.decode()
    fees = html[html.index('<section id="fees"') : html.index("</section>", html.index('<section id="fees"'))]
    assert "Fees and charges" in fees
    assert "Annual dangerous dog registration fee" in fees and "(§ 90.15 (C)(5)(a))" in fees
    assert "shall be fixed, determined, and amended by the City Council" in fees
    assert "Set by council resolution" in fees
    assert "at most $500.00 — Minn. Stat. § 347.51, subd. 2, clause (3)" in fees
    assert "No amount on file: nothing is charged under it until one is entered" in fees
    assert identifiers_on(fees) == []


def test_city_settings_refuses_a_rate_above_the_cap_with_the_caps_words_beside_the_amount(clock, staff):
    client = client_for(staff["admin"])
    response = client.post("/city-settings/fees", fee_form(amount="600"))
    assert response.status_code == 400
    html = response.content.decode()
    beside = re.search(
        r'<p class="error" id="fee-registration_fee-amount-error" role="alert">([^<]*)</p>', html
    )
    assert beside, html[:2000]
    assert "The law allows at most $500.00" in beside.group(1) and "347.51, subd. 2" in beside.group(1)
    for typed in ('value="600"', 'value="2026-07-01"', 'value="2026-22"', 'value="2026-06-15"'):
        assert typed in html
    assert not FeeRate.objects.exists()
    bad_date = client.post("/city-settings/fees", fee_form(adopted_on="15 June"))
    assert bad_date.status_code == 400
    assert 'id="fee-registration_fee-adopted_on-error"' in bad_date.content.decode()
    assert not FeeRate.objects.exists()


def test_the_administrators_rate_appears_in_the_history_and_only_the_administrator_sets_one(clock, staff):
    admin = client_for(staff["admin"])
    response = admin.post("/city-settings/fees", fee_form())
    assert response.status_code == 302 and response["Location"].endswith("#fees")
    html = admin.get(f"{SETTINGS}?city={BATTLE_LAKE}").content.decode()
    row = html[html.index('id="fee-registration_fee"') :]
    row = row[: row.index('class="fee-row"') if 'class="fee-row"' in row else len(row)]
    assert '<td>$75.00 <span class="muted">(from a later day)</span></td>' in row
    assert "<td>1 Jul 2026</td><td>2026-22</td><td>15 Jun 2026</td>" in row
    assert staff["admin"].get_username() in row
    assert FeeRate.objects.get().entered_by == staff["admin"]
    assert "Fee schedule: Annual dangerous dog registration fee, $75.00" in html  # the Changes list
    for who in ("clerk", "officer"):
        assert client_for(staff[who]).post("/city-settings/fees", fee_form()).status_code == 403
    assert FeeRate.objects.count() == 1


# ---------------------------------------------------------------------------------------- the person page


def test_the_person_page_says_what_the_owner_owes_across_their_cases(seized, staff):
    client = client_for(staff["clerk"])
    html = client.get(f"/people/{seized.owner.pk}").content.decode()
    assert "Money owed: $142.50" in html
    assert (
        f'href="/cases/{seized.case.number}#money">Case {seized.case.number}</a> (Rexford): $142.50' in html
    )
    pay(client, seized.case, form_key(forms(client, seized.case), "payment"), amount="142.50")
    assert "Money owed" not in client.get(f"/people/{seized.owner.pk}").content.decode()
