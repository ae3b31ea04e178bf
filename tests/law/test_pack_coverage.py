"""Every rule of every pack has a row in that pack's table tests that would fail if the rule were written
otherwise: each ground and exemption a classification row shows applying; each step's `requires:` clause a
procedure row where the step is refused because of that clause (drop the clause, or turn a `not:` inside out,
and the row fails); each deadline a deadline row whose due date moves if its period were a day longer or
shorter, or its days counted by another rule (`make mutate` measures the same thing by changing the pack)."""

from __future__ import annotations

import dataclasses
import datetime as dt
from contextlib import contextmanager

import pytest

from dogcase.law import clock, library
from dogcase.law.loader import PACKS_DIR
from dogcase.law.yamlsource import read_yaml
from tests.mutation.mutate import equivalents, mutations_of
from tests.packs_library import shipped_pack_ids

from .procedure_rows import check_row, procedure_rows
from .test_pack_cases import deadline_answer

# the changes `make mutate` makes that alter nothing the engine does, each with the reason
# (tests/mutation/equivalent.yaml): no row can tell them apart, and none is asked for
EQUIVALENT = equivalents()


def _described(pack_id: str) -> dict[tuple[int, str], str]:
    """`make mutate`'s words for each change to a step's conditions, by (line, drop|flip)."""
    text = (PACKS_DIR / pack_id / "pack.yaml").read_text(encoding="utf-8")
    return {
        (m.line, m.what.split(": ", 1)[1].split(" ", 1)[0]): m.what
        for m in mutations_of(pack_id, text)
        if " requires " in m.what
    }


def _rows(pack_id: str) -> dict:
    return read_yaml(PACKS_DIR / pack_id / "cases.yaml", f"{pack_id}/cases.yaml")


def _key(pack_id: str, ref: str) -> str:
    return ref if ":" in ref else f"{pack_id}:{ref}"


@pytest.mark.parametrize("pack_id", shipped_pack_ids())
def test_every_ground_and_exemption_has_a_row_that_shows_it_applying(pack_id):
    pack = library().packs[pack_id]
    rows = _rows(pack_id)
    shown = set()
    for row in rows.get("classify", ()):
        shown |= {_key(pack_id, r) for r in (*row.get("matched", ()), *row.get("barred_by", ()))}
    rules = {
        v.key
        for p in pack.provisions.values()
        for v in p.versions
        if v.effect_kind in ("ground", "exemption")
    }
    assert sorted(rules - shown) == []


@pytest.mark.parametrize("pack_id", shipped_pack_ids())
def test_every_deadline_has_a_row(pack_id):
    pack = library().packs[pack_id]
    rows = _rows(pack_id)
    tested = {row["deadline"] for row in rows.get("deadlines", ())}
    deadlines = {
        v.effect["id"] for p in pack.provisions.values() for v in p.versions if v.effect_kind == "deadline"
    }
    assert sorted(deadlines - tested) == []


# ------------------------------------------------------------------------------ the steps' conditions


@contextmanager
def _changed(j, clause, replacement):
    """The jurisdiction's steps with `clause` replaced (None: dropped) wherever it is one of a step's
    conditions, as a pack written without it would have them: where another layer states the same test (the
    state's floor), that layer's clause takes its place."""
    engine = j._procedure
    original = engine.case_step

    def case_step(step_id, day, designation):
        step = original(step_id, day, designation)
        if not any(c is clause for c in step.requires):
            return step
        if replacement is None:
            floor = [
                c
                for d in engine.defs.get(step_id, ())
                if d.pack != clause.pack
                for c in d.requires
                if c.key() == clause.key()
            ]
            instead = floor[:1]
        else:
            instead = [replacement]
        requires = [x for c in step.requires for x in (instead if c is clause else [c])]
        return dataclasses.replace(step, requires=tuple(requires))

    engine.case_step = case_step
    try:
        yield
    finally:
        del engine.case_step


def _fails(j, pack_id, row) -> bool:
    try:
        check_row(j, pack_id, row)
    except AssertionError:
        return True
    return False


def _clauses(pack):
    """(step id, clause, its replacement or None, `make mutate`'s words) for each change to a `requires:`
    clause the pack writes that alters what the engine does."""
    words = _described(pack.id)
    for d in pack.procedure:
        for clause in d.requires:
            changes = [("drop", None)] + ([("flip", clause.parts[0])] if clause.test == "not" else [])
            for kind, replacement in changes:
                what = words.get((clause.line, kind), f"{d.id}: {kind} requires at line {clause.line}")
                if f"{pack.id}:{what}" not in EQUIVALENT:
                    yield d.id, clause, replacement, f"{pack.file}:{clause.line}: {what}"


@pytest.mark.parametrize("pack_id", shipped_pack_ids())
def test_every_condition_of_a_step_has_a_row_that_fails_without_it(pack_id):
    """A row per clause where the step is refused for that clause: dropped (or a `not:` turned inside out),
    the row's expectation no longer holds. A state pack's clause may be shown by any pack's row."""
    lib = library()
    pack = lib.packs[pack_id]
    rows = [
        (p, row)
        for p, row in procedure_rows()
        if "check" in row and (p == pack_id or lib.packs[p].layer_over == pack_id)
    ]
    unguarded = []
    for step_id, clause, replacement, what in _clauses(pack):
        candidates = [(p, row) for p, row in rows if row["check"]["step"] == step_id]
        guarded = False
        for p, row in candidates:
            j = lib.get(p)
            with _changed(j, clause, replacement):
                guarded = _fails(j, p, row)
            if guarded:
                break
        if not guarded:
            unguarded.append(what)
    assert not unguarded, "no row fails when the pack is changed so:\n" + "\n".join(unguarded)


