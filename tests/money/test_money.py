"""Fees by resolution, charges incurred by the acts, payments, refunds, waivers and cancellations, with their
receipts and statements (issue 22, items 2-4): exact decimals, the state's caps, the audit trail."""

import datetime as dt
from decimal import Decimal

import pytest

from dogcase.cases import acts
from dogcase.cases.audit import verify_chain
from dogcase.cases.models import Event, case_state
from dogcase.documents.models import IssuedDocument
from dogcase.law import library
from dogcase.money import charging, payments, schedule
from dogcase.money.ledger import account, owed_by_owner
from dogcase.money.models import Charge, FeeRate
from dogcase.ops.integrity import verify_all
from tests.documents import lint
from tests.documents.conftest import DAY0, SERIOUS, at, pdf_text

TRACY, BATTLE_LAKE = "tracy-mn", "battle-lake-mn"


def rate(staff, city, charge, amount, *, start=DAY0 - dt.timedelta(days=30), resolution="2026-14"):
    return schedule.set_rate(
        city,
        charge,
        amount=amount,
        effective_from=start,
        resolution=resolution,
        adopted_on=start - dt.timedelta(days=7),
        actor=staff["admin"],
        at=at(-1),
    )


def seized(make_case, staff, day=2):
    """A Tracy dangerous dog seized on `day` (347.54: not kept in a proper enclosure), under the city's rates."""
    rate(staff, TRACY, "impounding_fee", "75.00")
    rate(staff, TRACY, "boarding", "22.50")
    c = make_case(city=TRACY, facts=SERIOUS)
    c.declare(day=1, designation="dangerous")
    c.step(
        "seize",
        "officer",
        day,
        ground="not_enclosed",
        place="Lyon County Animal Shelter",
        contact="Pat Kennel",
        telephone="507-555-0199",
    )
    return c


def day_of(n):
    return DAY0 + dt.timedelta(days=n)


def release_inputs(c, n):
    j = library().get(c.case.jurisdiction)
    proofs = [x["value"] for x in j.input_choices("release", case_state(c.case), at(n))["proofs"]]
    return {"fees_paid": True, "proofs": proofs}


# ------------------------------------------------------------------------------------------ the fee schedule


def test_a_rate_above_the_states_cap_is_refused_naming_the_field_and_the_law(staff, db):
    with pytest.raises(acts.InvalidInput) as refused:
        rate(staff, BATTLE_LAKE, "registration_fee", "500.01")
    assert refused.value.field == "amount"
    assert "at most $500.00" in refused.value.rule and "347.51, subd. 2" in refused.value.rule
    assert not FeeRate.objects.exists()
    kept = rate(staff, BATTLE_LAKE, "registration_fee", "500")
    assert kept.amount == Decimal("500.00") and isinstance(kept.amount, Decimal)
    event = Event.objects.get(act="set_fee_rate")
    assert (
        event.case_id is None
        and "resolution 2026-14" in event.summary
        and event.citation == "§ 90.15 (C)(5)(a)"
    )


@pytest.mark.parametrize(
    ("field", "changes", "words"),
    [
        ("amount", {"amount": "12.345"}, "two digits"),
        ("amount", {"amount": "ten dollars"}, "not an amount"),
        ("amount", {"amount": "-5"}, "zero or more"),
        ("resolution", {"resolution": "  "}, "number of the resolution"),
        ("effective_from", {"effective_from": None}, "first day"),
        ("effective_from", {"adopted_on": DAY0 + dt.timedelta(days=3)}, "before the resolution"),
        ("charge", {"charge": "hearing_expense"}, "takes a rate"),
    ],
)
def test_bad_schedule_entries_name_the_field_and_the_rule(staff, db, field, changes, words):
    given = {
        "charge": "registration_fee",
        "amount": "75",
        "effective_from": DAY0,
        "resolution": "R-1",
        "adopted_on": DAY0,
    }
    given.update(changes)
    charge = given.pop("charge")
    with pytest.raises(acts.InvalidInput) as refused:
        schedule.set_rate(BATTLE_LAKE, charge, actor=staff["admin"], at=at(0), **given)
    assert refused.value.field == field and words in refused.value.rule


