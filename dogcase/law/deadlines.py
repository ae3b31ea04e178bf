"""A jurisdiction's deadlines: each provision's time from the events, the layers' provisions combined."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo

from . import clock
from .answers import check_date_range
from .errors import InputError, LawNotInForce, PackError
from .model import ProvisionVersion, Setting

WHO_FAVOURS_LATER = {
    ("owner", "due"): True,
    ("owner", "not_before"): False,
    ("city", "due"): False,
    ("city", "not_before"): True,
}


class DeadlinesMixin:
    """Jurisdiction's deadline questions (`deadline`, `deadline_applies`, `deadline_ids`), planned once per
    jurisdiction (`_plan_deadlines`)."""

    def deadline_ids(self) -> list[str]:
        return sorted(self.deadline_plans)

    def deadline(
        self,
        deadline_id: str,
        events: Mapping[str, dt.date | dt.datetime],
        *,
        on: dt.date | None = None,
        settings: Mapping[str, Any] | None = None,
        designation: str | None = None,
        undeclared: bool = False,
    ) -> dict[str, Any]:
        """When the act `deadline_id` is due (or allowed), from the events given, with every provision that
        sets it, its computation trace, and the date dogcase applies.

        With `designation` (a case's), only the provisions that concern it are combined: a provision whose
        `for` leaves the designation out does not set the case's time (Tracy's five business days are not a
        state potentially dangerous dog's, and 347.541's 14 days are not a Tracy vicious dog's: a state
        provision reaches only the designations its `for` names, never a city designation through
        `state_counterpart`). Where no provision concerns the designation, InputError("designation"): the law
        sets no such time for it. Without a designation, the provisions are combined only where the same ones
        reach every designation they reach at all; where they differ by designation (Tracy's five business days
        for a vicious dog, 347.541's 14 days for a dangerous one), no single date is given: the answer is
        `status: "by_designation"`, with one answer per designation (`by_designation`: each its own `due`,
        `set_by`, `what` and entries) and the designations no provision reaches (`not_set_for`). With
        `undeclared` (a case not declared): only the provisions without `for`, which reach every case (347.56's
        14 days to ask for a hearing on the destruction, not (K)'s, which reach a dog declared)."""
        plan = self.deadline_plans.get(deadline_id)
        if plan is None:
            raise InputError(
                "deadline",
                f"unknown deadline {deadline_id!r} in {self.id}; known: {', '.join(self.deadline_ids())}",
            )
        if designation is not None and designation not in self.designations:
            raise InputError("designation", f"unknown designation {designation!r} in {self.id}")
        if undeclared and designation is not None:
            raise InputError("designation", "a case not declared has no designation")
        unknown = events.keys() - self._event_set
        if unknown:
            raise InputError(
                f"events.{sorted(unknown)[0]}", f"unknown event; known events: {', '.join(self.events)}"
            )
        _check_in_range(events, on)
        if designation is None and not undeclared:
            apart = plan.apart_by_designation(self.designations)
            if apart is not None:
                # the provisions that set this time differ by designation: one date for all would hold a case to
                # another designation's time (Tracy's vicious dog to 347.541's 14 days)
                return self._deadline_by_designation(
                    deadline_id, plan, apart, events, on=on, settings=settings
                )
        settings_now = self.setting_values
        if settings:
            settings_now = dict(settings_now)
            for key, value in settings.items():
                setting = self.settings.get(key)
                if setting is None:
                    raise InputError(
                        f"settings.{key}", f"unknown setting; known: {', '.join(sorted(self.settings))}"
                    )
                if setting.allowed and value not in setting.allowed:
                    raise InputError(
                        f"settings.{key}",
                        f"must be one of {', '.join(map(str, setting.allowed))} ({setting.what})",
                    )
                settings_now[key] = value
        entries: list[dict[str, Any]] = []
        values: list[Any] = []
        missing_events: list[str] = []
        computed: dict[tuple, tuple] = {}  # provisions with the same terms share one computation
        steps = plan.steps_for(designation, undeclared=undeclared)
        if not steps:
            # every provision names the designations it concerns, and the case's is not one (or it has none):
            # the law sets no such time for it (347.541's 14 days to comply are not a potentially dangerous dog's)
            cited = "; ".join(dict.fromkeys(s.version.citation for s in plan.steps))
            if undeclared:
                whom, others = "a dog not declared", "declared dogs"
            else:
                whom, others = f"a {self.designations[designation].label.lower()}", "other designations"
            raise InputError(
                "designation",
                f"no provision sets {deadline_id!r} for {whom} in {self.name} ({cited} concern {others})",
            )
        for step in steps:
            if step.only_if_event is not None and step.only_if_event not in events:
                continue  # an alternative start that this case does not have (Tracy 5.F: no hearing asked)
            entry = self._deadline_entry(step, events, on, settings_now, missing_events, computed)
            if entry is not None:
                entries.append(entry[0])
                values.append(entry[1])
        if not entries:
            raise LawNotInForce(
                "on" if on else "events",
                f"no provision setting {deadline_id!r} is in force on the date asked",
            )
        answer: dict[str, Any] = {
            "jurisdiction": self.id,
            "deadline": deadline_id,
            "who": plan.who,
            "kind": plan.kind,
            "what": plan.what_for(designation),
            "law": {
                "as_of": on.isoformat() if on else None,
                "rule": "each provision is read as in force on the day of the event that starts its time"
                if on is None
                else "every provision is read as in force on the date asked",
            },
            "entries": entries,
        }
        known = [(_sortable(v, self.tz), e) for v, e in zip(values, entries, strict=True) if v is not None]
        chosen_key = (max if plan.later else min)(k for k, _ in known) if known else None
        chosen = [e for k, e in known if k == chosen_key]
        if len(known) < len(entries):
            answer["status"] = "undetermined"
            answer["due"] = None
            answer["missing_events"] = sorted(set(missing_events))
            answer["reasons"] = [e["reason"] for e in entries if e["status"] == "undetermined"]
            if chosen:
                answer["bound"] = {
                    ("at_least" if plan.later else "at_most"): chosen[0]["value"],
                    "why": "the other provision(s) cannot be computed yet; dogcase will apply the "
                    + ("later" if plan.later else "earlier")
                    + " date once they can",
                }
        else:
            answer["status"] = "determined"
            answer["due"] = chosen[0]["value"]
            answer["set_by"] = [e["provision"]["provision"] for e in chosen]
        answer["rule"] = (
            combination_rule(plan.who, plan.kind) if len(entries) > 1 else "one provision sets this time"
        )
        keys = tuple(e["provision"]["provision"] for e in entries)
        notes = plan.notes.get(keys)
        if notes is None:
            notes = plan.notes[keys] = tuple(d.as_dict() for d in self.defects_for(keys))
        answer["notes"] = [dict(n) for n in notes]
        return answer

    def _deadline_by_designation(
        self,
        deadline_id: str,
        plan: _DeadlinePlan,
        apart: tuple[list[str], list[str]],
        events: Mapping[str, dt.date | dt.datetime],
        *,
        on: dt.date | None,
        settings: Mapping[str, Any] | None,
    ) -> dict[str, Any]:
        """The answer to a deadline asked without a designation where its provisions differ by designation: one
        answer per designation, each with its own due date, the provisions that set it and its words."""
        reached, unreached = apart
        answers = []
        for d in reached:
            try:
                answer = self.deadline(deadline_id, events, on=on, settings=settings, designation=d)
            except LawNotInForce as exc:
                answer = {"status": "not_in_force", "due": None, "reasons": [exc.rule]}
            answer = {k: v for k, v in answer.items() if k not in ("jurisdiction", "deadline", "who", "kind")}
            answers.append({"designation": d, "label": self.designations[d].label, **answer})
        if all(a["status"] == "not_in_force" for a in answers):
            raise LawNotInForce(
                "on" if on else "events",
                f"no provision setting {deadline_id!r} is in force on the date asked",
            )
        labels = ", ".join(f"{d} ({self.designations[d].label.lower()})" for d in reached)
        return {
            "jurisdiction": self.id,
            "deadline": deadline_id,
            "who": plan.who,
            "kind": plan.kind,
            "status": "by_designation",
            "due": None,
            "reasons": [
                f"the provisions that set {deadline_id!r} in {self.name} differ by designation, and no designation "
                f"was given: each designation is answered on its own below; give the case's designation for one "
                f"answer (one of: {labels})"
            ],
            "designations": list(reached),
            "by_designation": answers,
            "not_set_for": [
                {
                    "designation": d,
                    "label": self.designations[d].label,
                    "reason": f"no provision sets {deadline_id!r} for a {self.designations[d].label.lower()} "
                    f"in {self.name}",
                }
                for d in unreached
            ],
        }

    def deadline_applies(
        self, deadline_id: str, designation: str | None, *, undeclared: bool = False
    ) -> bool:
        """Does any provision setting `deadline_id` concern a case with this designation? False when every
        provision names designations (`for`) and none is this one: the law sets no such time for it. With
        `undeclared` (a case not declared), only a provision without `for` concerns it."""
        plan = self.deadline_plans.get(deadline_id)
        return plan is not None and bool(plan.steps_for(designation, undeclared=undeclared))

    def _deadline_entry(self, step, events, on, settings_now, missing_events, computed):
        """One provision's computation: (entry, value), or None when that provision is not in force."""
        version = step.version
        trigger_name = step.trigger
        entry = dict(step.base)
        entry["provision"] = dict(step.cite)
        if trigger_name is None:
            trigger_name = settings_now.get(step.setting.id) if step.setting else None
            if trigger_name is None:
                if on is not None and not version.in_force.contains(on):
                    return None
                entry.update(status="undetermined", reason=step.no_trigger_reason, value=None)
                if step.setting:  # the reason names the setting in words; a program reads its id here
                    entry["needs_setting"] = step.setting.id
                return entry, None
            if not isinstance(trigger_name, str) or trigger_name not in self._event_set:
                raise InputError(
                    f"settings.{step.setting.id}", f"must name an event: {', '.join(self.events)}"
                )
            entry["trigger"] = trigger_name
            entry["trigger_from_setting"] = step.setting.id
        raw = events.get(trigger_name)
        if raw is None:
            if on is not None and not version.in_force.contains(on):
                return None
            missing_events.append(trigger_name)
            entry.update(
                status="undetermined",
                reason=f"the date of {self.event_label(trigger_name)} is not given",
                value=None,
            )
            return entry, None
        unit = step.unit
        if unit == "hours" and not isinstance(raw, dt.datetime):
            raise InputError(
                f"events.{trigger_name}",
                "this deadline runs in hours: give a date and time with its UTC offset",
            )
        law_day = on
        if law_day is None:
            law_day = raw.astimezone(self.tz).date() if isinstance(raw, dt.datetime) else raw
        if not version.in_force.contains(law_day):
            return None
        terms = (trigger_name, step.amount, unit, step.counting)
        done = computed.get(terms)
        if done is None:
            try:
                result = clock.compute(
                    raw,
                    step.amount,
                    unit,
                    step.counting,
                    self.calendar,
                    self.tz,
                    event=self.event_words[trigger_name],
                )
            except ValueError as exc:
                raise InputError(f"events.{trigger_name}", str(exc)) from exc
            done = computed[terms] = (raw.isoformat(), result.value.isoformat(), result.trace, result.value)
        entry["status"] = "determined"
        entry["law_as_of"] = law_day.isoformat()
        entry["trigger_value"], entry["value"], trace, value = done
        entry["trace"] = list(trace)
        return entry, value

    def _plan_deadlines(self) -> dict[str, _DeadlinePlan]:
        """Everything about each deadline that does not depend on the events, worked out once."""
        by_id: dict[str, list[ProvisionVersion]] = {}
        for version in self.all_versions():
            if version.effect_kind == "deadline":
                by_id.setdefault(version.effect["id"], []).append(version)
        plans = {}
        for deadline_id, versions in by_id.items():
            first = versions[0].effect
            who, kind = first["who"], first.get("kind", "due")
            right = bool(first.get("right"))
            for version in versions[1:]:
                if bool(version.effect.get("right")) != right:
                    raise PackError(
                        version.file,
                        version.effect_line or version.line,
                        f"deadline {deadline_id!r}: right: is {bool(version.effect.get('right'))} here but "
                        f"{right} in {versions[0].file}:{versions[0].effect_line or versions[0].line}; "
                        "every provision setting the same deadline must agree whether it is a right",
                    )
            steps = []
            for version in versions:
                e = version.effect
                base = {
                    "trigger": e["trigger"],
                    "period": dict(e["period"]),
                    "counting": e["counting"],
                    "kind": e.get("kind", "due"),
                }
                if e.get("repeat"):
                    base["repeat"] = dict(e["repeat"])
                if e.get("only_if_event"):
                    base["only_if_event"] = e["only_if_event"]
                setting = None
                reason = ""
                if e["trigger"] is None:
                    setting = next(
                        (s for s in self.settings.values() if s.for_provision == version.key), None
                    )
                    # the defect that explains the missing start: one that always holds (not a caveat on a
                    # stretch of dates, like the 2023 amendment's), a missing text, about this provision alone
                    defects = sorted(
                        self.defects_for([version.key]),
                        key=lambda d: (
                            bool(d.applies.start or d.applies.end),
                            d.kind != "missing_text",
                            len(d.provisions),
                        ),
                    )
                    reason = (
                        f"{version.citation} does not say from when this time runs"
                        + (f" ({defects[0].text})" if defects else "")
                        + (
                            f"; the city must supply the setting “{setting.label}”: {setting.what}"
                            if setting
                            else ""
                        )
                    )
                steps.append(
                    _DeadlineStep(
                        version=version,
                        cite=version.cite(),
                        base=base,
                        trigger=e["trigger"],
                        amount=e["period"]["amount"],
                        unit=e["period"]["unit"],
                        counting=e["counting"],
                        setting=setting,
                        no_trigger_reason=reason,
                        only_if_event=e.get("only_if_event"),
                    )
                )
            later = WHO_FAVOURS_LATER[(who, kind)]
            plans[deadline_id] = _DeadlinePlan(
                who=who,
                kind=kind,
                right=right,
                what=first["what"],
                later=later,
                steps=tuple(steps),
                notes={},
            )
        return plans


@dataclass(frozen=True, slots=True)
class _DeadlineStep:
    version: ProvisionVersion
    cite: dict[str, Any]
    base: dict[str, Any]
    trigger: str | None
    amount: int
    unit: str
    counting: str
    setting: Setting | None
    no_trigger_reason: str
    only_if_event: str | None = None  # the provision sets the time only in a case where this event happened


@dataclass(frozen=True, slots=True)
class _DeadlinePlan:
    who: str
    kind: str
    what: str
    later: bool
    steps: tuple[_DeadlineStep, ...]
    notes: dict[tuple[str, ...], tuple[dict[str, Any], ...]]
    right: bool = False  # the owner's right (lapses unused), not a duty (overdue)

    def steps_for(self, designation: str | None, *, undeclared: bool = False) -> tuple[_DeadlineStep, ...]:
        """The provisions that set the time of a case with this designation: those whose `for` names it, or
        that have none (a state time does not reach a city designation through `state_counterpart`); of a
        case not declared (`undeclared`), those without `for` only; without either, all of them."""
        if undeclared:
            return tuple(s for s in self.steps if s.version.effect.get("for") is None)
        if designation is None:
            return self.steps
        return tuple(s for s in self.steps if designation in (s.version.effect.get("for") or (designation,)))

    def apart_by_designation(self, designations: Mapping[str, Any]) -> tuple[list[str], list[str]] | None:
        """Where the provisions that set this time are not the same for every designation they reach: (the
        designations some provision reaches, those none reaches), in the jurisdiction's order; None where one
        set of provisions answers for every designation (then they are combined as one)."""
        reached, unreached, sets = [], [], set()
        for d in designations:
            steps = self.steps_for(d)
            if steps:
                reached.append(d)
                sets.add(tuple(id(s) for s in steps))
            else:
                unreached.append(d)
        return (reached, unreached) if len(sets) > 1 else None

    def what_for(self, designation: str | None) -> str:
        """What is owed, in the words of a provision that sets it for this designation (the city's first):
        Tracy's five business days to contest a vicious classification are not 347.541's hearing on a
        dangerous declaration, though both set owner.request_hearing."""
        if designation is None:
            return self.what
        reaching = [s.version for s in self.steps_for(designation)]
        chosen = next((v for v in reaching if v.layer == "city"), reaching[0] if reaching else None)
        return chosen.effect["what"] if chosen is not None else self.what


def _check_in_range(events: Mapping[str, dt.date | dt.datetime], on: dt.date | None) -> None:
    """A date the law's calendar cannot count is refused, naming the field, before any computation: before 1900
    or after 2200 no holiday rule is known, and an instant such as 9999-12-31T23:59:59-14:00 cannot even be read
    in the city's time (it falls past the last day Python's calendar has)."""
    if on is not None:
        check_date_range(on, "on")
    for name, value in events.items():
        # an instant's date as written; in the city's time it is at most a day off, which the counting refuses
        check_date_range(value.date() if isinstance(value, dt.datetime) else value, f"events.{name}")


def _sortable(value: dt.date | dt.datetime, tz: ZoneInfo) -> dt.datetime:
    """A due date ends at the end of that day in the jurisdiction; an instant is itself."""
    if isinstance(value, dt.datetime):
        return value
    return dt.datetime.combine(value, dt.time.max, tzinfo=tz)


def combination_rule(who: str, kind: str) -> str:
    later = WHO_FAVOURS_LATER[(who, kind)]
    side = (
        "the owner keeps the longer time to act"
        if who == "owner"
        else "the city keeps the shorter time to act"
    )
    if kind == "not_before":
        side = (
            "the owner gets the earlier start" if who == "owner" else "the city must wait for the later date"
        )
    return f"several provisions set this time: dogcase applies the {'later' if later else 'earlier'} date ({side})"
