"""What the case page says of money (dogcase/money): the balance on the day, each charge with the provision that
allows it, what was paid, given back, waived or cancelled (with its receipt), the actual costs the law lets the
city charge now, and the forms of the acts the reader's role may record. The forms' fields are described here
once, for the case page and for the page that shows a form again with its errors (views/money.py)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from dogcase.cases.access import staff_roles
from dogcase.cases.act_forms import new_form_token
from dogcase.cases.guards import is_read_only
from dogcase.cases.models import Case
from dogcase.cases.outcomes import event_outcome
from dogcase.documents.models import STATEMENT_OF_CHARGES, IssuedDocument
from dogcase.law import charges as law_charges
from dogcase.money import charging, payments, schedule
from dogcase.money.ledger import Account, account, money
from dogcase.money.models import Entry, FeeRate


@dataclass(frozen=True)
class Field:
    name: str
    label: str
    kind: str = "text"  # text | money | date | select | textarea
    hint: str = ""
    optional: bool = False


REFERENCE = Field(
    "reference",
    "Check number or the card processor's reference",
    optional=True,
    hint="Needed for a check.",
)

# Each form: its title, the roles the act allows (the service's own lists), its fields and its button.
FORMS: dict[str, dict[str, Any]] = {
    "payment": {
        "title": "Record a payment",
        "roles": payments.PAYMENT_ROLES,
        "fields": (
            Field("amount", "Amount received", "money"),
            Field("method", "How it was paid", "select"),
            REFERENCE,
            Field(
                "paid_by", "Paid by", hint="The name of the person who paid; it is printed on the receipt."
            ),
        ),
        "button": "Record the payment and issue its receipt",
    },
    "refund": {
        "title": "Give back a payment",
        "roles": payments.PAYMENT_ROLES,
        "fields": (
            Field("payment", "The payment", "select"),
            Field("amount", "Amount given back", "money"),
            Field("reason", "Why it is given back", "textarea"),
            REFERENCE,
        ),
        "button": "Record the refund",
    },
    "waiver": {
        "title": "Record a waiver by council resolution",
        "roles": payments.WAIVER_ROLES,
        "fields": (
            Field("amount", "Amount waived", "money"),
            Field("resolution", "Council resolution number"),
            Field("adopted_on", "Date the council adopted it", "date"),
            Field("charge", "The charge it waives", "select", optional=True),
        ),
        "button": "Record the waiver",
    },
    "cancel": {
        "title": "Cancel a charge recorded in error",
        "roles": payments.PAYMENT_ROLES,
        "fields": (
            Field("charge", "The charge recorded in error", "select"),
            Field("reason", "Why it was recorded in error", "textarea"),
        ),
        "button": "Cancel the charge",
    },
    "cost": {
        "title": "Charge an actual cost",
        "roles": charging.COST_ROLES,
        "fields": (
            Field("cost", "The cost", "select"),
            Field("amount", "Amount", "money"),
            Field(
                "note",
                "What it is for",
                "textarea",
                hint="The invoice or bill it comes from, e.g. “Hearing officer's invoice 118”.",
            ),
        ),
        "button": "Charge the cost",
    },
    "statement": {
        "title": "Issue a statement of charges",
        "roles": payments.PAYMENT_ROLES | payments.WAIVER_ROLES,
        "fields": (),
        "button": "Issue the statement",
        "intro": "A numbered PDF for the owner: every charge with the provision that allows it, every payment "
        "and credit, and the balance due today. It is listed under the documents issued.",
    },
}


def may(kind: str, user) -> bool:
    """Whether the user's role may record this act (the service checks it again)."""
    return not is_read_only(user) and bool(staff_roles(user) & FORMS[kind]["roles"])


def day_of(now: dt.datetime, j) -> dt.date:
    """The city's day, as the services count it."""
    return timezone.localtime(now, j.tz).date() if j is not None else timezone.localdate(now)


