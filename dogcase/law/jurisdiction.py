"""A jurisdiction: a city pack read over the state pack (or the state alone), asked the law's questions.

The class is built here (its layers, calendar and checks) with its procedure and documents questions and `show`;
its classification, deadlines and departures from the state (conflicts, fee caps) are in classification.py,
deadlines.py and departures.py."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Mapping
from typing import Any
from zoneinfo import ZoneInfo

from . import charges, clock
from .answers import check_date_range, unfreeze
from .classification import Classification, ClassifierMixin
from .deadlines import WHO_FAVOURS_LATER, DeadlinesMixin
from .departures import ConflictsMixin, requirement_amounts, spec_words
from .documents import SOURCES, DocumentEngine, DocumentType, Section, missing_message, source_family
from .errors import InputError, PackError
from .facts import FactVocabulary
from .model import Defect, Designation, Pack, ProvisionVersion, Role, ServiceMethod
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
from .schema import Where
from .vocabulary import EVENT_ORDER, EVENT_WORDS, SERVICE_METHOD_FORMS, STAFF_ROLES

# the names other modules import from here (their homes are the modules above)
__all__ = [
    "EVENT_WORDS",
    "WHO_FAVOURS_LATER",
    "Classification",
    "Jurisdiction",
    "check_date_range",
    "requirement_amounts",
    "spec_words",
]

# the distinct days whose versions in force a loaded jurisdiction keeps (versions_on) before it starts again
VERSION_DAYS_KEPT = 4096


class Jurisdiction(ClassifierMixin, DeadlinesMixin, ConflictsMixin):
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
        self.charges = charges.layered(self.layers)
        # the city's rabies observation (law/observation.py): the city's own, else the state pack's, else none
        self.rabies_observation = next(
            (layer.rabies_observation for layer in reversed(self.layers) if layer.rabies_observation), None
        )
        self._defects_by_provision: dict[str, list[Defect]] = {}
        for defect in self.defects:
            for key in defect.provisions:
                self._defects_by_provision.setdefault(key, []).append(defect)
        self.calendar = self._build_calendar()
        self._check_references()
        charges.check_charges(self)
        days: set[dt.date] = set()
        for layer in self.layers:
            days |= layer.boundaries()
        self.boundaries: list[dt.date] = sorted(days)
        self._versions_by_day: dict[dt.date, tuple[ProvisionVersion, ...]] = {}
        self._classifiers: dict[tuple[int, bool], Any] = {}
        floor = state.floor_provision if state else None
        floor_version = state.provisions[floor.split(":", 1)[1]].versions[-1] if floor and state else None
        self.floor_cite = f" ({floor_version.citation})" if floor_version else ""
        self.setting_values = {k: st.value for k, st in self.settings.items()}
        self.deadline_plans = self._plan_deadlines()
        self._procedure = ProcedureEngine(self)
        self._documents = DocumentEngine(self._procedure)

    # ------------------------------------------------------------------------------------------ structure

    def all_versions(self):
        for layer in self.layers:
            for provision in layer.provisions.values():
                yield from provision.versions

    def versions_on(self, day: dt.date) -> tuple[ProvisionVersion, ...]:
        """The versions of the provisions in force on `day`, layer by layer. A page asks this of the same few days
        dozens of times (each step, form and document reads it), so each day's answer is kept: the packs do not
        change under a loaded jurisdiction (a reload builds a new one)."""
        found = self._versions_by_day.get(day)
        if found is None:
            found = tuple(
                version
                for layer in self.layers
                for provision in layer.provisions.values()
                if (version := provision.version_on(day)) is not None
            )
            if len(self._versions_by_day) >= VERSION_DAYS_KEPT:
                self._versions_by_day.clear()  # a server's lifetime of distinct days: start again
            self._versions_by_day[day] = found
        return found

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
        triggers = {v.effect["id"] for v in self.all_versions() if v.effect_kind == "seizure_trigger"}
        for version in self.all_versions():
            for ground in (
                (version.effect or {}).get("breach_grounds") or ()
                if version.effect_kind == "deadline"
                else ()
            ):
                if ground not in triggers:
                    raise PackError(
                        version.file,
                        version.effect_line,
                        f"breach_grounds: no seizure ground {ground!r} in the law",
                    )
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
        days = [clock.MIN_DATE, *self.procedure_change_days]
        return [step for day in days for step in self._procedure.procedure(day)]

    @property
    def procedure_change_days(self) -> list[dt.date]:
        """The days on which the procedure's steps or the law they read change, in order."""
        return self._procedure.change_days

    def procedure(self, on: dt.date) -> list[Step]:
        """The layered steps of a case in force on `on` (docs/procedure.md)."""
        check_date_range(on, "on")
        return self._procedure.procedure(on)

    def step(self, step_id: str, on: dt.date) -> Step:
        return self._procedure.step(step_id, on)

    def provision_cite(self, key: str | None, on: dt.date) -> dict[str, Any] | None:
        """A provision of the layers ("pack:id") as cited on `on`: citation, heading, text; None if unknown."""
        return self._procedure.cite(key, on)

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

    def validate_inputs_given(
        self, step: Step, state: CaseState, inputs: Mapping[str, Any], at: dt.datetime
    ) -> dict[str, Any]:
        """The inputs given, cleaned as `validate_inputs` cleans them, without requiring the ones not given."""
        day = at.astimezone(self.tz).date()
        return self._procedure.validate_inputs(step, state, inputs, day, partial=True, at=at)

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
        return dataclasses.replace(state, designation=designation, taken=(*state.taken, taken))

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


def _show_version(v: ProvisionVersion) -> dict[str, Any]:
    out = v.cite()
    out["id"] = v.id
    if v.heading:
        out["heading"] = v.heading
    if v.effect_kind:
        out["effect_kind"] = v.effect_kind
        out["effect"] = unfreeze(v.effect)
    if v.state_provision:
        out["state_provision"] = v.state_provision
    if v.differs_from_state:
        out["differs_from_state"] = v.differs_from_state
    return out
