"""The answer's rendering (Classification.as_dict) shares what depends only on the law between answers; its
content is the same as rendering every part afresh, as it was before (reference_as_dict below), for any facts,
in every jurisdiction (the invented Lakeview included), on dates across each one's changes of law."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dogcase.law.classification import Classification, _summary
from dogcase.law.errors import LawNotInForce
from dogcase.law.loader import Library
from dogcase.law.rules import FALSE, DesignationResult, evaluate
from tests.law.lakeview import install_lakeview

_WORDS = {2: "applies", 1: "unknown", 0: "does not apply"}


def reference_as_dict(c: Classification) -> dict[str, Any]:
    """The rendering as it was: every part worked out for every answer (kept here only to compare)."""
    j = c.jurisdiction
    day = c.incident_date
    flags = c.state_exemption_flags()
    used_keys: list[str] = []
    designations, eligibilities = [], []
    for r in c.results + c.eligibility_results:
        is_eligibility = r in c.eligibility_results
        trace = []
        for rule in r.rules:
            value = evaluate(rule.condition, c.facts)
            trace.append(
                {
                    "provision": rule.key,
                    "citation": rule.version.citation,
                    "role": rule.kind,
                    "value": _WORDS[value],
                }
            )
            if value != FALSE and rule.key not in used_keys:
                used_keys.append(rule.key)
        (eligibilities if is_eligibility else designations).append(
            {
                ("eligibility" if is_eligibility else "designation"): r.designation.id,
                "label": r.designation.label,
                "status": r.status,
                "summary": _summary(r, eligibility=is_eligibility),
                "matched": [rule.cited for rule in r.matched],
                "barred_by": [rule.cited for rule in r.barred_by],
                "missing_facts": [{"fact": n, "question": j.facts.facts[n].question} for n in r.missing],
                "trace": trace,
                "flags": [
                    {k: f[k] for k in ("provision", "citation", "text", "reading")}
                    for f in flags
                    if r.designation.id in f["not_reached"]
                ],
            }
        )
    notes = j.defects_for(used_keys, day)
    for caveat in j.dated_caveats(day):
        if caveat not in notes:
            notes.append(caveat)
    flag_notes = [
        {
            "id": f"flag:{f['provision']}",
            "kind": "flag",
            "kind_label": "Flagged for the city attorney",
            "provisions": [f["provision"]],
            "text": f["text"],
            "reading": f["reading"],
            "applies": {"from": None, "until": None},
        }
        for f in flags
    ]
    return {
        "jurisdiction": j.describe(),
        "incident_date": day.isoformat(),
        "law": {
            "as_of": day.isoformat(),
            "rule": "classification uses the law in force on the incident date",
            "layers": [
                {"pack": layer.id, "name": layer.name, "source": dict(layer.source)} for layer in j.layers
            ],
            "same_law_from": c.compiled.start.isoformat() if c.compiled.start else None,
            "same_law_until": c.compiled.end.isoformat() if c.compiled.end else None,
        },
        "designations": designations,
        "eligible": [r.designation.id for r in c.results if r.status == "eligible"],
        "eligibilities": eligibilities,
        "notes": [d.as_dict() for d in notes] + flag_notes,
    }


@pytest.fixture(scope="module")
def lib(tmp_path_factory) -> Library:
    return Library(install_lakeview(tmp_path_factory.mktemp("packs")))


def _dates(j) -> list[dt.date]:
    """A day on each side of every change of law, and a few ordinary days."""
    days = {dt.date(2015, 6, 1), dt.date(2020, 1, 1), dt.date(2025, 6, 1), dt.date(2026, 3, 2)}
    for boundary in j.boundaries:
        days |= {boundary - dt.timedelta(days=1), boundary}
    return sorted(days)


def _value(fact):
    if fact.type == "bool":
        return st.one_of(st.none(), st.booleans())
    if fact.type == "enum":
        return st.one_of(st.none(), st.sampled_from(fact.ordered_values))
    return st.one_of(st.none(), st.frozensets(st.sampled_from(fact.ordered_values)))


@pytest.mark.parametrize("jurisdiction", ["mn-statute", "battle-lake-mn", "tracy-mn", "lakeview-mn"])
def test_the_cached_rendering_is_the_reference_rendering(lib, jurisdiction):
    j = lib.get(jurisdiction)
    facts = st.fixed_dictionaries({name: _value(f) for name, f in j.facts.facts.items()}).map(
        lambda d: {k: v for k, v in d.items() if v is not None}
    )
    days = _dates(j)
    checked = []

    @settings(max_examples=150, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
    @given(facts=facts, day=st.sampled_from(days))
    def check(facts, day):
        try:
            c = j.classify(facts, day)
        except LawNotInForce:
            return
        expected = reference_as_dict(c)
        assert c.as_dict() == expected
        assert c.as_dict() == expected  # again, from what the first answer cached
        assert json.loads(c.as_json()) == json.loads(json.dumps(expected))
        assert json.loads(c.as_json()) == json.loads(json.dumps(expected))
        checked.append(c)

    check()
    assert len(checked) > 100


def test_a_result_made_without_the_generated_values_renders_the_same(lib):
    j = lib.get("tracy-mn")
    facts = {"bit": True, "victim": "human", "injury": "minor", "place": "public", "provoked": False}
    c = j.classify(facts, dt.date(2025, 6, 1))
    expected = reference_as_dict(c)
    by_hand = tuple(
        DesignationResult(r.designation, r.status, r.matched, r.barred_by, r.missing, r.rules)
        for r in c.results
    )
    made = Classification(j, c.incident_date, c.compiled, by_hand, c.facts)
    assert made.as_dict() == expected
    assert json.loads(made.as_json()) == json.loads(json.dumps(expected))


def test_answers_do_not_share_their_lists(lib):
    j = lib.get("battle-lake-mn")
    first = j.classify({"bit": True}, dt.date(2025, 6, 1)).as_dict()
    second = j.classify({"bit": True}, dt.date(2025, 6, 1)).as_dict()
    first["notes"].append("changed")
    first["designations"][0]["trace"].append("changed")
    assert "changed" not in second["notes"] and "changed" not in second["designations"][0]["trace"]


def test_a_flagged_answer_renders_the_same(lib):
    # a Tracy dog that bit a person committing a crime: 347.51 subd. 5 bars a state declaration, not the
    # vicious classification, and the answer flags it for the city attorney
    j = lib.get("tracy-mn")
    facts = j.facts.parse(
        {"bit": True, "victim": "human", "injury": "minor", "place": "public", "provoked": False}
        | {"victim_conduct": ["committing_crime"], "attacked": True, "law_enforcement_dog": False}
    )
    c = j.classify(facts, dt.date(2025, 6, 1))
    expected = reference_as_dict(c)
    assert any(n["kind"] == "flag" for n in expected["notes"])
    assert c.as_dict() == expected
    assert json.loads(c.as_json()) == json.loads(json.dumps(expected))
