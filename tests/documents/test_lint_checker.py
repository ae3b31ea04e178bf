"""The document lint's rules (tests/documents/lint.py) on small texts: each rule finds what it is for in a bad
text and nothing in a good one, so that a lint that passes over the issued documents means something."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.documents import lint

FOOTER = "No. BL-2026-0001-D1 · version 1 · page 1 of 2 Verification code ABCDEF1234 — https://dogcase.example/verify/ABCDEF1234"


def rules(findings: list[lint.Finding]) -> list[str]:
    return [f.rule for f in findings]


# ------------------------------------------------------------------------------------------------ doubled words


def test_a_doubled_word_is_found_across_lines_and_page_breaks():
    assert rules(lint.doubled_words("You may ask for a hearing on the the declaration.")) == ["doubled-word"]
    assert rules(lint.doubled_words("declared a dangerous dog\ndog (case BL-2026-0005)")) == ["doubled-word"]
    # the last word of a page and the first of the next, the footer between them
    assert rules(lint.doubled_words(f"You must pay the\n{FOOTER}\nthe cost of the hearing.")) == [
        "doubled-word"
    ]
    assert rules(lint.doubled_words("The Dog dog was seized.")) == ["doubled-word"]


def test_words_in_a_row_that_are_not_doubled_are_left_alone():
    assert lint.doubled_words("You may ask for a hearing on the declaration. The hearing is held.") == []
    assert lint.doubled_words("the dog's dog bowl; re-read read") == []  # a possessive, a hyphenated word
    assert lint.doubled_words("Deadline 14 14 days") == []  # numbers are not words


def test_a_heading_and_its_statement_and_a_typed_value_are_not_doubled_words():
    text = "The case\nCase BL-2026-0006: the dangerous dog designation.\nRocky; red, Chow chow, male"
    assert lint.doubled_words(text, headings=["The case"], typed=["Chow chow"]) == []
    assert rules(lint.doubled_words(text)) == ["doubled-word", "doubled-word"]


# ------------------------------------------------------------------------------------------------ ".."


def test_two_full_stops_are_found_but_not_an_ellipsis():
    assert rules(lint.double_periods("Unprovoked bite on a person in a public place.. The purpose")) == [
        "double-period"
    ]
    assert rules(lint.double_periods("see incident report. . The purpose")) == ["double-period"]
    assert lint.double_periods("Minn. Stat. 347.50, subd. 2(1). The purpose … and so on...") == []
    assert lint.double_periods("at 8:00 a.m. on Main St. The dog") == []


# ------------------------------------------------------------------------------------------------ identifiers


def test_snake_case_and_dotted_engine_identifiers_are_found():
    found = lint.engine_identifiers(
        "Next step: serve_notice (owner.request_hearing); designation potentially_dangerous"
    )
    assert len(found) == 3 and set(rules(found)) == {"engine-identifier"}
    assert "'serve_notice'" in found[0].excerpt
    known = {"dog.description", "tracy-mn", "H.filing"}
    found = lint.engine_identifiers("The dog: dog.description, in tracy-mn, filed under H.filing.", known)
    assert [f.excerpt.split(" in ")[0] for f in found] == ["'dog.description'", "'tracy-mn'", "'H.filing'"]


def test_addresses_form_blanks_and_plain_words_are_not_identifiers():
    text = (
        "Sign in at https://dogcase.example/owner/?next=case_page or write to clerk_office@tracy.example. "
        "Date: ________ Telephone: ____ The dog description, tracy mn, the dangerous dog, 8:00 a.m."
    )
    assert lint.engine_identifiers(text, {"dog.description", "tracy-mn"}) == []


# ------------------------------------------------------------------------------------------------ placeholders


@pytest.mark.parametrize(
    "bad",
    [
        "Your dog {dog.description} was declared",
        "Your dog {{ dog }} was declared",
        "Your dog %(name)s was declared",
        "Your dog %s was declared",
        "File it with the City Clerk at [the City Clerk/Treasurer's address].",
        "Your case access code (printed here when the notice is issued).",
        "The hearing officer None decided",
        "The hearing is at TBD.",
    ],
)
def test_an_unfilled_placeholder_is_found(bad):
    assert rules(lint.unfilled_placeholders(bad)) == ["unfilled-placeholder"]


def test_filled_text_and_a_forms_blanks_are_not_placeholders():
    good = (
        "Your dog (Rex; black, Labrador mix) was declared. Date: ________ Signature: ________________\n"
        "Conditions: None. None of the conditions is met. (§ 90.15 (B)(2)(a)) 50% of the cost"
    )
    assert lint.unfilled_placeholders(good) == []


# ------------------------------------------------------------------------------------------------ URLs


def test_a_relative_url_is_found_in_a_footer_and_in_the_text():
    footer = "No. BL-2026-0001-D1 · version 1 · page 1 of 2 Verification code ABCDEF1234 — /verify/ABCDEF1234"
    found = lint.relative_urls(f"Text.\n{footer}\n")
    assert rules(found) == ["relative-url"] and "'/verify/ABCDEF1234'" in found[0].excerpt
    assert rules(lint.relative_urls("See your case at /owner/ with your code.")) == ["relative-url"]
    assert rules(lint.relative_urls("See your case at (/owner/cases/BL-2026-0001)")) == ["relative-url"]
    assert rules(lint.relative_urls("Open https:///owner/ today")) == ["relative-url"]


def test_an_absolute_url_and_slashes_in_words_are_not_relative_urls():
    good = (
        f"{FOOTER}\nSee https://dogcase.example/owner/ and http://127.0.0.1:8000/owner/. and/or 24/7 (B)/(C)"
    )
    assert lint.relative_urls(good) == []


# ------------------------------------------------------------------------------------------------ "(optional)"


def test_optional_on_a_statement_that_carries_a_required_element_is_found():
    text = "To\nThe City Clerk\nRequest (optional)\nI ask for a hearing.\nWhy you disagree (optional)\n____"
    statements = [("To", False), ("Request (optional)", True), ("Why you disagree (optional)", False)]
    found = lint.optional_on_required(text, statements)
    assert rules(found) == ["optional-on-required"] and "“Request (optional)”" in found[0].excerpt
    # the marker in the statement's text, under its heading
    text = "Your telephone\nWrite it here (you may leave this blank): ____"
    assert rules(lint.optional_on_required(text, [("Your telephone", True)])) == ["optional-on-required"]


def test_optional_on_a_statement_that_is_not_required_is_allowed():
    text = "Request\nI ask for a hearing.\nWhy you disagree (you may leave this blank)\n____"
    statements = [("Request", True), ("Why you disagree (you may leave this blank)", False)]
    assert lint.optional_on_required(text, statements) == []
    # a heading not printed (its condition did not hold) takes nothing with it
    assert lint.optional_on_required(text, [("Your dog was seized", True), *statements]) == []


# ------------------------------------------------------------------------------------------------ Spanish
# A document in Spanish as dogcase renders it (documents/pdf.html): the legal instrument English and marked so,
# a Spanish heading beside each English one, the box's lines explained in Spanish, "Your case online" in
# Spanish, and the explanation quoting the English title.

LAW = ["A dog that has bitten a human being without provocation on public or private property."]

CONSEQUENCE_EN = (
    '<span class="if-missed">If it is missed: Seizure authorized under § 90.15 (J)(1)(e): The owner is required '
    "to sterilize the dog and fails to do so</span>"
)
CONSEQUENCE_ES = (
    "Si no se hace a tiempo, la ley permite lo siguiente. Incautación del perro, autorizada por § 90.15 (J)(1)(e): "
    "el dueño no hizo esterilizar al perro."
)
PORTAL_ES = (
    '<h2 lang="es">Su caso en línea</h2>\n<div class="statement" lang="es"><div class="text">Puede ver su caso en '
    "https://dogcase.example/owner/. Para entrar, use su código de acceso al caso ABCD-EFGH-JKLM y el nombre de "
    "su perro. Esto no forma parte del aviso legal; puede seguir haciendo todo en papel.</div></div>"
)
PORTAL_EN_TEXT = (
    "You can see your case at https://dogcase.example/owner/. Sign in with your case access code ABCD-EFGH-JKLM "
    "and your dog's name. This is not part of the legal notice; you can still do everything on paper."
)
PORTAL_EN = (
    '<h2>Your case online</h2>\n<div class="statement"><div class="text">' + PORTAL_EN_TEXT + "</div></div>"
)
OWN = [
    "You can see your case at {portal.address}. Sign in with your case access code {portal.code} and your "
    "dog's name. This is not part of the legal notice; you can still do everything on paper."
]


def spanish_document(
    *,
    portal: str = PORTAL_ES,
    explained: str = CONSEQUENCE_ES,
    box_lang: str = ' lang="en"',
    heading_es: str = ' <span class="translation" lang="es">— Puede pedir una audiencia</span>',
) -> str:
    return f"""<!DOCTYPE html>
