"""Issue 20 item 4: a declaration the recorded facts do not support. The form of a step that sets the
designation warns what the facts show and what is missing, with the citation, and asks for the reason — a
required field only when the designation chosen departs from the facts; the reason is written into the step's
event when the step is taken and shown to the hearing officer; the API applies the same rule."""

import json
import re
from html import unescape

import pytest

from dogcase.cases.acts import declarations
from dogcase.cases.audit import verify_chain
from dogcase.cases.models import Event
from tests.staff.conftest import TRACY, client_for, record_bite, take

pytestmark = pytest.mark.django_db

REASON = "The victim's hospital report, received after the intake, shows a broken bone."


def text_of(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def classification_of(case) -> dict:
    return {
        d["designation"]: d
        for d in Event.objects.get(case=case, act="open_case").data["classification"]["designations"]
    }


def post_declare(client, case, designation, **extra):
    case.refresh_from_db()
    return client.post(
        f"/cases/{case.number}/act/declare",
        {
            "version": case.version,
            "in-designation": designation,
            "in-basis": "Bit a jogger on Lake Ave",
            "in-declarant_telephone": "218-555-0150",
            **extra,
        },
    )


def test_the_declare_form_says_which_designation_the_facts_do_not_support_and_why(officer):
    case = record_bite(officer)  # an unprovoked bite on a person in public: potentially dangerous only
    facts = classification_of(case)
    assert facts["potentially_dangerous"]["status"] == "eligible"
    assert facts["dangerous"]["status"] != "eligible"
    page = client_for(officer).get(f"/cases/{case.number}/act/declare")
    html = page.content.decode()
    text = text_of(html)
    assert "Before you choose: what the facts recorded support" in text
    assert f"Dangerous dog: {facts['dangerous']['summary']}" in text
    assert "§ 90.15 (C)(1)(a)" in text  # the clauses read, cited
    assert "The facts recorded support: potentially dangerous dog" in text
    # the reason is asked, required only for the designation the facts do not support
    assert 'name="departure_reason"' in html
    assert "(required only if you choose dangerous dog)" in text
    assert not re.search(r'<textarea id="departure_reason"[^>]*required', html)


def test_declaring_against_the_facts_without_a_reason_is_refused_on_the_reason(officer):
    case = record_bite(officer)
    client = client_for(officer)
    refused = post_declare(client, case, "dangerous")
    assert refused.status_code == 400
    assert not case.events.filter(act="declare").exists()
    html = refused.content.decode()
    text = text_of(html)
    assert "The facts recorded do not support this declaration" in text
    assert "give the reason for the declaration" in text
    assert re.search(r'<textarea id="departure_reason"[^>]*required', html)
    assert 'aria-invalid="true" aria-describedby="departure_reason-error"' in html
    # what was chosen stays chosen
    assert 'value="dangerous" checked' in html
    # blank is no reason
    assert post_declare(client, case, "dangerous", departure_reason="   ").status_code == 400


def test_the_reason_goes_into_the_declarations_event_and_the_hearing_officer_reads_it(
    officer, hearing_officer
):
    case = record_bite(officer)
    done = post_declare(client_for(officer), case, "dangerous", departure_reason=REASON)
    assert done.status_code == 302
    event = case.events.get(act="declare")
    departure = event.data["departure"]
    assert departure["reason"] == REASON
    assert departure["designation"] == "dangerous" and departure["status"] == "not_eligible"
    assert "§ 90.15 (C)(1)(a)" in departure["citation"]
    assert verify_chain().ok  # written with the event, in its hash: never added afterwards
    case.refresh_from_db()
    assert case.designation == "dangerous"
    # the hearing officer: on the case page, and on the forms of the case
    page = text_of(client_for(hearing_officer).get(f"/cases/{case.number}").content.decode())
    assert "Declared against what the facts recorded supported" in page
    assert REASON in page
    assert "Dangerous dog was declared on" in page
    form = text_of(client_for(officer).get(f"/cases/{case.number}/act/serve_notice").content.decode())
    assert REASON in form


def test_a_declaration_the_facts_support_needs_no_reason_and_records_none(officer):
    case = record_bite(officer)
    client = client_for(officer)
    done = post_declare(client, case, "potentially_dangerous", departure_reason="typed anyway")
    assert done.status_code == 302
    event = case.events.get(act="declare")
    assert "departure" not in event.data
    page = text_of(client.get(f"/cases/{case.number}").content.decode())
    assert "Declared against what the facts recorded supported" not in page


def test_facts_not_enough_to_say_name_the_questions_still_unanswered(officer):
    case = record_bite(officer, facts={})  # nothing answered: every designation undetermined
    facts = classification_of(case)
    assert facts["potentially_dangerous"]["status"] == "undetermined"
    client = client_for(officer)
    refused = post_declare(client, case, "potentially_dangerous")
    assert refused.status_code == 400
    text = text_of(refused.content.decode())
    assert "The facts recorded are not enough to say whether the dog is a potentially dangerous dog" in text
    first_question = facts["potentially_dangerous"]["missing_facts"][0]["question"]
    assert "Still missing:" in text and first_question in text
    assert post_declare(client, case, "potentially_dangerous", departure_reason=REASON).status_code == 302
    departure = case.events.get(act="declare").data["departure"]
    assert departure["status"] == "undetermined" and first_question in departure["missing"]


def test_tracys_classification_is_held_to_the_same_rule(officer, clerk):
    case = record_bite(officer, city=TRACY, facts={})
    assert classification_of(case)["vicious"]["status"] != "eligible"
    client = client_for(clerk)
    data = {"version": case.version, "in-designation": "vicious", "in-reasonable_cause": "Bit a child"}
    refused = client.post(f"/cases/{case.number}/act/classify", data)
    assert refused.status_code == 400, refused.content.decode()[:3000]
    assert "give the reason for the declaration" in text_of(refused.content.decode())
    done = client.post(f"/cases/{case.number}/act/classify", {**data, "departure_reason": REASON})
    assert done.status_code == 302
    assert case.events.get(act="classify").data["departure"]["reason"] == REASON


def test_the_procedure_alone_takes_steps_without_the_rule(officer):
    """The statewide data set and the procedure's own tests (take_step_without_issuing) are not held to it."""
    case = record_bite(officer)
    take(case, "declare", officer, designation="dangerous", basis="Bite", declarant_telephone="218-555-0150")
    assert "departure" not in case.events.get(act="declare").data


def test_the_steps_that_set_the_designation_are_found_by_their_input_in_every_city():
    from django.utils import timezone

    from dogcase.law import library

    for city, expected in (
        ("battle-lake-mn", {"declare"}),
        ("mn-statute", {"declare"}),
        (TRACY, {"classify", "declare"}),
    ):
        procedure = library().get(city).procedure(timezone.localdate())
        assert {s.id for s in procedure if declarations.sets_designation(s)} == expected, city


def _api(client, case, designation, **extra):
    case.refresh_from_db()
    return client.post(
        f"/api/v1/cases/{case.number}/steps/declare",
        json.dumps(
            {
                "version": case.version,
                "inputs": {
                    "designation": designation,
                    "basis": "Bite",
                    "declarant_telephone": "218-555-0150",
                },
                **extra,
            }
        ),
        content_type="application/json",
    )


def test_the_api_refuses_a_declaration_against_the_facts_without_a_reason_naming_the_field_and_rule(officer):
    case = record_bite(officer)
    client = client_for(officer)
    refused = _api(client, case, "dangerous")
    assert refused.status_code == 422
    error = refused.json()["error"]
    assert error["field"] == "departure_reason"
    assert "do not support declaring the dog a dangerous dog" in error["rule"]
    assert "give the reason" in error["rule"]
    assert not case.events.filter(act="declare").exists()
    done = _api(client, case, "dangerous", departure_reason=REASON)
    assert done.status_code == 201, done.content
    assert case.events.get(act="declare").data["departure"]["reason"] == REASON
