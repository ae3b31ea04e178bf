"""The charges the acts incur (the pack's `charges:`, dogcase/law/charges.py), in the act's own transaction.

`documents.acts.take_step` — the one way every page, the API and the commands take a step — calls
`refuse_unpaid` before the act (a step the law lets the owner take only by paying, such as the release of a
seized dog, is refused while those charges are owed) and `charge_for_step` after it: each charge at the city's
rate that the step incurs is recorded at the rate in force on the day of the act (none while the city has no
rate on file: the case page says so), and each charge per day the step ends (the dog's boarding) is ended on that
day. A charge of an actual cost (the hearing's expenses) is entered by staff afterwards (`enter_cost`), once the
step that allows it has been taken, and never above the law's cap."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone

from dogcase.cases.access import require_city, staff_roles
from dogcase.cases.acts import InvalidInput, Refused, lock_case
from dogcase.cases.audit import append_event
from dogcase.cases.models import Case, Event, jurisdiction_of
from dogcase.law import charges as law_charges
from dogcase.money.ledger import account, money
from dogcase.money.models import Charge
from dogcase.money.schedule import check_cap, clean_text, parse_amount, rate_on

COST_ROLES = frozenset({"animal_control_officer", "city_clerk", "administrator"})


def _day(j, at: dt.datetime) -> dt.date:
    return timezone.localtime(at, j.tz).date()


@dataclass(frozen=True)
class Owed:
    """What must be paid before a step: the amount, the charges' names, and the provision that says so."""

    amount: Decimal
    labels: tuple[str, ...]
    citation: str

    @property
    def words(self) -> str:
        return f"{money(self.amount)} is still owed ({'; '.join(self.labels)}): record the payment first."


def owed_before(case: Case, step_id: str, at: dt.datetime | None = None) -> Owed | None:
    """The charges a step waits for (`paid_before`) still owed on the day; None when nothing is owed."""
    at = at or timezone.now()
    j = jurisdiction_of(case)
    needed = law_charges.to_be_paid_before(j, step_id)
    if not needed:
        return None
    day = _day(j, at)
    acct = account(case, day)
    ids = {c.id for c in needed}
    owed = acct.owed_for(ids)
    if owed <= 0:
        return None
    labels = tuple(sorted({ln.charge.label for ln in acct.lines if ln.charge.charge in ids and ln.owed > 0}))
    version = law_charges.version(j, needed[0], day)
    return Owed(owed, labels, version.citation if version else "")


def refuse_unpaid(case: Case, step_id: str, at: dt.datetime) -> None:
    """Refused, naming the charges and the provision, while charges the step requires paid are owed."""
    owed = owed_before(case, step_id, at)
    if owed is not None:
        step = jurisdiction_of(case).step(step_id, _day(jurisdiction_of(case), at))
        raise Refused(step.label, [{"reason": owed.words, "citation": owed.citation, "code": "unpaid"}])


def _who(actor, step_event: Event | None) -> dict:
    """The author of a money record: the member of staff, or (an owner's filing) the owner its act names."""
    if actor is not None:
        return {"actor": actor, "actor_roles": ",".join(sorted(staff_roles(actor)))}
    return {"actor": None, "actor_roles": step_event.actor_roles, "actor_name": step_event.actor_name}


def _record(
    case, j, charge_def, *, actor, at, step_event, amount=None, rate=None, fee_rate=None, note=""
) -> Charge:
    day = _day(j, at)
    version = law_charges.version(j, charge_def, day)
    per_day = charge_def.per == "day"
    shown = f"{money(rate)} a day from {day.isoformat()}" if per_day else money(amount)
    event = append_event(
        at=at,
        jurisdiction=case.jurisdiction,
        case=case,
        **_who(actor, step_event),
        kind=Event.Kind.RECORD,
        act="charge",
        summary=f"Charged: {charge_def.label}, {shown}"[:500],
        citation=version.citation if version else "",
        data={
            "charge": charge_def.id,
            "per": charge_def.per,
            "amount": None if amount is None else str(amount),
            "rate": None if rate is None else str(rate),
            "fee_rate": fee_rate.pk if fee_rate else None,
            "step_event": step_event.seq if step_event else None,
            "note": note,
        },
    )
    return Charge.objects.create(
        jurisdiction=case.jurisdiction,
        case=case,
        charge=charge_def.id,
        label=charge_def.label[:200],
        citation=(version.citation if version else "")[:200],
        per=charge_def.per,
        rate=rate,
        fee_rate=fee_rate,
        amount=amount,
        starts_on=day,
        note=note,
        step_event=step_event,
        event=event,
        created_at=at,
        created_by=actor,
    )


