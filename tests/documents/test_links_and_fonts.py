"""What a reader holds: every address absolute and on the site's one address, the owner's way into the portal on
every document issued to an owner, and a name in any script printed with a font that draws it.

- Links (issue 18, Doc 12): an issued notice, the staff's code slip and the e-mails carry only absolute links to
  DOGCASE_SITE_URL's host — never 127.0.0.1, never a bare /owner/ or /verify/CODE.
- "Your case online" (Doc 9): every owner-facing document, the state pack's included, prints the portal's
  address and the owner's case access code (a posted notice prints none: anyone may read it).
- Fonts (Doc 11): an owner named in Latin, Cyrillic, CJK and Arabic script, with an emoji, is printed with
  embedded fonts whose glyphs draw each character (no .notdef box), in a PDF that stays PDF/A-3b.
"""

from __future__ import annotations

import datetime as dt
import re
import shutil
import subprocess
import zlib

import pytest
from django.core import mail
from django.test import Client

from dogcase.cases.models import Person
from dogcase.documents import fill
from dogcase.law import library
from dogcase.owners.models import CaseAccessCode
from dogcase.owners.notice import PORTAL_HEADING, WITHHELD
from tests.documents.conftest import at, make_case, media, on, pdf_text, squeeze  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db

SITE = "https://dogs.example.org"
CODE = re.compile(r"case access code\s+([A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4})")
# a URL, or a path of the site written without its host
URL = re.compile(r"https?://[^\s)\]>\"']+")
BARE_PATH = re.compile(r"(?<![\w.:/-])/(?:owner|verify|staff|documents|cases)/")


@pytest.fixture
def site(settings):
    settings.DOGCASE_SITE_URL = SITE
    return SITE


def _assert_links_on_the_site(text: str, where: str) -> None:
    assert "127.0.0.1" not in text and "localhost" not in text, where
    urls = URL.findall(text)
    assert urls, f"{where}: no link at all"
    off_site = [u for u in urls if not u.startswith(SITE + "/")]
    assert not off_site, f"{where}: links not on {SITE}: {off_site}"
    assert not BARE_PATH.search(URL.sub("", text)), f"{where}: a path without the site's address"


# ------------------------------------------------------------------------------------------------ links


def test_an_issued_notice_prints_only_absolute_links_to_the_configured_site(make_case, site):  # noqa: F811
    c = make_case()
    c.declare()
    notice = next(d for d in c.serve().documents if d.audience == "owner")
    text = pdf_text(notice)

    _assert_links_on_the_site(text, "the notice")
    # every page's footer: the absolute verification link; the portal with the owner's code
    pages = int(re.search(r"page \d+ of (\d+)", text).group(1))
    assert squeeze(text).count(squeeze(f"{SITE}/verify/{notice.verification_code}")) == pages
    assert f"{SITE}/owner/" in text
    assert CODE.search(text)


def test_the_staff_code_slip_prints_the_portal_on_the_configured_site(make_case, site, staff):  # noqa: F811
    c = make_case()
    c.declare()
    c.serve()
    client = Client()
    client.force_login(staff["clerk"])
    slip = client.post(f"/staff/cases/{c.case.number}/owner-access/{c.owner.pk}/issue")
    assert slip.status_code == 200
    printed = re.search(
        r'<section class="card code-slip">(.*?)</section>', slip.content.decode(), re.S
    ).group(1)

    assert f"<strong>{SITE}/owner/</strong>" in printed
    _assert_links_on_the_site(re.sub(r"<[^>]+>", " ", printed), "the code slip")


