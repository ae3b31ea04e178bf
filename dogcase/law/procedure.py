"""Procedure as law data (docs/procedure.md): the steps of a case, who may take each, and what is owed.

Pure Python. A pack's `procedure:` is parsed here into `StepDef`s (checked within the pack by the loader);
`ProcedureEngine` layers the state's and the city's steps for one jurisdiction, checks every reference
across the layers, and answers "may this person take this step now?" (`check_step`) and "what is owed, by
whom, by when?" (`obligations`). Every refusal is plain English with the provision that makes it so.
"""

from __future__ import annotations

import bisect
import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from . import clock
from .errors import InputError, PackError
from .model import InForce, ProvisionVersion, Withdrawal
from .packschema import (
    RECIPIENT_RULES,
    RETIRED_EVENTS,
    SERVICE_METHOD,
    SERVICE_METHODS,
    TEXT_LIMIT,
    TEXT_LIMIT_MAX,
)
from .schema import Where

if TYPE_CHECKING:  # pragma: no cover
    from .jurisdiction import Jurisdiction

__all__ = [
    "Actor",
    "CaseState",
    "Condition",
    "Input",
    "Obligation",
    "Refusal",
    "Step",
    "TakenStep",
    "Verdict",
]

_EMPTY: Mapping[str, Any] = MappingProxyType({})
_DEADLINE_TESTS = ("within", "from", "after")
_STEP_TESTS = ("done", "not_done")
_INPUT_TESTS = ("proven", "seizure_ground", "ground_in", "confirmed", "input_by")
_GROUND_TESTS = ("seizure_ground", "ground_in")
_DEFAULT_CODES = {
    "done": "missing_step",
    "not_done": "already_taken",
    "within": "too_late",
    "from": "not_yet",
    "after": "waiting",
    "outcome": "outcome",
    "not_outcome": "outcome",
    "proven": "not_proven",
    "seizure_ground": "no_ground",
    "ground_in": "no_ground",
    "confirmed": "not_proven",
    "prohibited": "prohibited",
    "last": "wrong_state",
    "not": "wrong_state",
    "ground_of": "wrong_state",
    "input_by": "too_late",
    "recorded": "missing_step",
}
_ACT_WORDS = {
    "seize": "seizure",
    "impound": "impoundment",
    "order_impoundment": "an impoundment order",
}


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
        return self.test in _INPUT_TESTS or any(p.uses_inputs() for p in self.parts)

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

    def line_of(self, key: str) -> int:
        return self.key_lines.get(key, self.line)

    def outcomes(self) -> tuple[str, ...]:
        for item in self.inputs:
            if item.kind == "outcome":
                return item.choices
        return ()


def parse_procedure(raw: Any, where: Where, pack_id: str, layer: str, default_in_force: InForce):
    """The `procedure:` list of one pack, checked within the pack (references across layers are checked
    when the jurisdiction is built)."""
    steps: list[StepDef] = []
    seen: dict[str, int] = {}
    lines = raw.item_lines if hasattr(raw, "item_lines") else []
    for index, item in enumerate(raw):
        line = lines[index] if index < len(lines) else where.line
        here = Where(where.file, line, f"{where.path}[{index}]")
        sid = item["id"]
        if sid in seen:
            raise here.at("id", item.line_of("id")).fail(
                f"step id {sid!r} is used twice (first at line {seen[sid]})"
            )
        seen[sid] = line or 0
        if ("roles" in item) != ("reading" in item):
            missing = "reading" if "roles" in item else "roles"
            raise here.fail(
                f"step {sid!r}: roles and reading go together (roles only where no provision says who acts, "
                f"with reading: dogcase's reading of the text); {missing} is missing"
            )
        inputs: list[Input] = []
        input_ids: set[str] = set()
        for i_index, raw_input in enumerate(item.get("inputs", ())):
            iwhere = here.at("inputs", item.line_of("inputs")).at(i_index, item["inputs"].line_of(i_index))
            if raw_input["id"] in input_ids:
                raise iwhere.fail(f"input {raw_input['id']!r} is listed twice")
            input_ids.add(raw_input["id"])
            kind = raw_input["kind"]
            if kind == "outcome" and "choices" not in raw_input:
                raise iwhere.fail("an outcome input needs choices")
            if "choices" in raw_input and kind != "outcome":
                raise iwhere.fail(
                    f"choices are for outcome inputs; a {kind} input takes its choices from the law"
                )
            records = raw_input.get("records", ())
            records = (records,) if isinstance(records, str) else tuple(records)
            if records and kind not in ("date", "datetime"):
                raise iwhere.fail(f"only a date or datetime input records an event; this one is {kind}")
            if raw_input["id"] == CONTENTS_INPUT:
                raise iwhere.fail(
                    f"the input id {CONTENTS_INPUT!r} is dogcase's own: a step that serves a notice or issues a "
                    "document gets it by itself, filled with what the documents issued contain (docs/procedure.md)"
                )
            for key in ("records_if", "records_if_outcome", "records_if_method"):
                if key in raw_input and kind not in ("date", "datetime"):
                    raise iwhere.fail(f"only a date or datetime input records an event; this one is {kind}")
            if "max_length" in raw_input and (
                kind != "text" or not 1 <= raw_input["max_length"] <= TEXT_LIMIT_MAX
            ):
                raise iwhere.fail(f"max_length is for a text input, from 1 to {TEXT_LIMIT_MAX:,} characters")
            if (kind == "staff_member") != ("act" in raw_input):
                raise iwhere.fail(
                    "a staff_member input names the act the person is designated to take (act:)"
                )
            if kind == "staff_member" and raw_input["id"] != DESIGNATED_INPUT:
                raise iwhere.fail(
                    f"a staff_member input has the id {DESIGNATED_INPUT!r}, not {raw_input['id']!r}: the "
                    "designated person's own list (the hearings they are to hold) finds the steps that "
                    "designated them by that id"
                )
            if "when" in raw_input and not records:
                raise iwhere.fail(
                    "when: is for a date or datetime input that records an event (past: a fact; future: a "
                    "scheduled date)"
                )
            inputs.append(
                Input(
                    id=raw_input["id"],
                    kind=kind,
                    label=raw_input["label"],
                    required=raw_input.get("required", True),
                    records=records,
                    choices=tuple(raw_input.get("choices", ())),
                    help=raw_input.get("help"),
                    max_length=raw_input.get("max_length"),
                    act=raw_input.get("act"),
                    when=raw_input.get("when", "past"),
                    records_if=tuple(
                        (flag, tuple(evs)) for flag, evs in raw_input.get("records_if", {}).items()
                    ),
                    records_if_outcome=tuple(
                        (o, tuple(evs)) for o, evs in raw_input.get("records_if_outcome", {}).items()
                    ),
                    records_if_method=tuple(
                        (m, tuple(evs)) for m, evs in raw_input.get("records_if_method", {}).items()
                    ),
                    service_date=raw_input.get("service_date"),
                    filing_date=raw_input.get("filing_date", False),
                )
            )
        for i_index, inp in enumerate(inputs):
            for flag, _events in inp.records_if:
                if not any(i.id == flag and i.kind == "bool" for i in inputs):
                    iwhere = here.at("inputs", item.line_of("inputs")).at(
                        i_index, item["inputs"].line_of(i_index)
                    )
                    raise iwhere.fail(
                        f"input {inp.id!r}: records_if names {flag!r}, which is not a yes/no input of this step"
                    )
        for i_index, inp in enumerate(inputs):
            if not inp.records_if_method:
                continue
            iwhere = here.at("inputs", item.line_of("inputs")).at(i_index, item["inputs"].line_of(i_index))
            if not any(i.kind == "service_method" for i in inputs):
                raise iwhere.fail(
                    f"input {inp.id!r}: records_if_method needs a service_method input in this step"
                )
            for method, _events in inp.records_if_method:
                if method not in SERVICE_METHOD.allowed():
                    raise iwhere.fail(
                        f"input {inp.id!r}: records_if_method names {method!r}, not a service method "
                        f"({', '.join(SERVICE_METHOD.allowed())})"
                    )
        for i_index, inp in enumerate(inputs):
            if inp.service_date and (inp.kind != "date" or "service_of" not in item):
                iwhere = here.at("inputs", item.line_of("inputs")).at(
                    i_index, item["inputs"].line_of(i_index)
                )
                raise iwhere.fail(
                    f"input {inp.id!r}: service_date is for a date input of a step with service_of: (the step "
                    "that records a further service or the receipt of a notice)"
                )
        if "service_of" in item and not any(i.service_date for i in inputs):
            raise here.at("service_of", item.line_of("service_of")).fail(
                f"step {sid!r} records a service of {item['service_of']!r}: one of its date inputs needs "
                "service_date: sent or received"
            )
        if sum(1 for i in inputs if i.kind == "outcome") > 1:
            raise here.fail(f"step {sid!r} has more than one outcome input")
        step_outcomes = next((i.choices for i in inputs if i.kind == "outcome"), ())
        for i_index, inp in enumerate(inputs):
            for wanted, _events in inp.records_if_outcome:
                if wanted not in step_outcomes:
                    iwhere = here.at("inputs", item.line_of("inputs")).at(
                        i_index, item["inputs"].line_of(i_index)
                    )
                    raise iwhere.fail(
                        f"input {inp.id!r}: records_if_outcome names {wanted!r}, which is not an outcome of "
                        f"this step (its outcomes: {', '.join(step_outcomes) or 'none'})"
                    )
        dated_by = item.get("dated_by")
        if dated_by is not None and dated_by != "at":
            target = next((i for i in inputs if i.id == dated_by), None)
            if target is None or not target.is_fact:
                raise here.at("dated_by", item.line_of("dated_by")).fail(
                    f"step {sid!r}: dated_by: {dated_by!r} must name a date or datetime input of the step that "
                    "records an event and is not when: future (or be `at`, the moment the step is recorded)"
                )
        if item.get("opens_case") and not any(i.kind == "designation" for i in inputs):
            raise here.fail(f"step {sid!r} opens the case: it needs a designation input")
        if item.get("opens_case") and (item.get("undeclared") or item.get("concerns") == "person"):
            raise here.fail(f"step {sid!r}: an opening step applies only to a case not declared")
        if item.get("concerns") == "person" and ("for" in item or item.get("closes_case")):
            raise here.fail(
                f"step {sid!r} concerns a person: it applies to every case whatever the designation (no for:) "
                "and does not close the dog's case"
            )
        outcomes = next((i.choices for i in inputs if i.kind == "outcome"), ())
        flags: dict[str, bool | tuple[str, ...]] = {}
        for key in ("closes_case", "ends_designation"):
            value = item.get(key, False)
            if isinstance(value, Mapping):
                wanted = tuple(value["outcomes"])
                unknown = [o for o in wanted if o not in outcomes]
                if unknown:
                    raise here.at(key, item.line_of(key)).fail(
                        f"step {sid!r} has no outcome {unknown[0]!r}; its outcomes: {', '.join(outcomes) or 'none'}"
                    )
                value = wanted
            flags[key] = value

        def ref(value: str, at: Where) -> str:
            return value if ":" in value else f"{pack_id}:{value}"

        conditions = tuple(
            _parse_condition(
                c,
                Where(here.file, getattr(c, "line", line), f"{here.path}.requires[{ci}]"),
                pack_id,
                ref,
            )
            for ci, c in enumerate(item.get("requires", ()))
        )
        for c in _walk(conditions):
            if c.test == "confirmed" and not any(i.id == c.arg and i.kind == "bool" for i in inputs):
                raise Where(here.file, c.line or line, here.path).fail(
                    f"step {sid!r}: confirmed: {c.arg!r} must name a bool input of the step"
                )
            if c.test == "input_by" and not any(
                i.id == c.arg["input"] and i.kind in ("date", "datetime") for i in inputs
            ):
                raise Where(here.file, c.line or line, here.path).fail(
                    f"step {sid!r}: input_by: {c.arg['input']!r} must name a date or datetime input of the step"
                )
        for inp_test in ("proven", "seizure_ground", "ground_in"):
            if any(_mentions(c, inp_test) for c in conditions):
                kind = {
                    "proven": "proofs",
                    "seizure_ground": "seizure_ground",
                    "ground_in": "seizure_ground",
                }[inp_test]
                if not any(i.kind == kind for i in inputs):
                    raise here.fail(f"step {sid!r} requires {inp_test}: it needs an input of kind {kind}")
        steps.append(
            StepDef(
                pack=pack_id,
                layer=layer,
                id=sid,
                label=" ".join(item["label"].split()),
                act=item["act"],
                phase=item.get("phase"),
                for_=tuple(item["for"]) if "for" in item else None,
                provisions=tuple(ref(p, here) for p in item.get("provisions", ())),
                repeatable=item.get("repeatable", False),
                opens_case=item.get("opens_case", False),
                undeclared=item.get("undeclared", False),
                filed_by_owner=item.get("filed_by_owner", False),
                concerns=item.get("concerns", "case"),
                documents=tuple(item.get("documents", ())),
                service_of=item.get("service_of"),
                roles=tuple(item.get("roles", ())),
                reading=" ".join(item["reading"].split()) if "reading" in item else None,
                administrative=item.get("administrative", False),
                requires=conditions,
                inputs=tuple(inputs),
                records=tuple(item.get("records", ())),
                satisfies=tuple(item.get("satisfies", ())),
                closes_case=flags["closes_case"],  # type: ignore[arg-type]
                ends_designation=flags["ends_designation"],  # type: ignore[arg-type]
                dated_by=dated_by,
                notes=tuple(
                    (" ".join(n["text"].split()), ref(n["provision"], here) if "provision" in n else None)
                    for n in item.get("notes", ())
                ),
                imposes=tuple(
                    (
                        imp["requirement"],
                        imp.get("until"),
                        ref(imp["provision"], here) if "provision" in imp else None,
                    )
                    for imp in item.get("imposes", ())
                ),
                in_force=_step_in_force(item.get("in_force"), default_in_force, here),
                file=where.file,
                line=line or 0,
                key_lines=MappingProxyType(dict(getattr(item, "key_lines", {}))),
            )
        )
    return tuple(steps)


