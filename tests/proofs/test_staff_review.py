"""Staff review of proof: the queue, a proof's page, accept / reject for the officer and the clerk only, the
case page's panel, the dashboard's count and the certificate form showing the proof beside each condition."""

import pytest
from django.test import Client

from dogcase.proofs.models import ProofSubmission
from dogcase.proofs.signals import proof_reviewed
from tests.proofs.helpers import send_all
from tests.staff.conftest import client_for

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_queue_lists_the_waiting_proofs_of_the_users_cities_oldest_first(
    dangerous_case, officer, make_staff_user
):
    first = dangerous_case()
    second = dangerous_case("battle-lake-mn")
    send_all(first)
    send_all(second)
    page = client_for(officer).get("/staff/proofs/")
    assert page.status_code == 200
    proofs = [r["proof"] for r in page.context["rows"]]
    assert [p.submitted_at for p in proofs] == sorted(p.submitted_at for p in proofs)
    assert {p.case_id for p in proofs} == {first.pk, second.pk}
    tracy_only = make_staff_user("city_clerk", username="tracy-clerk", cities=("tracy-mn",))
    only = client_for(tracy_only).get("/staff/proofs/").context["rows"]
    assert {r["proof"].case_id for r in only} == {first.pk}
    other = ProofSubmission.objects.filter(case=second).first()
    assert client_for(tracy_only).get(f"/staff/proofs/{other.pk}/").status_code == 404
    assert client_for(tracy_only).post(f"/staff/proofs/{other.pk}/accept").status_code == 404


def test_the_queue_is_paginated(dangerous_case, officer, monkeypatch):
    from dogcase.proofs import views

    monkeypatch.setattr(views, "PAGE_SIZE", 2)
    send_all(dangerous_case())
    client = client_for(officer)
    page1 = client.get("/staff/proofs/")
    assert len(page1.context["rows"]) == 2 and page1.context["page"].has_next()
    assert "Next page" in page1.content.decode()
    last = client.get("/staff/proofs/?page=99")
    assert last.context["page"].number == last.context["page"].paginator.num_pages


def test_accept_and_reject_from_the_proofs_page(dangerous_case, officer):
    case = dangerous_case()
    sent = send_all(case)
    client = client_for(officer)
    heard = []
    receiver = lambda sender, proof, accepted, **kw: heard.append((proof.pk, accepted))  # noqa: E731
    proof_reviewed.connect(receiver)
    try:
        page = client.get(f"/staff/proofs/{sent['liability_coverage'].pk}/")
        html = page.content.decode()
        assert "North Star Mutual" in html and "HO-123456" in html and "$300,000.00" in html
        assert "Accept this proof" in html
        assert client.post(f"/staff/proofs/{sent['liability_coverage'].pk}/accept").status_code == 302
        no_reason = client.post(f"/staff/proofs/{sent['warning_sign'].pk}/reject", {"reason": ""})
        assert no_reason.status_code == 400 and "The reason is required." in no_reason.content.decode()
        done = client.post(f"/staff/proofs/{sent['warning_sign'].pk}/reject", {"reason": "Sign not visible."})
        assert done.status_code == 302
    finally:
        proof_reviewed.disconnect(receiver)
    assert heard == [(sent["liability_coverage"].pk, True), (sent["warning_sign"].pk, False)]
    assert ProofSubmission.objects.get(pk=sent["warning_sign"].pk).reason == "Sign not visible."


@pytest.mark.parametrize("role", ["auditor", "hearing_officer", "police_officer", "council_clerk"])
def test_other_roles_may_not_review(dangerous_case, make_staff_user, role):
    case = dangerous_case()
    proof = send_all(case)["warning_sign"]
    client = client_for(make_staff_user(role, username=f"u-{role}"))
    assert client.post(f"/staff/proofs/{proof.pk}/accept").status_code == 403
    assert client.post(f"/staff/proofs/{proof.pk}/reject", {"reason": "no"}).status_code == 403
    assert "Accept this proof" not in client.get(f"/staff/proofs/{proof.pk}/").content.decode()
    assert ProofSubmission.objects.get(pk=proof.pk).status == "submitted"
    assert Client().get(f"/staff/proofs/{proof.pk}/").status_code == 302  # to the login


def test_the_review_needs_the_csrf_token(dangerous_case, officer):
    proof = send_all(dangerous_case())["warning_sign"]
    client = Client(enforce_csrf_checks=True)
    client.force_login(officer)
    assert client.post(f"/staff/proofs/{proof.pk}/accept").status_code == 403
    assert ProofSubmission.objects.get(pk=proof.pk).status == "submitted"


def test_a_proofs_files_are_served_to_staff_of_its_city(dangerous_case, officer):
    proof = send_all(dangerous_case())["warning_sign"]
    stored = proof.files.get()
    response = client_for(officer).get(f"/staff/proofs/{proof.pk}/files/{stored.pk}")
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    assert b"".join(response.streaming_content).startswith(b"\x89PNG")


