"""A jurisdiction: a city pack read over the state pack (or the state alone), asked the law's questions."""

from __future__ import annotations

import bisect
import datetime as dt
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo

from . import clock
from .documents import SOURCES, DocumentEngine, DocumentType, Section, missing_message, source_family
from .errors import InputError, LawNotInForce, PackError
from .facts import FactVocabulary
from .model import Defect, Designation, Pack, ProvisionVersion, Role, ServiceMethod, Setting
from .packschema import EVENT_ORDER, EVENTS, SERVICE_METHOD_FORMS, STAFF_ROLES
from .procedure import (
    CONTENTS_INPUT,
    Actor,
    CaseState,
    Obligation,
    ProcedureEngine,
    Step,
    TakenStep,
    Verdict,
)
from .rules import DesignationResult, Rule, compile_classifier, evaluate
from .schema import Where

WHO_FAVOURS_LATER = {
    ("owner", "due"): True,
    ("owner", "not_before"): False,
    ("city", "due"): False,
    ("city", "not_before"): True,
}


def check_date_range(day: dt.date, field: str) -> None:
    if not clock.MIN_DATE <= day <= clock.MAX_DATE:
        raise InputError(
            field, f"must be between {clock.MIN_DATE.isoformat()} and {clock.MAX_DATE.isoformat()}"
        )


