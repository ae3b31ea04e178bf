"""What is paid, given back or no longer owed in a case, and the documents that say so.

A payment (cash, check, or a card taken by the city's own processor: dogcase takes no card) is recorded with
its receipt, a numbered and verifiable PDF in the case's series of documents; a refund gives back part or all
of one payment, a waiver records the council's resolution that forgives an amount, a cancellation takes back a
charge recorded in error, with the reason. None changes an earlier entry. A statement of charges (the invoice)
is issued on request, numbered like the receipts. The owner sees both on the portal."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from dogcase.cases.access import require_city, staff_roles
from dogcase.cases.acts import InvalidInput, lock_case
from dogcase.cases.audit import append_event
from dogcase.cases.models import Case, Event, jurisdiction_of
from dogcase.documents.acts import issue_record_document
from dogcase.documents.models import IssuedDocument
from dogcase.money.documents import receipt_draft, statement_draft
from dogcase.money.ledger import account, money
from dogcase.money.models import Charge, Entry
from dogcase.money.schedule import clean_text, parse_amount

PAYMENT_ROLES = frozenset({"city_clerk", "administrator"})
WAIVER_ROLES = frozenset({"city_clerk", "council_clerk", "administrator"})


def _check(actor, case: Case, roles: frozenset[str], what: str) -> None:
    require_city(actor, case.jurisdiction)
    if not staff_roles(actor) & roles:
        raise PermissionError(f"Your role may not record {what}.")


def _positive(raw, field: str) -> Decimal:
    value = parse_amount(raw, field)
    if value <= 0:
        raise InvalidInput(field, "The amount must be more than $0.00.")
    return value


def _day(case: Case, at: dt.datetime) -> dt.date:
    return timezone.localtime(at, jurisdiction_of(case).tz).date()


def _event(case, actor, at, act: str, summary: str, data: dict, citation: str = "") -> Event:
    return append_event(
        at=at,
        jurisdiction=case.jurisdiction,
        case=case,
        actor=actor,
        actor_roles=",".join(sorted(staff_roles(actor))),
        kind=Event.Kind.RECORD,
        act=act,
        summary=summary[:500],
        citation=citation[:500],
        data=data,
    )


def _entry(case: Case, kind: str, amount, *, event: Event, actor, at, **fields) -> Entry:
    """Write an entry once, with the event that records it."""
    return Entry.objects.create(
        jurisdiction=case.jurisdiction,
        case=case,
        kind=kind,
        amount=amount,
        event=event,
        recorded_at=at,
        recorded_by=actor,
        **fields,
    )


def _locked(case: Case) -> Case:
    lock_case(case.pk)
    return Case.objects.select_related("dog").get(pk=case.pk)


def record_payment(
    case: Case, *, amount, method: str, reference: str = "", paid_by: str = "", actor, at=None
) -> Entry:
    """A payment toward the case's balance, with its receipt. More than is owed is refused (nothing is held on
    account)."""
    at = at or timezone.now()
    _check(actor, case, PAYMENT_ROLES, "payments")
    value = _positive(amount, "amount")
    if method not in Entry.Method.values:
        raise InvalidInput(
            "method", "Choose how it was paid: cash, check, card (the city's processor) or other."
        )
    reference = clean_text(reference, "reference", most=100)
    if method == Entry.Method.CHECK and not reference:
        raise InvalidInput("reference", "Give the check number.")
    paid_by = clean_text(paid_by, "paid_by", required="Give the name of the person who paid.")
    with transaction.atomic():
        case = _locked(case)
        day = _day(case, at)
        before = account(case, day)
        if value > before.balance:
            raise InvalidInput(
                "amount",
                f"The balance is {money(before.balance)}; a payment of {money(value)} is more than is owed.",
            )
        receipt = issue_record_document(
            case,
            receipt_draft(case, before, value, method, reference, paid_by, day, actor),
            actor=actor,
            at=at,
        )
        how = Entry.Method(method).label.split(" (")[0].lower() + (f" {reference}" if reference else "")
        event = _event(
            case,
            actor,
            at,
            "record_payment",
            f"Payment received: {money(value)} by {how}, from {paid_by} (receipt No. {receipt.number})",
            {
                "amount": str(value),
                "method": method,
                "reference": reference,
                "paid_by": paid_by,
                "receipt": receipt.number,
            },
        )
        return _entry(
            case,
            Entry.Kind.PAYMENT,
            value,
            event=event,
            actor=actor,
            at=at,
            on=day,
            method=method,
            reference=reference,
            paid_by=paid_by,
            receipt=receipt,
        )


def refund(case: Case, payment_id, *, amount, reason: str, reference: str = "", actor, at=None) -> Entry:
    """Give back part or all of one payment (a new entry; the payment stays as it was)."""
    at = at or timezone.now()
    _check(actor, case, PAYMENT_ROLES, "refunds")
    value = _positive(amount, "amount")
    reason = clean_text(reason, "reason", required="Say why the money is given back.", most=500)
    reference = clean_text(reference, "reference", most=100)
    with transaction.atomic():
        case = _locked(case)
        payment = Entry.objects.filter(case=case, kind=Entry.Kind.PAYMENT, pk=payment_id).first()
        if payment is None:
            raise InvalidInput("payment", "Choose a payment of this case to refund.")
        day = _day(case, at)
        left = account(case, day).refundable(payment)
        if value > left:
            raise InvalidInput("amount", f"At most {money(left)} of that payment can be given back.")
        event = _event(
            case,
            actor,
            at,
            "refund",
            f"Refund: {money(value)} of the payment of {payment.on.isoformat()} (receipt No. {payment.receipt.number if payment.receipt else '-'}): {reason}",
            {"amount": str(value), "payment": payment.pk, "reason": reason, "reference": reference},
        )
        return _entry(
            case,
            Entry.Kind.REFUND,
            value,
            event=event,
            actor=actor,
            at=at,
            on=day,
            method=payment.method,
            reference=reference,
            paid_by=payment.paid_by,
            reason=reason,
            refund_of=payment,
        )


def waive(
    case: Case, *, amount, resolution: str, adopted_on: dt.date | None, charge_id=None, actor, at=None
) -> Entry:
    """The council's waiver of an amount owed (its resolution number and date recorded)."""
    at = at or timezone.now()
    _check(actor, case, WAIVER_ROLES, "waivers")
    value = _positive(amount, "amount")
    resolution = clean_text(
        resolution, "resolution", required="Give the council resolution that waives it.", most=100
    )
    if adopted_on is None:
        raise InvalidInput("adopted_on", "Give the day the council adopted the resolution (YYYY-MM-DD).")
    with transaction.atomic():
        case = _locked(case)
        day = _day(case, at)
        if adopted_on > day:
            raise InvalidInput("adopted_on", "The resolution cannot be adopted after today.")
        acct = account(case, day)
        charge = None
        limit = acct.balance
        if charge_id:
            charge = Charge.objects.filter(case=case, pk=charge_id).first()
            if charge is None:
                raise InvalidInput("charge", "Choose a charge of this case.")
            line = next(ln for ln in acct.lines if ln.charge.pk == charge.pk)
            limit = min(limit, line.owed)
        if value > limit:
            raise InvalidInput(
                "amount", f"At most {money(max(limit, Decimal(0)))} is owed that can be waived."
            )
        event = _event(
            case,
            actor,
            at,
            "waive",
            f"Waived by the council: {money(value)}"
            + (f" of {charge.label}" if charge else "")
            + f" (resolution {resolution}, adopted {adopted_on.isoformat()})",
            {
                "amount": str(value),
                "resolution": resolution,
                "adopted_on": adopted_on.isoformat(),
                "charge": charge.pk if charge else None,
            },
        )
        return _entry(
            case,
            Entry.Kind.WAIVER,
            value,
            event=event,
            actor=actor,
            at=at,
            on=adopted_on,
            resolution=resolution,
            charge=charge,
        )


