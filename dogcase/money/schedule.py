"""The city's fee schedule: dated values of the charges its law lets it set (`amount: rate`), each with the
resolution (or, for a fee the law leaves to the animal control authority, the order) that set it, entered by the
city's administrator. A value above the cap the state or city law puts on that fee or cost is refused: the
city may not demand it. A value is never changed: a new resolution is a new value from its own date."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from django.db import transaction

from dogcase.cases.access import require_city, staff_roles
from dogcase.cases.acts import InvalidInput, lock_city
from dogcase.cases.audit import append_event
from dogcase.law import charges as law_charges
from dogcase.law import library
from dogcase.money.ledger import money
from dogcase.money.models import CENT, FeeRate

RATE_ROLES = frozenset({"administrator"})


@dataclass(frozen=True)
class ScheduleRow:
    """One charge of the city's law that takes a rate, as the City settings page shows it."""

    charge: law_charges.ChargeDef
    citation: str
    law_text: str
    what: str
    set_by: str  # "council_resolution" | "authority" | "" (a cost)
    cap: Decimal | None
    cap_citation: str
    current: FeeRate | None
    history: list[FeeRate]


def rate_on(jurisdiction: str, charge_id: str, day: dt.date) -> FeeRate | None:
    """The value of the schedule in force on `day` (the latest from a day not after it)."""
    return (
        FeeRate.objects.filter(jurisdiction=jurisdiction, charge=charge_id, effective_from__lte=day)
        .order_by("-effective_from", "-id")
        .first()
    )


def schedule(jurisdiction: str, day: dt.date, *, who: bool = True) -> list[ScheduleRow]:
    """Every charge of the city's law the schedule prices, with its value on `day` and its history (one query);
    `who`: with the member of staff who entered each value (the fee schedule shows them; a case page does not)."""
    j = library().get(jurisdiction)
    rates: dict[str, list[FeeRate]] = {}
    values = FeeRate.objects.filter(jurisdiction=jurisdiction)
    for r in (values.select_related("entered_by") if who else values).order_by("-effective_from", "-id"):
        rates.setdefault(r.charge, []).append(r)
    out = []
    for c in j.charges.values():
        version = law_charges.version(j, c, day)
        if c.amount != "rate" or version is None:
            continue
        cap, cap_citation = law_charges.cap(j, c, day)
        history = rates.get(c.id, [])
        out.append(
            ScheduleRow(
                charge=c,
                citation=version.citation,
                law_text=version.text,
                what=version.effect.get("what", ""),
                set_by=version.effect.get("set_by", "") if version.effect_kind == "fee" else "",
                cap=cap,
                cap_citation=cap_citation,
                current=next((r for r in history if r.effective_from <= day), None),
                history=history,
            )
        )
    return out


def clean_text(value, field: str, *, required: str = "", most: int = 200) -> str:
    """A form's text with its whitespace collapsed; refused (naming `field`) when empty and `required` (the
    message), or longer than `most` characters."""
    text = " ".join(str(value or "").split())
    if required and not text:
        raise InvalidInput(field, required)
    if len(text) > most:
        raise InvalidInput(field, f"At most {most} characters.")
    return text


def parse_amount(raw, field: str) -> Decimal:
    text = str(raw or "").replace(",", "").replace("$", "").strip()
    if not text:
        raise InvalidInput(field, "The amount is required, in dollars and cents (e.g. 75.00).")
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise InvalidInput(field, f"“{str(raw)[:40]}” is not an amount in dollars (e.g. 75.00).") from None
    if not value.is_finite() or value < 0 or value >= Decimal("100000000"):
        raise InvalidInput(field, "The amount must be zero or more, and under $100,000,000.")
    if value != value.quantize(CENT):
        raise InvalidInput(field, "An amount has at most two digits after the point (cents).")
    return value.quantize(CENT)


def check_cap(
    j,
    charge: law_charges.ChargeDef,
    amount: Decimal,
    day: dt.date,
    field: str,
    designation: str | None = None,
) -> None:
    """Refuse an amount above the law's cap: in a case, its designation's; for the fee schedule, every
    designation's the charge reaches (a rate the law lets the city demand of some dogs is kept, and charged at
    most at the cap of each dog's designation: charging.charge_for_step)."""
    designations = (designation,) if designation else law_charges.reached(j, charge)
    caps = [law_charges.cap(j, charge, day, d) for d in designations]
    if caps and all(c is not None and amount > c for c, _ in caps):
        cap, citation = min(caps, key=lambda c: c[0])
        raise InvalidInput(
            field,
            f"The law allows at most {money(cap)} for this ({citation}); {money(amount)} cannot be charged.",
        )


def set_rate(
    jurisdiction: str,
    charge_id: str,
    *,
    amount,
    effective_from: dt.date | None,
    resolution: str,
    adopted_on: dt.date | None,
    actor,
    at: dt.datetime,
) -> FeeRate:
    """Record a new value of the schedule (the administrator's act), checked against the law's cap."""
    require_city(actor, jurisdiction)
    if not staff_roles(actor) & RATE_ROLES:
        raise PermissionError("Only the city's administrator enters the fee schedule.")
    j = library().get(jurisdiction)
    charge = j.charges.get(charge_id)
    if charge is None or charge.amount != "rate":
        raise InvalidInput("charge", "Choose a fee or charge of the city's law that takes a rate.")
    if effective_from is None:
        raise InvalidInput("effective_from", "Give the first day the amount applies (YYYY-MM-DD).")
    if adopted_on is None:
        raise InvalidInput("adopted_on", "Give the day the resolution was adopted (YYYY-MM-DD).")
    if adopted_on > effective_from:
        raise InvalidInput(
            "effective_from", "The amount cannot apply before the resolution that sets it was adopted."
        )
    resolution = clean_text(
        resolution,
        "resolution",
        required="Give the number of the resolution (or order) that sets the amount.",
        most=100,
    )
    value = parse_amount(amount, "amount")
    if law_charges.version(j, charge, effective_from) is None:
        raise InvalidInput("effective_from", "The law does not allow this charge on that day.")
    check_cap(j, charge, value, effective_from, "amount")
    with transaction.atomic():
        lock_city(jurisdiction)
        version = law_charges.version(j, charge, effective_from)
        event = append_event(
            at=at,
            jurisdiction=jurisdiction,
            actor=actor,
            actor_roles=",".join(sorted(staff_roles(actor))),
            kind="record",
            act="set_fee_rate",
            summary=f"Fee schedule: {charge.label}, {money(value)}"
            + (" a day" if charge.per == "day" else "")
            + f", from {effective_from.isoformat()} (resolution {resolution}, adopted {adopted_on.isoformat()})",
            citation=version.citation,
            data={
                "charge": charge_id,
                "amount": str(value),
                "effective_from": effective_from.isoformat(),
                "resolution": resolution,
                "adopted_on": adopted_on.isoformat(),
            },
        )
        return FeeRate.objects.create(
            jurisdiction=jurisdiction,
            charge=charge_id,
            amount=value,
            effective_from=effective_from,
            resolution=resolution,
            adopted_on=adopted_on,
            entered_by=actor,
            entered_at=at,
            event=event,
        )
