"""The owner's page in Spanish (issue 18, documents item 14): the city, the designation, the obligations and what
follows if one is missed, the hearing line, the documents and the history in Spanish, every date written the
Spanish way; the law's English words kept beside them, and "(en inglés)" said only of a text that really is
English. An English owner's page is unchanged."""

import datetime as dt
import re

import pytest
import time_machine
from django.test import Client

from dogcase.cases import outcomes, updates
from dogcase.cases.translation import owner_words
from dogcase.documents.words import translated
from dogcase.law import library
from dogcase.owners import codes
from tests.documents.conftest import SERIOUS, at, make_case, media, on  # noqa: F401  (fixtures)
from tests.packs_library import shipped_pack_ids

ENGLISH_DATE_WORDS = re.compile(
    r"\b(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|March|April|June|July|"
    r"August|September|October|November|December)\b|\b[ap]\.m\.|\d:\d\d h\b"
)


def _text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).replace("&#x27;", "'").split())


def _section(html: str, heading_id: str) -> str:
    """The card of the owner's page whose heading has this id."""
    found = re.search(
        rf'<section class="card" aria-labelledby="{heading_id}">(.*?)</section>', html, re.DOTALL
    )
    assert found, heading_id
    return found.group(1)


def _hearing_scheduled(make_case, language: str):  # noqa: F811
    """A dangerous dog's case: declared on June 2, 2026, served on June 3; the owner asked for a hearing on
    June 6, and on June 7 the hearing was set for Tuesday, June 16, 2026 at 2 p.m."""
    c = make_case(facts=SERIOUS)
    if language != "en":
        updates.update_person(
            c.owner, actor=c.staff["officer"], changes={"preferred_language": language}, reason="Asked for it"
        )
    c.declare(designation="dangerous")
    c.serve(received_on=on(2))
    c.step("receive_hearing_request", "clerk", 5, received_on=on(5))
    c.step(
        "schedule_hearing",
        "clerk",
        6,
        hearing_at=at(15, 14).isoformat(),
        place="City Hall, 105 Main Street",
        hearing_officer=str(c.staff["hearing"].pk),
    )
    return c


def _owners_page(c) -> str:
    """The owner's page as the owner reads it on June 9, 2026."""
    with time_machine.travel(at(8, 10), tick=False):
        _row, code = codes.issue_code(c.case, c.owner, actor=c.staff["officer"])
        client = Client()
        assert client.post("/owner/", {"code": code, "fact": "Rexford"}).status_code == 302
        page = client.get(f"/owner/cases/{c.case.number}/")
    assert page.status_code == 200
    return page.content.decode()


@pytest.fixture
def spanish_page(make_case):  # noqa: F811
    return _owners_page(_hearing_scheduled(make_case, "es"))


def test_the_city_and_the_day_are_spanish(spanish_page):
    head = _text(spanish_page.split('<section class="card"', 1)[0])
    assert "Ciudad de Battle Lake, Minnesota · situación al martes 9 de junio de 2026" in head
    assert "City of" not in head and not ENGLISH_DATE_WORDS.search(head)


def test_the_designation_is_spanish_with_the_laws_english_term_beside_it(spanish_page):
    card = _text(_section(spanish_page, "designation-h"))
    inline = " ".join(re.sub(r"<[^>]+>", "", _section(spanish_page, "designation-h")).split())
    assert "Rexford ha sido declarado perro peligroso (en inglés: dangerous dog)." in inline
    assert "Declarado el martes 2 de junio de 2026." in card


def test_the_hearing_line_is_spanish(spanish_page):
    card = _section(spanish_page, "hearing-h")
    assert (
        "Audiencia programada: <strong>martes 16 de junio de 2026, a las 14:00</strong>, en City Hall, 105 Main Street"
        in card
    )
    assert not ENGLISH_DATE_WORDS.search(_text(card)) and "Scheduled" not in card


def test_the_history_is_spanish(spanish_page):
    card = _section(spanish_page, "history-h")
    text = _text(card)
    # issue 20: each act as what it did, with its date (it was "martes 2 de junio de 2026 — Declarar al perro
    # potencialmente peligroso o peligroso (por la ciudad)": the step's title)
    assert "La ciudad declaró al perro peligroso el 2 de junio de 2026." in text
    assert "El dueño pidió por escrito una audiencia sobre la designación el 6 de junio de 2026." in text
    assert (
        "La ciudad fijó la audiencia de apelación y envió por correo el aviso de audiencia el 7 de junio de 2026."
        in text
    )
    assert "Declare the dog" not in text and "(en inglés)" not in text
    assert not ENGLISH_DATE_WORDS.search(text)