def _step_in_force(raw: Any, default: InForce, where: Where) -> InForce:
    if not raw:
        return default
    start = raw["from"] if "from" in raw else default.start
    end = raw["until"] if "until" in raw else default.end
    if start is not None and end is not None and not start < end:
        raise where.fail(f"in force from {start} must be before until {end}")
    return InForce(start, end)


def _walk(conditions: Iterable[Condition]):
    for c in conditions:
        yield c
        yield from _walk(c.parts)


def _mentions(cond: Condition, test: str) -> bool:
    return cond.test == test or any(_mentions(p, test) for p in cond.parts)


def _parse_condition(raw: Any, where: Where, pack_id: str, ref) -> Condition:
    test = next(k for k in raw if k not in ("provision", "why", "code"))
    arg = raw[test]
    parts: tuple[Condition, ...] = ()
    if test in ("any", "all"):
        parts = tuple(
            _parse_condition(
                p,
                Where(where.file, getattr(p, "line", where.line), f"{where.path}.{test}[{i}]"),
                pack_id,
                ref,
            )
            for i, p in enumerate(arg)
        )
        arg = None
    elif test == "not":
        parts = (
            _parse_condition(
                arg, Where(where.file, getattr(arg, "line", where.line), f"{where.path}.not"), pack_id, ref
            ),
        )
        arg = None
    elif isinstance(arg, Mapping):
        arg = MappingProxyType({k: tuple(v) if isinstance(v, list) else v for k, v in arg.items()})
    elif isinstance(arg, list):
        arg = tuple(arg)
    return Condition(
        test=test,
        arg=arg,
        provision=ref(raw["provision"], where) if "provision" in raw else None,
        why=" ".join(raw["why"].split()) if "why" in raw else None,
        code=raw.get("code"),
        parts=parts,
        pack=pack_id,
        file=where.file,
        line=where.line or 0,
    )


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

    def ordered(self) -> list[TakenStep]:
        """The steps in the order they were taken (stable for equal instants)."""
        return sorted(self.taken, key=lambda t: t.at)

    @property
    def events(self) -> dict[str, dt.date | dt.datetime]:
        """Every event of the case: the incident, then what each step recorded (the latest step wins)."""
        out: dict[str, dt.date | dt.datetime] = {"incident": self.incident_date}
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


# ============================================================================================ the engine


