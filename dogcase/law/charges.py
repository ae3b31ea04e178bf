"""What the law lets the city charge the owner, and which act incurs each charge (a pack's `charges:`).

A charge names the provision whose `fee:` or `cost:` allows it (the charge cites that provision), the step
whose act incurs it, and how its amount is found: the city's rate on the day of the act (`amount: rate`, the
fee schedule the city's administrator keeps, each rate with its council resolution), or the actual cost the
city enters after the act (`amount: actual`: the hearing's expenses, a sterilization the city paid for). A
rate is per act (`per: each`) or per day (`per: day`: boarding, from the day of the act to the day of one of
the `until:` steps, each day or part of a day counted). `when:` limits it to some values of the step's inputs
(a hearing's costs fall on the owner only when the declaration is upheld); `paid_before:` names steps that are
refused while the charge is owed (the release of a seized dog: "by paying impounding and boarding fees").

The cap of a charge is the lowest `cap_usd` the layered law gives a fee or cost of the same id in force on the
day (the state's $500 for the annual registration fee reaches the city's fee of the same id): a rate or an
actual cost above it is refused, never demanded. A city layer's charge replaces the state's of the same id.
Nothing here holds money: dogcase/money does."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from types import MappingProxyType
from typing import Any

from dogcase.law.errors import PackError
from dogcase.law.schema import ID, SCALAR, STR, ListOf, MapOf, OneOf, Record

PER = ("each", "day")
AMOUNTS = ("rate", "actual")
_IDS = ListOf(ID, min_items=1, unique=True)
# a pack's `charges:` entry, as packschema checks it
CHARGE = Record(
    required={"id": ID, "label": STR, "provision": ID, "step": ID},
    optional={
        "per": OneOf(*PER),
        "amount": OneOf(*AMOUNTS),
        "for": _IDS,
        "until": _IDS,
        "paid_before": _IDS,
        "when": MapOf(ListOf(SCALAR, min_items=1)),
    },
)


@dataclass(frozen=True, slots=True)
class ChargeDef:
    id: str
    pack: str
    label: str
    provision: str  # provision key: its `fee:` or `cost:` allows the charge
    step: str  # the step whose act incurs it
    per: str = "each"
    amount: str = "rate"
    until: tuple[str, ...] = ()
    when: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: MappingProxyType({}))
    for_: tuple[str, ...] | None = None
    paid_before: tuple[str, ...] = ()
    file: str = ""
    line: int = 0

    def applies(self, designation: str | None, inputs: Mapping[str, Any]) -> bool:
        """Does the act of `self.step`, taken with these inputs in a case of this designation, incur it?"""
        if self.for_ is not None and designation not in self.for_:
            return False
        for input_id, values in self.when.items():
            given = inputs.get(input_id)
            if str(given) not in values:
                return False
        return True


def parse_charges(raw: Any, where, pack_id: str, ensure_provision) -> MappingProxyType[str, ChargeDef]:
    """The pack's `charges:` (its shape checked by packschema); provisions resolved to keys."""
    out: dict[str, ChargeDef] = {}
    for index, item in enumerate(raw or ()):
        here = where.at(index, raw.line_of(index))
        if item["id"] in out:
            raise here.fail(f"charge {item['id']!r} is listed twice")
        per = item.get("per", "each")
        if item.get("until") and per != "day":
            raise here.fail("until: ends a charge per day; this charge is not `per: day`")
        if per == "day" and not item.get("until"):
            raise here.fail("a charge per day needs until: the steps that end it (the release, the disposal)")
        if per == "day" and item.get("amount", "rate") != "rate":
            raise here.fail("a charge per day is at the city's rate (amount: rate)")
        out[item["id"]] = ChargeDef(
            id=item["id"],
            pack=pack_id,
            label=" ".join(item["label"].split()),
            provision=ensure_provision(item["provision"], here.at("provision", item.line_of("provision"))),
            step=item["step"],
            per=per,
            amount=item.get("amount", "rate"),
            until=tuple(item.get("until", ())),
            when=MappingProxyType(
                {k: tuple(str(v) for v in vs) for k, vs in (item.get("when") or {}).items()}
            ),
            for_=tuple(item["for"]) if "for" in item else None,
            paid_before=tuple(item.get("paid_before", ())),
            file=here.file,
            line=here.line or 0,
        )
    return MappingProxyType(out)