def test_the_emails_link_to_the_portal_on_the_configured_site(make_case, site, settings):  # noqa: F811
    from dogcase.messaging.compose import compose

    c = make_case()
    c.declare()
    c.serve()
    # the owner's message about a document, and the staff's about a deadline: both link on the site
    owner_message = compose(
        c.case,
        "document_issued",
        context={"title": "Notice", "number": "BL-1", "issued_on": "2026-06-03", "citation": ""},
        language="en",
        recipient_name="Olive Ostrander",
        to="owners",
    )
    staff_message = compose(
        c.case,
        "deadline_missed",
        context={"what": "hold the hearing", "due": "2026-06-20", "citation": ""},
        language="en",
        recipient_name="Alex",
        to="staff",
    )
    _assert_links_on_the_site(owner_message.body, "the owner's e-mail")
    assert f"{SITE}/owner/" in owner_message.body  # it opens the portal
    _assert_links_on_the_site(staff_message.body, "the staff's e-mail")
    assert f"{SITE}/cases/{c.case.number}" in staff_message.body  # the case's page

    # the one-time sign-in link an owner with an e-mail address is sent, asked for from another host
    Person.objects.filter(pk=c.owner.pk).update(email="olive@example.com")
    # the link is e-mailed by the worker (issue 19): run at once here
    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}
    notice = next(d for d in c.case.documents.all() if d.audience == "owner")
    code = CODE.search(pdf_text(notice)).group(1)
    response = Client(HTTP_HOST="localhost").post("/owner/", {"code": code, "fact": c.dog.name})
    assert response.status_code == 200
    body = mail.outbox[-1].body
    _assert_links_on_the_site(body, "the sign-in e-mail")
    link = re.search(re.escape(SITE) + r"(/owner/link/\S+)", body).group(1)
    assert Client().get(link).status_code == 200  # it opens the portal's sign-in


def test_without_the_setting_no_link_is_made(settings):
    # production must set it (check --deploy fails, dogcase.E103); a link is never a bare path
    from django.core.exceptions import ImproperlyConfigured

    from dogcase.owners.urls_util import portal_url, verify_url

    settings.DOGCASE_SITE_URL = ""
    with pytest.raises(ImproperlyConfigured, match="DOGCASE_SITE_URL"):
        portal_url()
    with pytest.raises(ImproperlyConfigured, match="DOGCASE_SITE_URL"):
        verify_url("ABCDEFGHJK")


def test_the_deploy_check_asks_for_the_setting(settings):
    from dogcase.messaging.checks import mail_server_configured

    settings.DOGCASE_SITE_URL = ""
    problems = {w.id: w for w in mail_server_configured(None)}
    assert "dogcase.E103" in problems and problems["dogcase.E103"].is_serious()  # an error: --deploy fails
    settings.DOGCASE_SITE_URL = SITE
    assert "dogcase.E103" not in {w.id for w in mail_server_configured(None)}


# ------------------------------------------------------------------------------------------ your case online


def test_the_states_notice_in_tracy_prints_the_owners_code_and_it_signs_in(make_case, site):  # noqa: F811
    c = make_case(city="tracy-mn")
    c.declare(designation="dangerous")
    served = c.step("serve_notice", "officer", 2, served_on=on(2), method="personal", telephoned=True)
    notice = next(d for d in served.documents if d.doc_type == "dangerous_declaration_notice")
    text = pdf_text(notice)

    assert PORTAL_HEADING in text and f"{SITE}/owner/" in text
    code = CODE.search(text).group(1)
    assert "Scan to open your case online" in text  # the QR code of the portal link
    assert CaseAccessCode.objects.filter(case=c.case, person=c.owner, revoked_at__isnull=True).count() == 1
    assert Client().post("/owner/", {"code": code, "fact": c.dog.name}).status_code == 302


def _top_level_owner_documents(j, day):
    types = j.all_document_types(day)
    attached = {a for t in types for a in (getattr(t, "attachments", ()) or ())}
    return [t for t in types if t.audience == "owner" and t.id not in attached]


