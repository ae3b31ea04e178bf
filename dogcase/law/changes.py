"""The law packs as files: their fingerprint, a cheap stamp that tells when they were written again, and what
changed between two versions in words a city attorney reads ("§ 90.15 (H): its time: 14 → 10 calendar days").

The law is facts.yaml and each pack's pack.yaml; a pack's cases.yaml holds its tests, not law."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from .translations import LANGUAGES

COUNTING_WORDS = {
    "mn_645_15": "the first day not counted, a last day on a weekend or legal holiday moved to the next working day",
    "includes_trigger_day": "the first day counted",
    "no_roll": "a last day on a weekend or holiday not moved",
    "business_days": "business days only",
    "elapsed": "hours as they pass",
}
# a provision's or a step's keys, in words
KEY_WORDS = {
    "text": "its text",
    "citation": "its citation",
    "heading": "its heading",
    "deadline": "its time",
    "ground": "what makes a dog eligible under it",
    "exemption": "its exception",
    "authority": "who may act under it",
    "notice": "what its notice must contain",
    "requirement": "what it requires of the owner",
    "in_force": "when it is in force",
    "versions": "its versions",
    "requires": "its conditions",
    "roles": "who may take it",
    "for": "the designations it applies to",
    "inputs": "its form",
    "label": "its name",
    "outcome": "what its record says happened",
    "documents": "the documents it issues",
}


def law_files(root: Path, site: Path | None = None) -> list[Path]:
    """The files the law is read from, in a fixed order: the fact vocabulary, the packs under `root`, then the
    site's own packs (a city added on this server, `dogcase city add`) under `site`."""
    root = Path(root)
    folders = [root, *([Path(site)] if site is not None else [])]
    files = [root / "facts.yaml"]
    for folder in folders:
        # each pack and its own words in an owner's language (translations.py: `<language>.yaml`)
        files += sorted(p for p in folder.glob("*/*.yaml") if p.name == "pack.yaml" or p.stem in LANGUAGES)
    return files


def law_texts(root: Path, site: Path | None = None) -> dict[str, str]:
    """Each law file's text, by its path under its packs folder ("tracy-mn/pack.yaml"; a site pack's folder
    name is never a shipped one's, so the names do not collide)."""
    root = Path(root)
    return {
        (path.name if path.parent == root else f"{path.parent.name}/{path.name}"): path.read_text(
            encoding="utf-8"
        )
        for path in law_files(root, site)
        if path.exists()
    }


def fingerprint(texts: Mapping[str, str]) -> str:
    digest = hashlib.sha256()
    for name in sorted(texts):
        digest.update(name.encode() + b"\0" + texts[name].encode() + b"\0")
    return digest.hexdigest()


def stamp(root: Path, site: Path | None = None) -> tuple[tuple[str, int, int], ...]:
    """When and how big each law file is (and which there are): a different stamp means a file was written."""
    out = []
    for path in law_files(root, site):
        try:
            info = path.stat()
        except FileNotFoundError:
            continue
        out.append((str(path), info.st_mtime_ns, info.st_size))
    return tuple(out)


@dataclass(frozen=True)
class Change:
    pack: str  # the pack's folder ("tracy-mn"), or "facts.yaml"
    what: str

    def __str__(self) -> str:
        return f"{self.pack}: {self.what}"


def what_changed(old: Mapping[str, str], new: Mapping[str, str]) -> list[Change]:
    """The differences between two versions of the law files (`law_texts`), provision by provision and step by
    step; [] when they say the same (a comment or a blank line changes nothing)."""
    changes: list[Change] = []
    for name in sorted(set(old) | set(new)):
        pack = name.split("/", 1)[0] if "/" in name else name
        words = not name.endswith("pack.yaml") and name != "facts.yaml"
        if name not in old:
            changes.append(Change(pack, "its translations were added" if words else "the pack was added"))
            continue
        if name not in new:
            changes.append(Change(pack, "its translations were removed" if words else "the pack was removed"))
            continue
        if old[name] == new[name]:
            continue
        if words:
            changes.append(Change(pack, f"its translations ({name.rsplit('/', 1)[-1]}) changed"))
            continue
        try:
            before, after = yaml.safe_load(old[name]) or {}, yaml.safe_load(new[name]) or {}
        except yaml.YAMLError:
            changes.append(Change(pack, "the file was written and is not valid YAML"))
            continue
        if before == after:
            continue
        if name == "facts.yaml":
            changes.append(Change(pack, "the shared facts an incident is described by changed"))
            continue
        changes += [Change(pack, w) for w in _pack_changes(before, after)]
    return changes


