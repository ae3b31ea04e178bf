"""The procedure's types: a step as a pack writes it and as layered, its conditions and form, a case's state,
and the answers (refusals, verdicts, obligations)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from ..model import InForce
from ..packschema import RETIRED_EVENTS, TEXT_LIMIT

_EMPTY: Mapping[str, Any] = MappingProxyType({})
DEADLINE_TESTS = ("within", "from", "after")
STEP_TESTS = ("done", "not_done")
INPUT_TESTS = ("proven", "seizure_ground", "ground_in", "confirmed", "input_by")
GROUND_TESTS = ("seizure_ground", "ground_in")

# ============================================================================================ definitions


@dataclass(frozen=True)
class Condition:
    """One `requires` entry of a step (or a part of an any/all/not)."""

    test: str
    arg: Any
    provision: str | None = None  # provision key "pack:id"
    why: str | None = None
    code: str | None = None
    parts: tuple[Condition, ...] = ()
    pack: str = ""
    file: str = ""
    line: int = 0

    def key(self) -> tuple:
        """What the condition tests, without its citation: the same test written in two layers is one."""
        if self.parts:
            return (self.test, tuple(p.key() for p in self.parts))
        arg = self.arg
        if isinstance(arg, Mapping):
            arg = tuple(sorted((k, tuple(v) if isinstance(v, list | tuple) else v) for k, v in arg.items()))
        elif isinstance(arg, list | tuple):
            arg = tuple(arg)
        return (self.test, arg)

    def uses_inputs(self) -> bool:
        return self.test in INPUT_TESTS or any(p.uses_inputs() for p in self.parts)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"test": self.test}
        if self.parts:
            out["parts"] = [p.as_dict() for p in self.parts]
        else:
            out["arg"] = _unfreeze(self.arg)
        for key in ("provision", "why", "code"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        return out


@dataclass(frozen=True)
class Input:
    """One field of a step's form."""

    id: str
    kind: str
    label: str
    required: bool = True
    records: tuple[str, ...] = ()
    choices: tuple[str, ...] = ()
    help: str | None = None
    # a text input: the most characters it takes (default packschema.TEXT_LIMIT)
    max_length: int | None = None
    act: str | None = None  # a staff_member input: the act the person named is designated to take
    when: str = "past"  # past: a fact that has happened | future: a date that may lie ahead (scheduled)
    # (yes/no input, events): events this date also records when that input is yes
    records_if: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # (outcome, events): events this date also records when the step's outcome is that one
    records_if_outcome: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # (service method, events): events this date also records when the step's service_method input is that one
    records_if_method: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # on a step with `service_of`: the date of a service attempt it takes ("sent" | "received")
    service_date: str | None = None
    # on a step an owner files (`filed_by_owner`): filed through the portal, this date is the day the owner
    # submits it (the filing is dated when submitted); the owner is not asked for it
    filing_date: bool = False
    # a `jurisdiction` input (where the dog moved to): the designations whose case goes with the dog to a city
    # or county this deployment serves, under `carries_provision` (the new jurisdiction registers the dog)
    carries: tuple[str, ...] = ()
    carries_provision: str | None = None

    @property
    def all_records(self) -> tuple[str, ...]:
        """Every event this input may record: always, when its yes/no input is yes, or on an outcome."""
        return (
            self.records
            + tuple(e for _, events in self.records_if for e in events)
            + tuple(e for _, events in self.records_if_outcome for e in events)
            + tuple(e for _, events in self.records_if_method for e in events)
        )

    @property
    def text_limit(self) -> int:
        """The most characters a text input takes."""
        return self.max_length or TEXT_LIMIT

    @property
    def is_fact(self) -> bool:
        """A date of something that has happened (records an event, not a scheduled date): it may not be
        after the moment the step is recorded nor before the incident, and it can date the step."""
        return (
            bool(self.records or self.records_if or self.records_if_outcome or self.records_if_method)
            and self.kind in ("date", "datetime")
            and self.when != "future"
        )

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind,
            "label": self.label,
            "required": self.required,
            "records": list(self.records),
            "when": self.when,
        }
        if self.records_if:
            out["records_if"] = {flag: list(events) for flag, events in self.records_if}
        if self.records_if_outcome:
            out["records_if_outcome"] = {o: list(events) for o, events in self.records_if_outcome}
        if self.kind == "text":
            out["max_length"] = self.text_limit
        if self.act:
            out["act"] = self.act
        if self.records_if_method:
            out["records_if_method"] = {m: list(events) for m, events in self.records_if_method}
        if self.choices:
            out["choices"] = list(self.choices)
        if self.help:
            out["help"] = self.help
        if self.service_date:
            out["service_date"] = self.service_date
        if self.filing_date:
            out["filing_date"] = True
        return out


