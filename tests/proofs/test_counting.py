"""Only accepted proof counts toward a condition of registration: the certificate step (and the release) see
a condition proven when it has an accepted proof, or when the member of staff ticks it themselves."""

import datetime as dt

import pytest
from django.utils import timezone

from dogcase.cases import acts
from dogcase.documents import acts as document_acts
from dogcase.proofs import services
from dogcase.proofs.models import ProofSubmission
from dogcase.proofs.signals import proof_reviewed
from tests.proofs.helpers import coverage_data, owner_of, pdf, send_all

pytestmark = pytest.mark.django_db(transaction=True)


def issue(case, actor, proofs=None):
    case.refresh_from_db()
    inputs = {"proofs": proofs} if proofs is not None else {}
    # the procedure alone (the certificate is not rendered): what counts as proof is the test
    return document_acts.take_step_without_issuing(
        case, "issue_certificate", actor=actor, inputs=inputs, expected_version=case.version
    )


def refusal_codes(exc):
    return [r["code"] for r in exc.refusals]


def test_upload_then_accept_makes_the_condition_met_and_the_certificate_issues(dangerous_case, officer):
    case = dangerous_case()
    sent = send_all(case)
    assert set(sent) >= {
        "proper_enclosure",
        "warning_sign",
        "liability_coverage",
        "microchip_for_certificate",
    }
    # sent but not reviewed: nothing counts, the certificate is refused for each condition
    with pytest.raises(acts.InvalidInput):
        issue(case, officer)  # nothing ticked, nothing accepted: the form's list is empty
    with pytest.raises(acts.Refused) as refused:
        issue(case, officer, proofs=["proper_enclosure"])
    assert refusal_codes(refused.value).count("not_proven") == 3
    reviewed = []
    proof_reviewed.connect(
        lambda sender, proof, accepted, **kw: reviewed.append((proof.pk, accepted)), weak=False
    )
    try:
        for proof in sent.values():
            services.accept(proof, actor=officer)
    finally:
        proof_reviewed.receivers.clear()
    assert sorted(reviewed) == sorted((p.pk, True) for p in sent.values())
    result = issue(case, officer)
    assert result.event.act == "issue_certificate"
    counted = {a["condition"] for a in result.event.data["accepted_proofs"]}
    assert counted >= {"proper_enclosure", "warning_sign", "liability_coverage", "microchip_for_certificate"}
    assert set(result.event.data["inputs"]["proofs"]) >= counted
    review = case.events.filter(act="review_proof").first()
    assert review.actor == officer and review.kind == "record" and review.data["accepted"] is True


def test_a_pending_proof_does_not_count(dangerous_case, officer):
    case = dangerous_case()
    sent = send_all(case)
    for cid, proof in sent.items():
        if cid != "liability_coverage":
            services.accept(proof, actor=officer)
    with pytest.raises(acts.Refused) as refused:
        issue(case, officer)
    reasons = " ".join(r["reason"] for r in refused.value.refusals)
    assert refusal_codes(refused.value) == ["not_proven"]
    assert "surety bond or liability insurance" in reasons


def test_a_rejected_proof_stays_unmet_with_its_reason(dangerous_case, officer):
    case = dangerous_case()
    sent = send_all(case)
    for cid, proof in sent.items():
        if cid != "warning_sign":
            services.accept(proof, actor=officer)
    rejected = services.reject(
        sent["warning_sign"], actor=officer, reason="The sign in the photo has no symbol."
    )
    assert rejected.status == "rejected"
    with pytest.raises(acts.Refused) as refused:
        issue(case, officer)
    assert "warning sign" in refused.value.refusals[0]["reason"]
    row = next(r for r in services.standing(case) if r["condition"].id == "warning_sign")
    assert row["state"] == "rejected" and row["latest"].reason == "The sign in the photo has no symbol."
    event = case.events.get(act="review_proof", data__accepted=False)
    assert event.data["reason"] == "The sign in the photo has no symbol."


def test_a_reject_needs_a_reason_and_a_review_happens_once(dangerous_case, officer):
    case = dangerous_case()
    proof = send_all(case)["warning_sign"]
    with pytest.raises(services.ProofInvalid) as bad:
        services.reject(proof, actor=officer, reason="  ")
    assert "reason" in bad.value.errors
    services.accept(proof, actor=officer)
    with pytest.raises(services.ProofInvalid) as again:
        services.reject(proof, actor=officer, reason="changed my mind")
    assert "status" in again.value.errors
    assert ProofSubmission.objects.get(pk=proof.pk).status == "accepted"


def test_the_staff_own_tick_still_counts(dangerous_case, officer):
    case = dangerous_case()
    result = issue(
        case,
        officer,
        proofs=["proper_enclosure", "warning_sign", "liability_coverage", "microchip_for_certificate"],
    )
    assert result.event.act == "issue_certificate"
    assert "accepted_proofs" not in result.event.data


def test_only_the_officer_or_clerk_reviews(dangerous_case, officer, auditor, hearing_officer):
    from django.core.exceptions import PermissionDenied

    case = dangerous_case()
    proof = send_all(case)["warning_sign"]
    for who in (auditor, hearing_officer):
        with pytest.raises(PermissionDenied):
            services.accept(proof, actor=who)
    assert ProofSubmission.objects.get(pk=proof.pk).status == "submitted"