class Jurisdiction:
    """The law of one place: its own pack over the state floor, checked as a whole when built."""

    def __init__(self, pack: Pack, state: Pack | None, facts: FactVocabulary) -> None:
        self.pack = pack
        self.state = state
        # the facts an incident here can carry: the shared vocabulary, the state pack's and the city's own
        self.facts = pack.vocabulary or facts
        self.id = pack.id
        self.name = pack.name
        self.layers: tuple[Pack, ...] = (state, pack) if state else (pack,)
        self.tz = ZoneInfo(pack.timezone)
        self.roles: dict[str, Role] = {}
        self.designations: dict[str, Designation] = {}
        self.eligibilities: dict[str, Designation] = {}
        for layer in self.layers:
            self.roles.update(layer.roles)
            self.designations.update(layer.designations)
            self.eligibilities.update(layer.eligibilities)
        self.defects: tuple[Defect, ...] = tuple(d for layer in self.layers for d in layer.defects)
        # events: the shared vocabulary and those the layers declare (`events:`), each with its words
        self.event_words: dict[str, str] = dict(EVENT_WORDS)
        self.service_methods: dict[str, ServiceMethod] = {}
        for layer in self.layers:
            self.event_words.update(layer.events)
            self.service_methods.update(layer.service_methods)
        self.events: tuple[str, ...] = tuple(self.event_words)
        # event -> [(earlier event, provision key or None, why or None)]: the shared order and the layers'
        self.event_order: dict[str, list[tuple[str, str | None, str | None]]] = {}
        for later, earlier in EVENT_ORDER:
            self.event_order.setdefault(later, []).extend((e, None, None) for e in earlier)
        for layer in self.layers:
            for later, earlier, provision, why in layer.event_order:
                key = f"{layer.id}:{provision}" if provision else None
                self.event_order.setdefault(later, []).extend((e, key, why) for e in earlier)
        self._event_set = frozenset(self.event_words)
        # a service method that is a form of another: the shared table, and the layers' form_of
        self.service_method_forms: dict[str, tuple[str, ...]] = dict(SERVICE_METHOD_FORMS)
        for method in self.service_methods.values():
            self.service_method_forms[method.id] = method.form_of
        self.settings = {s.id: s for layer in self.layers for s in layer.settings.values()}
        self._defects_by_provision: dict[str, list[Defect]] = {}
        for defect in self.defects:
            for key in defect.provisions:
                self._defects_by_provision.setdefault(key, []).append(defect)
        self.calendar = self._build_calendar()
        self._check_references()
        days: set[dt.date] = set()
        for layer in self.layers:
            days |= layer.boundaries()
        self._boundaries: list[dt.date] = sorted(days)
        self._classifiers: dict[tuple[int, bool], Any] = {}
        floor = state.floor_provision if state else None
        floor_version = state.provisions[floor.split(":", 1)[1]].versions[-1] if floor and state else None
        self._floor_cite = f" ({floor_version.citation})" if floor_version else ""
        self._setting_values = {k: st.value for k, st in self.settings.items()}
        self._deadline_plans = self._plan_deadlines()
        self._procedure = ProcedureEngine(self)
        self._documents = DocumentEngine(self._procedure)

    # ------------------------------------------------------------------------------------------ structure

    def all_versions(self):
        for layer in self.layers:
            for provision in layer.provisions.values():
                yield from provision.versions

    def versions_on(self, day: dt.date) -> list[ProvisionVersion]:
        out = []
        for layer in self.layers:
            for provision in layer.provisions.values():
                version = provision.version_on(day)
                if version is not None:
                    out.append(version)
        return out

    def defects_for(self, keys, day: dt.date | None = None) -> list[Defect]:
        out: list[Defect] = []
        for key in keys:
            for defect in self._defects_by_provision.get(key, ()):
                if defect not in out and (day is None or defect.applies.contains(day)):
                    out.append(defect)
        return out

    def dated_caveats(self, day: dt.date) -> list[Defect]:
        """Defects that hold only for a stretch of dates (e.g. a text whose earlier wording is not stored)."""
        return [d for d in self.defects if (d.applies.start or d.applies.end) and d.applies.contains(day)]

    def _build_calendar(self) -> clock.HolidayCalendar:
        state = self.state or self.pack
        rules = tuple(state.holiday_rules) + (tuple(self.pack.extra_holidays) if self.state else ())
        where = Where(self.pack.file, self.pack.calendar_line, "calendar.observes")
        optional = {r.id for r in state.holiday_rules if r.optional}
        if self.state is None:
            # the state alone: every holiday 645.44 lists is observed, the owner keeps the longer time
            observes = dict.fromkeys(optional, True)
        else:
            observes = dict(self.pack.observes)
            for rid in observes:
                if rid not in optional:
                    raise where.fail(
                        f"{rid!r} is not an optional holiday of {state.id}; optional: {', '.join(sorted(optional))}"
                    )
            undecided = optional - set(observes)
            if undecided:
                raise where.fail(
                    f"the city must say whether it observes {', '.join(sorted(undecided))} (true or false)"
                )
        try:
            return clock.HolidayCalendar(rules, observes, name=self.name)
        except ValueError as exc:
            raise PackError(state.file, None, f"calendar: {exc}") from exc

    def _check_references(self) -> None:
        deadline_ids: dict[str, tuple[str, str, ProvisionVersion]] = {}
        requirement_ids: set[str] = set()
        for version in self.all_versions():
            if version.effect_kind == "deadline":
                e = version.effect
                kind = e.get("kind", "due")
                prior = deadline_ids.get(e["id"])
                if prior and (prior[0], prior[1]) != (e["who"], kind):
                    raise PackError(
                        version.file,
                        version.effect_line,
                        f"deadline {e['id']!r} is for {e['who']}/{kind} here but {prior[0]}/{prior[1]} "
                        f"at {prior[2].file}:{prior[2].line}",
                    )
                deadline_ids[e["id"]] = (e["who"], kind, version)
            elif version.effect_kind == "requirement":
                requirement_ids.add(version.effect["id"])
        state_ids = set(self.state.designations) if self.state else set()
        for designation in self.designations.values():
            if designation.state_counterpart and designation.state_counterpart not in state_ids:
                layer = self.pack if designation.pack == self.pack.id else self.state
                raise PackError(
                    layer.file,  # type: ignore[union-attr]
                    None,
                    f"designation {designation.id!r}: state_counterpart {designation.state_counterpart!r} "
                    "is not a designation of the state pack",
                )
        for version in self.all_versions():
            where = Where(version.file, version.effect_line or version.line, f"provision {version.id}")
            if version.state_provision:
                if version.layer != "city" or self.state is None:
                    raise where.fail("state_provision is for city provisions")
                if version.state_provision not in self.state.provisions:
                    raise where.fail(
                        f"state_provision {version.state_provision!r} is not a provision of {self.state.id}"
                    )
            e = version.effect
            if e is None:
                continue
            kind = version.effect_kind
            designations = []
            known = self.designations
            if kind == "ground" and "eligibility" in e:
                designations, known = [e["eligibility"]], self.eligibilities
            elif kind == "ground":
                designations = [e["designation"]]
            elif kind == "exemption":
                designations = list(e["bars"])
                known = {**self.designations, **self.eligibilities}
            else:
                designations = list(e.get("for", ())) + list(e.get("designations", ()))
            for d in designations:
                if d not in known:
                    if known is self.eligibilities:
                        raise where.fail(
                            f"unknown eligibility {d!r}; this jurisdiction has "
                            f"{', '.join(sorted(self.eligibilities)) or 'none'}"
                        )
                    raise where.fail(
                        f"unknown designation {d!r}; this jurisdiction has {', '.join(sorted(self.designations))}"
                    )
            roles = list(e.get("roles", ())) + list(e.get("copy_to", ()))
            if kind == "requirement" and e.get("proof_to"):
                roles.append(e["proof_to"])
            for role in roles:
                if role not in self.roles:
                    raise where.fail(f"unknown role {role!r}; define it under roles")
            if kind == "seizure_trigger":
                if e.get("requirement") and e["requirement"] not in requirement_ids:
                    raise where.fail(f"unknown requirement {e['requirement']!r}")
                after = e.get("after")
                if after and after["deadline"] not in deadline_ids:
                    raise where.fail(f"unknown deadline {after['deadline']!r}")

    # ----------------------------------------------------------------------------------------- procedure

    def step_ids(self) -> list[str]:
        """Every step id of this jurisdiction's procedure, in any version of its law."""
        return sorted({step.id for step in self.every_version_of_steps()})

    def every_version_of_steps(self) -> list[Step]:
        """Each step of this jurisdiction's procedure as each version of its law has it (a step that no
        version changes appears once a version of the procedure)."""
        days = [clock.MIN_DATE, *self._procedure._days]
        return [step for day in days for step in self._procedure.procedure(day)]

    def procedure(self, on: dt.date) -> list[Step]:
        """The layered steps of a case in force on `on` (docs/procedure.md)."""
        check_date_range(on, "on")
        return self._procedure.procedure(on)

    def step(self, step_id: str, on: dt.date) -> Step:
        return self._procedure.step(step_id, on)

    def case_step(self, step_id: str, state: CaseState, at: dt.datetime | None = None) -> Step:
        """The step as this case runs it, in force at `at`: on a case not declared, a city step that replaces
        a state step the state makes reach such a case (`undeclared: true`) is the state's step as the state
        wrote it (its form, conditions and events), unless the city's step reaches such a case too."""
        day = self._procedure_day(state, at)
        return self._procedure.case_step(step_id, day, state.designation)

    def check_step(
        self,
        step_id: str,
        state: CaseState,
        actor: Actor,
        at: dt.datetime,
        inputs: Mapping[str, Any] | None = None,
    ) -> Verdict:
        """May `actor` take `step_id` in this case at `at`? Law as in force on `at`'s date, never today.

        Without `inputs` the conditions that depend on the form (proofs, seizure ground) are not checked and
        are listed in `Verdict.needs_inputs`; with inputs (even `{}`) they are."""
        return self._procedure.check_step(step_id, state, actor, at, inputs)

    def available_steps(self, state: CaseState, actor: Actor, at: dt.datetime) -> list[Verdict]:
        """Every step of the procedure that applies to the case's designation, allowed or not."""
        return self._procedure.available_steps(state, actor, at)

    def validate_inputs(
        self,
        step_id: str,
        state: CaseState,
        inputs: Mapping[str, Any],
        at: dt.datetime | None = None,
    ) -> dict[str, Any]:
        """The step's form cleaned (dates, instants, choices from the law); raises InputError(field, rule).

        With `at` (the moment the step is taken), a fact date may not be after it; a fact date may never be
        before the case's incident."""
        day = self._procedure_day(state, at)
        step = self._procedure.case_step(step_id, day, state.designation)
        return self._procedure.validate_inputs(step, state, inputs, day, at=at)

    def input_choices(
        self, step_id: str, state: CaseState, at: dt.datetime | None = None
    ) -> dict[str, list[dict[str, Any]]]:
        """The choices of the step's inputs that come from the law (designations, service methods, proofs,
        seizure grounds, outcomes), as in force at `at`."""
        day = self._procedure_day(state, at)
        return self._procedure.choices(
            self._procedure.case_step(step_id, day, state.designation), state, day, at
        )

    def events_of(
        self,
        step_id: str,
        at: dt.datetime,
        cleaned_inputs: Mapping[str, Any],
        state: CaseState | None = None,
    ) -> dict[str, dt.date | dt.datetime]:
        """The events a step records when taken at `at` with these cleaned inputs (store them as
        `TakenStep.events`). Give the case's `state` (before the step): a case not declared may run another
        form of the step (case_step)."""
        day = at.astimezone(self.tz).date()
        step = self._procedure.step(step_id, day)
        if state is not None:
            step = step.for_designation(state.designation)
        return self._procedure.events_of(step, at, cleaned_inputs)

    def obligations(self, state: CaseState, at: dt.datetime) -> list[Obligation]:
        """What is owed in the case at `at`: every deadline its events started, with status and consequences."""
        return self._procedure.obligations(state, at)

    # ----------------------------------------------------------------------------------------- documents

    @property
    def document_sources(self) -> dict[str, tuple[str, str]]:
        """The `{…}` names a document may use: name -> (what it is, where staff supply it); and the families
        `deadline.<id>`, `office.<id>.<field>`, `input.<id>` (documents.describe_source)."""
        return dict(SOURCES)

    @property
    def offices(self) -> dict[str, dict[str, Any]]:
        """`jurisdiction.offices` of the layers (the city's over the state's): id -> {id, name, address,
        telephone}; an address or telephone not known is None."""
        return self._documents.offices

    @property
    def letterhead(self) -> dict[str, Any] | None:
        return self._documents.letterhead

    def document_types(self, step_id: str, designation: str | None, day: dt.date) -> list[DocumentType]:
        """The documents the step issues for a case with this designation, as in force on `day` (after
        layering: the city's wording, the state floor appended). Attachments are not listed: they are pages of
        the document that attaches them (`document_pages`)."""
        check_date_range(day, "day")
        step = self._procedure.case_step(step_id, day, designation)
        return self._documents.for_step(step, designation, day)

    def document_type(self, doc_id: str, day: dt.date) -> DocumentType:
        check_date_range(day, "day")
        return self._documents.document_type(doc_id, day)

    def all_document_types(self, day: dt.date) -> list[DocumentType]:
        check_date_range(day, "day")
        return list(self._documents.on(day).values())

    def document_pages(self, doc_id: str, day: dt.date) -> list[DocumentType]:
        """The document followed by its attachments (each once): what is printed and issued together."""
        return self._documents.pages(self.document_type(doc_id, day), day)

    def section_applies(self, section: Section, state: CaseState, at: dt.datetime) -> bool:
        """Whether a section's `when:` (or its element's) holds for the case at `at`; unknown: it applies."""
        return self._documents.section_applies(section, state, at)

    def applicable_sections(self, doc: DocumentType, state: CaseState, at: dt.datetime) -> list[Section]:
        return self._documents.applicable_sections(doc, state, at)

    def elements_contained(self, doc_ids, state: CaseState, at: dt.datetime) -> list[str]:
        """The element values ("<provision key>/<element id>") the documents (and their attachments) contain
        for this case at `at`: what the documents app passes as the step's `contents` when it issues them."""
        return self._documents.elements_contained(doc_ids, state, at)

    def required_elements(self, step_id: str, state: CaseState, at: dt.datetime | None = None) -> list[str]:
        """Every element value the step's `contents` check demands for this case (each applicable required
        element of every notice the step serves, any layer). The bridge for demo data and tests: passing it as
        `contents` says the documents contain them all; the documents app passes `elements_contained`."""
        choices = self.input_choices(step_id, state, at).get(CONTENTS_INPUT, [])
        return [c["value"] for c in choices if c.get("applies", True)]

    def state_if_taken(
        self, step_id: str, state: CaseState, at: dt.datetime, inputs: Mapping[str, Any], actor: str = ""
    ) -> CaseState:
        """The case as it will be once the step is taken at `at` with these inputs (read as the form gives them,
        the `contents` check aside): what a document issued with the step reads its dates and times from —
        `{deadline.owner.request_hearing}` on the notice whose date starts that time. Raises InputError for a
        value the step refuses."""
        day = self._procedure_day(state, at)
        step = self._procedure.case_step(step_id, day, state.designation)
        cleaned = self._procedure.validate_inputs(step, state, inputs, day, partial=True, at=at)
        events = self._procedure.events_of(step, at, cleaned)
        designation = state.designation
        if step.opens_case:
            designation = cleaned.get(next((i.id for i in step.inputs if i.kind == "designation"), ""))
        outcome = next((cleaned.get(i.id) for i in step.inputs if i.kind == "outcome"), None)
        taken = TakenStep(step_id, at, actor, outcome, events, cleaned)
        return CaseState(designation, state.incident_date, (*state.taken, taken), state.settings)

    def obligations_if_taken(
        self, step_id: str, state: CaseState, at: dt.datetime, inputs: Mapping[str, Any]
    ) -> list[Obligation]:
        """The case's obligations once the step is taken (state_if_taken): the due dates a document issued with
        the step states (`deadline.<id>` sources)."""
        return self.obligations(self.state_if_taken(step_id, state, at, inputs), at)

    def missing_source(self, name: str) -> str:
        """What to say when a source has no value: "the City Clerk/Treasurer's address — supply it in the
        city's law pack (jurisdiction.offices)"."""
        return missing_message(name, self.offices)

    def pack_source(self, name: str) -> str | None:
        """The value of a source the law pack itself gives (city.name, office.<id>.<field>); None when the pack
        leaves it to supply (null) or it is not a pack source."""
        if name == "city.name":
            return self.letterhead["name"] if self.letterhead else self.name
        if source_family(name) == "office":
            office, _, what = name.split(".", 1)[1].rpartition(".")
            value = (self.offices.get(office) or {}).get(what)
            return value or None
        return None

    def document_warnings(self) -> list[dict[str, str]]:
        """What the law check reports of the documents without failing: a state element the city's document
        does not state (the state's wording appended), an office's address not given, a notice a step serves
        that no document it issues writes."""
        return list(self._documents.warnings)

    def withdrawals(self, on: dt.date) -> list[dict[str, Any]]:
        """The state steps and deadlines the city withdrew (`withdraws:`), each with its provision and reason."""
        return self._procedure.withdrawals(on)

    def event_label(self, event: str) -> str:
        """An event in words ("the notice"); a pack's own event in the words its pack gives."""
        return self.event_words.get(event) or event.replace("_", " ")

    def service_method_label(self, method: str) -> str:
        """A service method in words: a pack's own method by its label, a shared one by its id in words."""
        declared = self.service_methods.get(method)
        return declared.label if declared else method.replace("_", " ")

    def pack_roles_for(self, staff_roles) -> frozenset[str]:
        """The pack roles (both layers) that the product's staff roles act as."""
        wanted = set(staff_roles)
        unknown = wanted - set(STAFF_ROLES)
        if unknown:
            raise InputError(
                "staff_roles", f"unknown staff role {sorted(unknown)[0]!r}; known: {', '.join(STAFF_ROLES)}"
            )
        return frozenset(
            role.id for layer in self.layers for role in layer.roles.values() if wanted & set(role.staff)
        )

    def _procedure_day(self, state: CaseState, at: dt.datetime | None) -> dt.date:
        if at is not None:
            if not isinstance(at, dt.datetime) or at.tzinfo is None:
                raise InputError("at", "must be a timezone-aware date and time")
            return at.astimezone(self.tz).date()
        days = [state.incident_date] + [t.at.astimezone(self.tz).date() for t in state.taken]
        return max(days)

    # ----------------------------------------------------------------------------------------- classify

    def classifier(self, day: dt.date, *, eligibilities: bool = False):
        """The compiled rules in force on `day` (one compiled function per stretch of unchanged law): the
        designations', or with `eligibilities` those of the acts the law allows without a designation (347.56
        destruction; None when the jurisdiction has none)."""
        index = bisect.bisect_right(self._boundaries, day)
        key = (index, eligibilities)
        if key not in self._classifiers:
            self._classifiers[key] = self._compile(day, index, eligibilities)
        return self._classifiers[key]

    def _compile(self, day: dt.date, index: int, eligibilities: bool = False):
        versions = self.versions_on(day)
        if not any(v.effect_kind == "ground" for v in versions):
            raise LawNotInForce(
                "date",
                f"no stored text of {self.name} defines a designation in force on {day.isoformat()}",
            )
        rules: dict[str, Rule] = {}

        def rule_for(version: ProvisionVersion) -> Rule:
            rule = rules.get(version.key)
            if rule is None:
                cond = _unfreeze(version.effect["when"])
                rule = Rule(
                    version=version,
                    kind=version.effect_kind,  # type: ignore[arg-type]
                    condition=cond,
                    cited=version.cite(),
                )
                rules[version.key] = rule
            return rule

        # the designations; or the eligibilities (acts allowed without a designation: 347.56)
        order = [
            d
            for layer in self.layers
            for d in (layer.eligibilities if eligibilities else layer.designations).values()
        ]
        if not order:
            return None
        per_designation: list[tuple[Rule, ...]] = []
        for designation in order:
            grounds = [
                rule_for(v)
                for v in versions
                if v.effect_kind == "ground"
                and (v.effect.get("designation") or v.effect.get("eligibility")) == designation.id
            ]
            exemptions = [
                rule_for(v)
                for v in versions
                if v.effect_kind == "exemption" and designation.id in v.effect["bars"]
            ]
            # a state exemption reaches only the designations its own words name (`bars`): never a city
            # designation through state_counterpart (DESIGN.md principle 4; the answer flags it instead)
            per_designation.append(tuple(grounds + exemptions))
        start = self._boundaries[index - 1] if index > 0 else None
        end = self._boundaries[index] if index < len(self._boundaries) else None
        return compile_classifier(tuple(order), tuple(per_designation), start, end)

    def classify(self, facts: Mapping[str, Any], incident_date: dt.date) -> Classification:
        """Every designation the facts support under the law in force on the incident date, and why."""
        if not clock.MIN_DATE <= incident_date <= clock.MAX_DATE:
            check_date_range(incident_date, "incident_date")
        compiled = self.classifier(incident_date)
        return Classification(self, incident_date, compiled, compiled.run(facts), facts)

    # ----------------------------------------------------------------------------------------- deadlines

    def deadline_ids(self) -> list[str]:
        return sorted(self._deadline_plans)

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
        sets no such time for it. Without a designation, every provision is combined — unless `undeclared`
        (a case not declared): then only the provisions without `for`, which reach every case (347.56's 14 days
        to ask for a hearing on the destruction, not (K)'s, which reach a dog declared)."""
        plan = self._deadline_plans.get(deadline_id)
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
        settings_now = self._setting_values
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
            _combination_rule(plan.who, plan.kind) if len(entries) > 1 else "one provision sets this time"
        )
        keys = tuple(e["provision"]["provision"] for e in entries)
        notes = plan.notes.get(keys)
        if notes is None:
            notes = plan.notes[keys] = tuple(d.as_dict() for d in self.defects_for(keys))
        answer["notes"] = [dict(n) for n in notes]
        return answer

    def deadline_applies(
        self, deadline_id: str, designation: str | None, *, undeclared: bool = False
    ) -> bool:
        """Does any provision setting `deadline_id` concern a case with this designation? False when every
        provision names designations (`for`) and none is this one: the law sets no such time for it. With
        `undeclared` (a case not declared), only a provision without `for` concerns it."""
        plan = self._deadline_plans.get(deadline_id)
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

    # ----------------------------------------------------------------------------------------- conflicts

    def conflicts(self, on: dt.date) -> list[dict[str, Any]]:
        """Every point where the city departs from the state layer, with both citations and what applies."""
        check_date_range(on, "on")
        if self.state is None:
            return []
        versions = self.versions_on(on)
        city = [v for v in versions if v.layer == "city"]
        state = [v for v in versions if v.layer == "state"]
        out: list[dict[str, Any]] = []

        def by_effect(vs, kind):
            grouped: dict[str, list[ProvisionVersion]] = {}
            for v in vs:
                if v.effect_kind == kind:
                    grouped.setdefault(v.effect["id"], []).append(v)
            return grouped

        city_deadlines, state_deadlines = by_effect(city, "deadline"), by_effect(state, "deadline")
        for did in sorted(set(city_deadlines) & set(state_deadlines)):
            for cv in city_deadlines[did]:
                # a state time meets a city one only where both concern the same designation: Tracy's five
                # business days (vicious) and 347.541's 14 days (dangerous) never set the same case's time
                overlapping = [sv for sv in state_deadlines[did] if _scopes_meet(cv, sv)]
                if not overlapping or _deadline_terms(cv) in {_deadline_terms(v) for v in overlapping}:
                    continue
                sv = overlapping[0]
                e = cv.effect
                out.append(
                    {
                        "topic": f"deadline {did}",
                        "title": f"Time to {e['what']}",
                        "kind": "deadline",
                        "summary": f"{_describe_period(cv, self.event_words)} ({cv.citation}) vs "
                        f"{_describe_period(sv, self.event_words)} ({sv.citation})",
                        "city": _side(cv, _describe_period(cv, self.event_words)),
                        "state": _side(sv, _describe_period(sv, self.event_words)),
                        "applied": "both are computed for every case; "
                        + _combination_rule(e["who"], e.get("kind", "due")).split(": ", 1)[1],
                    }
                )
        city_req, state_req = by_effect(city, "requirement"), by_effect(state, "requirement")
        for rid in sorted(set(city_req) & set(state_req)):
            for cv in city_req[rid]:
                for sv in state_req[rid]:
                    # each amount (one, or several: per person, per incident) against the state's amount of
                    # the same id, or its single amount
                    for (aid, ca, cwhat), (sid, sa, swhat) in _amount_pairs(cv.effect, sv.effect):
                        if ca == sa:
                            continue
                        high = max(ca, sa)
                        name = aid or sid
                        topic = f"requirement {rid}" + (f": {name}" if name else "")
                        cval = f"${ca:,.0f}" + (f" {cwhat}" if cwhat else "")
                        sval = f"${sa:,.0f}" + (f" {swhat}" if swhat else "")
                        out.append(
                            {
                                "topic": topic,
                                "title": f"Requirement: {cv.effect['what']}"
                                + (f" ({cwhat or swhat})" if (cwhat or swhat) else ""),
                                "kind": "amount",
                                "amount": name,
                                "summary": f"{cval} ({cv.citation}) vs {sval} ({sv.citation})",
                                "city": _side(cv, cval),
                                "state": _side(sv, sval),
                                "applied": f"${high:,.0f}: a requirement takes the higher amount: the state's is the floor{self._floor_cite}",
                            }
                        )
                    spec_c, spec_s = dict(cv.effect.get("spec") or {}), dict(sv.effect.get("spec") or {})
                    for key in sorted(set(spec_c) & set(spec_s)):
                        if spec_c[key] != spec_s[key]:
                            out.append(
                                {
                                    "topic": f"requirement {rid}: {key}",
                                    "title": f"Requirement: {cv.effect['what']} ({spec_words(key)})",
                                    "kind": "specification",
                                    "summary": f"{spec_c[key]} ({cv.citation}) vs {spec_s[key]} ({sv.citation})",
                                    "city": _side(cv, spec_words(spec_c[key])),
                                    "state": _side(sv, spec_words(spec_s[key])),
                                    "applied": "the stricter of the two; both are shown to the owner",
                                }
                            )
        out += self._fee_cap_conflicts(city, state)
        # A state exemption bars the designations its own words name; it reaches no city designation
        # (not through state_counterpart either: DESIGN.md principle 4). Where the city has no provision
        # restating it, the city attorney sees that its designation stays open where the state's is barred.
        # An exemption that bars only what the state law allows without a designation (347.56 destruction,
        # whose exemptions restate 347.51 subd. 5) is applied by the state's own track in every city, to every
        # dog: it is not compared with a city designation (subd. 5 itself is listed once, for its designation).
        restated = {v.state_provision for v in city if v.state_provision}
        for designation in self.pack.designations.values():
            for sv in state:
                if (
                    sv.effect_kind == "exemption"
                    and designation.id not in sv.effect["bars"]
                    and sv.id not in restated
                    and any(d in self.designations for d in sv.effect["bars"])
                ):
                    barred = ", ".join(
                        self.designations[d].label.lower()
                        for d in sv.effect["bars"]
                        if d in self.designations
                    )
                    out.append(
                        {
                            "topic": f"exemption for {designation.id}",
                            "title": f"Exemption for a {designation.label.lower()}",
                            "kind": "missing_exemption",
                            "summary": f"{self.pack.name} has no provision restating {sv.citation}",
                            "city": {
                                "citation": None,
                                "text": None,
                                "value": "no counterpart in the city text",
                            },
                            "state": _side(sv, "exemption"),
                            "applied": (
                                f"not applied to a {designation.label.lower()} classification: {sv.citation} "
                                f"bars the state's {barred} designation only, and its words reach no city "
                                f"designation; where it applies, the answer says that a state {barred} "
                                "declaration would be barred, flagged for the city attorney"
                            ),
                        }
                    )
        for cv in city:
            if cv.differs_from_state:
                sv = self.state.provisions.get(cv.state_provision or "")
                svv = sv.version_on(on) if sv else None
                out.append(
                    {
                        "topic": f"{cv.citation}",
                        "title": cv.citation,
                        "kind": "wording",
                        "summary": cv.differs_from_state,
                        "city": _side(cv, cv.differs_from_state),
                        "state": _side(svv, "") if svv else {"citation": None, "text": None, "value": None},
                        "applied": "both texts are applied; where they differ the state floor protects the owner "
                        f"and the city's added restrictions stand{self._floor_cite}",
                    }
                )
        return out

    def _fee_cap_conflicts(
        self, city: list[ProvisionVersion], state: list[ProvisionVersion]
    ) -> list[dict[str, Any]]:
        """A city fee above a state cap on the fee of the same id (347.51 subd. 2(3): not more than $500)."""
        out: list[dict[str, Any]] = []
        caps = [v for v in state if v.effect_kind == "fee" and v.effect.get("cap_usd") is not None]
        for cv in city:
            if cv.effect_kind != "fee" or cv.effect.get("amount_usd") is None:
                continue
            amount = cv.effect["amount_usd"]
            for sv in caps:
                cap = sv.effect["cap_usd"]
                if sv.effect["id"] != cv.effect["id"] or amount <= cap:
                    continue
                reached = _designations_both(cv.effect.get("for"), sv.effect.get("for"))
                if reached == []:
                    continue
                labels = ", ".join(self.designations[d].label.lower() for d in reached or ())
                scope = f" for a {labels}" if reached else ""
                rest = [d for d in cv.effect.get("for") or () if reached and d not in reached]
                tail = (
                    "; for a "
                    + ", ".join(self.designations[d].label.lower() for d in rest)
                    + f" the city's amount stands ({sv.citation} does not reach it)"
                    if rest
                    else ""
                )
                out.append(
                    {
                        "topic": f"fee {cv.effect['id']}",
                        "title": f"Fee: {cv.effect['what']}",
                        "kind": "fee_cap",
                        "summary": f"${amount:,.0f} ({cv.citation}) vs not more than ${cap:,.0f} ({sv.citation})",
                        "city": _side(cv, f"${amount:,.0f}"),
                        "state": _side(sv, f"not more than ${cap:,.0f}"),
                        "applied": f"${cap:,.0f}{scope}: the state caps the fee; dogcase demands no more than the "
                        f"cap{tail}",
                    }
                )
        return out

    def fee(self, fee_id: str, on: dt.date, *, designation: str | None = None) -> dict[str, Any]:
        """What the law lets the city charge as fee `fee_id` on `on`: the amount recorded (a council resolution,
        or null until one is recorded), every state cap that reaches it, and the amount dogcase demands (never
        above a cap)."""
        check_date_range(on, "on")
        versions = [v for v in self.versions_on(on) if v.effect_kind == "fee" and v.effect["id"] == fee_id]
        if designation is not None:
            if designation not in self.designations:
                raise InputError("designation", f"unknown designation {designation!r} in {self.id}")
            versions = [v for v in versions if v.effect.get("for") is None or designation in v.effect["for"]]
        if not versions:
            raise InputError("fee", f"no fee {fee_id!r} of {self.id} in force on {on.isoformat()}")
        amounts = [v for v in versions if v.effect.get("amount_usd") is not None]
        caps = [v for v in versions if v.effect.get("cap_usd") is not None]
        # the city's amount where it recorded one, else the state's
        amount_from = next((v for v in reversed(amounts) if v.layer == "city"), None) or (
            amounts[-1] if amounts else None
        )
        amount = amount_from.effect["amount_usd"] if amount_from else None
        cap_from = min(caps, key=lambda v: v.effect["cap_usd"]) if caps else None
        cap = cap_from.effect["cap_usd"] if cap_from else None
        demanded = amount if cap is None or amount is None else min(amount, cap)
        if amount is None:
            why = "no amount is recorded (the fee is set by resolution; until it is recorded nothing is demanded)"
        elif cap is not None and amount > cap:
            why = (
                f"the recorded ${amount:,.0f} ({amount_from.citation}) is above the cap of ${cap:,.0f} "
                f"({cap_from.citation}): dogcase demands no more than the cap"
            )
        else:
            why = f"the recorded amount ({amount_from.citation})" + (
                f", within the cap of ${cap:,.0f} ({cap_from.citation})" if cap_from else ""
            )
        return {
            "jurisdiction": self.id,
            "fee": fee_id,
            "on": on.isoformat(),
            "designation": designation,
            "amount_usd": amount,
            "cap_usd": cap,
            "demanded_usd": demanded,
            "why": why,
            "provisions": [v.cite() for v in versions],
        }

    # ----------------------------------------------------------------------------------------- show

    def show(self, on: dt.date) -> dict[str, Any]:
        check_date_range(on, "on")
        versions = self.versions_on(on)
        return {
            "jurisdiction": self.describe(),
            "on": on.isoformat(),
            "layers": [
                {
                    "pack": layer.id,
                    "name": layer.name,
                    "kind": layer.kind,
                    "source": dict(layer.source),
                    "provisions": [_show_version(v) for v in versions if v.pack == layer.id],
                }
                for layer in self.layers
            ],
            "designations": [
                {
                    "id": d.id,
                    "label": d.label,
                    "layer": "state" if self.state and d.pack == self.state.id else self.pack.kind,
                    "defined_by": d.defined_by,
                    "state_counterpart": d.state_counterpart,
                }
                for d in self.designations.values()
            ],
            # acts the law allows without a designation (347.56 destruction)
            "eligibilities": [
                {"id": e.id, "label": e.label, "defined_by": e.defined_by, "description": e.description}
                for e in self.eligibilities.values()
            ],
            "roles": [{"id": r.id, "label": r.label, "pack": r.pack} for r in self.roles.values()],
            "defects": [d.as_dict() for d in self.defects if d.applies.contains(on)],
            "settings": [
                {
                    "id": s.id,
                    "label": s.label,
                    "pack": s.pack,
                    "what": s.what,
                    "value": s.value,
                    "for": s.for_provision,
                }
                for s in self.settings.values()
            ],
            "holidays": [
                {"date": h.date.isoformat(), "name": h.name, "citation": h.citation}
                for h in sorted(self.calendar.holidays(on.year).values(), key=lambda h: h.date)
            ],
            "deadlines": self.deadline_ids(),
            # what the layers add to the shared vocabularies (docs/law-packs.md, "What a pack may add")
            "facts": [
                {
                    "id": f.id,
                    "type": f.type,
                    "question": f.question,
                    "values": [{"value": v, "label": f.label_of(v)} for v in f.ordered_values],
                    "pack": f.pack,
                    "added_values": dict(f.added_values),
                }
                for f in self.facts.facts.values()
                if f.pack or f.added_values
            ],
            "events": [
                {"id": e, "words": w, "pack": layer.id}
                for layer in self.layers
                for e, w in layer.events.items()
            ],
            "service_methods": [
                {"id": m.id, "label": m.label, "form_of": list(m.form_of), "pack": m.pack}
                for m in self.service_methods.values()
            ],
            "withdrawn": self.withdrawals(on),
        }

    def today(self) -> dt.date:
        """Today's date where the jurisdiction is (for "the law in force now", stated in every answer)."""
        return dt.datetime.now(self.tz).date()

    def describe(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "kind": self.pack.kind,
            "layer_over": self.state.id if self.state else None,
            "timezone": self.pack.timezone,
        }