<html lang="es"><head><title>Notice: your dog has been declared a dangerous dog — No. X, versión 1</title></head>
<body>
<div class="letterhead" lang="en"><div class="name">City of Battle Lake</div>
<div class="line">Telephone 218-555-0150</div></div>
<p class="meta" lang="en">No. BL-2026-0001-D1 · version 1 · issued Monday, 1 June 2026</p>
<h1 lang="en">Notice: your dog has been declared a dangerous dog</h1>
<p class="recipient" lang="en">To: Ana Ruiz
12 Lake Street</p>
<h2 lang="en">You may ask for a hearing{heading_es}</h2>
<div class="statement" lang="en"><div class="cite">§ 90.15 (H)</div><div class="text">You may ask for a hearing
within 14 days of the date of this notice. The law: “{LAW[0]}”</div></div>
{portal}
<div class="portal-qr"><svg><path d="M0 0h7"/></svg><p class="cite" lang="es">Escanee el código para abrir su caso
en línea.</p></div>
<div class="owner-box">
<section class="next-steps"{box_lang}>
  <h2>What happens next, and by when <span class="translation" lang="es">— Qué pasa ahora y para cuándo</span></h2>
  <div class="next-step who-city">
    <p class="next-step-head"><strong>The city</strong> — not before Tuesday, 16 June 2026</p>
    <table class="statement"><tr><td class="text">Seize the dog.<br>{CONSEQUENCE_EN}</td>
    <td class="cite">§ 90.15 (J)(1)</td></tr></table>
    <p class="translation" lang="es">La ciudad puede actuar a partir del martes 16 de junio de 2026: incautar al
    perro. {explained}</p>
  </div>
