"""Each law pack's own table tests (packs/<id>/cases.yaml), one pytest case per row.

The rows are written to read like the ordinance: a non-programmer can review them beside the text.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from dogcase.law import library, parse_events
from dogcase.law.loader import PACKS_DIR
from dogcase.law.packcases import CASES
from dogcase.law.schema import Where
from dogcase.law.yamlsource import read_yaml
from tests.packs_library import shipped_pack_ids


def _load_rows():
    rows = []
    for path in sorted(PACKS_DIR.glob("*/cases.yaml")):
        pack_id = path.parent.name
        raw = read_yaml(path, str(path.relative_to(PACKS_DIR.parent)))
        CASES.check(raw, Where(str(path), 1, ""))
        for kind in ("classify", "deadlines"):
            for row in raw.get(kind, ()):
                rows.append(pytest.param(pack_id, kind, row, id=f"{pack_id}: {row['name']}"))
    return rows


ROWS = _load_rows()


def test_every_pack_has_table_tests():
    packs_with_cases = {p.parent.name for p in Path(PACKS_DIR).glob("*/cases.yaml")}
    assert packs_with_cases == set(shipped_pack_ids())


def _key(pack_id: str, ref: str) -> str:
    return ref if ":" in ref else f"{pack_id}:{ref}"


@pytest.mark.parametrize(("pack_id", "kind", "row"), ROWS)
def test_pack_case(pack_id, kind, row):
    j = library().get(pack_id)
    if kind == "classify":
        _check_classification(j, pack_id, row)
    else:
        _check_deadline(j, pack_id, row)


def _check_classification(j, pack_id, row):
    facts = j.facts.parse(dict(row["facts"]))
    answer = j.classify(facts, row["date"])
    results = answer.results + answer.eligibility_results  # designations, and 347.56 destruction
    statuses = {r.designation.id: r.status for r in results}
    for designation, status in row["expect"].items():
        assert designation in statuses, f"{designation} is not a designation of {pack_id}"
        assert statuses[designation] == status, f"{designation}: {statuses[designation]} != {status}"
    matched = {rule.key for r in results for rule in r.matched}
    for ref in row.get("matched", ()):
        assert _key(pack_id, ref) in matched, f"{ref} did not match; matched: {sorted(matched)}"
    barred = {rule.key for r in results for rule in r.barred_by}
    for ref in row.get("barred_by", ()):
        assert _key(pack_id, ref) in barred, f"{ref} did not bar; barred by: {sorted(barred)}"
    missing = {name for r in results for name in r.missing}
    for name in row.get("missing", ()):
        assert name in missing, f"{name} not reported missing; missing: {sorted(missing)}"
    if row.get("flagged"):
        # a state exemption that applies but whose words do not reach the designation: flagged, not applied
        flags = {
            d["designation"]: {f["provision"] for f in d["flags"]} for d in answer.as_dict()["designations"]
        }
        for designation, refs in row["flagged"].items():
            for ref in refs:
                assert _key(pack_id, ref) in flags[designation], (
                    f"{designation} not flagged by {ref}: {flags}"
                )
    if row.get("notes"):
        notes = {n["id"] for n in answer.as_dict()["notes"]}
        for ref in row["notes"]:
            assert _key(pack_id, ref) in notes, f"note {ref} not shown; notes: {sorted(notes)}"


def _as_instant(value) -> dt.datetime | dt.date:
    if isinstance(value, dt.date):
        return value
    text = str(value)
    return dt.datetime.fromisoformat(text) if "T" in text else dt.date.fromisoformat(text)


def deadline_answer(j, row) -> dict:
    """The engine's answer to a deadline row (also read by test_pack_coverage)."""
    events = parse_events(
        {k: (v.isoformat() if isinstance(v, dt.date) else v) for k, v in row["events"].items()}
    )
    return j.deadline(
        row["deadline"],
        events,
        on=row.get("on"),
        settings=row.get("settings"),
        designation=row.get("designation"),
    )


def _check_deadline(j, pack_id, row):
    answer = deadline_answer(j, row)
    expect = row["expect"]
    if answer["status"] == "by_designation" and expect.get("status") != "by_designation":
        # the provisions differ by designation: a row that names none holds for every designation they reach
        for part in answer["by_designation"]:
            _check_deadline_answer(pack_id, part, expect, f"for a {part['label'].lower()}")
        return
    _check_deadline_answer(pack_id, answer, expect, "")


def _check_deadline_answer(pack_id, answer, expect, whom):
    if "status" in expect:
        assert answer["status"] == expect["status"], (whom, answer.get("reasons"))
    if "due" in expect:
        if expect["due"] is None:
            assert answer["due"] is None
        else:
            assert answer["due"] is not None, (whom, answer.get("reasons"))
            assert _as_instant(answer["due"]) == _as_instant(expect["due"]), (whom, answer["entries"])
    if "bound" in expect:
        bound = answer.get("bound") or {}
        value = bound.get("at_least") or bound.get("at_most")
        assert value is not None, (whom, "no bound", answer.get("reasons"))
        assert _as_instant(value) == _as_instant(expect["bound"]), (whom, answer["entries"])
    if "set_by" in expect:
        assert sorted(answer.get("set_by", [])) == sorted(_key(pack_id, r) for r in expect["set_by"]), whom
    if "entries" in expect:
        assert len(answer["entries"]) == expect["entries"], whom
