"""The fact vocabulary (packs/facts.yaml): checking conditions against it, and checking incident facts."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from .errors import InputError
from .model import FactDef
from .schema import BOOL, ID, INT, STR, ListOf, MapOf, OneOf, Record, Where
from .yamlsource import read_yaml

FACT_ENTRY = Record(
    required={"id": ID, "type": OneOf("bool", "enum", "set"), "question": STR},
    optional={
        "values": ListOf(ID, min_items=1, unique=True),
        # plain-English words for the values, shown wherever a value is asked or shown
        "labels": MapOf(STR),
        # computed by dogcase from the dog's own history (its earlier incidents and cases, and the prior
        # history the officer records), never asked at intake
        "from_record": BOOL,
    },
)
_FACTS_LIST = ListOf(FACT_ENTRY, min_items=1)


def check_labels(labels: Any, values: tuple[str, ...], fact_id: str, where: Where) -> dict[str, str]:
    """A fact's `labels:` may name only its values; each label is one line of plain words."""
    out: dict[str, str] = {}
    for value, label in (labels or {}).items():
        line = labels.line_of(value) if hasattr(labels, "line_of") else where.line
        if value not in values:
            raise (
                where.at("labels", line)
                .at(str(value), line)
                .fail(f"{value!r} is not a value of fact {fact_id!r}; allowed: {', '.join(values) or 'none'}")
            )
        out[value] = " ".join(label.split())
    return out


# The facts dogcase can read from a dog's own record (its earlier incidents and cases, and the prior history
# recorded on it), by their names; the staff app computes them (dogcase/cases/record_facts.py).
SEPARATE_BITES = "bit_person_on_separate_occasions"
PREVIOUSLY = "previously_"  # + a designation id: an earlier declaration of it
NOTICE_OF = "owner_had_notice_of_"  # + a designation id: a notice of such a declaration served
RECORD_FACT_NAMES = (SEPARATE_BITES, f"{PREVIOUSLY}<designation>", f"{NOTICE_OF}<designation>")


def record_fact_kind(fact_id: str) -> str | None:
    """How a fact marked `from_record` is read from the record: "separate_bites", "previously" (an earlier
    declaration of the designation it names), "notice" (a notice of one served), or None (it cannot be)."""
    if fact_id == SEPARATE_BITES:
        return "separate_bites"
    for prefix, kind in ((PREVIOUSLY, "previously"), (NOTICE_OF, "notice")):
        if fact_id.startswith(prefix) and len(fact_id) > len(prefix):
            return kind
    return None


def fact_from_entry(item: Any, where: Where) -> FactDef:
    """One checked fact entry (facts.yaml or a pack's `facts:`) as a FactDef."""
    values = tuple(item.get("values", ()))
    if item["type"] in ("enum", "set") and not values:
        raise where.fail(f"a {item['type']} fact needs its list of values")
    if item["type"] == "bool" and values:
        raise where.fail("a bool fact takes no values")
    if item["type"] == "bool" and "labels" in item:
        raise where.fail("a bool fact takes no labels (its values are yes and no)")
    if item.get("from_record") and item["type"] != "bool":
        raise where.fail("a fact from the dog's record is bool: the record shows it or does not")
    if item.get("from_record") and record_fact_kind(item["id"]) is None:
        raise where.fail(
            f"dogcase cannot read {item['id']!r} from a dog's record; it reads "
            f"{', '.join(RECORD_FACT_NAMES)} (ask it at intake instead: leave out from_record)"
        )
    return FactDef(
        id=item["id"],
        type=item["type"],
        question=" ".join(item["question"].split()),
        values=frozenset(values),
        ordered_values=values,
        labels=MappingProxyType(check_labels(item.get("labels"), values, item["id"], where)),
        from_record=item.get("from_record", False),
    )


def _placed(fact: FactDef, new: tuple[str, ...], item: Any, where: Where) -> tuple[str, ...]:
    """The fact's values with `new` placed where the entry says: `after: V` or `before: V` (a value the fact
    already has), or at the end. The order is law: it is the order of seriousness where one is read (the most
    seriously hurt victim is the one whose injury comes last)."""
    if "after" in item and "before" in item:
        raise where.at("before", item.line_of("before")).fail(
            "say where the values go with after: or before:, not both"
        )
    for key in ("after", "before"):
        if key not in item:
            continue
        anchor = item[key]
        if anchor not in fact.values:
            raise where.at(key, item.line_of(key)).fail(
                f"{anchor!r} is not a value of fact {fact.id!r}; allowed: {', '.join(fact.ordered_values)}"
            )
        at = fact.ordered_values.index(anchor) + (1 if key == "after" else 0)
        return fact.ordered_values[:at] + new + fact.ordered_values[at:]
    return fact.ordered_values + new