def cancel_charge(case: Case, charge_id, *, reason: str, actor, at=None) -> Entry:
    """Take back a charge recorded in error (the whole of what is left of it), with the reason."""
    at = at or timezone.now()
    _check(actor, case, PAYMENT_ROLES, "cancellations")
    reason = clean_text(reason, "reason", required="Say why the charge was recorded in error.", most=500)
    with transaction.atomic():
        case = _locked(case)
        charge = Charge.objects.filter(case=case, pk=charge_id).first()
        if charge is None:
            raise InvalidInput("charge", "Choose a charge of this case.")
        day = _day(case, at)
        value = account(case, day).cancellable(charge)
        if value <= 0:
            raise InvalidInput("charge", "Nothing is left of this charge to cancel.")
        if charge.running:
            raise InvalidInput(
                "charge", "This charge is still running (the dog is held): it ends with the release."
            )
        event = _event(
            case,
            actor,
            at,
            "cancel_charge",
            f"Charge cancelled: {charge.label}, {money(value)}: {reason}",
            {"charge": charge.pk, "amount": str(value), "reason": reason},
            charge.citation,
        )
        return _entry(
            case,
            Entry.Kind.CANCELLATION,
            value,
            event=event,
            actor=actor,
            at=at,
            on=day,
            reason=reason,
            charge=charge,
        )


def issue_statement(case: Case, *, actor, at=None) -> IssuedDocument:
    """The statement of charges (the invoice) on the day: every charge with its provision, every payment and
    credit, and the balance due."""
    at = at or timezone.now()
    _check(actor, case, PAYMENT_ROLES | WAIVER_ROLES, "statements of charges")
    with transaction.atomic():
        case = _locked(case)
        day = _day(case, at)
        acct = account(case, day)
        if not acct.lines:
            raise InvalidInput("case", "Nothing has been charged in this case.")
        return issue_record_document(case, statement_draft(case, acct, day, actor), actor=actor, at=at)
