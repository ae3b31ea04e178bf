"""The documents' types: a document as one pack writes it, and as layered (its statements and the elements
the law requires of it)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..procedure import Condition
from .sources import placeholders

# ------------------------------------------------------------------------------------------- as written


@dataclass(frozen=True)
class SectionDef:
    elements: tuple[str, ...]  # element refs as written: "id" or "notice_id.element_id"
    heading: str | None
    text: str
    when: Any  # the raw condition (parsed by the engine), or None
    line: int
    provision: str | None = None  # the clause cited beside the statement (default: its element's provision)


@dataclass(frozen=True)
class OwnElement:
    id: str
    text: str
    provision: str  # provision key
    when: Any
    line: int


@dataclass(frozen=True)
class DocumentDef:
    """A document type as one pack writes it (before layering)."""

    pack: str
    layer: str
    id: str
    title: str
    for_: tuple[str, ...] | None
    issued_by: tuple[str, ...]
    notices: tuple[str, ...]
    audience: str
    provisions: tuple[str, ...]  # provision keys
    sections: tuple[SectionDef, ...]
    attachments: tuple[str, ...]
    elements: tuple[OwnElement, ...]
    file: str
    line: int
    replaces: tuple[str, ...] = ()  # state documents of other ids it stands in for, where it reaches the case
    key_lines: Mapping[str, int] = field(default_factory=dict)

    def line_of(self, key: str) -> int:
        return self.key_lines.get(key, self.line)


# ------------------------------------------------------------------------------------------- layered


@dataclass(frozen=True)
class Section:
    """One statement of a document, after layering. `element` is the element value the section carries
    ("<provision key>/<element id>", the value the act's `contents` check takes); `elements` every element it
    carries (a city section may state a city element and the state's same element at once)."""

    element: str | None
    element_text: str | None  # the law's words for the element
    citation: dict[str, Any] | None  # the provision that requires it (or, for free text, None)
    heading: str | None
    text: str  # the template, with {sources}
    sources: tuple[str, ...]
    when: Condition | None  # the section's condition, else its element's (None: always)
    layer: str  # "city" | "state"
    elements: tuple[str, ...] = ()
    appended: bool = False  # added by the state floor: the city's document did not state the element
    line: int = 0
    file: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {
            "element": self.element,
            "elements": list(self.elements),
            "element_text": self.element_text,
            "citation": dict(self.citation) if self.citation else None,
            "heading": self.heading,
            "text": self.text,
            "sources": list(self.sources),
            "when": self.when.as_dict() if self.when is not None else None,
            "layer": self.layer,
            "appended": self.appended,
        }


@dataclass(frozen=True)
class DocumentType:
    id: str
    title: str
    audience: str
    for_: tuple[str, ...] | None
    issued_by: tuple[str, ...]
    provisions: tuple[dict[str, Any], ...]  # cites of the clauses it is issued under
    attachments: tuple[str, ...]
    sections: tuple[Section, ...]
    notices: tuple[str, ...]  # notice ids whose elements it must contain (any layer)
    required: tuple[dict[str, Any], ...]  # every element it must contain: {value, label, provision, when}
    layer: str
    pack: str
    file: str
    line: int

    @property
    def sources(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(n for s in self.sections for n in (*placeholders(self.title), *s.sources)))

    def reaches(self, designation: str | None) -> bool:
        return self.for_ is None or designation in self.for_

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "audience": self.audience,
            "for": list(self.for_) if self.for_ is not None else None,
            "issued_by": list(self.issued_by),
            "provisions": [dict(p) for p in self.provisions],
            "attachments": list(self.attachments),
            "notices": list(self.notices),
            "layer": self.layer,
            "sections": [s.as_dict() for s in self.sections],
        }
