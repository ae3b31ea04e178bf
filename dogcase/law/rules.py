"""Classification rules compiled to Python for speed, and evaluated in three-valued (Kleene) logic.

Values: 2 = true, 1 = unknown (a fact not given), 0 = false. `all` is min, `any` is max, `not` is 2 - x.
Each jurisdiction's rules in force on a date become one generated function; the pack data is the only
source of what it computes (it is generated from validated pack conditions, never from user input).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from .errors import RuleConflict
from .facts import condition_facts
from .model import Defect, Designation, ProvisionVersion

TRUE, UNKNOWN, FALSE = 2, 1, 0
ELIGIBLE, NOT_ELIGIBLE, BARRED, UNDETERMINED = "eligible", "not_eligible", "barred", "undetermined"


@dataclass(frozen=True, slots=True, eq=False)
class Rule:
    """A ground (concludes eligible) or an exemption (an exception to grounds: concludes barred)."""

    version: ProvisionVersion
    kind: str  # ground | exemption
    condition: Any
    facts: tuple[str, ...]
    defects: tuple[Defect, ...] = ()
    floor_for: tuple[str, ...] = ()  # city designations a state exemption reaches as the state floor
    cited: dict[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> str:
        return self.version.key

    @property
    def conclusion(self) -> str:
        return ELIGIBLE if self.kind == "ground" else BARRED

    @property
    def level(self) -> int:
        return 0 if self.kind == "ground" else 1


class DesignationResult:
    """The answer for one designation: status, the clauses that matched, what bars it, what is missing."""

    __slots__ = ("designation", "status", "matched", "barred_by", "missing", "rules")

    def __init__(self, designation, status, matched, barred_by, missing, rules) -> None:
        self.designation: Designation = designation
        self.status: str = status
        self.matched: tuple[Rule, ...] = matched
        self.barred_by: tuple[Rule, ...] = barred_by
        self.missing: tuple[str, ...] = missing
        self.rules: tuple[Rule, ...] = rules  # every rule considered, in order

    def __repr__(self) -> str:
        return f"<{self.designation.id}: {self.status}>"


def _leaf(cond: Any, consts: dict[str, Any]) -> str:
    if isinstance(cond, str):
        v = f"f_{cond}"
        return f"(1 if {v} is None else (2 if {v} else 0))"
    v = f"f_{cond['fact']}"
    if "is" in cond:
        return f"(1 if {v} is None else (2 if {v} == {cond['is']!r} else 0))"
    if "includes" in cond:
        return f"(1 if {v} is None else (2 if {cond['includes']!r} in {v} else 0))"
    name = f"K{len(consts)}"
    consts[name] = frozenset(cond["in"] if "in" in cond else cond["includes_any"])
    if "in" in cond:
        return f"(1 if {v} is None else (2 if {v} in {name} else 0))"
    return f"(1 if {v} is None else (0 if {name}.isdisjoint({v}) else 2))"


def expression(cond: Any, consts: dict[str, Any]) -> str:
    """Python source for a condition's three-valued value."""
    if isinstance(cond, str) or "fact" in cond:
        return _leaf(cond, consts)
    if "not" in cond:
        return f"(2 - {expression(cond['not'], consts)})"
    parts = [expression(c, consts) for c in (cond.get("all") or cond.get("any"))]
    if len(parts) == 1:
        return parts[0]
    return f"{'min' if 'all' in cond else 'max'}({', '.join(parts)})"


def evaluate(cond: Any, facts: dict[str, Any]) -> int:
    """The same three-valued value, interpreted (used for the trace of missing facts and in tests)."""
    if isinstance(cond, str):
        v = facts.get(cond)
        return UNKNOWN if v is None else (TRUE if v else FALSE)
    if "fact" in cond:
        v = facts.get(cond["fact"])
        if v is None:
            return UNKNOWN
        if "is" in cond:
            return TRUE if v == cond["is"] else FALSE
        if "in" in cond:
            return TRUE if v in cond["in"] else FALSE
        if "includes" in cond:
            return TRUE if cond["includes"] in v else FALSE
        return TRUE if set(cond["includes_any"]) & set(v) else FALSE
    if "not" in cond:
        return 2 - evaluate(cond["not"], facts)
    values = [evaluate(c, facts) for c in (cond.get("all") or cond.get("any"))]
    return min(values) if "all" in cond else max(values)


def missing_facts(cond: Any, facts: dict[str, Any]) -> list[str]:
    """Facts not given whose value could change this (unknown) condition."""
    if evaluate(cond, facts) != UNKNOWN:
        return []
    if isinstance(cond, str):
        return [cond]
    if "fact" in cond:
        return [cond["fact"]]
    if "not" in cond:
        return missing_facts(cond["not"], facts)
    out: list[str] = []
    for part in cond.get("all") or cond.get("any"):
        for name in missing_facts(part, facts):
            if name not in out:
                out.append(name)
    return out


