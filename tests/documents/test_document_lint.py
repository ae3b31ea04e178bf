"""The document lint (issue 18) over every document type of every installed pack.

Rendered once for the module: the demo of both cities (`load_demo`: Battle Lake's and Tracy's documents, and
the state's in Tracy, which uses the state's notices for a dangerous dog); the state's documents again in a
fixture city written over the state pack alone (Lakeview, tests/law/lakeview.py: Tracy's state story played
there, so no city wording stands between the state's documents and the lint); the owner's documents in
Spanish (the demo stories that issue them, played again for an owner who reads Spanish); and one notice whose
owner's name is written in five scripts. Each PDF is read back with pdftotext and each rule of
tests/documents/lint.py is run on it (the Spanish rule also on the HTML the PDF was rendered from); a test per
rule lists every finding as `pack doc_type: rule: excerpt`.

The lint covers the document types the packs define: the coverage test fails when a pack gains a type that
nothing here renders (a form printed as a page of a notice is rendered with its notice).

Everything is written inside one transaction, rolled back at the end of the module's setup: the tests read
only the PDFs and what was gathered beside them, and no other test sees the records.
"""

from __future__ import annotations

import dataclasses
import shutil
import subprocess
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from django.db import transaction
from django.test import override_settings
from django.utils import timezone

from tests.documents import lint

# the test database is set up for marked tests only: the module's setup writes (and rolls back) in it
pytestmark = pytest.mark.django_db

# An owner's name in Latin (with a diaeresis), Cyrillic, Chinese and Arabic script, and an emoji.
FIVE_SCRIPTS = "Zoë Ольга Петрова 王小明 محمد 🐕"
LAKEVIEW = "lakeview-mn"


@dataclass(frozen=True)
class Rendered:
    """One issued PDF and what the rules need beside it."""

    source: str  # "demo", "fixture city", "Spanish", "five scripts"
    pack: str  # the pack whose document type it is
    jurisdiction: str
    doc_type: str
    audience: str
    number: str
    language: str
    pdf: bytes
    text: str  # pdftotext -raw
    html: str  # the HTML the PDF was rendered from (dogcase.documents.render.render_html)
    pages: tuple[tuple[str, str], ...]  # (pack, doc_type) of the document and each form printed with it
    statements: tuple[tuple[str, bool], ...]  # printed headings, and whether each carries a required element
    typed: tuple[str, ...]  # values people typed into the case's records
    names: tuple[str, ...]  # proper names: the city's, its offices'

    @property
    def label(self) -> str:
        return f"{self.pack} {self.doc_type}"


def pdftotext(data: bytes) -> str:
    exe = shutil.which("pdftotext")
    if exe is None:
        pytest.fail("pdftotext is missing: scripts/system-packages.sh installs poppler-utils")
    out = subprocess.run([exe, "-raw", "-", "-"], input=data, capture_output=True, check=True)  # noqa: S603 — fixed arguments
    return out.stdout.decode()


# ------------------------------------------------------------------------------------------------ the packs


def pack_identifiers(folder: Path) -> set[str]:
    """Every identifier the packs' YAML holds: its keys, its ids, the values that are identifiers (a step, a
    deadline, an event named in a list) and the `{sources}` of its templates."""
    import re

    out: set[str] = set()

    def walk(node) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                out.add(str(key))
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
        elif isinstance(node, str):
            out.update(re.findall(r"\{([^{}\s]+)\}", node))
            if re.fullmatch(r"[A-Za-z0-9][\w.\-]*", node) and not re.fullmatch(r"[\d.\-]+", node):
                out.add(node)

    for path in sorted(folder.glob("*/pack.yaml")):
        walk(yaml.safe_load(path.read_text(encoding="utf-8")))
        out.add(path.parent.name)
    for path in sorted(folder.glob("*.yaml")):
        walk(yaml.safe_load(path.read_text(encoding="utf-8")))
    return out


def engine_like(identifiers: Iterable[str]) -> set[str]:
    """The identifiers the rule looks for by name: with a dot or a dash, and a part of three lower-case letters
    or more (`owner.request_hearing`, `H.filing`, `tracy-mn`) — not those that read as a citation (`5.F`,
    `B.2.a`, `347.541.3`)."""
    import re

    return {i for i in identifiers if re.search(r"[.\-]", i) and re.search(r"(?:^|[.\-_])[a-z]{3,}", i)}