class Classification:
    """The answer to "what do these facts make this dog, and why?"."""

    __slots__ = ("jurisdiction", "incident_date", "compiled", "results", "facts", "_eligibility_results")

    def __init__(self, jurisdiction, incident_date, compiled, results, facts) -> None:
        self.jurisdiction: Jurisdiction = jurisdiction
        self.incident_date: dt.date = incident_date
        self.compiled = compiled
        self.results: tuple[DesignationResult, ...] = results  # the designations
        self.facts = facts
        self._eligibility_results: tuple[DesignationResult, ...] | None = None

    @property
    def eligibility_results(self) -> tuple[DesignationResult, ...]:
        """The acts the law allows without a designation (347.56 destruction), answered the same way;
        worked out when first asked, so that a caller wanting only the designations does not pay for them."""
        if self._eligibility_results is None:
            acts = self.jurisdiction.classifier(self.incident_date, eligibilities=True)
            self._eligibility_results = acts.run(self.facts) if acts else ()
        return self._eligibility_results

    def result(self, designation_id: str) -> DesignationResult:
        for r in self.results + self.eligibility_results:
            if r.designation.id == designation_id:
                return r
        raise KeyError(designation_id)

    def state_exemption_flags(self) -> list[dict[str, Any]]:
        """State exemptions that apply to these facts but whose words do not reach a designation the facts
        still support (a Tracy dog that bit a person committing a crime: 347.51 subd. 5 bars a state
        dangerous declaration, not a vicious classification). One flag per exemption, for the city attorney."""
        state = self.jurisdiction.state or (
            self.jurisdiction.pack if self.jurisdiction.pack.kind == "state" else None
        )
        if state is None:
            return []
        open_results = [r for r in self.results if r.status in ("eligible", "undetermined")]
        flags: dict[str, dict[str, Any]] = {}
        for r in self.results:
            for rule in r.barred_by:
                version = rule.version
                if version.pack != state.id or rule.key in flags:
                    continue
                bars = list(version.effect["bars"])
                untouched = [o for o in open_results if o.designation.id not in bars]
                if not untouched:
                    continue
                barred = " or ".join(
                    self.jurisdiction.designations[d].label.lower()
                    for d in bars
                    if d in self.jurisdiction.designations
                )
                open_words = ", ".join(o.designation.label.lower() for o in untouched)
                flags[rule.key] = {
                    "provision": rule.key,
                    "citation": version.citation,
                    "bars": bars,
                    "not_reached": [o.designation.id for o in untouched],
                    "text": (
                        f"{version.citation} applies to these facts: it bars a state {barred} declaration. "
                        f"Its words do not reach the {open_words} designation, which the facts may still support."
                    ),
                    "reading": (
                        f"dogcase does not extend {version.citation} beyond the designations it names (DESIGN.md "
                        f"principle 4): a {barred} declaration would be barred; flagged for the city attorney."
                    ),
                }
        return list(flags.values())

    def as_dict(self) -> dict[str, Any]:
        """The answer as JSON-ready data. What depends only on the law in force (each rule's trace step,
        citations, summaries, the notes of the provisions used) is rendered once per compiled classifier and
        shared between answers: read the answer, never change it in place."""
        j = self.jurisdiction
        day = self.incident_date
        flags = self.state_exemption_flags() if any(r.barred_by for r in self.results) else []
        used_keys: dict[str, None] = {}
        designations = [self._rendered(r, "designation", used_keys, flags) for r in self.results]
        eligibilities = [self._rendered(r, "eligibility", used_keys, flags) for r in self.eligibility_results]
        rendering = self.compiled.rendering
        static = rendering.get("static")
        if static is None:
            static = rendering["static"] = (
                j.describe(),
                [{"pack": layer.id, "name": layer.name, "source": dict(layer.source)} for layer in j.layers],
                self.compiled.start.isoformat() if self.compiled.start else None,
                self.compiled.end.isoformat() if self.compiled.end else None,
            )
        describe, layers, same_from, same_until = static
        flag_notes = [
            {
                "id": f"flag:{f['provision']}",
                "kind": "flag",
                "kind_label": "Flagged for the city attorney",
                "provisions": [f["provision"]],
                "text": f["text"],
                "reading": f["reading"],
                "applies": {"from": None, "until": None},
            }
            for f in flags
        ]
        return {
            "jurisdiction": describe,
            "incident_date": day.isoformat(),
            "law": {
                "as_of": day.isoformat(),
                "rule": "classification uses the law in force on the incident date",
                "layers": layers,
                "same_law_from": same_from,
                "same_law_until": same_until,
            },
            "designations": designations,
            "eligible": [r.designation.id for r in self.results if r.status == "eligible"],
            # acts the law allows on grounds of their own, with no designation (347.56 destruction)
            "eligibilities": eligibilities,
            "notes": self._notes(tuple(used_keys)) + flag_notes,
        }

    def as_json(self) -> str:
        """The answer as JSON text, the same content as as_dict() (the API sends it as it is): each part is
        encoded once per compiled classifier (a designation's part per rule values and missing facts, the
        notes per date and provisions used) and joined, instead of encoding ~10 KB for every answer."""
        if any(r.barred_by for r in self.results) and self.state_exemption_flags():
            return json.dumps(self.as_dict(), default=_json_default)  # flagged: rare, rendered in full
        rendering = self.compiled.rendering
        day = self.incident_date
        head = rendering.get(("json-head", day))
        if head is None:
            whole = self.as_dict()
            fixed = {k: whole[k] for k in ("jurisdiction", "incident_date", "law")}
            head = _bounded(rendering, ("json-head", day), json.dumps(fixed, default=_json_default)[:-1])
        used_keys: dict[str, None] = {}
        designations = ",".join(self._json_part(r, "designation", used_keys) for r in self.results)
        eligibilities = ",".join(
            self._json_part(r, "eligibility", used_keys) for r in self.eligibility_results
        )
        eligible = json.dumps([r.designation.id for r in self.results if r.status == "eligible"])
        notes_key = ("json-notes", day, tuple(used_keys))
        notes = rendering.get(notes_key)
        if notes is None:
            notes = _bounded(
                rendering, notes_key, json.dumps(self._notes(notes_key[2]), default=_json_default)
            )
        return (
            f'{head}, "designations": [{designations}], "eligible": {eligible}, '
            f'"eligibilities": [{eligibilities}], "notes": {notes}}}'
        )

    def _json_part(self, r: DesignationResult, kind: str, used_keys: dict[str, None]) -> str:
        # the rules' values decide the status, the clauses matched and barring; the missing facts the rest
        key = ("json", kind, r.designation.id, id(r.rules), r.values, r.missing)
        cached = self.compiled.rendering.get(key) if r.values is not None else None
        if cached is None:
            used: dict[str, None] = {}
            part = json.dumps(self._rendered(r, kind, used, []), default=_json_default)
            cached = (part, tuple(used))
            if r.values is not None:
                _bounded(self.compiled.rendering, key, cached)
        for k in cached[1]:
            used_keys[k] = None
        return cached[0]

    def _rendered(self, r: DesignationResult, kind: str, used_keys: dict[str, None], flags) -> dict[str, Any]:
        """One designation's (or eligibility's) part of the answer; adds the provisions it used to
        `used_keys` (a value that is not false: they and their defects are what the answer rests on)."""
        values = r.values
        if values is None:  # a result made by hand, not by the generated code
            values = tuple(_GENERATED_VALUE[evaluate(rule.condition, self.facts)] for rule in r.rules)
        trace = []
        for rule, value in zip(r.rules, values, strict=True):
            trace.append(_trace_steps(self.compiled.rendering, rule)[value])
            if value:
                used_keys[rule.key] = None
        missing = self.jurisdiction.facts.facts
        return {
            kind: r.designation.id,
            "label": r.designation.label,
            "status": r.status,
            "summary": _cached_summary(self.compiled.rendering, r, kind == "eligibility"),
            "matched": [rule.cited for rule in r.matched],
            "barred_by": [rule.cited for rule in r.barred_by],
            "missing_facts": [{"fact": name, "question": missing[name].question} for name in r.missing],
            "trace": trace,
            "flags": [
                {k: f[k] for k in ("provision", "citation", "text", "reading")}
                for f in flags
                if r.designation.id in f["not_reached"]
            ]
            if flags
            else [],
        }

    def _notes(self, used_keys: tuple[str, ...]) -> list[dict[str, Any]]:
        """The defects of the provisions used and the caveats dated to the incident date, rendered once per
        (date, provisions used)."""
        cache = self.compiled.rendering.setdefault("notes", {})
        key = (self.incident_date, used_keys)
        notes = cache.get(key)
        if notes is None:
            j = self.jurisdiction
            defects = j.defects_for(used_keys, self.incident_date)
            for caveat in j.dated_caveats(self.incident_date):
                if caveat not in defects:
                    defects.append(caveat)
            notes = tuple(d.as_dict() for d in defects)
            if len(cache) >= _NOTES_CACHE_SIZE:
                cache.clear()  # a bound, not a policy: many dates and fact mixes simply start again
            cache[key] = notes
        return list(notes)


