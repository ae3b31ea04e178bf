"""CaseContext: one question about one case at one instant — the verdict on a step, each condition evaluated,
with the refusals in plain English (its obligations: obligations.py)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from .. import clock
from ..errors import InputError
from .model import (
    DEADLINE_TESTS,
    GROUND_TESTS,
    INPUT_TESTS,
    Actor,
    CaseState,
    Condition,
    Refusal,
    Step,
    TakenStep,
    Verdict,
)
from .obligations import CaseObligations
from .parsing import mentions
from .words import DEFAULT_CODES, default_reason, when_words


class CaseContext(CaseObligations):
    """One question about one case at one instant."""

    def __init__(self, engine: Any, state: CaseState, actor: Actor | None, at, day, inputs) -> None:
        self.engine = engine  # the ProcedureEngine (engine.py, which imports this module)
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
        plan = self.j.deadline_plans.get(deadline_id)
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
        return self.engine.cite(key, self.day)

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
        first = self.step_cite(step)
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
            # the step is not for this designation: the provision that gives it (to another) says why
            refusals.append(
                Refusal(reason, step.provisions[0] if step.provisions else None, "not_applicable")
            )
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
                f"The time to {self.j.deadline_plans[did].what} cannot be computed yet "
                f"({'; '.join(self.deadline(did).get('reasons', []))}); dogcase does not refuse the step for it."
            )
        return Verdict(not refusals, tuple(refusals), step, tuple(needs), tuple(notes))

    def step_cite(self, step: Step) -> dict[str, Any] | None:
        """The provision a refusal of the step as a whole cites (the case is closed, the step was already taken,
        who may take it by dogcase's reading): the first of the step's provisions that concerns the case's
        designation, the city's before the state's — the city's step is the one the case runs, and a state
        provision for another designation (347.541, a dangerous dog's) is not the law of a potentially
        dangerous dog's appeal. The step's first provision when none concerns it."""
        if not step.provisions:
            return None
        reaching = [c for c in step.provisions if self._provision_reaches(c.get("provision") or "")]
        for cite in reaching:
            if cite.get("layer") == "city":
                return cite
        return reaching[0] if reaching else step.provisions[0]

    def _refused_on_every_ground(self, step: Step) -> list[Refusal]:
        """A step whose form chooses a ground (seizure_ground) is bound to be refused when no ground it could
        be given — none, if the input is optional, or any of the law's grounds for it — lets it pass the
        conditions that read the ground: it is then refused now, with the reasons each choice would meet,
        instead of being offered for a form that can only be refused. [] when some choice may pass."""
        item = next((i for i in step.inputs if i.kind == "seizure_ground"), None)
        if item is None or not any(mentions(c, t) for c in step.requires for t in GROUND_TESTS):
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
        if not allowed_roles:
            # the law gives the step to no one for this dog (e.g. security for the costs of care, which
            # 347.541 gives a dangerous dog's owner only)
            label = (
                self.j.designations[designations[0]].label.lower()
                if designations and designations[0] in self.j.designations
                else "dog"
            )
            refusals.append(
                Refusal(
                    f"The law gives no one this step for a {label}.", self.step_cite(step), "not_empowered"
                )
            )
        elif not actor.roles & allowed_roles:
            names = [self.j.roles[r].label if r in self.j.roles else r for r in sorted(allowed_roles)]
            who = " or ".join(names)
            if authority:
                reason = f"Only the {who} may do this ({'; '.join(a['citation'] for a in authority)})."
                cite = authority[0]
            else:
                reason = f"Only the {who} may do this (dogcase's reading: {step.roles_reading})."
                cite = self.step_cite(step)
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

    def _with_limits(self, reason: str, cond: Condition) -> str:
        """A pack's own words for a refused time (`why:`), with the days the time allows that it does not name:
        the last allowed day of each `within`/`input_by` time and the first of each `from` time, in words with
        their citations (a staff member must not have to count the days again)."""
        said = []
        for leaf in _leaves(cond):
            # `after` waits for a time to pass before the step is taken: it sets no day for a date the form gives
            if leaf.test not in ("within", "from", "input_by"):
                continue
            deadline = leaf.arg.get("deadline") if leaf.test == "input_by" else leaf.arg
            if deadline not in self.j.deadline_plans:
                continue
            due = self.due_value(deadline)
            if due is None:
                continue
            first = leaf.test == "from"
            day = when_words(due, self.j)
            if day in reason or any(day in s for s in said):
                continue
            word = "first" if first else "last"
            answer = self.deadline(deadline)
            chosen = set(answer.get("set_by") or ())
            cites = "; ".join(
                dict.fromkeys(
                    e["provision"]["citation"]
                    for e in answer.get("entries", ())
                    if (e.get("provision") or {}).get("citation")
                    and (not chosen or e["provision"].get("provision") in chosen)
                )
            )
            said.append(f"The {word} allowed day is {day}{f' ({cites})' if cites else ''}.")
        return " ".join([reason.rstrip(), *said]) if said else reason

    def reason_of(self, cond: Condition, step: Step) -> str:
        return cond.why or default_reason(self, cond, step)

    def evaluate(
        self, cond: Condition, step: Step, parent: Condition | None
    ) -> tuple[bool | None, list[Refusal]]:
        """True / False / None (depends on the form's inputs, not given), with the refusals when False."""
        test = cond.test
        cite = self.cite(cond.provision) or (self.cite(parent.provision) if parent else None)
        code = cond.code or DEFAULT_CODES.get(test, "wrong_state")
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
                if cond.why:  # the pack's words, and the days its time allows
                    reason = self._with_limits(reason, cond)
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
        if test in INPUT_TESTS and self.inputs is None:
            if self.probe is None or test not in GROUND_TESTS:
                return None, []
            # a ground the form could give: is the step refused whatever ground is chosen?
            self.inputs = self.probe
            try:
                return self._leaf(cond, step, cite, code)
            finally:
                self.inputs = None
        ok, refusals = self._leaf(cond, step, cite, code)
        due = self.due_value(cond.arg) if self.legal_pending and test in DEADLINE_TESTS else None
        if due is not None and (ok is (test != "within")):
            # `at` does not settle it: the legal date (the form's, not after `at`) may be earlier (a time the law
            # does not set for the case — no due date — leaves nothing for the form to settle)
            item = step.legal_input
            plan = self.j.deadline_plans[cond.arg]
            word = {"within": "on or before", "from": "on or after", "after": "after"}[test]
            self._pending[id(cond)] = (
                f"Checked with the form: “{item.label}” must be {word} {when_words(due, self.j)} "
                f"(the time to {plan.what})."
            )
            return None, []
        return ok, refusals

    def _leaf(self, cond: Condition, step: Step, cite, code) -> tuple[bool, list[Refusal]]:
        test, arg = cond.test, cond.arg

        def refuse(reason: str | None = None, provision=None, c: str | None = None):
            said = self._with_limits(cond.why, cond) if cond.why else None
            return False, [
                Refusal(said or reason or default_reason(self, cond, step), provision or cite, c or code)
            ]

        if test == "done":
            return (True, []) if self.latest(arg) else refuse()
        if test == "recorded":
            return (True, []) if arg in self.state.events else refuse()
        if test == "designation":
            return (True, []) if self.state.designation in arg else refuse()
        if test == "not_done":
            return refuse() if self.latest(arg) else (True, [])
        if test in DEADLINE_TESTS:
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
                what = self.j.deadline_plans[arg].what
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
            return (True, []) if ok else refuse(default_reason(self, cond, step, due))
        if test in ("outcome", "not_outcome"):
            taken = self.latest(arg["step"])
            has = taken is not None and taken.outcome in arg["in"]
            if test == "outcome":
                return (True, []) if has else refuse()
            return refuse(default_reason(self, cond, step, taken)) if has else (True, [])
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
            return refuse(default_reason(self, cond, step, due))
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
                        f"the time to {self.j.deadline_plans[did].what}, which cannot be computed yet.",
                        trig_cite,
                    )
                kind = self.j.deadline_plans[did].kind
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
                        f"(the time to {self.j.deadline_plans[did].what}).",
                        trig_cite,
                    )
            return True, []
        raise AssertionError(f"unknown condition test {test!r}")  # pragma: no cover - the schema rules it out

    def _input_of(self, step: Step, kind: str) -> Any:
        for item in step.inputs:
            if item.kind == kind and self.inputs and item.id in self.inputs:
                return self.inputs[item.id]
        return None


def _leaves(cond: Condition):
    """The conditions of a condition's tree that are not `any`/`all`/`not`."""
    if cond.test in ("any", "all", "not"):
        for part in cond.parts:
            yield from _leaves(part)
    else:
        yield cond
