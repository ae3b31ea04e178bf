"""Owners who read Spanish: the legal text stays English, a Spanish explanation beside it (issue 8, item 5)."""

import re

import pytest
from django.test import Client
from django.utils import translation

from dogcase.cases import acts, updates
from dogcase.cases.models import Person
from dogcase.documents.owner import owner_language, owner_reading
from dogcase.i18n import compile_catalogues, parse_po
from dogcase.law import library
from tests.cases.conftest import at, on, story  # noqa: F401
from tests.documents.test_next_steps import BATTLE_LAKE, classified_vicious, served_dangerous
from tests.packs_library import shipped_pack_ids


def _text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def _owner(case) -> Person:
    return case.dog.ownerships.get().person


def prefers_spanish(case, staff) -> Person:
    return updates.update_person(
        _owner(case),
        actor=staff["officer"],
        changes={"preferred_language": "es"},
        reason="The owner asked for letters in Spanish",
    )


def test_spanish_owner_gets_the_english_legal_text_with_a_spanish_explanation_beside_it(story, staff):  # noqa: F811
    s = served_dangerous(story)
    prefers_spanish(s.case, staff)
    assert owner_language(s.case) == "es"
    reading = owner_reading(s.case, at=at(1, 12), title="Notice of dangerous dog declaration")
    box = _text(reading.next_steps)
    # the English, legal, text is all there
    assert "Request a hearing on the dangerous dog declaration (14 days of the date of the notice)" in box
    assert "by Tuesday, 16 June 2026" in box and "§ 90.15 (H)" in box
    # and beside it, the Spanish explanation
    assert "Qué pasa ahora y para cuándo" in box
    assert "Usted tiene derecho a hacer esto hasta el martes 16 de junio de 2026:" in box
    assert (
        "pedir una audiencia sobre la declaración de perro peligroso (14 días desde la fecha del aviso)"
        in box
    )
    assert "Si no lo hace a tiempo, pierde este derecho." in box
    assert 'lang="es"' in reading.next_steps
    explanation = _text(reading.explanation)
    assert "Este es un documento oficial emitido por la Ciudad de Battle Lake" in explanation
    assert "el texto en inglés es el que vale" in explanation


def test_english_owner_gets_no_translation(story):  # noqa: F811
    s = served_dangerous(story)
    assert owner_language(s.case) == "en"
    reading = owner_reading(s.case, at=at(1, 12), title="Notice of dangerous dog declaration")
    assert reading.explanation == ""
    assert 'lang="es"' not in reading.next_steps and "Usted" not in reading.next_steps


def test_tracy_spanish_box_explains_the_council_hearing_request(story, staff):  # noqa: F811
    s = classified_vicious(story)
    prefers_spanish(s.case, staff)
    box = _text(owner_reading(s.case, at=at(1, 12), title="Notice of vicious dog classification").next_steps)
    assert (
        "File a written request for a hearing before the City Council on the vicious dog classification"
        in box
    )
    assert "presentar por escrito una solicitud de audiencia ante el Concejo Municipal" in box
    assert "lunes 8 de junio de 2026" in box


def test_a_statement_without_a_translation_is_kept_in_english_and_said_so(story, staff, monkeypatch):  # noqa: F811
    s = served_dangerous(story)
    prefers_spanish(s.case, staff)
    real = translation.gettext

    def without_sterilization(message):
        return message if "sterilized" in message else real(message)

    monkeypatch.setattr("dogcase.documents.next_steps.gettext", without_sterilization)
    box = _text(owner_reading(s.case, at=at(1, 12), title="Notice").next_steps)
    assert "have the dog sterilized and provide proof to the animal control authority" in box.lower()
    assert "(este paso está escrito solo en inglés, arriba)" in box


def test_staff_pages_stay_english_whatever_the_browser_asks(officer_client):
    response = officer_client.get("/", HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 200
    assert response.headers.get("Content-Language", "en").startswith("en")
    assert b"Cases" in response.content


def test_the_compiled_catalogue_matches_its_po_file():
    assert compile_catalogues(check=True) == [], "run `make messages` and commit the .mo"


def test_every_deadline_of_the_owner_and_the_city_has_a_spanish_explanation():
    from django.conf import settings

    po = settings.LOCALE_PATHS[0] / "es" / "LC_MESSAGES" / "django.po"
    translated = parse_po(po.read_text(encoding="utf-8"))
    missing = set()
    for j in (library().get(p) for p in shipped_pack_ids()):  # the catalogue covers the shipped packs
        for deadline_id in j.deadline_ids():
            plan = j.deadline_plans[deadline_id]
            if plan.who not in ("owner", "city"):
                continue
            texts = {plan.what} | {
                s.version.effect["what"] for s in plan.steps if s.version.effect.get("what")
            }
            missing |= {t for t in texts if t not in translated}
    assert not missing, "add to dogcase/locale/es/LC_MESSAGES/django.po:\n" + "\n".join(sorted(missing))


# ----------------------------------------------------------------------------------- the person's record


def test_a_person_is_recorded_in_english_unless_told(staff):
    person = acts.record_person(jurisdiction=BATTLE_LAKE, actor=staff["officer"], full_name="Ana Ruiz")
    assert person.preferred_language == "en"
    spanish = acts.record_person(
        jurisdiction=BATTLE_LAKE, actor=staff["officer"], full_name="Luis Ruiz", preferred_language="es"
    )
    assert spanish.get_preferred_language_display() == "Spanish (español)"


def test_a_language_not_offered_is_refused(staff):
    with pytest.raises(acts.InvalidInput) as info:
        acts.record_person(
            jurisdiction=BATTLE_LAKE, actor=staff["officer"], full_name="Ana Ruiz", preferred_language="fr"
        )
    assert info.value.field == "preferred_language"
    person = acts.record_person(jurisdiction=BATTLE_LAKE, actor=staff["officer"], full_name="Ana Ruiz")
    with pytest.raises(acts.InvalidInput):
        updates.update_person(
            person, actor=staff["officer"], changes={"preferred_language": "xx"}, reason="Typo test here"
        )


def test_the_language_is_shown_and_edited_on_the_person_pages(staff):
    officer_client = Client()
    officer_client.force_login(staff["officer"])
    person = acts.record_person(jurisdiction=BATTLE_LAKE, actor=staff["officer"], full_name="Ana Ruiz")
    page = officer_client.get(f"/people/{person.pk}")
    assert b"Language for letters" in page.content and b'data-language="en"' in page.content
    form = officer_client.get(f"/people/{person.pk}/edit")
    assert b'name="preferred_language" value="es"' in form.content
    response = officer_client.post(
        f"/people/{person.pk}/edit",
        {"preferred_language": "es", "seen-preferred_language": "en", "reason": "She asked for Spanish"},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    person.refresh_from_db()
    assert person.preferred_language == "es"
    assert b"Spanish (espa" in officer_client.get(f"/people/{person.pk}").content