class ProcedureEngine:
    """The layered procedure of one jurisdiction, checked as a whole when built."""

    def __init__(self, j: Jurisdiction) -> None:
        self.j = j
        self.defs: dict[str, list[StepDef]] = {}  # step id -> [state def, city def] as present
        state_defs = {d.id: d for d in (j.state.procedure if j.state else ())}
        city_defs = {d.id: d for d in j.pack.procedure} if j.state else {}
        if not j.state:
            state_defs = {d.id: d for d in j.pack.procedure}
        # the city's order; a state-only step goes right after the state step that precedes it
        order = list(city_defs) if city_defs else list(state_defs)
        if city_defs:
            previous = None
            for sid in state_defs:
                if sid not in order:
                    order.insert(order.index(previous) + 1 if previous in order else 0, sid)
                previous = sid
        for sid in order:
            self.defs[sid] = [d for d in (state_defs.get(sid), city_defs.get(sid)) if d is not None]
        # state steps a city withdraws (`withdraws:`): gone for the designations it names, and kept (for
        # reference) in `withdrawn`
        self.withdrawn: dict[str, tuple[StepDef, Withdrawal]] = {}
        self._withdrawn_deadlines: dict[str, list[Withdrawal]] = {}
        self._withdrawals = tuple(j.pack.withdraws) if j.state else ()
        self._requirements = self._index_effect("requirement")
        self._prohibitions = self._index_effect("prohibition")
        self._triggers = self._index_effect("seizure_trigger")
        self._notices = self._index_effect("notice")
        # the documents (docs/law-packs.md, "Documents"): which notices each carries (a city document of a state
        # document's id carries the state's notices too) and which steps issue it (issued_by)
        self._doc_notices: dict[str, tuple[str, ...]] = {}
        self._doc_issuers: dict[str, dict[str, set[str]]] = {}  # document -> pack -> steps
        for layer in j.layers:
            for doc in layer.documents:
                replaced = [n for r in doc.replaces for n in self._doc_notices.get(r, ())]
                self._doc_notices[doc.id] = tuple(
                    dict.fromkeys((*self._doc_notices.get(doc.id, ()), *doc.notices, *replaced))
                )
                self._doc_issuers.setdefault(doc.id, {}).setdefault(doc.pack, set()).update(doc.issued_by)
        self._deadline_ids = set(j.deadline_ids())
        # notice elements required only when a condition holds for the case (`when:` on an element)
        self._element_conditions: dict[tuple[int, str], Condition] = {}
        for versions in self._notices.values():
            for v in versions:
                for index, element in enumerate(v.effect.get("elements") or ()):
                    if "when" in element:
                        self._element_conditions[(id(v), element["id"])] = _parse_condition(
                            element["when"],
                            Where(
                                v.file,
                                v.element_lines.get(element["id"]) or v.effect_line or v.line,
                                f"provision {v.id}.notice.elements[{index}].when",
                            ),
                            v.pack,
                            lambda value, at, pack=v.pack: value if ":" in value else f"{pack}:{value}",
                        )
        self._apply_withdrawals(state_defs, city_defs)
        self._check()
        self._cache: dict[int, dict[str, Step]] = {}
        days: set[dt.date] = set(j._boundaries)
        for defs in self.defs.values():
            for d in defs:
                for day in (d.in_force.start, d.in_force.end):
                    if day is not None:
                        days.add(day)
        self._days = sorted(days)

    # ----------------------------------------------------------------------------------- structure

    def _index_effect(self, kind: str) -> dict[str, list[ProvisionVersion]]:
        out: dict[str, list[ProvisionVersion]] = {}
        for version in self.j.all_versions():
            if version.effect_kind == kind:
                out.setdefault(version.effect["id"], []).append(version)
        return out

    def _provision_exists(self, key: str) -> bool:
        pack_id, _, pid = key.partition(":")
        for layer in self.j.layers:
            if layer.id == pack_id:
                return pid in layer.provisions
        return False

    def _owner_rights(self, state_defs: Mapping[str, StepDef]) -> dict[str, dict[str, list[str]]]:
        """The state steps that are an owner's right, per designation, with the provisions that make them so:
        a step that satisfies a state deadline marked `right: true` (the owner's time to use a right), a step
        whose act the state gives to an impartial decision maker (347.541's hearing and decision), and every
        step such a step requires to have been done (`done:`), without which the right cannot be used."""
        state = self.j.state
        if state is None:
            return {}
        right_cites: dict[str, list[ProvisionVersion]] = {}
        for provision in state.provisions.values():
            for v in provision.versions:
                if v.effect_kind == "deadline" and v.effect.get("right") and v.effect["who"] == "owner":
                    right_cites.setdefault(v.effect["id"], []).append(v)
        out: dict[str, dict[str, list[str]]] = {}
        for sid, d in state_defs.items():
            for des in d.for_ or tuple(state.designations):
                reasons = [
                    f"the owner's right to {v.effect['what']} ({v.citation})"
                    for did in d.satisfies
                    for v in right_cites.get(did, ())
                    if v.effect.get("for") is None or des in v.effect["for"]
                ]
                reasons += [
                    f"the owner's hearing before an impartial decision maker ({v.citation})"
                    for v in self._all_authority_any_day(d.act, des, state_only=True)
                    if v.effect.get("impartial")
                ]
                if reasons:
                    out.setdefault(sid, {})[des] = list(dict.fromkeys(reasons))
        changed = True
        while changed:  # a step a right needs done first is part of the right
            changed = False
            for sid, per in list(out.items()):
                for c in _walk(state_defs[sid].requires):
                    if c.test != "done" or c.arg not in state_defs:
                        continue
                    for des, reasons in per.items():
                        if des in out.get(c.arg, {}):
                            continue
                        first = reasons[0].split("; needed before")[0]
                        out.setdefault(c.arg, {})[des] = [f"{first}; needed before “{state_defs[sid].label}”"]
                        changed = True
        return out

    def _all_authority_any_day(
        self, act: str, designation: str, *, state_only: bool
    ) -> list[ProvisionVersion]:
        layers = self.j.layers[:1] if state_only else self.j.layers
        return [
            v
            for layer in layers
            for provision in layer.provisions.values()
            for v in provision.versions
            if v.effect_kind == "authority"
            and v.effect["act"] == act
            and (v.effect.get("designations") is None or designation in v.effect["designations"])
        ]

    def _apply_withdrawals(self, state_defs: Mapping[str, StepDef], city_defs: Mapping[str, StepDef]) -> None:
        """A city's `withdraws:` takes state steps (and deadlines) out of its procedure, for the designations
        it names; an owner's state right cannot be withdrawn (a PackError citing the statute)."""
        if not self._withdrawals:
            return
        j = self.j
        rights = self._owner_rights(state_defs)
        for w in self._withdrawals:

            def fail(message: str, w: Withdrawal = w) -> PackError:
                return PackError(w.file, w.line, f"withdraws: {message}")

            for des in w.for_ or ():
                if des not in j.designations:
                    raise fail(
                        f"unknown designation {des!r}; this jurisdiction has {', '.join(sorted(j.designations))}"
                    )
            for sid in w.steps:
                d = state_defs.get(sid)
                if d is None:
                    raise fail(f"{sid!r} is not a step of {j.state.id}; its steps: {', '.join(state_defs)}")
                if sid in city_defs:
                    raise fail(
                        f"{sid!r} is also a step of {j.pack.id}: a city replaces or withdraws a state step, not both"
                    )
                reached = [
                    des for des in (d.for_ or tuple(j.state.designations)) if w.for_ is None or des in w.for_
                ]
                for des in reached:
                    reasons = rights.get(sid, {}).get(des)
                    if reasons:
                        raise fail(
                            f"cannot withdraw {sid!r} for {des}: it is an owner's right under state law — "
                            f"{reasons[0]}; a city may add to the state floor, not take from it"
                            f"{self.j._floor_cite}"
                        )
                remaining = tuple(
                    des for des in (d.for_ or tuple(j.state.designations)) if des not in reached
                )
                self.withdrawn[sid] = (d, w)
                if remaining:
                    self.defs[sid] = [replace(d, for_=remaining)]
                else:
                    del self.defs[sid]
            for did in w.deadlines:
                plan = j._deadline_plans.get(did)
                versions = [s.version for s in plan.steps if s.version.layer == "state"] if plan else []
                if not versions:
                    raise fail(f"{did!r} is not a deadline of {j.state.id}")
                if plan.right:
                    cites = "; ".join(dict.fromkeys(v.citation for v in versions))
                    raise fail(
                        f"cannot withdraw {did!r}: it is the owner's time to {plan.what}, a right under state law "
                        f"({cites}); a city may add to the state floor, not take from it{self.j._floor_cite}"
                    )
                self._withdrawn_deadlines.setdefault(did, []).append(w)

    def deadline_withdrawn(self, deadline_id: str, designation: str | None) -> Withdrawal | None:
        for w in self._withdrawn_deadlines.get(deadline_id, ()):
            if w.for_ is None or designation in w.for_:
                return w
        return None

    def withdrawals(self, day: dt.date) -> list[dict[str, Any]]:
        """What the city withdrew of the state's procedure, each with its provision and reason."""
        out = []
        for w in self._withdrawals:
            out.append(
                {
                    "steps": [
                        {"id": sid, "label": self.withdrawn[sid][0].label}
                        for sid in w.steps
                        if sid in self.withdrawn
                    ],
                    "deadlines": list(w.deadlines),
                    "for": list(w.for_) if w.for_ is not None else None,
                    "reason": w.reason,
                    "provision": self._cite(w.provision, day),
                }
            )
        return out

    def _check(self) -> None:
        """Every reference of every step resolves in this jurisdiction; each error names file and line."""
        j = self.j
        all_steps = {sid: defs[-1] for sid, defs in self.defs.items()}
        # the steps a definition may refer to: a city's, every step (a state step the city withdrew included:
        # its conditions may still name it); the state's, the state's steps only
        every = {**self.defs, **{k: [x[0]] for k, x in self.withdrawn.items()}}
        visible_to = {
            "city": every,
            "state": {sid: defs for sid, defs in every.items() if defs[0].layer == "state"},
        }
        for sid, defs in self.defs.items():
            if len(defs) == 2:
                state_def, city_def = defs
                self._check_inputs_kept(state_def, city_def)
                if city_def.for_ is not None:
                    uncovered = [d for d in (state_def.for_ or j.designations) if d not in city_def.for_]
                    if state_def.for_ is not None and uncovered:
                        raise PackError(
                            city_def.file,
                            city_def.line,
                            f"step {sid!r} replaces the state's step of that id but leaves out "
                            f"{', '.join(uncovered)} ({state_def.file}:{state_def.line}); give it another id",
                        )
            for d in defs:
                self._check_def(d, all_steps, visible_to["city" if d.layer == "city" else "state"])
        for versions in self._notices.values():
            for v in versions:
                for element in v.effect.get("elements") or ():
                    cond = self._element_conditions.get((id(v), element["id"]))
                    if cond is None:
                        continue
                    visible = visible_to["city" if v.layer == "city" else "state"]
                    here = v.element_lines.get(element["id"]) or v.effect_line or v.line

                    def fail(
                        message: str, line: int | None = None, v=v, here=here, eid=element["id"]
                    ) -> PackError:
                        return PackError(
                            v.file, line or here, f"provision {v.id}: notice element {eid!r}: {message}"
                        )

                    for c in _walk((cond,)):
                        if c.uses_inputs() and not c.parts:
                            raise fail(
                                f"when: {c.test!r} reads a step's form; a notice element's condition reads the case "
                                "(done, not_done, outcome, last, within, from, after, ground_of, prohibited)"
                            )
                    self._check_condition(cond, visible, fail, here)

    def _check_inputs_kept(self, state_def: StepDef, city_def: StepDef) -> None:
        """A city step that replaces a state step takes none of its inputs, but keeps its conditions (the
        floor): a state condition that reads an input of the form needs that input on the city's step."""
        for c in _walk(state_def.requires):
            need: tuple[str, str] | None = None
            if c.test == "confirmed":
                need = (c.arg, "bool")
            elif c.test == "input_by":
                need = (c.arg["input"], "date")
            elif c.test == "proven":
                need = ("", "proofs")
            elif c.test in ("seizure_ground", "ground_in"):
                need = ("", "seizure_ground")
            if need is None:
                continue
            name, kind = need
            has = any(
                (i.id == name if name else True)
                and (i.kind == kind or (kind == "date" and i.kind in ("date", "datetime")))
                for i in city_def.inputs
            )
            if not has:
                what = f"input {name!r} ({kind})" if name else f"an input of kind {kind}"
                raise PackError(
                    city_def.file,
                    city_def.line,
                    f"procedure step {city_def.id!r} replaces the state's step of that id, whose condition "
                    f"{c.test!r} ({c.file}:{c.line}) reads {what}: the state's conditions are kept (the floor) "
                    "but none of its inputs is, so the city's step needs that input (docs/procedure.md, Layering)",
                )

    def _check_def(
        self, d: StepDef, all_steps: dict[str, StepDef], visible: Mapping[str, list[StepDef]]
    ) -> None:
        j = self.j

        def fail(message: str, line: int | None = None) -> PackError:
            return PackError(d.file, line or d.line, f"procedure step {d.id!r}: {message}")

        for key in d.provisions:
            if not self._provision_exists(key):
                raise fail(
                    f"refers to provision {key!r}, which is not defined in {j.id}'s layers",
                    d.line_of("provisions"),
                )
        for des in d.for_ or ():
            if des not in j.designations:
                raise fail(
                    f"unknown designation {des!r}; this jurisdiction has {', '.join(sorted(j.designations))}",
                    d.line_of("for"),
                )
        for role in d.roles:
            if role not in j.roles:
                raise fail(f"unknown role {role!r}; define it under roles", d.line_of("roles"))
        for doc in d.documents:
            if doc not in self._notices and doc not in self._doc_notices:
                raise fail(
                    f"unknown notice or document {doc!r}; notices: {', '.join(sorted(self._notices))}; "
                    f"documents: {', '.join(sorted(self._doc_notices)) or 'none'}",
                    d.line_of("documents"),
                )
        for did in d.satisfies:
            if did not in self._deadline_ids:
                raise fail(f"satisfies unknown deadline {did!r}", d.line_of("satisfies"))
        for req, until, prov in d.imposes:
            if req not in self._requirements:
                raise fail(f"imposes unknown requirement {req!r}", d.line_of("imposes"))
            if until and until not in visible:
                raise fail(f"imposes until unknown step {until!r}", d.line_of("imposes"))
            if prov and not self._provision_exists(prov):
                raise fail(f"refers to provision {prov!r}, which is not defined", d.line_of("imposes"))
        for _, prov in d.notes:
            if prov and not self._provision_exists(prov):
                raise fail(f"note refers to provision {prov!r}, which is not defined", d.line_of("notes"))
        # who may act: an authority provision for the act (any layer) for each designation, or roles + reading
        designations = d.for_ or tuple(j.designations)
        state_only = d.layer == "state" and self.j.state is not None
        uncovered = [
            des
            for des in designations
            if not self._authority_versions(d.act, des, None, state_only=state_only)
        ]
        if uncovered and not d.roles:
            raise fail(
                f"no provision says who may {d.act.replace('_', ' ')} for {', '.join(uncovered)}: "
                "give roles: and reading: (dogcase's reading of the text)",
                d.line_of("act"),
            )
        if d.roles and not uncovered:
            raise fail(
                f"roles: is only for a step no provision empowers; {d.act} is given by authority provisions "
                "for every designation of the step — remove roles and reading",
                d.line_of("roles"),
            )

        for c in d.requires:
            self._check_condition(c, visible, fail, d.line)
        for item in d.inputs:
            if item.kind == "designation" and not d.for_:
                raise fail("a designation input needs the step's for: (the designations it may give)")

    def _check_condition(self, c: Condition, visible: Mapping[str, Any], fail, default_line: int) -> None:
        """One condition's references: steps, deadlines, provisions, prohibitions, seizure grounds."""
        where_line = c.line or default_line
        if c.provision and not self._provision_exists(c.provision):
            raise fail(f"condition refers to provision {c.provision!r}, which is not defined", where_line)
        if c.test in _STEP_TESTS:
            if c.arg not in visible:
                raise fail(f"condition refers to unknown step {c.arg!r}", where_line)
        elif c.test in _DEADLINE_TESTS:
            if c.arg not in self._deadline_ids:
                raise fail(f"condition refers to unknown deadline {c.arg!r}", where_line)
        elif c.test in ("outcome", "not_outcome"):
            other = c.arg["step"]
            if other not in visible:
                raise fail(f"condition refers to unknown step {other!r}", where_line)
            outcomes = set().union(*(x.outcomes() for x in visible[other]))
            bad = [o for o in c.arg["in"] if o not in outcomes]
            if bad:
                raise fail(
                    f"step {other!r} has no outcome {bad[0]!r}; its outcomes: "
                    f"{', '.join(sorted(outcomes)) or 'none'}",
                    where_line,
                )
        elif c.test == "last":
            for other in (*c.arg["of"], *c.arg["in"]):
                if other not in visible:
                    raise fail(f"condition refers to unknown step {other!r}", where_line)
            stray = [s for s in c.arg["in"] if s not in c.arg["of"]]
            if stray:
                raise fail(f"last: {stray[0]!r} must also be listed in of", where_line)
        elif c.test == "prohibited":
            if c.arg not in self._prohibitions:
                raise fail(f"condition refers to unknown prohibition {c.arg!r}", where_line)
        elif c.test == "ground_in":
            for g in c.arg:
                if g not in self._triggers:
                    raise fail(f"condition refers to unknown seizure ground {g!r}", where_line)
        elif c.test == "ground_of":
            other = c.arg["step"]
            if other not in visible:
                raise fail(f"condition refers to unknown step {other!r}", where_line)
            if not any(i.kind == "seizure_ground" for x in visible[other] for i in x.inputs):
                raise fail(f"ground_of: step {other!r} has no seizure_ground input", where_line)
            for g in c.arg["in"]:
                if g not in self._triggers:
                    raise fail(f"condition refers to unknown seizure ground {g!r}", where_line)
        elif c.test == "input_by":
            if c.arg["deadline"] not in self._deadline_ids:
                raise fail(f"condition refers to unknown deadline {c.arg['deadline']!r}", where_line)
        for p in c.parts:
            self._check_condition(p, visible, fail, default_line)

    # ----------------------------------------------------------------------------------- law as of a day

    def steps_on(self, day: dt.date) -> dict[str, Step]:
        index = bisect.bisect_right(self._days, day)
        cached = self._cache.get(index)
        if cached is None:
            cached = self._cache[index] = self._build(day)
        return cached

    def _authority_versions(
        self, act: str, designation: str | None, day: dt.date | None, *, state_only: bool = False
    ) -> list[ProvisionVersion]:
        """Authority provisions for `act` reaching `designation`: the city's; where it has none, the state's."""
        j = self.j
        layers = j.layers[:1] if state_only else j.layers
        for layer in reversed(layers):
            found = []
            for provision in layer.provisions.values():
                versions = [provision.version_on(day)] if day else list(provision.versions)
                for v in versions:
                    if v is None or v.effect_kind != "authority" or v.effect["act"] != act:
                        continue
                    scope = v.effect.get("designations")
                    if scope is None or designation is None or designation in scope:
                        found.append(v)
            if found:
                return found
        return []

    def _all_authority(
        self, act: str, designation: str, day: dt.date, *, state_only: bool = False
    ) -> list[ProvisionVersion]:
        out = []
        for v in self.j.versions_on(day):
            if state_only and v.layer == "city":
                continue
            if v.effect_kind == "authority" and v.effect["act"] == act:
                scope = v.effect.get("designations")
                if scope is None or designation in scope:
                    out.append(v)
        return out

    def _cite(self, key: str | None, day: dt.date) -> dict[str, Any] | None:
        if not key:
            return None
        pack_id, _, pid = key.partition(":")
        for layer in self.j.layers:
            if layer.id == pack_id:
                provision = layer.provisions.get(pid)
                if provision is None:
                    return None
                version = provision.version_on(day) or provision.versions[-1]
                out = version.cite()
                out["pack"] = pack_id
                return out
        return None

    def _build(self, day: dt.date) -> dict[str, Step]:
        out: dict[str, Step] = {}
        for sid, defs in self.defs.items():
            live = [d for d in defs if d.in_force.contains(day)]
            if not live:
                continue
            step = self._layered(sid, live, day)
            reaching = [d for d in live if d.undeclared]
            if reaching and len(reaching) < len(live):
                # a layer's step without `undeclared` names the designations it reaches, and a case with none is
                # not one of them (§ 90.15 (K) reaches "a dog that has previously been declared"): a case not
                # declared runs the step of the layers that reach it, as they wrote it — form, conditions, events,
                # authority (the state's 347.56 track)
                step = replace(step, undeclared_step=self._layered(sid, reaching, day, own_authority=True))
            out[sid] = step
        return out

    def _layered(self, sid: str, live: list[StepDef], day: dt.date, *, own_authority: bool = False) -> Step:
        """One step from the definitions given (the state's first): the city's form, both layers' conditions
        (the state's a floor, the same test not repeated). Who may act: each designation's authority, the
        city's where it has one; with `own_authority`, only the layers that wrote the step (a case not declared
        runs the state's 347.56 step as the state wrote it: the city's authority provisions name designations)."""
        j = self.j
        main = live[-1]
        requires: list[Condition] = []
        seen: set[tuple] = set()
        for d in reversed(live):  # the city's conditions first; the state's floor added
            for c in d.requires:
                if c.key() not in seen:
                    seen.add(c.key())
                    requires.append(c)
        if len(live) == 2:
            layer = "city+state"
        else:
            layer = main.layer
        undeclared = any(d.undeclared for d in live)
        state_only = own_authority and all(d.layer == "state" for d in live) and self.j.state is not None
        provisions: list[dict[str, Any]] = []
        for d in live:
            for key in d.provisions:
                cite = self._cite(key, day)
                if cite and cite not in provisions:
                    provisions.append(cite)
        designations = main.for_ if main.for_ is not None else tuple(j.designations)
        reader = next((d for d in reversed(live) if d.roles), main)
        roles_by: dict[str, frozenset[str]] = {}
        authority: dict[str, tuple[dict[str, Any], ...]] = {}
        impartial_by: dict[str, dict[str, Any] | None] = {}
        final_by: dict[str, bool] = {}
        uses_reading = False
        for des in designations:
            versions = self._authority_versions(main.act, des, day, state_only=state_only)
            if versions:
                roles_by[des] = frozenset(r for v in versions for r in v.effect["roles"])
                authority[des] = tuple({**v.cite(), "pack": v.pack} for v in versions)
            else:
                roles_by[des] = frozenset(reader.roles)
                authority[des] = ()
                uses_reading = True
            every = self._all_authority(main.act, des, day, state_only=state_only)
            imp = next((v for v in reversed(every) if v.effect.get("impartial")), None)
            impartial_by[des] = {**imp.cite(), "pack": imp.pack} if imp else None
            final_by[des] = any(v.effect.get("final") for v in every)
        notes = tuple(
            {"text": text, "provision": self._cite(prov, day)} for d in live for text, prov in d.notes
        )
        # the documents it issues: those its layers name, and those that name it (issued_by); a case not declared
        # runs the step of the layers that reach it (own_authority) with their documents only
        packs = {d.pack for d in live}
        documents = tuple(
            dict.fromkeys(
                [s for d in live for s in d.documents]
                + [
                    doc
                    for doc, by_pack in self._doc_issuers.items()
                    if any(
                        sid in steps and (not own_authority or pack in packs)
                        for pack, steps in by_pack.items()
                    )
                ]
            )
        )
        inputs = main.inputs
        if any(
            v.effect.get("elements")
            for n in self._served_notices(documents)
            for v in self._notices.get(n, ())
        ):
            inputs = (*inputs, Input(id=CONTENTS_INPUT, kind="document", label=CONTENTS_LABEL))
        return Step(
            id=sid,
            label=main.label,
            act=main.act,
            phase=main.phase,
            layer=layer,
            for_=main.for_,
            provisions=tuple(provisions),
            roles=frozenset().union(*roles_by.values()) if roles_by else frozenset(main.roles),
            roles_reading=reader.reading if uses_reading else None,
            impartial=any(v is not None for v in impartial_by.values()),
            final=any(final_by.values()),
            inputs=inputs,
            records=main.records,
            satisfies=tuple(dict.fromkeys(s for d in live for s in d.satisfies)),
            documents=documents,
            requires=tuple(requires),
            repeatable=main.repeatable,
            opens_case=main.opens_case,
            closes_case=main.closes_case,
            ends_designation=main.ends_designation,
            administrative=main.administrative,
            notes=notes,
            imposes=tuple(x for d in live for x in d.imposes),
            roles_by_designation=MappingProxyType(roles_by),
            authority=MappingProxyType(authority),
            impartial_by_designation=MappingProxyType(impartial_by),
            final_by_designation=MappingProxyType(final_by),
            layers=tuple(d.pack for d in live),
            dated_by=main.dated_by,
            undeclared=undeclared,
            concerns=main.concerns,
            recipients=self._recipients(documents, day),
            service_of=main.service_of,
            filed_by_owner=main.filed_by_owner,
        )

    def _served_notices(self, documents: Iterable[str]) -> tuple[str, ...]:
        """The notice ids a step's documents: serve: the notices it names, and those of the documents it names
        or that name it (issued_by)."""
        out: list[str] = []
        for doc in documents:
            out += [doc] if doc in self._notices else list(self._doc_notices.get(doc, ()))
        return tuple(dict.fromkeys(out))

    def _recipients(self, documents: tuple[str, ...], day: dt.date) -> tuple[dict[str, Any], ...]:
        """Who each notice the step serves goes to, as the notice's `to:` says (a rule of RECIPIENT_RULES,
        or the text's own words); a notice that says nothing is not listed."""
        out = []
        for doc in self._served_notices(documents):
            for v in self._notices.get(doc, ()):
                to = v.effect.get("to")
                if not v.in_force.contains(day) or to is None:
                    continue
                rule = to.get("rule") if isinstance(to, Mapping) else None
                words = to if isinstance(to, str) else (to.get("text") or RECIPIENT_RULES[rule])
                out.append(
                    {
                        "notice": doc,
                        "for": list(v.effect.get("for") or ()),
                        "rule": rule,
                        "words": " ".join(words.split()),
                        "provision": {**v.cite(), "pack": v.pack},
                    }
                )
        return tuple(out)

    def procedure(self, on: dt.date) -> list[Step]:
        return list(self.steps_on(on).values())

    def step(self, step_id: str, day: dt.date) -> Step:
        steps = self.steps_on(day)
        if step_id not in steps:
            known = ", ".join(steps) or "none"
            raise InputError(
                "step", f"unknown step {step_id!r} in {self.j.id} on {day.isoformat()}; known: {known}"
            )
        return steps[step_id]

    def case_step(self, step_id: str, day: dt.date, designation: str | None) -> Step:
        """The step as a case with this designation runs it (Step.for_designation)."""
        return self.step(step_id, day).for_designation(designation)

    # ----------------------------------------------------------------------------------- inputs

    def choices(
        self, step: Step, state: CaseState, day: dt.date, at: dt.datetime | None = None
    ) -> dict[str, list[dict[str, Any]]]:
        """The choices of each input whose values come from the law (designations, methods, proofs, grounds).

        A notice element with a `when:` condition carries `applies` (the condition, read on the case at `at`,
        default the end of `day`) and `when` (its words); only the elements that apply must be ticked."""
        out: dict[str, list[dict[str, Any]]] = {}
        designation = state.designation
        for item in step.inputs:
            if item.kind == "outcome":
                out[item.id] = [{"value": c, "label": c.replace("_", " ")} for c in item.choices]
            elif item.kind == "designation":
                out[item.id] = [
                    {"value": d, "label": self.j.designations[d].label} for d in (step.for_ or ())
                ]
            elif item.kind == "service_method":
                out[item.id] = self._service_methods(step, designation, day)
            elif item.kind == "proofs":
                # one definition with the `proven` test: a condition of registration is a requirement that a
                # provision of any layer, in force and reaching the designation, makes one
                conditions = self._registration_conditions(designation, day)
                proofs = []
                for rid, v in self._requirements_for(designation, day).items():
                    shown = (
                        conditions[rid][-1] if rid in conditions else v
                    )  # as the `proven` refusal names it
                    proofs.append(
                        {
                            "value": rid,
                            "label": shown.effect["what"],
                            "condition_of_registration": rid in conditions,
                            "provision": shown.cite(),
                            "provisions": [c.cite() for c in conditions.get(rid, ())] or [v.cite()],
                        }
                    )
                out[item.id] = proofs
            elif item.kind == "document":
                # what the notices (or decisions) the step serves must contain, by every layer that requires
                # it; an element with a condition only when the condition holds for the case
                elements = []
                ctx: _Context | None = None
                for v in self._documents_for(step, designation, day):
                    for element in v.effect.get("elements") or ():
                        choice = {
                            "value": f"{v.cite()['provision']}/{element['id']}",
                            "label": element["text"],
                            "provision": v.cite(),
                        }
                        cond = self._element_conditions.get((id(v), element["id"]))
                        if cond is not None:
                            if ctx is None:
                                when = at or dt.datetime.combine(day, dt.time.max, tzinfo=self.j.tz)
                                ctx = _Context(self, state, None, when, day, None)
                            result, _ = ctx.evaluate(cond, step, None)
                            choice["applies"] = result is not False  # unknown: required (the owner's side)
                            choice["when"] = cond.why or _condition_words(ctx, cond, step)
                        elements.append(choice)
                out[item.id] = elements
            elif item.kind == "seizure_ground":
                out[item.id] = [
                    {"value": tid, "label": v.effect["what"], "provision": v.cite()}
                    for tid, v in self._grounds_for(step.act, designation, day).items()
                ]
        return out

    def _service_methods(self, step: Step, designation: str | None, day: dt.date) -> list[dict[str, Any]]:
        """How the notices the step serves may be served, for the case's designation.

        Where a city notice reaches the designation, its service methods are the choices (the city's text
        says how its notice is served); a state notice that also reaches it is the floor: a city method is
        kept only if it is, or is a form of, a method the state accepts (certified mail is mail). Without a
        city notice, the state's methods. `additional_steps` (telephoning, if possible) are never a method:
        they come on top of one, and the step records them with an input of their own."""
        docs = self._documents_for(step, designation, day)
        if not step.documents and step.service_of:
            # a further service of a notice: the methods of the notice the issuing step serves
            issuing = self.steps_on(day).get(step.service_of)
            if issuing is not None:
                docs = self._documents_for(issuing, designation, day)
        city = [v for v in docs if v.layer == "city"]
        state = [v for v in docs if v.layer != "city"]
        state_methods = {m for v in state for m in v.effect.get("service_methods", ())}
        forms = self.j.service_method_forms

        def accepted_by_state(method: str) -> bool:
            # a method, or anything it is a form of (restricted-delivery mail is certified mail is mail)
            seen, todo = set(), [method]
            while todo:
                m = todo.pop()
                if m in state_methods:
                    return True
                if m not in seen:
                    seen.add(m)
                    todo += forms.get(m, ())
            return False

        methods: list[dict[str, Any]] = []
        for v in city or state:
            for m in v.effect.get("service_methods", ()):
                if city and state and not accepted_by_state(m):
                    continue
                if m not in [x["value"] for x in methods]:
                    methods.append(
                        {"value": m, "label": self.j.service_method_label(m), "provision": v.cite()}
                    )
        if not methods and city:  # no city method meets the state's: offer the city's, as written
            for v in city:
                for m in v.effect.get("service_methods", ()):
                    if m not in [x["value"] for x in methods]:
                        methods.append(
                            {"value": m, "label": self.j.service_method_label(m), "provision": v.cite()}
                        )
        if not methods and docs and not any(v.effect.get("service_methods") for v in docs):
            # the notice names no method ("notify the dog's owner in writing", Tracy Subd 3 and 7): any way of
            # delivering a writing serves it, each with the notice's citation and `open`; a clock the text ties
            # to one method starts only through the step's records_if_method (docs/procedure.md, "Service of a
            # notice"). Additional steps (telephoning) stay out: they are never a method.
            extra = {
                m
                for v in self.j.versions_on(day)
                if v.effect_kind == "notice"
                for m in v.effect.get("additional_steps", ())
            }
            for m in (*SERVICE_METHODS, *self.j.service_methods):
                if m not in extra and m not in [x["value"] for x in methods]:
                    methods.append(
                        {
                            "value": m,
                            "label": self.j.service_method_label(m),
                            "provision": docs[0].cite(),
                            "open": True,
                        }
                    )
        return methods

    def _documents_for(self, step: Step, designation: str | None, day: dt.date) -> list[ProvisionVersion]:
        """The notice provisions in force that the step serves, for the case's designation."""
        out = []
        for doc in self._served_notices(step.documents):
            for v in self._notices.get(doc, ()):
                scope = v.effect.get("for")
                if v.in_force.contains(day) and not (designation and scope and designation not in scope):
                    out.append(v)
        return out

    def _requirements_for(self, designation: str | None, day: dt.date) -> dict[str, ProvisionVersion]:
        out: dict[str, ProvisionVersion] = {}
        for rid, versions in self._requirements.items():
            for v in versions:
                if v.in_force.contains(day) and (designation is None or designation in v.effect["for"]):
                    out.setdefault(rid, v)
        return out

    def _registration_conditions(
        self, designation: str | None, day: dt.date
    ) -> dict[str, list[ProvisionVersion]]:
        out: dict[str, list[ProvisionVersion]] = {}
        for rid, versions in self._requirements.items():
            for v in versions:
                if (
                    v.in_force.contains(day)
                    and v.effect.get("condition_of_registration")
                    and (designation is None or designation in v.effect["for"])
                ):
                    out.setdefault(rid, []).append(v)
        return out

    def _grounds_for(self, act: str, designation: str | None, day: dt.date) -> dict[str, ProvisionVersion]:
        out: dict[str, ProvisionVersion] = {}
        for tid, versions in self._triggers.items():
            for v in sorted(versions, key=lambda x: x.layer != "city"):
                if not v.in_force.contains(day) or v.effect.get("act", "seize") != act:
                    continue
                if designation is not None and designation not in v.effect["for"]:
                    continue
                out.setdefault(tid, v)
        return out

    def validate_inputs(
        self,
        step: Step,
        state: CaseState,
        inputs: Mapping[str, Any],
        day: dt.date,
        *,
        partial: bool = False,
        at: dt.datetime | None = None,
    ) -> dict[str, Any]:
        """The step's form, cleaned: dates, instants, choices from the law. Raises InputError(field, rule).

        A fact date (an input that records an event and is not `when: future`) may not be after `at`, the
        moment the step is recorded (not checked when `at` is not given), nor before the incident."""
        if not isinstance(inputs, Mapping):
            raise InputError("inputs", "must be an object mapping input ids to values")
        known = {i.id: i for i in step.inputs}
        for key in inputs:
            if key not in known:
                raise InputError(
                    f"inputs.{key}",
                    f"step {step.id!r} has no input {key!r}; its inputs: {', '.join(known) or 'none'}",
                )
        choices = self.choices(step, state, day, at)
        out: dict[str, Any] = {}
        for item in step.inputs:
            name = f"inputs.{item.id}"
            value = inputs.get(item.id)
            if value is None or value == "" or value == []:
                if item.required and not partial:
                    raise InputError(name, f"required: {item.label}")
                continue
            out[item.id] = _clean(item, value, name, choices.get(item.id))
            if item.is_fact:
                self._check_fact_date(item, out[item.id], state, at)
            elif item.records and item.kind in ("date", "datetime"):
                self._check_not_before_incident(item, out[item.id], state)
        self._check_event_order(step, state, out, day)
        for item in step.inputs:
            if item.kind == "staff_member" and item.id in out:
                self._check_designated(item, out[item.id], state, day, at)
        return out

    def _check_designated(
        self, item: Input, person: str, state: CaseState, day: dt.date, at: dt.datetime | None
    ) -> None:
        """A person designated to take an impartial act (the hearing officer) must be impartial now: not one
        who took part in the case (any step but a clerical one or the hearing's own), as the act will check."""
        impartial = next(
            (
                cite
                for s in self.steps_on(day).values()
                if s.act == item.act and s.applies_to(state.designation)
                for cite in [s.impartial_by_designation.get(state.designation)]
                if cite
            ),
            None,
        )
        if impartial is None:
            return
        moment = at or dt.datetime.combine(day, dt.time.max, tzinfo=self.j.tz)
        ctx = _Context(self, state, None, moment, day, None)
        earlier = [t for t in ctx.ordered if t.actor == person and ctx._taints(t)]
        if earlier:
            took = ", ".join(dict.fromkeys(f"“{ctx.label(t.step)}”" for t in earlier))
            raise InputError(
                f"inputs.{item.id}",
                f"this person already took part in the case ({took}); it must be someone impartial "
                f"({impartial['citation']})",
            )

    def _check_not_before_incident(self, item: Input, value: Any, state: CaseState) -> None:
        """A scheduled date (`when: future`) may lie ahead, never before the incident the case is about."""
        local = value.astimezone(self.j.tz).date() if isinstance(value, dt.datetime) else value
        if local < state.incident_date:
            raise InputError(
                f"inputs.{item.id}",
                f"cannot be before the incident of the case ({clock.format_date(state.incident_date)})",
            )

    def _check_event_order(
        self, step: Step, state: CaseState, cleaned: Mapping[str, Any], day: dt.date
    ) -> None:
        """The dates the form gives are in the order the events' meaning (packschema.EVENT_ORDER) and the packs
        (`event_order:`) put them: each date an input records is checked against the case's date of every event
        it may not precede (as the case knows it, or as this same form gives it). A date that the case records
        later for an event already recorded (a second notice) is not checked against the later events of the
        first: only the dates this form gives are judged."""
        order = self.j.event_order
        own: dict[str, tuple[Input, Any]] = {}
        for item in step.inputs:
            if item.id in cleaned and item.kind in ("date", "datetime"):
                for event in item.all_records:
                    own[event] = (item, cleaned[item.id])
        known = dict(state.events)
        known.update({event: value for event, (_, value) in own.items()})
        tz = self.j.tz

        def local(value: Any) -> dt.date:
            return value.astimezone(tz).date() if isinstance(value, dt.datetime) else value

        for event, (item, value) in own.items():
            for earlier, provision, why in order.get(event, ()):
                before = known.get(earlier)
                if before is None or earlier == event or not isinstance(before, dt.date):
                    continue
                if local(value) >= local(before):
                    continue
                if isinstance(before, dt.datetime):
                    when = clock.format_time(before.astimezone(tz))
                else:
                    when = clock.format_date(before)
                source = own.get(earlier)
                where = f", given in “{source[0].label}”" if source else ""
                rule = f"cannot be before {self.j.event_label(earlier)} ({when}{where})"
                if event.endswith("hearing_closed") and earlier.endswith("hearing_scheduled"):
                    rule += (
                        ": if the hearing was moved, correct the scheduled date first (“Correct a date” on the "
                        "scheduling, with the reason)"
                    )
                cite = self._cite(provision, day) if provision else None
                if why:
                    rule += f": {why}"
                if cite:
                    rule += f" ({cite['citation']})"
                raise InputError(f"inputs.{item.id}", rule)

    def _check_fact_date(self, item: Input, value: Any, state: CaseState, at: dt.datetime | None) -> None:
        tz = self.j.tz
        local = value.astimezone(tz).date() if isinstance(value, dt.datetime) else value
        if at is not None:
            if isinstance(value, dt.datetime):
                if value > at:
                    raise InputError(
                        f"inputs.{item.id}",
                        f"cannot be after the time it is recorded ({clock.format_time(at.astimezone(tz))})",
                    )
            elif value > at.astimezone(tz).date():
                raise InputError(
                    f"inputs.{item.id}",
                    f"cannot be after the day it is recorded ({clock.format_date(at.astimezone(tz).date())})",
                )
        if local < state.incident_date:
            raise InputError(
                f"inputs.{item.id}",
                f"cannot be before the incident of the case ({clock.format_date(state.incident_date)})",
            )

    def events_of(
        self, step: Step, at: dt.datetime, cleaned: Mapping[str, Any]
    ) -> dict[str, dt.date | dt.datetime]:
        """The events a step records when taken at `at` with these (cleaned) inputs."""
        local = at.astimezone(self.j.tz).date()
        out: dict[str, dt.date | dt.datetime] = dict.fromkeys(step.records, local)
        outcome = next((cleaned.get(i.id) for i in step.inputs if i.kind == "outcome"), None)
        method = next((cleaned.get(i.id) for i in step.inputs if i.kind == "service_method"), None)
        for item in step.inputs:
            if item.records and item.id in cleaned:
                for event in item.records:
                    out[event] = cleaned[item.id]
            if item.id in cleaned:
                for flag, events in item.records_if:
                    if cleaned.get(flag) is True:
                        for event in events:
                            out[event] = cleaned[item.id]
                for wanted, events in item.records_if_outcome:
                    if outcome == wanted:
                        for event in events:
                            out[event] = cleaned[item.id]
                for wanted, events in item.records_if_method:
                    if method == wanted:
                        for event in events:
                            out[event] = cleaned[item.id]
        return out

    # ----------------------------------------------------------------------------------- checking a step

    def check_step(
        self,
        step_id: str,
        state: CaseState,
        actor: Actor,
        at: dt.datetime,
        inputs: Mapping[str, Any] | None = None,
    ) -> Verdict:
        _check_instant(at, "at")
        day = at.astimezone(self.j.tz).date()
        step = self.case_step(step_id, day, state.designation)
        cleaned: dict[str, Any] | None = None
        if inputs is not None:
            cleaned = self.validate_inputs(step, state, inputs, day, partial=True, at=at)
        ctx = _Context(self, state, actor, at, day, cleaned)
        return ctx.verdict(step)

    def available_steps(self, state: CaseState, actor: Actor, at: dt.datetime) -> list[Verdict]:
        _check_instant(at, "at")
        day = at.astimezone(self.j.tz).date()
        ctx = _Context(self, state, actor, at, day, None)
        return [
            ctx.verdict(step.for_designation(state.designation))
            for step in self.steps_on(day).values()
            if step.applies_to(state.designation)
        ]

    # ----------------------------------------------------------------------------------- obligations

    def obligations(self, state: CaseState, at: dt.datetime) -> list[Obligation]:
        _check_instant(at, "at")
        day = at.astimezone(self.j.tz).date()
        ctx = _Context(self, state, None, at, day, None)
        return ctx.obligations()


