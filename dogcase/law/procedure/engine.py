"""ProcedureEngine: the layered procedure of one jurisdiction, built and checked from its packs (structure.py),
as in force on a day (layering.py), a step's form (forms.py), and asked about a case: may this person take
this step now, what is owed (context.py)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from ..model import ProvisionVersion, Withdrawal
from ..schema import Where
from .cleaning import check_instant
from .context import CaseContext
from .forms import ProcedureForms
from .jurisdiction_view import JurisdictionView
from .layering import ProcedureLayering
from .model import Actor, CaseState, Condition, Obligation, Step, StepDef, Verdict
from .parsing import parse_condition
from .structure import ProcedureStructure


class ProcedureEngine(ProcedureStructure, ProcedureLayering, ProcedureForms):
    """The layered procedure of one jurisdiction, checked as a whole when built."""

    def __init__(self, j: JurisdictionView) -> None:
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
        self.element_conditions: dict[tuple[int, str], Condition] = {}
        for versions in self._notices.values():
            for v in versions:
                for index, element in enumerate(v.effect.get("elements") or ()):
                    if "when" in element:
                        self.element_conditions[(id(v), element["id"])] = parse_condition(
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
        days: set[dt.date] = set(j.boundaries)
        for defs in self.defs.values():
            for d in defs:
                for day in (d.in_force.start, d.in_force.end):
                    if day is not None:
                        days.add(day)
        self._days = sorted(days)

    @property
    def notices(self) -> Mapping[str, list[ProvisionVersion]]:
        """The notice provisions of every layer (every version), by notice id."""
        return self._notices

    @property
    def change_days(self) -> list[dt.date]:
        """The days the procedure's law changes, in order: the steps in force are the same from one to the next."""
        return self._days

    # ----------------------------------------------------------------------------------- checking a step

    def check_step(
        self,
        step_id: str,
        state: CaseState,
        actor: Actor,
        at: dt.datetime,
        inputs: Mapping[str, Any] | None = None,
    ) -> Verdict:
        check_instant(at, "at")
        day = at.astimezone(self.j.tz).date()
        step = self.case_step(step_id, day, state.designation)
        cleaned: dict[str, Any] | None = None
        if inputs is not None:
            cleaned = self.validate_inputs(step, state, inputs, day, partial=True, at=at)
        ctx = CaseContext(self, state, actor, at, day, cleaned)
        return ctx.verdict(step)

    def available_steps(self, state: CaseState, actor: Actor, at: dt.datetime) -> list[Verdict]:
        check_instant(at, "at")
        day = at.astimezone(self.j.tz).date()
        ctx = CaseContext(self, state, actor, at, day, None)
        return [
            ctx.verdict(step.for_designation(state.designation))
            for step in self.steps_on(day).values()
            if step.applies_to(state.designation)
        ]

    # ----------------------------------------------------------------------------------- obligations

    def obligations(self, state: CaseState, at: dt.datetime) -> list[Obligation]:
        check_instant(at, "at")
        day = at.astimezone(self.j.tz).date()
        ctx = CaseContext(self, state, None, at, day, None)
        return ctx.obligations()
