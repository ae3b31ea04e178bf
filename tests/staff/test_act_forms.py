"""The form of each legal act: built from the step's inputs, and every error of the act mapped back to it."""

import datetime as dt

import pytest
from django.utils import timezone

from dogcase.cases import acts
from dogcase.cases.models import Event
from dogcase.demo import with_complete_notices
from tests.staff.conftest import client_for, declare, record_bite, take

pytestmark = pytest.mark.django_db


def post_declare(client, case, *, version=None, key=None, **fields):
    data = {
        "version": case.version if version is None else version,
        "in-designation": "potentially_dangerous",
        "in-basis": "Bit a jogger on Lake Ave without provocation",
        "in-declarant_telephone": "218-555-0150",
    }
    if key:
        data["idempotency_key"] = key
    data.update(fields)
    return client.post(f"/cases/{case.number}/act/declare", data)


def test_the_form_is_built_from_the_steps_inputs_with_version_and_token(officer):
    case = record_bite(officer)
    response = client_for(officer).get(f"/cases/{case.number}/act/declare")
    html = response.content.decode()
    assert response.status_code == 200
    assert "<h1>Declare the dog potentially dangerous or dangerous</h1>" in html
    assert f'name="version" value="{case.version}"' in html
    assert 'name="idempotency_key" value="' in html
    assert 'name="in-designation" value="potentially_dangerous"' in html
    assert "Potentially dangerous dog" in html and "Dangerous dog" in html
    assert 'name="in-basis"' in html
    assert "§ 90.15 (B)(1)" in html  # the citation beside the form


def test_taking_the_step_records_one_event_and_returns_to_the_case(officer):
    case = record_bite(officer)
    response = post_declare(client_for(officer), case)
    assert response.status_code == 302
    assert response.url == f"/cases/{case.number}#timeline"
    case.refresh_from_db()
    assert case.designation == "potentially_dangerous"
    assert case.events.filter(act="declare", actor=officer).count() == 1
    page = client_for(officer).get(f"/cases/{case.number}").content.decode()
    assert "Potentially dangerous dog — <strong>in effect</strong>" in page


def test_a_missing_answer_is_shown_on_its_field_and_the_rest_is_kept(officer):
    case = record_bite(officer)
    response = post_declare(client_for(officer), case, **{"in-basis": ""})
    html = response.content.decode()
    assert response.status_code == 400
    assert 'id="in-basis-error"' in html
    assert response.context["fields"][0]["value"] == "potentially_dangerous"
    assert not case.events.filter(act="declare").exists()


def test_the_laws_rejection_of_a_value_is_shown_on_that_field(officer):
    case = record_bite(officer)
    declare(case, officer)
    case.refresh_from_db()
    response = client_for(officer).post(
        f"/cases/{case.number}/act/serve_notice",
        {
            "version": case.version,
            "in-served_on": timezone.localdate().isoformat(),
            "in-method": "carrier_pigeon",
            "in-served_owner": "Pat Owner",
        },
    )
    assert response.status_code == 400
    method = next(f for f in response.context["fields"] if f["id"] == "method")
    # in the words of the choices the form offered, not the engine's ids
    assert method["error"] == "Choose one of the choices offered: Personal; Certified mail."
    served_owner = next(f for f in response.context["fields"] if f["id"] == "served_owner")
    assert served_owner["value"] == "Pat Owner"
    assert not case.events.filter(act="serve_notice").exists()


def test_a_refused_step_says_why_with_the_citation(officer, clerk):
    case = record_bite(officer)
    client = client_for(clerk)
    page = client.get(f"/cases/{case.number}/act/declare").content.decode()
    assert "You cannot take this step now" in page
    response = post_declare(client, case)
    html = response.content.decode()
    assert response.status_code == 409
    assert "The law does not allow this step now" in html
    assert "§ 90.15" in html
    assert not case.events.filter(act="declare").exists()


def serve_notice_data(case, version, key="", **extra):
    data = {
        "version": version,
        "in-served_on": timezone.localdate().isoformat(),
        "in-method": "personal",
        "in-served_owner": "Pat Owner, handed at the door",
        "in-contents": with_complete_notices(case, "serve_notice", acts.now(), {})["contents"],
    }
    if key:
        data["idempotency_key"] = key
    data.update(extra)
    return data