def _shown(value: Any) -> str:
    """A value as an error message repeats it: never more than 60 characters of it."""
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:57]}…"


def too_long(limit: int, length: int) -> str:
    """The one message for a text over its limit, on forms and the API alike."""
    return f"At most {limit:,} characters (you wrote {length:,})"


def _check_instant(at: Any, name: str) -> None:
    if not isinstance(at, dt.datetime) or at.tzinfo is None or at.utcoffset() is None:
        raise InputError(name, "must be a timezone-aware date and time")


def _clean(item: Input, value: Any, name: str, choices: list[dict[str, Any]] | None) -> Any:
    kind = item.kind
    if kind == "date":
        if isinstance(value, dt.datetime):
            raise InputError(name, "must be a date (YYYY-MM-DD), not a date and time")
        if isinstance(value, dt.date):
            day = value
        elif isinstance(value, str):
            try:
                day = dt.date.fromisoformat(value)
            except ValueError:
                raise InputError(
                    name, clock.missing_day(value) or f"{_shown(value)} is not a date written YYYY-MM-DD"
                ) from None
        else:
            raise InputError(name, "must be a date written YYYY-MM-DD")
        if not clock.MIN_DATE <= day <= clock.MAX_DATE:
            raise InputError(name, f"must be between {clock.MIN_DATE} and {clock.MAX_DATE}")
        return day
    if kind == "datetime":
        if isinstance(value, str):
            try:
                value = dt.datetime.fromisoformat(value)
            except ValueError:
                raise InputError(
                    name,
                    clock.missing_day(value) or f"{_shown(value)} is not a real date and time (ISO 8601)",
                ) from None
        if not isinstance(value, dt.datetime):
            raise InputError(name, "must be a date and time with its UTC offset")
        if value.tzinfo is None or value.utcoffset() is None:
            raise InputError(name, "a date and time needs its UTC offset, e.g. 2026-11-01T01:30:00-05:00")
        if not clock.MIN_DATE <= value.date() <= clock.MAX_DATE:
            raise InputError(name, f"must be between {clock.MIN_DATE} and {clock.MAX_DATE}")
        return value
    if kind == "text":
        if not isinstance(value, str) or not value.strip():
            raise InputError(name, "must be text")
        text = value.strip()
        if len(text) > item.text_limit:
            raise InputError(name, too_long(item.text_limit, len(text)))
        return text
    if kind == "bool":
        if not isinstance(value, bool):
            raise InputError(name, "must be true or false")
        return value
    if kind == "file":
        return value
    if kind == "staff_member":  # the person's id; the product offers and checks its own users
        if not isinstance(value, str | int) or isinstance(value, bool) or not str(value).strip():
            raise InputError(name, "must name the person (their id)")
        person = str(value).strip()
        if len(person) > 64:
            raise InputError(name, too_long(64, len(person)))
        return person
    allowed = [c["value"] for c in choices or ()]
    if kind == "proofs":
        if isinstance(value, str) or not isinstance(value, Iterable):
            raise InputError(name, "must be a list of requirement ids")
        items = list(value)
        for v in items:
            if v not in allowed:
                raise InputError(
                    name, f"{_shown(v)} is not a requirement here; choose from {', '.join(allowed)}"
                )
        return tuple(dict.fromkeys(items))
    if kind == "document":
        if value == "all":  # "the notice contains every element the law requires", recorded as the list
            value = [c["value"] for c in choices or () if c.get("applies", True)]
        if isinstance(value, str) or not isinstance(value, Iterable):
            raise InputError(name, "must be the list of the elements the notice contains")
        items = list(value)
        for v in items:
            if v not in allowed:
                raise InputError(name, f"{_shown(v)} is not an element of this notice")
        for choice in choices or ():
            if choice["value"] not in items and choice.get("applies", True):
                raise InputError(
                    name,
                    f"the notice must contain: “{choice['label'].rstrip(';.,: ')}” "
                    f"({choice['provision']['citation']}); serve a notice that has every element the law "
                    "requires",
                )
        return tuple(dict.fromkeys(items))
    if value not in allowed:
        raise InputError(
            name, f"{_shown(value)} is not allowed; choose one of {', '.join(map(str, allowed)) or '(none)'}"
        )
    return value


