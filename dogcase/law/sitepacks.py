"""A city or county with no dangerous-dog text of its own, added on a server: its pack, written from a few
answers into the site's packs folder (loader.site_packs_dir), with the state pack as its whole law.

Minn. Stat. 347.565: the state's sections apply in every city and county whether or not it adopts them, so a
jurisdiction without an ordinance needs only what the state leaves to it: its name, its case numbers, whom its
documents send people to, and whether it observes the two holidays 645.44 subd. 5 leaves to it. The pack
written holds nothing else; its provisions are the state's.
"""

from __future__ import annotations

import datetime as dt
import re
import shutil
import tempfile
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from zoneinfo import ZoneInfo

import yaml

from .errors import InputError, PackError
from .loader import PACKS_DIR, Library, site_packs_dir

KINDS = ("city", "county")
YES = {"yes": True, "true": True, "y": True, "no": False, "false": False, "n": False}
_SUFFIX = re.compile(r",?\s*(MN|Minn\.?|Minnesota)\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class NewJurisdiction:
    """What `add` wrote: the pack's id, its names, its case prefix and its file."""

    id: str
    name: str
    short_name: str
    kind: str
    case_prefix: str
    file: Path

    def as_dict(self) -> dict[str, str]:
        return {
            "id": self.id,
            "name": self.name,
            "short_name": self.short_name,
            "kind": self.kind,
            "case_prefix": self.case_prefix,
            "file": str(self.file),
        }


def place_name(name: str, kind: str) -> str:
    """The place as people say it: "Example" from "Example, MN"; a county's name ends in "County"."""
    place = _SUFFIX.sub("", (name or "").strip()).strip().rstrip(",").strip()
    if kind == "city":
        place = re.sub(r"^city of\s+", "", place, flags=re.IGNORECASE)
    if not place:
        raise InputError("NAME", "give the city's or county's name, e.g. \"Example, MN\"")
    if kind == "county" and not place.lower().endswith(" county"):
        place = f"{place} County"
    return place


def default_id(place: str) -> str:
    ascii_name = unicodedata.normalize("NFKD", place).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")
    return f"{slug}-mn"


def default_prefix(place: str, taken: set[str]) -> str:
    """Case numbers' letters: the initials of the place's words ("Example" EX, "Lake County" LC), made unique
    among the prefixes in use by adding the next letters of the name."""
    words = [w for w in re.split(r"[^A-Za-z]+", unicodedata.normalize("NFKD", place)) if w]
    letters = "".join(w for w in words).upper()
    first = "".join(w[0] for w in words).upper()
    base = first if len(first) >= 2 else letters[:2]
    candidates = [base[:6]] + [(base + letters[i : i + 1])[:6] for i in range(1, len(letters))]
    candidates += [f"{base[:5]}{n}" for n in range(2, 10)]
    for candidate in candidates:
        if candidate and candidate not in taken:
            return candidate
    raise InputError("--case-prefix", "no free prefix could be made from the name: give one")


def pack_text(
    *,
    jurisdiction_id: str,
    name: str,
    short_name: str,
    kind: str,
    case_prefix: str,
    state: str,
    observes: Mapping[str, bool],
    authority_name: str,
    created_on: dt.date,
) -> str:
    """The pack of a jurisdiction whose whole law is the state pack `state`."""
    government = "city" if kind == "city" else "county"
    pack: dict = {
        "format": 1,
        "jurisdiction": {
            "id": jurisdiction_id,
            "name": name,
            "short_name": short_name,
            "kind": kind,
            "layer_over": state,
            "timezone": "America/Chicago",
            "case_prefix": case_prefix,
            "source": {
                "title": (
                    f"No dangerous-dog ordinance of its own: the state's sections apply in every {government} "
                    "(Minn. Stat. 347.565)"
                ),
                "history": f"Added on {created_on.isoformat()} as a {government} that runs on the state law alone.",
            },
            "in_force": {"from": None},
            # whom documents send people to: the address and telephone are the city's facts, kept on the server
            # (the city's offices), not in its law
            "offices": {
                "animal_control_authority": {"name": authority_name, "address": None, "telephone": None}
            },
            "letterhead": {"name": name, "address": None, "telephone": None},
        },
        "calendar": {"observes": dict(sorted(observes.items()))},
        "provisions": [],
    }
    if kind == "county":
        # a county's animal control authority is its Sheriff: the Sheriff's deputies (police accounts) take the
        # state's steps given to the authority, beside any animal control officer
        pack["roles"] = [
            {
                "id": "animal_control_authority",
                "label": authority_name,
                "description": (
                    "The county's animal control authority (347.50): the Sheriff's office, which declares, "
                    "serves, seizes and schedules hearings under the state's sections."
                ),
                "staff": ["police_officer", "animal_control_officer"],
            }
        ]
    header = (
        f"# {name}: no dangerous-dog ordinance of its own. Minn. Stat. 347.565: sections 347.50 to 347.56 apply\n"
        f"# in every {government} whether or not it adopts them, so this pack adds nothing to the state pack\n"
        f"# ({state}) but the {government}'s name, case numbers, offices and holiday choices. Written by\n"
        "# `dogcase city add --state-only`; an ordinance adopted later is written into this pack\n"
        "# (docs/law-packs.md, Adding a city).\n"
    )
    return header + yaml.safe_dump(pack, sort_keys=False, allow_unicode=True, width=110)


def add_state_only(
    name: str,
    *,
    kind: str = "city",
    jurisdiction_id: str | None = None,
    case_prefix: str | None = None,
    observes: Mapping[str, str] | None = None,
    authority_name: str | None = None,
    state: str = "mn-statute",
    site: Path | None = None,
    today: dt.date | None = None,
) -> NewJurisdiction:
    """Write the pack of a city or county that runs on the state law alone into the site's packs folder, after
    checking that every pack, the new one included, loads. Raises InputError naming the option at fault."""
    if kind not in KINDS:
        raise InputError("--kind", f"must be one of {', '.join(KINDS)}")
    site = site if site is not None else site_packs_dir()
    if site is None:
        raise InputError(
            "DOGCASE_SITE_PACKS_DIR",
            "is empty: this server keeps no packs of its own; name a folder for them",
        )
    current = Library(PACKS_DIR, site)
    if state not in current.packs or current.packs[state].kind != "state":
        raise InputError("--state", f"{state!r} is not a state pack here")
    place = place_name(name, kind)
    jid = jurisdiction_id or default_id(place)
    if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", jid):
        raise InputError("--id", f"{jid!r} must be lower-case letters, digits and dashes, e.g. example-mn")
    if jid in current.packs:
        raise InputError("--id", f"{jid!r} is already a jurisdiction here ({current.packs[jid].file})")
    if (site / jid).exists() or (PACKS_DIR / jid).exists():
        raise InputError("--id", f"a folder {jid!r} already exists among the packs")
    taken = {p.case_prefix for p in current.packs.values()}
    prefix = (case_prefix or "").strip().upper() or default_prefix(place, taken)
    if prefix in taken:
        owner = next(p.id for p in current.packs.values() if p.case_prefix == prefix)
        raise InputError("--case-prefix", f"{prefix!r} already numbers the cases of {owner}; choose another")
    if not re.fullmatch(r"[A-Z][A-Z0-9]{0,5}", prefix):
        raise InputError(
            "--case-prefix", f"{prefix!r} must be 1 to 6 upper-case letters or digits, starting with a letter"
        )
    choices = _holiday_choices(current, state, observes or {})
    full = f"City of {place}, Minnesota" if kind == "city" else f"{place}, Minnesota"
    authority = (authority_name or "").strip() or (
        f"City of {place} animal control" if kind == "city" else f"{place} Sheriff's Office"
    )
    text = pack_text(
        jurisdiction_id=jid,
        name=full,
        short_name=place,
        kind=kind,
        case_prefix=prefix,
        state=state,
        observes=choices,
        authority_name=authority,
        created_on=today or dt.datetime.now(ZoneInfo("America/Chicago")).date(),
    )
    _write_checked(site, jid, text)
    return NewJurisdiction(jid, full, place, kind, prefix, site / jid / "pack.yaml")


def _holiday_choices(lib: Library, state: str, given: Mapping[str, str]) -> dict[str, bool]:
    """The holidays the state leaves to the city (645.44 subd. 5), each answered yes or no."""
    optional = {r.id: r.name for r in lib.packs[state].holiday_rules if getattr(r, "optional", False)}
    unknown = sorted(set(given) - set(optional))
    if unknown:
        raise InputError(
            "--observes",
            f"{unknown[0]!r} is not a holiday the state leaves to the city; those are: "
            + ", ".join(f"{k} ({v})" for k, v in sorted(optional.items())),
        )
    missing = sorted(set(optional) - set(given))
    if missing:
        raise InputError(
            "--observes",
            "say whether the city observes each holiday 645.44 subd. 5 leaves to it (it moves deadlines): "
            + " ".join(f"--observes {k}=yes|no" for k in missing)
            + " ("
            + "; ".join(f"{k}: {optional[k]}" for k in missing)
            + ")",
        )
    out = {}
    for key, value in given.items():
        answer = YES.get(str(value).strip().lower())
        if answer is None:
            raise InputError("--observes", f"{key}={value!r}: answer yes or no")
        out[key] = answer
    return out


def _write_checked(site: Path, jid: str, text: str) -> None:
    """Write the pack only if every pack loads with it: a copy of the site's folder with the new pack is read
    first; the pack then goes in with one rename."""
    site.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=site, prefix=".new-") as scratch:
        trial = Path(scratch) / "site"
        shutil.copytree(site, trial, ignore=shutil.ignore_patterns(".*"))
        (trial / jid).mkdir()
        (trial / jid / "pack.yaml").write_text(text, encoding="utf-8")
        try:
            Library(PACKS_DIR, trial)
        except PackError as error:
            raise InputError("pack", f"the pack written would not load: {error}") from None
        staged = Path(scratch) / jid
        staged.mkdir()
        (staged / "pack.yaml").write_text(text, encoding="utf-8")
        staged.rename(site / jid)