def test_a_stale_form_shows_the_case_as_it_is_now_and_is_re_rendered_at_the_new_version(officer, clerk):
    case = record_bite(officer)
    declare(case, officer)
    client = client_for(officer)
    form = client.get(f"/cases/{case.number}/act/serve_notice")
    opened_at_version = form.context["version"]
    # Someone else acts on the case meanwhile.
    today = timezone.localdate().isoformat()
    take(case, "record_landlord_disclosure", clerk, lease_start=today, disclosed_on=today)
    case.refresh_from_db()

    url = f"/cases/{case.number}/act/serve_notice"
    response = client.post(url, serve_notice_data(case, opened_at_version, form.context["token"]))
    html = response.content.decode()
    assert response.status_code == 409
    assert "Someone else acted on this case" in html
    # what changed, as what happened (issue 20, item 2)
    assert "The owner reported telling the property owner about the dog&#x27;s designation" in html
    assert response.context["version"] == case.version != opened_at_version
    assert f'name="version" value="{case.version}"' in html
    assert "Pat Owner, handed at the door" in html  # what the user typed is kept
    assert not case.events.filter(act="serve_notice").exists()

    again = client.post(url, serve_notice_data(case, response.context["version"], response.context["token"]))
    assert again.status_code == 302
    assert case.events.filter(act="serve_notice").count() == 1


def test_a_stale_form_for_a_step_no_longer_open_says_why(officer, make_staff_user):
    case = record_bite(officer)
    client = client_for(officer)
    form = client.get(f"/cases/{case.number}/act/declare")
    declare(case, make_staff_user("police_officer"), designation="dangerous")

    response = post_declare(client, case, version=form.context["version"], key=form.context["token"])
    html = response.content.decode()
    assert response.status_code == 409
    assert "Someone else acted on this case" in html
    assert "You cannot take this step now" in html
    assert case.events.filter(act="declare").count() == 1


def test_a_double_submission_records_one_event_and_both_land_on_the_case(officer):
    case = record_bite(officer)
    client = client_for(officer)
    token = client.get(f"/cases/{case.number}/act/declare").context["token"]
    first = post_declare(client, case, key=token)
    second = post_declare(client, case, key=token)
    assert first.status_code == second.status_code == 302
    assert first.url == second.url == f"/cases/{case.number}#timeline"
    assert case.events.filter(act="declare").count() == 1
    page = client.get(second.url)
    assert "already recorded from this form" in page.content.decode()


def test_a_step_unknown_to_the_city_is_not_found(officer):
    case = record_bite(officer)
    assert client_for(officer).get(f"/cases/{case.number}/act/launch_rocket").status_code == 404


def test_a_date_correction_needs_a_reason_and_is_linked_to_what_it_corrects(officer):
    case = record_bite(officer)
    declare(case, officer, at=acts.now() - dt.timedelta(days=3))
    case.refresh_from_db()
    event = case.events.get(act="declare")
    client = client_for(officer)
    form = client.get(f"/cases/{case.number}/events/{event.seq}/correct")
    assert form.status_code == 200
    name = form.context["recorded"][0]["name"]
    is_instant = form.context["recorded"][0]["is_instant"]
    new_value = timezone.localtime(acts.now() - dt.timedelta(days=4))
    value = new_value.strftime("%Y-%m-%dT%H:%M") if is_instant else new_value.date().isoformat()
    data = {"version": case.version, "idempotency_key": form.context["token"], "name": name, "value": value}

    no_reason = client.post(f"/cases/{case.number}/events/{event.seq}/correct", {**data, "reason": ""})
    assert no_reason.status_code == 400
    assert 'id="reason-error"' in no_reason.content.decode()

    done = client.post(
        f"/cases/{case.number}/events/{event.seq}/correct",
        {**data, "reason": "The declaration was signed a day earlier than entered."},
    )
    assert done.status_code == 302
    correction = case.events.get(kind=Event.Kind.CORRECTION)
    assert correction.corrects_id == event.pk
    page = client.get(f"/cases/{case.number}").content.decode()
    assert f'Corrects <a href="#e-{event.seq}">#{event.seq}</a>' in page
    assert f'Corrected by <a href="#e-{correction.seq}">#{correction.seq}</a>' in page


