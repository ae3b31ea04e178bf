"""The shipped packs speak to people in plain words: every sentence a pack puts on a staff, owner or Law page —
a problem in the law's text and dogcase's reading of it, a provision's heading, a duty's or a setting's `what`,
a step's label, an input's label, a refusal's `why`, a note — names no engine identifier. Event ids, deadline
ids, setting ids, fact ids, YAML keys, file names and the ids of the problems themselves stay behind the city
attorney's fold (DESIGN principle 9)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
import yaml

from dogcase.law import library
from dogcase.law.loader import PACKS_DIR

SHIPPED = ("mn-statute", "battle-lake-mn", "tracy-mn")

# Keys whose value is text for people even when it is a single word; any other string that holds a space is a
# sentence too, whatever its key (a fact's choice label, a "when" in words, an exclusion in words).
TEXT_KEYS = frozenset(
    {
        "confirm",
        "description",
        "differs_from_state",
        "heading",
        "help",
        "history",
        "label",
        "name",
        "note",
        "notes",
        "only_after",
        "question",
        "reading",
        "reason",
        "short_name",
        "term",
        "text",
        "title",
        "what",
        "why",
    }
)

# A snake_case word (hearing_closed, set_by), a dotted lower-case name (owner.reclaim, calendar.observes,
# facts.yaml), or a backtick (`concerns: person`).
IDENTIFIER = re.compile(r"`|\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b|\b[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)+\b")

# Words the pattern catches that are genuinely English (none so far). Add one only with a reason.
ALLOWED: frozenset[str] = frozenset()


def _texts(node: Any, path: str, key: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _texts(v, f"{path}.{k}", str(k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _texts(v, f"{path}[{i}]", key)
    elif isinstance(node, str) and (key in TEXT_KEYS or " " in node.strip()):
        yield path, node


# A document's `{source}` (docs/law-packs.md, "Documents") is replaced by the case's value before anyone reads
# it: the words around it are what must be plain.
PLACEHOLDER = re.compile(r"\{[a-z][a-z0-9_.]*\}")


def _identifiers(text: str) -> list[str]:
    return [m for m in IDENTIFIER.findall(PLACEHOLDER.sub("", text)) if m not in ALLOWED]


def _offending(raw: Any, where: str) -> list[str]:
    return [
        f"{path}: {found} in {text!r}" for path, text in _texts(raw, where) if (found := _identifiers(text))
    ]


def _defect_ids() -> set[str]:
    return {d.id for pack in SHIPPED for d in library().get(pack).defects}


def _defect_ids_in(text: str, ids: set[str]) -> list[str]:
    return sorted(i for i in ids if re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", text))


def test_the_pattern_catches_each_kind_of_engine_identifier():
    assert _identifiers("until owner.reclaim has run") == ["owner.reclaim"]
    assert _identifiers("one event (hearing_closed)") == ["hearing_closed"]
    assert _identifiers("by steps (`concerns: person`)") == ["`", "`"]
    assert _identifiers("as in facts.yaml") == ["facts.yaml"]
    assert _identifiers("Minn. Stat. 609.02 subd. 7a; § 90.15 (C)(1)(b); Subd 4.C; 1.B.1–1.B.3") == []
    assert _identifiers("the owner's seven days to reclaim the dog") == []
    # a document's sources are filled from the case; an identifier outside the braces is still caught
    assert _identifiers("Ask by {deadline.owner.request_hearing}.") == []
    assert _identifiers("Ask by {deadline.owner.request_hearing} (owner.request_hearing).") == [
        "owner.request_hearing"
    ]


@pytest.mark.parametrize("pack", SHIPPED)
def test_every_document_a_pack_writes_reads_as_plain_words(pack):
    """The loaded documents (what the documents app prints for an owner), each section's heading and wording and
    each title, with the state floor's sections appended: no engine identifier outside a {source}."""
    import datetime as dt

    jurisdiction = library().get(pack)
    documents = jurisdiction.all_document_types(dt.date(2026, 1, 1))
    assert documents, f"{pack} writes no document"
    offending = [
        f"{doc.id}[{i}]: {found} in {text!r}"
        for doc in documents
        for i, section in enumerate(doc.sections)
        for text in (doc.title, section.heading or "", section.text)
        if (found := _identifiers(text))
    ]
    assert not offending, "\n".join(offending)


@pytest.mark.parametrize("pack", SHIPPED)
def test_a_shipped_pack_names_no_engine_identifier_in_its_words_for_people(pack):
    raw = yaml.safe_load((PACKS_DIR / pack / "pack.yaml").read_text(encoding="utf-8"))
    offending = _offending(raw, pack)
    assert not offending, "\n".join(offending)


@pytest.mark.parametrize("pack", SHIPPED)
def test_a_shipped_pack_refers_to_a_problem_in_the_text_in_words_not_by_its_id(pack):
    """A defect's id is for the city attorney's fold; a sentence that leans on a problem says which in words."""
    ids = _defect_ids()
    assert "K-destruction-hearing" in ids
    assert _defect_ids_in("as read (defect K-destruction-hearing).", ids) == ["K-destruction-hearing"]
    raw = yaml.safe_load((PACKS_DIR / pack / "pack.yaml").read_text(encoding="utf-8"))
    offending = [
        f"{path}: {found}" for path, text in _texts(raw, pack) if (found := _defect_ids_in(text, ids))
    ]
    assert not offending, "\n".join(offending)


def test_the_shared_facts_name_no_engine_identifier_in_their_questions_and_labels():
    raw = yaml.safe_load((PACKS_DIR / "facts.yaml").read_text(encoding="utf-8"))
    offending = _offending(raw, "facts.yaml")
    assert not offending, "\n".join(offending)


@pytest.mark.parametrize("pack", SHIPPED)
def test_the_defects_shown_on_staff_and_law_pages_read_as_plain_words(pack):
    """The loaded defects themselves (what the pages render), not only the file: a problem and its reading."""
    jurisdiction = library().get(pack)
    own = [d for d in jurisdiction.defects if d.pack == pack]
    assert own
    offending = [
        f"{d.id}.{field}: {found}"
        for d in own
        for field in ("text", "reading")
        if (found := _identifiers(getattr(d, field)))
    ]
    assert not offending, "\n".join(offending)
