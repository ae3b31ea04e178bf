"""What the owner of a seized dog owes, on the portal: the balance today, each charge beside the law that imposes
it, the payments with their receipts, where to pay; the receipt and the statement of charges among the owner's
documents, for that owner only; in Spanish, dogcase's words translated and the law's left in English."""

import re

import pytest
import time_machine
from django.test import Client

from dogcase.cases import updates
from dogcase.documents.models import CityOffice
from dogcase.money import payments
from dogcase.money.models import Charge
from dogcase.owners import codes
from tests.documents import lint
from tests.documents.conftest import SERIOUS, at, make_case, media  # noqa: F401  (fixtures)
from tests.money.test_money import TRACY, release_inputs, seized
from tests.owners.test_owner_spanish_issue18 import ENGLISH_DATE_WORDS

OFFICE = {"address": "336 Morgan Street, Tracy, MN 56175", "telephone": "507-555-0110"}


def _text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).replace("&#x27;", "'").split())


def _card(html: str, heading_id: str) -> str | None:
    found = re.search(
        rf'<section class="card[^"]*" aria-labelledby="{heading_id}">(.*?)</section>', html, re.DOTALL
    )
    return found.group(1) if found else None


def _signed_in(c) -> Client:
    """The case's owner signed in to the portal on Saturday, June 6, 2026 (day 5)."""
    with time_machine.travel(at(5, 10), tick=False):
        _row, code = codes.issue_code(c.case, c.owner, actor=c.staff["officer"])
        client = Client()
        assert client.post("/owner/", {"code": code, "fact": "Rexford"}).status_code == 302
    return client


def _get(client: Client, url: str):
    with time_machine.travel(at(5, 10), tick=False):
        return client.get(url)


def _page(client: Client, c) -> str:
    response = _get(client, f"/owner/cases/{c.case.number}/")
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def seized_and_paid(make_case, staff):  # noqa: F811
    """Tracy's dangerous dog Rexford, seized on Wednesday, June 3 ($75.00 impounding, $22.50 a day boarding);
    $50.00 paid by check on June 4."""
    CityOffice.objects.update_or_create(jurisdiction=TRACY, office=CityOffice.LETTERHEAD, defaults=OFFICE)
    c = seized(make_case, staff, day=2)
    payments.record_payment(
        c.case,
        amount="50.00",
        method="check",
        reference="1042",
        paid_by="Olive Ostrander",
        actor=staff["clerk"],
        at=at(3, 9),
    )
    return c


def _spanish(c) -> None:
    updates.update_person(
        c.owner, actor=c.staff["officer"], changes={"preferred_language": "es"}, reason="Asked for it"
    )


def test_the_owner_reads_the_balance_and_each_charge_beside_its_law(seized_and_paid):
    c = seized_and_paid
    card = _card(_page(_signed_in(c), c), "owed-h")
    assert card is not None
    text = _text(card)
    # June 3 to June 6: four days held, the day of the seizure counted; $75.00 + $90.00 - $50.00
    assert "What you owe Balance today, Saturday, 6 June 2026 $115.00" in text
    assert '<p class="balance">$115.00</p>' in card
    assert "Impounding fee (Minn. Stat. § 347.54, subd. 2) $75.00 Charged on Wednesday, 3 June 2026" in text
    assert (
        "Boarding, for each day the dog is held (Minn. Stat. § 347.54, subd. 2) $90.00 "
        "4 days at $22.50 a day since Wednesday, 3 June 2026 The dog is still held: $22.50 more each day."
    ) in text
    receipt = c.case.money_entries.get().receipt
    assert f"Payment received -$50.00 Thursday, 4 June 2026 Receipt No. {receipt.number} (PDF)" in text
    assert f'href="/owner/cases/{c.case.number}/documents/{receipt.pk}.pdf"' in card
    assert (
        f"How to pay This website takes no payment. Pay the city at its office, and give your case number, "
        f"{c.case.number}. City of Tracy 336 Morgan Street, Tracy, MN 56175 Telephone: 507-555-0110"
    ) in text
    # the $50.00 went to the oldest charge first
    assert "Charged on Wednesday, 3 June 2026 Still owed on this charge: $25.00 Boarding" in text
    assert "inglés" not in card


def test_refunds_waivers_and_cancellations_say_what_they_are(seized_and_paid, staff):
    c = seized_and_paid
    paid = c.case.money_entries.get()
    impounding = Charge.objects.get(case=c.case, charge="impounding_fee")
    boarding = Charge.objects.get(case=c.case, charge="boarding")
    payments.refund(c.case, paid.pk, amount="20", reason="Paid twice", actor=staff["clerk"], at=at(4, 9))
    payments.waive(
        c.case,
        amount="22.50",
        resolution="2026-31",
        adopted_on=at(4).date(),
        charge_id=boarding.pk,
        actor=staff["council"],
        at=at(4, 10),
    )
    payments.cancel_charge(c.case, impounding.pk, reason="Charged twice", actor=staff["clerk"], at=at(4, 11))
    text = _text(_card(_page(_signed_in(c), c), "owed-h"))
    # $165.00 charged, less $50.00 paid, plus $20.00 given back, less $22.50 waived and $75.00 cancelled
    assert "Balance today, Saturday, 6 June 2026 $37.50" in text
    assert "Impounding fee (Minn. Stat. § 347.54, subd. 2) $75.00 Charged on Wednesday, 3 June 2026 " in text
    assert "This charge was cancelled." in text
    assert "Money given back from the payment of Thursday, 4 June 2026 +$20.00 Friday, 5 June 2026" in text
    assert "Waived by the council, resolution 2026-31: Boarding, for each day the dog is held -$22.50" in text
    assert "Charge cancelled: Impounding fee -$75.00 Friday, 5 June 2026" in text
    assert "Paid twice" not in text and "Charged twice" not in text  # the staff's reasons stay on the record