@dataclass
class Money:
    """What a case's money forms choose from, read once: the account on the day and the open costs."""

    case: Case
    j: Any
    now: dt.datetime
    day: dt.date
    acct: Account
    costs: list[charging.OpenCost]

    @classmethod
    def read(cls, case: Case, j, now: dt.datetime, events=None, documents=None) -> Money:
        day = day_of(now, j)
        acct = account(case, day, documents)
        # the costs at actual cost, read from the account's charges (every charge of the case)
        charged = [line.charge for line in acct.lines]
        return cls(case, j, now, day, acct, charging.open_costs(case, now, events, charged))

    def offered(self, kind: str) -> bool:
        """Whether the form has anything to act on in this case now."""
        acct = self.acct
        if kind in ("payment", "waiver"):
            return acct.balance > 0
        if kind == "refund":
            return any(self.refundable())
        if kind == "cancel":
            return any(self.cancellable())
        if kind == "cost":
            return bool(self.costs)
        return bool(acct.lines)  # the statement

    def refundable(self) -> list[tuple[Entry, Decimal]]:
        out = []
        for e in self.acct.entries:
            if e.kind == Entry.Kind.PAYMENT:
                left = self.acct.refundable(e)
                if left > 0:
                    out.append((e, left))
        return out

    def cancellable(self) -> list[tuple[Any, Decimal]]:
        out = []
        for line in self.acct.lines:
            left = self.acct.cancellable(line.charge)
            if left > 0 and not line.charge.running:
                out.append((line.charge, left))
        return out

    def choices(self, kind: str, field: str) -> list[tuple[str, str]]:
        if field == "method":
            return [("", "Choose…"), *Entry.Method.choices]
        if field == "payment":
            return [
                (
                    str(e.pk),
                    f"{e.on:%-d %b %Y}: {money(e.amount)} from {e.paid_by}"
                    + (f", receipt No. {e.receipt.number}" if e.receipt_id else "")
                    + f" ({money(left)} can be given back)",
                )
                for e, left in self.refundable()
            ]
        if field == "charge" and kind == "cancel":
            return [
                (str(c.pk), f"{c.label}, charged {c.starts_on:%-d %b %Y}: {money(left)}")
                for c, left in self.cancellable()
            ]
        if field == "charge":  # a waiver: of one charge, or of the balance
            return [("", "None in particular: taken from the balance")] + [
                (str(line.charge.pk), f"{line.charge.label}: {money(line.owed)} owed")
                for line in self.acct.lines
                if line.owed > 0
            ]
        if field == "cost":
            return [(cost_value(c), cost_words(c, self.j, self.case)) for c in self.costs]
        return []


def cost_value(c: charging.OpenCost) -> str:
    """The option's value: the act that allows the cost and the cost (enter_cost's arguments)."""
    return f"{c.step_event.seq}:{c.charge.id}"


def cost_words(c: charging.OpenCost, j, case: Case) -> str:
    after = event_outcome(c.step_event, j, case=case)["text"].rstrip(".")
    words = f"{c.charge.label} ({c.citation}) — after this: {after}"
    if c.entered:
        words += f"; {money(c.entered)} charged under it so far"
    return words


def build_form(
    kind: str,
    m: Money,
    *,
    values: dict[str, str] | None = None,
    errors: dict[str, str] | None = None,
    general: list[str] | None = None,
    token: str | None = None,
) -> dict[str, Any]:
    """One form as the templates show it: each field with its value, its error and its choices."""
    spec = FORMS[kind]
    values = values if values is not None else initial(kind, m)
    errors = errors or {}
    fields = []
    for f in spec["fields"]:
        hint = f.hint
        if f.name == "amount" and kind in ("payment", "waiver"):
            hint = f"The balance today is {money(m.acct.balance)}."
        fields.append(
            {
                "id": f"{kind}-{f.name}",
                "name": f.name,
                "label": f.label,
                "kind": f.kind,
                "hint": hint,
                "optional": f.optional,
                "value": values.get(f.name, ""),
                "error": errors.get(f.name, ""),
                "choices": m.choices(kind, f.name) if f.kind == "select" else [],
            }
        )
    return {
        "kind": kind,
        "title": spec["title"],
        "intro": spec.get("intro", ""),
        "button": spec["button"],
        "action": reverse(f"staff:money_{kind}", args=[m.case.number]),
        "fields": fields,
        "errors": {f"{kind}-{k}": v for k, v in errors.items()},
        "general": general or [],
        "token": token or new_form_token(),
    }


def initial(kind: str, m: Money) -> dict[str, str]:
    """What a new form starts with: the payer is the dog's owner now."""
    if kind == "payment":
        owner = (
            m.case.dog.ownerships.filter(until__isnull=True)
            .select_related("person")
            .order_by("since", "id")
            .first()
        )
        return {"paid_by": owner.person.full_name if owner else ""}
    if kind == "cost" and len(m.costs) == 1:
        return {"cost": cost_value(m.costs[0])}
    return {}


# --------------------------------------------------------------------------------------------- the panel


def panel(case: Case, user, *, j, now: dt.datetime, events=None, documents=None) -> dict[str, Any] | None:
    """The case page's money panel, or None when the case has nothing charged, paid or open and its law lets
    the city charge nothing for its designation. `events` (all the case's, in order) and `documents` (all its
    issued documents, each marked `superseded`), when the page read them already."""
    if j is None:
        return None
    m = Money.read(case, j, now, events, documents)
    allowed = _allowed(j, case, m.day)
    if not (m.acct.lines or m.acct.entries or m.costs or allowed):
        return None
    acct = m.acct
    users = get_user_model().objects.in_bulk({e.recorded_by_id for e in acct.entries})
    rates = FeeRate.objects.in_bulk(
        {line.charge.fee_rate_id for line in acct.lines if line.charge.fee_rate_id}
    )
    payments_by_pk = {e.pk: e for e in acct.entries if e.kind == Entry.Kind.PAYMENT}
    charges = {line.charge.pk: line.charge for line in acct.lines}
    return {
        "balance": acct.balance,
        "balance_words": money(acct.balance),
        "day": m.day,
        "lines": [_line(line, rates) for line in acct.lines],
        "entries": [_entry(e, users, payments_by_pk, charges) for e in acct.entries],
        "costs": [
            {
                "label": c.charge.label,
                "citation": c.citation,
                "after": event_outcome(c.step_event, j, case=case)["text"],
                "cap": money(c.cap) if c.cap is not None else "",
                "cap_citation": c.cap_citation,
                "entered": money(c.entered) if c.entered else "",
            }
            for c in m.costs
        ],
        "allowed": allowed,
        "statements": _statements(case, documents),
        "forms": [build_form(kind, m) for kind in FORMS if may(kind, user) and m.offered(kind)],
    }