@pytest.mark.parametrize("city", ["battle-lake-mn", "tracy-mn"])
def test_every_document_issued_to_an_owner_carries_your_case_online_once(make_case, site, city):  # noqa: F811
    from dogcase.cases.models import case_state, jurisdiction_of

    c = make_case(city=city)
    c.declare(designation="dangerous")
    j = jurisdiction_of(c.case)
    when = at(3)
    sources = fill.Sources(c.case, j, state=case_state(c.case), step=None, inputs={}, at=when, actor=None)
    owner_docs = _top_level_owner_documents(j, when.date())
    assert len(owner_docs) >= 4, [t.id for t in owner_docs]
    for doc_type in owner_docs:
        draft = fill.fill_document(doc_type, sources)
        blocks = [s for s in draft.sections if "{portal.code}" in s.text or f"{SITE}/owner/" in s.text]
        assert len(blocks) == 1, (doc_type.id, [s.heading for s in draft.sections])
        assert f"{SITE}/owner/" in blocks[0].text, doc_type.id
        assert "case access code" in blocks[0].text, doc_type.id
        # the staff's draft says where the code will be; no code exists before the notice is issued
        assert "(printed here when the notice is issued)" in blocks[0].text, doc_type.id
    # attached forms are pages of the notice: they carry none
    top = {t.id for t in owner_docs}
    attached = [t for t in j.all_document_types(when.date()) if t.audience == "owner" and t.id not in top]
    for doc_type in attached:
        draft = fill.fill_document(doc_type, sources, owner_box=False, attached=True)
        assert not any(f"{SITE}/owner/" in s.text for s in draft.sections), doc_type.id


def test_the_state_pack_has_owner_documents_and_they_get_the_block(make_case, site):  # noqa: F811
    # the state's own documents (347.541 notice, 347.56 notice, the hearing officer's decision) print it too
    state = library().get("mn-statute")
    ids = {t.id for t in _top_level_owner_documents(state, dt.date(2026, 6, 1))}
    assert {"dangerous_declaration_notice", "hearing_officer_decision"} <= ids


def test_a_posted_notice_prints_no_access_code(make_case, site):  # noqa: F811
    # Tracy Subd 3: the owner cannot be located, the notice is posted on the property: anyone may read it
    c = make_case(city="tracy-mn")
    c.step("classify", "police", 1, designation="vicious", reasonable_cause="Unprovoked bite, Subd 1.B.2")
    result = c.step(
        "post_notice_owner_not_located",
        "clerk",
        1,
        sent_on=on(1),
        method="posting_on_owner_property",
        search="Knocked on doors; no licence on file",
    )
    notice = next(d for d in result.documents if d.audience == "owner")
    text = pdf_text(notice)

    assert PORTAL_HEADING in text and f"{SITE}/owner/" in text
    assert squeeze(WITHHELD) in squeeze(text)
    assert not CODE.search(text) and "Scan to open" not in text
    assert not CaseAccessCode.objects.filter(case=c.case).exists()


# ------------------------------------------------------------------------------------------------ fonts

NAME = "Ølaf Ольга 王小明 محمد 🐕"
SCRIPTS = {"Latin": "Ølaf", "Cyrillic": "Ольга", "CJK": "王小明", "Arabic": "محمد", "emoji": "🐕"}


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.fail(f"{name} is missing: scripts/system-packages.sh installs poppler-utils")
    return path


def _pdffonts(data: bytes) -> list[dict[str, str]]:
    out = subprocess.run([_tool("pdffonts"), "-"], input=data, capture_output=True, check=True)  # noqa: S603
    rows = []
    for line in out.stdout.decode().splitlines()[2:]:
        parts = line.split()
        # name, type words…, encoding, emb, sub, uni, object, generation
        rows.append({"name": parts[0], "emb": parts[-5], "uni": parts[-3], "line": line})
    return rows


def _streams(data: bytes) -> dict[int, tuple[bytes, bytes]]:
    """Every stream object of the PDF: number -> (dictionary, decoded bytes)."""
    found = {}
    for m in re.finditer(rb"(\d+) 0 obj\s*<<(.*?)>>\s*stream\r?\n", data, re.S):
        end = data.find(b"endstream", m.end())
        raw = data[m.end() : end]
        try:
            found[int(m.group(1))] = (m.group(2), zlib.decompress(raw))
        except zlib.error:
            found[int(m.group(1))] = (m.group(2), raw)
    return found


