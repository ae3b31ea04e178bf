"""Issue 18, the law, as whole cases through the legal acts (and the staff pages that call them): each item a
story with exact dates, on SQLite and on PostgreSQL (scripts/test-postgres.sh).

1. A dog declared dangerous under state law in Tracy, whose owner appealed: no seizure for want of registration
   or of the bond or insurance while the hearing is pending, nor within 14 days of receiving the decision that
   upholds the declaration (Minn. Stat. 347.541 subd. 3 and 4); the staff member is told why, with the citation.
2. Tracy, an owner who cannot be located: the Subd 3 notice posted on the property starts nothing; the notice
   sent later by certified mail, return receipt requested, starts Subd 4.A's five business days that day.
3. Tracy Subd 5.F: after a hearing, the ten days to prove insurance run from the City Council's decision.
6. Battle Lake: the refusals of a potentially dangerous dog's appeal cite the clauses that give that appeal.
"""

from __future__ import annotations

import datetime as dt

import time_machine
from django.test import Client

from dogcase.cases import acts
from dogcase.cases.models import Case
from dogcase.documents import serving
from dogcase.documents.models import IssuedDocument
from tests.cases.conftest import BITE, DAY0, SERIOUS, at, on

TRACY = "tracy-mn"
BATTLE_LAKE = "battle-lake-mn"
D = dt.date


def day_of(date: dt.date) -> int:
    """The story's day number of a calendar date (DAY0 is Monday 1 June 2026)."""
    return (date - DAY0).days


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def events(s) -> dict:
    return acts.case_state(Case.objects.get(pk=s.case.pk)).events


# ------------------------------------------------------------------------------------------ 1


def appealed_state_dangerous_dog_in_tracy(story):
    """Declared dangerous under 347.50 on Mon 1 June 2026, the notice received Tue 2 June (347.54's 14 days
    after notice end Tue 16 June), a hearing requested Thu 4 June and held Tue 9 June."""
    s = story(TRACY, SERIOUS)
    s.step(
        "declare",
        "officer",
        0,
        designation="dangerous",
        basis="Unprovoked bite, substantial bodily harm: 347.50 subd. 2(1)",
        declarant_telephone="507-555-0101",
    )
    s.step("serve_notice", "officer", 1, served_on=on(1), method="personal", received_on=on(1))
    s.step("receive_hearing_request", "officer", 3, received_on=on(3))
    s.step(
        "schedule_hearing",
        "officer",
        4,
        hearing_at=at(8, 14).isoformat(),
        place="Tracy City Hall",
        hearing_officer=str(s.staff["hearing"].pk),
    )
    s.step("hold_hearing", "hearing", 8, held_on=on(8))
    return s


def test_a_state_dangerous_dog_in_tracy_is_not_seized_while_the_owner_has_time_to_comply(story):
    s = appealed_state_dangerous_dog_in_tracy(story)
    # Wed 17 June: 347.54's 14 days after notice have run, but the hearing officer has not decided
    for ground in ("not_registered", "no_liability_coverage"):
        refused = s.refused("seize", "officer", 16, ground=ground)
        (refusal,) = refused.refusals
        assert refusal["code"] == "waiting"
        assert refusal["citation"] == "Minn. Stat. § 347.541, subd. 3 and 4"
    # Thu 18 June the hearing officer upholds; the owner receives the decision that day: 14 days, to Thu 2 July
    s.step(
        "decide_appeal",
        "hearing",
        17,
        outcome="upheld",
        reasons="The bite and the harm are proven.",
        method="hand_delivery",
        delivered_on=on(17),
    )
    assert str(s.obligation("owner.comply_after_decision", 17).due_date) == "2026-07-02"
    for ground in ("not_registered", "no_liability_coverage"):
        refused = s.refused("seize", "officer", day_of(D(2026, 7, 2)), ground=ground)
        assert [r["code"] for r in refused.refusals] == ["waiting"]
    assert not s.case.events.filter(act="seize").exists()
    # Fri 3 July the 14 days have passed: the dog may be seized for the lack of registration
    s.step("seize", "officer", day_of(D(2026, 7, 3)), ground="not_registered", place="Tracy pound")
    assert s.case.events.filter(act="seize").count() == 1