def test_the_next_steps_show_the_allowed_ones_and_why_the_others_are_not(officer):
    case = record_bite(officer)
    declare(case, officer)
    page = client_for(officer).get(f"/cases/{case.number}")
    html = page.content.decode()
    allowed = [s["id"] for s in page.context["allowed_steps"]]
    refused = {s["id"]: s for s in page.context["refused_steps"]}
    assert "serve_notice" in allowed
    assert f'href="/cases/{case.number}/act/serve_notice"' in html
    assert "hold_hearing" in refused
    assert refused["hold_hearing"]["refusals"]
    assert "Steps you cannot take now, and why" in html
    assert "dogcase's reading:" in html
    assert "City ordinance, with the state&#x27;s minimum added" in html


def test_take_helper_matches_the_view(officer):
    # The helper used by other tests takes a step the same way the view does.
    case = record_bite(officer)
    result = take(case, "declare", officer, designation="dangerous", basis="Killed a cat")
    assert result.event.act == "declare"


def test_choices_come_from_the_law_with_their_citations(officer, clerk):
    case = record_bite(officer)
    declare(case, officer, designation="dangerous")
    seize = client_for(officer).get(f"/cases/{case.number}/act/seize")
    ground = next(f for f in seize.context["fields"] if f["kind"] == "seizure_ground")
    assert ground["choices"], "the seizure triggers of the pack"
    assert all(c["citation"] for c in ground["choices"])
    # right after the declaration every ground waits for the owner's time: bound to be refused whatever ground
    # is chosen, the form is not offered, and the page says why
    assert seize.context["blocked"] and seize.context["step_row"]["refusals"]
    assert 'type="radio" name="in-ground"' not in seize.content.decode()
    certificate = client_for(clerk).get(f"/cases/{case.number}/act/issue_certificate")
    proofs = next(f for f in certificate.context["fields"] if f["kind"] == "proofs")
    labels = " ".join(c["label"] for c in proofs["choices"])
    assert "insurance" in labels.lower() or "bond" in labels.lower()
    assert 'type="checkbox" name="in-proofs"' in certificate.content.decode()


def test_the_form_shows_what_the_law_says_to_keep_in_mind(officer):
    case = record_bite(officer)
    declare(case, officer)
    html = client_for(officer).get(f"/cases/{case.number}/act/serve_notice").content.decode()
    assert "Keep in mind" in html
    assert "Service upon any owner is effective as to all owners." in html
    assert "(§ 90.15 (B)(2))" in html


def test_the_destruction_notice_form_of_a_dog_never_declared_is_the_state_one_and_of_a_declared_dog_k(
    officer,
):
    # § 90.15 (K) reaches "a dog that has previously been declared": a dog never declared is served the notice
    # of Minn. Stat. 347.56 (the state's three elements, no receipt date), a declared one (K)'s
    undeclared = record_bite(officer)
    form = client_for(officer).get(f"/cases/{undeclared.number}/act/serve_destruction_notice")
    assert form.status_code == 200
    ids = [f["id"] for f in form.context["fields"]]
    assert ids == ["served_on", "incident", "method", "proof"]  # what it contains: the documents issued
    # the draft is the state's notice of intended destruction (347.56), with its three elements
    (draft,) = form.context["drafts"]
    assert draft.id == "intended_destruction_notice"
    assert sorted({e.split("/")[0] for s in draft.sections for e in s.elements}) == [
        "mn-statute:347.56.notice"
    ]
    data = {
        "version": undeclared.version,
        "in-served_on": timezone.localdate().isoformat(),
        "in-incident": "mauled a child without provocation",
        "in-method": "personal service",
    }
    # the notice names a contact and their telephone: on a dog never declared, the person giving notice; no
    # record holds their telephone yet, so the notice cannot be issued and the form says which value is missing
    response = client_for(officer).post(f"/cases/{undeclared.number}/act/serve_destruction_notice", data)
    assert response.status_code == 400
    assert [m.source for m in response.context["document_missing"]] == ["declarant.telephone"]
    assert not undeclared.events.filter(act="serve_destruction_notice").exists()
    declared = record_bite(officer)
    declare(declared, officer, designation="dangerous")
    form = client_for(officer).get(f"/cases/{declared.number}/act/serve_destruction_notice")
    ids = [f["id"] for f in form.context["fields"]]
    # (K)'s form: the receipt date; what the notice contains is what the documents issued with it say (no
    # tick boxes)
    assert "received_on" in ids and "contents" not in ids