def law_words(library) -> tuple[list[str], list[str]]:
    """The law's words as the packs hold them (every provision's text, of every layer), and its citations as
    the documents print them."""
    texts: dict[str, None] = {}
    citations: dict[str, None] = {}
    for j in library.jurisdictions.values():
        for v in j.all_versions():
            if v.text:
                texts[str(v.text)] = None
            if v.citation:
                citations[str(v.citation)] = None
    return list(texts), list(citations)


# ------------------------------------------------------------------------------------------------ rendering


# the "pack" of dogcase's own documents (a receipt, a statement of charges) in the lint's findings
OWN = "dogcase"


def _make_users(cities: Iterable[str]) -> dict:
    """The demo's staff (the usernames `load_demo` looks for), working for `cities`."""
    from django.contrib.auth.models import Group, User

    from dogcase.cases.models import CityAccess
    from dogcase.cases.roles import ROLES_BY_GROUP
    from dogcase.demo.offices import appoint_by_role

    users = {}
    for group in (
        "animal_control_officer",
        "police_officer",
        "city_clerk",
        "hearing_officer",
        "council_clerk",
        "administrator",  # the demo's fee schedule: its receipts and statements are linted too
    ):
        role = ROLES_BY_GROUP[group]
        user = User.objects.create(username=role.demo_username)
        user.set_unusable_password()
        user.save()
        user.groups.add(Group.objects.get_or_create(name=group)[0])
        for city in cities:
            CityAccess.objects.create(user=user, jurisdiction=city)
        appoint_by_role(user, cities)
        users[role.demo_username] = user
    return users


def _typed(case) -> list[str]:
    """What people typed into the case's records (and the city's offices): names, addresses, the narrative,
    the reasons — text dogcase prints as it was written."""
    from dogcase.documents.models import CityOffice

    out: list[str] = []
    dog = case.dog
    out += [dog.name, dog.breed, dog.colour, dog.microchip_manufacturer, dog.microchip_number]
    for ownership in dog.ownerships.select_related("person"):
        p = ownership.person
        out += [p.full_name, p.street, p.city_name, p.state, p.postal_code, p.phone, p.email]
    if dog.premises_id:
        premises = dog.premises
        out += [premises.street, premises.unit, premises.city_name, premises.postal_code]
        if premises.landlord_id:
            out.append(premises.landlord.full_name)
    incident = case.incident
    out += [incident.place, incident.narrative]
    out += [v.name for v in incident.victims.all()]
    for w in incident.witnesses.all():
        out += [w.name, w.contact, w.statement]

    def strings(value) -> Iterable[str]:
        if isinstance(value, str):
            if " " in value.strip():
                yield value
        elif isinstance(value, dict):
            for v in value.values():
                yield from strings(v)
        elif isinstance(value, list | tuple):
            for v in value:
                yield from strings(v)

    for event in case.events.all():
        out += list(strings((event.data or {}).get("inputs", {})))
        if event.actor_id:
            out.append(event.actor.get_full_name())
    for office in CityOffice.objects.filter(jurisdiction=case.jurisdiction):
        out += [office.address, office.telephone]
    return [v for v in out if v and v.strip()]


def _names(j) -> list[str]:
    out = [j.name, getattr(j, "short_name", "") or "", "Minnesota"]
    out += [
        str(o.get("name") or "") for o in (getattr(j, "offices", None) or {}).values() if isinstance(o, dict)
    ]
    letterhead = getattr(j, "letterhead", None) or {}
    if isinstance(letterhead, dict):
        out.append(str(letterhead.get("name") or ""))
    return [n for n in out if n]


def _statements(draft, j, doc) -> tuple[tuple[str, bool], ...]:
    """The printed headings, in order, and whether each statement carries a required element: from the draft
    the document was rendered from (its attachments' after it)."""
    if draft is not None:
        out = []
        for d in [draft, *draft.attachments]:
            out += [(s.heading, bool(s.elements or s.element)) for s in d.sections if s.heading]
        return tuple(out)
    day = timezone.localtime(doc.issued_at).date()
    return tuple(
        (s.heading, bool(s.element))
        for t in j.document_pages(doc.doc_type, day)
        for s in t.sections
        if s.heading
    )


