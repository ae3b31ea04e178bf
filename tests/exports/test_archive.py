"""A whole city as one archive, for a city that leaves dogcase (issue 23, "Export"): its administrator's only,
every list as CSV, the audit trail as JSON Lines, the documents byte for byte, the uploaded files, a README; and
its taking written in the city's audit trail."""

import csv
import hashlib
import io
import json
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from dogcase.cases import acts
from dogcase.cases.audit import city_chain, verify_chain
from dogcase.cases.models import Event, StoredFile
from dogcase.documents.models import IssuedDocument
from dogcase.exports.lists import KINDS
from dogcase.ops.integrity import verify_all
from tests.documents.conftest import at, on
from tests.exports.helpers import body
from tests.staff.conftest import BATTLE_LAKE, TRACY, client_for

pytestmark = pytest.mark.django_db

PDF = b"%PDF-1.4\n% evidence: the vet's report\n"
URL = f"/export/city/{BATTLE_LAKE}.zip"


@pytest.fixture
def cities(make_case, staff):
    """A Battle Lake case served its notice (a PDF issued), with evidence found after the intake; a Tracy case."""
    bl = make_case(city=BATTLE_LAKE)
    bl.declare(day=1)
    bl.serve(day=1)
    acts.add_to_incident(
        bl.incident,
        actor=staff["officer"],
        evidence=[
            (SimpleUploadedFile("vet-report.pdf", PDF, content_type="application/pdf"), "the vet's report")
        ],
        at=at(1, 15),
    )
    tr = make_case(city=TRACY)
    tr.step("classify", "police", 0, designation="vicious", reasonable_cause="Unprovoked bite")
    tr.step("notify_classification", "police", 1, sent_on=on(1), certified_mail=True)
    return bl, tr


def _zip(response) -> zipfile.ZipFile:
    assert response.status_code == 200, response.status_code
    assert response["Content-Type"] == "application/zip"
    return zipfile.ZipFile(io.BytesIO(body(response)))


def _csv(archive: zipfile.ZipFile, name: str) -> list[list[str]]:
    text = archive.read(name).decode("utf-8")
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text[1:])))


def test_the_archive_is_refused_to_anyone_but_the_citys_administrator(
    cities, staff, bl_clerk, make_staff_user
):
    assert client_for(bl_clerk).get(URL).status_code == 403
    assert client_for(staff["auditor"]).get(URL).status_code == 403
    tracy_admin = make_staff_user("administrator", username="tr-admin", cities=(TRACY,))
    assert client_for(tracy_admin).get(URL).status_code == 404  # not one of theirs: not even said to exist
    assert client_for(staff["admin"]).post(URL).status_code == 405  # a download is a GET
    assert not Event.objects.filter(act="export_city_archive").exists()  # nothing taken, nothing written


def test_the_archive_holds_every_list_the_audit_trail_the_pdfs_the_files_and_a_readme(cities, bl_admin):
    bl, tr = cities
    response = client_for(bl_admin).get(URL)
    assert response["Content-Disposition"].startswith(f'attachment; filename="dogcase-{BATTLE_LAKE}-archive-')
    archive = _zip(response)
    names = set(archive.namelist())
    assert {f"{k}.csv" for k in KINDS} | {"events.jsonl", "README.txt"} <= names

    # the lists: Battle Lake's records only
    cases = _csv(archive, "cases.csv")
    assert cases[0][0] == "Case number" and [r[0] for r in cases[1:]] == [bl.case.number]
    assert tr.case.number not in archive.read("obligations.csv").decode()

    # every issued PDF, byte for byte as stored
    docs = IssuedDocument.objects.filter(jurisdiction=BATTLE_LAKE)
    assert docs.exists()
    for doc in docs:
        data = archive.read(f"documents/{doc.number}-v{doc.version}.pdf")
        assert hashlib.sha256(data).hexdigest() == doc.sha256
    assert not any(n.startswith(f"documents/{tr.case.number}") for n in names)

    # the evidence, listed in files.csv with its hash and incident
    stored = StoredFile.objects.get(original_name="vet-report.pdf")
    files = _csv(archive, "files.csv")
    (row,) = [r for r in files[1:] if r[1] == "vet-report.pdf"]
    assert archive.read(row[0]) == PDF and row[4] == stored.sha256 == hashlib.sha256(PDF).hexdigest()
    assert row[files[0].index("Evidence of incident")] == bl.incident.number

    # the audit trail: the city's events in order, ending with this archive's own taking
    lines = [json.loads(line) for line in archive.read("events.jsonl").decode().splitlines()]
    expected = list(Event.objects.filter(jurisdiction=BATTLE_LAKE).order_by("seq").values_list("seq", "hash"))
    assert [(e["seq"], e["hash"]) for e in lines] == expected
    assert {e["case"] for e in lines} >= {bl.case.number, None} and tr.case.number not in {
        e["case"] for e in lines
    }
    last = lines[-1]
    assert (last["act"], last["actor"], last["chain"]) == (
        "export_city_archive",
        "bl-admin",
        city_chain(BATTLE_LAKE),
    )
    assert {"seq", "chain_seq", "at", "kind", "summary", "data", "prev_hash", "corrects"} <= set(last)

    # a README in plain words, naming every file and column
    readme = archive.read("README.txt").decode()
    assert "events.jsonl" in readme and "documents/" in readme and "files/" in readme
    for kind in KINDS.values():
        assert f"{kind.id}.csv" in readme
        assert all(c.header in readme for c in kind.columns)
    assert f"audit event number {last['seq']}" in readme


def test_taking_the_archive_is_written_in_the_citys_audit_trail(cities, bl_admin):
    client_for(bl_admin).get(URL)
    client_for(bl_admin).get(URL)
    taken = list(Event.objects.filter(act="export_city_archive").order_by("seq"))
    assert len(taken) == 2
    first = taken[0]
    assert (
        first.case_id is None and first.jurisdiction == BATTLE_LAKE and first.chain == city_chain(BATTLE_LAKE)
    )
    assert first.actor == bl_admin and "administrator" in first.actor_roles and "bl-admin" in first.summary
    assert verify_chain().ok and verify_all()["ok"]
