"""A pack's `documents:` section, and its offices and letterhead, read and checked within the pack."""

from __future__ import annotations

from typing import Any

from ..schema import Where
from .model import DocumentDef, OwnElement, SectionDef
from .sources import check_source_names


def _text(value: str) -> str:
    """Wording as written, one paragraph per line break YAML kept (in a folded `>-` text, a blank line), the
    paragraphs separated by a blank line."""
    return "\n\n".join(" ".join(p.split()) for p in value.strip().split("\n") if p.strip())


def parse_documents(raw: Any, where: Where, pack_id: str, layer: str) -> tuple[DocumentDef, ...]:
    """The `documents:` list of one pack, checked within the pack (references to notices, steps and
    provisions are checked when the jurisdiction is built)."""
    out: list[DocumentDef] = []
    seen: dict[str, int] = {}
    lines = getattr(raw, "item_lines", None) or []
    for index, item in enumerate(raw):
        line = raw.line_of(index) if hasattr(raw, "line_of") else (lines[index] if index < len(lines) else 0)
        here = where.at(index, line)
        did = item["id"]
        if did in seen:
            raise here.at("id", item.line_of("id")).fail(
                f"document id {did!r} is used twice (first at line {seen[did]})"
            )
        seen[did] = line or 0
        sections: list[SectionDef] = []
        for s_index, s in enumerate(item["sections"]):
            s_line = item["sections"].line_of(s_index)
            swhere = here.at("sections", item.line_of("sections")).at(s_index, s_line)
            check_source_names(s["text"], swhere.at("text", s.line_of("text")))
            if "heading" in s:
                check_source_names(s["heading"], swhere.at("heading", s.line_of("heading")))
            element = s.get("element")
            elements = () if element is None else (element,) if isinstance(element, str) else tuple(element)
            sections.append(
                SectionDef(
                    elements=elements,
                    heading=" ".join(s["heading"].split()) if "heading" in s else None,
                    text=_text(s["text"]),
                    when=s.get("when"),
                    line=s_line or line,
                    provision=(
                        (s["provision"] if ":" in s["provision"] else f"{pack_id}:{s['provision']}")
                        if "provision" in s
                        else None
                    ),
                )
            )
        check_source_names(item["title"], here.at("title", item.line_of("title")))
        own: list[OwnElement] = []
        for e_index, e in enumerate(item.get("elements", ())):
            e_line = item["elements"].line_of(e_index)
            if any(x.id == e["id"] for x in own):
                raise here.at("elements", e_line).fail(f"element {e['id']!r} is listed twice")
            provision = e["provision"]
            own.append(
                OwnElement(
                    id=e["id"],
                    text=" ".join(e["text"].split()),
                    provision=provision if ":" in provision else f"{pack_id}:{provision}",
                    when=e.get("when"),
                    line=e_line or line,
                )
            )
        out.append(
            DocumentDef(
                pack=pack_id,
                layer=layer,
                id=did,
                title=" ".join(item["title"].split()),
                for_=tuple(item["for"]) if "for" in item else None,
                issued_by=tuple(item.get("issued_by", ())),
                notices=tuple(item.get("notices", ())),
                audience=item.get("audience", "owner"),
                provisions=tuple(p if ":" in p else f"{pack_id}:{p}" for p in item.get("provisions", ())),
                sections=tuple(sections),
                attachments=tuple(item.get("attachments", ())),
                elements=tuple(own),
                replaces=tuple(item.get("replaces", ())),
                file=where.file,
                line=line or 0,
                key_lines={k: item.line_of(k) for k in item},
            )
        )
    return tuple(out)


def parse_offices(jur: Any) -> tuple[dict[str, dict[str, Any]], dict[str, Any] | None]:
    offices = {
        oid: {"id": oid, "name": o["name"], "address": o.get("address"), "telephone": o.get("telephone")}
        for oid, o in (jur.get("offices") or {}).items()
    }
    head = jur.get("letterhead")
    letterhead = (
        {"name": head["name"], "address": head.get("address"), "telephone": head.get("telephone")}
        if head
        else None
    )
    return offices, letterhead
