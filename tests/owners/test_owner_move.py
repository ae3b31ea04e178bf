"""The owner tells the city, from the portal, that the dangerous dog moved: the form offers the other cities
served here and any other place (named), in the owner's language; a move to Tracy opens the case there."""

import pytest
from django.test import Client
from django.utils import timezone

from dogcase.cases.models import CaseMove, Person
from dogcase.law import ELSEWHERE
from dogcase.owners import codes
from tests.owners.conftest import owner_of, served_recently

pytestmark = pytest.mark.django_db


def signed_in(s, language="en"):
    person = owner_of(s)
    Person.objects.filter(pk=person.pk).update(preferred_language=language)
    _row, code = codes.issue_code(s.case, person, actor=s.staff["officer"])
    client = Client()
    assert client.post("/owner/", {"code": code, "fact": "Rex"}).status_code == 302
    return client


def test_the_owner_s_notice_of_a_move_to_tracy_takes_the_case_there(story):
    s = served_recently(story, designation="dangerous")
    client = signed_in(s)
    url = f"/owner/cases/{s.case.number}/file/record_move"
    form = client.get(url).content.decode()
    assert 'type="radio" name="in-destination" value="tracy-mn"' in form
    assert f'value="{ELSEWHERE}"' in form and "Another city or county (write its name below)" in form
    s.case.refresh_from_db()
    missing_name = client.post(
        url,
        {
            "idempotency_key": "m1",
            "version": s.case.version,
            "in-moved_on": timezone.localdate().isoformat(),
            "in-destination": ELSEWHERE,
            "in-new_address": "1 A St",
        },
    )
    assert missing_name.status_code == 400
    assert "Name the city or county the dog moved to" in missing_name.content.decode()
    response = client.post(
        url,
        {
            "idempotency_key": "m2",
            "version": s.case.version,
            "in-moved_on": timezone.localdate().isoformat(),
            "in-destination": "tracy-mn",
            "in-new_address": "9 Oak Avenue, Tracy, MN 56175",
        },
    )
    assert response.status_code == 302
    there = CaseMove.objects.get(from_case=s.case).to_case
    assert there.jurisdiction == "tracy-mn" and there.designation == "dangerous" and there.opened_by is None


def test_the_move_form_speaks_spanish(story):
    s = served_recently(story, designation="dangerous")
    form = signed_in(s, "es").get(f"/owner/cases/{s.case.number}/file/record_move").content.decode()
    assert "La ciudad o el condado adonde se mudó el perro" in form
    assert "Otra ciudad o condado (escriba su nombre abajo)" in form
