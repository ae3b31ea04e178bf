"""DocumentEngine: the documents of one jurisdiction, checked as a whole, layered city over state with the
state floor on each day its law changes, and asked which statements a case's document carries."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from ..errors import InputError, PackError
from ..procedure import CaseContext, CaseState, Condition, ProcedureEngine, parse_condition, walk_conditions
from ..schema import Where
from .model import DocumentDef, DocumentType, Section
from .sources import missing_message, placeholders, source_family


class DocumentEngine:
    """The documents of one jurisdiction: checked as a whole when built, layered per day."""

    def __init__(self, procedure: ProcedureEngine) -> None:
        self.procedure = procedure
        j = procedure.j
        self.j = j
        self.offices: dict[str, dict[str, Any]] = {}
        self.letterhead: dict[str, Any] | None = None
        for layer in j.layers:
            self.offices.update(layer.offices)
            self.letterhead = layer.letterhead or self.letterhead
        self.defs: dict[str, list[DocumentDef]] = {}
        for layer in j.layers:
            for d in layer.documents:
                self.defs.setdefault(d.id, []).append(d)
        self.warnings: list[dict[str, str]] = []
        self._conditions: dict[tuple[int, int], Condition] = {}

        def ref(value: str, at: Where, pack: str) -> str:
            return value if ":" in value else f"{pack}:{value}"

        for defs in self.defs.values():
            for d in defs:
                for index, s in enumerate(d.sections):
                    if s.when is not None:
                        self._conditions[(id(d), index)] = parse_condition(
                            s.when,
                            Where(d.file, s.line, f"document {d.id}.sections[{index}].when"),
                            d.pack,
                            lambda v, at, pack=d.pack: ref(v, at, pack),
                        )
                for e in d.elements:
                    if e.when is not None:
                        self._conditions[(id(d), -1 - d.elements.index(e))] = parse_condition(
                            e.when,
                            Where(d.file, e.line, f"document {d.id}.elements.{e.id}.when"),
                            d.pack,
                            lambda v, at, pack=d.pack: ref(v, at, pack),
                        )
        self._check()
        self._cache: dict[dt.date, dict[str, DocumentType]] = {}
        self._check_layered()

    # ------------------------------------------------------------------------------------------ checks

    def _notice_versions(self, notice: str):
        return self.procedure.notices.get(notice, ())

    def _check(self) -> None:
        p = self.procedure
        j = self.j
        every = {**p.defs, **{k: [x[0]] for k, x in p.withdrawn.items()}}
        step_inputs: dict[str, set[str]] = {}
        for sid, defs in every.items():
            step_inputs[sid] = {i.id for d in defs for i in d.inputs}
        deadline_ids = set(j.deadline_ids())
        for did, defs in self.defs.items():
            if did in p.notices:
                d = defs[0]
                raise PackError(
                    d.file,
                    d.line,
                    f"document {did!r}: a notice provision has that id; give the document its own "
                    "(a step's documents: names notices and documents alike)",
                )
            for d in defs:

                def fail(message: str, line: int | None = None, d: DocumentDef = d) -> PackError:
                    return PackError(d.file, line or d.line, f"document {d.id!r}: {message}")

                if d.layer == "state" and len(defs) > 1 and defs[-1] is not d:
                    pass  # replaced by the city's document of that id
                for des in d.for_ or ():
                    if des not in j.designations:
                        raise fail(
                            f"unknown designation {des!r}; this jurisdiction has "
                            f"{', '.join(sorted(j.designations))}",
                            d.line_of("for"),
                        )
                for sid in d.issued_by:
                    if sid not in every:
                        raise fail(f"issued_by names unknown step {sid!r}", d.line_of("issued_by"))
                for n in d.notices:
                    if n not in p.notices:
                        raise fail(
                            f"unknown notice {n!r}; notices: {', '.join(sorted(p.notices))}",
                            d.line_of("notices"),
                        )
                for key in d.provisions:
                    if not p.provision_exists(key):
                        raise fail(
                            f"refers to provision {key!r}, which is not defined", d.line_of("provisions")
                        )
                for r in d.replaces:
                    if r not in self.defs or r == d.id or all(x.layer != "state" for x in self.defs[r]):
                        raise fail(f"replaces {r!r}, which is not a state document", d.line_of("replaces"))
                for a in d.attachments:
                    if a not in self.defs:
                        raise fail(f"attaches unknown document {a!r}", d.line_of("attachments"))
                    if a == d.id:
                        raise fail("a document cannot attach itself", d.line_of("attachments"))
                for e in d.elements:
                    if not p.provision_exists(e.provision):
                        raise fail(f"element {e.id!r}: provision {e.provision!r} is not defined", e.line)
                notices = self._notices_of(d)
                for index, s in enumerate(d.sections):
                    for ref in s.elements:
                        self._resolve(d, notices, ref, lambda m, line=s.line: fail(m, line))
                    texts = [s.text, s.heading or ""]
                    for name in (n for t in texts for n in placeholders(t)):
                        family = source_family(name)
                        rest = name.split(".", 1)[1] if family else ""
                        if family == "deadline":
                            did_ = rest[: -len(".citation")] if rest.endswith(".citation") else rest
                            if did_ not in deadline_ids:
                                raise fail(f"unknown source {{{name}}}: no deadline {did_!r}", s.line)
                        elif family == "office":
                            office = rest.rsplit(".", 1)[0]
                            if office not in self.offices:
                                raise fail(
                                    f"unknown source {{{name}}}: no office {office!r} in jurisdiction.offices "
                                    f"({', '.join(sorted(self.offices)) or 'none'})",
                                    s.line,
                                )
                        elif family == "input":
                            issuers = self._issuers(d, attached=True)
                            if not any(rest in step_inputs.get(sid, ()) for sid in issuers):
                                raise fail(
                                    f"unknown source {{{name}}}: no step that issues the document has an input "
                                    f"{rest!r}",
                                    s.line,
                                )
                    if s.provision and not p.provision_exists(s.provision):
                        raise fail(f"section cites provision {s.provision!r}, which is not defined", s.line)
                    cond = self._conditions.get((id(d), index))
                    if cond is not None:
                        self._check_condition(cond, d, s.line, every, fail)
        # the state pack never runs a case of its own: its offices are filled in by each city that layers it
        for office in self.offices.values() if j.pack.kind != "state" else ():
            for what in ("address", "telephone"):
                if not office.get(what):
                    self.warnings.append(
                        {
                            "pack": j.id,
                            "file": j.pack.file,
                            "warning": f"jurisdiction.offices.{office['id']}: {what} not given — "
                            f"{missing_message('office.' + office['id'] + '.' + what, self.offices)}; "
                            "a document that uses it cannot be issued until then",
                        }
                    )

    def _check_condition(self, cond, d: DocumentDef, line: int, every, fail) -> None:
        for c in walk_conditions((cond,)):
            if c.uses_inputs() and not c.parts:
                raise fail(
                    f"when: {c.test!r} reads a step's form; a section's condition reads the case "
                    "(done, not_done, outcome, last, within, from, after, ground_of, prohibited, recorded, "
                    "designation)",
                    line,
                )
        self.procedure.check_condition(cond, every, fail, line)

    def _issuers(self, d: DocumentDef, *, attached: bool = False) -> tuple[str, ...]:
        """The steps that issue a document: its issued_by and the steps whose documents: name it; with
        `attached`, also the issuers of the documents it is attached to."""
        out = list(d.issued_by)
        for sid, defs in self.procedure.defs.items():
            if any(d.id in sd.documents for sd in defs):
                out.append(sid)
        if attached:
            for other in self.defs.values():
                if d.id in other[-1].attachments and other[-1].id != d.id:
                    out += [s for s in self._issuers(other[-1], attached=True) if s not in out]
        return tuple(dict.fromkeys(out))

    def _notices_of(self, d: DocumentDef) -> tuple[str, ...]:
        """The notices a document must contain: its own `notices:`, and those of the state document of the
        same id it replaces (the floor)."""
        out = list(d.notices)
        for other in self.defs.get(d.id, ()):
            if other is not d and other.layer == "state":
                out += other.notices
        for r in d.replaces:
            for other in self.defs.get(r, ()):
                if other.layer == "state":
                    out += other.notices
        return tuple(dict.fromkeys(out))

    def _resolve(
        self, d: DocumentDef, notices: tuple[str, ...], ref: str, fail
    ) -> list[tuple[str, Any, dict]]:
        """An element ref of a section: (notice id or "", version, element) for each version that has it;
        raises when none does or when it is ambiguous."""
        if "." in ref and ref.split(".", 1)[0] in self.procedure.notices:
            notice, _, eid = ref.partition(".")
            if notice not in notices:
                raise fail(f"element {ref!r}: notice {notice!r} is not one of the document's notices")
            candidates = [notice]
        else:
            notice, eid = "", ref
            candidates = list(notices)
        found: list[tuple[str, Any, dict]] = []
        for n in candidates:
            for v in self._notice_versions(n):
                for element in v.effect.get("elements") or ():
                    if element["id"] == eid:
                        found.append((n, v, element))
        own = [e for e in d.elements if e.id == eid] if not notice else []
        if own:
            found.append(("", None, {"id": eid, "own": own[0]}))
        if not found:
            known = sorted(
                {
                    f"{n}.{e['id']}"
                    for n in candidates
                    for v in self._notice_versions(n)
                    for e in v.effect.get("elements") or ()
                }
                | {e.id for e in d.elements}
            )
            raise fail(
                f"element {ref!r} is not an element of its notices or its own elements: {', '.join(known)}"
            )
        if len({n for n, _, _ in found}) > 1:
            raise fail(
                f"element {ref!r} is an element of {', '.join(sorted({n or 'the document' for n, _, _ in found}))}: "
                "write notice_id.element_id (or list both to state both)"
            )
        return found

    def _check_layered(self) -> None:
        """Every document, on every day its law changes: each required element of each notice it carries
        (any layer) is stated by a section (the state floor may add it, with a warning); each notice a step
        serves is written by a document the step issues (else a warning)."""
        days = sorted({dt.date(1900, 1, 1), *self.procedure.change_days})
        seen_warnings: set[str] = set()
        for day in days:
            docs = self.on(day)
            for doc in docs.values():
                for s in doc.sections:
                    if s.appended:
                        message = (
                            f"document {doc.id!r} ({doc.title}) does not state the state's element “{s.element_text}” "
                            f"({s.citation['citation'] if s.citation else ''}): the state document's wording is "
                            "appended to it; the city attorney should confirm or write the city's own"
                        )
                        if message not in seen_warnings:
                            seen_warnings.add(message)
                            self.warnings.append({"pack": self.j.id, "file": doc.file, "warning": message})
            for sid, step in self.procedure.steps_on(day).items():
                for variant in (step, step.undeclared_step):
                    if variant is None:
                        continue
                    for des in variant.for_ or (*self.j.designations, None):
                        if not variant.applies_to(des):
                            continue
                        issued = self.for_step(variant, des, day)
                        written = {n for doc in issued for n in self._with_attachments_notices(doc, day)}
                        for v in self.procedure.documents_for(variant, des, day):
                            if v.effect.get("elements") and v.effect["id"] not in written:
                                message = (
                                    f"step {sid!r} serves the notice {v.effect['id']!r} ({v.citation}) "
                                    f"for {des or 'a case not declared'}, but no document it issues writes it: "
                                    "dogcase cannot write it until a document does (docs/law-packs.md, Documents)"
                                )
                                if message not in seen_warnings:
                                    seen_warnings.add(message)
                                    self.warnings.append(
                                        {"pack": self.j.id, "file": self.j.pack.file, "warning": message}
                                    )

    # ------------------------------------------------------------------------------------------ layering

    def on(self, day: dt.date) -> dict[str, DocumentType]:
        index = _bucket(self.procedure.change_days, day)
        cached = self._cache.get(index)
        if cached is None:
            cached = self._cache[index] = {did: self._layered(defs, day) for did, defs in self.defs.items()}
        return cached

    def _layered(self, defs: list[DocumentDef], day: dt.date) -> DocumentType:
        main = defs[-1]  # the city's, where it writes one
        notices = self._notices_of(main)
        sections = self._sections(main, notices, day)
        filled = {e for s in sections for e in s.elements}
        required = self._required(main, notices, day)
        # the state floor: a state element the city's document does not state gets the state's wording
        if main.layer == "city":
            for req in required:
                if req["value"] in filled or req["layer"] != "state":
                    continue
                donor = self._state_section_for(req, day)
                if donor is None:
                    raise PackError(
                        main.file,
                        main.line,
                        f"document {main.id!r}: no section states the state's element “{req['label']}” "
                        f"({req['provision']['citation']}), and no state document has wording for it: "
                        "write a section for it",
                    )
                sections.append(replace(donor, appended=True))
                filled |= set(donor.elements)
        for req in required:
            if req["value"] not in filled:
                raise PackError(
                    main.file,
                    main.line,
                    f"document {main.id!r}: no section states the element “{req['label']}” "
                    f"({req['provision']['citation']}); every element the law requires needs a section "
                    "(element: " + req["value"].rsplit("/", 1)[1] + ")",
                )
        return DocumentType(
            id=main.id,
            title=main.title,
            audience=main.audience,
            for_=main.for_,
            issued_by=self._issuers(main),
            provisions=tuple(
                {c["citation"]: c for key in main.provisions if (c := self.procedure.cite(key, day))}.values()
            ),
            attachments=main.attachments,
            sections=tuple(sections),
            notices=notices,
            required=tuple(required),
            layer=main.layer,
            pack=main.pack,
            file=main.file,
            line=main.line,
        )

    def _sections(self, d: DocumentDef, notices: tuple[str, ...], day: dt.date) -> list[Section]:
        out: list[Section] = []

        def fail(message: str, line: int) -> PackError:
            return PackError(d.file, line, f"document {d.id!r}: {message}")

        for index, s in enumerate(d.sections):
            values: list[str] = []
            first: tuple[str | None, dict | None, Any] = (None, None, None)
            for ref in s.elements:
                for _n, v, element in self._resolve(d, notices, ref, lambda m, line=s.line: fail(m, line)):
                    if v is None:
                        own = element["own"]
                        value = f"{own.provision}/{own.id}"
                        cite = self.procedure.cite(own.provision, day)
                        cond = self._conditions.get((id(d), -1 - d.elements.index(own)))
                        if value not in values:
                            values.append(value)
                        if first[0] is None:
                            first = (own.text, cite, cond)
                        continue
                    if not v.in_force.contains(day):
                        continue
                    value = f"{v.cite()['provision']}/{element['id']}"
                    if value not in values:
                        values.append(value)
                    if first[0] is None:
                        cond = self.procedure.element_conditions.get((id(v), element["id"]))
                        first = (element["text"], {**v.cite(), "pack": v.pack}, cond)
            if s.elements and not values:
                continue  # its element is not in force on this day
            own_when = self._conditions.get((id(d), index))
            out.append(
                Section(
                    element=values[0] if values else None,
                    elements=tuple(values),
                    element_text=" ".join(first[0].split()) if first[0] else None,
                    citation=(self.procedure.cite(s.provision, day) if s.provision else None) or first[1],
                    heading=s.heading,
                    text=s.text,
                    sources=tuple(dict.fromkeys((*placeholders(s.heading or ""), *placeholders(s.text)))),
                    when=own_when if own_when is not None else first[2],
                    layer=d.layer,
                    line=s.line,
                    file=d.file,
                )
            )
        return out

    def _required(self, d: DocumentDef, notices: tuple[str, ...], day: dt.date) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for n in notices:
            for v in self._notice_versions(n):
                if not v.in_force.contains(day):
                    continue
                for element in v.effect.get("elements") or ():
                    out.append(
                        {
                            "value": f"{v.cite()['provision']}/{element['id']}",
                            "label": element["text"],
                            "provision": {**v.cite(), "pack": v.pack},
                            "layer": v.layer,
                            "notice": n,
                            "for": tuple(v.effect.get("for") or ()),
                            "when": self.procedure.element_conditions.get((id(v), element["id"])),
                        }
                    )
        for index, e in enumerate(d.elements):
            out.append(
                {
                    "value": f"{e.provision}/{e.id}",
                    "label": e.text,
                    "provision": self.procedure.cite(e.provision, day) or {"citation": e.provision},
                    "layer": d.layer,
                    "notice": None,
                    "for": (),
                    "when": self._conditions.get((id(d), -1 - index)),
                }
            )
        return out

    def _state_section_for(self, req: Mapping[str, Any], day: dt.date) -> Section | None:
        for defs in self.defs.values():
            for d in defs:
                if d.layer != "state":
                    continue
                notices = self._notices_of(d)
                if req["notice"] not in notices:
                    continue
                for s in self._sections(d, notices, day):
                    if req["value"] in s.elements:
                        return s
        return None

    # ------------------------------------------------------------------------------------------ queries

    def document_type(self, doc_id: str, day: dt.date) -> DocumentType:
        docs = self.on(day)
        if doc_id not in docs:
            raise InputError("document", f"unknown document {doc_id!r}; known: {', '.join(docs) or 'none'}")
        return docs[doc_id]

    def for_step(self, step, designation: str | None, day: dt.date) -> list[DocumentType]:
        """The document types a step issues for a case with this designation (attachments not listed: they
        are pages of the document that attaches them)."""
        out = []
        for doc in self.on(day).values():
            if step.id in doc.issued_by and doc.reaches(designation):
                out.append(doc)
        replaced = {r for doc in out for r in self.defs[doc.id][-1].replaces}
        return [doc for doc in out if doc.id not in replaced]

    def _with_attachments_notices(self, doc: DocumentType, day: dt.date) -> set[str]:
        out = set(doc.notices)
        for a in doc.attachments:
            out |= self._with_attachments_notices(self.on(day)[a], day)
        return out

    def pages(self, doc: DocumentType, day: dt.date) -> list[DocumentType]:
        """The document and its attachments (each once), in order."""
        out = [doc]
        for a in doc.attachments:
            for page in self.pages(self.on(day)[a], day):
                if page.id not in [x.id for x in out]:
                    out.append(page)
        return out

    def section_applies(self, section: Section, state: CaseState, at: dt.datetime, step=None) -> bool:
        """Whether a section's `when` holds for the case at `at` (unknown: it applies — the owner's side)."""
        if section.when is None:
            return True
        day = at.astimezone(self.j.tz).date()
        ctx = CaseContext(self.procedure, state, None, at, day, None)
        if step is None:  # the words of a refusal name a step; a section's condition needs none
            step = next(iter(self.procedure.steps_on(day).values()), None)
        result, _ = ctx.evaluate(section.when, step, None)
        return result is not False

    def applicable_sections(self, doc: DocumentType, state: CaseState, at: dt.datetime) -> list[Section]:
        return [s for s in doc.sections if self.section_applies(s, state, at)]

    def elements_contained(self, doc_ids: Iterable[str], state: CaseState, at: dt.datetime) -> list[str]:
        """The element values that documents (with their attachments) contain for this case: the value the
        step's `contents` check takes when they are issued."""
        day = at.astimezone(self.j.tz).date()
        # the elements of the notices that reach the case (a document for both designations states both
        # designations' elements; the step's check takes those of the case's own)
        designation = state.designation
        notice_elements = {
            f"{v.cite()['provision']}/{e['id']}"
            for versions in self.procedure.notices.values()
            for v in versions
            if v.in_force.contains(day)
            and not (designation and v.effect.get("for") and designation not in v.effect["for"])
            for e in v.effect.get("elements") or ()
        }
        out: list[str] = []
        for did in doc_ids:
            for page in self.pages(self.document_type(did, day), day):
                for s in self.applicable_sections(page, state, at):
                    out += [e for e in s.elements if e not in out and e in notice_elements]
        return out


def _bucket(days: list[dt.date], day: dt.date) -> int:
    import bisect

    return bisect.bisect_right(days, day)