def _statements(case: Case, documents) -> list[IssuedDocument]:
    """The case's latest three statements of charges in force."""
    if documents is None:
        return list(
            IssuedDocument.objects.filter(
                case=case, doc_type=STATEMENT_OF_CHARGES, replaced_by__isnull=True
            ).order_by("-issued_at", "-id")[:3]
        )
    shown = [d for d in documents if d.doc_type == STATEMENT_OF_CHARGES and not d.superseded]
    return sorted(shown, key=lambda d: (d.issued_at, d.pk), reverse=True)[:3]


def _who(user) -> str:
    return (user.get_full_name() or user.get_username()) if user is not None else ""


def _line(line, rates: dict[int, FeeRate]) -> dict[str, Any]:
    c = line.charge
    rate = rates.get(c.fee_rate_id)
    return {
        "label": c.label,
        "citation": c.citation,
        "on": c.starts_on,
        "amount": money(line.amount),
        "per_day": c.per == "day",
        "days": line.days,
        "rate": money(c.rate) if c.rate is not None else "",
        "running": c.running,
        "ends_on": c.ends_on,
        "note": c.note,
        "resolution": rate.resolution if rate is not None else "",
        "cancelled": money(line.cancelled) if line.cancelled else "",
        "waived": money(line.waived) if line.waived else "",
        "owed": money(line.owed),
    }


def _entry(e: Entry, users: dict, payments_by_pk: dict[int, Entry], charges: dict) -> dict[str, Any]:
    charge = charges.get(e.charge_id)
    if e.kind == Entry.Kind.PAYMENT:
        how = Entry.Method(e.method).label if e.method else ""
        details = f"By {how[:1].lower() + how[1:]}" if how else ""
        if e.reference:
            details += (
                f", reference {e.reference}" if e.method != Entry.Method.CHECK else f" No. {e.reference}"
            )
        details += f"; paid by {e.paid_by}." if e.paid_by else "."
    elif e.kind == Entry.Kind.REFUND:
        paid = payments_by_pk.get(e.refund_of_id)
        details = f"Of the payment of {paid.on:%-d %b %Y}" if paid else "Of a payment"
        if paid is not None and paid.receipt_id:
            details += f" (receipt No. {paid.receipt.number})"
        details += f": {e.reason}" + (f" Reference {e.reference}." if e.reference else "")
    elif e.kind == Entry.Kind.WAIVER:
        details = f"Council resolution {e.resolution}" + (f", of {charge.label}" if charge else "") + "."
    else:
        details = f"{charge.label}: {e.reason}" if charge else e.reason
    return {
        "kind": e.kind,
        "words": e.get_kind_display(),
        "on": e.on,
        "amount": money(e.amount),
        "sign": "+" if e.sign > 0 else "−",
        "details": details,
        "who": _who(users.get(e.recorded_by_id)),
        "receipt": e.receipt if e.receipt_id else None,
    }


def _allowed(j, case: Case, day: dt.date) -> list[dict[str, Any]]:
    """What the city's law lets it charge in a case of this designation, with the amount on file today."""
    defs = [
        c
        for c in j.charges.values()
        if (c.for_ is None or case.designation in c.for_) and law_charges.version(j, c, day) is not None
    ]
    if not defs:
        return []
    rows = {r.charge.id: r for r in schedule.schedule(case.jurisdiction, day, who=False)}
    out = []
    for c in defs:
        cap, cap_citation = law_charges.cap(j, c, day)
        row = rows.get(c.id)
        if c.amount == "actual":
            amount = "The actual cost, charged once it is known"
        elif row is not None and row.current is not None:
            amount = money(row.current.amount) + (" a day" if c.per == "day" else "")
            amount += f" (resolution {row.current.resolution})"
        else:
            amount = "No amount on file: nothing is charged under it until one is entered"
        out.append(
            {
                "label": c.label,
                "citation": law_charges.version(j, c, day).citation,
                "amount": amount,
                "cap": money(cap) if cap is not None else "",
                "cap_citation": cap_citation,
            }
        )
    return out