def test_the_staff_member_is_told_in_plain_words_why_and_under_which_provision(story):
    s = appealed_state_dangerous_dog_in_tracy(story)
    s.step(
        "decide_appeal",
        "hearing",
        17,
        outcome="upheld",
        reasons="The bite and the harm are proven.",
        method="hand_delivery",
        delivered_on=on(17),
    )
    officer = s.staff["officer"]
    with time_machine.travel(at(day_of(D(2026, 6, 26)), 10), tick=False):
        response = client_for(officer).post(
            f"/cases/{s.case.number}/act/seize",
            {"version": Case.objects.get(pk=s.case.pk).version, "in-ground": "no_liability_coverage"},
        )
    html = response.content.decode()
    assert response.status_code == 409
    assert "The law does not allow this step now" in html
    assert "asked for a hearing on the dangerous dog declaration" in html
    assert "surety bond or liability insurance" in html and "14 days" in html
    assert "Minn. Stat. § 347.541, subd. 3 and 4" in html
    assert "no_liability_coverage" not in html.split("<form", 1)[0]  # no engine identifier in the words
    assert not s.case.events.filter(act="seize").exists()


# ------------------------------------------------------------------------------------------ 2


def posted_for_an_owner_not_located(story):
    """Classified vicious Mon 1 June 2026; the owner cannot be located: the notice posted on the property
    Tue 2 June."""
    s = story(TRACY, BITE)
    s.step("classify", "clerk", 0, designation="vicious", reasonable_cause="Unprovoked bite, Subd 1.B.2")
    s.step(
        "post_notice_owner_not_located",
        "clerk",
        1,
        sent_on=on(1),
        method="posting_on_owner_property",
        search="No one at the house for three days; no forwarding address; no licence on file",
    )
    return s


def test_a_posted_notice_then_certified_mail_starts_the_five_business_days_from_the_sending(story):
    s = posted_for_an_owner_not_located(story)
    window = s.obligation("owner.request_hearing", 2)
    assert window.status == "undetermined" and window.due_date is None  # the posting starts nothing
    # Thu 4 June the notice is sent by certified mail, return receipt requested, to the last known address
    s.step("record_further_posted_notice", "clerk", 3, method="certified_mail_return_receipt", sent_on=on(3))
    window = s.obligation("owner.request_hearing", 3)
    # five regular business days: Fri 5, Mon 8, Tue 9, Wed 10, Thu 11 June
    assert (window.status, str(window.due_date)) == ("open", "2026-06-11")
    assert any("Subd 4.A" in c["citation"] for c in window.citations)
    late = s.refused("receive_classification_appeal", "clerk", 11, received_on=on(11))
    assert "too_late" in [r["code"] for r in late.refusals]
    assert any("Subd 4.A" in r["citation"] for r in late.refusals)
    s.step("receive_classification_appeal", "clerk", 10, received_on=on(10))
    assert s.obligation("owner.request_hearing", 10).status == "met"


def test_the_later_notice_is_a_step_on_the_case_page_with_its_own_form(story):
    s = posted_for_an_owner_not_located(story)
    clerk = s.staff["clerk"]
    client = client_for(clerk)
    with time_machine.travel(at(3, 10), tick=False):
        page = client.get(f"/cases/{s.case.number}")
        allowed = {row["id"]: row for row in page.context["allowed_steps"]}
        assert "record_further_posted_notice" in allowed
        assert "Record a later notice to the owner who could not be located" in page.content.decode()
        form = client.get(f"/cases/{s.case.number}/act/record_further_posted_notice")
        html = form.content.decode()
        assert form.status_code == 200
        assert "<h1>Record a later notice to the owner who could not be located</h1>" in html
        # the two ways Subd 3 names, as choices (the label: the input's words on certified mail)
        assert 'value="certified_mail_return_receipt"' in html and 'value="posting_on_owner_property"' in html
        assert "starts the owner&#x27;s five business days to ask for a hearing" in html
        response = client.post(
            f"/cases/{s.case.number}/act/record_further_posted_notice",
            {
                "version": Case.objects.get(pk=s.case.pk).version,
                "in-method": "certified_mail_return_receipt",
                "in-sent_on": on(3),
            },
        )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert events(s)["notice_sent"] == D(2026, 6, 4)
    assert str(s.obligation("owner.request_hearing", 3).due_date) == "2026-06-11"


def test_the_posted_notice_mailed_later_from_its_service_panel_starts_the_window(story):
    s = posted_for_an_owner_not_located(story)
    event = s.case.events.get(act="post_notice_owner_not_located")
    document = IssuedDocument.objects.create(
        case=s.case,
        jurisdiction=TRACY,
        doc_type="notice",
        title="Notice to the owner of a dog classified as vicious",
        number=f"{s.case.number}-D1",
        version=1,
        recipient="The owner of the dog Rex, last known address",
        audience="owner",
        step=event.act,
        issued_at=at(1, 9),
        issued_by=event.actor,
        step_event=event,
        event=event,
        sha256="0" * 64,
        blob="00/none.pdf",
        size=1,
        verification_code=f"POSTED{s.case.pk}",
    )
    serving.record_issuing_service(document, actor=event.actor, at=at(1, 9))
    done = serving.record_service_attempt(
        IssuedDocument.objects.get(pk=document.pk),
        actor=s.staff["clerk"],
        method="certified_mail_return_receipt",
        sent_on=D(2026, 6, 4),
        outcome="sent",
        article_number="9407 1000 0000 0000 0000 18",
        expected_version=Case.objects.get(pk=s.case.pk).version,
        at=at(3, 11),
    )
    s.case = Case.objects.get(pk=s.case.pk)
    assert done.step_event is not None and done.step_event.act == "record_further_posted_notice"
    assert events(s)["notice_sent"] == D(2026, 6, 4)
    assert str(s.obligation("owner.request_hearing", 3).due_date) == "2026-06-11"


