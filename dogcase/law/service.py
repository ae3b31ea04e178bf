"""Service of a notice: for the notice a step issues, which ways of serving it the law names and what a service
by each one starts — from the date it was sent (handed over, posted or mailed) or the date the owner received
it (docs/procedure.md, "Service of a notice").

The law is the packs' data: the steps that record a further service or the receipt of the notice
(`service_of: <issuing step>`), whose date inputs say which date of the attempt they take (`service_date:`) and
which events each method records (`records`, `records_if_method`). A method the notice does not name is not
among the step's choices: it is recorded on the document and starts nothing.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from .errors import InputError
from .procedure import CaseState, Step


@dataclass(frozen=True)
class ClockStart:
    """One event a service starts, and the date of the attempt it is counted from."""

    date: str  # "sent" | "received"
    event: str
    words: str  # the event in words ("the date of the notice", "receipt of the notice")
    input: str  # the input of the step the date goes to


@dataclass(frozen=True)
class ServiceRule:
    """What the law says of serving the notice an issuing step issued by one method, for one case."""

    issuing_step: str
    method: str
    label: str
    served_as: (
        str | None
    )  # the named method the service counts as (certified mail, return receipt requested, is
    #                        certified mail, which is mail), the value the further-service step takes
    named: bool  # the law names this method for the notice (or names none: any writing serves)
    open: bool  # the notice names no method ("in writing")
    additional: bool  # an additional step on top of a method (telephoning, if possible): never a method
    named_methods: tuple[dict[str, Any], ...]  # {value, label, provision} the law names, with citations
    notice_citations: str  # the provisions that say how the notice is served
    further_step: str | None  # the step that records a further service
    receipt_step: str | None  # the step that records the owner's receipt (a return receipt's date)
    receipt_input: str | None
    starts: tuple[ClockStart, ...]  # what a service by the method starts
    starting_methods: tuple[str, ...] = ()  # the methods whose service starts a time

    @property
    def starts_anything(self) -> bool:
        return bool(self.starts)

    def starts_from(self, date: str) -> tuple[ClockStart, ...]:
        return tuple(s for s in self.starts if s.date == date)

    @property
    def named_labels(self) -> str:
        """The methods the law names, in words ("personal, certified mail")."""
        return ", ".join(m["label"] for m in self.named_methods)


def _citations(choices) -> str:
    seen: list[str] = []
    for m in choices:
        cite = (m.get("provision") or {}).get("citation")
        if cite and cite not in seen:
            seen.append(cite)
    return "; ".join(seen)


def _served_as(j, method: str, values: list[str]) -> str | None:
    """The named method `method` is, or is a form of (followed through the forms table), or None."""
    seen: set[str] = set()
    todo = [method]
    while todo:
        m = todo.pop(0)
        if m in values:
            return m
        if m not in seen:
            seen.add(m)
            todo += list(j.service_method_forms.get(m, ()))
    return None


def service_steps(j, issuing_step: str, day: dt.date) -> tuple[Step | None, Step | None]:
    """(the further-service step, the receipt step) that record a service of the issuing step's notice."""
    further = receipt = None
    for step in j.procedure(day):
        if step.service_of != issuing_step:
            continue
        if any(i.kind == "service_method" for i in step.inputs):
            further = further or step
        elif any(i.service_date == "received" for i in step.inputs):
            receipt = receipt or step
    return further, receipt


def _additional_steps(j, day: dt.date) -> set[str]:
    return {
        m
        for v in j.versions_on(day)
        if v.effect_kind == "notice"
        for m in v.effect.get("additional_steps", ())
    }


def service_rule(j, issuing_step: str, state: CaseState, method: str, day: dt.date) -> ServiceRule:
    """The law on serving, by `method`, the notice that `issuing_step` issued in this case: whether the law
    names the method, which methods it names (with their citations), and what a service by it starts.

    Raises InputError when the issuing step is unknown."""
    j.step(issuing_step, day)  # InputError for an unknown step
    further, receipt = service_steps(j, issuing_step, day)
    label = j.service_method_label(method)
    additional = method in _additional_steps(j, day)
    named_methods: tuple[dict[str, Any], ...] = ()
    choices: list[dict[str, Any]] = []
    starts: list[ClockStart] = []
    is_open = False
    served_as = None
    starting_methods: tuple[str, ...] = ()
    if further is not None:
        step = further.for_designation(state.designation)
        method_input = next(i for i in step.inputs if i.kind == "service_method")
        noon = dt.datetime.combine(day, dt.time(12), tzinfo=j.tz)
        try:
            choices = j.input_choices(step.id, state, noon).get(method_input.id, [])
        except InputError:
            choices = []
        is_open = any(c.get("open") for c in choices)
        named_methods = tuple(c for c in choices if not c.get("open"))
        if not additional:
            served_as = _served_as(j, method, [c["value"] for c in choices])
        if served_as is not None:
            for item in step.inputs:
                if not item.service_date:
                    continue
                events = list(item.records)
                for wanted, evs in item.records_if_method:
                    if wanted == served_as:
                        events += list(evs)
                for event in dict.fromkeys(events):
                    starts.append(ClockStart(item.service_date, event, j.event_label(event), item.id))
        starting = [m for i in step.inputs if i.service_date for m, _ in i.records_if_method]
        if any(i.records for i in step.inputs if i.service_date):
            starting = [c["value"] for c in choices]
        starting_methods = tuple(dict.fromkeys(starting))
    elif receipt is not None:
        # no further-service step: the issuing step's own methods (a decision "by hand delivery or registered
        # mail"), and what the receipt step records from the date received
        step = j.step(issuing_step, day).for_designation(state.designation)
        method_input = next((i for i in step.inputs if i.kind == "service_method"), None)
        if method_input is not None:
            noon = dt.datetime.combine(day, dt.time(12), tzinfo=j.tz)
            try:
                choices = j.input_choices(step.id, state, noon).get(method_input.id, [])
            except InputError:
                choices = []
            named_methods = tuple(c for c in choices if not c.get("open"))
            is_open = any(c.get("open") for c in choices)
            if not additional:
                served_as = _served_as(j, method, [c["value"] for c in choices])
            if served_as is not None:
                for item in receipt.inputs:
                    if item.service_date == "received":
                        for event in item.records:
                            starts.append(ClockStart("received", event, j.event_label(event), item.id))
    named = served_as is not None
    receipt_input = None
    if receipt is not None:
        receipt_input = next(i.id for i in receipt.inputs if i.service_date == "received")
    return ServiceRule(
        issuing_step=issuing_step,
        method=method,
        label=label,
        served_as=served_as,
        named=named,
        open=is_open,
        additional=additional,
        named_methods=named_methods,
        notice_citations=_citations(choices),
        further_step=further.id if further is not None else None,
        receipt_step=receipt.id if receipt is not None else None,
        receipt_input=receipt_input,
        starts=tuple(starts),
        starting_methods=starting_methods,
    )