# The check a step that serves notices gets by itself (it replaced the `notice_elements` tick boxes): the
# element values ("<provision key>/<element id>") that the documents issued with the step contain.
CONTENTS_INPUT = "contents"
# the id of every `staff_member` input: the events that designated a person are indexed by it
# (cases.models.HEARING_OFFICER_OF_STEP, index event_hearing_officer)
DESIGNATED_INPUT = "hearing_officer"
CONTENTS_LABEL = "What the documents issued with this step contain (every element the law requires)"


@dataclass(frozen=True)
class StepOutcome:
    """What a step's event says happened (`outcome:` in the pack, docs/law-packs.md): one past-tense sentence
    without its date ("The City Council confirmed the designation"), or one per choice of the input `by`
    names, with `otherwise` for the choices not written. A `{input}` in a sentence is said as that input's
    choice in words (the ground of a seizure)."""

    text: str | None = None  # the sentence, or the one for the choices `variants` does not name
    by: str | None = None  # the input whose choice picks the sentence
    variants: Mapping[str, str] = field(default_factory=lambda: _EMPTY)  # choice -> sentence

    def sentence(self, inputs: Mapping[str, Any]) -> str | None:
        """The sentence for the step taken with `inputs` (its placeholders not yet filled); None when the
        choice has no sentence of its own and there is no `otherwise`."""
        if self.by is not None:
            chosen = inputs.get(self.by)
            if chosen is not None and str(chosen) in self.variants:
                return self.variants[str(chosen)]
        return self.text

    def sentences(self) -> tuple[str, ...]:
        """Every sentence it may say."""
        return tuple(dict.fromkeys([*self.variants.values(), *([self.text] if self.text else [])]))


@dataclass(frozen=True)
class StepDef:
    """A step as one pack writes it (before layering)."""

    pack: str
    layer: str  # state | city
    id: str
    label: str
    act: str
    phase: str | None
    for_: tuple[str, ...] | None
    provisions: tuple[str, ...]  # provision keys
    repeatable: bool
    opens_case: bool
    documents: tuple[str, ...]
    roles: tuple[str, ...]
    undeclared: bool  # also applies to a case not declared (347.56 destruction needs no designation)
    filed_by_owner: bool  # the owner may file it themselves (the portal: acts.take_owner_step)
    concerns: str  # "case" (the dog's case) | "person" (347.542: the ban follows a person's conviction)
    reading: str | None
    administrative: bool
    requires: tuple[Condition, ...]
    inputs: tuple[Input, ...]
    records: tuple[str, ...]
    satisfies: tuple[str, ...]
    closes_case: bool | tuple[str, ...]
    ends_designation: bool | tuple[str, ...]
    dated_by: str | None  # the input whose value is the step's legal date, or "at"; None: the default rule
    notes: tuple[tuple[str, str | None], ...]  # (text, provision key)
    imposes: tuple[tuple[str, str | None, str | None], ...]  # (requirement, until step, provision key)
    in_force: InForce
    file: str
    line: int
    key_lines: Mapping[str, int] = field(default_factory=lambda: _EMPTY)
    service_of: str | None = None  # the step records a further service (or receipt) of that step's notice
    outcome: StepOutcome | None = None  # what its event says happened (`outcome:`)

    def line_of(self, key: str) -> int:
        return self.key_lines.get(key, self.line)

    def outcomes(self) -> tuple[str, ...]:
        for item in self.inputs:
            if item.kind == "outcome":
                return item.choices
        return ()


# ============================================================================================ the API types


@dataclass(frozen=True)
class Actor:
    """The person taking a step: an id (the same id across the case) and the pack roles they hold."""

    id: str
    roles: frozenset[str] = frozenset()


@dataclass(frozen=True)
class TakenStep:
    """A step already taken in the case, as stored (after corrections)."""

    step: str
    at: dt.datetime
    actor: str
    outcome: str | None = None
    events: Mapping[str, dt.date | dt.datetime] = field(default_factory=lambda: _EMPTY)
    inputs: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)

    def __post_init__(self) -> None:
        # a step stored under a retired event name is read as its successor; the successor, when the step
        # recorded it too, wins (it was the later date: "the hearing closed, if later")
        if any(name in RETIRED_EVENTS for name in self.events):
            events = {RETIRED_EVENTS.get(k, k): v for k, v in self.events.items() if k not in RETIRED_EVENTS}
            for old, new in RETIRED_EVENTS.items():
                if old in self.events:
                    events.setdefault(new, self.events[old])
            object.__setattr__(self, "events", MappingProxyType(events))


