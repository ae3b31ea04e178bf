"""An act's form has a one-time key in its own address once opened (formkey.js puts it there): Back to the form
after it was sent returns to that address, and the server shows the act already recorded instead of a fresh
form that would record a repeatable act a second time. A key not yet used opens the form with that key; a key
of another person's act opens a fresh form."""

import re

import pytest
from django.utils import timezone

from dogcase.cases import acts
from dogcase.cases.models import Event
from dogcase.demo import with_complete_notices
from dogcase.documents import acts as document_acts
from tests.staff.conftest import client_for, declare, record_bite, take

pytestmark = pytest.mark.django_db


def _token(html: str) -> str:
    return re.search(r'name="idempotency_key" value="([^"]+)"', html).group(1)


def _further_service(case, actor, token):
    case.refresh_from_db()
    today = timezone.localdate().isoformat()
    inputs = with_complete_notices(
        case,
        "record_further_service",
        acts.now(),
        {"sent_on": today, "method": "personal", "served_owner": "O"},
    )
    return document_acts.take_step_without_issuing(
        case,
        "record_further_service",
        actor=actor,
        inputs=inputs,
        expected_version=case.version,
        idempotency_key=token,
    )


def test_back_to_a_sent_form_shows_the_act_recorded_once(officer, clerk):
    case = record_bite(officer)
    declare(case, officer)
    today = timezone.localdate().isoformat()
    take(
        case, "serve_notice", officer, served_on=today, method="personal", served_owner="O", received_on=today
    )
    client = client_for(officer)
    url = f"/cases/{case.number}/act/record_further_service"
    page = client.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    token = _token(html)
    assert f'data-keyed-url="{url}?key={token}"' in html

    # the key not yet used: the form opens with it
    again = client.get(f"{url}?key={token}")
    assert again.status_code == 200 and _token(again.content.decode()) == token

    # the form sent (the act recorded with the form's key), then Back to its address
    _further_service(case, officer, token)
    back = client.get(f"{url}?key={token}", follow=True)
    assert back.redirect_chain[-1][0] == f"/cases/{case.number}#timeline"
    assert "was already recorded from this form; it was saved once" in back.content.decode()
    assert Event.objects.filter(case=case, act="record_further_service").count() == 1

    # the same address opened by someone else: a fresh form, never theirs to replay
    other = client_for(clerk).get(f"{url}?key={token}")
    assert other.status_code == 200 and _token(other.content.decode()) != token
