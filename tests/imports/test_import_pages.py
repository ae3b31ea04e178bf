"""The import's pages: a file sent, its columns shown matched with the file's first rows, the check's problems
listed by row and column, the file brought in; a refused file shown on its field; the pages only for the
city's record keepers, each run only in one's own cities."""

from __future__ import annotations

import pytest
from django.test import Client

from dogcase.cases.models import Dog, Incident
from dogcase.imports.models import ImportRun
from tests.imports.conftest import CITY, FILES

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def send(client, name: str, kind: str, data: bytes | None = None, source: str = "ASM3"):
    from django.core.files.uploadedfile import SimpleUploadedFile

    body = data if data is not None else (FILES / name).read_bytes()
    return client.post(
        "/imports/",
        {"city": CITY, "kind": kind, "source": source, "file": SimpleUploadedFile(name, body)},
    )


def test_a_file_walks_from_sending_to_brought_in(clerk, django_capture_on_commit_callbacks):
    client = client_for(clerk)
    page = client.get("/imports/")
    assert page.status_code == 200 and "Bring records in" in page.content.decode()
    sent = send(client, "asm3_animals.csv", "dogs")
    run = ImportRun.objects.get()
    assert sent.status_code == 302 and sent.url == f"/imports/{run.pk}/columns"
    columns = client.get(sent.url).content.decode()
    assert 'value="ANIMALNAME" selected' in columns  # suggested from ASM3's column names
    assert "Rocky" in columns  # the first rows of the file
    form = {
        "name": "ANIMALNAME",
        "ref": "ANIMALCODE",
        "species": "ANIMALSPECIES",
        "sex": "ANIMALSEX",
        "microchip_number": "ANIMALMICROCHIP",
        "owner_first_name": "PERSONFIRSTNAME",
        "owner_last_name": "PERSONLASTNAME",
        "owner_street": "PERSONADDRESS",
        "owner_city_name": "PERSONCITY",
    }
    with django_capture_on_commit_callbacks(execute=True):
        checked = client.post(sent.url, form)
    assert checked.url == f"/imports/{run.pk}"
    found = client.get(checked.url).content.decode()
    assert (
        "What the check found" in found
        and "3 dogs" in found
        and "Skipped, animals other than dogs: 1" in found
    )
    assert Dog.objects.count() == 0
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/imports/{run.pk}/bring-in")
    done = client.get(f"/imports/{run.pk}").content.decode()
    assert "What was brought in" in done and "Created: 3 dogs" in done
    assert Dog.objects.count() == 3


def test_problems_are_listed_by_row_and_column_and_the_file_cannot_be_brought_in(
    clerk, django_capture_on_commit_callbacks
):
    client = client_for(clerk)
    data = b"INCIDENTDATE,DISPATCHADDRESS,ANIMALCODE\n13/45/2024,Main St,D1\n"
    send(client, "incidents.csv", "incidents", data)
    run = ImportRun.objects.get()
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            f"/imports/{run.pk}/columns",
            {
                "occurred_on": "INCIDENTDATE",
                "place": "DISPATCHADDRESS",
                "dog_ref": "ANIMALCODE",
                "place_type": "value:public",
            },
        )
    page = client.get(f"/imports/{run.pk}").content.decode()
    assert "1 problem: nothing is brought in" in page
    assert (
        '<td data-label="Row">2</td><td data-label="Column"><span class="as-given">INCIDENTDATE</span></td>'
        in page
    )
    assert "Not a date" in page and "Bring in 1 row" not in page
    refused = client.post(f"/imports/{run.pk}/bring-in")
    assert refused.status_code == 400 and Incident.objects.count() == 0


def test_a_file_that_is_not_a_table_is_refused_beside_its_field(clerk):
    client = client_for(clerk)
    page = send(client, "photo.csv", "dogs", b"\x89PNG\r\n\x1a\n" + b"\0" * 64)
    assert page.status_code == 400
    html = page.content.decode()
    assert 'id="import-file-error"' in html and "neither" in html
    assert not ImportRun.objects.exists()


def test_a_required_field_left_unmatched_is_shown_on_its_select(clerk):
    client = client_for(clerk)
    send(client, "asm3_animals.csv", "dogs")
    run = ImportRun.objects.get()
    page = client.post(f"/imports/{run.pk}/columns", {"breed": "ANIMALBREED1"})
    assert page.status_code == 400
    assert 'id="col-name-error"' in page.content.decode()


def test_the_pages_are_only_for_the_citys_record_keepers(make_staff_user, clerk):
    for role in ("police_officer", "hearing_officer", "auditor"):
        assert client_for(make_staff_user(role)).get("/imports/").status_code == 403
    send(client_for(clerk), "asm3_animals.csv", "dogs")
    run = ImportRun.objects.get()
    other = make_staff_user("city_clerk", username="tracy-clerk", cities=["tracy-mn"])
    assert client_for(other).get(f"/imports/{run.pk}").status_code == 404
    assert client_for(other).get(f"/imports/{run.pk}/columns").status_code == 404


def test_another_citys_clerk_can_neither_match_nor_bring_in_nor_watch(make_staff_user, clerk):
    send(client_for(clerk), "asm3_animals.csv", "dogs")
    run = ImportRun.objects.get()
    other = client_for(make_staff_user("city_clerk", username="tracy-clerk", cities=["tracy-mn"]))
    assert other.post(f"/imports/{run.pk}/columns", {"name": "ANIMALNAME"}).status_code == 404
    assert other.post(f"/imports/{run.pk}/bring-in").status_code == 404
    assert other.get(f"/imports/{run.pk}/progress").status_code == 404
    assert ImportRun.objects.get().status == ImportRun.Status.MAPPING


@pytest.mark.parametrize(
    "hour, words", [(6, "6:54 a.m. on 3 December 2026."), (18, "6:54 p.m. on 3 December 2026.")]
)
def test_the_file_says_when_it_was_sent_in_one_sentence(clerk, hour, words):
    """The time ends in "a.m."/"p.m.", so the sentence ends with the date, not with a second full stop."""
    import datetime as dt
    from zoneinfo import ZoneInfo

    client = client_for(clerk)
    send(client, "asm3_animals.csv", "dogs")
    run = ImportRun.objects.get()
    sent = dt.datetime(2026, 12, 3, hour, 54, tzinfo=ZoneInfo("America/Chicago"))
    ImportRun.objects.filter(pk=run.pk).update(created_at=sent)
    page = client.get(f"/imports/{run.pk}").content.decode()
    assert f" at {words}</p>" in page and "m..</p>" not in page