def test_the_documents_are_listed_in_spanish(spanish_page):
    text = _text(_section(spanish_page, "documents-h"))
    assert "Aviso: su perro ha sido declarado perro peligroso (3 de junio de 2026, PDF)" in text
    assert "Aviso de audiencia (7 de junio de 2026, PDF)" in text
    assert "2026-06-0" not in text and "(en inglés)" not in text


def test_the_obligations_explain_their_consequences_in_spanish(spanish_page):
    card = _section(spanish_page, "obligations-h")
    spanish = " ".join(_text(p) for p in re.findall(r'<p[^>]*lang="es"[^>]*>(.*?)</p>', card, re.DOTALL))
    assert "Usted debe hacer esto a más tardar el jueves 2 de julio de 2026" in spanish
    assert "Incautación del perro, autorizada por" in spanish
    assert "el dueño no hizo esterilizar al perro dentro de 30 días" in spanish
    assert not ENGLISH_DATE_WORDS.search(spanish)
    text = _text(card)
    assert "A más tardar el jueves 2 de julio de 2026" in text
    # the law's English is still there, said to be English
    assert "Si no se cumple (en inglés): Seizure authorized under" in text


def test_a_text_without_a_translation_is_shown_in_english_and_said_so(make_case, monkeypatch):  # noqa: F811
    c = _hearing_scheduled(make_case, "es")
    # issue 20: the history says what each act did (the pack's `outcome:`), translated by the catalogue
    untranslated = "The city declared the dog dangerous"
    real = outcomes.translated
    monkeypatch.setattr(
        "dogcase.cases.outcomes.translated",
        lambda text, language: None if text == untranslated else real(text, language),
    )
    card = _section(_owners_page(c), "history-h")
    assert f'<span lang="en">{untranslated} on 2 June 2026.</span> (en inglés)' in card
    assert _text(card).count("(en inglés)") == 1  # the translated acts are not said to be English


def test_an_english_owners_page_is_unchanged(make_case):  # noqa: F811
    html = _owners_page(_hearing_scheduled(make_case, "en"))
    assert "City of Battle Lake, Minnesota · as of Tuesday, 9 June 2026" in _text(html)
    assert "has been declared a <strong>dangerous dog</strong>." in html
    assert (
        "Scheduled hearing: <strong>Tuesday, 16 June 2026, 2:00 p.m.</strong>, City Hall, 105 Main Street"
        in _section(html, "hearing-h")
    )
    documents = _text(_section(html, "documents-h"))
    assert "Notice of hearing (2026-06-07, PDF)" in documents
    history = _text(_section(html, "history-h"))
    # issue 20: what the act did, with its date (it was "Tuesday, 2 June 2026 — Declare the dog potentially
    # dangerous or dangerous (by the city)")
    assert "The city declared the dog dangerous on 2 June 2026." in history
    assert "inglés" not in html and "Ciudad" not in html


# ----------------------------------------------------------- every word of the packs the page shows, translated


def _pack_words() -> dict[str, set[str]]:
    """What the owner's pages show of the shipped packs (dogcase.cases.translation.owner_words): the shipped
    catalogue must translate all of it. A server's own pack may leave words untranslated: they show in English,
    said so, and `dogcase law check` lists them."""
    day = dt.date(2026, 6, 1)
    words: dict[str, set[str]] = {}
    for city in shipped_pack_ids():
        for kind, texts in owner_words(library().get(city), day).items():
            words.setdefault(kind, set()).update(texts)
    return words


def test_every_word_of_the_packs_the_owners_page_shows_has_its_spanish():
    missing = [
        f"{kind}: {text}"
        for kind, texts in _pack_words().items()
        for text in sorted(texts)
        if translated(text, "es") is None
    ]
    assert all(_pack_words().values())
    assert not missing, "add to dogcase/locale/es/LC_MESSAGES/django.po:\n" + "\n".join(missing)