# ============================================================================================ evaluation


class _Context:
    """One question about one case at one instant."""

    def __init__(
        self, engine: ProcedureEngine, state: CaseState, actor: Actor | None, at, day, inputs
    ) -> None:
        self.engine = engine
        self.j = engine.j
        self.state = state
        self.actor = actor
        self.at = at
        self.day = day
        self.inputs = inputs
        self.ordered = state.ordered()
        self.events = state.events
        self._deadlines: dict[str, dict[str, Any]] = {}
        self.closed_by: TakenStep | None = None
        self.ended_by: TakenStep | None = None
        # the steps taken before the case was declared were taken on a case not declared (None: all of them)
        self._declared_from: int | None = None
        if state.designation is not None:
            self._declared_from = next(
                (
                    i
                    for i, t in enumerate(self.ordered)
                    if (s := self.engine.steps_on(t.at.astimezone(self.j.tz).date()).get(t.step)) is not None
                    and s.opens_case
                ),
                0,
            )
        for taken in self.ordered:
            step = self._step_as_taken(taken)
            if step is None:
                continue
            if self.closed_by is None and step.closes_on(taken.outcome):
                self.closed_by = taken
            if self.ended_by is None and step.ends_on(taken.outcome):
                self.ended_by = taken

    def _step_as_taken(self, taken: TakenStep) -> Step | None:
        """The step as in force when it was taken (law as of the step's date), as the case ran it then (a
        step taken before the case was declared: as a case not declared runs it)."""
        day = taken.at.astimezone(self.j.tz).date()
        step = self.engine.steps_on(day).get(taken.step)
        if step is None or step.undeclared_step is None:
            return step
        index = next((i for i, t in enumerate(self.ordered) if t is taken), len(self.ordered))
        undeclared = self._declared_from is None or index < self._declared_from
        return step.for_designation(None if undeclared else self.state.designation)

    # ---------------------------------------------------------------- lookups

    def label(self, step_id: str) -> str:
        step = self.engine.steps_on(self.day).get(step_id)
        if step is None:
            defs = self.engine.defs.get(step_id)
            return defs[-1].label if defs else step_id
        return step.label

    def latest(self, step_id: str) -> TakenStep | None:
        found = None
        for t in self.ordered:
            if t.step == step_id:
                found = t
        return found

    def deadline(self, deadline_id: str) -> dict[str, Any]:
        answer = self._deadlines.get(deadline_id)
        if answer is None:
            try:
                answer = self.j.deadline(
                    deadline_id,
                    self.events,
                    settings=self.state.settings or None,
                    designation=self.state.designation,
                    undeclared=self.state.designation is None,
                )
            except InputError as exc:
                answer = {
                    "status": "undetermined",
                    "due": None,
                    "reasons": [str(exc)],
                    "entries": [],
                    "error": True,
                }
            self._deadlines[deadline_id] = answer
        return answer

    def due_value(self, deadline_id: str) -> dt.date | dt.datetime | None:
        answer = self.deadline(deadline_id)
        due = answer.get("due")
        if answer.get("status") != "determined" or due is None:
            return None
        value = dt.datetime.fromisoformat(due) if "T" in due else dt.date.fromisoformat(due)
        if answer.get("kind") == "not_before":
            repeat = self._repeat_from(deadline_id)
            if repeat is not None and (not isinstance(value, dt.datetime)) and repeat > value:
                value = repeat
        return value

    def _repeat_from(self, deadline_id: str) -> dt.date | None:
        """For a right that repeats (review 'annually'), the next date after the last time it was used."""
        plan = self.j._deadline_plans.get(deadline_id)
        if plan is None:
            return None
        repeat = next((s.base.get("repeat") for s in plan.steps if s.base.get("repeat")), None)
        if not repeat:
            return None
        last = None
        for t in self.ordered:
            step = self._step_as_taken(t)
            if step is not None and deadline_id in step.satisfies:
                last = t
        if last is None:
            return None
        start = self.legal_of_taken(last)
        if isinstance(start, dt.datetime):
            start = start.astimezone(self.j.tz).date()
        return clock.compute(
            start, repeat["amount"], repeat["unit"], "no_roll", self.j.calendar, self.j.tz
        ).value

    def before(self, due: dt.date | dt.datetime) -> bool:
        """Is `at` on or before the due date (or instant)?"""
        return self.on_or_before(self.at, due)

    def on_or_before(self, when: dt.date | dt.datetime, due: dt.date | dt.datetime) -> bool:
        """Is `when` (an instant, or a day) on or before the due date (or instant)? A day against an instant
        compares the local day of the instant."""
        tz = self.j.tz
        if isinstance(due, dt.datetime):
            if isinstance(when, dt.datetime):
                return when <= due
            return when <= due.astimezone(tz).date()
        local = when.astimezone(tz).date() if isinstance(when, dt.datetime) else when
        return local <= due

    def on_or_after(self, when: dt.date | dt.datetime, due: dt.date | dt.datetime) -> bool:
        """Is `when` on or after the (not before) date or instant?"""
        tz = self.j.tz
        if isinstance(due, dt.datetime):
            if isinstance(when, dt.datetime):
                return when >= due
            return when >= due.astimezone(tz).date()
        local = when.astimezone(tz).date() if isinstance(when, dt.datetime) else when
        return local >= due

    # ---------------------------------------------------------------- legal dates

    @staticmethod
    def legal_of_inputs(step: Step, inputs: Mapping[str, Any] | None) -> dt.date | dt.datetime | None:
        """The step's legal date from its (cleaned) form, or None when the form does not give it."""
        item = step.legal_input
        if item is None or not inputs:
            return None
        value = inputs.get(item.id)
        return value if isinstance(value, dt.date) else None

    def legal_of_taken(self, taken: TakenStep) -> dt.date | dt.datetime:
        """The legal date of a taken step: the (corrected) date of the fact its dating input recorded; else
        the moment it was recorded."""
        step = self._step_as_taken(taken)
        item = step.legal_input if step is not None else None
        if item is None:
            return taken.at
        index = step.inputs.index(item)
        later = {e for other in step.inputs[index + 1 :] for e in other.all_records}
        owned = [e for e in item.all_records if e not in later] or list(item.all_records)
        value = next((taken.events[e] for e in owned if e in taken.events), None)
        if isinstance(value, dt.date):
            return value
        raw = (taken.inputs or {}).get(item.id)
        if isinstance(raw, dt.date):
            return raw
        if isinstance(raw, str):
            try:
                return dt.datetime.fromisoformat(raw) if "T" in raw else dt.date.fromisoformat(raw)
            except ValueError:
                pass
        return taken.at

    def cite(self, key: str | None) -> dict[str, Any] | None:
        return self.engine._cite(key, self.day)

    # ---------------------------------------------------------------- the verdict

    def verdict(self, step: Step) -> Verdict:
        self._undetermined_within = ()
        self._pending = {}
        self.legal = self.legal_of_inputs(step, self.inputs)
        # without the form, the date that judges the step's deadlines is not known yet (only that it is not
        # after `at`): a condition that `at` does not settle waits for the form
        self.legal_pending = self.inputs is None and step.legal_input is not None
        refusals: list[Refusal] = []
        notes: list[str] = []
        designation = self.state.designation
        first = step.provisions[0] if step.provisions else None
        if self.closed_by is not None and step.concerns != "person":
            refusals.append(
                Refusal(
                    f"The case is closed: “{self.label(self.closed_by.step)}” was recorded on "
                    f"{clock.format_date(self.closed_by.at.astimezone(self.j.tz).date())}.",
                    first,
                    "case_closed",
                )
            )
            return Verdict(False, tuple(refusals), step)
        if not step.applies_to(designation):
            if step.opens_case:
                reason = "The dog has already been declared in this case."
            elif designation is None:
                reason = "The dog has not been declared yet: this step comes after the declaration."
            else:
                label = (
                    self.j.designations[designation].label.lower()
                    if designation in self.j.designations
                    else designation
                )
                reason = f"This step does not apply to a {label}."
            refusals.append(Refusal(reason, first, "not_applicable"))
        if not step.repeatable and self.latest(step.id) is not None:
            refusals.append(
                Refusal(f"“{step.label}” has already been done in this case.", first, "already_taken")
            )
        refusals += self.empowerment(step)
        needs: list[str] = []
        for cond in step.requires:
            result, found = self.evaluate(cond, step, None)
            if result is None:
                needs.append(cond.why or self._pending.get(id(cond)) or self.reason_of(cond, step))
            elif not result:
                refusals += found
        if self.inputs is None and not refusals and needs:
            refusals = self._refused_on_every_ground(step)
        for did in self._undetermined_within:
            notes.append(
                f"The time to {self.j._deadline_plans[did].what} cannot be computed yet "
                f"({'; '.join(self.deadline(did).get('reasons', []))}); dogcase does not refuse the step for it."
            )
        return Verdict(not refusals, tuple(refusals), step, tuple(needs), tuple(notes))

    def _refused_on_every_ground(self, step: Step) -> list[Refusal]:
        """A step whose form chooses a ground (seizure_ground) is bound to be refused when no ground it could
        be given — none, if the input is optional, or any of the law's grounds for it — lets it pass the
        conditions that read the ground: it is then refused now, with the reasons each choice would meet,
        instead of being offered for a form that can only be refused. [] when some choice may pass."""
        item = next((i for i in step.inputs if i.kind == "seizure_ground"), None)
        if item is None or not any(_mentions(c, t) for c in step.requires for t in _GROUND_TESTS):
            return []
        grounds = self.engine.choices(step, self.state, self.day, self.at).get(item.id, [])
        candidates: list[dict[str, Any]] = [{}] if not item.required else []
        candidates += [{item.id: g["value"]} for g in grounds]
        found: list[Refusal] = []
        try:
            for candidate in candidates:
                self.probe = MappingProxyType(candidate)
                refused = [
                    r
                    for cond in step.requires
                    for ok, rs in [self.evaluate(cond, step, None)]
                    if ok is False
                    for r in rs
                ]
                if not refused:
                    return []
                found += [r for r in refused if r.reason not in {f.reason for f in found}]
        finally:
            self.probe = None
        return found

    probe: Mapping[str, Any] | None = None
    _undetermined_within: tuple[str, ...] = ()
    _pending: dict[int, str]
    legal: dt.date | dt.datetime | None = None
    legal_pending = False

    def designation_for(self, step: Step) -> tuple[str, ...]:
        if self.state.designation is not None:
            return (self.state.designation,)
        if step.opens_case:
            chosen = None
            if self.inputs:
                for item in step.inputs:
                    if item.kind == "designation" and item.id in self.inputs:
                        chosen = self.inputs[item.id]
            return (chosen,) if chosen else tuple(step.for_ or ())
        return tuple(step.roles_by_designation)

    def empowerment(self, step: Step) -> list[Refusal]:
        actor = self.actor
        if actor is None:
            return []
        refusals: list[Refusal] = []
        designations = self.designation_for(step)
        allowed_roles: set[str] = set()
        authority: list[dict[str, Any]] = []
        for des in designations:
            allowed_roles |= step.roles_by_designation.get(des, frozenset())
            authority += [a for a in step.authority.get(des, ()) if a not in authority]
        if not actor.roles & allowed_roles:
            names = [self.j.roles[r].label if r in self.j.roles else r for r in sorted(allowed_roles)]
            who = " or ".join(names) if names else "no one"
            if authority:
                reason = f"Only the {who} may do this ({'; '.join(a['citation'] for a in authority)})."
                cite = authority[0]
            else:
                reason = f"Only the {who} may do this (dogcase's reading: {step.roles_reading})."
                cite = step.provisions[0] if step.provisions else None
            refusals.append(Refusal(reason, cite, "not_empowered"))
        impartial = next(
            (
                step.impartial_by_designation.get(des)
                for des in designations
                if step.impartial_by_designation.get(des)
            ),
            None,
        )
        if impartial:
            earlier = [t for t in self.ordered if t.actor == actor.id and self._taints(t)]
            if earlier:
                took = ", ".join(dict.fromkeys(f"“{self.label(t.step)}”" for t in earlier))
                refusals.append(
                    Refusal(
                        f"This must be done by someone impartial, and this person already took part in the case "
                        f"({took}) ({impartial['citation']}).",
                        impartial,
                        "not_impartial",
                    )
                )
        return refusals

    def _taints(self, taken: TakenStep) -> bool:
        """Taking part in a case: any step but a clerical one or the hearing's own (impartial) steps."""
        step = self._step_as_taken(taken)
        if step is None:
            return True
        return not (step.administrative or step.impartial)

    # ---------------------------------------------------------------- conditions

    def reason_of(self, cond: Condition, step: Step) -> str:
        return cond.why or _default_reason(self, cond, step)

    def evaluate(
        self, cond: Condition, step: Step, parent: Condition | None
    ) -> tuple[bool | None, list[Refusal]]:
        """True / False / None (depends on the form's inputs, not given), with the refusals when False."""
        test = cond.test
        cite = self.cite(cond.provision) or (self.cite(parent.provision) if parent else None)
        code = cond.code or _DEFAULT_CODES.get(test, "wrong_state")
        if test in ("any", "all"):
            results = [self.evaluate(p, step, cond) for p in cond.parts]
            values = [r for r, _ in results]
            if test == "any":
                if True in values:
                    return True, []
                if None in values:
                    return None, []
            else:
                if False not in values:
                    return (None if None in values else True), []
            failing = [f for r, found in results if r is False for f in found]
            if cond.why or test == "any":
                reason = cond.why or "One of these is needed: " + " Or: ".join(f.reason for f in failing)
                code = cond.code or (failing[0].code if failing else "wrong_state")
                return False, [Refusal(reason, cite or (failing[0].provision if failing else None), code)]
            return False, failing
        if test == "not":
            inner, _ = self.evaluate(cond.parts[0], step, cond)
            if inner is None:
                return None, []
            if inner:
                return False, [Refusal(self.reason_of(cond, step), cite, code)]
            return True, []
        if test in _INPUT_TESTS and self.inputs is None:
            if self.probe is None or test not in _GROUND_TESTS:
                return None, []
            # a ground the form could give: is the step refused whatever ground is chosen?
            self.inputs = self.probe
            try:
                return self._leaf(cond, step, cite, code)
            finally:
                self.inputs = None
        ok, refusals = self._leaf(cond, step, cite, code)
        if self.legal_pending and test in _DEADLINE_TESTS and (ok is (test != "within")):
            # `at` does not settle it: the legal date (the form's, not after `at`) may be earlier
            item = step.legal_input
            due = self.due_value(cond.arg)
            plan = self.j._deadline_plans[cond.arg]
            word = {"within": "on or before", "from": "on or after", "after": "after"}[test]
            self._pending[id(cond)] = (
                f"Checked with the form: “{item.label}” must be {word} {_when(due, self.j)} "
                f"(the time to {plan.what})."
            )
            return None, []
        return ok, refusals

    def _leaf(self, cond: Condition, step: Step, cite, code) -> tuple[bool, list[Refusal]]:
        test, arg = cond.test, cond.arg

        def refuse(reason: str | None = None, provision=None, c: str | None = None):
            return False, [
                Refusal(cond.why or reason or _default_reason(self, cond, step), provision or cite, c or code)
            ]

        if test == "done":
            return (True, []) if self.latest(arg) else refuse()
        if test == "recorded":
            return (True, []) if arg in self.state.events else refuse()
        if test == "not_done":
            return refuse() if self.latest(arg) else (True, [])
        if test in _DEADLINE_TESTS:
            if not self.j.deadline_applies(
                arg, self.state.designation, undeclared=self.state.designation is None
            ):
                # the law sets no such time for this designation (347.541's clock is a dangerous dog's, not a
                # potentially dangerous dog's): nothing to wait for, nothing to be late for
                return True, []
            answer = self.deadline(arg)
            due = self.due_value(arg)
            if due is None:
                if test == "within":
                    self._undetermined_within = (*self._undetermined_within, arg)
                    return True, []
                reasons = "; ".join(answer.get("reasons", [])) or "the events it runs from are not recorded"
                what = self.j._deadline_plans[arg].what
                return refuse(
                    f"Cannot tell yet when this is allowed: the date for “{what}” cannot be computed ({reasons}).",
                    c="undetermined",
                )
            # judged by the step's legal date (the date of the fact it records), else by `at`
            when = self.legal if self.legal is not None else self.at
            if test == "within":
                ok = self.on_or_before(when, due)
            elif test == "from":
                ok = self.on_or_after(when, due)
            else:  # after: only once the due date (or instant) has passed
                ok = not self.on_or_before(when, due)
            return (True, []) if ok else refuse(_default_reason(self, cond, step, due))
        if test in ("outcome", "not_outcome"):
            taken = self.latest(arg["step"])
            has = taken is not None and taken.outcome in arg["in"]
            if test == "outcome":
                return (True, []) if has else refuse()
            return refuse(_default_reason(self, cond, step, taken)) if has else (True, [])
        if test == "last":
            latest = None
            for t in self.ordered:
                if t.step in arg["of"]:
                    latest = t
            return (True, []) if latest is not None and latest.step in arg["in"] else refuse()
        if test == "prohibited":
            designation = self.state.designation
            for v in self.engine._prohibitions.get(arg, ()):
                scope = v.effect.get("for")
                if v.in_force.contains(self.day) and (scope is None or designation in scope):
                    return refuse(
                        f"Not allowed: no one may {v.effect['what']} ({v.citation}).",
                        {**v.cite(), "pack": v.pack},
                    )
            return True, []
        if test == "proven":
            proofs = set(self._input_of(step, "proofs") or ())
            missing = [
                (rid, versions)
                for rid, versions in self.engine._registration_conditions(
                    self.state.designation, self.day
                ).items()
                if rid not in proofs
            ]
            if not missing:
                return True, []
            return False, [
                Refusal(
                    f"Not proven: {versions[-1].effect['what']} ({'; '.join(v.citation for v in versions)}).",
                    {**versions[-1].cite(), "pack": versions[-1].pack},
                    code,
                )
                for rid, versions in missing
            ]
        if test == "ground_of":
            taken = self.latest(arg["step"])
            ground = None
            if taken is not None:
                as_taken = self._step_as_taken(taken)
                field_ids = [
                    i.id for i in (as_taken.inputs if as_taken else ()) if i.kind == "seizure_ground"
                ]
                ground = next(
                    ((taken.inputs or {}).get(f) for f in field_ids if (taken.inputs or {}).get(f)), None
                )
            if ground in arg["in"]:
                return True, []
            return refuse()
        if test == "input_by":
            value = (self.inputs or {}).get(arg["input"])
            if not isinstance(value, dt.date):
                return True, []  # nothing given to judge: the input's own rule (required or not) decides
            due = self.due_value(arg["deadline"])
            if due is None:
                return True, []  # the time cannot be computed yet: the benefit of the doubt
            if self.on_or_before(value, due):
                return True, []
            return refuse(_default_reason(self, cond, step, due))
        if test == "confirmed":
            if self.inputs and self.inputs.get(arg) is True:
                return True, []
            label = next((i.label for i in step.inputs if i.id == arg), arg)
            return refuse(f"Not confirmed: {label}.")
        if test in ("seizure_ground", "ground_in"):
            ground = self._input_of(step, "seizure_ground")
            if test == "ground_in":
                return (
                    (True, [])
                    if ground in arg
                    else refuse(f"The ground chosen is not one of: {', '.join(arg)}.")
                )
            grounds = self.engine._grounds_for(step.act, self.state.designation, self.day)
            if not ground:
                return refuse("Choose the legal ground for this step (the clause of the law that allows it).")
            version = grounds.get(ground)
            if version is None:
                return refuse(f"“{ground}” is not a ground for this step in {self.j.name}.")
            after = version.effect.get("after")
            if after:
                did = after["deadline"]
                due = self.due_value(did)
                trig_cite = {**version.cite(), "pack": version.pack}
                if due is None:
                    return refuse(
                        f"The ground “{version.effect['what']}” ({version.citation}) applies only after "
                        f"the time to {self.j._deadline_plans[did].what}, which cannot be computed yet.",
                        trig_cite,
                    )
                kind = self.j._deadline_plans[did].kind
                passed = (
                    (self.day >= due if not isinstance(due, dt.datetime) else self.at >= due)
                    if kind == "not_before"
                    else not self.before(due)
                )
                if not passed:
                    when = clock.format_date(
                        due if not isinstance(due, dt.datetime) else due.astimezone(self.j.tz).date()
                    )
                    return refuse(
                        f"The ground “{version.effect['what']}” ({version.citation}) applies only "
                        f"{'from' if kind == 'not_before' else 'after'} {when} "
                        f"(the time to {self.j._deadline_plans[did].what}).",
                        trig_cite,
                    )
            return True, []
        raise AssertionError(f"unknown condition test {test!r}")  # pragma: no cover - the schema rules it out

    def _input_of(self, step: Step, kind: str) -> Any:
        for item in step.inputs:
            if item.kind == kind and self.inputs and item.id in self.inputs:
                return self.inputs[item.id]
        return None

    # ---------------------------------------------------------------- obligations

    def obligations(self) -> list[Obligation]:
        j = self.j
        designation = self.state.designation
        out: list[Obligation] = []
        withdrawn_by = self.closed_by or self.ended_by
        for did in j.deadline_ids():
            plan = j._deadline_plans[did]
            if self.engine.deadline_withdrawn(did, designation) is not None:
                continue  # the city withdrew it (`withdraws:`), e.g. registration of a banned dog
            scopes = [s.version.effect.get("for") for s in plan.steps]
            scoped = any(s is not None for s in scopes)
            # a provision with no `for` reaches every case, a case not declared too (347.56)
            if scoped and not any(s is None or designation in s for s in scopes):
                continue
            triggers = {s.trigger or self._setting_trigger(s) for s in plan.steps}
            present = [t for t in triggers if t and t in self.events]
            null_trigger = any(t is None for t in triggers)
            if not present and not (null_trigger and scoped and designation is not None):
                continue
            answer = self.deadline(did)
            due = self.due_value(did)
            anchor = self._anchor(present)
            met_by, met_at = self._met(did, anchor, plan)
            status, late, reason = self._status(plan, due, answer, met_at)
            # a time a step concerning a person started (the review of a 347.542 ownership ban) outlives the
            # dog's case: it is not withdrawn when the case closes or the designation ends
            started_by = self._step_as_taken(self.ordered[anchor]) if anchor >= 0 else None
            personal = started_by is not None and started_by.concerns == "person"
            if met_by is None and withdrawn_by is not None and status != "met" and not personal:
                status = "withdrawn"
                reason = (
                    f"“{self.label(withdrawn_by.step)}”: the case is closed or the designation has ended."
                )
            citations = tuple(dict(e["provision"]) for e in answer.get("entries", ()))
            out.append(
                Obligation(
                    deadline_id=did,
                    who=plan.who,
                    kind=plan.kind,
                    what=plan.what_for(designation),
                    due=due,
                    status=status,
                    met_by=met_by,
                    late=late,
                    citations=citations,
                    rule=answer.get("rule", ""),
                    consequences=() if plan.right else self._consequences(did),
                    right=plan.right,
                    notes=tuple(answer.get("notes", ())),
                    answer=MappingProxyType(dict(answer)),
                    reason=reason
                    or (self._undetermined_reason(answer) if status == "undetermined" else None),
                )
            )
        out += self._imposed(withdrawn_by)
        return out

    def _undetermined_reason(self, answer: Mapping[str, Any]) -> str | None:
        """Why the time cannot be computed, and what is already known: another provision's date is a bound
        (the owner keeps at least it: Tracy's window has not started, the state's 14 days still run)."""
        reasons = "; ".join(answer.get("reasons", [])) or None
        bound = answer.get("bound")
        if not bound:
            return reasons
        which = "at_least" if "at_least" in bound else "at_most"
        value = bound[which]
        day = dt.datetime.fromisoformat(value) if "T" in value else dt.date.fromisoformat(value)
        known = [
            e["provision"]["citation"]
            for e in answer.get("entries", ())
            if e.get("status") == "determined" and e.get("value") == value
        ]
        words = "at least until" if which == "at_least" else "at most until"
        text = f"{words} {_when(day, self.j)}" + (f" ({'; '.join(known)})" if known else "")
        return f"{reasons}; {text}" if reasons else text

    def _setting_trigger(self, plan_step) -> str | None:
        if plan_step.setting is None:
            return None
        sid = plan_step.setting.id
        value = (self.state.settings or {}).get(sid, self.j._setting_values.get(sid))
        return value if isinstance(value, str) else None

    def _anchor(self, events: list[str]) -> int:
        """The position of the first step whose recorded value of one of these events is the one in force."""
        positions = []
        for event in events:
            last = None
            for i, t in enumerate(self.ordered):
                if event in t.events:
                    last = i
            if last is not None:
                positions.append(last)
        return min(positions) if positions else -1

    def _met(self, did: str, anchor: int, plan) -> tuple[str | None, TakenStep | None]:
        repeat = any(s.base.get("repeat") for s in plan.steps)
        for i, t in enumerate(self.ordered):
            if i < anchor or (repeat and i == anchor):
                continue
            step = self._step_as_taken(t)
            if step is not None and did in step.satisfies:
                return t.step, t
        return None, None

    def _status(self, plan, due, answer, met_at: TakenStep | None) -> tuple[str, bool, str | None]:
        kind = plan.kind
        if met_at is not None:
            late = False
            if due is not None and kind == "due":
                # judged by the date of the fact (the step's legal date), not when staff recorded it
                late = not self.on_or_before(self.legal_of_taken(met_at), due)
            return "met", late, None
        if due is None:
            return "undetermined", False, None
        if kind == "not_before":
            reached = self.at >= due if isinstance(due, dt.datetime) else self.day >= due
            return ("available" if reached else "not_yet"), False, None
        if self.before(due):
            return "open", False, None
        if plan.right:
            return (
                "lapsed",
                False,
                f"The owner's time to {plan.what} ended on {_when(due, self.j)} unused; it was a right, not a "
                "duty.",
            )
        return "overdue", False, None

    def _consequences(self, did: str) -> tuple[dict[str, Any], ...]:
        designation = self.state.designation
        out = []
        for tid, versions in self.engine._triggers.items():
            for v in versions:
                after = v.effect.get("after")
                if not after or after["deadline"] != did or not v.in_force.contains(self.day):
                    continue
                if designation is not None and designation not in v.effect["for"]:
                    continue
                act = v.effect.get("act", "seize")
                out.append(
                    {
                        "trigger": tid,
                        "act": act,
                        "what": f"{_ACT_WORDS.get(act, act).capitalize()} authorized under {v.citation}: "
                        f"{v.effect['what']}",
                        "provision": {**v.cite(), "pack": v.pack},
                    }
                )
        return tuple(out)

    def _provision_reaches(self, key: str) -> bool:
        """Does the provision `key` (pack:id or id) concern the case's designation (its `for` or
        `designations`, when it names any)?"""
        designation = self.state.designation
        if designation is None:
            return True
        pack_id, _, pid = key.rpartition(":")
        for layer in self.j.layers:
            if pack_id and layer.id != pack_id:
                continue
            provision = layer.provisions.get(pid)
            if provision is None:
                continue
            version = provision.version_on(self.day) or provision.versions[-1]
            effect = version.effect or {}
            scope = effect.get("for") or effect.get("designations")
            return not scope or designation in scope
        return True

    def _imposed(self, withdrawn_by: TakenStep | None) -> list[Obligation]:
        out = []
        for t in self.ordered:
            step = self._step_as_taken(t)
            if step is None:
                continue
            for rid, until, prov in step.imposes:
                if prov and not self._provision_reaches(prov):
                    continue  # imposed by a provision that does not concern this designation
                versions = [
                    v
                    for v in self.engine._requirements.get(rid, ())
                    if v.in_force.contains(self.day)
                    and (self.state.designation is None or self.state.designation in v.effect["for"])
                ]
                if not versions:
                    continue
                ended = None
                if until:
                    ended = next((x for x in self.ordered if x.step == until and x.at >= t.at), None)
                if ended is not None:
                    status, reason = "met", f"until “{self.label(until)}”, recorded"
                elif withdrawn_by is not None:
                    status, reason = "withdrawn", f"“{self.label(withdrawn_by.step)}”: the case is closed."
                else:
                    status = "open"
                    reason = (
                        f"from “{step.label}” until “{self.label(until)}”"
                        if until
                        else f"from “{step.label}”"
                    )
                cites = [{**v.cite(), "pack": v.pack} for v in versions]
                if prov:
                    extra = self.cite(prov)
                    if extra and extra not in cites:
                        cites.insert(0, extra)
                out.append(
                    Obligation(
                        deadline_id=None,
                        requirement=rid,
                        who="owner",
                        kind="ongoing",
                        what=versions[-1].effect["what"],
                        due=None,
                        status=status,
                        met_by=ended.step if ended else None,
                        citations=tuple(cites),
                        rule=f"imposed by “{step.label}”",
                        reason=reason,
                    )
                )
        return out


