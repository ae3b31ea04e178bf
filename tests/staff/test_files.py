"""Evidence and proof files: served only to staff of the record's city, never sniffed into a page."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from dogcase.cases.models import Evidence
from tests.staff.conftest import TRACY, client_for
from tests.staff.test_intake import PNG, intake

pytestmark = pytest.mark.django_db

PDF = b"%PDF-1.4\n% a tiny test file\n"


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


def upload(client, name, data, content_type):
    f = SimpleUploadedFile(name, data, content_type=content_type)
    response = client.post("/incidents/new", {**intake(), "evidence": f})
    assert response.status_code == 302, response.context and response.context["errors"]
    return Evidence.objects.get(file__original_name=name).file


def test_an_image_is_shown_inline_with_its_stored_type_and_nosniff(officer):
    client = client_for(officer)
    stored = upload(client, "bite.png", PNG, "image/png")
    response = client.get(f"/files/{stored.pk}")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert not response["Content-Disposition"].startswith("attachment")
    assert b"".join(response.streaming_content) == PNG


def test_a_document_is_always_downloaded_never_rendered(officer):
    client = client_for(officer)
    # The browser's word for the type is ignored: the content says PDF.
    stored = upload(client, "statement.pdf", PDF, "text/html")
    response = client.get(f"/files/{stored.pk}")
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"].startswith("attachment")
    assert 'filename="statement.pdf"' in response["Content-Disposition"]
    assert response["X-Content-Type-Options"] == "nosniff"
    assert "sandbox" in response["Content-Security-Policy"]


def test_a_file_is_not_served_to_another_city(officer, make_staff_user):
    stored = upload(client_for(officer), "bite.png", PNG, "image/png")
    tracy = client_for(make_staff_user("city_clerk", username="tracy-clerk", cities=[TRACY]))
    assert tracy.get(f"/files/{stored.pk}").status_code == 404


def test_the_incident_page_links_its_evidence(officer):
    client = client_for(officer)
    stored = upload(client, "bite.png", PNG, "image/png")
    incident = Evidence.objects.get(file=stored).incident
    assert f'href="/files/{stored.pk}"' in client.get(f"/incidents/{incident.number}").content.decode()
