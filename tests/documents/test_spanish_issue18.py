"""A Spanish-reading owner's documents (issue 18, documents item 14): every date and time beside the English legal
text is written the Spanish way ("lunes 30 de noviembre de 2026", "a las 14:00"), the city is named as a Spanish
reader would see it ("la Ciudad de Battle Lake"), what the law allows once a time is missed is explained in
Spanish beside the law's English words, and "(en inglés)" is said only of a text that really is English."""

import datetime as dt
import re
from zoneinfo import ZoneInfo

import pytest

from dogcase.cases import updates
from dogcase.documents.next_steps import date_words
from dogcase.documents.owner import owner_reading
from dogcase.documents.words import consequence_words, ground_words, place_name
from dogcase.law import library
from dogcase.law.procedure.words import ACT_WORDS
from tests.cases.conftest import at as story_at
from tests.cases.conftest import story  # noqa: F401
from tests.documents.conftest import SERIOUS, at, on, pdf_text
from tests.documents.test_next_steps import classified_vicious
from tests.documents.test_spanish import prefers_spanish
from tests.packs_library import shipped_pack_ids

CT = ZoneInfo("America/Chicago")
ENGLISH_DATE_WORDS = re.compile(
    r"\b(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|March|April|June|July|"
    r"August|September|October|November|December)\b|\b[ap]\.m\.|\d:\d\d h\b"
)


def _text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).replace("&#x27;", "'").split())


def _spanish_parts(html: str) -> list[str]:
    """The text of every element the document marks as Spanish (the explanation beside each English line)."""
    parts = re.findall(r'<(p|span|aside)[^>]*lang="es"[^>]*>(.*?)</\1>', html, flags=re.DOTALL)
    return [_text(inner) for _tag, inner in parts]


def _squeezed(text: str) -> str:
    return " ".join(text.split())


# ------------------------------------------------------------------------------------------ dates and times


@pytest.mark.parametrize(
    ("value", "spanish", "english"),
    [
        (dt.date(2026, 11, 30), "lunes 30 de noviembre de 2026", "Monday, 30 November 2026"),
        (dt.date(2026, 6, 2), "martes 2 de junio de 2026", "Tuesday, 2 June 2026"),
        (dt.datetime(2026, 6, 16, 14, 0, tzinfo=CT), "martes 16 de junio de 2026, a las 14:00", None),
        (dt.datetime(2026, 12, 4, 9, 5, tzinfo=CT), "viernes 4 de diciembre de 2026, a las 9:05", None),
        (dt.datetime(2026, 6, 16, 13, 30, tzinfo=CT), "martes 16 de junio de 2026, a las 13:30", None),
        (dt.datetime(2026, 6, 16, 1, 30, tzinfo=CT), "martes 16 de junio de 2026, a la 1:30", None),
        (dt.datetime(2026, 6, 16, 0, 15, tzinfo=CT), "martes 16 de junio de 2026, a las 0:15", None),
    ],
)
def test_dates_and_times_are_written_the_spanish_way(value, spanish, english):
    assert date_words(value, "es") == spanish
    assert not ENGLISH_DATE_WORDS.search(date_words(value, "es"))
    if english is not None:
        assert date_words(value) == english


def test_english_dates_and_times_are_unchanged():
    assert date_words(dt.datetime(2026, 6, 16, 14, 0, tzinfo=CT)) == "Tuesday, 16 June 2026, 2:00 p.m."
    assert date_words(dt.datetime(2026, 6, 16, 1, 30, tzinfo=CT)) == "Tuesday, 16 June 2026, 1:30 a.m."
    assert date_words(dt.date(2026, 12, 14), "en") == "Monday, 14 December 2026"


# --------------------------------------------------------------------------------------- the city's name


@pytest.mark.parametrize(
    ("name", "alone", "in_sentence"),
    [
        (
            "City of Battle Lake, Minnesota",
            "Ciudad de Battle Lake, Minnesota",
            "la Ciudad de Battle Lake, Minnesota",
        ),
        ("City of Tracy", "Ciudad de Tracy", "la Ciudad de Tracy"),
        ("State of Minnesota", "Estado de Minnesota", "el Estado de Minnesota"),
        ("Battle Lake", "Battle Lake", "Battle Lake"),  # a name without a kind of government: as written
        ("Office of the City Clerk", "Office of the City Clerk", "Office of the City Clerk"),
    ],
)
def test_a_citys_name_as_a_spanish_reader_sees_it(name, alone, in_sentence):
    assert place_name(name, "es") == alone
    assert place_name(name, "es", in_sentence=True) == in_sentence
    assert place_name(name) == name and place_name(name, "en", in_sentence=True) == name


