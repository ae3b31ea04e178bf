"""A document for an owner who reads Spanish (issue 18, documents item 14): the legal instrument stays English
and is marked lang="en" — the title and header lines, the pack's statements and their headings, the English
lines of "What happens next" — with the Spanish beside it (each heading's Spanish, each line of the box, the
explanation); what dogcase prints around the instrument is Spanish only: "Your case online" and its QR code's
caption, the calendar note, the page footer. A document in English is rendered as before."""

import re

import pytest
from django.utils import timezone

from dogcase.cases import updates
from dogcase.documents import render
from dogcase.law import library
from dogcase.owners import notice
from tests.documents import lint
from tests.documents.conftest import SERIOUS, at, on, pdf_text
from tests.packs_library import shipped_pack_ids

pytestmark = pytest.mark.django_db


def _spanish(c):
    updates.update_person(
        c.owner, actor=c.staff["officer"], changes={"preferred_language": "es"}, reason="Asked for Spanish"
    )
    return c


@pytest.fixture
def htmls(monkeypatch) -> dict[str, str]:
    """The HTML each issued PDF is rendered from, by verification code."""
    seen: dict[str, str] = {}
    real = render.render_html

    def spy(draft, **kwargs):
        seen[kwargs["code"]] = html = real(draft, **kwargs)
        return html

    monkeypatch.setattr(render, "render_html", spy)
    return seen


def _squeezed(text: str) -> str:
    return " ".join(text.split())


def _elements(html: str) -> lint.Element:
    return lint.parse_html(html)


# ------------------------------------------------------------------------------------------ the issued PDF


def test_the_spanish_notice_prints_dogcases_own_words_in_spanish_and_the_instrument_in_english(
    make_case, htmls
):
    c = _spanish(make_case(facts=SERIOUS))
    c.declare(designation="dangerous")
    result = c.serve(received_on=on(2))
    doc = next(d for d in result.documents if d.audience == "owner")
    text = pdf_text(doc)
    flat = _squeezed(text)
    # the page footer
    assert f"No. {doc.number} · versión 1 · página 1 de " in text
    assert (
        f"Código de verificación {doc.verification_code} — " in text
        and f"/verify/{doc.verification_code}" in text
    )
    assert " · version 1 · page " not in text and "Verification code" not in text
    # "Your case online" and its QR code's caption
    assert "Su caso en línea" in flat and "Your case online" not in flat
    assert "use su código de acceso al caso" in flat and "Esto no forma parte del aviso legal" in flat
    assert "Escanee el código para abrir su caso en línea" in flat and "Scan to open" not in flat
    # the legal instrument: English, as before
    assert "Notice: your dog has been declared a dangerous dog" in flat
    assert "You may ask for a hearing" in flat
    assert "The owner did not have the dog sterilized within 30 days" in flat
    # with the Spanish of each heading beside it
    assert "You may ask for a hearing — Puede pedir una audiencia" in flat

    html = htmls[doc.verification_code]
    root = _elements(html)
    marked = [e for e in root.iter() if e.attrs.get("lang") == "en"]
    tags = {(e.tag, (e.attrs.get("class") or "")) for e in marked}
    assert {
        ("h1", ""),
        ("p", "meta"),
        ("p", "recipient"),
        ("div", "letterhead"),
        ("div", "statement"),
    } <= tags
    assert ("section", "next-steps") in tags
    # every heading printed in English has its Spanish beside it; the block of the portal is Spanish
    for h2 in (e for e in root.iter() if e.tag == "h2"):
        if lint.is_english_lang(h2.lang):
            assert any(e.lang == "es" and e.text() for e in h2.iter() if e is not h2), h2.text()
    portal = next(e for e in root.iter() if e.tag == "h2" and e.text() == "Su caso en línea")
    assert portal.lang == "es"
    # nothing printed for the reader outside the English-marked elements is English
    assert "Your case" not in lint.reading(html).outside


def test_the_spanish_notice_of_hearing_gives_its_calendar_note_in_spanish(make_case, htmls):
    c = _spanish(make_case(facts=SERIOUS))
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
    doc = next(d for d in result.documents if d.doc_type == "hearing_notice")
    flat = _squeezed(pdf_text(doc))
    assert "Este PDF trae adjunto un archivo de calendario de la audiencia (hearing.ics)" in flat
    assert "A calendar file of the hearing" not in flat
    note = next(e for e in _elements(htmls[doc.verification_code]).iter() if "calendar-note" in e.classes)
    assert note.lang == "es"


def test_the_english_notice_is_rendered_as_before(make_case, htmls):
    c = make_case(facts=SERIOUS)
    c.declare(designation="dangerous")
    result = c.serve(received_on=on(2))
    doc = next(d for d in result.documents if d.audience == "owner")
    text = pdf_text(doc)
    flat = _squeezed(text)
    assert f"No. {doc.number} · version 1 · page 1 of " in text
    assert f"Verification code {doc.verification_code} — " in text
    assert "Your case online" in flat and "Scan to open your case online" in flat
    assert "versión" not in text and "Su caso" not in flat and "— Puede pedir" not in flat
    html = htmls[doc.verification_code]
    # nothing is marked but the box, which always was
    assert 'lang="es"' not in html and "translation" not in html
    assert [e.tag for e in _elements(html).iter() if e.attrs.get("lang") == "en"] == ["html", "section"]
    assert "<title>Notice: your dog has been declared a dangerous dog — No. " in html
    assert f'content="Verification code {doc.verification_code}"' in html


