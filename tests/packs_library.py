"""A library of the shipped packs with test packs added (or some taken away), for tests that run the whole
application against a city that is not shipped."""

from __future__ import annotations

import shutil
from collections.abc import Iterable, Mapping
from pathlib import Path

from dogcase.law.loader import PACKS_DIR, Library


def packs_folder(folder: Path, *, add: Mapping[str, str] = {}, drop: Iterable[str] = ()) -> Path:  # noqa: B006
    """A copy of the shipped packs under `folder`, with `add` ({pack id: pack.yaml text}) written beside them
    and the packs in `drop` left out."""
    shutil.copytree(PACKS_DIR, folder, ignore=shutil.ignore_patterns("__pycache__"))
    for pack_id in drop:
        shutil.rmtree(folder / pack_id)
    for pack_id, text in add.items():
        (folder / pack_id).mkdir(exist_ok=True)
        (folder / pack_id / "pack.yaml").write_text(text, encoding="utf-8")
    return folder


def big_lake_pack() -> str:
    """Battle Lake's pack under another city's id: `big-lake-mn` has the same initials as `battle-lake-mn`."""
    text = (PACKS_DIR / "battle-lake-mn" / "pack.yaml").read_text(encoding="utf-8")
    text = text.replace("id: battle-lake-mn", "id: big-lake-mn", 1)
    text = text.replace("name: City of Battle Lake, Minnesota", "name: City of Big Lake, Minnesota", 1)
    return text.replace("case_prefix: BL", "case_prefix: BG", 1)


def shipped_pack_ids(library: Library | None = None) -> list[str]:
    """The packs shipped with dogcase among those installed: what the suite's coverage rules hold to account (a
    server's own packs, added beside them, are checked by `dogcase law check` and by their own table tests)."""
    from dogcase.law import library as installed

    lib = library or installed()
    return sorted(pid for pid, pack in lib.packs.items() if Path(pack.folder).parent == PACKS_DIR)


def use_library(monkeypatch, library: Library) -> Library:
    """Make the application read `library` instead of the shipped packs."""
    monkeypatch.setattr("dogcase.law.load_all", lambda root=None: library)
    return library


def with_fact_values(vocabulary, fact_id: str, values: Mapping[str, str]):
    """`vocabulary` with more values (and their labels) on one fact, as a pack's `fact_values:` adds them."""
    from dataclasses import replace
    from types import MappingProxyType

    from dogcase.law.facts import FactVocabulary

    fact = vocabulary.facts[fact_id]
    ordered = fact.ordered_values + tuple(values)
    facts = dict(vocabulary.facts)
    facts[fact_id] = replace(
        fact,
        values=frozenset(ordered),
        ordered_values=ordered,
        labels=MappingProxyType({**fact.labels, **values}),
    )
    return FactVocabulary(facts, vocabulary.file)
