"""Plain-English lines for the law engine's provision effects, for people reading the law page."""

from __future__ import annotations

from typing import Any

from dogcase.law.jurisdiction import EVENT_WORDS  # the event vocabulary's words, shared with the engine

COUNTING = {
    "mn_645_15": "Minn. Stat. 645.15 counting",
    "includes_trigger_day": "the day of the event is day one; a last day on a weekend or holiday rolls over",
    "no_roll": "plain calendar arithmetic, no roll past weekends",
    "business_days": "business days: weekdays that are not the city's holidays",
    "elapsed": "elapsed time, in absolute hours",
}

WHO = {"owner": "Owner", "city": "City"}


def _period(period: dict[str, Any]) -> str:
    amount, unit = period["amount"], period["unit"].replace("_", " ")
    if amount == 1:
        unit = unit.removesuffix("s")
    return f"{amount} {unit}"


def _usd(amount: float) -> str:
    return f"${amount:,.0f}" if float(amount).is_integer() else f"${amount:,.2f}"


def _value(value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        if all(isinstance(v, int | float) for v in value):  # dimensions
            return " × ".join(str(v) for v in value)
        return ", ".join(_value(v) for v in value)
    return str(value).replace("_", " ")


SEIZURE_ACTS = {"seize": "seize", "impound": "impound", "order_impoundment": "order the impoundment of"}


def _names(ids, labels: dict[str, str]) -> str:
    return ", ".join(labels.get(i, i) for i in ids)


def effect_line(
    kind: str | None,
    effect: dict[str, Any],
    *,
    roles: dict[str, str],
    designations: dict[str, str],
    eligibilities: dict[str, str] | None = None,
    events: dict[str, str] | None = None,
    methods: dict[str, str] | None = None,
) -> str:
    """One sentence saying what a provision does. `kind` is the effect kind (deadline, requirement, ...).
    `events` and `methods` are the jurisdiction's words for its events and service methods (a pack may
    declare its own: `Jurisdiction.event_words`, `Jurisdiction.service_method_label`)."""
    events = events if events is not None else EVENT_WORDS
    methods = methods or {}
    if kind is None:
        return ""
    concerns = f" (for: {_names(effect['for'], designations)})" if effect.get("for") else ""
    if kind == "deadline":
        trigger = events.get(effect.get("trigger") or "", "an event the text does not give")
        period = _period(effect["period"])
        timing = {
            "not_before": f"not before {period} after {trigger}",
            "window": f"for {period} from {trigger}",
        }.get(effect.get("kind", "due"), f"{period} from {trigger}")
        counting = COUNTING.get(effect["counting"], effect["counting"])
        repeat = f", then every {_period(effect['repeat'])}" if effect.get("repeat") else ""
        return f"{WHO.get(effect['who'], effect['who'])}: {effect['what']} — {timing} ({counting}){repeat}"
    if kind == "requirement":
        parts = [f"Requirement: {effect['what']}"]
        if effect.get("amount_usd") is not None:
            parts.append(f"amount: {_usd(effect['amount_usd'])}")
        for amount in effect.get("amounts") or ():
            parts.append(f"{amount.get('what') or amount['id'].replace('_', ' ')}: {_usd(amount['usd'])}")
        spec = effect.get("spec") or {}
        if spec:
            parts.append("; ".join(f"{k.replace('_', ' ')}: {_value(v)}" for k, v in spec.items()))
        if effect.get("proof_to"):
            parts.append(f"proof to {roles.get(effect['proof_to'], effect['proof_to'])}")
        return " — ".join(parts) + concerns
    if kind == "authority":
        who = _names(effect.get("roles", ()), roles) or "nobody named"
        extra = " (must be impartial)" if effect.get("impartial") else ""
        extra += " (the decision is final)" if effect.get("final") else ""
        about = f" ({_names(effect['designations'], designations)})" if effect.get("designations") else ""
        return f"Who may {effect['act'].replace('_', ' ')}{about}: {who}{extra}"
    if kind == "ground" and "eligibility" in effect:
        # an act the law allows without a designation (347.56 destruction)
        label = (eligibilities or {}).get(effect["eligibility"], effect["eligibility"])
        return f"Ground: {label} (no designation needed)"
    if kind == "ground":
        label = designations.get(effect["designation"], effect["designation"])
        return f"Ground: makes a dog eligible to be declared a {label.lower()}"
    if kind == "exemption":
        acts = [b for b in effect["bars"] if b in (eligibilities or {})]
        declared = [b for b in effect["bars"] if b not in acts]
        parts = [f"declaring the dog a {_names(declared, designations).lower()}"] if declared else []
        parts += [f"{(eligibilities or {})[b][0].lower()}{(eligibilities or {})[b][1:]}" for b in acts]
        return f"Exemption: bars {' and '.join(parts)}"
    if kind == "notice":
        how = ", ".join(methods.get(m) or m.replace("_", " ") for m in effect.get("service_methods", ()))
        mode = "all of" if effect.get("service_methods_mode") == "all" else "any of"
        n = len(effect.get("elements", ()))
        writing = " in writing" if effect.get("in_writing") else ""
        return f"Notice{writing}, served by {mode}: {how}; {n} required element(s){concerns}"
    if kind == "seizure_trigger":
        named = effect.get(
            "act", "seize"
        )  # a trigger that names no act is one to seize (the engine's default)
        act = SEIZURE_ACTS.get(named, named.replace("_", " "))
        return f"May {act} the dog when: {effect['what']}{concerns}"
    if kind == "cost":
        cap = f", capped at {_usd(effect['cap_usd'])}" if effect.get("cap_usd") is not None else ""
        return f"{effect['payer'].capitalize()} pays: {effect['what']}{cap}"
    if kind == "fee":
        amount = (
            _usd(effect["amount_usd"]) if effect.get("amount_usd") is not None else "amount not yet recorded"
        )
        cap = f"; not more than {_usd(effect['cap_usd'])}" if effect.get("cap_usd") is not None else ""
        return f"Fee: {effect['what']} — set by {effect.get('set_by', '').replace('_', ' ')}; {amount}{cap}"
    if kind == "prohibition":
        return f"Prohibited: {effect['what']}{concerns}"
    if kind == "definition":
        return f"Defines {effect['term']}"
    return kind.replace("_", " ")
