"""The rabies observation a bite to a person starts, as a city's pack sets it (`rabies_observation:`).

No text in the packs says anything of rabies observation: the section is the city's own procedure, never a
provision, and it names the pack's defect that records the silence (docs/law-packs.md, "Rabies observation").
A city pack without the section inherits the state pack's; the Minnesota statute pack has none, so a city that
sets none starts no observation.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from .schema import Where

# what a page cites beside the observation: never a section of the ordinance
CITY_PROCEDURE = "City procedure (the ordinance is silent on rabies observation)"
PERIOD_DAYS = (1, 60)  # a period outside these days is a mistake in the pack


@dataclass(frozen=True, slots=True)
class HeldAt:
    id: str
    label: str


@dataclass(frozen=True, slots=True)
class ObservationRule:
    pack: str
    period_days: int
    held_at: tuple[HeldAt, ...]
    examination: str
    roles: tuple[str, ...]  # pack roles who record the observation
    defect: str  # the pack's defect saying its text is silent
    note: str = ""
    citation: str = CITY_PROCEDURE

    def ends_on(self, bite_day: dt.date) -> dt.date:
        """The last day of the observation, counted in calendar days from the day of the bite."""
        return bite_day + dt.timedelta(days=self.period_days)

    def held_at_label(self, held_id: str) -> str:
        return next((h.label for h in self.held_at if h.id == held_id), "")

    def as_dict(self) -> dict[str, Any]:
        return {
            "pack": self.pack,
            "period_days": self.period_days,
            "held_at": [{"id": h.id, "label": h.label} for h in self.held_at],
            "examination": self.examination,
            "roles": list(self.roles),
            "defect": f"{self.pack}:{self.defect}",
            "note": self.note,
            "citation": self.citation,
        }


def parse_observation(raw: Any, *, pack_id: str, where: Where, roles, defects) -> ObservationRule | None:
    """The pack's `rabies_observation:` (already checked against the schema), or None when it has none.
    `roles`: the pack role ids known to the pack (its own and its state's); `defects`: the pack's defect ids."""
    if raw is None:
        return None
    low, high = PERIOD_DAYS
    if not low <= raw["period_days"] <= high:
        raise where.at("period_days", raw.line_of("period_days")).fail(
            f"must be between {low} and {high} days"
        )
    seen: set[str] = set()
    for index, held in enumerate(raw["held_at"]):
        if held["id"] in seen:
            raise (
                where.at("held_at", raw.line_of("held_at"))
                .at(index, None)
                .fail(f"{held['id']!r} is listed twice")
            )
        seen.add(held["id"])
    for role in raw["roles"]:
        if role not in roles:
            raise where.at("roles", raw.line_of("roles")).fail(f"unknown role {role!r}")
    if raw["defect"] not in defects:
        raise where.at("defect", raw.line_of("defect")).fail(
            f"no defect {raw['defect']!r} in this pack: the defect that says the text is silent is required"
        )
    return ObservationRule(
        pack=pack_id,
        period_days=raw["period_days"],
        held_at=tuple(HeldAt(h["id"], " ".join(h["label"].split())) for h in raw["held_at"]),
        examination=" ".join(raw["examination"].split()),
        roles=tuple(raw["roles"]),
        defect=raw["defect"],
        note=" ".join(raw.get("note", "").split()),
    )
