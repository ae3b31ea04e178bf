"""Where a city's law departs from the state floor: the conflicts report, and the fee the state's caps allow."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from .answers import check_date_range
from .deadlines import combination_rule
from .errors import InputError
from .model import ProvisionVersion
from .vocabulary import EVENT_WORDS


class ConflictsMixin:
    """Jurisdiction's questions about the layers side by side (`conflicts`, `fee`)."""

    def conflicts(self, on: dt.date) -> list[dict[str, Any]]:
        """Every point where the city departs from the state layer, with both citations and what applies."""
        check_date_range(on, "on")
        if self.state is None:
            return []
        versions = self.versions_on(on)
        city = [v for v in versions if v.layer == "city"]
        state = [v for v in versions if v.layer == "state"]
        out: list[dict[str, Any]] = []

        def by_effect(vs, kind):
            grouped: dict[str, list[ProvisionVersion]] = {}
            for v in vs:
                if v.effect_kind == kind:
                    grouped.setdefault(v.effect["id"], []).append(v)
            return grouped

        city_deadlines, state_deadlines = by_effect(city, "deadline"), by_effect(state, "deadline")
        for did in sorted(set(city_deadlines) & set(state_deadlines)):
            for cv in city_deadlines[did]:
                # a state time meets a city one only where both concern the same designation: Tracy's five
                # business days (vicious) and 347.541's 14 days (dangerous) never set the same case's time
                overlapping = [sv for sv in state_deadlines[did] if _scopes_meet(cv, sv)]
                if not overlapping or _deadline_terms(cv) in {_deadline_terms(v) for v in overlapping}:
                    continue
                sv = overlapping[0]
                e = cv.effect
                out.append(
                    {
                        "topic": f"deadline {did}",
                        "title": f"Time to {e['what']}",
                        "kind": "deadline",
                        "summary": f"{_describe_period(cv, self.event_words)} ({cv.citation}) vs "
                        f"{_describe_period(sv, self.event_words)} ({sv.citation})",
                        "city": _side(cv, _describe_period(cv, self.event_words)),
                        "state": _side(sv, _describe_period(sv, self.event_words)),
                        "applied": "both are computed for every case; "
                        + combination_rule(e["who"], e.get("kind", "due")).split(": ", 1)[1],
                    }
                )
        city_req, state_req = by_effect(city, "requirement"), by_effect(state, "requirement")
        for rid in sorted(set(city_req) & set(state_req)):
            for cv in city_req[rid]:
                for sv in state_req[rid]:
                    # each amount (one, or several: per person, per incident) against the state's amount of
                    # the same id, or its single amount
                    for (aid, ca, cwhat), (sid, sa, swhat) in _amount_pairs(cv.effect, sv.effect):
                        if ca == sa:
                            continue
                        high = max(ca, sa)
                        name = aid or sid
                        topic = f"requirement {rid}" + (f": {name}" if name else "")
                        cval = f"${ca:,.0f}" + (f" {cwhat}" if cwhat else "")
                        sval = f"${sa:,.0f}" + (f" {swhat}" if swhat else "")
                        out.append(
                            {
                                "topic": topic,
                                "title": f"Requirement: {cv.effect['what']}"
                                + (f" ({cwhat or swhat})" if (cwhat or swhat) else ""),
                                "kind": "amount",
                                "amount": name,
                                "summary": f"{cval} ({cv.citation}) vs {sval} ({sv.citation})",
                                "city": _side(cv, cval),
                                "state": _side(sv, sval),
                                "applied": f"${high:,.0f}: a requirement takes the higher amount: the state's is the floor{self.floor_cite}",
                            }
                        )
                    spec_c, spec_s = dict(cv.effect.get("spec") or {}), dict(sv.effect.get("spec") or {})
                    for key in sorted(set(spec_c) & set(spec_s)):
                        if spec_c[key] != spec_s[key]:
                            out.append(
                                {
                                    "topic": f"requirement {rid}: {key}",
                                    "title": f"Requirement: {cv.effect['what']} ({spec_words(key)})",
                                    "kind": "specification",
                                    "summary": f"{spec_c[key]} ({cv.citation}) vs {spec_s[key]} ({sv.citation})",
                                    "city": _side(cv, spec_words(spec_c[key])),
                                    "state": _side(sv, spec_words(spec_s[key])),
                                    "applied": "the stricter of the two; both are shown to the owner",
                                }
                            )
        out += self._fee_cap_conflicts(city, state)
        # A state exemption bars the designations its own words name; it reaches no city designation
        # (not through state_counterpart either: DESIGN.md principle 4). Where the city has no provision
        # restating it, the city attorney sees that its designation stays open where the state's is barred.
        # An exemption that bars only what the state law allows without a designation (347.56 destruction,
        # whose exemptions restate 347.51 subd. 5) is applied by the state's own track in every city, to every
        # dog: it is not compared with a city designation (subd. 5 itself is listed once, for its designation).
        restated = {v.state_provision for v in city if v.state_provision}
        for designation in self.pack.designations.values():
            for sv in state:
                if (
                    sv.effect_kind == "exemption"
                    and designation.id not in sv.effect["bars"]
                    and sv.id not in restated
                    and any(d in self.designations for d in sv.effect["bars"])
                ):
                    barred = ", ".join(
                        self.designations[d].label.lower()
                        for d in sv.effect["bars"]
                        if d in self.designations
                    )
                    out.append(
                        {
                            "topic": f"exemption for {designation.id}",
                            "title": f"Exemption for a {designation.label.lower()}",
                            "kind": "missing_exemption",
                            "summary": f"{self.pack.name} has no provision restating {sv.citation}",
                            "city": {
                                "citation": None,
                                "text": None,
                                "value": "no counterpart in the city text",
                            },
                            "state": _side(sv, "exemption"),
                            "applied": (
                                f"not applied to a {designation.label.lower()} classification: {sv.citation} "
                                f"bars the state's {barred} designation only, and its words reach no city "
                                f"designation; where it applies, the answer says that a state {barred} "
                                "declaration would be barred, flagged for the city attorney"
                            ),
                        }
                    )
        for cv in city:
            if cv.differs_from_state:
                sv = self.state.provisions.get(cv.state_provision or "")
                svv = sv.version_on(on) if sv else None
                out.append(
                    {
                        "topic": f"{cv.citation}",
                        "title": cv.citation,
                        "kind": "wording",
                        "summary": cv.differs_from_state,
                        "city": _side(cv, cv.differs_from_state),
                        "state": _side(svv, "") if svv else {"citation": None, "text": None, "value": None},
                        "applied": "both texts are applied; where they differ the state floor protects the owner "
                        f"and the city's added restrictions stand{self.floor_cite}",
                    }
                )
        return out

    def _fee_cap_conflicts(
        self, city: list[ProvisionVersion], state: list[ProvisionVersion]
    ) -> list[dict[str, Any]]:
        """A city fee above a state cap on the fee of the same id (347.51 subd. 2(3): not more than $500)."""
        out: list[dict[str, Any]] = []
        caps = [v for v in state if v.effect_kind == "fee" and v.effect.get("cap_usd") is not None]
        for cv in city:
            if cv.effect_kind != "fee" or cv.effect.get("amount_usd") is None:
                continue
            amount = cv.effect["amount_usd"]
            for sv in caps:
                cap = sv.effect["cap_usd"]
                if sv.effect["id"] != cv.effect["id"] or amount <= cap:
                    continue
                reached = _designations_both(cv.effect.get("for"), sv.effect.get("for"))
                if reached == []:
                    continue
                labels = ", ".join(self.designations[d].label.lower() for d in reached or ())
                scope = f" for a {labels}" if reached else ""
                rest = [d for d in cv.effect.get("for") or () if reached and d not in reached]
                tail = (
                    "; for a "
                    + ", ".join(self.designations[d].label.lower() for d in rest)
                    + f" the city's amount stands ({sv.citation} does not reach it)"
                    if rest
                    else ""
                )
                out.append(
                    {
                        "topic": f"fee {cv.effect['id']}",
                        "title": f"Fee: {cv.effect['what']}",
                        "kind": "fee_cap",
                        "summary": f"${amount:,.0f} ({cv.citation}) vs not more than ${cap:,.0f} ({sv.citation})",
                        "city": _side(cv, f"${amount:,.0f}"),
                        "state": _side(sv, f"not more than ${cap:,.0f}"),
                        "applied": f"${cap:,.0f}{scope}: the state caps the fee; dogcase demands no more than the "
                        f"cap{tail}",
                    }
                )
        return out

    def fee(self, fee_id: str, on: dt.date, *, designation: str | None = None) -> dict[str, Any]:
        """What the law lets the city charge as fee `fee_id` on `on`: the amount recorded (a council resolution,
        or null until one is recorded), every state cap that reaches it, and the amount dogcase demands (never
        above a cap)."""
        check_date_range(on, "on")
        versions = [v for v in self.versions_on(on) if v.effect_kind == "fee" and v.effect["id"] == fee_id]
        if designation is not None:
            if designation not in self.designations:
                raise InputError("designation", f"unknown designation {designation!r} in {self.id}")
            versions = [v for v in versions if v.effect.get("for") is None or designation in v.effect["for"]]
        if not versions:
            raise InputError("fee", f"no fee {fee_id!r} of {self.id} in force on {on.isoformat()}")
        amounts = [v for v in versions if v.effect.get("amount_usd") is not None]
        caps = [v for v in versions if v.effect.get("cap_usd") is not None]
        # the city's amount where it recorded one, else the state's
        amount_from = next((v for v in reversed(amounts) if v.layer == "city"), None) or (
            amounts[-1] if amounts else None
        )
        amount = amount_from.effect["amount_usd"] if amount_from else None
        cap_from = min(caps, key=lambda v: v.effect["cap_usd"]) if caps else None
        cap = cap_from.effect["cap_usd"] if cap_from else None
        demanded = amount if cap is None or amount is None else min(amount, cap)
        if amount is None:
            why = "no amount is recorded (the fee is set by resolution; until it is recorded nothing is demanded)"
        elif cap is not None and amount > cap:
            why = (
                f"the recorded ${amount:,.0f} ({amount_from.citation}) is above the cap of ${cap:,.0f} "
                f"({cap_from.citation}): dogcase demands no more than the cap"
            )
        else:
            why = f"the recorded amount ({amount_from.citation})" + (
                f", within the cap of ${cap:,.0f} ({cap_from.citation})" if cap_from else ""
            )
        return {
            "jurisdiction": self.id,
            "fee": fee_id,
            "on": on.isoformat(),
            "designation": designation,
            "amount_usd": amount,
            "cap_usd": cap,
            "demanded_usd": demanded,
            "why": why,
            "provisions": [v.cite() for v in versions],
        }