def _rendered(doc, source: str, drafts: dict, htmls: dict) -> Rendered:
    from dogcase.cases.files import open_blob
    from dogcase.law import library

    j = library().get(doc.jurisdiction)
    day = timezone.localtime(doc.issued_at).date()
    if doc.correctable:
        pages = tuple((t.pack, t.id) for t in j.document_pages(doc.doc_type, day))
    else:  # a receipt or a statement of charges: dogcase's own document, linted like the packs'
        pages = ((OWN, doc.doc_type),)
    with open_blob(doc.blob) as f:
        data = f.read()
    return Rendered(
        source=source,
        pack=pages[0][0],
        jurisdiction=doc.jurisdiction,
        doc_type=doc.doc_type,
        audience=doc.audience,
        number=doc.number,
        language=doc.language or "en",
        pdf=data,
        text=pdftotext(data),
        html=htmls[doc.verification_code],
        pages=pages,
        statements=_statements(drafts.get(doc.verification_code), j, doc),
        typed=tuple(_typed(doc.case)),
        names=tuple(_names(j)),
    )


def _story_of(case, stories):
    owner = case.dog.ownerships.order_by("id").first()
    name = owner.person.full_name if owner else ""
    return next((s for s in stories if s.owner == name), None)


def _spanish_cover(docs, stories_of) -> dict[str, list]:
    """For each city, the fewest demo stories (in order) that together issue every owner document the demo
    issues there."""
    wanted: dict[str, dict[str, set[str]]] = {}
    for d in docs:
        if d.audience != "owner":
            continue
        story = _story_of(d.case, stories_of[d.jurisdiction])
        if story is not None:
            wanted.setdefault(d.jurisdiction, {}).setdefault(story.owner, set()).add(d.doc_type)
    out: dict[str, list] = {}
    for city, by_story in wanted.items():
        left = set().union(*by_story.values())
        chosen = []
        while left:
            best = max(by_story, key=lambda owner: len(by_story[owner] & left))
            chosen.append(next(s for s in stories_of[city] if s.owner == best))
            left -= by_story.pop(best)
        out[city] = chosen
    return out


def _in_another_room(story):
    """The story played again for another owner, its hearings in another room: the same room at the same time
    as the first playing's hearing is refused as double-booked (issue 20, item 8)."""
    steps = [
        (
            step,
            who,
            day,
            {**inputs, "place": f"{inputs['place']} (hearing room 2)"}
            if "place" in inputs and step.startswith("schedule")
            else inputs,
        )
        for step, who, day, inputs in story.steps
    ]
    return dataclasses.replace(story, steps=steps, owner_language="es")


def _state_story():
    """Tracy's story of the state's law (a dangerous dog, its hearing, a notice of intended destruction), as
    Lakeview plays it: without the steps Lakeview's law withdraws (its registration)."""
    from dogcase.demo.tracy_stories import tracy
    from dogcase.law import library

    story = next(s for s in tracy() if any(step[0] == "serve_destruction_notice" for step in s.steps))
    known = set(library().get(LAKEVIEW).step_ids())
    return dataclasses.replace(story, steps=[step for step in story.steps if step[0] in known])