class FactVocabulary:
    """Every fact an incident can carry, with its type and allowed values."""

    def __init__(self, facts: Mapping[str, FactDef], file: str = "facts.yaml") -> None:
        self.facts = dict(facts)
        self.file = file

    @classmethod
    def load(cls, path: Path, display: str) -> FactVocabulary:
        raw = read_yaml(path, display)
        spec = Record(required={"format": INT, "facts": _FACTS_LIST})
        spec.check(raw, Where(display, getattr(raw, "line", 1), ""))
        facts: dict[str, FactDef] = {}
        for index, item in enumerate(raw["facts"]):
            where = Where(display, raw["facts"].line_of(index), f"facts[{index}]")
            if item["id"] in facts:
                raise where.fail(f"fact {item['id']!r} is defined twice")
            facts[item["id"]] = fact_from_entry(item, where)
        return cls(facts, display)

    def extend(self, raw_facts: Any, raw_values: Any, top: Where, pack_id: str) -> FactVocabulary:
        """This vocabulary with a pack's own facts (`facts:`) and its own values of shared enum or set facts
        (`fact_values:`). A pack fact may not reuse the id of a fact it can already see."""
        facts = dict(self.facts)
        for index, item in enumerate(raw_facts or ()):
            where = top.at("facts", top.line).at(index, raw_facts.line_of(index))
            if item["id"] in facts:
                known = facts[item["id"]]
                origin = f"pack {known.pack}" if known.pack else self.file
                raise where.at("id", item.line_of("id")).fail(
                    f"fact {item['id']!r} is already a fact of {origin}: a pack's own fact needs its own id "
                    "(to add values to it, use fact_values:)"
                )
            facts[item["id"]] = replace(fact_from_entry(item, where), pack=pack_id)
        for index, item in enumerate(raw_values or ()):
            where = top.at("fact_values", top.line).at(index, raw_values.line_of(index))
            fact = facts.get(item["fact"])
            if fact is None:
                raise where.at("fact", item.line_of("fact")).fail(
                    f"unknown fact {item['fact']!r}; fact_values adds values to a fact of {self.file} "
                    "(or of this pack's facts:)"
                )
            if fact.type == "bool":
                raise where.fail(f"fact {fact.id!r} is bool: only an enum or set fact takes more values")
            new = tuple(item["values"])
            taken = [v for v in new if v in fact.values]
            if taken:
                raise where.at("values", item.line_of("values")).fail(
                    f"{taken[0]!r} is already a value of fact {fact.id!r}"
                )
            ordered = _placed(fact, new, item, where)
            labels = check_labels(item.get("labels"), new, fact.id, where)
            facts[fact.id] = replace(
                fact,
                values=frozenset(ordered),
                ordered_values=ordered,
                labels=MappingProxyType({**fact.labels, **labels}),
                added_values=MappingProxyType({**fact.added_values, **dict.fromkeys(new, pack_id)}),
            )
        if not raw_facts and not raw_values:
            return self
        return FactVocabulary(facts, f"{self.file} or the facts: of {pack_id}")

    # --- conditions in packs -------------------------------------------------------------------------

    def check_condition(self, cond: Any, where: Where) -> None:
        """A condition may name only known facts, with values those facts can take."""
        if isinstance(cond, str):
            fact = self._fact(cond, where)
            if fact.type != "bool":
                raise where.fail(f"fact {cond!r} is {fact.type}; test it with is/in/includes")
            return
        line = getattr(cond, "line", where.line)
        here = Where(where.file, line, where.path)
        if "not" in cond:
            self.check_condition(cond["not"], here.at("not", line))
            return
        for key in ("all", "any"):
            if key in cond:
                for index, part in enumerate(cond[key]):
                    self.check_condition(part, here.at(key, line).at(index, getattr(part, "line", line)))
                return
        fact = self._fact(cond["fact"], here)
        if "is" in cond or "in" in cond:
            if fact.type != "enum":
                raise here.fail(f"fact {fact.id!r} is {fact.type}; 'is'/'in' test enum facts")
            for value in [cond["is"]] if "is" in cond else cond["in"]:
                self._value(fact, value, here)
        else:
            if fact.type != "set":
                raise here.fail(f"fact {fact.id!r} is {fact.type}; 'includes' tests set facts")
            for value in [cond["includes"]] if "includes" in cond else cond["includes_any"]:
                self._value(fact, value, here)

    def _fact(self, name: str, where: Where) -> FactDef:
        try:
            return self.facts[name]
        except KeyError:
            raise where.fail(f"unknown fact {name!r}; facts are defined in {self.file}") from None

    @staticmethod
    def _value(fact: FactDef, value: Any, where: Where) -> None:
        if value not in fact.values:
            raise where.fail(
                f"{value!r} is not a value of fact {fact.id!r}; allowed: {', '.join(fact.ordered_values)}"
            )

    # --- incident facts from users -------------------------------------------------------------------

    def parse(self, raw: Any, *, field: str = "facts") -> dict[str, Any]:
        """Check incident facts. A fact left out (or null) is unknown; a wrong name or value is an error."""
        if not isinstance(raw, Mapping):
            raise InputError(field, "must be an object mapping fact names to values")
        out: dict[str, Any] = {}
        for name, value in raw.items():
            where = f"{field}.{name}"
            fact = self.facts.get(name) if isinstance(name, str) else None
            if fact is None:
                raise InputError(where, f"unknown fact; known facts: {', '.join(sorted(self.facts))}")
            if value is None:
                continue
            if fact.type == "bool":
                if not isinstance(value, bool):
                    raise InputError(where, "must be true or false (or null when unknown)")
                out[name] = value
            elif fact.type == "enum":
                if not isinstance(value, str) or value not in fact.values:
                    raise InputError(where, f"must be one of {', '.join(fact.ordered_values)}")
                out[name] = value
            else:
                if not isinstance(value, list | tuple | set | frozenset):
                    raise InputError(where, f"must be a list of any of {', '.join(fact.ordered_values)}")
                bad = [v for v in value if not isinstance(v, str) or v not in fact.values]
                if bad:
                    raise InputError(
                        where, f"{bad[0]!r} is not allowed; use any of {', '.join(fact.ordered_values)}"
                    )
                out[name] = frozenset(value)
        return out


def condition_facts(cond: Any) -> list[str]:
    """Fact names a condition reads, in order of first appearance."""
    seen: list[str] = []

    def walk(c: Any) -> None:
        if isinstance(c, str):
            if c not in seen:
                seen.append(c)
        elif "not" in c:
            walk(c["not"])
        elif "all" in c or "any" in c:
            for part in c.get("all", c.get("any")):
                walk(part)
        elif c["fact"] not in seen:
            seen.append(c["fact"])

    walk(cond)
    return seen