def undrawn_characters(data: bytes) -> list[str]:
    """The characters the PDF shows with no glyph of the font (.notdef, CID 0: an empty box). WeasyPrint maps
    every character it shows in its fonts' ToUnicode CMaps and, where the font lacks it, the code to CID 0
    in the font's Encoding CMap."""
    streams = _streams(data)
    objects = b"\n".join(body for _head, body in streams.values()) + data
    missing = []
    fonts = rb"/Subtype /Type0/BaseFont /(\S+?)/ToUnicode (\d+) 0 R/Encoding (/Identity-H|\d+ 0 R)"
    for font in re.finditer(fonts, objects):
        to_unicode = streams[int(font.group(2))][1].decode("latin-1")
        encoding = font.group(3)
        cid_of: dict[int, int] = {}
        if encoding.endswith(b"R"):  # a CMap of its own: code -> CID
            cmap = streams[int(encoding.split()[0])][1].decode("latin-1")
            for code, cid in re.findall(r"<([0-9a-fA-F]+)>\s+(\d+)", cmap):
                cid_of[int(code, 16)] = int(cid)
        pairs = [
            (int(code, 16), bytes.fromhex(uni).decode("utf-16-be"))
            for block in re.findall(r"beginbfchar(.*?)endbfchar", to_unicode, re.S)
            for code, uni in re.findall(r"<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>", block)
        ]
        for block in re.findall(r"beginbfrange(.*?)endbfrange", to_unicode, re.S):
            for lo, hi, start in re.findall(r"<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>", block):
                first = int(start, 16)
                pairs += [(c, chr(first + c - int(lo, 16))) for c in range(int(lo, 16), int(hi, 16) + 1)]
        for code, text in pairs:
            if cid_of.get(code, code) == 0 and text.strip():
                missing.append(text)
    return missing


def test_undrawn_characters_finds_an_empty_box(tmp_path):
    # the check itself: a private-use character no installed font draws is reported, a Latin one is not
    from weasyprint import HTML

    from dogcase.documents.render import PDF_VARIANT

    html = "<p style=\"font-family: 'DejaVu Serif'\">Olaf \ue000 end</p>"
    data = HTML(string=html).write_pdf(pdf_variant=PDF_VARIANT)
    assert undrawn_characters(data) == ["\ue000"]
    clean = HTML(string="<p style=\"font-family: 'DejaVu Serif'\">Olaf end</p>").write_pdf(
        pdf_variant=PDF_VARIANT
    )
    assert undrawn_characters(clean) == []


def test_a_name_in_any_script_prints_with_fonts_that_draw_it(make_case):  # noqa: F811
    from dogcase.cases.files import open_blob

    c = make_case()
    Person.objects.filter(pk=c.owner.pk).update(full_name=NAME)
    c.owner.refresh_from_db()
    c.declare()
    notice = next(d for d in c.serve().documents if d.audience == "owner")
    with open_blob(notice.blob) as f:
        data = f.read()

    text = pdf_text(notice)
    for script, word in SCRIPTS.items():
        # pdftotext gives the characters back (Arabic is read right to left: any order of its letters)
        found = word in text or (script == "Arabic" and all(ch in text for ch in word))
        assert found, f"{script} {word!r} is not in the PDF's text"
    # no character is drawn as an empty box
    assert undrawn_characters(data) == []
    # every font is embedded with its ToUnicode map; the CJK and emoji ones are there
    fonts = _pdffonts(data)
    assert fonts and all(f["emb"] == "yes" and f["uni"] == "yes" for f in fonts), fonts
    names = " ".join(f["name"] for f in fonts)
    assert "CJK" in names, names
    assert "Emoji" in names, names
    # still PDF/A-3b: the XMP identification and the output intent
    meta = subprocess.run([_tool("pdfinfo"), "-meta", "-"], input=data, capture_output=True, check=True)  # noqa: S603
    xmp = meta.stdout.decode()
    assert re.search(r"pdfaid:part[^0-9]{1,3}3", xmp) and re.search(r"pdfaid:conformance[^A-Z]{1,3}B", xmp), (
        xmp
    )
    assert b"/OutputIntents" in data or b"/OutputIntent" in b"".join(b for _h, b in _streams(data).values())