def test_only_the_administrator_sets_the_schedule(staff, db):
    with pytest.raises(PermissionError):
        rate(staff | {"admin": staff["clerk"]}, BATTLE_LAKE, "registration_fee", "50")


def test_the_rate_of_a_day_is_the_latest_resolution_in_force_that_day(staff, db):
    rate(staff, BATTLE_LAKE, "registration_fee", "50", start=day_of(-100), resolution="2025-3")
    rate(staff, BATTLE_LAKE, "registration_fee", "65", start=day_of(10), resolution="2026-9")
    assert schedule.rate_on(BATTLE_LAKE, "registration_fee", day_of(9)).amount == Decimal("50.00")
    assert schedule.rate_on(BATTLE_LAKE, "registration_fee", day_of(10)).resolution == "2026-9"
    assert schedule.rate_on(BATTLE_LAKE, "registration_fee", day_of(-101)) is None


# ------------------------------------------------------------------------------- charges the acts incur


def test_the_seizure_charges_impounding_and_boarding_that_accrues_daily_and_stops_at_release(
    make_case, staff
):
    c = seized(make_case, staff, day=2)
    impounding, boarding = Charge.objects.filter(case=c.case).order_by("id")
    assert (impounding.charge, impounding.amount, impounding.citation) == (
        "impounding_fee",
        Decimal("75.00"),
        "Minn. Stat. § 347.54, subd. 2",
    )
    assert (boarding.per, boarding.rate, boarding.starts_on) == ("day", Decimal("22.50"), day_of(2))
    # each day held, the day of the seizure included
    assert account(c.case, day_of(2)).balance == Decimal("97.50")
    assert account(c.case, day_of(5)).balance == Decimal("165.00")
    # the release is refused while the fees are owed, naming the amount and the provision
    with pytest.raises(acts.Refused) as refused:
        c.step("release", "officer", 5, **release_inputs(c, 5))
    (reason,) = refused.value.refusals
    assert (
        "$165.00 is still owed" in reason["reason"] and reason["citation"] == "Minn. Stat. § 347.54, subd. 2"
    )
    paid = payments.record_payment(
        c.case,
        amount="165.00",
        method="check",
        reference="1042",
        paid_by="Olive Ostrander",
        actor=staff["clerk"],
        at=at(5, 9),
    )
    assert paid.receipt.number.startswith(c.case.number + "-D")
    c.step("release", "officer", 5, **release_inputs(c, 5))
    boarding.refresh_from_db()
    assert boarding.ends_on == day_of(5) and boarding.days(day_of(40)) == 4
    # nothing accrues after the release
    assert account(c.case, day_of(40)).balance == Decimal("0.00")
    assert Event.objects.filter(case=c.case, act="end_charge").count() == 1
    assert verify_chain().ok and verify_all()["ok"]


def test_without_a_rate_on_file_the_act_charges_nothing(make_case, staff):
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
    assert not Charge.objects.filter(case=c.case).exists()
    c.step(
        "release", "officer", 3, **release_inputs(c, 3)
    )  # the tick is the staff's record that fees were paid


def hearing_at(day: int) -> str:
    return at(day, 14).isoformat()