def test_coverage_is_held_to_the_packs_amount_and_dates(dangerous_case, officer):
    case = dangerous_case()
    owner = owner_of(case)
    with pytest.raises(services.ProofInvalid) as low:
        services.submit(
            case, "liability_coverage", data=coverage_data(amount_usd="50000"), uploads=[pdf()], person=owner
        )
    assert "at least $300,000" in low.value.errors["amount_usd"]
    assert "Minn. Stat. § 347.51, subd. 2" in low.value.errors["amount_usd"]
    past = timezone.localdate() - dt.timedelta(days=1)
    with pytest.raises(services.ProofInvalid) as ended:
        services.submit(
            case,
            "liability_coverage",
            data=coverage_data(starts_on="2025-01-01", ends_on=past.isoformat()),
            uploads=[pdf()],
            person=owner,
        )
    assert "ends_on" in ended.value.errors
    # a policy that starts later may be sent, but is not accepted before it is in force
    later = timezone.localdate() + dt.timedelta(days=10)
    proof = services.submit(
        case,
        "liability_coverage",
        data=coverage_data(starts_on=later.isoformat()),
        uploads=[pdf()],
        person=owner,
    )
    with pytest.raises(services.ProofInvalid) as early:
        services.accept(proof, actor=officer)
    assert "in force on the day it is reviewed" in early.value.errors["starts_on"]


def test_microchip_numbers_have_9_10_or_15_digits(dangerous_case):
    case = dangerous_case()
    owner = owner_of(case)
    for bad in ("12345678", "12345678901", "98511200345678X"):
        with pytest.raises(services.ProofInvalid) as info:
            services.submit(
                case,
                "microchip_for_certificate",
                data={"microchip_number": bad, "microchip_manufacturer": "HomeAgain"},
                person=owner,
            )
        assert "9, 10 or 15 digits" in info.value.errors["microchip_number"]
    for good in ("123456789", "1234567890", "985 112 003 456 789"):
        services.submit(
            case,
            "microchip_for_certificate",
            data={"microchip_number": good, "microchip_manufacturer": "HomeAgain"},
            person=owner,
        )


def test_an_upload_is_checked_by_its_content(dangerous_case):
    from django.core.files.uploadedfile import SimpleUploadedFile

    case = dangerous_case()
    fake = SimpleUploadedFile("sign.png", b"MZ\x90\x00 not a picture", content_type="image/png")
    with pytest.raises(services.ProofInvalid) as info:
        services.submit(case, "warning_sign", data={}, uploads=[fake], person=owner_of(case))
    assert "only PDF, JPEG, PNG, GIF or WebP" in info.value.errors["files"]


def test_someone_not_an_owner_may_not_send_proof(dangerous_case, officer):
    from django.core.exceptions import PermissionDenied

    case = dangerous_case()
    stranger = acts.record_person(jurisdiction=case.jurisdiction, actor=officer, full_name="Not An Owner")
    with pytest.raises(PermissionDenied):
        services.submit(case, "warning_sign", data={}, uploads=[], person=stranger)


def test_a_requirement_no_certificate_lists_is_offered_with_the_forms_and_amount_its_text_allows(
    officer, make_staff_user
):
    # Tracy § 8.31 Subd 5.F: the owner of a vicious dog proves public liability insurance of at least
    # $50,000 to the City Administrator; the text allows no surety bond
    from dogcase.proofs import conditions
    from tests.staff.conftest import record_bite, take

    case = record_bite(officer, city="tracy-mn")
    police = make_staff_user("police_officer", username="chief")
    take(case, "classify", police, designation="vicious", reasonable_cause="Subd 1.B: an unprovoked bite")
    case.refresh_from_db()
    cond = conditions.condition(case, "liability_coverage")
    assert cond is not None and not cond.condition_of_registration
    assert cond.min_amount == 50000 and cond.forms == ("liability_insurance",)
    assert "Tracy City Code § 8.31, Subd 5.F" in cond.citations
    with pytest.raises(services.ProofInvalid) as bond:
        services.submit(
            case,
            "liability_coverage",
            data=coverage_data(coverage_form="surety_bond", amount_usd="60000"),
            uploads=[pdf()],
            person=owner_of(case),
        )
    assert bond.value.errors == {
        "coverage_form": "The law allows only liability insurance here (Tracy City Code § 8.31, Subd 5.F)."
    }


def test_an_accepted_policy_stops_counting_after_its_last_day(dangerous_case, officer):
    case = dangerous_case()
    today = timezone.localdate()
    proof = services.submit(
        case,
        "liability_coverage",
        data=coverage_data(starts_on=today.isoformat(), ends_on=(today + dt.timedelta(days=10)).isoformat()),
        uploads=[pdf()],
        person=owner_of(case),
    )
    services.accept(proof, actor=officer)
    assert "liability_coverage" in services.accepted_on(case, today + dt.timedelta(days=10))
    assert "liability_coverage" not in services.accepted_on(case, today + dt.timedelta(days=11))
    later = timezone.now() + dt.timedelta(days=11)
    row = next(r for r in services.standing(case, later) if r["condition"].id == "liability_coverage")
    assert row["state"] == "expired"


def test_the_acts_count_proofs_by_the_proofs_rule_and_refuse_a_step_without_one(
    dangerous_case, officer, monkeypatch
):
    from django.core.exceptions import ImproperlyConfigured

    from dogcase.cases.acts import steps
    from dogcase.proofs.counting import with_accepted_proofs

    # the proofs app hands its rule to the acts when Django starts
    assert steps._proof_counter == [with_accepted_proofs]
    case = dangerous_case()
    version = case.version
    monkeypatch.setattr(steps, "_proof_counter", [])
    with pytest.raises(ImproperlyConfigured, match="no rule counts the accepted proofs"):
        issue(case, officer)
    case.refresh_from_db()
    assert case.version == version
