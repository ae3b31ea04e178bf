"""A pack's procedure rows (packs/<id>/cases.yaml, `procedure:`): read, replayed and checked.

A row replays the steps `taken` (each must be allowed when taken), then either checks one step (`check`) or
lists the obligations (`obligations`), and compares with `expect`. An actor is named by a product staff role
(`animal_control_officer`, `city_clerk`, ...) or declared under `actors` with the staff roles they hold; their
pack roles come from `Jurisdiction.pack_roles_for`. A date for `at` means noon in the jurisdiction.

`tests/law/test_pack_procedure.py` runs each row; `tests/law/test_pack_coverage.py` asks which rows a change
to a step's conditions would fail.
"""

from __future__ import annotations

import datetime as dt

from dogcase.law import Actor, CaseState, TakenStep
from dogcase.law.loader import PACKS_DIR
from dogcase.law.packcases import CASES
from dogcase.law.schema import Where
from dogcase.law.vocabulary import STAFF_ROLES
from dogcase.law.yamlsource import read_yaml


def procedure_rows() -> list[tuple[str, dict]]:
    """(pack id, row) for every procedure row of every pack, checked against the rows' schema."""
    rows = []
    for path in sorted(PACKS_DIR.glob("*/cases.yaml")):
        pack_id = path.parent.name
        raw = read_yaml(path, str(path.relative_to(PACKS_DIR.parent)))
        CASES.check(raw, Where(str(path), 1, ""))
        for row in raw.get("procedure", ()):
            rows.append((pack_id, row))
    return rows


def key(pack_id: str, ref: str) -> str:
    return ref if ":" in ref else f"{pack_id}:{ref}"


def instant_of(j, value) -> dt.datetime:
    if isinstance(value, dt.datetime):
        assert value.tzinfo is not None, f"{value} needs its UTC offset"
        return value
    if isinstance(value, dt.date):
        return dt.datetime.combine(value, dt.time(12), tzinfo=j.tz)
    instant = dt.datetime.fromisoformat(str(value))
    assert instant.tzinfo is not None, f"{value} needs its UTC offset"
    return instant


def _plain(value):
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def actor_of(j, row, name: str) -> Actor:
    staff = (row.get("actors") or {}).get(name)
    if staff is None:
        assert name in STAFF_ROLES, f"actor {name!r} is neither a staff role nor listed under actors"
        staff = [name]
    return Actor(name, j.pack_roles_for(staff))


def replay(j, row) -> CaseState:
    """The case after the row's steps, each checked as it is taken."""
    designation = None
    taken: list[TakenStep] = []
    settings = dict(row.get("settings") or {})
    for entry in row.get("taken", ()):
        state = CaseState(designation, row["incident"], tuple(taken), settings)
        at = instant_of(j, entry["at"])
        inputs = _plain(entry.get("inputs") or {})
        cleaned = j.validate_inputs(entry["step"], state, inputs, at)
        verdict = j.check_step(entry["step"], state, actor_of(j, row, entry["by"]), at, cleaned)
        assert verdict.allowed, f"setting up: {entry['step']} refused: {[r.reason for r in verdict.refusals]}"
        if verdict.step.opens_case:
            designation = next(cleaned[i.id] for i in verdict.step.inputs if i.kind == "designation")
        taken.append(
            TakenStep(
                step=entry["step"],
                at=at,
                actor=entry["by"],
                outcome=cleaned.get("outcome"),
                events=j.events_of(entry["step"], at, cleaned, state),
                inputs=cleaned,
            )
        )
    return CaseState(designation, row["incident"], tuple(taken), settings)


def check_row(j, pack_id: str, row: dict) -> None:
    """Replay the row and assert what it expects; an AssertionError says what differs."""
    state = replay(j, row)
    expect = row.get("expect") or {}
    if "check" in row:
        check = row["check"]
        inputs = _plain(check["inputs"]) if "inputs" in check else None
        verdict = j.check_step(
            check["step"], state, actor_of(j, row, check["by"]), instant_of(j, check["at"]), inputs
        )
        reasons = [(r.code, r.reason) for r in verdict.refusals]
        if "allowed" in expect:
            assert verdict.allowed is expect["allowed"], reasons
        if "codes" in expect:
            assert sorted(set(verdict.codes)) == sorted(set(expect["codes"])), reasons
        cited = {r.provision["provision"] for r in verdict.refusals if r.provision}
        for ref in expect.get("cites", ()):
            assert key(pack_id, ref) in cited, f"{ref} not cited; cited: {sorted(cited)}"
        if expect.get("cites_only"):
            assert cited == {key(pack_id, r) for r in expect.get("cites", ())}, f"cited: {sorted(cited)}"
        for refusal in verdict.refusals:
            assert refusal.reason and refusal.provision, f"a refusal without reason or citation: {refusal}"
        if "layer" in expect:
            assert verdict.step.layer == expect["layer"]
    else:
        assert "obligations" in row, "a procedure row has check or obligations"
        found = {
            o.deadline_id or f"requirement.{o.requirement}": o
            for o in j.obligations(state, instant_of(j, row["obligations"]["at"]))
        }
        for did, wanted in (expect.get("obligations") or {}).items():
            assert did in found, f"no obligation {did}; found: {sorted(found)}"
            got = found[did]
            if "status" in wanted:
                assert got.status == wanted["status"], (did, got.status, got.due, got.reason)
            if "due" in wanted:
                want = wanted["due"]
                if want is None:
                    assert got.due is None
                else:
                    assert got.due == (
                        want if isinstance(want, dt.date) else dt.date.fromisoformat(str(want))
                    )
            if "met_by" in wanted:
                assert got.met_by == wanted["met_by"]
            if "late" in wanted:
                assert got.late is wanted["late"]
            cited = {c["provision"]["provision"] for c in got.consequences}
            for ref in wanted.get("consequences", ()):
                assert key(pack_id, ref) in cited, f"{did}: {ref} not among consequences {sorted(cited)}"
        for did in expect.get("absent", ()):
            assert did not in found, f"{did} should not be owed"
