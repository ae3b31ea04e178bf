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
from .model import Designation, ProvisionVersion

TRUE, UNKNOWN, FALSE = 2, 1, 0
ELIGIBLE, NOT_ELIGIBLE, BARRED, UNDETERMINED = "eligible", "not_eligible", "barred", "undetermined"


@dataclass(frozen=True, slots=True, eq=False)
class Rule:
    """A ground (concludes eligible) or an exemption (an exception to grounds: concludes barred)."""

    version: ProvisionVersion
    kind: str  # ground | exemption
    condition: Any
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

    __slots__ = ("designation", "status", "matched", "barred_by", "missing", "rules", "values")

    def __init__(self, designation, status, matched, barred_by, missing, rules, values=None) -> None:
        self.designation: Designation = designation
        self.status: str = status
        self.matched: tuple[Rule, ...] = matched
        self.barred_by: tuple[Rule, ...] = barred_by
        self.missing: tuple[str, ...] = missing
        self.rules: tuple[Rule, ...] = rules  # every rule considered, in order
        # each rule's value as the generated code computed it (3 true, 1 unknown, 0 false); None: not kept
        self.values: tuple[int, ...] | None = values

    def __repr__(self) -> str:
        return f"<{self.designation.id}: {self.status}>"


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


def _value_and_missing(cond: Any, facts: dict[str, Any]) -> tuple[int, list[str]]:
    """One pass: the condition's value and, when unknown, the unknown facts that decide it."""
    if isinstance(cond, str) or "fact" in cond:
        name = cond if isinstance(cond, str) else cond["fact"]
        if facts.get(name) is None:
            return UNKNOWN, [name]
        return evaluate(cond, facts), []
    if "not" in cond:
        value, missing = _value_and_missing(cond["not"], facts)
        return 2 - value, missing
    is_all = "all" in cond
    decisive = FALSE if is_all else TRUE
    unknown: list[str] = []
    seen_unknown = False
    for part in cond["all"] if is_all else cond["any"]:
        value, missing = _value_and_missing(part, facts)
        if value == decisive:
            return decisive, []
        if value == UNKNOWN:
            seen_unknown = True
            unknown.extend(m for m in missing if m not in unknown)
    if seen_unknown:
        return UNKNOWN, unknown
    return (TRUE if is_all else FALSE), []


def decide(rules: tuple[Rule, ...], values: tuple[int, ...], designation: str = "") -> str:
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
                    designation, [f"{r.version.citation} ({r.conclusion})" for r in applicable]
                )
            decided = conclusions.pop()
            possible.add(decided)
            break
    if decided is None:
        possible.add(NOT_ELIGIBLE)
    if ELIGIBLE not in possible:
        # no ground can apply: the dog is simply not eligible (an exemption that applies is still listed)
        if decided == BARRED and not any(
            r.level == 0 and v != FALSE for r, v in zip(rules, values, strict=True)
        ):
            return NOT_ELIGIBLE
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
    # The parts of an answer's rendering that depend only on this law (Classification.as_dict): worked out
    # once per compiled classifier, not once per answer.
    rendering: dict[Any, Any] = field(default_factory=dict)

    def missing(self, index: int, facts: dict[str, Any], values: tuple[int, ...]) -> tuple[str, ...]:
        """The facts an undetermined answer needs; `values` are the rules' values from the generated code
        (3 true, 1 unknown, 0 false), so only the unknown rules are walked."""
        rules = self.rules_by_designation[index]
        out: list[str] = []
        grounds_missing: list[str] = []
        grounds_true = False
        for rule, value in zip(rules, values, strict=True):
            if rule.kind == "ground":
                grounds_true = grounds_true or value == 3
                target = grounds_missing
            else:
                target = out
            if value == 1:
                missing = _value_and_missing(rule.condition, facts)[1]
                target.extend(name for name in missing if name not in target)
        if not grounds_true:
            out = grounds_missing + [name for name in out if name not in grounds_missing]
        return tuple(out)