def render_everything(media: Path) -> tuple[list[Rendered], dict]:
    from dogcase.demo import load_demo
    from dogcase.demo.seed import STORIES, play
    from dogcase.documents import render
    from dogcase.documents.models import IssuedDocument
    from dogcase.law.loader import Library
    from tests.law.lakeview import install_lakeview
    from tests.packs_library import use_library

    timings: dict[str, float] = {}
    drafts: dict[str, object] = {}
    htmls: dict[str, str] = {}
    real_render_pdf = render.render_pdf
    real_render_html = render.render_html

    def spy(draft, *args, **kwargs):
        drafts[kwargs.get("code", "")] = draft
        return real_render_pdf(draft, *args, **kwargs)

    def html_spy(draft, *args, **kwargs):  # render_pdf renders its HTML here
        html = real_render_html(draft, *args, **kwargs)
        htmls[kwargs.get("code", "")] = html
        return html

    out: list[Rendered] = []
    seen: set[int] = set()

    def collect(source: str) -> None:
        for doc in IssuedDocument.objects.order_by("id").select_related("case"):
            if doc.pk not in seen:
                seen.add(doc.pk)
                out.append(_rendered(doc, source, drafts, htmls))

    with (
        override_settings(MEDIA_ROOT=media),
        pytest.MonkeyPatch.context() as patch,
        transaction.atomic(),
    ):
        use_library(patch, Library(install_lakeview(media.parent / "packs")))
        patch.setattr(render, "render_pdf", spy)
        patch.setattr(render, "render_html", html_spy)
        users = _make_users(["battle-lake-mn", "tracy-mn", LAKEVIEW])

        started = time.monotonic()
        load_demo()
        for user in users.values():
            user.refresh_from_db()  # the names the demo gave its users, which documents print
        collect("demo")
        timings["demo"] = time.monotonic() - started

        started = time.monotonic()
        play(LAKEVIEW, _state_story(), users)
        collect("fixture city")
        timings["fixture city"] = time.monotonic() - started

        started = time.monotonic()
        stories_of = {city: stories() for city, stories in STORIES.items()}
        demo_docs = IssuedDocument.objects.filter(pk__in=seen, jurisdiction__in=stories_of).select_related(
            "case"
        )
        for city, stories in _spanish_cover(demo_docs, stories_of).items():
            for story in stories:
                play(city, _in_another_room(story), users)
        play(LAKEVIEW, _in_another_room(_state_story()), users)
        collect("Spanish")
        timings["Spanish"] = time.monotonic() - started

        started = time.monotonic()
        # the first Battle Lake story that serves a notice, up to the notice
        story = next(
            s for s in stories_of["battle-lake-mn"] if any(step[0] == "serve_notice" for step in s.steps)
        )
        served = next(i for i, step in enumerate(story.steps) if step[0] == "serve_notice")
        play(
            "battle-lake-mn",
            dataclasses.replace(story, owner=FIVE_SCRIPTS, steps=story.steps[: served + 1]),
            users,
        )
        collect("five scripts")
        timings["five scripts"] = time.monotonic() - started

        transaction.set_rollback(True)
    return out, timings


@pytest.fixture(scope="module")
def rendered(django_db_setup, django_db_blocker, tmp_path_factory) -> list[Rendered]:
    with django_db_blocker.unblock():
        docs, timings = render_everything(tmp_path_factory.mktemp("lint") / "media")
    print("rendering:", ", ".join(f"{k} {v:.1f} s" for k, v in timings.items()), f"({len(docs)} documents)")
    return docs


@pytest.fixture(scope="module")
def shipped():
    from dogcase.law.loader import PACKS_DIR, Library

    return Library(PACKS_DIR)


@dataclass(frozen=True)
class Known:
    law: list[str]  # the law's words (the provisions' text)
    citations: list[str]
    identifiers: set[str]  # the engine's identifiers the rule looks for by name
    own: list[str]  # dogcase's own words around the instrument, in English (with their {sources})
    untranslated: list[str]  # the Spanish words that say a text was left in English


# what the Spanish explanation of "What happens next" says of a line or a consequence the catalogue does not
# translate (dogcase.documents.next_steps)
LEFT_IN_ENGLISH = (
    "(this step is written in English only, above)",
    "(another ground, written in English only, above)",
    "(another consequence, written in English only, above)",
    "If this is not done in time, the law allows what follows (in English above).",
)


def own_words(library) -> list[str]:
    """dogcase's words around the instrument, in English: the block "Your case online" (dogcase's wording and
    every pack's own), and what a posted notice prints instead of the code."""
    from dogcase.owners import notice

    out = {notice.PORTAL_TEXT: None, notice.WITHHELD: None}
    for j in library.jurisdictions.values():
        for t in j.all_document_types(timezone.localdate()):
            for section in t.sections:
                text = str(section.text or "")
                if section.heading == notice.PORTAL_HEADING or "{portal." in text:
                    out[" ".join(text.split())] = None
    return list(out)


def left_in_english() -> list[str]:
    from django.utils import translation
    from django.utils.translation import gettext

    with translation.override("es"):
        spanish = [gettext(m) for m in LEFT_IN_ENGLISH]
    missing = [m for m, es in zip(LEFT_IN_ENGLISH, spanish, strict=True) if m == es]
    assert not missing, f"not in the catalogue any more (dogcase.documents.next_steps changed?): {missing}"
    return spanish


@pytest.fixture(scope="module")
def known(shipped) -> Known:
    law, citations = law_words(shipped)
    identifiers = engine_like(pack_identifiers(shipped_folder()))
    return Known(law, citations, identifiers, own_words(shipped), left_in_english())