def decide(rules: tuple[Rule, ...], values: tuple[int, ...]) -> str:
    """Catala-style: the highest level with an applicable rule decides; a disagreement there is an error;
    an unknown rule above (or beside) the deciding one leaves the answer undetermined when it could change it."""
    levels = sorted({r.level for r in rules}, reverse=True)
    possible: set[str] = set()
    decided: str | None = None
    for level in levels:
        here = [(r, v) for r, v in zip(rules, values, strict=True) if r.level == level]
        applicable = [r for r, v in here if v == TRUE]
        possible |= {r.conclusion for r, v in here if v == UNKNOWN}
        if applicable:
            conclusions = {r.conclusion for r in applicable}
            if len(conclusions) > 1:
                raise RuleConflict(
                    rules[0].version.key if not applicable else applicable[0].version.key.split(":")[0],
                    [f"{r.version.citation} ({r.conclusion})" for r in applicable],
                )
            decided = conclusions.pop()
            possible.add(decided)
            break
    if decided is None:
        possible.add(NOT_ELIGIBLE)
    if ELIGIBLE not in possible:
        return decided or NOT_ELIGIBLE
    if possible == {ELIGIBLE}:
        return ELIGIBLE
    return UNDETERMINED


@dataclass
class CompiledClassifier:
    """All designations of one jurisdiction, for one stretch of dates in which the same law is in force."""

    designations: tuple[Designation, ...]
    rules_by_designation: tuple[tuple[Rule, ...], ...]
    start: dt.date | None
    end: dt.date | None
    run: Any = None  # the generated function: facts -> tuple[DesignationResult, ...]
    source: str = ""

    def missing(self, index: int, facts: dict[str, Any]) -> tuple[str, ...]:
        rules = self.rules_by_designation[index]
        out: list[str] = []
        grounds_true = any(r.kind == "ground" and evaluate(r.condition, facts) == TRUE for r in rules)
        for rule in rules:
            if rule.kind == "ground" and grounds_true:
                continue
            for name in missing_facts(rule.condition, facts):
                if name not in out:
                    out.append(name)
        return tuple(out)


def compile_classifier(
    designations: tuple[Designation, ...],
    rules_by_designation: tuple[tuple[Rule, ...], ...],
    start: dt.date | None,
    end: dt.date | None,
) -> CompiledClassifier:
    compiled = CompiledClassifier(designations, rules_by_designation, start, end)
    consts: dict[str, Any] = {}
    variables: dict[int, str] = {}  # id(rule) -> local name
    exprs: list[tuple[str, str]] = []
    facts_used: list[str] = []
    for rules in rules_by_designation:
        for rule in rules:
            if id(rule) in variables:
                continue
            name = f"r{len(variables)}"
            variables[id(rule)] = name
            exprs.append((name, expression(rule.condition, consts)))
            for fact in condition_facts(rule.condition):
                if fact not in facts_used:
                    facts_used.append(fact)
    namespace: dict[str, Any] = {
        **consts,
        "_DR": DesignationResult,
        "_decide": decide,
        "_C": compiled,
    }
    lines = ["def classify(F):", "    _g = F.get"]
    lines += [f"    f_{fact} = _g({fact!r})" for fact in facts_used]
    lines += [f"    {name} = {expr}" for name, expr in exprs]
    results = []
    for index, (designation, rules) in enumerate(zip(designations, rules_by_designation, strict=True)):
        namespace[f"_D{index}"] = designation
        namespace[f"_RS{index}"] = rules
        for j, rule in enumerate(rules):
            namespace[f"_R{index}_{j}"] = rule
        grounds = [(j, variables[id(r)]) for j, r in enumerate(rules) if r.kind == "ground"]
        exemptions = [(j, variables[id(r)]) for j, r in enumerate(rules) if r.kind == "exemption"]
        s = f"s{index}"
        g = f"max({', '.join(v for _, v in grounds)})" if len(grounds) > 1 else (grounds[0][1] if grounds else "0")
        e = (
            f"max({', '.join(v for _, v in exemptions)})"
            if len(exemptions) > 1
            else (exemptions[0][1] if exemptions else "0")
        )
        lines += [
            f"    g = {g}",
            f"    e = {e}",
            f"    if e == 2: {s} = 'barred'",
            f"    elif g == 0: {s} = 'not_eligible'",
            f"    elif g == 2 and e == 0: {s} = 'eligible'",
            f"    else: {s} = 'undetermined'",
        ]
        matched = " + ".join(f"((_R{index}_{j},) if {v} == 2 else ())" for j, v in grounds) or "()"
        barred = " + ".join(f"((_R{index}_{j},) if {v} == 2 else ())" for j, v in exemptions) or "()"
        lines += [
            f"    d{index} = _DR(_D{index}, {s}, {matched}, {barred}, "
            f"_C.missing({index}, F) if {s} == 'undetermined' else (), _RS{index})"
        ]
        results.append(f"d{index}")
    lines.append(f"    return ({', '.join(results)}{',' if len(results) == 1 else ''})")
    source = "\n".join(lines) + "\n"
    code = compile(source, "<dogcase law rules>", "exec")
    exec(code, namespace)  # noqa: S102 - source generated from validated pack conditions only
    compiled.run = namespace["classify"]
    compiled.source = source
    return compiled
