"""Classification: the rules in force on a date, compiled; the answer and its rendering (as_dict, as_json)."""

from __future__ import annotations

import bisect
import datetime as dt
import json
from collections.abc import Mapping
from typing import Any

from . import clock
from .answers import check_date_range, unfreeze
from .errors import LawNotInForce
from .model import ProvisionVersion
from .rules import DesignationResult, Rule, compile_classifier, evaluate


class ClassifierMixin:
    """Jurisdiction's classification (`classify`), one compiled classifier per stretch of unchanged law."""

    def classifier(self, day: dt.date, *, eligibilities: bool = False):
        """The compiled rules in force on `day` (one compiled function per stretch of unchanged law): the
        designations', or with `eligibilities` those of the acts the law allows without a designation (347.56
        destruction; None when the jurisdiction has none)."""
        index = bisect.bisect_right(self.boundaries, day)
        key = (index, eligibilities)
        if key not in self._classifiers:
            self._classifiers[key] = self._compile(day, index, eligibilities)
        return self._classifiers[key]

    def _compile(self, day: dt.date, index: int, eligibilities: bool = False):
        versions = self.versions_on(day)
        if not any(v.effect_kind == "ground" for v in versions):
            raise LawNotInForce(
                "date",
                f"no stored text of {self.name} defines a designation in force on {day.isoformat()}",
            )
        rules: dict[str, Rule] = {}

        def rule_for(version: ProvisionVersion) -> Rule:
            rule = rules.get(version.key)
            if rule is None:
                cond = unfreeze(version.effect["when"])
                rule = Rule(
                    version=version,
                    kind=version.effect_kind,  # type: ignore[arg-type]
                    condition=cond,
                    cited=version.cite(),
                )
                rules[version.key] = rule
            return rule

        # the designations; or the eligibilities (acts allowed without a designation: 347.56)
        order = [
            d
            for layer in self.layers
            for d in (layer.eligibilities if eligibilities else layer.designations).values()
        ]
        if not order:
            return None
        per_designation: list[tuple[Rule, ...]] = []
        for designation in order:
            grounds = [
                rule_for(v)
                for v in versions
                if v.effect_kind == "ground"
                and (v.effect.get("designation") or v.effect.get("eligibility")) == designation.id
            ]
            exemptions = [
                rule_for(v)
                for v in versions
                if v.effect_kind == "exemption" and designation.id in v.effect["bars"]
            ]
            # a state exemption reaches only the designations its own words name (`bars`): never a city
            # designation through state_counterpart (DESIGN.md principle 4; the answer flags it instead)
            per_designation.append(tuple(grounds + exemptions))
        start = self.boundaries[index - 1] if index > 0 else None
        end = self.boundaries[index] if index < len(self.boundaries) else None
        return compile_classifier(tuple(order), tuple(per_designation), start, end)

    def classify(self, facts: Mapping[str, Any], incident_date: dt.date) -> Classification:
        """Every designation the facts support under the law in force on the incident date, and why."""
        if not clock.MIN_DATE <= incident_date <= clock.MAX_DATE:
            check_date_range(incident_date, "incident_date")
        compiled = self.classifier(incident_date)
        return Classification(self, incident_date, compiled, compiled.run(facts), facts)