@dataclass(frozen=True)
class CaseState:
    """What the law needs to know about a case: its designation, incident date and the steps taken."""

    designation: str | None
    incident_date: dt.date
    taken: tuple[TakenStep, ...] = ()
    settings: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)
    # facts of the records that start a time, not recorded by a step: {event: date} (the last day of the bond
    # or insurance on file, `coverage_ends`)
    recorded: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)

    def ordered(self) -> list[TakenStep]:
        """The steps in the order they were taken (stable for equal instants)."""
        return sorted(self.taken, key=lambda t: t.at)

    @property
    def events(self) -> dict[str, dt.date | dt.datetime]:
        """Every event of the case: the incident, then what each step recorded (the latest step wins)."""
        out: dict[str, dt.date | dt.datetime] = {"incident": self.incident_date, **self.recorded}
        for taken in self.ordered():
            out.update(taken.events)
        return out


@dataclass(frozen=True)
class Step:
    """A step of the layered procedure, as in force on one day."""

    id: str
    label: str
    act: str
    phase: str | None
    layer: str  # city | state | city+state
    for_: tuple[str, ...] | None
    provisions: tuple[dict[str, Any], ...]
    roles: frozenset[str]
    roles_reading: str | None
    impartial: bool
    final: bool
    inputs: tuple[Input, ...]
    records: tuple[str, ...]
    satisfies: tuple[str, ...]
    documents: tuple[str, ...]
    requires: tuple[Condition, ...]
    repeatable: bool
    opens_case: bool
    closes_case: bool | tuple[str, ...]
    ends_designation: bool | tuple[str, ...]
    administrative: bool = False
    notes: tuple[dict[str, Any], ...] = ()
    imposes: tuple[tuple[str, str | None, str | None], ...] = ()
    roles_by_designation: Mapping[str, frozenset[str]] = field(default_factory=lambda: _EMPTY)
    authority: Mapping[str, tuple[dict[str, Any], ...]] = field(default_factory=lambda: _EMPTY)
    impartial_by_designation: Mapping[str, dict[str, Any] | None] = field(default_factory=lambda: _EMPTY)
    final_by_designation: Mapping[str, bool] = field(default_factory=lambda: _EMPTY)
    layers: tuple[str, ...] = ()  # the packs that wrote it
    dated_by: str | None = None  # as written (`dated_by:`); see legal_input
    undeclared: bool = False  # also applies to a case not declared
    # the step as a case not declared runs it, where it differs: a city step without `undeclared` that
    # replaces a state step with it reaches only the designations it names, so a case with none runs the
    # state's step alone — its form, conditions, events and authority (see for_designation)
    undeclared_step: Step | None = None
    # "person": the step concerns a person, not the dog's case (347.542 ownership ban): it applies whatever
    # the designation, declared or not, and may be taken after the dog's case closed or its designation ended
    concerns: str = "case"
    # who each notice the step serves is addressed to: {notice, for, rule, words, provision}
    recipients: tuple[dict[str, Any], ...] = ()
    # the step records a further service (or the receipt) of the notice that step issued
    service_of: str | None = None
    # the owner may file it themselves, through the portal (acts.take_owner_step)
    filed_by_owner: bool = False
    # what its event says happened (`outcome:`), the city's where it writes one
    outcome: StepOutcome | None = None

    @property
    def legal_input(self) -> Input | None:
        """The input whose value is the step's legal date (the date of the fact the step records): the one
        `dated_by` names, else the first input that records a past fact; None: the step is dated by `at`."""
        if self.dated_by == "at":
            return None
        for item in self.inputs:
            if item.is_fact and (self.dated_by is None or item.id == self.dated_by):
                return item
        return None

    def for_designation(self, designation: str | None) -> Step:
        """The step as a case with this designation runs it: on a case not declared, the layers whose step
        reaches such a case (`undeclared_step`), where they differ from the layered step."""
        if designation is None and self.undeclared_step is not None:
            return self.undeclared_step
        return self

    def applies_to(self, designation: str | None) -> bool:
        if self.concerns == "person":
            return True
        if self.opens_case:
            return designation is None
        if designation is None:
            return self.undeclared
        return self.for_ is None or designation in self.for_

    def closes_on(self, outcome: str | None) -> bool:
        return _flag(self.closes_case, outcome)

    def ends_on(self, outcome: str | None) -> bool:
        return _flag(self.ends_designation, outcome)

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "label": self.label,
            "act": self.act,
            "phase": self.phase,
            "layer": self.layer,
            "layers": list(self.layers),
            "for": list(self.for_) if self.for_ is not None else None,
            "provisions": [dict(p) for p in self.provisions],
            "roles": sorted(self.roles),
            "roles_by_designation": {k: sorted(v) for k, v in self.roles_by_designation.items()},
            "roles_reading": self.roles_reading,
            "impartial": self.impartial,
            "final": self.final,
            "administrative": self.administrative,
            "inputs": [i.as_dict() for i in self.inputs],
            "records": list(self.records),
            "satisfies": list(self.satisfies),
            "documents": list(self.documents),
            "requires": [c.as_dict() for c in self.requires],
            "repeatable": self.repeatable,
            "opens_case": self.opens_case,
            "undeclared": self.undeclared,
            "undeclared_layers": list(self.undeclared_step.layers) if self.undeclared_step else None,
            "concerns": self.concerns,
            "closes_case": _flag_dict(self.closes_case),
            "ends_designation": _flag_dict(self.ends_designation),
            "notes": [dict(n) for n in self.notes],
            "dated_by": self.legal_input.id if self.legal_input else "at",
            "recipients": [dict(r) for r in self.recipients],
            "filed_by_owner": self.filed_by_owner,
        }