_NOTES_CACHE_SIZE = 4096
_RENDERING_CACHE_SIZE = 20_000


def _bounded(rendering: dict[Any, Any], key: Any, value: Any) -> Any:
    """Keep `value` under `key`; past a bound the cache starts again (many dates or fact mixes in one
    process must not grow it without end)."""
    if len(rendering) >= _RENDERING_CACHE_SIZE:
        rendering.clear()
    rendering[key] = value
    return value


def _json_default(value: Any) -> Any:
    if isinstance(value, dt.date):  # as the API's encoder writes a date
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


_GENERATED_VALUE = {2: 3, 1: 1, 0: 0}  # evaluate()'s 2/1/0 in the generated code's 3/1/0


def _trace_steps(rendering: dict[Any, Any], rule: Rule) -> dict[int, dict[str, Any]]:
    """A rule's trace step for each of its values (3 applies, 1 unknown, 0 does not apply)."""
    steps = rendering.get(rule)
    if steps is None:
        steps = rendering[rule] = {
            value: {
                "provision": rule.key,
                "citation": rule.version.citation,
                "role": rule.kind,
                "value": words,
            }
            for value, words in ((3, "applies"), (1, "unknown"), (0, "does not apply"))
        }
    return steps


def _cached_summary(rendering: dict[Any, Any], r: DesignationResult, eligibility: bool) -> str:
    # the summary reads the status, the clauses matched or barring, and only how many facts are missing
    key = ("summary", r.designation.id, eligibility, r.status, r.matched, r.barred_by, len(r.missing))
    text = rendering.get(key)
    if text is None:
        text = rendering[key] = _summary(r, eligibility=eligibility)
    return text


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

    def what_for(self, designation: str | None) -> str:
        """What is owed, in the words of a provision that sets it for this designation (the city's first):
        Tracy's five business days to contest a vicious classification are not 347.541's hearing on a
        dangerous declaration, though both set owner.request_hearing."""
        if designation is None:
            return self.what
        reaching = [s.version for s in self.steps_for(designation)]
        chosen = next((v for v in reaching if v.layer == "city"), reaching[0] if reaching else None)
        return chosen.effect["what"] if chosen is not None else self.what