def check_charges(j) -> None:
    """Each charge of the layered law names a fee or cost provision and steps of the procedure it is in."""
    steps: dict[str, Any] = {}
    for layer in j.layers:
        for step in layer.procedure:
            steps.setdefault(step.id, step)
    for charge in j.charges.values():
        pack_id, pid = charge.provision.split(":", 1)
        layer = next(layer for layer in j.layers if layer.id == pack_id)
        kinds = {v.effect_kind for v in layer.provisions[pid].versions}
        if not kinds & {"fee", "cost"}:
            raise PackError(
                charge.file, charge.line, f"charge {charge.id!r}: provision {pid!r} has no fee or cost"
            )
        for sid in (charge.step, *charge.until, *charge.paid_before):
            if sid not in steps:
                raise PackError(
                    charge.file, charge.line, f"charge {charge.id!r}: no step {sid!r} in the procedure"
                )
        for input_id in charge.when:
            if not any(i.id == input_id for i in steps[charge.step].inputs):
                raise PackError(
                    charge.file,
                    charge.line,
                    f"charge {charge.id!r}: step {charge.step!r} has no input {input_id!r}",
                )


def layered(layers: Iterable) -> dict[str, ChargeDef]:
    """The charges of the layers, a city's replacing the state's of the same id."""
    out: dict[str, ChargeDef] = {}
    for layer in layers:
        out.update(layer.charges)
    return out


def version(j, charge: ChargeDef, day: dt.date):
    """The version of the charge's provision in force on `day` (None: the law does not allow it that day)."""
    pack_id, pid = charge.provision.split(":", 1)
    layer = next(layer for layer in j.layers if layer.id == pack_id)
    found = layer.provisions[pid].version_on(day)
    return found if found is not None and found.effect_kind in ("fee", "cost") else None


def cap(j, charge: ChargeDef, day: dt.date, designation: str | None = None) -> tuple[Decimal | None, str]:
    """The most the law lets the city charge for it on `day` in a case of `designation`, and the citation that
    says so (None, "": no cap): the lowest cap of a fee or cost of the same id in force that day that reaches the
    designation (the state's $500 reaches the city's fee of a dangerous dog, not of a potentially dangerous one:
    a state rule reaches only what its words reach). Without a designation: the lowest cap of any designation
    the charge reaches (what the fee schedule shows)."""
    own = version(j, charge, day)
    if own is None:
        return None, ""
    if designation is None:
        found = [cap(j, charge, day, d) for d in reached(j, charge)]
        found = [c for c in found if c[0] is not None]
        return min(found, key=lambda c: c[0]) if found else (None, "")
    effect_id = own.effect["id"]
    caps = [
        (Decimal(str(v.effect["cap_usd"])), v.citation)
        for v in j.versions_on(day)
        if v.effect_kind in ("fee", "cost")
        and v.effect.get("id") == effect_id
        and v.effect.get("cap_usd") is not None
        and (not v.effect.get("for") or designation in v.effect["for"])
    ]
    if not caps:
        return None, ""
    return min(caps, key=lambda c: c[0])


def reached(j, charge: ChargeDef) -> tuple[str, ...]:
    """The designations a charge reaches: its `for`, else every designation of the city's law."""
    return charge.for_ if charge.for_ is not None else tuple(j.designations)


def incurred_by(
    j, step_id: str, designation: str | None, inputs: Mapping[str, Any], day: dt.date
) -> list[ChargeDef]:
    """The charges the act of `step_id` incurs in a case of this designation, with these inputs, on `day`."""
    return [
        c
        for c in j.charges.values()
        if c.step == step_id and c.applies(designation, inputs) and version(j, c, day) is not None
    ]


def ended_by(j, step_id: str) -> list[ChargeDef]:
    """The charges per day that the act of `step_id` ends (the dog's release ends its boarding)."""
    return [c for c in j.charges.values() if step_id in c.until]


def to_be_paid_before(j, step_id: str) -> list[ChargeDef]:
    """The charges that must be paid before `step_id` is taken."""
    return [c for c in j.charges.values() if step_id in c.paid_before]