@pytest.mark.parametrize("outcome", ["upheld", "rescinded"])
def test_hearing_expenses_are_charged_only_when_upheld_and_never_above_1000(make_case, staff, outcome):
    c = make_case(city=TRACY, facts=SERIOUS)
    c.declare(day=1, designation="dangerous")
    c.step("serve_notice", "officer", 2, served_on=day_of(2).isoformat(), method="personal", telephoned=True)
    c.step("receive_hearing_request", "officer", 3, received_on=day_of(3).isoformat())
    c.step(
        "schedule_hearing",
        "officer",
        4,
        hearing_at=hearing_at(8),
        place="City Hall",
        hearing_officer=str(staff["hearing"].pk),
    )
    c.step("hold_hearing", "hearing", 8, held_on=day_of(8).isoformat())
    assert charging.open_costs(c.case, at(8)) == []  # no decision yet
    c.step("decide_appeal", "hearing", 9, outcome=outcome, reasons="Heard.")
    costs = charging.open_costs(c.case, at(9))
    if outcome == "rescinded":
        assert costs == []  # 347.541 subd. 4: the owner pays only if the declaration is upheld
        return
    (cost,) = costs
    assert (cost.charge.id, cost.cap, cost.citation) == (
        "hearing_expense",
        Decimal("1000"),
        "Minn. Stat. § 347.541, subd. 4",
    )
    enter = lambda amount: charging.enter_cost(  # noqa: E731
        c.case,
        "hearing_expense",
        cost.step_event.seq,
        amount=amount,
        note="Hearing officer's invoice 118",
        actor=staff["clerk"],
        at=at(10),
    )
    with pytest.raises(acts.InvalidInput) as refused:
        enter("1200")
    assert refused.value.field == "amount" and "at most $1,000.00" in refused.value.rule
    enter("800")
    with pytest.raises(acts.InvalidInput):
        enter("200.01")  # $1,000.01 in all
    enter("200")
    assert account(c.case, day_of(10)).balance == Decimal("1000.00")


# -------------------------------------------------------------------------------- payments and refunds


def test_a_payment_and_a_refund_leave_an_audit_trail_and_a_correct_balance(make_case, staff):
    c = seized(make_case, staff, day=2)
    with pytest.raises(acts.InvalidInput) as refused:
        payments.record_payment(
            c.case, amount="500", method="cash", paid_by="Olive Ostrander", actor=staff["clerk"], at=at(3)
        )
    assert refused.value.field == "amount" and "$120.00" in refused.value.rule
    with pytest.raises(acts.InvalidInput) as refused:
        payments.record_payment(
            c.case, amount="20", method="check", paid_by="Olive Ostrander", actor=staff["clerk"], at=at(3)
        )
    assert refused.value.field == "reference"
    with pytest.raises(PermissionError):
        payments.record_payment(
            c.case, amount="20", method="cash", paid_by="Olive", actor=staff["officer"], at=at(3)
        )
    paid = payments.record_payment(
        c.case, amount="100.00", method="cash", paid_by="Olive Ostrander", actor=staff["clerk"], at=at(3)
    )
    assert account(c.case, day_of(3)).balance == Decimal("20.00")
    with pytest.raises(acts.InvalidInput) as refused:
        payments.refund(c.case, paid.pk, amount="100.01", reason="Overpaid", actor=staff["clerk"], at=at(3))
    assert "At most $100.00" in refused.value.rule
    back = payments.refund(
        c.case, paid.pk, amount="30", reason="Paid twice at the counter", actor=staff["clerk"], at=at(3)
    )
    assert back.refund_of == paid and account(c.case, day_of(3)).balance == Decimal("50.00")
    # nothing was edited: the payment is as it was, and each entry has its event
    paid.refresh_from_db()
    assert paid.amount == Decimal("100.00")
    acts_written = list(
        Event.objects.filter(case=c.case, act__in=["charge", "record_payment", "refund"]).values_list(
            "act", flat=True
        )
    )
    assert acts_written == ["charge", "charge", "record_payment", "refund"]
    with pytest.raises(PermissionError):
        paid.save()
    with pytest.raises(PermissionError):
        paid.delete()
    total, each = owed_by_owner(c.owner, day_of(3))
    assert total == Decimal("50.00") and each == {c.case.pk: Decimal("50.00")}
    assert verify_chain().ok and verify_all()["ok"]


