"""The law as loaded: immutable records built from validated pack files."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any


def id_in_words(value: Any) -> str:
    """An id as words, for a value with no label: `substantial_bodily_harm` -> "Substantial bodily harm"."""
    text = str(value).replace("_", " ").strip()
    return text[:1].upper() + text[1:]


@dataclass(frozen=True, slots=True)
class InForce:
    """Dates a text is in force: `start` inclusive (None: before any date the source gives), `end` exclusive."""

    start: dt.date | None = None
    end: dt.date | None = None

    def contains(self, day: dt.date) -> bool:
        return (self.start is None or self.start <= day) and (self.end is None or day < self.end)

    def overlaps(self, other: InForce) -> bool:
        starts_before_other_ends = other.end is None or self.start is None or self.start < other.end
        other_starts_before_self_ends = self.end is None or other.start is None or other.start < self.end
        return starts_before_other_ends and other_starts_before_self_ends

    def describe(self) -> str:
        start = self.start.isoformat() if self.start else "before any date in the source"
        end = f" until {self.end.isoformat()} (exclusive)" if self.end else ", still in force"
        return f"from {start}{end}"

    def as_dict(self) -> dict[str, str | None]:
        return {
            "from": self.start.isoformat() if self.start else None,
            "until": self.end.isoformat() if self.end else None,
        }


@dataclass(frozen=True, slots=True)
class ProvisionVersion:
    """One version of one provision: its citation, quoted text, dates in force and legal effect."""

    pack: str
    id: str
    citation: str
    text: str
    in_force: InForce
    layer: str  # "state" | "city"
    effect_kind: str | None
    effect: MappingProxyType[str, Any] | None
    heading: str | None = None
    quoted: bool = True
    confirm: str | None = None
    state_provision: str | None = None
    differs_from_state: str | None = None
    file: str = ""
    line: int = 0
    effect_line: int = 0
    element_lines: MappingProxyType[str, int] = field(
        default_factory=lambda: MappingProxyType({})
    )  # a notice's elements: id -> line (errors about an element's `when:` name its line)

    @property
    def key(self) -> str:
        return f"{self.pack}:{self.id}"

    def cite(self) -> dict[str, Any]:
        """The provision as it appears in every explanation."""
        out: dict[str, Any] = {
            "provision": self.key,
            "citation": self.citation,
            "text": self.text,
            "layer": self.layer,
            "in_force": self.in_force.as_dict(),
        }
        if not self.quoted:
            out["quoted"] = False
            out["text_note"] = (
                "dogcase's restatement of the statute from the stored facts, not the enacted words"
            )
        if self.confirm:
            out["confirm"] = self.confirm
        return out


@dataclass(frozen=True, slots=True)
class Provision:
    pack: str
    id: str
    versions: tuple[ProvisionVersion, ...]

    def version_on(self, day: dt.date) -> ProvisionVersion | None:
        for version in self.versions:
            if version.in_force.contains(day):
                return version
        return None


@dataclass(frozen=True, slots=True)
class Designation:
    id: str
    label: str
    pack: str
    defined_by: str  # provision key
    state_counterpart: str | None = None
    description: str | None = None


@dataclass(frozen=True, slots=True)
class Role:
    id: str
    label: str
    pack: str
    description: str | None = None
    staff: tuple[
        str, ...
    ] = ()  # the product's staff roles that act as this pack role (vocabulary.STAFF_ROLES)
    # an office one person (or a few) holds by appointment ("Tracy Chief of Police"): a staff role that maps
    # to it is not enough, the city's administrator appoints the account to it (the product's office holders)
    appointed: bool = False


DEFECT_KIND_LABELS = {
    "defect": "Defect in the text",
    "ambiguity": "Ambiguity",
    "missing_text": "Missing text",
    "conflict": "Contradiction",
}


@dataclass(frozen=True, slots=True)
class Defect:
    id: str
    pack: str
    provisions: tuple[str, ...]  # provision keys
    text: str
    reading: str
    kind: str = "defect"
    applies: InForce = field(default_factory=InForce)

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": f"{self.pack}:{self.id}",
            "kind": self.kind,
            "kind_label": DEFECT_KIND_LABELS[self.kind],
            "provisions": list(self.provisions),
            "text": self.text,
            "reading": self.reading,
            "applies": self.applies.as_dict(),
        }


@dataclass(frozen=True, slots=True)
class Setting:
    id: str
    pack: str
    what: str
    value: Any
    for_provision: str | None = None
    allowed: tuple[Any, ...] = ()
    label: str = ""  # the setting's name in words (pack `label:`); its id in words when the pack gives none


@dataclass(frozen=True, slots=True)
class FactDef:
    id: str
    type: str  # bool | enum | set
    question: str
    values: frozenset[str] = frozenset()
    ordered_values: tuple[str, ...] = ()
    # plain-English words for values (facts.yaml `labels:`); a value without one reads as its id in words
    labels: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}), compare=False)
    # computed from the dog's own history in dogcase (facts.yaml `from_record: true`), not asked at intake
    from_record: bool = False
    pack: str | None = None  # the pack that declares the fact (`facts:`); None: the shared facts.yaml
    added_values: Mapping[str, str] = field(
        default_factory=lambda: MappingProxyType({}), compare=False
    )  # value -> the pack that added it to a shared fact (`fact_values:`)

    def label_of(self, value: str) -> str:
        """The value in plain English: its label, or the id made readable (`private_other` -> "Private other")."""
        return self.labels.get(value) or id_in_words(value)


@dataclass(frozen=True, slots=True)
class ServiceMethod:
    """A way of serving a notice that a pack declares (`service_methods:`), beyond the shared vocabulary."""

    id: str
    label: str
    pack: str
    form_of: tuple[str, ...] = ()  # shared methods it is a form of (for the state floor comparison)


@dataclass(frozen=True, slots=True)
class Withdrawal:
    """State steps (and deadlines) a city withdraws (`withdraws:`), with the provision that does it."""

    pack: str
    provision: str  # provision key
    reason: str
    steps: tuple[str, ...] = ()
    deadlines: tuple[str, ...] = ()
    for_: tuple[str, ...] | None = None  # the designations it is withdrawn for (None: every one)
    file: str = ""
    line: int = 0


@dataclass(frozen=True)
class Pack:
    id: str
    name: str
    kind: str
    timezone: str
    case_prefix: str  # case and incident numbers start with it (BL-2026-0001); unique in a library
    source: MappingProxyType[str, Any]
    layer_over: str | None
    provisions: MappingProxyType[str, Provision]
    roles: MappingProxyType[str, Role]
    designations: MappingProxyType[str, Designation]
    defects: tuple[Defect, ...]
    settings: MappingProxyType[str, Setting]
    holiday_rules: tuple[Any, ...]  # clock.HolidayRule, state packs
    observes: MappingProxyType[str, bool]  # city choices of optional holidays
    extra_holidays: tuple[Any, ...]
    file: str
    folder: str
    in_force: InForce
    calendar_line: int | None = None
    floor_provision: str | None = None  # state packs: the provision that lets cities add restrictions
    procedure: tuple[Any, ...] = ()  # procedure.StepDef, in the order written
    # acts the law allows on grounds of their own, with no designation (347.56 destruction): classified like
    # designations, never declared
    eligibilities: MappingProxyType[str, Designation] = field(default_factory=lambda: MappingProxyType({}))
    # what the city may charge the owner (law/charges.py ChargeDef), by id
    charges: MappingProxyType[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    vocabulary: Any = None  # facts.FactVocabulary: the shared facts, the state pack's and this pack's
    events: MappingProxyType[str, str] = field(default_factory=lambda: MappingProxyType({}))  # id -> words
    service_methods: MappingProxyType[str, ServiceMethod] = field(
        default_factory=lambda: MappingProxyType({})
    )
    withdraws: tuple[Withdrawal, ...] = ()
    # `event_order:` — (event, the events it may not precede, provision id or None, why or None)
    event_order: tuple[tuple[str, tuple[str, ...], str | None, str | None], ...] = ()
    # the documents the law requires (documents.DocumentDef), the offices they send people to, the letterhead
    documents: tuple[Any, ...] = ()
    offices: MappingProxyType[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    letterhead: Any = None
    rabies_observation: Any = None  # observation.ObservationRule: the city's procedure, not a provision

    def boundaries(self) -> set[dt.date]:
        days: set[dt.date] = set()
        for provision in self.provisions.values():
            for version in provision.versions:
                for day in (version.in_force.start, version.in_force.end):
                    if day is not None:
                        days.add(day)
        for defect in self.defects:
            for day in (defect.applies.start, defect.applies.end):
                if day is not None:
                    days.add(day)
        return days
