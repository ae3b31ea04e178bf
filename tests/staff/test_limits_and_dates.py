"""Nothing is cut silently and no date is impossible (issue 10, items 2 and 3): every text has a documented
limit, held the same way on the forms and the API ("At most N characters (you wrote M)"); a date that does not
exist says so; an incident before 1900 is a message on its field."""

import datetime as dt
import json

import pytest
from django.test import Client
from django.utils import timezone

from dogcase.cases import acts, updates
from dogcase.cases.models import Event, Incident, Person
from tests.staff.conftest import client_for, declare, record_bite
from tests.staff.test_intake import intake

pytestmark = pytest.mark.django_db


def test_the_intake_refuses_a_place_over_its_limit_instead_of_cutting_it(officer):
    response = client_for(officer).post("/incidents/new", intake(place="P" * 250))
    assert response.status_code == 400
    assert response.context["errors"]["place"] == "At most 200 characters (you wrote 250)."
    assert not Incident.objects.exists()


def test_the_intake_refuses_a_narrative_over_20000_characters(officer):
    response = client_for(officer).post("/incidents/new", intake(narrative="n" * 20_001))
    assert response.status_code == 400
    assert response.context["errors"]["narrative"] == "At most 20,000 characters (you wrote 20,001)."
    assert not Incident.objects.exists()
    # the longest narrative allowed is kept whole
    assert client_for(officer).post("/incidents/new", intake(narrative="n" * 20_000)).status_code == 302
    assert len(Incident.objects.get().narrative) == 20_000


def test_the_count_is_what_was_written_not_what_was_kept(officer):
    """The intake used to cut every field to 200 characters first: a 500-character telephone number was
    refused as "this is 200"."""
    response = client_for(officer).post("/incidents/new", intake(**{"dog-0-owner_phone": "5" * 500}))
    assert response.status_code == 400
    assert response.context["errors"]["dog-0-owner_phone"] == "At most 40 characters (you wrote 500)."
    assert not Person.objects.exists()


def test_a_witness_statement_over_its_limit_is_a_message_on_its_field(officer):
    response = client_for(officer).post("/incidents/new", intake(**{"witness-0-statement": "s" * 5_001}))
    assert response.status_code == 400
    assert response.context["errors"]["witness-0-statement"] == "At most 5,000 characters (you wrote 5,001)."


def test_an_impossible_incident_date_says_it_does_not_exist(officer):
    response = client_for(officer).post("/incidents/new", intake(occurred_at="2026-02-30T10:00"))
    assert response.status_code == 400
    assert response.context["errors"]["occurred_at"] == (
        "30 February 2026 does not exist: February 2026 has 28 days."
    )


def test_an_incident_before_1900_is_a_field_message_never_a_server_error(officer):
    response = client_for(officer).post("/incidents/new", intake(occurred_at="1899-12-31T23:59"))
    assert response.status_code == 400
    assert response.context["errors"]["occurred_at"].startswith(
        "The incident cannot be before Monday 1 January 1900"
    )


def test_an_impossible_date_on_an_act_form_says_it_does_not_exist(officer):
    case = record_bite(officer)
    declare(case, officer)
    case.refresh_from_db()
    response = client_for(officer).post(
        f"/cases/{case.number}/act/serve_notice",
        {
            "version": case.version,
            "in-served_on": "2026-02-30",
            "in-method": "personal",
            "in-served_owner": "O",
        },
    )
    assert response.status_code == 400
    field = next(f for f in response.context["fields"] if f["id"] == "served_on")
    assert field["error"] == "30 February 2026 does not exist: February 2026 has 28 days."


def test_an_act_forms_text_is_not_cut_but_refused_over_its_limit(officer):
    case = record_bite(officer)
    response = client_for(officer).post(
        f"/cases/{case.number}/act/declare",
        {
            "version": case.version,
            "in-designation": "potentially_dangerous",
            "in-basis": "b" * 5_001,
            "in-declarant_telephone": "218-555-0150",
        },
    )
    assert response.status_code == 400
    field = next(f for f in response.context["fields"] if f["id"] == "basis")
    assert field["error"] == "At most 5,000 characters (you wrote 5,001)"
    assert field["max_length"] == "5,000"
    assert "At most 5,000 characters." in response.content.decode()  # said beside the field beforehand
    assert not case.events.filter(act="declare").exists()


def test_the_api_holds_a_step_text_to_the_same_limit_and_nothing_reaches_the_audit_trail(officer):
    case = record_bite(officer)
    declare(case, officer)
    case.refresh_from_db()
    client = Client()
    client.force_login(officer)
    events = Event.objects.count()
    address = "1 Main St " * 10_000  # 100,000 characters
    response = client.post(
        f"/api/v1/cases/{case.number}/steps/serve_notice",
        json.dumps(
            {
                "version": case.version,
                "inputs": {
                    "served_on": timezone.localdate().isoformat(),
                    "method": "personal",
                    "served_owner": address.strip(),
                },
            }
        ),
        content_type="application/json",
    )
    assert response.status_code == 422, response.content
    # the owner served is a name: held to its pack's limit (issue 20, item 7), not the 5,000 of a long text
    assert response.json()["error"] == {
        "field": "inputs.served_owner",
        "rule": "At most 200 characters (you wrote 99,999)",
    }
    assert len(response.content) < 2_000  # the value is not echoed back
    assert Event.objects.count() == events


def test_an_ownership_starts_between_1900_and_today(officer):
    case = record_bite(officer)
    other = acts.record_person(jurisdiction=case.jurisdiction, actor=officer, full_name="Co Owner")
    with pytest.raises(acts.InvalidInput) as caught:
        updates.add_owner(
            case.dog, person=other, actor=officer, since=dt.date(1899, 12, 31), reason="co-owner"
        )
    assert (caught.value.field, caught.value.rule) == ("since", "cannot be before Monday 1 January 1900")
    tomorrow = timezone.localdate() + dt.timedelta(days=2)
    with pytest.raises(acts.InvalidInput) as caught:
        updates.add_owner(case.dog, person=other, actor=officer, since=tomorrow, reason="co-owner")
    assert caught.value.rule.startswith("cannot be in the future (today is ")


def test_a_correction_reason_has_a_limit(officer):
    case = record_bite(officer)
    declare(case, officer)
    event = case.events.get(act="declare")
    with pytest.raises(acts.InvalidInput) as caught:
        acts.correct_event_date(
            case,
            event=event,
            name="declaration",
            value=timezone.localdate(),
            reason="r" * 2_001,
            actor=officer,
            expected_version=case.version + 1,
        )
    assert caught.value.rule == "At most 2,000 characters (you wrote 2,001)"