def _deadline_terms(v: ProvisionVersion) -> tuple:
    e = v.effect
    return (e["trigger"], e["period"]["amount"], e["period"]["unit"], e["counting"])


def _scopes_meet(a: ProvisionVersion, b: ProvisionVersion) -> bool:
    """Do two provisions concern a common designation (a provision without `for` concerns every one)?"""
    sa, sb = a.effect.get("for"), b.effect.get("for")
    return sa is None or sb is None or bool(set(sa) & set(sb))


def _describe_period(v: ProvisionVersion, words: Mapping[str, str] = EVENT_WORDS) -> str:
    e = v.effect
    amount, unit = e["period"]["amount"], e["period"]["unit"].replace("_", " ")
    if amount == 1:
        unit = unit.rstrip("s")
    trigger = words.get(e["trigger"] or "", "a trigger the text does not give")
    return f"{amount} {unit} from {trigger}"


def requirement_amounts(effect: Mapping[str, Any]) -> list[tuple[str | None, float, str | None]]:
    """A requirement's amounts as (id, usd, what): its `amounts`, or its single `amount_usd` (id None)."""
    if effect.get("amounts"):
        return [(a["id"], a["usd"], a.get("what")) for a in effect["amounts"]]
    if effect.get("amount_usd") is not None:
        return [(None, effect["amount_usd"], None)]
    return []


def _amount_pairs(city: Mapping[str, Any], state: Mapping[str, Any]):
    """The city's and the state's amounts of one requirement to compare: the same amount id, or either
    side's single amount against each amount of the other."""
    for c in requirement_amounts(city):
        for s in requirement_amounts(state):
            if c[0] == s[0] or c[0] is None or s[0] is None:
                yield c, s


def spec_words(value: Any) -> str:
    """A requirement's specification (a key or a value of `spec:`) in words: yes/no, ids as words."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return ", ".join(spec_words(v) for v in value)
    return str(value).replace("_", " ")


def _side(v: ProvisionVersion, value: str) -> dict[str, Any]:
    return {"provision": v.key, "citation": v.citation, "text": v.text, "value": value}


def _designations_both(a, b) -> list[str] | None:
    """The designations two `for` scopes share: None when neither limits them, [] when they share none."""
    if a is None and b is None:
        return None
    if a is None:
        return list(b)
    if b is None:
        return list(a)
    return [d for d in a if d in b]
