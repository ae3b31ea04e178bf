"""A step's form: the choices the law gives each input, the form's values checked, and the events it records
(mixed into ProcedureEngine)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from .. import clock
from ..errors import InputError
from ..model import ProvisionVersion
from ..packschema import SERVICE_METHODS
from .cleaning import clean_input
from .context import CaseContext
from .model import CaseState, Input, Step
from .words import condition_words


class ProcedureForms:
    """The engine's questions about a step's form."""

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
                ctx: CaseContext | None = None
                for v in self.documents_for(step, designation, day):
                    for element in v.effect.get("elements") or ():
                        choice = {
                            "value": f"{v.cite()['provision']}/{element['id']}",
                            "label": element["text"],
                            "provision": v.cite(),
                        }
                        cond = self.element_conditions.get((id(v), element["id"]))
                        if cond is not None:
                            if ctx is None:
                                when = at or dt.datetime.combine(day, dt.time.max, tzinfo=self.j.tz)
                                ctx = CaseContext(self, state, None, when, day, None)
                            result, _ = ctx.evaluate(cond, step, None)
                            choice["applies"] = result is not False  # unknown: required (the owner's side)
                            choice["when"] = cond.why or condition_words(ctx, cond, step)
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
        docs = self.documents_for(step, designation, day)
        if not step.documents and step.service_of:
            # a further service of a notice: the methods of the notice the issuing step serves
            issuing = self.steps_on(day).get(step.service_of)
            if issuing is not None:
                docs = self.documents_for(issuing, designation, day)
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

    def documents_for(self, step: Step, designation: str | None, day: dt.date) -> list[ProvisionVersion]:
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
            out[item.id] = clean_input(item, value, name, choices.get(item.id))
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
        ctx = CaseContext(self, state, None, moment, day, None)
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
        """The dates the form gives are in the order the events' meaning (vocabulary.EVENT_ORDER) and the packs
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
                cite = self.cite(provision, day) if provision else None
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
