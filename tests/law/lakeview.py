"""Lakeview, Minnesota: an invented city written as a law pack over the real state pack, for tests.

`install_lakeview(folder)` writes a packs folder (the shipped fact vocabulary and packs, and Lakeview) that a
`Library` — or the Django app, with its packs folder pointed there — reads like the shipped one.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from dogcase.law.loader import PACKS_DIR

LAKEVIEW = Path(__file__).resolve().parent / "packs" / "lakeview-mn"


def install_lakeview(folder: Path, *, shipped: tuple[str, ...] | None = None) -> Path:
    """A packs folder holding facts.yaml, the shipped packs (all, or those named in `shipped`; Lakeview needs
    mn-statute) and lakeview-mn. Returns the folder."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(PACKS_DIR / "facts.yaml", folder / "facts.yaml")
    for pack in sorted(p for p in PACKS_DIR.iterdir() if (p / "pack.yaml").exists()):
        if shipped is None or pack.name in shipped:
            shutil.copytree(pack, folder / pack.name, dirs_exist_ok=True)
    shutil.copytree(LAKEVIEW, folder / "lakeview-mn", dirs_exist_ok=True)
    return folder