# ------------------------------------------------------------------------------------------ 3


def test_subd_5f_ten_days_run_from_the_councils_decision_not_the_close_of_the_hearing(story):
    # classified Wed 3 Feb 2027; the hearing closes Tue 16 Feb; the Council upholds Fri 19 Feb (recorded Mon 22)
    start = day_of(D(2027, 2, 1))
    s = story(TRACY, BITE, start)
    s.step(
        "classify", "clerk", day_of(D(2027, 2, 3)), designation="vicious", reasonable_cause="Unprovoked bite"
    )
    s.step("notify_classification", "clerk", day_of(D(2027, 2, 4)), sent_on="2027-02-04", certified_mail=True)
    s.step("receive_classification_appeal", "clerk", day_of(D(2027, 2, 8)), received_on="2027-02-08")
    s.step("hold_classification_hearing", "council", day_of(D(2027, 2, 16)), held_on="2027-02-16")
    # the hearing has closed; the Council has not decided: the time is not known yet
    pending = s.obligation("owner.prove_insurance", day_of(D(2027, 2, 17)))
    assert pending.status == "undetermined" and pending.due_date is None
    s.step(
        "decide_classification_appeal",
        "council",
        day_of(D(2027, 2, 22)),
        outcome="upheld",
        decided_on="2027-02-19",
        reasons="The bite was unprovoked.",
    )
    insurance = s.obligation("owner.prove_insurance", day_of(D(2027, 2, 22)))
    assert str(insurance.due_date) == "2027-03-01"  # not Friday 26 February
    decision = s.obligation("city.issue_decision")
    assert decision.status == "met" and not decision.late  # decided within Subd 4.C's three days
    # Sat 27 Feb (the day after the old, wrong date): no Council order on the insurance ground yet
    early = s.refused("order_impoundment", "council", day_of(D(2027, 2, 27)), ground="no_insurance_proof")
    (refusal,) = early.refusals
    assert refusal["citation"] == "Tracy City Code § 8.31, Subd 6.B"
    assert "after Monday 1 March 2027" in refusal["reason"]
    # Tue 2 March: the ten days have run without proof
    s.step("order_impoundment", "council", day_of(D(2027, 3, 2)), ground="no_insurance_proof")


# ------------------------------------------------------------------------------------------ 6


def test_a_potentially_dangerous_appeal_is_refused_under_the_clauses_that_give_it(story):
    s = story(BATTLE_LAKE, BITE)
    s.step(
        "declare",
        "officer",
        0,
        designation="potentially_dangerous",
        basis="Unprovoked bite (B)(1)(a)",
        declarant_telephone="218-555-0177",
    )
    s.step(
        "serve_notice",
        "officer",
        1,
        served_on=on(1),
        method="personal",
        served_owner="Olive Owner",
        received_on=on(1),
    )
    s.step("receive_hearing_request", "clerk", 4, received_on=on(4))
    refusals = {
        "again": s.refused("receive_hearing_request", "clerk", 5, received_on=on(5)).refusals,
        "decided before the hearing": s.refused("decide_appeal", "hearing", 5, outcome="upheld").refusals,
    }
    s.step(
        "schedule_hearing",
        "clerk",
        5,
        hearing_at=f"{on(9)}T18:00:00-05:00",
        place="City Hall",
        hearing_officer=str(s.staff["hearing"].pk),
        mailed_on=on(5),
    )
    s.step("hold_hearing", "hearing", 9, held_on=on(9))
    refusals["held twice"] = s.refused("hold_hearing", "hearing", 10, held_on=on(10)).refusals
    cited = {what: [r["citation"] for r in found] for what, found in refusals.items()}
    # (H) gives the request, (I)(3) the hearing, (I)(4) the decision upon it — never 347.541 (a dangerous
    # dog's hearing) or 347.56 (the destruction)
    assert cited == {
        "again": ["§ 90.15 (H)"],
        "decided before the hearing": ["§ 90.15 (I)(4)"],
        "held twice": ["§ 90.15 (I)(3)"],
    }