class Classification:
    """The answer to "what do these facts make this dog, and why?"."""

    __slots__ = ("jurisdiction", "incident_date", "compiled", "results", "facts", "_eligibility_results")

    def __init__(self, jurisdiction, incident_date, compiled, results, facts) -> None:
        self.jurisdiction = jurisdiction  # the Jurisdiction (jurisdiction.py) that answered
        self.incident_date: dt.date = incident_date
        self.compiled = compiled
        self.results: tuple[DesignationResult, ...] = results  # the designations
        self.facts = facts
        self._eligibility_results: tuple[DesignationResult, ...] | None = None

    @property
    def eligibility_results(self) -> tuple[DesignationResult, ...]:
        """The acts the law allows without a designation (347.56 destruction), answered the same way;
        worked out when first asked, so that a caller wanting only the designations does not pay for them."""
        if self._eligibility_results is None:
            acts = self.jurisdiction.classifier(self.incident_date, eligibilities=True)
            self._eligibility_results = acts.run(self.facts) if acts else ()
        return self._eligibility_results

    def result(self, designation_id: str) -> DesignationResult:
        for r in self.results + self.eligibility_results:
            if r.designation.id == designation_id:
                return r
        raise KeyError(designation_id)

    def state_exemption_flags(self) -> list[dict[str, Any]]:
        """State exemptions that apply to these facts but whose words do not reach a designation the facts
        still support (a Tracy dog that bit a person committing a crime: 347.51 subd. 5 bars a state
        dangerous declaration, not a vicious classification). One flag per exemption, for the city attorney."""
        state = self.jurisdiction.state or (
            self.jurisdiction.pack if self.jurisdiction.pack.kind == "state" else None
        )
        if state is None:
            return []
        open_results = [r for r in self.results if r.status in ("eligible", "undetermined")]
        flags: dict[str, dict[str, Any]] = {}
        for r in self.results:
            for rule in r.barred_by:
                version = rule.version
                if version.pack != state.id or rule.key in flags:
                    continue
                bars = list(version.effect["bars"])
                untouched = [o for o in open_results if o.designation.id not in bars]
                if not untouched:
                    continue
                barred = " or ".join(
                    self.jurisdiction.designations[d].label.lower()
                    for d in bars
                    if d in self.jurisdiction.designations
                )
                open_words = ", ".join(o.designation.label.lower() for o in untouched)
                flags[rule.key] = {
                    "provision": rule.key,
                    "citation": version.citation,
                    "bars": bars,
                    "not_reached": [o.designation.id for o in untouched],
                    "text": (
                        f"{version.citation} applies to these facts: it bars a state {barred} declaration. "
                        f"Its words do not reach the {open_words} designation, which the facts may still support."
                    ),
                    "reading": (
                        f"dogcase does not extend {version.citation} beyond the designations it names (DESIGN.md "
                        f"principle 4): a {barred} declaration would be barred; flagged for the city attorney."
                    ),
                }
        return list(flags.values())

    def as_dict(self) -> dict[str, Any]:
        """The answer as JSON-ready data. What depends only on the law in force (each rule's trace step,
        citations, summaries, the notes of the provisions used) is rendered once per compiled classifier and
        shared between answers: read the answer, never change it in place."""
        j = self.jurisdiction
        day = self.incident_date
        flags = self.state_exemption_flags() if any(r.barred_by for r in self.results) else []
        used_keys: dict[str, None] = {}
        designations = [self._rendered(r, "designation", used_keys, flags) for r in self.results]
        eligibilities = [self._rendered(r, "eligibility", used_keys, flags) for r in self.eligibility_results]
        rendering = self.compiled.rendering
        static = rendering.get("static")
        if static is None:
            static = rendering["static"] = (
                j.describe(),
                [{"pack": layer.id, "name": layer.name, "source": dict(layer.source)} for layer in j.layers],
                self.compiled.start.isoformat() if self.compiled.start else None,
                self.compiled.end.isoformat() if self.compiled.end else None,
            )
        describe, layers, same_from, same_until = static
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
            "jurisdiction": describe,
            "incident_date": day.isoformat(),
            "law": {
                "as_of": day.isoformat(),
                "rule": "classification uses the law in force on the incident date",
                "layers": layers,
                "same_law_from": same_from,
                "same_law_until": same_until,
            },
            "designations": designations,
            "eligible": [r.designation.id for r in self.results if r.status == "eligible"],
            # acts the law allows on grounds of their own, with no designation (347.56 destruction)
            "eligibilities": eligibilities,
            "notes": self._notes(tuple(used_keys)) + flag_notes,
        }

    def as_json(self) -> str:
        """The answer as JSON text, the same content as as_dict() (the API sends it as it is): each part is
        encoded once per compiled classifier (a designation's part per rule values and missing facts, the
        notes per date and provisions used) and joined, instead of encoding ~10 KB for every answer."""
        if any(r.barred_by for r in self.results) and self.state_exemption_flags():
            return json.dumps(self.as_dict(), default=_json_default)  # flagged: rare, rendered in full
        rendering = self.compiled.rendering
        day = self.incident_date
        head = rendering.get(("json-head", day))
        if head is None:
            whole = self.as_dict()
            fixed = {k: whole[k] for k in ("jurisdiction", "incident_date", "law")}
            head = _bounded(rendering, ("json-head", day), json.dumps(fixed, default=_json_default)[:-1])
        used_keys: dict[str, None] = {}
        designations = ",".join(self._json_part(r, "designation", used_keys) for r in self.results)
        eligibilities = ",".join(
            self._json_part(r, "eligibility", used_keys) for r in self.eligibility_results
        )
        eligible = json.dumps([r.designation.id for r in self.results if r.status == "eligible"])
        notes_key = ("json-notes", day, tuple(used_keys))
        notes = rendering.get(notes_key)
        if notes is None:
            notes = _bounded(
                rendering, notes_key, json.dumps(self._notes(notes_key[2]), default=_json_default)
            )
        return (
            f'{head}, "designations": [{designations}], "eligible": {eligible}, '
            f'"eligibilities": [{eligibilities}], "notes": {notes}}}'
        )

    def _json_part(self, r: DesignationResult, kind: str, used_keys: dict[str, None]) -> str:
        # the rules' values decide the status, the clauses matched and barring; the missing facts the rest
        key = ("json", kind, r.designation.id, id(r.rules), r.values, r.missing)
        cached = self.compiled.rendering.get(key) if r.values is not None else None
        if cached is None:
            used: dict[str, None] = {}
            part = json.dumps(self._rendered(r, kind, used, []), default=_json_default)
            cached = (part, tuple(used))
            if r.values is not None:
                _bounded(self.compiled.rendering, key, cached)
        for k in cached[1]:
            used_keys[k] = None
        return cached[0]

    def _rendered(self, r: DesignationResult, kind: str, used_keys: dict[str, None], flags) -> dict[str, Any]:
        """One designation's (or eligibility's) part of the answer; adds the provisions it used to
        `used_keys` (a value that is not false: they and their defects are what the answer rests on)."""
        values = r.values
        if values is None:  # a result made by hand, not by the generated code
            values = tuple(_GENERATED_VALUE[evaluate(rule.condition, self.facts)] for rule in r.rules)
        trace = []
        for rule, value in zip(r.rules, values, strict=True):
            trace.append(_trace_steps(self.compiled.rendering, rule)[value])
            if value:
                used_keys[rule.key] = None
        missing = self.jurisdiction.facts.facts
        return {
            kind: r.designation.id,
            "label": r.designation.label,
            "status": r.status,
            "summary": _cached_summary(self.compiled.rendering, r, kind == "eligibility"),
            "matched": [rule.cited for rule in r.matched],
            "barred_by": [rule.cited for rule in r.barred_by],
            "missing_facts": [{"fact": name, "question": missing[name].question} for name in r.missing],
            "trace": trace,
            "flags": [
                {k: f[k] for k in ("provision", "citation", "text", "reading")}
                for f in flags
                if r.designation.id in f["not_reached"]
            ]
            if flags
            else [],
        }

    def _notes(self, used_keys: tuple[str, ...]) -> list[dict[str, Any]]:
        """The defects of the provisions used and the caveats dated to the incident date, rendered once per
        (date, provisions used)."""
        cache = self.compiled.rendering.setdefault("notes", {})
        key = (self.incident_date, used_keys)
        notes = cache.get(key)
        if notes is None:
            j = self.jurisdiction
            defects = j.defects_for(used_keys, self.incident_date)
            for caveat in j.dated_caveats(self.incident_date):
                if caveat not in defects:
                    defects.append(caveat)
            notes = tuple(d.as_dict() for d in defects)
            if len(cache) >= _NOTES_CACHE_SIZE:
                cache.clear()  # a bound, not a policy: many dates and fact mixes simply start again
            cache[key] = notes
        return list(notes)


