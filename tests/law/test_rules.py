"""The compiled classifier agrees with the interpreted reading of the same rules, for any facts."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dogcase.law import library
from dogcase.law.errors import RuleConflict
from dogcase.law.rules import (
    BARRED,
    ELIGIBLE,
    FALSE,
    NOT_ELIGIBLE,
    TRUE,
    UNDETERMINED,
    UNKNOWN,
    decide,
    evaluate,
)

VOCABULARY = library().facts.facts


def _fact_value(fact):
    if fact.type == "bool":
        return st.one_of(st.none(), st.booleans())
    if fact.type == "enum":
        return st.one_of(st.none(), st.sampled_from(fact.ordered_values))
    return st.one_of(st.none(), st.frozensets(st.sampled_from(fact.ordered_values)))


FACTS = st.fixed_dictionaries({name: _fact_value(f) for name, f in VOCABULARY.items()}).map(
    lambda d: {k: v for k, v in d.items() if v is not None}
)


@pytest.mark.parametrize("jurisdiction_id", sorted(library().jurisdictions))
@settings(max_examples=300, deadline=None)
@given(facts=FACTS)
def test_compiled_rules_match_the_interpreted_rules(jurisdiction_id, facts):
    j = library().get(jurisdiction_id)
    compiled = j.classifier(dt.date(2025, 6, 1))
    for result, rules in zip(compiled.run(facts), compiled.rules_by_designation, strict=True):
        values = tuple(evaluate(rule.condition, facts) for rule in rules)
        assert result.status == decide(rules, values)
        assert {r.key for r in result.matched} == {
            r.key for r, v in zip(rules, values, strict=True) if v == TRUE and r.kind == "ground"
        }
        assert {r.key for r in result.barred_by} == {
            r.key for r, v in zip(rules, values, strict=True) if v == TRUE and r.kind == "exemption"
        }
        if result.status == UNDETERMINED:
            assert result.missing, "an undetermined answer names the facts it needs"
            for name in result.missing:
                assert name not in facts


@given(facts=FACTS)
@settings(max_examples=200, deadline=None)
def test_giving_a_missing_fact_never_flips_a_determined_answer(facts):
    """Kleene logic: a determined answer holds whatever the unknown facts turn out to be (a dog barred by an
    exemption while a ground was unknown may turn out not eligible at all: either way it cannot be declared)."""
    j = library().get("battle-lake-mn")
    compiled = j.classifier(dt.date(2025, 6, 1))
    before = {r.designation.id: r.status for r in compiled.run(facts)}
    completed = dict(facts)
    for name, fact in VOCABULARY.items():
        if name not in completed:
            completed[name] = (
                False
                if fact.type == "bool"
                else frozenset()
                if fact.type == "set"
                else fact.ordered_values[-1]
            )
    after = {r.designation.id: r.status for r in compiled.run(completed)}
    negative = {BARRED, NOT_ELIGIBLE}
    for designation, status in before.items():
        if status == ELIGIBLE:
            assert after[designation] == ELIGIBLE
        elif status in negative:
            assert after[designation] in negative


class _FakeRule:
    def __init__(self, kind, key):
        self.kind = kind
        self.key = key
        self.version = type("V", (), {"key": key, "citation": key})()

    @property
    def conclusion(self):
        return ELIGIBLE if self.kind == "ground" else BARRED

    @property
    def level(self):
        return 0 if self.kind == "ground" else 1


DECISIONS = [
    ((TRUE,), (), ELIGIBLE),
    ((FALSE,), (), NOT_ELIGIBLE),
    ((UNKNOWN,), (), UNDETERMINED),
    ((TRUE,), (TRUE,), BARRED),
    ((UNKNOWN,), (TRUE,), BARRED),
    ((FALSE,), (TRUE,), NOT_ELIGIBLE),
    ((TRUE,), (UNKNOWN,), UNDETERMINED),
    ((FALSE,), (UNKNOWN,), NOT_ELIGIBLE),
    ((FALSE, UNKNOWN), (FALSE,), UNDETERMINED),
    ((FALSE, TRUE), (FALSE, FALSE), ELIGIBLE),
]


@pytest.mark.parametrize(("grounds", "exemptions", "expected"), DECISIONS)
def test_exemptions_override_grounds_as_exceptions(grounds, exemptions, expected):
    rules = tuple(_FakeRule("ground", f"g{i}") for i in range(len(grounds))) + tuple(
        _FakeRule("exemption", f"e{i}") for i in range(len(exemptions))
    )
    assert decide(rules, grounds + exemptions) == expected


def test_two_applicable_rules_that_disagree_at_one_level_is_an_error_never_a_pick():
    ground = _FakeRule("ground", "city:1")
    odd = _FakeRule("exemption", "city:2")
    odd.__class__ = type("SameLevel", (_FakeRule,), {"level": property(lambda self: 0)})
    with pytest.raises(RuleConflict, match="city:1"):
        decide((ground, odd), (TRUE, TRUE))
