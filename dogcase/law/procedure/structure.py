"""The procedure checked as a whole when built: every reference across the layers, the city's withdrawals and
the owner's rights they may not take (mixed into ProcedureEngine)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from ..errors import PackError
from ..model import ProvisionVersion, Withdrawal
from .model import DEADLINE_TESTS, STEP_TESTS, Condition, StepDef
from .parsing import walk_conditions


class ProcedureStructure:
    """The engine's checks of the packs' procedure, and the withdrawals a city makes of the state's."""

    def _index_effect(self, kind: str) -> dict[str, list[ProvisionVersion]]:
        out: dict[str, list[ProvisionVersion]] = {}
        for version in self.j.all_versions():
            if version.effect_kind == kind:
                out.setdefault(version.effect["id"], []).append(version)
        return out

    def provision_exists(self, key: str) -> bool:
        pack_id, _, pid = key.partition(":")
        for layer in self.j.layers:
            if layer.id == pack_id:
                return pid in layer.provisions
        return False

    def _owner_rights(self, state_defs: Mapping[str, StepDef]) -> dict[str, dict[str, list[str]]]:
        """The state steps that are an owner's right, per designation, with the provisions that make them so:
        a step that satisfies a state deadline marked `right: true` (the owner's time to use a right), a step
        whose act the state gives to an impartial decision maker (347.541's hearing and decision), and every
        step such a step requires to have been done (`done:`), without which the right cannot be used."""
        state = self.j.state
        if state is None:
            return {}
        right_cites: dict[str, list[ProvisionVersion]] = {}
        for provision in state.provisions.values():
            for v in provision.versions:
                if v.effect_kind == "deadline" and v.effect.get("right") and v.effect["who"] == "owner":
                    right_cites.setdefault(v.effect["id"], []).append(v)
        out: dict[str, dict[str, list[str]]] = {}
        for sid, d in state_defs.items():
            for des in d.for_ or tuple(state.designations):
                reasons = [
                    f"the owner's right to {v.effect['what']} ({v.citation})"
                    for did in d.satisfies
                    for v in right_cites.get(did, ())
                    if v.effect.get("for") is None or des in v.effect["for"]
                ]
                reasons += [
                    f"the owner's hearing before an impartial decision maker ({v.citation})"
                    for v in self._all_authority_any_day(d.act, des, state_only=True)
                    if v.effect.get("impartial")
                ]
                if reasons:
                    out.setdefault(sid, {})[des] = list(dict.fromkeys(reasons))
        changed = True
        while changed:  # a step a right needs done first is part of the right
            changed = False
            for sid, per in list(out.items()):
                for c in walk_conditions(state_defs[sid].requires):
                    if c.test != "done" or c.arg not in state_defs:
                        continue
                    for des, reasons in per.items():
                        if des in out.get(c.arg, {}):
                            continue
                        first = reasons[0].split("; needed before")[0]
                        out.setdefault(c.arg, {})[des] = [f"{first}; needed before “{state_defs[sid].label}”"]
                        changed = True
        return out

    def _all_authority_any_day(
        self, act: str, designation: str, *, state_only: bool
    ) -> list[ProvisionVersion]:
        layers = self.j.layers[:1] if state_only else self.j.layers
        return [
            v
            for layer in layers
            for provision in layer.provisions.values()
            for v in provision.versions
            if v.effect_kind == "authority"
            and v.effect["act"] == act
            and (v.effect.get("designations") is None or designation in v.effect["designations"])
        ]

    def _apply_withdrawals(self, state_defs: Mapping[str, StepDef], city_defs: Mapping[str, StepDef]) -> None:
        """A city's `withdraws:` takes state steps (and deadlines) out of its procedure, for the designations
        it names; an owner's state right cannot be withdrawn (a PackError citing the statute)."""
        if not self._withdrawals:
            return
        j = self.j
        rights = self._owner_rights(state_defs)
        for w in self._withdrawals:

            def fail(message: str, w: Withdrawal = w) -> PackError:
                return PackError(w.file, w.line, f"withdraws: {message}")

            for des in w.for_ or ():
                if des not in j.designations:
                    raise fail(
                        f"unknown designation {des!r}; this jurisdiction has {', '.join(sorted(j.designations))}"
                    )
            for sid in w.steps:
                d = state_defs.get(sid)
                if d is None:
                    raise fail(f"{sid!r} is not a step of {j.state.id}; its steps: {', '.join(state_defs)}")
                if sid in city_defs:
                    raise fail(
                        f"{sid!r} is also a step of {j.pack.id}: a city replaces or withdraws a state step, not both"
                    )
                reached = [
                    des for des in (d.for_ or tuple(j.state.designations)) if w.for_ is None or des in w.for_
                ]
                for des in reached:
                    reasons = rights.get(sid, {}).get(des)
                    if reasons:
                        raise fail(
                            f"cannot withdraw {sid!r} for {des}: it is an owner's right under state law — "
                            f"{reasons[0]}; a city may add to the state floor, not take from it"
                            f"{self.j.floor_cite}"
                        )
                remaining = tuple(
                    des for des in (d.for_ or tuple(j.state.designations)) if des not in reached
                )
                self.withdrawn[sid] = (d, w)
                if remaining:
                    self.defs[sid] = [replace(d, for_=remaining)]
                else:
                    del self.defs[sid]
            for did in w.deadlines:
                plan = j.deadline_plans.get(did)
                versions = [s.version for s in plan.steps if s.version.layer == "state"] if plan else []
                if not versions:
                    raise fail(f"{did!r} is not a deadline of {j.state.id}")
                if plan.right:
                    cites = "; ".join(dict.fromkeys(v.citation for v in versions))
                    raise fail(
                        f"cannot withdraw {did!r}: it is the owner's time to {plan.what}, a right under state law "
                        f"({cites}); a city may add to the state floor, not take from it{self.j.floor_cite}"
                    )
                self._withdrawn_deadlines.setdefault(did, []).append(w)

    def deadline_withdrawn(self, deadline_id: str, designation: str | None) -> Withdrawal | None:
        for w in self._withdrawn_deadlines.get(deadline_id, ()):
            if w.for_ is None or designation in w.for_:
                return w
        return None

    def withdrawals(self, day: dt.date) -> list[dict[str, Any]]:
        """What the city withdrew of the state's procedure, each with its provision and reason."""
        out = []
        for w in self._withdrawals:
            out.append(
                {
                    "steps": [
                        {"id": sid, "label": self.withdrawn[sid][0].label}
                        for sid in w.steps
                        if sid in self.withdrawn
                    ],
                    "deadlines": list(w.deadlines),
                    "for": list(w.for_) if w.for_ is not None else None,
                    "reason": w.reason,
                    "provision": self.cite(w.provision, day),
                }
            )
        return out

    def _check(self) -> None:
        """Every reference of every step resolves in this jurisdiction; each error names file and line."""
        j = self.j
        all_steps = {sid: defs[-1] for sid, defs in self.defs.items()}
        # the steps a definition may refer to: a city's, every step (a state step the city withdrew included:
        # its conditions may still name it); the state's, the state's steps only
        every = {**self.defs, **{k: [x[0]] for k, x in self.withdrawn.items()}}
        visible_to = {
            "city": every,
            "state": {sid: defs for sid, defs in every.items() if defs[0].layer == "state"},
        }
        for sid, defs in self.defs.items():
            if len(defs) == 2:
                state_def, city_def = defs
                self._check_inputs_kept(state_def, city_def)
                if city_def.for_ is not None:
                    uncovered = [d for d in (state_def.for_ or j.designations) if d not in city_def.for_]
                    if state_def.for_ is not None and uncovered:
                        raise PackError(
                            city_def.file,
                            city_def.line,
                            f"step {sid!r} replaces the state's step of that id but leaves out "
                            f"{', '.join(uncovered)} ({state_def.file}:{state_def.line}); give it another id",
                        )
            for d in defs:
                self._check_def(d, all_steps, visible_to["city" if d.layer == "city" else "state"])
        for versions in self._notices.values():
            for v in versions:
                for element in v.effect.get("elements") or ():
                    cond = self.element_conditions.get((id(v), element["id"]))
                    if cond is None:
                        continue
                    visible = visible_to["city" if v.layer == "city" else "state"]
                    here = v.element_lines.get(element["id"]) or v.effect_line or v.line

                    def fail(
                        message: str, line: int | None = None, v=v, here=here, eid=element["id"]
                    ) -> PackError:
                        return PackError(
                            v.file, line or here, f"provision {v.id}: notice element {eid!r}: {message}"
                        )

                    for c in walk_conditions((cond,)):
                        if c.uses_inputs() and not c.parts:
                            raise fail(
                                f"when: {c.test!r} reads a step's form; a notice element's condition reads the case "
                                "(done, not_done, outcome, last, within, from, after, ground_of, prohibited)"
                            )
                    self.check_condition(cond, visible, fail, here)

    def _check_inputs_kept(self, state_def: StepDef, city_def: StepDef) -> None:
        """A city step that replaces a state step takes none of its inputs, but keeps its conditions (the
        floor): a state condition that reads an input of the form needs that input on the city's step, and
        the case the state sends with a moving dog (`carries:`) goes with it under the city's step too."""
        for inp in state_def.inputs:
            if not inp.carries:
                continue
            kept = set().union(*(set(i.carries) for i in city_def.inputs if i.kind == "jurisdiction"))
            if not set(inp.carries) <= kept:
                raise PackError(
                    city_def.file,
                    city_def.line,
                    f"procedure step {city_def.id!r} replaces the state's step of that id, whose input "
                    f"{inp.id!r} sends the case of a {', '.join(inp.carries)} dog with it to the city or county "
                    "it moves to: the city's step needs a jurisdiction input that carries "
                    f"{', '.join(sorted(set(inp.carries) - kept))} too (the floor)",
                )
        for c in walk_conditions(state_def.requires):
            need: tuple[str, str] | None = None
            if c.test == "confirmed":
                need = (c.arg, "bool")
            elif c.test == "input_by":
                need = (c.arg["input"], "date")
            elif c.test == "proven":
                need = ("", "proofs")
            elif c.test in ("seizure_ground", "ground_in"):
                need = ("", "seizure_ground")
            if need is None:
                continue
            name, kind = need
            has = any(
                (i.id == name if name else True)
                and (i.kind == kind or (kind == "date" and i.kind in ("date", "datetime")))
                for i in city_def.inputs
            )
            if not has:
                what = f"input {name!r} ({kind})" if name else f"an input of kind {kind}"
                raise PackError(
                    city_def.file,
                    city_def.line,
                    f"procedure step {city_def.id!r} replaces the state's step of that id, whose condition "
                    f"{c.test!r} ({c.file}:{c.line}) reads {what}: the state's conditions are kept (the floor) "
                    "but none of its inputs is, so the city's step needs that input (docs/procedure.md, Layering)",
                )

    def _check_def(
        self, d: StepDef, all_steps: dict[str, StepDef], visible: Mapping[str, list[StepDef]]
    ) -> None:
        j = self.j

        def fail(message: str, line: int | None = None) -> PackError:
            return PackError(d.file, line or d.line, f"procedure step {d.id!r}: {message}")

        for key in d.provisions:
            if not self.provision_exists(key):
                raise fail(
                    f"refers to provision {key!r}, which is not defined in {j.id}'s layers",
                    d.line_of("provisions"),
                )
        for des in d.for_ or ():
            if des not in j.designations:
                raise fail(
                    f"unknown designation {des!r}; this jurisdiction has {', '.join(sorted(j.designations))}",
                    d.line_of("for"),
                )
        for inp in d.inputs:
            if inp.carries_provision and not self.provision_exists(inp.carries_provision):
                raise fail(
                    f"input {inp.id!r}: carries_provision {inp.carries_provision!r} is not defined in {j.id}'s "
                    "layers",
                    d.line_of("inputs"),
                )
            for des in inp.carries:
                if des not in j.designations:
                    raise fail(
                        f"input {inp.id!r}: carries names unknown designation {des!r}; this jurisdiction has "
                        f"{', '.join(sorted(j.designations))}",
                        d.line_of("inputs"),
                    )
        for role in d.roles:
            if role not in j.roles:
                raise fail(f"unknown role {role!r}; define it under roles", d.line_of("roles"))
        for doc in d.documents:
            if doc not in self._notices and doc not in self._doc_notices:
                raise fail(
                    f"unknown notice or document {doc!r}; notices: {', '.join(sorted(self._notices))}; "
                    f"documents: {', '.join(sorted(self._doc_notices)) or 'none'}",
                    d.line_of("documents"),
                )
        for did in d.satisfies:
            if did not in self._deadline_ids:
                raise fail(f"satisfies unknown deadline {did!r}", d.line_of("satisfies"))
        for req, until, prov in d.imposes:
            if req not in self._requirements:
                raise fail(f"imposes unknown requirement {req!r}", d.line_of("imposes"))
            if until and until not in visible:
                raise fail(f"imposes until unknown step {until!r}", d.line_of("imposes"))
            if prov and not self.provision_exists(prov):
                raise fail(f"refers to provision {prov!r}, which is not defined", d.line_of("imposes"))
        for _, prov in d.notes:
            if prov and not self.provision_exists(prov):
                raise fail(f"note refers to provision {prov!r}, which is not defined", d.line_of("notes"))
        # who may act: an authority provision for the act (any layer) for each designation, or roles + reading
        designations = d.for_ or tuple(j.designations)
        state_only = d.layer == "state" and self.j.state is not None
        uncovered = [
            des
            for des in designations
            if not self._authority_versions(d.act, des, None, state_only=state_only)
        ]
        if uncovered and not d.roles:
            raise fail(
                f"no provision says who may {d.act.replace('_', ' ')} for {', '.join(uncovered)}: "
                "give roles: and reading: (dogcase's reading of the text)",
                d.line_of("act"),
            )
        if d.roles and not uncovered:
            raise fail(
                f"roles: is only for a step no provision empowers; {d.act} is given by authority provisions "
                "for every designation of the step — remove roles and reading",
                d.line_of("roles"),
            )

        for c in d.requires:
            self.check_condition(c, visible, fail, d.line)
        for item in d.inputs:
            if item.kind == "designation" and not d.for_:
                raise fail("a designation input needs the step's for: (the designations it may give)")

    def check_condition(self, c: Condition, visible: Mapping[str, Any], fail, default_line: int) -> None:
        """One condition's references: steps, deadlines, provisions, prohibitions, seizure grounds."""
        where_line = c.line or default_line
        if c.provision and not self.provision_exists(c.provision):
            raise fail(f"condition refers to provision {c.provision!r}, which is not defined", where_line)
        if c.test in STEP_TESTS:
            if c.arg not in visible:
                raise fail(f"condition refers to unknown step {c.arg!r}", where_line)
        elif c.test in DEADLINE_TESTS:
            if c.arg not in self._deadline_ids:
                raise fail(f"condition refers to unknown deadline {c.arg!r}", where_line)
        elif c.test in ("outcome", "not_outcome"):
            other = c.arg["step"]
            if other not in visible:
                raise fail(f"condition refers to unknown step {other!r}", where_line)
            outcomes = set().union(*(x.outcomes() for x in visible[other]))
            bad = [o for o in c.arg["in"] if o not in outcomes]
            if bad:
                raise fail(
                    f"step {other!r} has no outcome {bad[0]!r}; its outcomes: "
                    f"{', '.join(sorted(outcomes)) or 'none'}",
                    where_line,
                )
        elif c.test == "last":
            for other in (*c.arg["of"], *c.arg["in"]):
                if other not in visible:
                    raise fail(f"condition refers to unknown step {other!r}", where_line)
            stray = [s for s in c.arg["in"] if s not in c.arg["of"]]
            if stray:
                raise fail(f"last: {stray[0]!r} must also be listed in of", where_line)
        elif c.test == "prohibited":
            if c.arg not in self._prohibitions:
                raise fail(f"condition refers to unknown prohibition {c.arg!r}", where_line)
        elif c.test == "ground_in":
            for g in c.arg:
                if g not in self._triggers:
                    raise fail(f"condition refers to unknown seizure ground {g!r}", where_line)
        elif c.test == "ground_of":
            other = c.arg["step"]
            if other not in visible:
                raise fail(f"condition refers to unknown step {other!r}", where_line)
            if not any(i.kind == "seizure_ground" for x in visible[other] for i in x.inputs):
                raise fail(f"ground_of: step {other!r} has no seizure_ground input", where_line)
            for g in c.arg["in"]:
                if g not in self._triggers:
                    raise fail(f"condition refers to unknown seizure ground {g!r}", where_line)
        elif c.test == "designation":
            known = {d for layer in self.j.layers for d in layer.designations}
            for d in c.arg:
                if d not in known:
                    raise fail(f"condition refers to unknown designation {d!r}", where_line)
        elif c.test == "input_by":
            if c.arg["deadline"] not in self._deadline_ids:
                raise fail(f"condition refers to unknown deadline {c.arg['deadline']!r}", where_line)
        for p in c.parts:
            self.check_condition(p, visible, fail, default_line)