def test_a_waiver_names_the_resolution_and_a_cancellation_the_reason(make_case, staff):
    c = seized(make_case, staff, day=2)
    impounding = Charge.objects.get(case=c.case, charge="impounding_fee")
    with pytest.raises(acts.InvalidInput) as refused:
        payments.waive(
            c.case, amount="10", resolution="", adopted_on=day_of(3), actor=staff["council"], at=at(3)
        )
    assert refused.value.field == "resolution"
    payments.waive(
        c.case, amount="22.50", resolution="2026-31", adopted_on=day_of(3), actor=staff["council"], at=at(3)
    )
    payments.cancel_charge(c.case, impounding.pk, reason="Charged twice", actor=staff["clerk"], at=at(3))
    assert account(c.case, day_of(3)).balance == Decimal("22.50")
    with pytest.raises(acts.InvalidInput):
        payments.cancel_charge(c.case, impounding.pk, reason="Again", actor=staff["clerk"], at=at(3))


# ------------------------------------------------------------------------------- receipts and statements


def test_the_receipt_and_the_statement_read_as_their_reader_reads_them(make_case, staff):
    c = seized(make_case, staff, day=2)
    paid = payments.record_payment(
        c.case,
        amount="50",
        method="card",
        reference="SQ-77812",
        paid_by="Olive Ostrander",
        actor=staff["clerk"],
        at=at(3),
    )
    receipt = pdf_text(paid.receipt)
    assert "Receipt for payment" in receipt and "$50.00" in receipt and "SQ-77812" in receipt
    assert "Owed before this payment: $120.00. Owed after it: $70.00." in " ".join(receipt.split())
    statement = payments.issue_statement(c.case, actor=staff["clerk"], at=at(4))
    text = " ".join(pdf_text(statement).split())
    assert "Statement of charges" in text
    assert "Impounding fee (Minn. Stat. § 347.54, subd. 2)" in text
    assert "3 days held so far" in text and "$67.50" in text
    assert "Balance due $92.50 on Friday, 5 June 2026." in text
    assert (
        "Paid on Thursday, 4 June 2026" in text
        and "-$50.00" in text
        and f"receipt No. {paid.receipt.number}" in text
    )
    assert "The dog is still held: $22.50 more for each further day." in text
    assert "How to pay At City of Tracy" in text and "page 2" not in text
    assert IssuedDocument.objects.filter(case=c.case, audience="owner").count() == 2
    for doc in (paid.receipt, statement):
        raw = pdf_text(doc)
        findings = (
            lint.doubled_words(raw)
            + lint.double_periods(raw)
            + lint.engine_identifiers(raw, ["impounding_fee", "boarding", "tracy-mn"])
            + lint.unfilled_placeholders(raw)
            + lint.relative_urls(raw)
        )
        assert findings == [], findings


# ------------------------------------------------------------------ the registration and its yearly renewal


def _proofs(c, n):
    j = library().get(c.case.jurisdiction)
    return [x["value"] for x in j.input_choices("issue_certificate", case_state(c.case), at(n))["proofs"]]


def test_the_application_is_billed_and_the_certificate_waits_for_the_fee(make_case, staff):
    rate(staff, BATTLE_LAKE, "registration_fee", "75")
    rate(staff, BATTLE_LAKE, "sign_fee", "12.50")
    c = make_case(facts=SERIOUS)
    c.declare(day=1, designation="dangerous")
    c.serve(day=2, telephoned=True)
    c.step("apply_for_registration", "clerk", 3, applied_on=day_of(3).isoformat())
    fees = {ch.charge: ch.amount for ch in Charge.objects.filter(case=c.case)}
    assert fees == {"registration_fee": Decimal("75.00"), "sign_fee": Decimal("12.50")}
    with pytest.raises(acts.Refused) as refused:
        c.step("issue_certificate", "clerk", 4, proofs=_proofs(c, 4), number="BL-DD-1")
    (reason,) = refused.value.refusals
    assert reason["citation"] == "§ 90.15 (C)(5)(a)" and "$87.50 is still owed" not in reason["reason"]
    assert "$75.00 is still owed (Annual dangerous dog registration fee)" in reason["reason"]
    payments.record_payment(
        c.case, amount="75", method="cash", paid_by="Olive Ostrander", actor=staff["clerk"], at=at(4, 9)
    )
    c.step("issue_certificate", "clerk", 4, proofs=_proofs(c, 4), number="BL-DD-1")
    # the sign's fee is owed still: the certificate does not wait for it ((L) makes it no condition)
    assert account(c.case, day_of(4)).balance == Decimal("12.50")


