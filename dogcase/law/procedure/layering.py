"""The procedure as in force on one day: each step layered city over state, with who may take it, its
citations, documents and recipients (mixed into ProcedureEngine)."""

from __future__ import annotations

import bisect
import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from ..errors import InputError
from ..model import ProvisionVersion
from ..packschema import RECIPIENT_RULES
from .model import CONTENTS_INPUT, CONTENTS_LABEL, Condition, Input, Step, StepDef


class ProcedureLayering:
    """The engine's law as of a day: the layered steps, cached per stretch of days the law does not change."""

    def steps_on(self, day: dt.date) -> dict[str, Step]:
        index = bisect.bisect_right(self._days, day)
        cached = self._cache.get(index)
        if cached is None:
            cached = self._cache[index] = self._build(day)
        return cached

    def _authority_versions(
        self, act: str, designation: str | None, day: dt.date | None, *, state_only: bool = False
    ) -> list[ProvisionVersion]:
        """Authority provisions for `act` reaching `designation`: the city's; where it has none, the state's."""
        j = self.j
        layers = j.layers[:1] if state_only else j.layers
        for layer in reversed(layers):
            found = []
            for provision in layer.provisions.values():
                versions = [provision.version_on(day)] if day else list(provision.versions)
                for v in versions:
                    if v is None or v.effect_kind != "authority" or v.effect["act"] != act:
                        continue
                    scope = v.effect.get("designations")
                    if scope is None or designation is None or designation in scope:
                        found.append(v)
            if found:
                return found
        return []

    def _all_authority(
        self, act: str, designation: str, day: dt.date, *, state_only: bool = False
    ) -> list[ProvisionVersion]:
        out = []
        for v in self.j.versions_on(day):
            if state_only and v.layer == "city":
                continue
            if v.effect_kind == "authority" and v.effect["act"] == act:
                scope = v.effect.get("designations")
                if scope is None or designation in scope:
                    out.append(v)
        return out

    def cite(self, key: str | None, day: dt.date) -> dict[str, Any] | None:
        if not key:
            return None
        pack_id, _, pid = key.partition(":")
        for layer in self.j.layers:
            if layer.id == pack_id:
                provision = layer.provisions.get(pid)
                if provision is None:
                    return None
                version = provision.version_on(day) or provision.versions[-1]
                out = version.cite()
                out["pack"] = pack_id
                return out
        return None

    def _build(self, day: dt.date) -> dict[str, Step]:
        out: dict[str, Step] = {}
        for sid, defs in self.defs.items():
            live = [d for d in defs if d.in_force.contains(day)]
            if not live:
                continue
            step = self._layered(sid, live, day)
            reaching = [d for d in live if d.undeclared]
            if reaching and len(reaching) < len(live):
                # a layer's step without `undeclared` names the designations it reaches, and a case with none is
                # not one of them (§ 90.15 (K) reaches "a dog that has previously been declared"): a case not
                # declared runs the step of the layers that reach it, as they wrote it — form, conditions, events,
                # authority (the state's 347.56 track)
                step = replace(step, undeclared_step=self._layered(sid, reaching, day, own_authority=True))
            out[sid] = step
        return out

    def _layered(self, sid: str, live: list[StepDef], day: dt.date, *, own_authority: bool = False) -> Step:
        """One step from the definitions given (the state's first): the city's form, both layers' conditions
        (the state's a floor, the same test not repeated). Who may act: each designation's authority, the
        city's where it has one; with `own_authority`, only the layers that wrote the step (a case not declared
        runs the state's 347.56 step as the state wrote it: the city's authority provisions name designations)."""
        j = self.j
        main = live[-1]
        requires: list[Condition] = []
        seen: set[tuple] = set()
        for d in reversed(live):  # the city's conditions first; the state's floor added
            for c in d.requires:
                if c.key() not in seen:
                    seen.add(c.key())
                    requires.append(c)
        if len(live) == 2:
            layer = "city+state"
        else:
            layer = main.layer
        undeclared = any(d.undeclared for d in live)
        state_only = own_authority and all(d.layer == "state" for d in live) and self.j.state is not None
        provisions: list[dict[str, Any]] = []
        for d in live:
            for key in d.provisions:
                cite = self.cite(key, day)
                if cite and cite not in provisions:
                    provisions.append(cite)
        designations = main.for_ if main.for_ is not None else tuple(j.designations)
        reader = next((d for d in reversed(live) if d.roles), main)
        roles_by: dict[str, frozenset[str]] = {}
        authority: dict[str, tuple[dict[str, Any], ...]] = {}
        impartial_by: dict[str, dict[str, Any] | None] = {}
        final_by: dict[str, bool] = {}
        uses_reading = False
        for des in designations:
            versions = self._authority_versions(main.act, des, day, state_only=state_only)
            if versions:
                roles_by[des] = frozenset(r for v in versions for r in v.effect["roles"])
                authority[des] = tuple({**v.cite(), "pack": v.pack} for v in versions)
            else:
                roles_by[des] = frozenset(reader.roles)
                authority[des] = ()
                uses_reading = True
            every = self._all_authority(main.act, des, day, state_only=state_only)
            imp = next((v for v in reversed(every) if v.effect.get("impartial")), None)
            impartial_by[des] = {**imp.cite(), "pack": imp.pack} if imp else None
            final_by[des] = any(v.effect.get("final") for v in every)
        notes = tuple(
            {"text": text, "provision": self.cite(prov, day)} for d in live for text, prov in d.notes
        )
        # the documents it issues: those its layers name, and those that name it (issued_by); a case not declared
        # runs the step of the layers that reach it (own_authority) with their documents only
        packs = {d.pack for d in live}
        documents = tuple(
            dict.fromkeys(
                [s for d in live for s in d.documents]
                + [
                    doc
                    for doc, by_pack in self._doc_issuers.items()
                    if any(
                        sid in steps and (not own_authority or pack in packs)
                        for pack, steps in by_pack.items()
                    )
                ]
            )
        )
        inputs = main.inputs
        if any(
            v.effect.get("elements")
            for n in self._served_notices(documents)
            for v in self._notices.get(n, ())
        ):
            inputs = (*inputs, Input(id=CONTENTS_INPUT, kind="document", label=CONTENTS_LABEL))
        return Step(
            id=sid,
            label=main.label,
            act=main.act,
            phase=main.phase,
            layer=layer,
            for_=main.for_,
            provisions=tuple(provisions),
            roles=frozenset().union(*roles_by.values()) if roles_by else frozenset(main.roles),
            roles_reading=reader.reading if uses_reading else None,
            impartial=any(v is not None for v in impartial_by.values()),
            final=any(final_by.values()),
            inputs=inputs,
            records=main.records,
            satisfies=tuple(dict.fromkeys(s for d in live for s in d.satisfies)),
            documents=documents,
            requires=tuple(requires),
            repeatable=main.repeatable,
            opens_case=main.opens_case,
            closes_case=main.closes_case,
            ends_designation=main.ends_designation,
            administrative=main.administrative,
            notes=notes,
            imposes=tuple(x for d in live for x in d.imposes),
            roles_by_designation=MappingProxyType(roles_by),
            authority=MappingProxyType(authority),
            impartial_by_designation=MappingProxyType(impartial_by),
            final_by_designation=MappingProxyType(final_by),
            layers=tuple(d.pack for d in live),
            dated_by=main.dated_by,
            undeclared=undeclared,
            concerns=main.concerns,
            recipients=self._recipients(documents, day),
            service_of=main.service_of,
            filed_by_owner=main.filed_by_owner,
            # the city's sentence where it writes one, else the state's
            outcome=next((d.outcome for d in reversed(live) if d.outcome is not None), None),
        )

    def _served_notices(self, documents: Iterable[str]) -> tuple[str, ...]:
        """The notice ids a step's documents: serve: the notices it names, and those of the documents it names
        or that name it (issued_by)."""
        out: list[str] = []
        for doc in documents:
            out += [doc] if doc in self._notices else list(self._doc_notices.get(doc, ()))
        return tuple(dict.fromkeys(out))

    def _recipients(self, documents: tuple[str, ...], day: dt.date) -> tuple[dict[str, Any], ...]:
        """Who each notice the step serves goes to, as the notice's `to:` says (a rule of RECIPIENT_RULES,
        or the text's own words); a notice that says nothing is not listed."""
        out = []
        for doc in self._served_notices(documents):
            for v in self._notices.get(doc, ()):
                to = v.effect.get("to")
                if not v.in_force.contains(day) or to is None:
                    continue
                rule = to.get("rule") if isinstance(to, Mapping) else None
                words = to if isinstance(to, str) else (to.get("text") or RECIPIENT_RULES[rule])
                out.append(
                    {
                        "notice": doc,
                        "for": list(v.effect.get("for") or ()),
                        "rule": rule,
                        "words": " ".join(words.split()),
                        "provision": {**v.cite(), "pack": v.pack},
                    }
                )
        return tuple(out)

    def procedure(self, on: dt.date) -> list[Step]:
        return list(self.steps_on(on).values())

    def step(self, step_id: str, day: dt.date) -> Step:
        steps = self.steps_on(day)
        if step_id not in steps:
            known = ", ".join(steps) or "none"
            raise InputError(
                "step", f"unknown step {step_id!r} in {self.j.id} on {day.isoformat()}; known: {known}"
            )
        return steps[step_id]

    def case_step(self, step_id: str, day: dt.date, designation: str | None) -> Step:
        """The step as a case with this designation runs it (Step.for_designation)."""
        return self.step(step_id, day).for_designation(designation)
