"""The receipt and the statement of charges, as documents: numbered and verified like the notices (their
footer, their PDF/A), in the owner's language — they are dogcase's words, not a legal instrument: the charges'
names and citations stay as the law writes them (English, marked so). Drafted here, issued by payments.py."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.utils import translation
from django.utils.translation import gettext as _

from dogcase.cases.models import Case, jurisdiction_of
from dogcase.documents import fill
from dogcase.documents.models import RECEIPT, STATEMENT_OF_CHARGES
from dogcase.documents.next_steps import date_words
from dogcase.money.ledger import Account, money
from dogcase.money.models import Charge, Entry

LANGUAGES = ("en", "es")


@dataclass(frozen=True)
class Row:
    """A line of money: what it is (`law`: the charge's name as the law writes it, in English; else dogcase's
    words), its citation, what dogcase says of it, and the amount."""

    what: str
    amount: str
    detail: str = ""
    citation: str = ""
    law: bool = False


@dataclass(frozen=True)
class Section:
    """A statement of a receipt or a statement of charges, in the document's language."""

    heading: str
    text: str = ""
    rows: tuple[Row, ...] = ()
    language: str = "en"
    citation: str = ""
    # as a pack's filled statement answers the draft: no element of a notice, nothing missing
    element: None = None
    elements: tuple[str, ...] = ()
    missing: tuple = ()
    filled: bool = True


def _language(case: Case) -> str:
    owner = _owner(case)
    language = getattr(owner, "preferred_language", "") or "en"
    return language if language in LANGUAGES else "en"


def _owner(case: Case):
    ownership = case.dog.ownerships.select_related("person").filter(until__isnull=True).order_by("id").first()
    return ownership.person if ownership else None


def _recipient(case: Case) -> str:
    owner = _owner(case)
    if owner is None:
        return ""
    return "\n".join(p for p in (owner.full_name, owner.address if owner.street else "") if p)


def _case_words(case: Case) -> str:
    if case.dog.name:
        return _("%(number)s, the dog %(name)s.") % {"number": case.number, "name": case.dog.name}
    return f"{case.number}."


def _draft(
    case: Case, doc_id: str, title: str, sections: list[Section], provisions: list[str], day, language
):
    j = jurisdiction_of(case)
    return fill.Draft(
        doc_type=None,
        id=doc_id,
        title=title,
        audience="owner",
        provisions=provisions,
        recipient=_recipient(case),
        sections=sections,
        letterhead={k: str(v) for k, v in fill.letterhead_of(j).items() if v},
        city=j.name,
        today=date_words(day, language),
        language=language,
    )


def _method(method: str, reference: str) -> str:
    words = {
        "cash": _("in cash"),
        "check": _("by check"),
        "card": _("by card (the city's card processor)"),
        "other": _("by other means"),
    }[method]
    if not reference:
        return words
    if method == Entry.Method.CHECK:
        return _("%(how)s No. %(reference)s") % {"how": words, "reference": reference}
    return _("%(how)s, reference %(reference)s") % {"how": words, "reference": reference}


def receipt_draft(case, before: Account, value, method, reference, paid_by, day, actor) -> fill.Draft:
    language = _language(case)
    with translation.override(language):
        receiver = actor.get_full_name() or actor.get_username()
        sections = [
            Section(_("Case"), _case_words(case), language=language),
            Section(_("Received from"), paid_by, language=language),
            Section(
                _("Amount received"),
                _("%(amount)s on %(day)s, %(how)s.")
                % {
                    "amount": money(value),
                    "day": date_words(day, language),
                    "how": _method(method, reference),
                },
                language=language,
            ),
            Section(
                _("Balance"),
                _("Owed before this payment: %(before)s. Owed after it: %(after)s.")
                % {"before": money(before.balance), "after": money(before.balance - value)},
                language=language,
            ),
            Section(
                _("Received by"),
                _("%(name)s, for %(city)s.") % {"name": receiver, "city": jurisdiction_of(case).name},
                language=language,
            ),
        ]
        return _draft(case, RECEIPT, _("Receipt for payment"), sections, [], day, language)


def _charge_row(line, day: dt.date, language: str) -> Row:
    c = line.charge
    if c.per == Charge.Per.DAY:
        values = {
            "n": line.days,
            "rate": money(c.rate),
            "start": date_words(c.starts_on, language),
            "end": date_words(c.ends_on or day, language),
        }
        if c.ends_on:
            detail = _("%(n)s days held, %(start)s to %(end)s, at %(rate)s a day") % values
        else:
            detail = _("%(n)s days held so far, %(start)s to %(end)s, at %(rate)s a day") % values
    else:
        detail = _("charged %(day)s") % {"day": date_words(c.starts_on, language)}
    return Row(c.label, money(line.amount), detail, c.citation, law=True)


def _entry_row(e: Entry, language: str) -> Row:
    when = date_words(e.on, language)
    if e.kind == Entry.Kind.PAYMENT:
        what = _("Paid on %(day)s") % {"day": when}
        detail = _("receipt No. %(number)s") % {"number": e.receipt.number} if e.receipt_id else ""
        return Row(what, "-" + money(e.amount), detail)
    if e.kind == Entry.Kind.REFUND:
        return Row(_("Given back on %(day)s") % {"day": when}, "+" + money(e.amount), e.reason)
    if e.kind == Entry.Kind.WAIVER:
        what = _("Waived by the council on %(day)s") % {"day": when}
        return Row(what, "-" + money(e.amount), _("resolution %(number)s") % {"number": e.resolution})
    return Row(_("Charge cancelled on %(day)s") % {"day": when}, "-" + money(e.amount), e.reason)


def statement_draft(case, acct: Account, day, actor) -> fill.Draft:
    language = _language(case)
    j = jurisdiction_of(case)
    with translation.override(language):
        sections = [
            Section(_("Case"), _case_words(case), language=language),
            Section(
                _("Charges"),
                rows=tuple(_charge_row(line, day, language) for line in acct.lines),
                language=language,
            ),
            Section(
                _("Payments and credits"),
                "" if acct.entries else _("None recorded."),
                rows=tuple(_entry_row(e, language) for e in acct.entries),
                language=language,
            ),
            Section(
                _("Balance due"),
                _("%(amount)s on %(day)s.")
                % {"amount": money(acct.balance), "day": date_words(day, language)},
                language=language,
            ),
        ]
        running = acct.running
        if running:
            sections.append(
                Section(
                    _("Still running"),
                    _("The dog is still held: %(rates)s more for each further day.")
                    % {"rates": " + ".join(money(ln.charge.rate) for ln in running)},
                    language=language,
                )
            )
        office = fill.letterhead_of(j)
        where = ", ".join(str(office[k]) for k in ("name", "address") if office.get(k))
        text = _("At %(office)s. Give the case number %(number)s.") % {"office": where, "number": case.number}
        if office.get("telephone"):
            text = _("At %(office)s, telephone %(telephone)s. Give the case number %(number)s.") % {
                "office": where,
                "telephone": office["telephone"],
                "number": case.number,
            }
        sections.append(Section(_("How to pay"), text, language=language))
        provisions = list(dict.fromkeys(line.charge.citation for line in acct.lines if line.charge.citation))
        return _draft(
            case, STATEMENT_OF_CHARGES, _("Statement of charges"), sections, provisions, day, language
        )
