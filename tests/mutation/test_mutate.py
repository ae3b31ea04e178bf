"""`make mutate`'s own parts: the changes it lists are the pack's rules, each made at the line it names, and a
pack written out again unchanged reads as the same law."""

from __future__ import annotations

import shutil

from dogcase.law import loader
from tests.mutation.mutate import PACKS, equivalents, mutated_text, mutations_of

TRACY = "tracy-mn"


def _text(pack: str) -> str:
    return (PACKS / pack / "pack.yaml").read_text(encoding="utf-8")


def _load(tmp_path, pack: str, text: str):
    folder = tmp_path / "packs"
    if not folder.exists():
        shutil.copytree(PACKS, folder, ignore=shutil.ignore_patterns("__pycache__"))
    (folder / pack / "pack.yaml").write_text(text, encoding="utf-8")
    return loader.Library(folder)


def test_every_kind_of_change_is_listed_at_its_line():
    text = _text(TRACY)
    lines = text.splitlines()
    found = mutations_of(TRACY, text)
    kinds = {
        m.what.split(": ", 1)[1].split(" ")[0] + " " + m.what.split(": ", 1)[1].split(" ")[1] for m in found
    }
    assert {
        "drop requires",
        "flip requires",
        "drop actor",
        "add actor",
        "period 3",
        "counting mn_645_15",
    } <= kinds
    assert any(m.what.endswith("drop the exemption") for m in found)
    for m in found:
        if " requires " in m.what:
            assert lines[m.line - 1].lstrip().startswith("- "), (m.line, m.what)
        if ": period " in m.what:
            assert "amount:" in lines[m.line - 1], (m.line, m.what)


def test_a_pack_written_out_again_is_the_same_law(tmp_path):
    control = next(m for m in mutations_of(TRACY, _text(TRACY)) if m.op == "drop")
    control.op = "none"
    again = _load(tmp_path, TRACY, mutated_text(_text(TRACY), control)).packs[TRACY]
    shipped = loader.load_all().packs[TRACY]
    assert [(d.id, [c.key() for c in d.requires], d.roles) for d in again.procedure] == [
        (d.id, [c.key() for c in d.requires], d.roles) for d in shipped.procedure
    ]
    assert {k: [v.effect for v in p.versions] for k, p in again.provisions.items()} == {
        k: [v.effect for v in p.versions] for k, p in shipped.provisions.items()
    }


def test_dropping_a_condition_drops_that_one_and_nothing_else(tmp_path):
    m = next(m for m in mutations_of(TRACY, _text(TRACY)) if " drop requires " in m.what)
    step_id = m.what.split(":", 1)[0]
    changed = _load(tmp_path, TRACY, mutated_text(_text(TRACY), m)).packs[TRACY]
    shipped = loader.load_all().packs[TRACY]
    before = next(d for d in shipped.procedure if d.id == step_id)
    after = next(d for d in changed.procedure if d.id == step_id)
    assert len(after.requires) == len(before.requires) - 1
    dropped = [c.key() for c in before.requires if c.key() not in [a.key() for a in after.requires]]
    assert len(dropped) == 1
    others = [d for d in changed.procedure if d.id != step_id]
    assert [(d.id, len(d.requires)) for d in others] == [
        (d.id, len(d.requires)) for d in shipped.procedure if d.id != step_id
    ]


def test_a_period_one_longer_changes_that_deadline_only(tmp_path):
    m = next(m for m in mutations_of(TRACY, _text(TRACY)) if ": period 3 -> 4" in m.what)
    provision = m.what.split(" ", 1)[0]
    changed = _load(tmp_path, TRACY, mutated_text(_text(TRACY), m)).packs[TRACY]
    assert changed.provisions[provision].versions[0].effect["period"]["amount"] == 4
    shipped = loader.load_all().packs[TRACY]
    differ = [
        k
        for k, p in changed.provisions.items()
        if p.versions[0].effect != shipped.provisions[k].versions[0].effect
    ]
    assert differ == [provision]


def test_every_equivalent_change_is_one_the_tool_makes_and_says_why():
    made = {
        f"{p.name}:{m.what}"
        for p in sorted(PACKS.iterdir())
        if (p / "pack.yaml").exists()
        for m in mutations_of(p.name, _text(p.name))
    }
    for key, why in equivalents().items():
        assert key in made, f"{key} is listed as equivalent but make mutate makes no such change"
        assert len(why.split()) >= 12, f"{key}: the reason is too short to check"