def test_a_changed_condition_is_seen_by_the_row_that_guards_it():
    """The check above can fail: the row that shows (I)(1)'s hearing-request time refusing a late request
    fails once that clause is gone."""
    j = library().get("battle-lake-mn")
    step = j.step("receive_hearing_request", dt.date(2026, 6, 1))
    clause = next(c for c in step.requires if c.test == "within")
    row = next(
        r
        for p, r in procedure_rows()
        if p == "battle-lake-mn"
        and "check" in r
        and r["check"]["step"] == "receive_hearing_request"
        and (r.get("expect") or {}).get("allowed") is False
        and "too_late" in (r.get("expect") or {}).get("codes", ())
    )
    assert not _fails(j, "battle-lake-mn", row)
    with _changed(j, clause, None):
        assert _fails(j, "battle-lake-mn", row)
    assert not _fails(j, "battle-lake-mn", row)


# ------------------------------------------------------------------------------ the deadlines' counting


def _alternatives(name: str, effect) -> list[tuple[str, int, str]]:
    """The other ways a deadline could have been written, in `make mutate`'s words: a day (or unit) longer or
    shorter, each other counting rule its unit allows."""
    period = effect["period"]
    n, unit, counting = period["amount"], period["unit"], effect["counting"]
    out = [(f"{name}: period {n} -> {n + d}", n + d, counting) for d in (1, -1) if n + d >= 1]
    out += [
        (f"{name}: counting {counting} -> {other}", n, other)
        for other in sorted(clock.ALLOWED_COUNTING[unit] - {counting})
    ]
    return out


def _answers(j, row) -> list[dict]:
    answer = deadline_answer(j, row)
    if answer["status"] == "by_designation" and (row["expect"].get("status") != "by_designation"):
        return list(answer["by_designation"])
    return [answer]


def _instant(value):
    if isinstance(value, dt.date):
        return value
    text = str(value)
    return dt.datetime.fromisoformat(text) if "T" in text else dt.date.fromisoformat(text)


def _pinned(pack_id) -> dict[tuple[str, str | None], set[str]]:
    """For each deadline provision version of the pack (provision key, in force from), the other ways it could
    have been written that no deadline row's due date tells apart from what the pack says."""
    lib = library()
    pack = lib.packs[pack_id]
    names: dict[tuple[str, str | None], str] = {}
    loose: dict[tuple[str, str | None], set[str]] = {}
    for p in pack.provisions.values():
        for v in p.versions:
            if v.effect_kind == "deadline":
                key = (v.key, v.in_force.start.isoformat() if v.in_force.start else None)
                names[key] = f"{v.id} ({v.effect['id']})"
                loose[key] = {
                    what
                    for what, _, _ in _alternatives(names[key], v.effect)
                    if f"{pack_id}:{what}" not in EQUIVALENT
                }
    shipped = shipped_pack_ids(lib)
    for p in [
        pack_id,
        *(p for p, other in lib.packs.items() if other.layer_over == pack_id and p in shipped),
    ]:
        j = lib.get(p)
        for row in _rows(p).get("deadlines", ()):
            # the date the row asserts: the due date, or the bound while a provision waits for its event
            told = row["expect"].get("due") or row["expect"].get("bound")
            if told is None:
                continue
            expected = _instant(told)
            later = j.deadline_plans[row["deadline"]].later
            for answer in _answers(j, row):
                entries = [e for e in answer["entries"] if e.get("status") == "determined"]
                for entry in entries:
                    key = (entry["provision"]["provision"], entry["provision"]["in_force"]["from"])
                    if key not in loose or _instant(entry["value"]) != expected:
                        continue  # not this deadline, or not the provision that sets the date asserted
                    others = [
                        (_instant(e["value"]), e["provision"]["provision"]) for e in entries if e is not entry
                    ]
                    trigger = _instant(entry["trigger_value"])
                    said_by = {_key(p, r) for r in row["expect"].get("set_by", ())}
                    for what, amount, counting in _alternatives(names[key], entry):
                        try:
                            value = clock.compute(
                                trigger, amount, entry["period"]["unit"], counting, j.calendar, j.tz
                            ).value
                        except ValueError:  # a pack cannot be written so: it would not load
                            loose[key].discard(what)
                            continue
                        values = [(value, key[0]), *others]
                        chosen = (max if later else min)(v for v, _ in values)
                        # the date moves, or (a row that names who sets it) another provision sets it
                        by = {k for v, k in values if v == chosen}
                        if chosen != expected or (said_by and by != said_by):
                            loose[key].discard(what)
    return loose


@pytest.mark.parametrize("pack_id", shipped_pack_ids())
def test_every_deadline_has_a_row_whose_due_date_pins_its_period_and_counting(pack_id):
    pack = library().packs[pack_id]
    loose = sorted(f"{pack.file}: {what}" for changes in _pinned(pack_id).values() for what in changes)
    assert not loose, "no deadline row's due date tells these apart:\n" + "\n".join(loose)
