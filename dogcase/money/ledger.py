"""What is owed in a case, read from its charges and entries: the lines of its account, its balance on a day,
the balance of each charge (a payment is applied to the oldest charges first), and the balance of everyone an
owner owes for. Reads only; what writes is in charging.py (the acts' charges), payments.py (the entries) and
schedule.py (the fee schedule)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Q

from dogcase.money.models import CENT, Charge, Entry

ZERO = Decimal("0.00")


def money(value: Decimal) -> str:
    """$1,234.50; negative amounts as -$12.00."""
    sign = "-" if value < 0 else ""
    return f"{sign}${abs(value).quantize(CENT):,.2f}"


@dataclass
class ChargeLine:
    charge: Charge
    amount: Decimal  # as of the day (a running charge per day: the days held so far)
    cancelled: Decimal = ZERO
    waived: Decimal = ZERO
    paid: Decimal = ZERO  # payments applied to it, oldest charge first

    @property
    def owed(self) -> Decimal:
        return max(self.amount - self.cancelled - self.waived - self.paid, ZERO)

    on: dt.date = dt.date.min

    @property
    def days(self) -> int | None:
        return self.charge.days(self.on) if self.charge.per == Charge.Per.DAY else None


@dataclass
class Account:
    """One case's account on a day."""

    on: dt.date
    lines: list[ChargeLine] = field(default_factory=list)
    entries: list[Entry] = field(default_factory=list)

    @property
    def charged(self) -> Decimal:
        return sum((line.amount for line in self.lines), ZERO)

    @property
    def balance(self) -> Decimal:
        total = self.charged
        for e in self.entries:
            total += e.sign * e.amount
        return total

    @property
    def paid(self) -> Decimal:
        return sum((e.amount for e in self.entries if e.kind == Entry.Kind.PAYMENT), ZERO) - sum(
            (e.amount for e in self.entries if e.kind == Entry.Kind.REFUND), ZERO
        )

    @property
    def running(self) -> list[ChargeLine]:
        return [line for line in self.lines if line.charge.running]

    def refundable(self, payment: Entry) -> Decimal:
        """What of a payment has not been given back yet."""
        back = sum(
            (e.amount for e in self.entries if e.kind == Entry.Kind.REFUND and e.refund_of_id == payment.pk),
            ZERO,
        )
        return payment.amount - back

    def cancellable(self, charge: Charge) -> Decimal:
        line = next((ln for ln in self.lines if ln.charge.pk == charge.pk), None)
        return ZERO if line is None else max(line.amount - line.cancelled, ZERO)

    def owed_for(self, charge_ids) -> Decimal:
        """What is still owed of the charges with these ids (the pack's charge ids)."""
        return sum((line.owed for line in self.lines if line.charge.charge in charge_ids), ZERO)


def account(case, on: dt.date, documents=None) -> Account:
    """The case's account on `on`: two queries, whatever the case's history elsewhere. `documents`: the case's
    issued documents, when the caller read them already (a receipt is one of them: not joined again)."""
    charges = list(Charge.objects.filter(case=case).order_by("starts_on", "id"))
    if documents is None:
        entries = list(Entry.objects.filter(case=case).select_related("receipt").order_by("on", "id"))
    else:
        entries = list(Entry.objects.filter(case=case).order_by("on", "id"))
        by_pk = {d.pk: d for d in documents}
        for e in entries:
            if e.receipt_id in by_pk:
                e.receipt = by_pk[e.receipt_id]
    out = Account(on=on, entries=entries)
    by_id: dict[int, ChargeLine] = {}
    for c in charges:
        line = ChargeLine(charge=c, amount=c.amount_on(on), on=on)
        by_id[c.pk] = line
        out.lines.append(line)
    pool = ZERO  # payments less refunds, and waivers not tied to a charge: applied oldest charge first
    for e in entries:
        if e.kind == Entry.Kind.CANCELLATION and e.charge_id in by_id:
            by_id[e.charge_id].cancelled += e.amount
        elif e.kind == Entry.Kind.WAIVER and e.charge_id in by_id:
            by_id[e.charge_id].waived += e.amount
        elif e.kind in (Entry.Kind.PAYMENT, Entry.Kind.WAIVER):
            pool += e.amount
        elif e.kind == Entry.Kind.REFUND:
            pool -= e.amount
    for line in out.lines:
        take = min(pool, max(line.amount - line.cancelled - line.waived, ZERO))
        if take > 0:
            line.paid = take
            pool -= take
    return out


def balances(cases, on: dt.date) -> dict[int, Decimal]:
    """The balance of each of these cases on `on`, in two queries (a person's page, the owner's portal)."""
    ids = [c.pk if hasattr(c, "pk") else c for c in cases]
    out = dict.fromkeys(ids, ZERO)
    for c in Charge.objects.filter(case_id__in=ids):
        out[c.case_id] += c.amount_on(on)
    for e in Entry.objects.filter(case_id__in=ids).only("case_id", "kind", "amount"):
        out[e.case_id] += e.sign * e.amount
    return out


def owed_by_owner(person, on: dt.date) -> tuple[Decimal, dict[int, Decimal]]:
    """What a person owes across the cases of the dogs they own now (each case's balance, and the total)."""
    from dogcase.cases.models import Case

    cases = (
        Case.objects.filter(Q(dog__ownerships__person=person) & Q(dog__ownerships__until__isnull=True))
        .values_list("pk", flat=True)
        .distinct()
    )
    each = {k: v for k, v in balances(list(cases), on).items() if v}
    return sum(each.values(), ZERO), each
