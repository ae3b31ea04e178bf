"""What the law asks the owner to prove in a case: the conditions of registration the pack lists for the
case's designation (the same list the certificate step's `proofs` input offers and its `proven:` test
checks), plus any requirement whose `proof:` says how it is proven (the veterinarian's record of
sterilization). Nothing here names a provision: the packs say which requirement takes which proof and what
amount, and this module reads them."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal

from django.utils import timezone

from dogcase.cases.models import case_state, jurisdiction_of
from dogcase.law.jurisdiction import requirement_amounts

DEFAULT_KIND = "document"
COVERAGE_FORMS = ("surety_bond", "liability_insurance")


@dataclass(frozen=True)
class Condition:
    id: str  # the requirement's id in the pack
    what: str  # the law's words, in plain English
    citations: tuple[str, ...]
    kind: str  # coverage | microchip | sterilization | photos | document
    condition_of_registration: bool
    min_amount: Decimal | None = None
    amount_citation: str = ""
    # a coverage proof: the forms the law allows (a surety bond, liability insurance), and where it says so
    forms: tuple[str, ...] = COVERAGE_FORMS
    forms_citation: str = ""
    texts: tuple[dict, ...] = field(default=(), compare=False)

    @property
    def citation(self) -> str:
        return "; ".join(self.citations)

    @property
    def label(self) -> str:
        return self.what[:1].upper() + self.what[1:]


def proof_steps(j, day: dt.date) -> list:
    """The steps of the procedure in force on `day` whose form has a `proofs` input (the certificate, the
    release from seizure)."""
    return [s for s in j.procedure(day) if any(i.kind == "proofs" for i in s.inputs)]


def _requirement_versions(j, rid: str, designation: str, day: dt.date) -> list:
    return [
        v
        for v in j.versions_on(day)
        if v.effect_kind == "requirement"
        and v.effect.get("id") == rid
        and designation in (v.effect.get("for") or ())
        and v.in_force.contains(day)
    ]


def conditions(case, at: dt.datetime | None = None, state=None) -> list[Condition]:
    """The conditions the owner proves in this case, as the law in force at `at` (default now) lists them:
    empty while the dog has no designation that carries any. `state`: the case's state, when the caller has
    it already."""
    at = at or timezone.now()
    if not case.designation:
        return []
    j = jurisdiction_of(case)
    day = timezone.localtime(at, j.tz).date()
    steps = proof_steps(j, day)
    if state is None:
        state = case_state(case)
    choices: list[dict] = []
    for step in steps:
        if step.for_ and case.designation not in step.for_:
            continue  # a step that does not reach this designation
        proofs_input = next(i.id for i in step.inputs if i.kind == "proofs")
        choices = j.input_choices(step.id, state, at).get(proofs_input, [])
        if choices:
            break
    out = []
    for c in choices:
        versions = _requirement_versions(j, c["value"], case.designation, day)
        made = _condition(
            c["value"],
            str(c["label"]),
            versions,
            bool(c.get("condition_of_registration")),
            c.get("provisions"),
        )
        if made is not None:
            out.append(made)
    # a requirement the owner proves to the city that no certificate step lists (Tracy's insurance of a
    # vicious dog, 8.31 Subd 5.F): offered too
    listed = {c.id for c in out}
    extra: dict[str, list] = {}
    for v in j.versions_on(day):
        e = v.effect if v.effect_kind == "requirement" else None
        if e and e.get("proof") and e["id"] not in listed and case.designation in (e.get("for") or ()):
            if v.in_force.contains(day):
                extra.setdefault(e["id"], []).append(v)
    for rid, versions in extra.items():
        made = _condition(rid, versions[-1].effect["what"], versions, False, None)
        if made is not None:
            out.append(made)
    return out


def _condition(rid: str, what: str, versions: list, of_registration: bool, provisions) -> Condition | None:
    kinds = [v.effect["proof"] for v in versions if v.effect.get("proof")]
    if not of_registration and not kinds:
        return None  # a requirement that is not proven to the city (leash and muzzle)
    amounts = [
        (Decimal(str(usd)), v.citation)
        for v in versions
        for (_id, usd, _what) in requirement_amounts(v.effect)
    ]
    top = max(amounts, key=lambda a: a[0]) if amounts else (None, "")
    forms, forms_citation = list(COVERAGE_FORMS), []
    for v in versions:
        spec = v.effect.get("spec") or {}
        allowed = set(spec["forms"]) if isinstance(spec.get("forms"), list) else set(COVERAGE_FORMS)
        if spec.get("surety_bond_allowed") is False:
            allowed.discard("surety_bond")
        if spec.get("insurance_allowed") is False:
            allowed.discard("liability_insurance")
        if allowed != set(COVERAGE_FORMS):
            forms = [f for f in forms if f in allowed]
            forms_citation.append(v.citation)
    citations = tuple(
        dict.fromkeys([*(p["citation"] for p in provisions or ()), *(v.citation for v in versions)])
    )
    return Condition(
        id=rid,
        what=what,
        citations=citations,
        kind=kinds[-1] if kinds else DEFAULT_KIND,
        condition_of_registration=of_registration,
        min_amount=top[0],
        amount_citation=top[1],
        forms=tuple(forms),
        forms_citation="; ".join(forms_citation),
        texts=tuple(v.cite() for v in versions),
    )


def condition(case, condition_id: str, at: dt.datetime | None = None) -> Condition | None:
    return next((c for c in conditions(case, at) if c.id == condition_id), None)


def registered(case, at: dt.datetime | None = None) -> bool:
    """Does the law in force register a dog of this case's designation (a step issues its certificate of
    registration)? Where it does not (a potentially dangerous dog in most cities, a Tracy vicious dog), the
    owner's pages never speak of a registration, whatever conditions the law asks the owner to prove."""
    if not case.designation:
        return False
    at = at or timezone.now()
    j = jurisdiction_of(case)
    day = timezone.localtime(at, j.tz).date()
    return any(s.act == "issue_certificate" and s.applies_to(case.designation) for s in j.procedure(day))