# ------------------------------------------------------------------------------------------------ the tests


def test_every_document_type_of_every_installed_pack_is_rendered(rendered, shipped):
    today = timezone.localdate()
    defined = {(t.pack, t.id) for j in shipped.jurisdictions.values() for t in j.all_document_types(today)}
    printed = {page for r in rendered for page in r.pages if page[0] != OWN}
    assert {r.doc_type for r in rendered if r.pack == OWN} == {"receipt", "statement_of_charges"}
    assert defined, "the packs define no document type"
    assert printed == defined, (
        f"rendered by no test: {sorted(defined - printed)}; not a type of the installed packs: "
        f"{sorted(printed - defined)}"
    )
    # the state's documents in a city over the state pack alone, and every owner's document in Spanish too
    assert {r.pack for r in rendered if r.source == "fixture city"} == {"mn-statute"}
    owners = {(r.pack, r.doc_type) for r in rendered if r.audience == "owner"}
    spanish = {(r.pack, r.doc_type) for r in rendered if r.language == "es"}
    assert owners and owners <= spanish, f"never issued in Spanish: {sorted(owners - spanish)}"


def findings(rendered: list[Rendered], rule: str, known: Known) -> list[str]:
    """Every finding of the rule, as `pack doc_type: rule: excerpt` (`(es)` after a document in Spanish)."""
    out: dict[str, None] = {}
    for r in rendered:
        if rule == "doubled-word":
            found = lint.doubled_words(r.text, headings=[h for h, _ in r.statements], typed=r.typed)
        elif rule == "double-period":
            found = lint.double_periods(r.text)
        elif rule == "engine-identifier":
            found = lint.engine_identifiers(r.text, known.identifiers)
        elif rule == "unfilled-placeholder":
            found = lint.unfilled_placeholders(r.text)
        elif rule == "relative-url":
            found = lint.relative_urls(r.text)
        elif rule == "optional-on-required":
            found = lint.optional_on_required(r.text, r.statements)
        elif rule == "english-in-spanish":
            if r.language != "es":
                continue
            found = lint.english_in_spanish(
                r.html,
                r.text,
                law=known.law,
                typed=r.typed,
                names=[*r.names, *known.citations],
                own=known.own,
                untranslated=known.untranslated,
            )
        elif rule == "missing-glyph":
            found = lint.missing_glyphs(r.pdf, r.text)
        else:
            raise AssertionError(f"no such rule: {rule}")
        for f in found:
            out[f"{r.label}{' (es)' if r.language == 'es' else ''}: {f}"] = None
    return sorted(out)


def shipped_folder() -> Path:
    from dogcase.law.loader import PACKS_DIR

    return Path(PACKS_DIR)


@pytest.mark.parametrize("rule", lint.RULES)
def test_no_document_breaks_the_rule(rendered, known, rule):
    found = findings(rendered, rule, known)
    assert not found, f"{len(found)} finding(s):\n" + "\n".join(found)


def test_a_name_in_five_scripts_is_printed_and_drawn(rendered):
    notices = [r for r in rendered if r.source == "five scripts"]
    assert notices, "the notice to an owner with a name in five scripts was not issued"
    for r in notices:
        printed = "".join(r.text.split())
        for part in FIVE_SCRIPTS.split():
            assert part in printed, (r.label, part)
        assert lint.missing_glyphs(r.pdf, r.text) == [], r.label


def test_a_name_in_a_right_to_left_script_is_printed_whole_wherever_it_is_printed(rendered):
    """A name that ends in Arabic must not take what follows it into its right-to-left run: printed as
    "{owner.name}, {owner.address}" without isolating the name, the comma and the house number moved into the
    name ("王小明 310 ,🐕 محمد Main Street"). Wherever the name starts, the whole name follows, in order."""
    import re

    def logical(text: str) -> str:  # pdftotext's reading order, its bidirectional marks and spaces taken out
        return re.sub(r"[\s\u200e\u200f\u202a-\u202e\u2066-\u2069]", "", text)

    notices = [r for r in rendered if r.source == "five scripts"]
    assert notices
    for r in notices:
        text = logical(r.text)
        starts, whole = text.count("Zoë"), text.count(logical(FIVE_SCRIPTS))
        printed = [line for line in r.text.splitlines() if "Zoë" in line]
        assert starts and whole == starts, f"{r.label}: the name is printed out of order: {printed}"
