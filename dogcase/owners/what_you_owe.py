"""The "What you owe" card of the owner's case page: the balance today, each charge beside the law that imposes
it, the payments and credits with their receipts, and where to pay (the city's office, the one the statement of
charges prints: the portal takes no payment). Read from the case's account (dogcase.money.ledger); dogcase's
own words in the owner's language, the charges' labels and citations in English, as the law writes them."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils.translation import gettext as _

from dogcase.cases.custody import where_held
from dogcase.cases.models import Case
from dogcase.documents.fill import letterhead_of
from dogcase.documents.next_steps import date_words
from dogcase.money.ledger import ChargeLine, account, money
from dogcase.money.models import Charge, Entry


def what_you_owe(case: Case, j, day: dt.date, language: str = "en") -> dict[str, Any] | None:
    """The card's contents on `day`; None while nothing has been charged, paid or credited on the case."""
    acct = account(case, day)
    if not acct.lines and not acct.entries:
        return None
    return {
        "balance": money(acct.balance),
        "owes": acct.balance > 0,
        "charges": [_charge(line, language) for line in acct.lines],
        "entries": [_entry(e, language) for e in acct.entries],
        "office": _office(j),
    }


def _charge(line: ChargeLine, language: str) -> dict[str, str]:
    c = line.charge
    start = date_words(c.starts_on, language)
    row = {
        "label": c.label,
        "citation": c.citation,
        "amount": money(line.amount),
        "when": _("Charged on %(date)s") % {"date": start},
        "running": "",
        "left": _left(line),
    }
    if c.per == Charge.Per.DAY:
        days, rate = line.days, money(c.rate)
        if c.ends_on is None:
            row["when"] = (
                _("1 day at %(rate)s a day since %(start)s")
                if days == 1
                else _("%(n)d days at %(rate)s a day since %(start)s")
            ) % {"n": days, "rate": rate, "start": start}
            row["running"] = _("The dog is still held: %(rate)s more each day.") % {"rate": rate}
        else:
            row["when"] = (
                _("1 day at %(rate)s a day, on %(start)s")
                if days == 1
                else _("%(n)d days at %(rate)s a day, from %(start)s to %(end)s")
            ) % {"n": days, "rate": rate, "start": start, "end": date_words(c.ends_on, language)}
    return row


def _left(line: ChargeLine) -> str:
    """What became of a charge the owner no longer owes in full (nothing said of one owed in full)."""
    if line.amount <= 0 or line.owed == line.amount:
        return ""
    if line.cancelled >= line.amount:
        return _("This charge was cancelled.")
    if line.owed == 0:
        return _("Nothing is left to pay on this charge.")
    return _("Still owed on this charge: %(amount)s") % {"amount": money(line.owed)}


def _entry(e: Entry, language: str) -> dict[str, Any]:
    """A payment or credit, with the sign it has on the balance (a refund puts back what it gives back)."""
    row: dict[str, Any] = {
        "on": date_words(e.on, language),
        "amount": ("+" if e.sign > 0 else "-") + money(e.amount),
        "charge": e.charge.label if e.charge_id else "",
        "receipt": e.receipt if e.receipt_id else None,
    }
    if e.kind == Entry.Kind.PAYMENT:
        row["what"] = _("Payment received")
    elif e.kind == Entry.Kind.REFUND:
        paid_on = date_words(e.refund_of.on, language) if e.refund_of_id else ""
        row["what"] = _("Money given back from the payment of %(date)s") % {"date": paid_on}
    elif e.kind == Entry.Kind.WAIVER:
        row["what"] = _("Waived by the council, resolution %(resolution)s") % {"resolution": e.resolution}
    else:
        row["what"] = _("Charge cancelled")
    return row


def _office(j) -> dict[str, str]:
    """The city's office as its statement of charges prints it under "How to pay"."""
    letterhead = letterhead_of(j)
    return {k: str(letterhead.get(k) or "") for k in ("name", "address", "telephone")}


def where_your_dog_is(case: Case, j, day: dt.date, language: str, person=None) -> dict[str, Any] | None:
    """While the city holds the dog (dogcase.cases.custody): since when, where and whom to call, in the
    owner's language; None when it is not held."""
    held = where_held(case, j, language=language, viewer=person)
    if held is None or not held.held:
        return None
    days = held.days(day)
    return {
        "since": date_words(held.since, language),
        "days": _("1 day, the first counted")
        if days == 1
        else _("%(n)d days, the first counted") % {"n": days},
        "place": held.place,
        "contact": held.contact,
        "telephone": held.telephone,
        "sentence": held.sentence,
        "lang": held.lang,
    }