def compile_classifier(
    designations: tuple[Designation, ...],
    rules_by_designation: tuple[tuple[Rule, ...], ...],
    start: dt.date | None,
    end: dt.date | None,
) -> CompiledClassifier:
    """Generate one Python function for these rules.

    In the generated code a three-valued value is a two-bit number: true 3, unknown 1, false 0, so that
    Kleene's `all` is bitwise AND and `any` bitwise OR; every distinct fact test and every distinct rule is
    computed once.
    """
    compiled = CompiledClassifier(designations, rules_by_designation, start, end)
    gen = _Generator()
    rule_var: dict[int, str] = {}
    for rules in rules_by_designation:
        for rule in rules:
            if id(rule) not in rule_var:
                rule_var[id(rule)] = gen.rule(rule.condition)
    namespace: dict[str, Any] = {**gen.consts, "_DR": DesignationResult, "_C": compiled}
    lines = ["def classify(F):", "    _g = F.get"]
    lines += [f"    f{index} = _g({fact!r})" for index, fact in enumerate(gen.facts)]
    lines += [f"    {name} = {expr}" for name, expr in gen.lines]
    results = []
    for index, (designation, rules) in enumerate(zip(designations, rules_by_designation, strict=True)):
        namespace[f"_D{index}"] = designation
        namespace[f"_RS{index}"] = rules
        grounds, exemptions = [], []
        for j, rule in enumerate(rules):
            namespace[f"_R{index}_{j}"] = rule
            (grounds if rule.kind == "ground" else exemptions).append((j, rule_var[id(rule)]))
        s = f"s{index}"
        g = " | ".join(dict.fromkeys(v for _, v in grounds)) or "0"
        e = " | ".join(dict.fromkeys(v for _, v in exemptions)) or "0"
        lines += [
            f"    g = {g}",
            f"    e = {e}",
            f"    if g == 0: {s} = 'not_eligible'",
            f"    elif e == 3: {s} = 'barred'",
            f"    elif g == 3 and e == 0: {s} = 'eligible'",
            f"    else: {s} = 'undetermined'",
            "    m = []",
        ]
        lines += [f"    if {v} == 3: m.append(_R{index}_{j})" for j, v in grounds]
        lines.append("    b = []")
        lines += [f"    if {v} == 3: b.append(_R{index}_{j})" for j, v in exemptions]
        lines.append(f"    v = ({', '.join(rule_var[id(r)] for r in rules)}{',' if len(rules) == 1 else ''})")
        lines.append(
            f"    d{index} = _DR(_D{index}, {s}, tuple(m), tuple(b), "
            f"_C.missing({index}, F, v) if {s} == 'undetermined' else (), _RS{index}, v)"
        )
        results.append(f"d{index}")
    lines.append(f"    return ({', '.join(results)}{',' if len(results) == 1 else ''})")
    source = "\n".join(lines) + "\n"
    code = compile(source, "<dogcase law rules>", "exec")
    exec(code, namespace)  # noqa: S102 - source generated from validated pack conditions only
    compiled.run = namespace["classify"]
    return compiled


class _Generator:
    """Builds the statements of a generated classifier, sharing every repeated test."""

    def __init__(self) -> None:
        self.consts: dict[str, Any] = {"_NOT": (3, 1, None, 0)}
        self.facts: list[str] = []
        self.lines: list[tuple[str, str]] = []
        self._names: dict[str, str] = {}

    def _name(self, expr: str, prefix: str) -> str:
        name = self._names.get(expr)
        if name is None:
            name = f"{prefix}{len(self._names)}"
            self._names[expr] = name
            self.lines.append((name, expr))
        return name

    def _fact(self, fact: str) -> str:
        # local names by position: fact ids may hold characters that are not valid in a Python name
        if fact not in self.facts:
            self.facts.append(fact)
        return f"f{self.facts.index(fact)}"

    def _const(self, value: frozenset[str]) -> str:
        for name, existing in self.consts.items():
            if existing == value:
                return name
        name = f"K{len(self.consts)}"
        self.consts[name] = value
        return name

    def leaf(self, cond: Any) -> str:
        if isinstance(cond, str):
            v = self._fact(cond)
            return self._name(f"1 if {v} is None else (3 if {v} else 0)", "t")
        v = self._fact(cond["fact"])
        if "is" in cond:
            test = f"{v} == {cond['is']!r}"
        elif "includes" in cond:
            test = f"{cond['includes']!r} in {v}"
        elif "in" in cond:
            test = f"{v} in {self._const(frozenset(cond['in']))}"
        else:
            test = f"not {self._const(frozenset(cond['includes_any']))}.isdisjoint({v})"
        return self._name(f"1 if {v} is None else (3 if {test} else 0)", "t")

    def value(self, cond: Any) -> str:
        if isinstance(cond, str) or "fact" in cond:
            return self.leaf(cond)
        if "not" in cond:
            return self._name(f"_NOT[{self.value(cond['not'])}]", "t")
        parts = list(dict.fromkeys(self.value(c) for c in (cond.get("all") or cond.get("any"))))
        if len(parts) == 1:
            return parts[0]
        return self._name((" & " if "all" in cond else " | ").join(parts), "t")

    def rule(self, cond: Any) -> str:
        return self.value(cond)
