"""Documents the law requires (docs/law-packs.md, "Documents"): the pack's `documents:` section, read and
checked, layered city over state with the state floor, and the vocabulary of the `{…}` sources a
document's wording may use. Pure Python: the documents app (dogcase/documents) fills the sources from the
case and renders the letter; this package says what each document must say and checks that it does.

By concern: sources.py (the `{…}` vocabulary), model.py (the types, as written and layered), parsing.py (a
pack's `documents:`, offices and letterhead), engine.py (`DocumentEngine`). Modules outside the package
import from here."""

from .engine import DocumentEngine
from .model import DocumentDef, DocumentType, OwnElement, Section, SectionDef
from .parsing import parse_documents, parse_offices
from .sources import (
    OFFICE_FIELDS,
    SOURCES,
    check_source_names,
    describe_source,
    missing_message,
    placeholders,
    source_family,
)

__all__ = [
    "OFFICE_FIELDS",
    "SOURCES",
    "DocumentDef",
    "DocumentEngine",
    "DocumentType",
    "OwnElement",
    "Section",
    "SectionDef",
    "check_source_names",
    "describe_source",
    "missing_message",
    "parse_documents",
    "parse_offices",
    "placeholders",
    "source_family",
]