def test_the_owners_application_from_the_portal_is_billed_in_the_owners_name(make_case, staff):
    rate(staff, TRACY, "registration_fee", "40")
    c = make_case(city=TRACY, facts=SERIOUS)
    c.declare(day=1, designation="dangerous")
    c.case.refresh_from_db()
    acts.take_owner_step(
        c.case,
        "apply_for_registration",
        person=c.owner,
        inputs={"applied_on": day_of(5).isoformat()},
        expected_version=c.case.version,
        at=at(5),
    )
    (fee,) = Charge.objects.filter(case=c.case)
    assert fee.created_by is None and fee.amount == Decimal("40.00")
    assert (fee.event.actor_name, fee.event.actor_roles) == ("Olive Ostrander", "owner")
    assert verify_chain().ok and verify_all()["ok"]


@pytest.mark.parametrize(
    ("city", "charge", "designation", "expected"),
    [
        (
            "battle-lake-mn",
            "registration_fee",
            "dangerous",
            ("500", "Minn. Stat. § 347.51, subd. 2, clause (3)"),
        ),
        ("battle-lake-mn", "hearing_expense", "dangerous", ("1000", "Minn. Stat. § 347.541, subd. 4")),
        # Battle Lake's own (B)(2)(f) caps the same expense of a potentially dangerous dog's hearing
        ("battle-lake-mn", "hearing_expense", "potentially_dangerous", ("1000", "§ 90.15 (B)(2)(f)")),
        # 347.541 subd. 4 speaks of a dangerous dog: under the state's law alone its cap does not reach a
        # potentially dangerous one
        ("tracy-mn", "hearing_expense", "potentially_dangerous", (None, "")),
        ("battle-lake-mn", "hearing_expense_pdd", "potentially_dangerous", ("1000", "§ 90.15 (B)(2)(f)")),
        ("battle-lake-mn", "boarding", "dangerous", (None, "")),
        ("tracy-mn", "registration_fee", "dangerous", ("500", "Minn. Stat. § 347.51, subd. 2, clause (3)")),
    ],
)
def test_a_cap_reaches_only_the_designations_its_provision_names(city, charge, designation, expected):
    from dogcase.law import charges as law_charges

    j = library().get(city)
    cap, citation = law_charges.cap(j, j.charges[charge], DAY0, designation)
    assert (None if cap is None else str(cap), citation) == expected


def test_the_renewal_is_reminded_a_month_ahead_to_the_owner_and_the_office(make_case, staff):
    from django.utils import timezone

    from dogcase.cases.models import Person
    from dogcase.cases.updates import update_person
    from dogcase.messaging.models import Message
    from dogcase.messaging.reminders import send_reminders

    c = make_case(facts=SERIOUS)
    update_person(c.owner, actor=staff["officer"], changes={"email": "olive@example.org"}, reason="Told us")
    c.declare(day=1, designation="dangerous")
    c.serve(day=2, telephoned=True)
    c.step("issue_certificate", "clerk", 4, proofs=_proofs(c, 4), number="BL-DD-1")
    renewal = c.case.obligations.get(deadline_id="owner.renew_registration")
    Message.objects.all().delete()
    noon = timezone.make_aware(dt.datetime.combine(renewal.due_date - dt.timedelta(days=30), dt.time(0, 15)))
    send_reminders(noon)
    soon = Message.objects.filter(kind="deadline_soon")
    assert {m.person_id for m in soon if m.person_id} == {Person.objects.get(pk=c.owner.pk).pk}
    told = {m.user.username for m in soon if m.user_id}
    assert "clerk" in told and "officer" not in told  # the office that issues the certificate
    assert all("In 30 days" in m.body for m in soon)