def test_the_case_page_and_the_dashboard_show_the_proof(dangerous_case, officer, clerk):
    case = dangerous_case()
    sent = send_all(case)
    client = client_for(officer)
    client.post(f"/staff/proofs/{sent['warning_sign'].pk}/reject", {"reason": "Sign not visible."})
    client.post(f"/staff/proofs/{sent['proper_enclosure'].pk}/accept")
    html = client.get(f"/cases/{case.number}").content.decode()
    assert "Proof of the conditions of registration" in html
    assert "not accepted: Sign not visible." in html
    assert "waiting for review" in html
    waiting = ProofSubmission.objects.filter(status="submitted").count()
    # the clerk's dashboard lists the oldest, each with the condition it proves; the officer's says how many
    dashboard = client_for(clerk).get("/").content.decode()
    assert f'Proof to review <span class="muted">({waiting})</span>' in dashboard
    assert "sent by owners waiting for review</a>" not in dashboard
    oldest = ProofSubmission.objects.filter(status="submitted").order_by("submitted_at", "id").first()
    assert f'href="/staff/proofs/{oldest.pk}/"' in dashboard
    line = client.get("/").content.decode()
    assert f"{waiting} proof{'s' if waiting != 1 else ''} sent by owners waiting for review</a>" in line
    assert 'id="proofs-h"' not in line


def test_the_certificate_form_ticks_the_accepted_proof_and_shows_the_others(dangerous_case, officer):
    case = dangerous_case()
    sent = send_all(case)
    client = client_for(officer)
    client.post(f"/staff/proofs/{sent['proper_enclosure'].pk}/accept")
    client.post(f"/staff/proofs/{sent['warning_sign'].pk}/reject", {"reason": "Sign not visible."})
    form = client.get(f"/cases/{case.number}/act/issue_certificate")
    proofs = next(f for f in form.context["fields"] if f["kind"] == "proofs")
    assert proofs["value"] == ["proper_enclosure"]
    html = form.content.decode()
    assert 'value="proper_enclosure" checked' in html
    assert "proof accepted" in html
    assert "the owner's proof was not accepted: Sign not visible." in html
    assert "waiting for review" in html
    # the officer accepts the rest; the form's posted list is empty, the accepted proof still counts
    for cid in ("liability_coverage", "microchip_for_certificate", "warning_sign"):
        if cid == "warning_sign":
            continue
        client.post(f"/staff/proofs/{sent[cid].pk}/accept")
    case.refresh_from_db()
    refused = client.post(
        f"/cases/{case.number}/act/issue_certificate", {"version": case.version, "in-number": "T-1"}
    )
    assert refused.status_code == 409, (
        refused.context.get("errors"),
        refused.context.get("general_errors"),
        refused.context.get("document_missing"),
    )
    assert "warning sign" in refused.content.decode()
    case.refresh_from_db()
    done = client.post(
        f"/cases/{case.number}/act/issue_certificate",
        {"version": case.version, "in-number": "T-1", "in-proofs": ["warning_sign"]},
    )
    assert done.status_code == 302
    event = case.events.get(act="issue_certificate")
    assert set(event.data["inputs"]["proofs"]) == {
        "warning_sign",
        "proper_enclosure",
        "liability_coverage",
        "microchip_for_certificate",
    }


def test_proof_received_on_paper_is_recorded_by_the_clerk_then_reviewed(
    dangerous_case, officer, make_staff_user
):
    from tests.proofs.helpers import coverage_data, pdf

    case = dangerous_case()
    client = client_for(officer)
    panel = client.get(f"/cases/{case.number}").content.decode()
    url = f"/staff/proofs/cases/{case.number}/liability_coverage/record"
    assert f'href="{url}"' in panel and "Record proof received on paper" in panel

    form = client.get(url)
    assert form.status_code == 200
    html = form.content.decode()
    assert "Record proof received on paper: " in html and "Minn. Stat. § 347.51, subd. 2" in html

    # a problem names the field and keeps what was typed; nothing is recorded
    bad = client.post(url, coverage_data(amount_usd="100000", issuer="Lakes Insurance Co"))
    assert bad.status_code == 400
    assert "The law requires at least $300,000" in bad.content.decode()
    assert 'value="Lakes Insurance Co"' in bad.content.decode()
    assert not ProofSubmission.objects.filter(case=case).exists()

    done = client.post(url, {**coverage_data(note="Mailed by the owner"), "files": [pdf("scan.pdf")]})
    proof = ProofSubmission.objects.get(case=case)
    assert done.status_code == 302 and done["Location"] == f"/staff/proofs/{proof.pk}/"
    assert proof.submitted_by == officer and proof.submitted_by_person is None
    assert proof.status == ProofSubmission.Status.SUBMITTED and proof.note == "Mailed by the owner"
    assert proof.submitted_event.actor_id == officer.pk and proof.files.get().original_name == "scan.pdf"
    assert client.post(f"/staff/proofs/{proof.pk}/accept").status_code == 302
    proof.refresh_from_db()
    assert proof.status == ProofSubmission.Status.ACCEPTED


def test_only_reviewers_of_the_city_record_proof_on_paper(dangerous_case, make_staff_user):
    from tests.proofs.helpers import coverage_data

    case = dangerous_case()
    url = f"/staff/proofs/cases/{case.number}/liability_coverage/record"
    police = make_staff_user("police_officer", username="police-paper")
    assert client_for(police).get(url).status_code == 403
    assert client_for(police).post(url, coverage_data()).status_code == 403
    elsewhere = make_staff_user("city_clerk", username="bl-clerk-paper", cities=("battle-lake-mn",))
    other_city = case.jurisdiction != "battle-lake-mn"
    assert client_for(elsewhere).get(url).status_code == (404 if other_city else 200)
    clerk = make_staff_user("city_clerk", username="clerk-paper", cities=(case.jurisdiction,))
    assert (
        client_for(clerk).get(f"/staff/proofs/cases/{case.number}/no_such_condition/record").status_code
        == 404
    )
    assert Client().get(url).status_code == 302  # to the login
    assert not ProofSubmission.objects.filter(case=case).exists()