EVENT_WORDS = {
    "incident": "the incident",
    "classification": "the classification",
    "declaration": "the declaration",
    "notice_date": "the notice",
    "notice_sent": "the sending of the notice",
    "notice_received": "receipt of the notice",
    "hearing_request_received": "receipt of the hearing request",
    "hearing_closed": "the close of the hearing",
    "decision_received": "receipt of the decision",
    "seizure": "the seizure",
    "impoundment": "the impoundment",
    "death": "the death",
    "transfer": "the transfer",
    "dog_unconfined_or_attack": "the escape or attack",
    "lease_start": "the lease",
    "registration_issued": "the registration",
    "hearing_request_filed": "the filing of the hearing request",
    "hearing_scheduled": "the scheduled hearing",
    "decision_issued": "the decision",
    "recommendation": "the recommendation",
    "council_decision": "the council's decision",
    "release": "the release",
    "disposal": "the disposal",
    "destruction": "the destruction",
    "sterilization": "the sterilization",
    "security_posted": "the posting of security",
    "review_requested": "the request for review",
    "review_decided": "the review",
    "owner_reported": "the owner's report",
    "owner_not_located": "the finding that the owner cannot be located",
    "impoundment_ordered": "the impoundment order",
    "impoundment_notice_sent": "the sending of the notice of impoundment",
    "impoundment_hearing_request_received": "receipt of the impoundment hearing request",
    "impoundment_hearing_closed": "the close of the impoundment hearing",
    "impoundment_decision_received": "receipt of the impoundment decision",
    "move": "the move",
    "landlord_disclosure": "the disclosure to the property owner",
    "destruction_notice_date": "the notice of the intended destruction",
    "destruction_notice_received": "receipt of the notice of the intended destruction",
    "destruction_hearing_request_received": "receipt of the request for a hearing on the destruction",
    "destruction_hearing_scheduled": "the scheduled hearing on the destruction",
    "destruction_decision_issued": "the hearing officer's determination on the destruction",
    "destruction_council_decision": "the council's decision on the destruction",
    "destruction_hearing_closed": "the close of the hearing on the destruction",
    "conviction": "the conviction",
    "ban_review_requested": "the request for review of the ownership ban",
}
if set(EVENT_WORDS) != set(EVENTS):  # pragma: no cover - a vocabulary edit that forgot the words
    raise RuntimeError("every event of packschema.EVENTS needs its words in EVENT_WORDS")