# ------------------------------------------------------------------------- consequences, every pack's own


def _consequences_of_the_packs():
    """(act, citation, the pack's reason) of every consequence the installed packs attach to a missed time."""
    seen = {}
    for j in (library().get(p) for p in shipped_pack_ids()):  # the catalogue covers the shipped packs
        for layer in j.layers:
            for provision in layer.provisions.values():
                for version in provision.versions:
                    effect = version.effect or {}
                    if effect.get("after") and effect.get("what"):
                        seen[(effect.get("act", "seize"), effect["what"])] = version.citation
    return [(act, citation, what) for (act, what), citation in sorted(seen.items())]


def test_the_packs_attach_consequences_to_check():
    acts = {act for act, _c, _w in _consequences_of_the_packs()}
    assert {"seize", "order_impoundment"} <= acts


@pytest.mark.parametrize(("act", "citation", "what"), _consequences_of_the_packs())
def test_every_consequence_of_the_packs_is_explained_in_spanish(act, citation, what):
    engine_words = f"{ACT_WORDS.get(act, act).capitalize()} authorized under {citation}: {what}"
    spanish = consequence_words(engine_words, citation, "es")
    assert spanish, f"add the act or the reason to dogcase/locale/es/LC_MESSAGES/django.po: {engine_words!r}"
    assert citation in spanish and what not in spanish and "authorized" not in spanish
    # the same words as a ground the city may act on (a city's wait lists them)
    ground = ground_words(what, citation, "es")
    assert ground and what not in ground and ground.endswith(f"({citation})")
    # English: the engine's words as they are
    assert consequence_words(engine_words, citation, "en") == engine_words


def test_a_consequence_the_catalogue_does_not_translate_is_none():
    assert consequence_words("Seizure authorized under § 1: A reason no pack gives", "§ 1", "es") is None
    assert consequence_words("Something the engine never says", "", "es") is None


# ------------------------------------------------------------------------------- the box, in Spanish


def test_the_spanish_box_explains_what_the_law_allows_once_the_sterilization_is_missed(story, staff):  # noqa: F811
    from tests.documents.test_next_steps import served_dangerous

    s = served_dangerous(story)
    prefers_spanish(s.case, staff)
    html = owner_reading(s.case, at=story_at(1, 12), title="Notice of dangerous dog declaration").next_steps
    box = _text(html)
    # the law's own words stay English...
    assert "The owner did not have the dog sterilized within 30 days" in box
    # ...and beside them, in Spanish, what they allow, with the citation
    assert "Si no se hace a tiempo, la ley permite lo siguiente." in box
    assert "Incautación del perro, autorizada por" in box and "§ 90.15 (C)(6)" in box
    assert "el dueño no hizo esterilizar al perro dentro de 30 días" in box
    assert "lo que se indica arriba, en inglés" not in box  # nothing is left to the English alone
    # every Spanish line: Spanish dates, no English weekday, month, a.m. or p.m.
    spanish = _spanish_parts(html)
    assert spanish and all(not ENGLISH_DATE_WORDS.search(part) for part in spanish), spanish
    assert any("martes 16 de junio de 2026" in part for part in spanish)


def test_the_citys_wait_lists_its_grounds_in_spanish(story, staff):  # noqa: F811
    from tests.documents.test_next_steps import served_dangerous

    s = served_dangerous(story)
    prefers_spanish(s.case, staff)
    box = _text(owner_reading(s.case, at=story_at(1, 12), title="Notice").next_steps)
    assert "Solo por uno de estos motivos:" in box
    assert "el perro no está registrado válidamente según esta sección" in box


def test_the_tracy_insurance_consequence_is_explained_in_spanish(story, staff):  # noqa: F811
    s = classified_vicious(story)
    prefers_spanish(s.case, staff)
    html = owner_reading(s.case, at=story_at(1, 12), title="Notice of vicious dog classification").next_steps
    box = _text(html)
    assert "did not provide proof of the liability insurance" in box  # the law's words, English
    assert (
        "Una orden de retener al perro en el depósito, autorizada por Tracy City Code § 8.31, Subd 6.B" in box
    )
    assert "no entregó la prueba del seguro de responsabilidad civil" in box
    assert all(not ENGLISH_DATE_WORDS.search(part) for part in _spanish_parts(html))


def test_a_consequence_without_a_translation_is_said_to_be_in_english(story, staff, monkeypatch):  # noqa: F811
    from tests.documents.test_next_steps import served_dangerous

    s = served_dangerous(story)
    prefers_spanish(s.case, staff)
    monkeypatch.setattr("dogcase.documents.next_steps.consequence_words", lambda *a: None)
    box = _text(owner_reading(s.case, at=story_at(1, 12), title="Notice").next_steps)
    assert "Si no se hace a tiempo, la ley permite lo que se indica arriba, en inglés." in box
    assert "Incautación del perro" not in box


