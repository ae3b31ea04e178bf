"""seed_demo prints one Battle Lake owner's portal code and fact; with them the owner signs in, and the code is
the one printed on her notice."""

import io
import re

import pytest
from django.core.management import call_command
from django.test import Client

from dogcase.documents.models import IssuedDocument
from tests.documents.conftest import media, pdf_text  # noqa: F401  (the media fixture)


@pytest.mark.django_db
def test_seed_demo_prints_an_owner_who_signs_in_and_asks_for_a_hearing(settings, monkeypatch, media):  # noqa: F811
    settings.DEBUG = True
    monkeypatch.delenv("DOGCASE_DEMO_PASSWORD", raising=False)
    out = io.StringIO()
    call_command("seed_demo", stdout=out)
    line = next(x for x in out.getvalue().splitlines() if x.startswith("Owner's portal:"))
    found = re.search(r"case (BL-\d{4}-\d{4}): code ([A-Z2-9-]{14}) with the dog's name (\w+)", line)
    assert found, line
    number, code, dog = found.groups()
    # the code printed is the one on her notice of declaration
    notice = IssuedDocument.objects.filter(case__number=number, audience="owner").order_by("issued_at").last()
    assert code in pdf_text(notice)
    client = Client()
    assert client.post("/owner/", {"code": code, "fact": dog}).status_code == 302
    page = client.get(f"/owner/cases/{number}/")
    assert "Ask for a hearing" in page.content.decode()
    response = client.post(
        f"/owner/cases/{number}/file/receive_hearing_request", {"idempotency_key": "demo", "version": 0}
    )
    assert response.status_code == 409  # a stale version: nothing is filed without the case as it is
    version = re.search(r'name="version" value="(\d+)"', response.content.decode()).group(1)
    response = client.post(
        f"/owner/cases/{number}/file/receive_hearing_request",
        {"idempotency_key": "demo2", "version": version},
    )
    assert response.status_code == 302