def test_the_footer_is_in_the_documents_language():
    english = render.footer_css(number="BL-1-D1", version=2, code="ABCDEFGHJK")
    assert english == (
        '@page { @bottom-left { content: "No. BL-1-D1 · version 2 · page " counter(page) " of " counter(pages)'
        ' "\\A " "Verification code ABCDEFGHJK — ' + render.verify_url("ABCDEFGHJK") + '"; } }'
    )
    spanish = render.footer_css(number="BL-1-D1", version=2, code="ABCDEFGHJK", language="es")
    assert '"No. BL-1-D1 · versión 2 · página " counter(page) " de " counter(pages)' in spanish
    assert '"Código de verificación ABCDEFGHJK — ' in spanish


def test_a_corrected_spanish_document_says_so_in_spanish_beside_the_english(make_case):
    from tests.documents.test_owner_documents import notice_draft

    c = _spanish(make_case())
    c.declare()
    draft = notice_draft(c)
    replaces = {"number": "BL-2026-0001-D1", "version": 1, "issued_on": "Tuesday, 2 June 2026"}
    html = render.render_html(
        draft,
        number="X-D1",
        version=2,
        code="ABCDEFGHJK",
        issued_at=at(3, 11),
        replaces=replaces,
        reason="Typo",
    )
    box = next(e for e in _elements(html).iter() if "correction" in e.classes)
    assert box.lang == "en" and box.text().startswith("This version 2 corrects and replaces version 1")
    assert "Esta versión 2 corrige y reemplaza la versión 1 del documento No. BL-2026-0001-D1." in box.text()


# ------------------------------------------------------------------------------- "Your case online"


@pytest.mark.parametrize(
    ("template", "starts"),
    [
        (notice.PORTAL_TEXT, "Puede ver su caso, los documentos que la ciudad le ha enviado"),
        # a pack's own wording (battle-lake-mn, tracy-mn)
        (
            "You can see your case, ask for a hearing and give the city the notices you owe at {portal.address}. "
            "Sign in with your case access code {portal.code} and your dog's name or your ZIP code. This is\n"
            "not part of the legal notice; you can still do everything on paper.",
            "Puede ver su caso, pedir una audiencia",
        ),
        # a wording the catalogue does not know: dogcase's, which holds for every owner's document
        ("Visit {portal.address} with {portal.code}.", "Puede ver su caso, los documentos que la ciudad"),
    ],
)
def test_your_case_online_in_spanish(template, starts):
    values = {"portal.address": "https://dogcase.example/owner/", "portal.code": "ABCD-EFGH-JKLM"}
    heading, text = notice.portal_words(template, values, "es")
    assert heading == "Su caso en línea"
    assert text.startswith(starts)
    assert "https://dogcase.example/owner/" in text and "ABCD-EFGH-JKLM" in text
    assert "{" not in text and not lint.is_english(text)


def test_your_case_online_in_english_is_its_wording_and_a_posted_notices_words_are_translated():
    values = {"portal.address": "https://x.example/owner/", "portal.code": notice.WITHHELD}
    heading, text = notice.portal_words(notice.PORTAL_TEXT, values, "en")
    assert heading == "Your case online"
    assert text == notice.PORTAL_TEXT.replace("{portal.address}", values["portal.address"]).replace(
        "{portal.code}", notice.WITHHELD
    )
    _heading, spanish = notice.portal_words(notice.PORTAL_TEXT, values, "es")
    assert "(no se imprime en un aviso que se fija a la vista: pídaselo a la ciudad)" in spanish
    assert notice.WITHHELD not in spanish


# ------------------------------------------------------------------------ every statement, explained


def test_every_heading_of_an_owners_document_has_its_spanish():
    """Every statement of every owner-facing document type of the installed packs is printed with its heading
    in Spanish beside the English one: a heading the catalogue does not translate would stand alone."""
    missing = set()
    today = timezone.localdate()
    for j in (library().get(p) for p in shipped_pack_ids()):  # the catalogue covers the shipped packs
        for t in j.all_document_types(today):
            if getattr(t, "audience", "") != "owner":
                continue
            for section in t.sections:
                heading = str(section.heading or "")
                if heading and heading != notice.PORTAL_HEADING and not render.heading_words(heading, "es"):
                    missing.add(heading)
    assert not missing, (
        'add to dogcase/locale/es/LC_MESSAGES/django.po, with msgctxt "document heading":\n'
        + "\n".join(sorted(missing))
    )
    assert (
        render.heading_words("Your dog", "es") == "Su perro" and render.heading_words("Your dog", "en") == ""
    )


def test_every_owners_title_has_its_spanish():
    """The explanation names the document in Spanish, its English title beside it."""
    from dogcase.documents.words import translated

    today = timezone.localdate()
    titles = {
        t.title
        for j in (library().get(p) for p in shipped_pack_ids())
        for t in j.all_document_types(today)
        if getattr(t, "audience", "") == "owner"
    }
    assert titles
    missing = sorted(t for t in titles if not translated(t, "es"))
    assert not missing, "add to dogcase/locale/es/LC_MESSAGES/django.po:\n" + "\n".join(missing)


def test_a_heading_without_spanish_is_found_by_the_lint(make_case, monkeypatch):
    from tests.documents.test_owner_documents import notice_draft

    c = _spanish(make_case())
    c.declare()
    draft = notice_draft(c)
    html = render.render_html(draft, number="X-D1", version=1, code="ABCDEFGHJK", issued_at=at(2, 11))
    assert not [f for f in lint.unexplained(html) if "heading" in f.excerpt]
    monkeypatch.setattr(render, "heading_words", lambda heading, language: "")
    bare = render.render_html(draft, number="X-D1", version=1, code="ABCDEFGHJK", issued_at=at(2, 11))
    found = [f.excerpt for f in lint.unexplained(bare)]
    assert "(no Spanish beside the heading) Your dog" in found
    assert re.search(r'<h2 lang="en">Your dog</h2>', bare)
