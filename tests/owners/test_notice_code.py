"""The owner's notice carries the portal's address, the owner's case access code (issued with it, printed only
in the PDF) and a QR code of the portal link; the code signs in."""

import re

import pytest
from django.test import Client

from dogcase.cases.models import Event
from dogcase.owners.models import CaseAccessCode
from tests.documents.conftest import make_case, media, pdf_text  # noqa: F401  (the fixtures)

pytestmark = pytest.mark.django_db


def test_serving_the_notice_issues_the_owners_code_and_prints_it_only_in_the_pdf(make_case, settings):  # noqa: F811
    settings.DOGCASE_SITE_URL = "https://dogs.example.org"
    c = make_case()
    c.declare()
    result = c.serve()
    notice = next(d for d in result.documents if "potentially dangerous" in d.title.lower())
    text = pdf_text(notice)
    assert "https://dogs.example.org/owner/" in text
    found = re.search(r"case access code\s+([A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4})", text)
    assert found, text[-1500:]
    code = found.group(1)
    # stored hashed: the code is nowhere in the database, the audit trail included
    row = CaseAccessCode.objects.get(case=c.case, person=c.owner, revoked_at__isnull=True)
    assert code not in row.code_hash
    assert not any(code in str(e.data) or code in e.summary for e in Event.objects.all())
    assert Event.objects.filter(case=c.case, act="issue_access_code").count() == 1
    # the QR code is drawn (an SVG path in the PDF is not text; the section's note is)
    assert "Scan to open your case online" in text
    # the code from the notice signs in
    client = Client()
    response = client.post("/owner/", {"code": code, "fact": c.dog.name})
    assert response.status_code == 302


def test_the_draft_says_where_the_code_will_be_and_issues_none(make_case):  # noqa: F811
    from dogcase.documents import acts as document_acts
    from dogcase.owners.notice import PLACEHOLDER
    from tests.documents.conftest import at, on

    c = make_case()
    c.declare()
    inputs = {
        "served_on": on(2),
        "method": "personal",
        "served_owner": "Olive Ostrander",
        "received_on": on(2),
    }
    _step, _cleaned, drafts = document_acts.drafts_for_step(
        c.case, "serve_notice", inputs=inputs, at=at(2, 11), actor=c.staff["officer"]
    )
    notice = next(d for d in drafts if d.audience == "owner")
    assert not notice.missing
    assert any(PLACEHOLDER in s.text for s in notice.sections)
    assert not notice.portal_qr
    assert not CaseAccessCode.objects.exists()


def test_a_corrected_notice_prints_the_same_code_and_it_keeps_working(make_case):  # noqa: F811
    from dogcase.documents import acts as document_acts

    c = make_case()
    c.declare()
    notice = next(d for d in c.serve().documents if "potentially dangerous" in d.title.lower())
    first = re.search(r"case access code\s+([A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4})", pdf_text(notice)).group(1)
    corrected = document_acts.correct_document(
        notice, actor=c.staff["officer"], reason="the telephone was wrong"
    )
    second = re.search(r"case access code\s+([A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4})", pdf_text(corrected))
    assert second and second.group(1) == first
    assert Client().post("/owner/", {"code": first, "fact": c.dog.name}).status_code == 302
    assert CaseAccessCode.objects.filter(case=c.case, person=c.owner).count() == 1