</section>
<aside class="owner-explanation" lang="es"><h2>Explicación en español</h2>
<p>Este es un documento oficial sobre su perro Rex: “Aviso: su perro ha sido declarado perro peligroso” (en
inglés: “Notice: your dog has been declared a dangerous dog”).</p></aside>
</div>
</body></html>"""


SPANISH_FOOTER = (
    "No. BL-2026-0001-D1 · versión 1 · página 1 de 2 Código de verificación ABCDEF1234 — "
    "https://dogcase.example/verify/ABCDEF1234"
)


def excerpts(findings: list[lint.Finding]) -> list[str]:
    return [f.excerpt for f in findings]


def test_a_spanish_document_that_marks_its_english_instrument_passes():
    html = spanish_document()
    assert lint.english_outside_english(html, law=LAW, typed=["Rex", "Ana Ruiz", "12 Lake Street"]) == []
    assert lint.english_own_words(html, OWN) == []
    assert lint.unexplained(html) == []
    assert lint.english_footers(f"Su perro.\n{SPANISH_FOOTER}\n{SPANISH_FOOTER}\n") == []
    assert lint.english_in_spanish(html, SPANISH_FOOTER, law=LAW, typed=["Rex"], own=OWN) == []


def test_the_text_outside_english_marked_elements_is_what_is_judged():
    read = lint.reading(spanish_document())
    assert "Puede pedir una audiencia" in read.outside and "Su caso en línea" in read.outside
    assert "You may ask for a hearing" in read.english and "If it is missed" in read.english
    assert "You may" not in read.outside and "If it is missed" not in read.outside
    assert "Notice: your dog" not in read.outside.replace("“Notice: your dog", "")  # the title: quoted only
    assert "M0 0h7" not in read.outside and "versión 1" not in read.outside  # the QR code, the <head>
    # English-marked text between two Spanish texts is a break: they are not read as one sentence
    assert "— Puede pedir una audiencia\n\n" in read.outside + "\n\n"


def test_an_english_consequence_in_a_spanish_document_is_found():
    # printed where the Spanish explanation belongs
    html = spanish_document(explained="If it is missed, the city may seize the dog.")
    assert excerpts(lint.english_outside_english(html, law=LAW, typed=["Rex"])) == [
        "If it is missed, the city may seize the dog."
    ]
    # the box's English lines not marked English
    found = excerpts(lint.english_outside_english(spanish_document(box_lang=""), law=LAW, typed=["Rex"]))
    assert "Seize the dog." in found
    assert any(f.startswith("If it is missed: Seizure authorized under") for f in found), found
    # marked English, with no Spanish beside it
    bare = spanish_document().replace(
        f'<p class="translation" lang="es">La ciudad puede actuar a partir del martes 16 de junio de 2026: '
        f"incautar al\n    perro. {CONSEQUENCE_ES}</p>",
        "",
    )
    assert bare != spanish_document()
    found = lint.unexplained(bare)
    assert rules(found) == ["english-in-spanish"] and "(no Spanish beside the line)" in found[0].excerpt


def test_an_english_your_case_online_block_in_a_spanish_document_is_found():
    html = spanish_document(portal=PORTAL_EN)
    found = excerpts(lint.english_outside_english(html, law=LAW, typed=["Rex"]))
    assert "Your case online" in found
    assert any(f.startswith("You can see your case at") for f in found), found
    # even marked English (it is dogcase's words, not the legal notice)
    marked = spanish_document(
        portal=PORTAL_EN.replace("<h2>", '<h2 lang="en">').replace(
            '<div class="statement">', '<div class="statement" lang="en">'
        )
    )
    assert lint.english_outside_english(marked, law=LAW, typed=["Rex"]) == []
    found = lint.english_own_words(marked, OWN)
    assert found and all(f.excerpt.startswith("(dogcase's words, in English)") for f in found)
    assert lint.english_in_spanish(marked, SPANISH_FOOTER, law=LAW, typed=["Rex"], own=OWN) != []


def test_an_english_heading_with_no_spanish_beside_it_is_found():
    found = lint.unexplained(spanish_document(heading_es=""))
    assert excerpts(found) == ["(no Spanish beside the heading) You may ask for a hearing"]


def test_spanish_that_says_a_text_was_left_in_english_is_found():
    left = "(otro motivo, escrito solo en inglés, arriba)"
    html = spanish_document(explained=left)
    assert excerpts(lint.unexplained(html, [left])) == [f"(left in English) {left}"]
    marked = spanish_document(explained=f'<span class="untranslated">{left}</span>')
    assert excerpts(lint.unexplained(marked)) == [f"(left in English) {left}"]


def test_english_quoted_words_that_are_neither_the_instrument_nor_the_law_are_found():
    html = spanish_document(
        explained="Vea el texto: “A dog that has bitten a human being without provocation on public or private "
        "property.” y “the owner must pay for everything”."
    )
    assert excerpts(lint.english_outside_english(html, law=LAW, typed=["Rex"])) == [
        "“the owner must pay for everything”"
    ]


def test_typed_values_names_and_citations_may_stay_english():
    html = spanish_document(
        explained="Lugar: City Hall, 105 Main Street. Comuníquese con City Clerk/Treasurer, según "
        "Tracy City Code § 8.31, Subd 4.A."
    )
    typed = ["Rex", "City Hall, 105 Main Street"]
    names = ["City Clerk/Treasurer", "Tracy City Code § 8.31, Subd 4.A"]
    assert lint.english_outside_english(html, law=LAW, typed=typed, names=names) == []
    assert len(lint.english_outside_english(html, law=LAW, typed=["Rex"])) == 2


def test_the_page_footer_of_a_spanish_document_is_spanish():
    found = lint.english_footers(f"Su perro fue declarado peligroso.\n{FOOTER}\n{FOOTER}\n")
    assert excerpts(found) == [
        "(page footer) No. BL-2026-0001-D1 · version 1 · page N of N",
        "(page footer) Verification code ABCDEF1234 — https://dogcase.example/verify/ABCDEF1234",
        "(page footer) no page footer in Spanish",
    ]
    assert lint.english_footers(f"Su perro.\n{SPANISH_FOOTER}\n") == []
    assert excerpts(lint.english_footers("Su perro, sin pie de página.")) == [
        "(page footer) no page footer in Spanish"
    ]
    # a Spanish footer is a footer to the other rules too
    assert lint.footers(f"{SPANISH_FOOTER}\n{SPANISH_FOOTER.replace('página 1', 'página 2')}") == [
        "No. BL-2026-0001-D1 · versión 1 · página N de N",
        "Código de verificación ABCDEF1234 — https://dogcase.example/verify/ABCDEF1234",
    ]
    assert rules(lint.doubled_words(f"debe pagar el\n{SPANISH_FOOTER}\nel costo")) == ["doubled-word"]


def test_how_a_sentence_is_judged_english():
    assert lint.is_english("The hearing is held within seven days.")
    assert lint.is_english("Your dog")  # a heading: one English word, no Spanish word
    assert lint.is_english("Friday, 4 December 2026 at 2:00 p.m.")  # a date written in English
    assert not lint.is_english("La audiencia se celebra dentro de siete días.")
    assert not lint.is_english("Kona; Husky, 2022")  # no word of either language
    assert not lint.is_english("To")  # one word: too short to judge
    assert not lint.is_english("Qué pasa ahora y para cuándo: what happens next")  # more Spanish than English


def test_sentences_are_cut_at_headings_and_full_stops_but_not_after_an_abbreviation():
    text = "Your dog\nKona; grey and white. Born 2022.\nWhat happened\nAt 8:00 a.m. on Main St. it bit a neighbour\nwalking by (Minn. Stat. 645.15)."
    cut = [" ".join(text[a:b].split()) for a, b in lint.sentences(text)]
    assert cut == [
        "Your dog",
        "Kona;",
        "grey and white.",
        "Born 2022.",
        "What happened",
        "At 8:00 a.m. on Main St. it bit a neighbour walking by (Minn. Stat. 645.15).",
    ]


# ------------------------------------------------------------------------------------------------ glyphs


def _pdf(html: str) -> tuple[bytes, str]:
    from weasyprint import HTML

    data = HTML(string=html).write_pdf()
    exe = shutil.which("pdftotext")
    if exe is None:
        pytest.fail("pdftotext is missing: scripts/system-packages.sh installs poppler-utils")
    out = subprocess.run([exe, "-raw", "-", "-"], input=data, capture_output=True, check=True)  # noqa: S603
    text = out.stdout.decode()
    return data, text


def test_a_character_no_font_draws_is_found():
    # U+0378 is unassigned: no font has a glyph for it, so it is printed with the font's .notdef box
    data, text = _pdf('<p style="font-family: DejaVu Serif">Owner: Zoë \u0378 Olsen</p>')
    found = lint.missing_glyphs(data, text)
    assert rules(found) == ["missing-glyph"] and "U+0378" in found[0].excerpt


def test_text_the_fonts_draw_has_no_missing_glyph():
    data, text = _pdf(
        '<p style="font-family: DejaVu Serif">Owner: Zoë Olsen, Ольга — § 90.15 (B)(2) “quoted”</p>'
    )
    assert "Ольга" in text
    assert lint.missing_glyphs(data, text) == []
    assert {c for f in lint.fonts_of(data) for c in f.drawn} >= set("ZoëOlsenОльга§")


def test_a_lost_character_and_a_character_of_no_font_in_the_text_are_found():
    data, text = _pdf('<p style="font-family: DejaVu Serif">Owner: Olsen</p>')
    assert rules(lint.missing_glyphs(data, text + "\ufffd")) == ["missing-glyph"]
    assert "U+0416" in lint.missing_glyphs(data, text + "Ж")[0].excerpt  # no font of this PDF prints it


def test_the_cmaps_of_a_font_are_read():
    to_unicode = b"""2 beginbfchar
<0024> <0041>
<0dc8> <e000>
endbfchar
1 beginbfrange
<0030> <0032> <0061>
endbfrange"""
    assert lint.to_unicode(to_unicode) == {0x24: "A", 0xDC8: "\ue000", 0x30: "a", 0x31: "b", 0x32: "c"}
    encoding = b"""2 begincidchar
<0024> 36
<0dc8> 0
endcidchar"""
    assert lint.to_cid(encoding) == {0x24: 36, 0xDC8: 0}