def _pack_changes(before: dict, after: dict) -> list[str]:
    labels = {
        str(r["id"]): str(r.get("label") or r["id"])
        for section in (before.get("roles"), after.get("roles"))
        for r in section or ()
        if isinstance(r, dict) and "id" in r
    }
    out: list[str] = []
    for key in sorted(set(before) | set(after), key=lambda k: (k not in ("provisions", "procedure"), k)):
        if before.get(key) == after.get(key):
            continue
        if key == "provisions":
            out += _listed(before.get(key), after.get(key), _provision_name, _provision_changes)
        elif key == "procedure":
            out += _listed(
                before.get(key), after.get(key), _step_name, lambda o, n: _step_changes(o, n, labels)
            )
        elif key == "documents":
            out += _listed(before.get(key), after.get(key), _document_name, _plain_changes)
        else:
            out.append(f"its “{key}” section changed")
    return out


def _by_id(items: Any) -> dict[str, dict]:
    return {str(i["id"]): i for i in items or () if isinstance(i, dict) and "id" in i}


def _listed(before: Any, after: Any, name, detail) -> list[str]:
    old, new = _by_id(before), _by_id(after)
    out = []
    for item_id in [*old, *(i for i in new if i not in old)]:
        if item_id not in new:
            out.append(f"{name(old[item_id])} was removed")
        elif item_id not in old:
            out.append(f"{name(new[item_id])} was added")
        elif old[item_id] != new[item_id]:
            out.append(f"{name(new[item_id])}: {'; '.join(detail(old[item_id], new[item_id]))}")
    return out


def _provision_name(p: dict) -> str:
    return str(p.get("citation") or f"provision {p['id']}")


def _step_name(s: dict) -> str:
    return f"the step “{s.get('label') or s['id']}”"


def _document_name(d: dict) -> str:
    return f"the document “{d.get('title') or d['id']}”"


def _period(effect: Any) -> str:
    if not isinstance(effect, dict) or not isinstance(effect.get("period"), dict):
        return ""
    period = effect["period"]
    unit = str(period.get("unit", "")).replace("_", " ")
    counting = COUNTING_WORDS.get(str(effect.get("counting")), str(effect.get("counting")))
    return f"{period.get('amount')} {unit} ({counting})"


def _provision_changes(old: dict, new: dict) -> list[str]:
    out = []
    for key in sorted(set(old) | set(new)):
        if old.get(key) == new.get(key):
            continue
        words = KEY_WORDS.get(key, f"its “{key}”")
        if key == "deadline" and _period(old.get(key)) != _period(new.get(key)):
            was, now = _period(old.get(key)) or "none", _period(new.get(key)) or "none"
            out.append(f"{words}: {was} → {now}")
        elif key not in old:
            out.append(f"{words} was added")
        elif key not in new:
            out.append(f"{words} was removed")
        else:
            out.append(f"{words} changed")
    return out


def _step_changes(old: dict, new: dict, labels: Mapping[str, str]) -> list[str]:
    out = []
    for key in sorted(set(old) | set(new)):
        if old.get(key) == new.get(key):
            continue
        words = KEY_WORDS.get(key, f"its “{key}”")
        if key == "roles" and isinstance(old.get(key), list) and isinstance(new.get(key), list):
            gone = [labels.get(r, r) for r in old[key] if r not in new[key]]
            came = [labels.get(r, r) for r in new[key] if r not in old[key]]
            parts = [f"now also {', '.join(came)}"] * bool(came) + [f"no longer {', '.join(gone)}"] * bool(
                gone
            )
            out.append(f"{words}: {'; '.join(parts)}")
        else:
            out.append(f"{words} changed")
    return out


def _plain_changes(old: dict, new: dict) -> list[str]:
    return [
        f"{KEY_WORDS.get(k, f'its “{k}”')} changed"
        for k in sorted(set(old) | set(new))
        if old.get(k) != new.get(k)
    ]
