"""A pack's `procedure:` section, read and checked within the pack: steps, their forms and conditions."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any

from ..model import InForce
from ..packschema import SERVICE_METHOD, TEXT_LIMIT_MAX
from ..schema import Where
from .model import CONTENTS_INPUT, DESIGNATED_INPUT, Condition, Input, StepDef, StepOutcome


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
            if ("carries" in raw_input or "carries_provision" in raw_input) and kind != "jurisdiction":
                raise iwhere.fail("carries: is for a jurisdiction input (where the dog moved to)")
            if ("carries" in raw_input) != ("carries_provision" in raw_input):
                raise iwhere.fail(
                    "carries: and carries_provision: go together (the designations whose case goes with the "
                    "dog, and the provision that says the new jurisdiction registers it)"
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
                    carries=tuple(raw_input.get("carries", ())),
                    carries_provision=(
                        None
                        if "carries_provision" not in raw_input
                        else raw_input["carries_provision"]
                        if ":" in raw_input["carries_provision"]
                        else f"{pack_id}:{raw_input['carries_provision']}"
                    ),
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
            parse_condition(
                c,
                Where(here.file, getattr(c, "line", line), f"{here.path}.requires[{ci}]"),
                pack_id,
                ref,
            )
            for ci, c in enumerate(item.get("requires", ()))
        )
        for c in walk_conditions(conditions):
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
            if any(mentions(c, inp_test) for c in conditions):
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
                outcome=parse_outcome(item.get("outcome")),
                file=where.file,
                line=line or 0,
                key_lines=MappingProxyType(dict(getattr(item, "key_lines", {}))),
            )
        )
    return tuple(steps)


def parse_outcome(raw: Any) -> StepOutcome | None:
    """A step's `outcome:` (its shape and choices checked by packschema): a sentence, or {by, choice: sentence,
    otherwise}."""
    if raw is None:
        return None
    if isinstance(raw, str):
        return StepOutcome(text=" ".join(raw.split()))
    variants = {str(k): " ".join(str(v).split()) for k, v in raw.items() if k not in ("by", "otherwise")}
    otherwise = raw.get("otherwise")
    return StepOutcome(
        text=" ".join(otherwise.split()) if otherwise else None,
        by=raw["by"],
        variants=MappingProxyType(variants),
    )


def _step_in_force(raw: Any, default: InForce, where: Where) -> InForce:
    if not raw:
        return default
    start = raw["from"] if "from" in raw else default.start
    end = raw["until"] if "until" in raw else default.end
    if start is not None and end is not None and not start < end:
        raise where.fail(f"in force from {start} must be before until {end}")
    return InForce(start, end)


def walk_conditions(conditions: Iterable[Condition]):
    for c in conditions:
        yield c
        yield from walk_conditions(c.parts)


def mentions(cond: Condition, test: str) -> bool:
    return cond.test == test or any(mentions(p, test) for p in cond.parts)


def parse_condition(raw: Any, where: Where, pack_id: str, ref) -> Condition:
    test = next(k for k in raw if k not in ("provision", "why", "code"))
    arg = raw[test]
    parts: tuple[Condition, ...] = ()
    if test in ("any", "all"):
        parts = tuple(
            parse_condition(
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
            parse_condition(
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