def charge_for_step(
    case: Case, step_id: str, inputs: dict[str, Any], *, event: Event, actor, at: dt.datetime
) -> list[Charge]:
    """Inside the act's transaction: the charges at the city's rate the step incurs, and the end of the charges
    per day it ends."""
    j = jurisdiction_of(case)
    day = _day(j, at)
    for running in Charge.objects.filter(case=case, per=Charge.Per.DAY, ends_on__isnull=True):
        definition = j.charges.get(running.charge)
        if definition is not None and step_id in definition.until:
            end = append_event(
                at=at,
                jurisdiction=case.jurisdiction,
                case=case,
                **_who(actor, event),
                kind=Event.Kind.RECORD,
                act="end_charge",
                summary=f"{running.label}: ended on {day.isoformat()} ({running.days(day)} days, {money(running.amount_on(day))})"[
                    :500
                ],
                citation=running.citation,
                data={"charge": running.pk, "ends_on": day.isoformat(), "step_event": event.seq},
            )
            running.ends_on = day
            running.end_event = end
            running._ending = True
            running.save(update_fields=["ends_on", "end_event"])
    made = []
    for c in law_charges.incurred_by(j, step_id, case.designation, inputs, day):
        if c.amount != "rate":
            continue  # an actual cost: entered by staff once it is known (enter_cost)
        fee_rate = rate_on(case.jurisdiction, c.id, day)
        if fee_rate is None or (fee_rate.amount == 0 and c.per != "day"):
            continue  # no rate on file (or none charged): nothing is owed under it
        if c.per == "day":
            made.append(
                _record(
                    case, j, c, actor=actor, at=at, step_event=event, rate=fee_rate.amount, fee_rate=fee_rate
                )
            )
            continue
        amount, note = fee_rate.amount, ""
        cap, cap_citation = law_charges.cap(j, c, day, case.designation)
        if cap is not None and amount > cap:
            # the council's rate is above what the law lets the city demand of this dog: the cap is charged
            note = (
                f"The rate on file ({money(amount)}, {fee_rate.resolution}) is above the most the law allows for "
                f"this dog ({money(cap)}, {cap_citation}): {money(cap)} is charged."
            )
            amount = cap
        made.append(
            _record(
                case, j, c, actor=actor, at=at, step_event=event, amount=amount, fee_rate=fee_rate, note=note
            )
        )
    return made


@dataclass(frozen=True)
class OpenCost:
    """An actual cost the law lets the city charge in this case now: its step was taken with the inputs that
    incur it."""

    charge: law_charges.ChargeDef
    citation: str
    cap: Decimal | None
    cap_citation: str
    step_event: Event
    entered: Decimal  # already charged under it for that act


def open_costs(
    case: Case, at: dt.datetime | None = None, events: list[Event] | None = None, charges=None
) -> list[OpenCost]:
    """The charges at actual cost the case's steps opened. `events`: all the case's events in order, and
    `charges`: all the case's charges (its account's), when the caller has them already (the case page)."""
    at = at or timezone.now()
    j = jurisdiction_of(case)
    day = _day(j, at)
    actual = [c for c in j.charges.values() if c.amount == "actual" and law_charges.version(j, c, day)]
    if not actual:
        return []
    steps = {c.step for c in actual}
    if events is None:
        taken = list(case.events.filter(kind=Event.Kind.STEP, data__step__in=sorted(steps)).order_by("seq"))
        corrected = None
    else:
        taken = [e for e in events if e.kind == Event.Kind.STEP and (e.data or {}).get("step") in steps]
        corrected = [e for e in events if e.kind == Event.Kind.CORRECTION]
    events = taken
    if not events:
        return []
    if corrected is None:
        corrected = case.events.filter(kind=Event.Kind.CORRECTION)
    corrections = Event.corrected_inputs(corrected)
    entered: dict[tuple[str, int], Decimal] = {}
    if charges is None:
        charges = Charge.objects.filter(case=case, step_event__in=events, per=Charge.Per.EACH)
    else:
        step_events = {e.pk for e in events}
        charges = [ch for ch in charges if ch.step_event_id in step_events and ch.per == Charge.Per.EACH]
    for ch in charges:
        entered[(ch.charge, ch.step_event_id)] = (
            entered.get((ch.charge, ch.step_event_id), Decimal(0)) + ch.amount
        )
    out = []
    for e in events:
        inputs = e.inputs_as_corrected(corrections)
        for c in actual:
            if c.step == e.data.get("step") and c.applies(case.designation, inputs):
                cap, cap_citation = law_charges.cap(j, c, day, case.designation)
                out.append(
                    OpenCost(
                        c,
                        law_charges.version(j, c, day).citation,
                        cap,
                        cap_citation,
                        e,
                        entered.get((c.id, e.pk), Decimal(0)),
                    )
                )
    return out


def enter_cost(
    case: Case, charge_id: str, step_event_seq, *, amount, note: str, actor, at: dt.datetime | None = None
) -> Charge:
    """Charge an actual cost the law puts on the owner (the hearing's expenses), within its cap."""
    at = at or timezone.now()
    require_city(actor, case.jurisdiction)
    if not staff_roles(actor) & COST_ROLES:
        raise PermissionError("Your role may not charge costs.")
    note = clean_text(
        note, "note", required="Say what the cost is for (the invoice or the bill it comes from).", most=500
    )
    value = parse_amount(amount, "amount")
    if value <= 0:
        raise InvalidInput("amount", "A cost charged is more than $0.00.")
    with transaction.atomic():
        lock_case(case.pk)
        choice = next(
            (
                o
                for o in open_costs(case, at)
                if o.charge.id == charge_id and str(o.step_event.seq) == str(step_event_seq)
            ),
            None,
        )
        if choice is None:
            raise InvalidInput("charge", "The law does not put this cost on the owner in this case.")
        j = jurisdiction_of(case)
        check_cap(j, choice.charge, choice.entered + value, _day(j, at), "amount", case.designation)
        return _record(
            case, j, choice.charge, actor=actor, at=at, step_event=choice.step_event, amount=value, note=note
        )