@dataclass(frozen=True)
class Refusal:
    """Why a step may not be taken: plain English, the provision that says so, and a stable code."""

    reason: str
    provision: dict[str, Any] | None
    code: str

    def as_dict(self) -> dict[str, Any]:
        return {"reason": self.reason, "provision": self.provision, "code": self.code}


@dataclass(frozen=True)
class Verdict:
    """May this person take this step now? Allowed, or refused with every reason."""

    allowed: bool
    refusals: tuple[Refusal, ...]
    step: Step
    needs_inputs: tuple[str, ...] = ()  # conditions that depend on the form, not checked without inputs
    notes: tuple[str, ...] = ()

    @property
    def codes(self) -> list[str]:
        return [r.code for r in self.refusals]

    def as_dict(self) -> dict[str, Any]:
        return {
            "step": self.step.id,
            "label": self.step.label,
            "allowed": self.allowed,
            "refusals": [r.as_dict() for r in self.refusals],
            "needs_inputs": list(self.needs_inputs),
            "notes": list(self.notes),
        }


@dataclass(frozen=True)
class Obligation:
    """Something owed in the case: a deadline of the law with its due date, or a duty a step imposed."""

    deadline_id: str | None
    who: str
    kind: str  # due | not_before | window | ongoing
    what: str
    due: dt.date | dt.datetime | None
    status: str  # open | met | overdue | lapsed | not_yet | available | withdrawn | undetermined
    met_by: str | None = None
    late: bool = False
    citations: tuple[dict[str, Any], ...] = ()
    rule: str = ""
    consequences: tuple[dict[str, Any], ...] = ()
    notes: tuple[dict[str, Any], ...] = ()
    answer: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)
    reason: str | None = None
    requirement: str | None = None
    right: bool = False  # the owner's right: unused at the end of its time it is `lapsed`, not `overdue`

    def as_dict(self) -> dict[str, Any]:
        return {
            "deadline_id": self.deadline_id,
            "requirement": self.requirement,
            "who": self.who,
            "kind": self.kind,
            "right": self.right,
            "what": self.what,
            "due": self.due.isoformat() if self.due else None,
            "status": self.status,
            "met_by": self.met_by,
            "late": self.late,
            "citations": [dict(c) for c in self.citations],
            "rule": self.rule,
            "consequences": [dict(c) for c in self.consequences],
            "notes": [dict(n) for n in self.notes],
            "reason": self.reason,
        }


def _flag(value: bool | tuple[str, ...], outcome: str | None) -> bool:
    if isinstance(value, tuple):
        return outcome in value
    return bool(value)


def _flag_dict(value: bool | tuple[str, ...]) -> bool | dict[str, list[str]]:
    return {"outcomes": list(value)} if isinstance(value, tuple) else value


def _unfreeze(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _unfreeze(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [_unfreeze(v) for v in value]
    return value