def test_an_english_owners_box_has_no_spanish(story):  # noqa: F811
    from tests.documents.test_next_steps import served_dangerous

    s = served_dangerous(story)
    box = _text(owner_reading(s.case, at=story_at(1, 12), title="Notice").next_steps)
    assert "Tuesday, 16 June 2026" in box and "autorizada" not in box and "martes" not in box


# ------------------------------------------------------------------- the explanation beside the document


def test_the_explanation_names_the_city_and_the_document_as_a_spanish_reader_sees_them(story, staff):  # noqa: F811
    from tests.documents.test_next_steps import served_dangerous

    s = served_dangerous(story)
    prefers_spanish(s.case, staff)
    reading = owner_reading(
        s.case,
        at=story_at(1, 12),
        title="Notice: your dog has been declared a dangerous dog",
        office_name="City of Battle Lake",
        office_contact="218-555-0150",
    )
    explanation = _text(reading.explanation)
    assert (
        "Este es un documento oficial emitido por la Ciudad de Battle Lake, Minnesota sobre su perro Rex: "
        "“Aviso: su perro ha sido declarado perro peligroso” (en inglés: “Notice: your dog has been declared a "
        "dangerous dog”)." in explanation
    )
    assert "Si tiene preguntas, comuníquese con la Ciudad de Battle Lake: 218-555-0150." in explanation
    assert "City of Battle Lake" not in explanation
    # "(en inglés)" is said of no Spanish text: the title has its Spanish, its English is given as English
    assert "(en inglés)" not in explanation


def test_a_title_without_a_translation_is_said_to_be_english(story, staff):  # noqa: F811
    from tests.documents.test_next_steps import served_dangerous

    s = served_dangerous(story)
    prefers_spanish(s.case, staff)
    explanation = _text(
        owner_reading(s.case, at=story_at(1, 12), title="Notice of a thing no pack has").explanation
    )
    assert "sobre su perro Rex: “Notice of a thing no pack has” (en inglés)." in explanation


# ------------------------------------------------------------------------------ the issued PDFs, as read


def _spanish_case(make_case):
    c = make_case(facts=SERIOUS)
    updates.update_person(
        c.owner, actor=c.staff["officer"], changes={"preferred_language": "es"}, reason="Asked for Spanish"
    )
    return c


def test_the_issued_notice_of_hearing_gives_the_hearing_the_spanish_way(make_case):
    c = _spanish_case(make_case)
    c.declare(designation="dangerous")
    c.serve(received_on=on(2))
    c.step("receive_hearing_request", "clerk", 5, received_on=on(5))
    result = c.step(
        "schedule_hearing",
        "clerk",
        6,
        hearing_at=at(15, 14).isoformat(),
        place="City Hall, 105 Main Street",
        hearing_officer=str(c.staff["hearing"].pk),
    )
    notice = next(d for d in result.documents if d.doc_type == "hearing_notice")
    text = _squeezed(pdf_text(notice))
    # the legal text, English as issued
    assert "Tuesday, 16 June 2026 at 2:00 p.m." in text
    # the explanation beside it, Spanish
    assert (
        "Su audiencia es el martes 16 de junio de 2026, a las 14:00, en City Hall, 105 Main Street." in text
    )
    assert "14:00 h" not in text and "martes, 16" not in text
    assert "emitido por la Ciudad de Battle Lake, Minnesota sobre su perro Rexford" in text
    assert "“Aviso de audiencia” (en inglés: “Notice of hearing”)" in text
    assert "comuníquese con la Ciudad de Battle Lake" in text
    explanation = text.split("Explicación en español", 1)[1].split("A calendar file of the hearing", 1)[0]
    assert not ENGLISH_DATE_WORDS.search(explanation), explanation


def test_the_issued_declaration_explains_its_consequences_in_spanish(make_case):
    c = _spanish_case(make_case)
    c.declare(designation="dangerous")
    result = c.serve(received_on=on(2))
    notice = next(d for d in result.documents if d.audience == "owner")
    text = _squeezed(pdf_text(notice))
    assert "The owner did not have the dog sterilized within 30 days" in text  # the law's words
    assert "Incautación del perro, autorizada por" in text
    assert "el dueño no hizo esterilizar al perro dentro de 30 días" in text
    assert "lo que se indica arriba, en inglés" not in text
    assert "Usted debe hacer esto a más tardar el jueves 2 de julio de 2026" in text
    assert "“Aviso: su perro ha sido declarado perro peligroso” (en inglés:" in text
