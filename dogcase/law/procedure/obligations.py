"""What is owed in a case and its status: the deadlines of the law with their due dates, and the duties steps
imposed (mixed into CaseContext)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from .model import DEADLINE_TESTS, Condition, Obligation, Step, TakenStep
from .words import ACT_WORDS, hold_words, when_words

# the statuses of an obligation whose consequences may still follow (the time has not been met or withdrawn)
HOLD_STATUSES = ("open", "overdue", "not_yet", "available")
# refusals that say nothing about when the act may follow (the dog is already held, the case is closed): the
# consequence is left as the law states it
_NOT_TIMING = frozenset(
    {"wrong_state", "case_closed", "not_applicable", "already_taken", "prohibited", "no_ground"}
)


class CaseObligations:
    """The obligations of the case a CaseContext asks about."""

    def obligations(self) -> list[Obligation]:
        j = self.j
        designation = self.state.designation
        out: list[Obligation] = []
        withdrawn_by = self.closed_by or self.ended_by
        for did in j.deadline_ids():
            plan = j.deadline_plans[did]
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
                    consequences=() if plan.right else self._consequences(did, due, status),
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
        text = f"{words} {when_words(day, self.j)}" + (f" ({'; '.join(known)})" if known else "")
        return f"{reasons}; {text}" if reasons else text

    def _setting_trigger(self, plan_step) -> str | None:
        if plan_step.setting is None:
            return None
        sid = plan_step.setting.id
        value = (self.state.settings or {}).get(sid, self.j.setting_values.get(sid))
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
                f"The owner's time to {plan.what} ended on {when_words(due, self.j)} unused; it was a right, not a "
                "duty.",
            )
        return "overdue", False, None

    def _consequences(
        self, did: str, due: dt.date | dt.datetime | None = None, status: str | None = None
    ) -> tuple[dict[str, Any], ...]:
        """The seizure grounds the law attaches to missing `did` (`after: {deadline: did}`, or named by the
        deadline's `breach_grounds`), each with `held`
        when the act may not follow as soon as the time has passed (see `_hold`)."""
        designation = self.state.designation
        out = []
        holds: dict[tuple[str, str], dict[str, Any] | None] = {}
        # grounds the deadline names itself (`breach_grounds`: the coverage on file that ends)
        named = {
            g
            for ps in self.j.deadline_plans[did].steps
            for g in ps.version.effect.get("breach_grounds") or ()
        }
        for tid, versions in self.engine._triggers.items():
            for v in versions:
                after = v.effect.get("after")
                if tid not in named and (not after or after["deadline"] != did):
                    continue
                if not v.in_force.contains(self.day):
                    continue
                if designation is not None and designation not in v.effect["for"]:
                    continue
                act = v.effect.get("act", "seize")
                item = {
                    "trigger": tid,
                    "act": act,
                    "what": f"{ACT_WORDS.get(act, act).capitalize()} authorized under {v.citation}: "
                    f"{v.effect['what']}",
                    "ground": v.effect["what"],
                    "provision": {**v.cite(), "pack": v.pack},
                }
                if due is not None and status in HOLD_STATUSES:
                    if (tid, act) not in holds:
                        holds[(tid, act)] = self._hold(tid, act, did, due)
                    if holds[(tid, act)] is not None:
                        item["held"] = holds[(tid, act)]
                out.append(item)
        return tuple(out)

    # ---------------------------------------------------------------- when a consequence may follow

    def _hold(self, tid: str, act: str, did: str, due: dt.date | dt.datetime) -> dict[str, Any] | None:
        """When the consequence `tid` of missing `did` cannot follow as soon as the time has passed: the step
        that takes it (the act's step with a ground input) also waits for another time — after an appeal, the
        owner's time to comply after the decision (§ 90.15 (C)(2)(d); 347.541 subd. 4). The step is asked as
        the case stands, on that ground, from the day the time has passed: allowed then, None; else the first
        later date one of the times it waits for allows it (`until`), or, when none does, the times it waits
        for whose dates cannot be worked out yet (`until` None). `what` says it in words."""
        kind = self.j.deadline_plans[did].kind
        first = self._instant_after(due, "from" if kind == "not_before" else "after")
        start = max(first, self.at)
        day = start.astimezone(self.j.tz).date()
        designation = self.state.designation
        steps = [
            s.for_designation(designation)
            for s in self.engine.steps_on(day).values()
            if s.act == act
            and s.applies_to(designation)
            and any(i.kind == "seizure_ground" for i in s.inputs)
        ]
        if not steps:
            return None
        # two grounds the steps cannot tell apart (the same own wait, the same place in every `ground_in`) are
        # held the same way: asked once
        version = self.engine._grounds_for(act, designation, day).get(tid)
        own = ((version.effect.get("after") or {}).get("deadline"), version.pack) if version else None
        key = (act, did, start, own, tuple(tid in c.arg for s in steps for c in _leaves(s, ("ground_in",))))
        memo = self.__dict__.setdefault("_hold_memo", {})
        if key not in memo:
            memo[key] = self._first_allowed(tid, steps, start)
        return memo[key]

    def _first_allowed(self, tid: str, steps: list[Step], start: dt.datetime) -> dict[str, Any] | None:
        waited = {(c.test, c.arg) for s in steps for c in _leaves(s) if c.test in ("after", "from")}
        waits = sorted({d for _, d in waited})
        candidates = []
        for test, d in sorted(waited):
            when = self.due_value(d) if self._applies(d) else None
            if when is not None:
                candidates.append((self._instant_after(when, test), d))
        verdicts = [self._verdict(s, tid, start) for s in steps]
        if any(v.allowed for v in verdicts):
            return None
        if all(any(r.code in _NOT_TIMING for r in v.refusals) for v in verdicts):
            return None  # refused for something no date changes (the dog is already held)
        for at in sorted({c for c, _ in candidates if c > start}):
            if any(self._verdict(s, tid, at).allowed for s in steps):
                because = [d for c, d in candidates if c == at]
                return self._held(at.astimezone(self.j.tz).date(), because)
        return self._held(None, [d for d in waits if self._applies(d) and self.due_value(d) is None])

    def _held(self, until: dt.date | None, deadlines: list[str]) -> dict[str, Any]:
        waits_for = []
        for d in deadlines:
            plan = self.j.deadline_plans[d]
            value = self.due_value(d)
            cites = list(
                dict.fromkeys(
                    e["provision"]["citation"]
                    for e in self.deadline(d).get("entries", ())
                    if e.get("provision", {}).get("citation")
                )
            )
            waits_for.append(
                {
                    "deadline": d,
                    "who": plan.who,
                    "what": plan.what_for(self.state.designation),
                    "due": value.isoformat() if value is not None else None,
                    "citation": "; ".join(cites),
                }
            )
        held = {"until": until.isoformat() if until else None, "waits_for": waits_for}
        held["what"] = hold_words(held)
        return held

    def _applies(self, did: str) -> bool:
        return self.j.deadline_applies(did, self.state.designation, undeclared=self.state.designation is None)

    def _instant_after(self, due: dt.date | dt.datetime, test: str) -> dt.datetime:
        """The first instant an `after` (or `from`) condition on this due date holds."""
        if isinstance(due, dt.datetime):
            return due + dt.timedelta(seconds=1) if test == "after" else due
        day = due + dt.timedelta(days=1) if test == "after" else due
        return dt.datetime.combine(day, dt.time(12), tzinfo=self.j.tz)

    def _verdict(self, step: Step, tid: str, at: dt.datetime):
        """The step asked as the case stands at `at`, on the ground `tid` (no actor: only the law's times)."""
        probes = self.__dict__.setdefault("_probes", {})
        ctx = probes.get(at)
        if ctx is None:
            ctx = probes[at] = type(self)(
                self.engine, self.state, None, at, at.astimezone(self.j.tz).date(), {}
            )
            ctx._deadlines = self._deadlines  # a time depends on the case's events, not on the instant asked
        item = next(i for i in step.inputs if i.kind == "seizure_ground")
        ctx.inputs = {item.id: tid}
        return ctx.verdict(step)

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


def _leaves(step: Step, tests: tuple[str, ...] = DEADLINE_TESTS) -> list[Condition]:
    """The step's conditions of these tests, at any depth, in the order written."""
    out: list[Condition] = []
    todo = list(reversed(step.requires))
    while todo:
        c = todo.pop()
        if c.parts:
            todo.extend(reversed(c.parts))
        elif c.test in tests:
            out.append(c)
    return out
