"""The acts waiting on the city in a case that no deadline of the law times: a step the law lets staff take
now, that follows an act already taken (a `done:` requirement) and has not been taken since it — the City
Council's confirmation after the hearing officer's recommendation ((I)(4) sets no time), the notice to serve
after a declaration, the receipt of a notice to record. Kept beside the case's obligation rows (deadline id
`act:<step>`, kind "act", no due date), recomputed with them by every act and by the sweep, so that each
role's dashboard finds them with the same bounded queries as its deadlines.

Left out: a step the law times (its deadline's own row already lists it while it is open), the step that
opens a case (the officer's incidents to decide), a step the owner files (their request or report is theirs),
a further service of a notice (recorded on the document when needed), and a step that follows no act of the
case (what is recorded when it happens: a transfer, a death, a conviction)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.utils import timezone

from dogcase.cases.access import staff_roles_for_pack_roles
from dogcase.law import Actor, CaseState

ACT_PREFIX = "act:"
KIND = "act"
DASHBOARD_ACTOR = "dashboard"  # an actor who took no step: no impartiality refusal is about them


@dataclass(frozen=True)
class WaitingAct:
    step: str
    label: str
    staff_roles: str  # ",role,role,"
    citations: tuple[dict[str, Any], ...]
    timed: bool  # a deadline of the law is met by it (not open now: not computed, or met or lapsed before)

    @property
    def deadline_id(self) -> str:
        return ACT_PREFIX + self.step


def _prerequisites(conditions) -> set[str]:
    """The steps a step's top-level `done:` requirements (and those of an `all:`) name."""
    out: set[str] = set()
    for cond in conditions:
        if cond.test == "done" and isinstance(cond.arg, str):
            out.add(cond.arg)
        elif cond.test == "all":
            out |= _prerequisites(cond.parts)
    return out


def _last_taken(state: CaseState, steps: set[str]) -> dt.datetime | None:
    times = [t.at for t in state.taken if t.step in steps]
    return max(times) if times else None


def is_waiting(step, state: CaseState, active_deadlines: set[str]) -> bool:
    """Whether a step, if the law allows it now, is an act waiting on the city (see the module's note): what
    it follows has been taken, and it has not been taken since."""
    if step.opens_case or step.filed_by_owner or set(step.satisfies) & active_deadlines:
        return False
    if step.service_of and step.repeatable:
        return False
    before = _prerequisites(step.requires)
    taken = {t.step for t in state.taken}
    if not before or not before <= taken:
        return False
    if step.id in taken:
        if not step.repeatable:
            return False
        # taken again only after what it follows was taken again (a further destruction hearing)
        if _last_taken(state, {step.id}) >= _last_taken(state, before):
            return False
    return True


def waiting_acts(j, state: CaseState, at: dt.datetime, active_deadlines: set[str]) -> list[WaitingAct]:
    """The acts waiting on the city's staff in the case now, each with the staff roles that may take it: the
    steps that follow what was taken, each then checked by the law engine (as an actor of every role)."""
    every_role = frozenset(role_id for layer in j.layers for role_id in layer.roles)
    actor = Actor(id=DASHBOARD_ACTOR, roles=every_role)
    out = []
    for step in j.procedure(timezone.localtime(at).date()):
        if not step.applies_to(state.designation):
            continue
        step = step.for_designation(state.designation)
        if not is_waiting(step, state, active_deadlines):
            continue
        verdict = j.check_step(step.id, state, actor, at)
        if not verdict.allowed:
            continue
        step = verdict.step
        roles = step.roles_by_designation.get(state.designation or "", step.roles)
        staff = staff_roles_for_pack_roles(j.id, roles)
        if not staff:
            continue
        out.append(
            WaitingAct(
                step=step.id,
                label=step.label,
                staff_roles="," + ",".join(sorted(staff)) + ",",
                citations=tuple(
                    {"provision": c.get("provision", ""), "citation": c.get("citation", "")}
                    for c in step.provisions
                ),
                timed=bool(step.satisfies),
            )
        )
    return out
