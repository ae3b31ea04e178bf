"""Issue 20 item 5: every form that creates a record carries a one-time key. A second submission of the same
form — Back and submit again, a double click, two at once — shows the record already created ("This was
already recorded: …"), never a second record; the key is claimed in the database with the create."""

import re
import threading
import uuid

import pytest
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.utils import timezone

from dogcase.cases.models import Case, Dog, Event, Incident, Ownership, Person, PriorHistoryEntry
from dogcase.staff.models import FormKey
from tests.proofs.helpers import STORED_PNG
from tests.staff.conftest import client_for, record_bite
from tests.staff.test_intake import intake

pytestmark = pytest.mark.django_db

UUID = re.compile(r"key=([0-9a-f-]{36})")


def _key_of_form(client, path: str) -> tuple[str, str]:
    """Open a create form as a browser does: sent on to its address with a key; (address, key)."""
    first = client.get(path)
    assert first.status_code == 302
    found = UUID.search(first.url)
    assert found, first.url
    page = client.get(first.url)
    assert page.status_code == 200
    assert f'name="idempotency_key" value="{found.group(1)}"' in page.content.decode()
    return first.url, found.group(1)


def _said(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def test_a_create_form_opened_without_a_key_is_given_one_and_keeps_what_the_address_asked(officer):
    dog = record_bite(officer, dog_name="Biscuit").dog
    client = client_for(officer)
    address, key = _key_of_form(client, f"/incidents/new?dog={dog.pk}")
    assert f"dog={dog.pk}" in address
    page = client.get(address)
    assert page.context["dog_rows"][0].existing == str(dog.pk)  # the dog chosen on its page is still named
    # two openings of the form are two forms: two keys
    assert _key_of_form(client, "/incidents/new")[1] != key


def test_back_and_resubmit_of_the_intake_lands_on_the_first_record(officer):
    client = client_for(officer)
    address, key = _key_of_form(client, "/incidents/new")
    data = intake(idempotency_key=key)
    first = client.post(address, data)
    assert first.status_code == 302
    incident = Incident.objects.get()
    case = Case.objects.get()
    assert first.url == f"/cases/{case.number}"
    # Back: the browser asks for the form's address again — the record it created, said so
    back = client.get(address)
    assert back.status_code == 302 and back.url == first.url
    words = " ".join(_said(back))
    assert "This was already recorded" in words and incident.number in words and case.number in words
    # … and submitted again (a page kept by the browser): the same record, nothing recorded twice
    again = client.post(address, data)
    assert again.status_code == 302 and again.url == first.url
    assert "This was already recorded" in " ".join(_said(again))
    assert Incident.objects.count() == 1 and Case.objects.count() == 1 and Dog.objects.count() == 1
    assert Event.objects.filter(act="open_case").count() == 1
    claim = FormKey.objects.get(key=key)
    assert claim.user == officer and claim.form == "incident"


def test_a_refused_submission_does_not_use_the_key(officer):
    client = client_for(officer)
    address, key = _key_of_form(client, "/incidents/new")
    refused = client.post(address, intake(idempotency_key=key, place=""))
    assert refused.status_code == 400
    assert not FormKey.objects.filter(key=key).exists()  # rolled back with the records
    assert refused.context["token"] == key  # the corrected form is still this form
    done = client.post(address, intake(idempotency_key=key))
    assert done.status_code == 302 and Incident.objects.count() == 1


def test_someone_elses_key_records_nothing_and_says_nothing_of_their_record(officer, make_staff_user):
    other = make_staff_user("animal_control_officer", username="second-officer")
    mine = client_for(officer)
    address, key = _key_of_form(mine, "/incidents/new")
    assert mine.post(address, intake(idempotency_key=key)).status_code == 302
    number = Incident.objects.get().number
    theirs = client_for(other)
    refused = theirs.post(address, intake(idempotency_key=key, place="Elsewhere"))
    assert refused.status_code == 400
    assert number not in refused.content.decode()
    assert Incident.objects.count() == 1
    # opening the form at that address gives them a form of their own
    opened = theirs.get(address)
    assert opened.status_code == 302 and key not in opened.url


def test_add_owner_twice_records_one_owner(officer):
    dog = record_bite(officer).dog
    client = client_for(officer)
    address, key = _key_of_form(client, f"/dogs/{dog.pk}/owners/add")
    data = {
        "idempotency_key": key,
        "person": "new",
        "since": "2026-01-05",
        "reason": "Bought half of the dog",
        "new-full_name": "Sam Second",
        "new-preferred_language": "en",
    }
    first = client.post(address, data)
    assert first.status_code == 302
    again = client.post(address, data)
    assert again.status_code == 302 and again.url == first.url
    assert "This was already recorded: Sam Second as an owner of" in " ".join(_said(again))
    assert Person.objects.filter(full_name="Sam Second").count() == 1
    assert Ownership.objects.filter(dog=dog, person__full_name="Sam Second").count() == 1
    back = client.get(address)
    assert back.status_code == 302 and back.url == first.url


def test_add_to_incident_twice_adds_once(officer):
    incident = record_bite(officer).incident
    client = client_for(officer)
    address, key = _key_of_form(client, f"/incidents/{incident.number}/add")
    data = {
        "idempotency_key": key,
        "description": "Photo of the bite",
        "witness_name": "Wes Late",
        "witness_contact": "218-555-0123",
        "witness_statement": "I saw it from the porch.",
    }
    first = client.post(
        address, {**data, "file": SimpleUploadedFile("bite.png", STORED_PNG, content_type="image/png")}
    )
    assert first.status_code == 302
    again = client.post(
        address, {**data, "file": SimpleUploadedFile("bite.png", STORED_PNG, content_type="image/png")}
    )
    assert again.status_code == 302 and again.url == first.url
    said = " ".join(_said(again))
    assert "This was already recorded: the evidence and the witness added to incident" in said
    assert incident.witnesses.filter(name="Wes Late").count() == 1
    assert incident.evidence.count() == 1


def test_prior_history_twice_records_one_entry(officer):
    dog = record_bite(officer).dog
    client = client_for(officer)
    address, key = _key_of_form(client, f"/dogs/{dog.pk}/prior-history/add")
    data = {
        "idempotency_key": key,
        "on": "2024-05-01",
        "what": PriorHistoryEntry.What.BITE,
        "by_whom": "Otter Tail County Sheriff",
        "source": "Sheriff's report 24-118",
        "note": "",
    }
    first = client.post(address, data)
    assert first.status_code == 302, first.content.decode()[:2000]
    again = client.post(address, data)
    assert again.status_code == 302 and again.url == first.url
    assert "This was already recorded: prior history of" in " ".join(_said(again))
    assert PriorHistoryEntry.objects.filter(dog=dog).count() == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="needs a server database: real parallel writers"
)
def test_two_submissions_at_once_create_one_incident(officer):
    key = str(uuid.uuid4())
    data = intake(idempotency_key=key)
    barrier = threading.Barrier(2)
    answers: list[str] = []

    def submit():
        try:
            client = client_for(officer)
            barrier.wait()
            answers.append(client.post(f"/incidents/new?key={key}", data).url)
        finally:
            connection.close()

    threads = [threading.Thread(target=submit) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert Incident.objects.count() == 1 and Case.objects.count() == 1
    case = Case.objects.get()
    assert answers == [f"/cases/{case.number}"] * 2  # both shown the one record
    assert FormKey.objects.filter(key=key).count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_claimed_key_is_refused_by_the_database_itself(officer):
    """The unique key is what holds under concurrency: a second claim inside a transaction is refused, and
    the transaction that tried it keeps nothing."""
    from django.db import transaction

    from dogcase.staff import onetime

    key = str(uuid.uuid4())
    with transaction.atomic():
        onetime.claim(key, user=officer, form="incident")
        onetime.recorded(key, label="incident X", url="/cases/X")
    with pytest.raises(onetime.AlreadyRecorded) as raised, transaction.atomic():
        Person.objects.create(
            jurisdiction="battle-lake-mn", full_name="Never Kept", created_at=timezone.now()
        )
        onetime.claim(key, user=officer, form="incident")
    assert raised.value.claim.url == "/cases/X"
    assert not Person.objects.filter(full_name="Never Kept").exists()


def test_a_submission_that_checked_before_the_other_committed_is_stopped_by_the_claim(officer, monkeypatch):
    """The race on any database: the second submission looked for the key before the first committed (found
    nothing), then claims it inside its own transaction — refused there, its records rolled back, and it is
    shown the first record."""
    from dogcase.staff import onetime, queries

    client = client_for(officer)
    address, key = _key_of_form(client, "/incidents/new")
    data = intake(idempotency_key=key)
    first = client.post(address, data)
    # as if the first had not committed yet when the second looked
    monkeypatch.setattr(onetime, "used", lambda key: None)
    monkeypatch.setattr(queries, "replayed_event", lambda key: None)
    second = client.post(
        address, {**data, "dog-0-name": "Other", "dog-0-microchip_number": "985112003456000"}
    )
    assert second.status_code == 302 and second.url == first.url
    assert "This was already recorded" in " ".join(_said(second))
    assert Incident.objects.count() == 1 and Dog.objects.count() == 1 and Case.objects.count() == 1
