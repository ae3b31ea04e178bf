"""`dogcase audit verify` checks every stored file against what the events that wrote it recorded: the issued
documents' PDFs and the files sent as proof too, not only evidence and photos (on the demo data, which issues
every document type and sends proof with files)."""

import os

import pytest
from django.core.management import call_command
from django.db import connection

from dogcase.cases.models import StoredFile
from dogcase.documents.models import IssuedDocument
from dogcase.ops.integrity import verify_all
from dogcase.proofs.models import ProofFile

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo(settings, monkeypatch, tmp_path):
    settings.DEBUG = True
    settings.MEDIA_ROOT = tmp_path / "media"
    monkeypatch.delenv("DOGCASE_DEMO_PASSWORD", raising=False)
    call_command("seed_demo", stdout=None)
    return settings.MEDIA_ROOT


def _rewrite(path, content: bytes) -> bytes:
    before = path.read_bytes()
    os.chmod(path, 0o644)
    path.write_bytes(content)
    return before


def test_a_changed_document_or_proof_file_is_found_and_named(demo):
    report = verify_all()
    assert report["ok"], report["problems"][:3]
    documents, proofs = IssuedDocument.objects.count(), ProofFile.objects.count()
    assert documents >= 10 and proofs >= 2
    assert report["files"] == StoredFile.objects.count() + documents + proofs

    doc = IssuedDocument.objects.order_by("pk").first()
    pdf = demo / doc.blob
    original = _rewrite(pdf, pdf.read_bytes().replace(b"%%EOF", b"%%EOF\n% edited"))
    report = verify_all()
    assert not report["ok"]
    (problem,) = report["problems"]
    assert problem["record"] == f"issued document {doc.number}, version {doc.version} (#{doc.pk})"
    assert "content changed" in problem["problem"] and problem["event"] == doc.event.seq
    assert problem["expected"] == doc.sha256
    pdf.write_bytes(original)

    proof_file = ProofFile.objects.order_by("pk").first()
    blob = demo / proof_file.path
    original = _rewrite(blob, b"not the file the owner sent")
    # stored once under its hash: every proof that sent the same bytes shares them, and each is named
    sharing = ProofFile.objects.filter(path=proof_file.path).select_related("proof__submitted_event")
    problems = {p["record"]: p for p in verify_all()["problems"]}
    named = {f"proof file #{f.pk} ({f.original_name}) of proof #{f.proof_id}": f for f in sharing}
    assert set(problems) == set(named) and proof_file in named.values()
    for record, f in named.items():
        assert problems[record]["event"] == f.proof.submitted_event.seq
        assert "content changed" in problems[record]["problem"]
    blob.write_bytes(original)
    assert verify_all()["ok"]

    # a row pointed at other bytes (whose own hash is consistent): the event still says what was issued
    other = IssuedDocument.objects.exclude(sha256=doc.sha256).order_by("pk").first()
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE documents_issueddocument SET sha256 = %s, blob = %s WHERE id = %s",
            [other.sha256, other.blob, doc.pk],
        )
    problems = {
        p["field"]: p
        for p in verify_all()["problems"]
        if p["record"].startswith(f"issued document {doc.number}, version {doc.version} ")
    }
    assert set(problems) == {"sha256", "content"}  # the row, and the bytes it now leads to
    for problem in problems.values():
        assert problem["expected"] == doc.sha256 and problem["stored"] == other.sha256
        assert problem["event"] == doc.event.seq