def test_once_paid_and_released_nothing_is_owed_and_the_boarding_has_ended(seized_and_paid, staff):
    c = seized_and_paid
    payments.record_payment(
        c.case, amount="115.00", method="cash", paid_by="Olive Ostrander", actor=staff["clerk"], at=at(5, 9)
    )
    c.step("release", "officer", 5, **release_inputs(c, 5))
    text = _text(_card(_page(_signed_in(c), c), "owed-h"))
    assert "Balance today, Saturday, 6 June 2026 $0.00 You owe nothing today." in text
    assert "4 days at $22.50 a day, from Wednesday, 3 June 2026 to Saturday, 6 June 2026" in text
    assert "still held" not in text
    assert text.count("Nothing is left to pay on this charge.") == 2


def test_the_card_is_absent_when_nothing_was_ever_charged(make_case):  # noqa: F811
    c = make_case(city=TRACY, facts=SERIOUS)
    c.declare(day=1, designation="dangerous")
    html = _page(_signed_in(c), c)
    assert _card(html, "designation-h") is not None
    assert _card(html, "owed-h") is None and "What you owe" not in html


def test_the_receipt_and_the_statement_are_the_owners_documents_and_no_one_elses(
    seized_and_paid,
    make_case,  # noqa: F811
    staff,
):
    c = seized_and_paid
    receipt = c.case.money_entries.get().receipt
    statement = payments.issue_statement(c.case, actor=staff["clerk"], at=at(4, 9))
    client = _signed_in(c)
    documents = _text(_card(_page(client, c), "documents-h"))
    assert f"Receipt for payment (2026-06-04, No. {receipt.number}, PDF)" in documents
    assert f"Statement of charges (2026-06-05, No. {statement.number}, PDF)" in documents
    for doc in (receipt, statement):
        response = _get(client, f"/owner/cases/{c.case.number}/documents/{doc.pk}.pdf")
        assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
        assert b"".join(response.streaming_content).startswith(b"%PDF")
    # the owner of another case in the same city: neither through the first case nor through their own
    other = make_case(city=TRACY, facts=SERIOUS)
    stranger = _signed_in(other)
    assert _get(stranger, f"/owner/cases/{c.case.number}/documents/{receipt.pk}.pdf").status_code == 404
    assert _get(stranger, f"/owner/cases/{other.case.number}/documents/{receipt.pk}.pdf").status_code == 404
    # and nobody signed in is sent to the sign-in page
    anonymous = _get(Client(), f"/owner/cases/{c.case.number}/documents/{receipt.pk}.pdf")
    assert anonymous.status_code == 302 and anonymous["Location"] == "/owner/"


def test_a_spanish_owner_reads_dogcases_words_in_spanish_and_the_law_in_english(seized_and_paid):
    c = seized_and_paid
    _spanish(c)
    html = _page(_signed_in(c), c)
    card = _card(html, "owed-h")
    text = _text(card)
    assert "Lo que usted debe Saldo de hoy, sábado 6 de junio de 2026 $115.00" in text
    assert "Los nombres de los cargos y de la ley que los establece están en inglés" in text
    assert '<strong lang="en">Impounding fee</strong>' in card
    assert '<span class="cite" lang="en">(Minn. Stat. § 347.54, subd. 2)</span>' in card
    assert "Cargo impuesto el miércoles 3 de junio de 2026" in text
    assert "4 días a $22.50 por día desde el miércoles 3 de junio de 2026" in text
    assert "El perro sigue retenido: $22.50 más cada día." in text
    assert "Pago recibido -$50.00 jueves 4 de junio de 2026 Recibo No." in text
    assert "Cómo pagar Este sitio web no acepta pagos." in text and "Ciudad de Tracy" in text
    assert "Teléfono: 507-555-0110" in text
    # dogcase's words, dates included, are Spanish: the English left is the law's, marked so
    english = re.sub(r'<(strong|span)[^>]*lang="en"[^>]*>.*?</\1>', "", card, flags=re.DOTALL)
    assert not ENGLISH_DATE_WORDS.search(english)
    for words in ("Balance", "Charged", "Payment", "How to pay", "a day", "still held", "Receipt"):
        assert words not in _text(english), words
    assert "Recibo de pago (4 de junio de 2026, No. " in _text(_card(html, "documents-h"))


def test_no_engine_identifier_reaches_the_owners_page(seized_and_paid, staff):
    c = seized_and_paid
    payments.issue_statement(c.case, actor=staff["clerk"], at=at(4, 9))
    html = _page(_signed_in(c), c)
    ids = ["impounding_fee", "tracy-mn", "statement_of_charges", "record_payment", "per_day"]
    assert not [i for i in ids if i in html]
    assert lint.engine_identifiers(_text(_card(html, "owed-h")), ids) == []
    assert lint.engine_identifiers(_text(_card(html, "documents-h")), ids) == []