_NOTES_CACHE_SIZE = 4096
_RENDERING_CACHE_SIZE = 20_000


def _bounded(rendering: dict[Any, Any], key: Any, value: Any) -> Any:
    """Keep `value` under `key`; past a bound the cache starts again (many dates or fact mixes in one
    process must not grow it without end)."""
    if len(rendering) >= _RENDERING_CACHE_SIZE:
        rendering.clear()
    rendering[key] = value
    return value


def _json_default(value: Any) -> Any:
    if isinstance(value, dt.date):  # as the API's encoder writes a date
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


_GENERATED_VALUE = {2: 3, 1: 1, 0: 0}  # evaluate()'s 2/1/0 in the generated code's 3/1/0


def _trace_steps(rendering: dict[Any, Any], rule: Rule) -> dict[int, dict[str, Any]]:
    """A rule's trace step for each of its values (3 applies, 1 unknown, 0 does not apply)."""
    steps = rendering.get(rule)
    if steps is None:
        steps = rendering[rule] = {
            value: {
                "provision": rule.key,
                "citation": rule.version.citation,
                "role": rule.kind,
                "value": words,
            }
            for value, words in ((3, "applies"), (1, "unknown"), (0, "does not apply"))
        }
    return steps


def _cached_summary(rendering: dict[Any, Any], r: DesignationResult, eligibility: bool) -> str:
    # the summary reads the status, the clauses matched or barring, and only how many facts are missing
    key = ("summary", r.designation.id, eligibility, r.status, r.matched, r.barred_by, len(r.missing))
    text = rendering.get(key)
    if text is None:
        text = rendering[key] = _summary(r, eligibility=eligibility)
    return text


def _summary(r: DesignationResult, *, eligibility: bool = False) -> str:
    label = r.designation.label.lower()
    if eligibility:
        return _eligibility_summary(r)
    if r.status == "eligible":
        cites = "; ".join(dict.fromkeys(rule.version.citation for rule in r.matched))
        return f"The facts support declaring the dog a {label} ({cites})."
    if r.status == "barred":
        cites = "; ".join(dict.fromkeys(rule.version.citation for rule in r.barred_by))
        return f"The dog may not be declared a {label}: an exemption applies ({cites})."
    if r.status == "undetermined":
        return f"Not enough facts to say whether the dog is a {label}: {_still_needed(r.missing)}."
    return f"The facts do not meet any clause that defines a {label}."


def _still_needed(missing) -> str:
    """How many answers are missing, in words: the facts themselves are listed with their questions."""
    n = len(missing)
    return "one more answer is needed" if n == 1 else f"{n} more answers are needed"


def _eligibility_summary(r: DesignationResult) -> str:
    label = r.designation.label
    if r.status == "eligible":
        cites = "; ".join(dict.fromkeys(rule.version.citation for rule in r.matched))
        return f"{label} may be sought: the facts meet a ground ({cites}); no designation is needed."
    if r.status == "barred":
        cites = "; ".join(dict.fromkeys(rule.version.citation for rule in r.barred_by))
        return f"{label}: barred, an exemption applies ({cites})."
    if r.status == "undetermined":
        return f"{label}: not enough facts to say: {_still_needed(r.missing)}."
    return f"{label}: the facts meet no ground."