def _unfreeze(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _unfreeze(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [_unfreeze(v) for v in value]
    return value


def _sortable(value: dt.date | dt.datetime, tz: ZoneInfo) -> dt.datetime:
    """A due date ends at the end of that day in the jurisdiction; an instant is itself."""
    if isinstance(value, dt.datetime):
        return value
    return dt.datetime.combine(value, dt.time.max, tzinfo=tz)


def _deadline_terms(v: ProvisionVersion) -> tuple:
    e = v.effect
    return (e["trigger"], e["period"]["amount"], e["period"]["unit"], e["counting"])


def _scopes_meet(a: ProvisionVersion, b: ProvisionVersion) -> bool:
    """Do two provisions concern a common designation (a provision without `for` concerns every one)?"""
    sa, sb = a.effect.get("for"), b.effect.get("for")
    return sa is None or sb is None or bool(set(sa) & set(sb))


def _describe_period(v: ProvisionVersion, words: Mapping[str, str] = EVENT_WORDS) -> str:
    e = v.effect
    amount, unit = e["period"]["amount"], e["period"]["unit"].replace("_", " ")
    if amount == 1:
        unit = unit.rstrip("s")
    trigger = words.get(e["trigger"] or "", "a trigger the text does not give")
    return f"{amount} {unit} from {trigger}"


def requirement_amounts(effect: Mapping[str, Any]) -> list[tuple[str | None, float, str | None]]:
    """A requirement's amounts as (id, usd, what): its `amounts`, or its single `amount_usd` (id None)."""
    if effect.get("amounts"):
        return [(a["id"], a["usd"], a.get("what")) for a in effect["amounts"]]
    if effect.get("amount_usd") is not None:
        return [(None, effect["amount_usd"], None)]
    return []


def _amount_pairs(city: Mapping[str, Any], state: Mapping[str, Any]):
    """The city's and the state's amounts of one requirement to compare: the same amount id, or either
    side's single amount against each amount of the other."""
    for c in requirement_amounts(city):
        for s in requirement_amounts(state):
            if c[0] == s[0] or c[0] is None or s[0] is None:
                yield c, s


def spec_words(value: Any) -> str:
    """A requirement's specification (a key or a value of `spec:`) in words: yes/no, ids as words."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return ", ".join(spec_words(v) for v in value)
    return str(value).replace("_", " ")


def _side(v: ProvisionVersion, value: str) -> dict[str, Any]:
    return {"provision": v.key, "citation": v.citation, "text": v.text, "value": value}


def _show_version(v: ProvisionVersion) -> dict[str, Any]:
    out = v.cite()
    out["id"] = v.id
    if v.heading:
        out["heading"] = v.heading
    if v.effect_kind:
        out["effect_kind"] = v.effect_kind
        out["effect"] = _unfreeze(v.effect)
    if v.state_provision:
        out["state_provision"] = v.state_provision
    if v.differs_from_state:
        out["differs_from_state"] = v.differs_from_state
    return out


def _combination_rule(who: str, kind: str) -> str:
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


def _summary(r: DesignationResult, *, eligibility: bool = False) -> str:
    label = r.designation.label.lower()
    if eligibility:
        return _eligibility_summary(r)
    if r.status == "eligible":
        cites = "; ".join(dict.fromkeys(rule.version.citation for rule in r.matched))
        return f"The facts support declaring the dog a {label} ({cites})."
    if r.status == "barred":
        cites = "; ".join(dict.fromkeys(rule.version.citation for rule in r.barred_by))
        return f"The dog may not be declared a {label}: an exemption applies ({cites})."
    if r.status == "undetermined":
        return f"Not enough facts to say whether the dog is a {label}: {_still_needed(r.missing)}."
    return f"The facts do not meet any clause that defines a {label}."


def _designations_both(a, b) -> list[str] | None:
    """The designations two `for` scopes share: None when neither limits them, [] when they share none."""
    if a is None and b is None:
        return None
    if a is None:
        return list(b)
    if b is None:
        return list(a)
    return [d for d in a if d in b]


def _still_needed(missing) -> str:
    """How many answers are missing, in words: the facts themselves are listed with their questions."""
    n = len(missing)
    return "one more answer is needed" if n == 1 else f"{n} more answers are needed"


def _eligibility_summary(r: DesignationResult) -> str:
    label = r.designation.label
    if r.status == "eligible":
        cites = "; ".join(dict.fromkeys(rule.version.citation for rule in r.matched))
        return f"{label} may be sought: the facts meet a ground ({cites}); no designation is needed."
    if r.status == "barred":
        cites = "; ".join(dict.fromkeys(rule.version.citation for rule in r.barred_by))
        return f"{label}: barred, an exemption applies ({cites})."
    if r.status == "undetermined":
        return f"{label}: not enough facts to say: {_still_needed(r.missing)}."
    return f"{label}: the facts meet no ground."
