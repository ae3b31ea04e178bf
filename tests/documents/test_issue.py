"""Issuing documents inside the step: filled from the case, refused when an element has no value, immutable,
verifiable, downloadable by staff of the case's city only."""

import hashlib

import pytest
from django.test import Client

from dogcase.cases import acts, updates
from dogcase.cases.files import open_blob
from dogcase.cases.models import Event
from dogcase.documents import acts as document_acts
from dogcase.documents.models import IssuedDocument
from tests.documents.conftest import PHONE, SERIOUS, at, contains_values, pdf_text, squeeze, without_footers

pytestmark = pytest.mark.django_db


def _bytes(doc) -> bytes:
    with open_blob(doc.blob) as f:
        return f.read()


def test_serving_the_battle_lake_notice_issues_it_with_every_element_filled(make_case):
    c = make_case()
    c.declare()
    result = c.serve()
    docs = result.documents
    assert docs, "the step serving the notice issued no document"
    notice = next(d for d in docs if "potentially dangerous" in d.title.lower())
    assert notice.number == f"{c.case.number}-D1"
    assert notice.version == 1
    assert notice.step_event == result.event
    assert notice.sha256 == hashlib.sha256(_bytes(notice)).hexdigest()
    text = pdf_text(notice)
    flat = squeeze(without_footers(text))
    # every element the document contains, as filled, is in the PDF's text
    assert notice.elements
    assert contains_values(notice, text) == []
    # the values come from the records: the dog, the incident, the declarant, the deadline in words
    for value in (
        "Rexford",
        "Labrador mix",
        "985112003456789",
        "Main Street by the post office",
        "bit a passer-by on the left calf",
        PHONE,
        "Monday, 1 June 2026",  # the incident's date
        "Wednesday, 17 June 2026",  # 14 days after the date of the notice ((B)(2)(b))
    ):
        assert squeeze(value) in flat, value
    # the engine's check got the elements: the step recorded them as the notice's contents
    assert result.event.data["inputs"]["contents"]
    # every page's footer: number, version, page, the verification code and its URL
    assert f"No. {notice.number} · version 1 · page 1 of" in text
    assert f"/verify/{notice.verification_code}" in text
    # the (B)(2)(d) form to request a hearing follows as pages of the same PDF
    assert text.count(f"No. {notice.number}") >= 2
    # the timeline's audit event of the document holds its hash
    event = Event.objects.get(case=c.case, act="issue_document", data__number=notice.number)
    assert event.data["sha256"] == notice.sha256
    assert notice.event == event


def test_a_missing_value_refuses_the_step_naming_the_element_and_where_to_supply_it(make_case):
    c = make_case()
    c.declare(telephone=None)  # the declaration did not record the declarant's telephone
    before = Event.objects.filter(case=c.case).count()
    with pytest.raises(document_acts.MissingElements) as info:
        c.serve()
    sources = {m.source for m in info.value.missing}
    assert "declarant.telephone" in sources
    message = str(info.value)
    assert "telephone number of the person who made the declaration" in message
    assert "record it on the declaration" in message
    assert "(B)(2)(a)" in message
    # nothing written: no step, no document, no event
    assert Event.objects.filter(case=c.case).count() == before
    assert not IssuedDocument.objects.filter(case=c.case).exists()


def test_a_correction_is_a_new_version_and_the_old_bytes_stay_identical(make_case, staff):
    c = make_case()
    c.declare()
    notice = next(d for d in c.serve().documents if "potentially dangerous" in d.title.lower())
    old_bytes, old_sha = _bytes(notice), notice.sha256
    # the dog's description was wrong: the record is corrected, then the document
    c.dog.refresh_from_db()
    updates.update_dog(
        c.dog, actor=staff["officer"], changes={"colour": "brindle"}, reason="Seen again: brindle", at=at(3)
    )
    with pytest.raises(acts.InvalidInput):
        document_acts.correct_document(notice, actor=staff["officer"], reason="  ")
    new = document_acts.correct_document(notice, actor=staff["officer"], reason="The dog's colour was wrong")
    assert (new.number, new.version, new.replaces) == (notice.number, 2, notice)
    assert new.verification_code != notice.verification_code
    assert new.sha256 != old_sha
    notice.refresh_from_db()
    assert notice.sha256 == old_sha
    assert _bytes(notice) == old_bytes
    assert hashlib.sha256(_bytes(notice)).hexdigest() == old_sha
    assert "corrects and replaces version 1" in pdf_text(new)
    assert "brindle" in pdf_text(new) and "brindle" not in pdf_text(notice)
    # issued means immutable: no update, no delete, and the old version cannot be corrected twice
    with pytest.raises(PermissionError):
        notice.save()
    with pytest.raises(PermissionError):
        IssuedDocument.objects.filter(pk=notice.pk).update(title="x")
    with pytest.raises(PermissionError):
        notice.delete()
    with pytest.raises(acts.InvalidInput):
        document_acts.correct_document(notice, actor=staff["officer"], reason="again")
    event = Event.objects.get(case=c.case, act="correct_document")
    assert event.data["replaces"]["sha256"] == old_sha
    assert event.data["reason"] == "The dog's colour was wrong"