def _when(value: dt.date | dt.datetime, j) -> str:
    if isinstance(value, dt.datetime):
        return clock.format_time(value.astimezone(j.tz))
    return clock.format_date(value)


def _condition_words(ctx: _Context, cond: Condition, step: Step) -> str:
    """A notice element's condition in words ("if “Seize the dog” has been done")."""
    if cond.test == "done":
        return f"if “{ctx.label(cond.arg)}” has been done"
    if cond.test == "not_done":
        return f"unless “{ctx.label(cond.arg)}” has been done"
    if cond.test == "recorded":
        return f"if the date of {ctx.j.event_label(cond.arg)} is on record"
    if cond.test == "outcome":
        wanted = " or ".join(o.replace("_", " ") for o in cond.arg["in"])
        return f"if “{ctx.label(cond.arg['step'])}” ended with: {wanted}"
    return "only when its condition holds for the case"


def _default_reason(ctx: _Context, cond: Condition, step: Step, extra: Any = None) -> str:
    test, arg = cond.test, cond.arg
    j = ctx.j
    if test == "done":
        return f"“{ctx.label(arg)}” must come first, and it has not been done in this case."
    if test == "not_done":
        return f"Not possible once “{ctx.label(arg)}” has been done, and it has been."
    if test == "recorded":
        return f"The date of {j.event_label(arg)} must be on record first."
    if test in _DEADLINE_TESTS:
        plan = j._deadline_plans[arg]
        who = "the owner's" if plan.who == "owner" else "the city's"
        if extra is None:
            return f"This depends on {who} time to {plan.what}."
        if test == "within":
            return f"Too late: {who} time to {plan.what} ended on {_when(extra, j)}."
        if test == "from":
            return f"Not yet: this is possible from {_when(extra, j)} ({plan.what})."
        return f"Not yet: this must wait until {who} time to {plan.what} has passed (it ends on {_when(extra, j)})."
    if test == "outcome":
        wanted = " or ".join(o.replace("_", " ") for o in arg["in"])
        return f"This needs “{ctx.label(arg['step'])}” to have ended with: {wanted}."
    if test == "not_outcome":
        got = extra.outcome.replace("_", " ") if extra is not None and extra.outcome else ""
        return f"Not possible: “{ctx.label(arg['step'])}” ended with {got}."
    if test == "last":
        return "Not possible in the case's present state."
    if test == "proven":
        return "The owner must prove every condition of registration (checked with the form's proofs)."
    if test in ("seizure_ground", "ground_in"):
        return "Needs the legal ground for the step (checked with the form)."
    if test == "confirmed":
        label = next((i.label for i in step.inputs if i.id == arg), arg)
        return f"Needs confirmation: {label}."
    if test == "ground_of":
        grounds = ", ".join(g.replace("_", " ") for g in arg["in"])
        return f"This applies only when the latest “{ctx.label(arg['step'])}” was on the ground: {grounds}."
    if test == "input_by":
        label = next((i.label for i in step.inputs if i.id == arg["input"]), arg["input"])
        plan = j._deadline_plans[arg["deadline"]]
        who = "the owner's" if plan.who == "owner" else "the city's"
        if extra is None:
            return f"“{label}” must fall within {who} time to {plan.what}."
        return f"“{label}” must be on or before {_when(extra, j)} ({who} time to {plan.what})."
    return "Not possible now."