def test_the_verification_page_shows_the_hash_and_no_personal_data(make_case, staff):
    c = make_case()
    c.declare()
    notice = next(d for d in c.serve().documents if "potentially dangerous" in d.title.lower())
    page = Client().get(f"/verify/{notice.verification_code}")
    assert page.status_code == 200
    html = page.content.decode()
    for shown in (notice.sha256, notice.number, notice.title, "City of Battle Lake"):
        assert shown in html
    for private in ("Olive", "Ostrander", "Lake Street", "Rexford", "Val Victim", PHONE):
        assert private not in html
    assert "no later version" in html
    document_acts.correct_document(notice, actor=staff["officer"], reason="Typo")
    assert "superseded by version 2" in Client().get(f"/verify/{notice.verification_code}").content.decode()
    # lower case is the same code
    assert Client().get(f"/verify/{notice.verification_code.lower()}").status_code == 200


def test_the_verification_page_is_not_enumerable(make_case):
    c = make_case()
    c.declare()
    notice = c.serve().documents[0]
    client = Client()
    assert client.get("/verify/AAAAAAAAAA").status_code == 404
    for n in range(30):
        client.get(f"/verify/BBBBBBBB{n:02d}")
    # the client that tried many codes that do not exist is refused, even the right one, for a while
    assert client.get(f"/verify/{notice.verification_code}").status_code == 429
    assert len(notice.verification_code) == 10


def test_staff_of_the_city_download_the_pdf_and_no_one_else(make_case, make_staff_user):
    c = make_case()
    c.declare()
    notice = c.serve().documents[0]
    url = f"/documents/{notice.pk}.pdf"
    staff_client = Client()
    staff_client.force_login(make_staff_user("city_clerk", username="clerk2", cities=["battle-lake-mn"]))
    response = staff_client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    body = b"".join(response.streaming_content)
    assert hashlib.sha256(body).hexdigest() == notice.sha256
    other = Client()
    other.force_login(make_staff_user("city_clerk", username="tracy-clerk", cities=["tracy-mn"]))
    assert other.get(url).status_code == 404
    anonymous = Client().get(url)
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]


def test_the_act_form_shows_the_draft_and_submitting_issues_the_notice(make_case, staff):
    c = make_case()
    c.declare()
    client = Client()
    client.force_login(staff["officer"])
    url = f"/cases/{c.case.number}/act/serve_notice"
    form = client.get(url)
    html = form.content.decode()
    assert form.status_code == 200
    assert "Draft: " in html
    assert "Rexford" in html and "(B)(2)(a)" in html
    assert 'name="in-contents"' not in html  # no tick boxes
    # the draft re-filled with what is typed (htmx partial), and without JavaScript (Preview)
    typed = {"version": c.case.version, "in-served_on": "2026-06-03", "in-method": "personal"}
    partial = client.post(f"{url}/draft", typed)
    assert partial.status_code == 200
    assert "Wednesday, 17 June 2026" in partial.content.decode()
    preview = client.post(url, {**typed, "preview": "1"})
    assert preview.status_code == 200
    assert "Wednesday, 17 June 2026" in preview.content.decode()
    assert not IssuedDocument.objects.filter(case=c.case).exists()
    done = client.post(url, {**typed, "in-served_owner": "Olive Ostrander"})
    assert done.status_code == 302
    doc = IssuedDocument.objects.get(case=c.case, doc_type__startswith="pdd")
    page = client.get(f"/cases/{c.case.number}").content.decode()
    assert f"/documents/{doc.pk}.pdf" in page
    assert doc.verification_code in page


def test_the_act_form_names_what_is_missing_and_writes_nothing(make_case, staff):
    c = make_case()
    c.declare(telephone=None)
    client = Client()
    client.force_login(staff["officer"])
    url = f"/cases/{c.case.number}/act/serve_notice"
    html = client.get(url).content.decode()
    assert "Not ready to issue" in html
    assert "telephone number of the person who made the declaration" in html
    response = client.post(
        url,
        {
            "version": c.case.version,
            "in-served_on": "2026-06-03",
            "in-method": "personal",
            "in-served_owner": "Olive Ostrander",
        },
    )
    assert response.status_code == 400
    assert "Nothing was recorded" in response.content.decode()
    assert not c.case.events.filter(act="serve_notice").exists()


def test_a_dangerous_dog_notice_carries_the_state_elements(make_case):
    c = make_case(facts=SERIOUS)
    c.declare(designation="dangerous")
    result = c.serve(telephoned=True)
    notice = next(d for d in result.documents if d.doc_type == "dangerous_declaration_notice")
    text = pdf_text(notice)
    assert contains_values(notice, text) == []
    # the state's elements (Minn. Stat. 347.541 subd. 3) are among those the notice states, and the step's
    # contents check (any layer) accepted them
    assert any(e.startswith("mn-statute:") for e in notice.elements)


def test_a_new_notice_form_drafts_the_notice_with_the_date_it_starts_with(make_case, staff):
    # the form starts at today's date of the notice: the draft already gives the owner's last day to ask for a
    # hearing, instead of listing it as missing while the date field shows a date
    c = make_case()
    c.declare()
    client = Client()
    client.force_login(staff["officer"])
    form = client.get(f"/cases/{c.case.number}/act/serve_notice")

    assert form.context["draft_missing"] == []
    assert "Not ready to issue" not in form.content.decode()
