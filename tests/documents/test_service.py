"""Service of an issued document (dogcase.documents.serving and its pages): each attempt takes the law's step
only for a method the law names, the time starts from the date the law ties to the method, a return receipt
records the owner's receipt, and the daily mailing sheet lists one city's certified and registered mail of one
day."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from dogcase.cases import acts
from dogcase.cases.models import Case, Event
from dogcase.documents import serving
from dogcase.documents.models import IssuedDocument
from dogcase.documents.service_models import ServiceAttempt
from tests.cases.conftest import BITE, SERIOUS, Story, at, on

BATTLE_LAKE = "battle-lake-mn"
TRACY = "tracy-mn"
Outcome = ServiceAttempt.Outcome


@pytest.fixture
def story(staff, db):
    def make(city: str, facts: dict = BITE, day: int = 0) -> Story:
        return Story(staff, city, facts, day)

    return make


def issued(s: Story, event: Event, *, n: int = 1, day: int = 1) -> IssuedDocument:
    """The notice the step issued (the row the documents app writes when a step issues it), with attempt 1."""
    document = IssuedDocument.objects.create(
        case=s.case,
        jurisdiction=s.case.jurisdiction,
        doc_type="notice",
        title="Notice of declaration",
        number=f"{s.case.number}-D{n}",
        version=1,
        recipient="Olive Owner, 1 Main Street",
        audience="owner",
        step=event.act,
        issued_at=at(day, 9),
        issued_by=event.actor,
        step_event=event,
        event=event,
        sha256="0" * 64,
        blob="00/none.pdf",
        size=1,
        verification_code=f"CODE{s.case.pk}X{n}",
    )
    serving.record_issuing_service(document, actor=event.actor, at=at(day, 9))
    return document


def served(story, *, designation="potentially_dangerous", method="certified_mail", **extra):
    s = story(BATTLE_LAKE, SERIOUS if designation == "dangerous" else BITE)
    s.step("declare", "officer", 0, designation=designation, basis="Unprovoked bite, see incident report")
    event = s.step(
        "serve_notice", "officer", 1, served_on=on(1), method=method, served_owner="Olive Owner", **extra
    )
    return s, issued(s, event)


def attempt(s: Story, document, day: int, **kwargs):
    document = IssuedDocument.objects.get(pk=document.pk)
    kwargs.setdefault("actor", s.staff["officer"])
    done = serving.record_service_attempt(
        document, expected_version=Case.objects.get(pk=s.case.pk).version, at=at(day, 11), **kwargs
    )
    s.case = Case.objects.get(pk=s.case.pk)
    return done


def mail_return(s: Story, a: ServiceAttempt, day: int, **kwargs):
    done = serving.record_mail_return(
        a,
        actor=s.staff["officer"],
        expected_version=Case.objects.get(pk=s.case.pk).version,
        at=at(day, 11),
        **kwargs,
    )
    s.case = Case.objects.get(pk=s.case.pk)
    return done


def client_for(user):
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client


def events(s: Story) -> dict:
    return dict(acts.case_state(s.case).events)


def request_hearing_due(s: Story, day: int):
    return s.obligation("owner.request_hearing", day).due_date


# ------------------------------------------------------------------------------------------ attempt 1


def test_the_service_the_issuing_step_recorded_is_attempt_1(story):
    s, document = served(story)
    first = document.service_attempts.get()
    assert (first.number, first.method, first.outcome) == (1, "certified_mail", Outcome.SENT)
    assert first.sent_on == dt.date.fromisoformat(on(1))
    assert first.step_event.act == "serve_notice"


# ------------------------------------------------------------------------------------ clocks per method


def test_certified_mail_returned_unclaimed_then_personal_delivery_starts_the_time_at_delivery(story):
    s, document = served(story)
    first = document.service_attempts.get(number=1)
    done = mail_return(s, first, 12, outcome=Outcome.UNCLAIMED)
    assert done.step_event is None
    assert "notice_received" not in events(s)
    assert request_hearing_due(s, 13) is None  # (H) counts from receipt: nothing yet
    done = attempt(
        s, document, 14, method="personal", sent_on=dt.date.fromisoformat(on(14)), outcome="delivered"
    )
    assert done.step_event is not None and done.step_event.act == "record_further_service"
    assert events(s)["notice_date"] == dt.date.fromisoformat(on(14))
    assert events(s)["notice_received"] == dt.date.fromisoformat(on(14))
    # 14 days after Monday 15 June 2026: Monday 29 June — from the delivery, not the mailing
    assert str(request_hearing_due(s, 15)) == on(28)
    assert "(B)(2)" in done.message or "§ 90.15" in done.message


def test_the_green_card_date_records_the_owners_receipt_h(story):
    s, document = served(story)
    first = document.service_attempts.get(number=1)
    done = mail_return(s, first, 5, outcome=Outcome.DELIVERED, received_on=dt.date.fromisoformat(on(4)))
    assert done.step_event is not None and done.step_event.act == "record_notice_receipt"
    assert events(s)["notice_received"] == dt.date.fromisoformat(on(4))
    first.refresh_from_db()
    assert (first.outcome, first.received_on, first.receipt_event_id) == (
        Outcome.DELIVERED,
        dt.date.fromisoformat(on(4)),
        done.step_event.pk,
    )
    # (B)(2)(b): 14 days from 2 June is 16 June; (H): 14 days from receipt on 5 June is 19 June, Juneteenth,
    # which rolls to Monday 22 June (645.15) — the owner keeps the later
    assert str(request_hearing_due(s, 6)) == on(21)


@pytest.mark.parametrize(
    ("method", "outcome", "receipt"),
    [
        ("personal", "delivered", True),
        ("posting_where_dog_kept", "posted", False),
        ("delivery_to_resident", "left_with_resident", False),
    ],
)
def test_each_method_of_c2_dates_the_notice_from_the_day_it_was_served(story, method, outcome, receipt):
    s, document = served(story, designation="dangerous", method="personal")
    done = attempt(s, document, 6, method=method, sent_on=dt.date.fromisoformat(on(6)), outcome=outcome)
    assert done.step_event is not None
    recorded = done.step_event.data["events"]
    assert recorded["notice_date"] == on(6)
    assert ("notice_received" in recorded) is receipt


@pytest.mark.parametrize(
    ("method", "outcome", "article"),
    [("mail", "sent", ""), ("posting_where_dog_kept", "posted", ""), ("registered_mail", "sent", "RR123")],
)
def test_a_method_90_15_b2_does_not_name_is_recorded_and_starts_nothing(story, method, outcome, article):
    s, document = served(story, method="personal", received_on=on(1))
    before = events(s)
    done = attempt(
        s,
        document,
        6,
        method=method,
        sent_on=dt.date.fromisoformat(on(6)),
        outcome=outcome,
        article_number=article,
    )
    assert done.step_event is None
    assert done.attempt.number == 2 and done.attempt.method == method
    assert events(s) == before
    assert "does not name" in done.message
    assert (
        "§ 90.15 (B)(2)" in done.message
        and "personal delivery to the owner or certified mail" in done.message
    )
    assert not Event.objects.filter(case=s.case, act="record_further_service").exists()
    assert Event.objects.filter(case=s.case, act="record_service_attempt").count() == 1


def test_telephoning_is_recorded_in_addition_and_starts_nothing_c2(story):
    s, document = served(story, designation="dangerous", method="personal")
    done = attempt(
        s, document, 2, method="telephone_if_possible", sent_on=dt.date.fromisoformat(on(2)), outcome="spoke"
    )
    assert done.step_event is None and "in addition to service" in done.message


def test_tracy_a_further_notice_by_certified_mail_rrr_starts_the_five_business_days_subd_4a(story):
    s = story(TRACY, BITE)
    s.step("classify", "police", 0, designation="vicious", reasonable_cause="Unprovoked bite, Subd 1.B.2")
    event = s.step("notify_classification", "police", 1, sent_on=on(1), certified_mail=False)
    document = issued(s, event)
    assert "notice_sent" not in events(s)
    ordinary = attempt(
        s,
        document,
        2,
        actor=s.staff["police"],
        method="mail",
        sent_on=dt.date.fromisoformat(on(2)),
        outcome="sent",
    )
    assert ordinary.step_event is not None and "notice_sent" not in events(s)  # recorded; starts nothing
    done = attempt(
        s,
        document,
        3,
        actor=s.staff["police"],
        method="certified_mail_return_receipt",
        sent_on=dt.date.fromisoformat(on(3)),
        outcome="sent",
        article_number="9407 1000 0000 0000 0000 01",
    )
    assert done.step_event.act == "record_further_classification_notice"
    assert events(s)["notice_sent"] == dt.date.fromisoformat(on(3))
    # the return receipt starts nothing in Tracy: Subd 4.A counts from the sending
    back = mail_return(
        s, done.attempt, 6, outcome=Outcome.DELIVERED, received_on=dt.date.fromisoformat(on(5))
    )
    assert back.step_event is None and "no time counts from it" in back.message


# ------------------------------------------------------------------------------------------ refusals


def test_certified_mail_needs_its_article_number(story):
    s, document = served(story)
    with pytest.raises(acts.InvalidInput) as info:
        attempt(s, document, 3, method="certified_mail", sent_on=dt.date.fromisoformat(on(3)), outcome="sent")
    assert info.value.field == "article_number"


def test_an_auditor_records_no_service(story, staff):
    s, document = served(story)
    with pytest.raises(acts.Refused):
        attempt(
            s,
            document,
            3,
            actor=staff["auditor"],
            method="personal",
            sent_on=dt.date.fromisoformat(on(3)),
            outcome="delivered",
        )
    assert document.service_attempts.count() == 1


def test_a_stale_form_writes_nothing(story):
    s, document = served(story)
    with pytest.raises(acts.StaleCase):
        serving.record_service_attempt(
            document,
            actor=s.staff["officer"],
            method="personal",
            sent_on=dt.date.fromisoformat(on(3)),
            outcome="delivered",
            expected_version=s.case.version - 1,
            at=at(3, 11),
        )
    assert document.service_attempts.count() == 1


# ------------------------------------------------------------------------------------------ the pages


def test_an_upload_that_is_not_a_pdf_or_image_is_refused_naming_the_field(story, login_as):
    s, document = served(story)
    client = client_for(s.staff["clerk"])
    response = client.post(
        reverse("documents:service_attempt", args=[document.pk]),
        {
            "version": Case.objects.get(pk=s.case.pk).version,
            "method": "personal",
            "sent_on": on(3),
            "outcome": "delivered",
            "proof": SimpleUploadedFile("proof.txt", b"just text", content_type="application/pdf"),
        },
    )
    assert response.status_code == 400
    assert 'id="proof-error"' in response.content.decode()
    assert document.service_attempts.count() == 1


def test_recording_an_attempt_through_the_page_takes_the_step(story, login_as):
    s, document = served(story)
    client = client_for(s.staff["officer"])
    page = client.get(reverse("documents:service_attempt", args=[document.pk]))
    assert page.status_code == 200 and "§ 90.15 (B)(2)" in page.content.decode()
    response = client.post(
        reverse("documents:service_attempt", args=[document.pk]),
        {
            "version": Case.objects.get(pk=s.case.pk).version,
            "method": "personal",
            "sent_on": timezone.localdate().isoformat(),
            "outcome": "delivered",
            "proof": SimpleUploadedFile("proof.pdf", b"%PDF-1.4 signed", content_type="application/pdf"),
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    second = document.service_attempts.get(number=2)
    assert second.step_event.act == "record_further_service" and second.proofs.count() == 1


def test_the_case_page_shows_the_service_panel_in_words(story, login_as):
    s, document = served(story)
    page = client_for(s.staff["clerk"]).get(reverse("staff:case", args=[s.case.number])).content.decode()
    assert "Service of the documents" in page
    assert "Waiting for the return receipt" in page
    assert "personal delivery to the owner or certified mail" in page
    assert "certified_mail" not in page.split('id="service"')[1].split("</section>")[0]


def test_a_document_of_another_city_is_not_found(story, make_staff_user):
    from django.test import Client

    s, document = served(story)
    client = Client()
    client.force_login(make_staff_user("city_clerk", username="tracy-clerk", cities=[TRACY]))
    assert client.get(reverse("documents:service_attempt", args=[document.pk])).status_code == 404


def _mail(s, document, day, article, method="certified_mail"):
    return ServiceAttempt.objects.create(
        document=document,
        jurisdiction=document.jurisdiction,
        number=document.service_attempts.count() + 1,
        method=method,
        article_number=article,
        addressee="Olive Owner",
        sent_on=dt.date.fromisoformat(on(day)),
        outcome=Outcome.SENT,
        recorded_by=s.staff["officer"],
        recorded_at=at(day, 10),
    )


def test_the_mailing_sheet_lists_one_citys_certified_and_registered_mail_of_one_day(
    story, login_as, make_staff_user
):
    s, document = served(story, method="personal", received_on=on(1))
    t = story(TRACY, BITE)
    t.step("classify", "police", 0, designation="vicious", reasonable_cause="Unprovoked bite")
    tracy_doc = issued(t, t.step("notify_classification", "police", 1, sent_on=on(1), certified_mail=True))
    _mail(s, document, 5, "ART-BL-1")
    _mail(s, document, 5, "ART-BL-2", method="registered_mail")
    _mail(s, document, 5, "", method="mail")  # first-class: not on the sheet
    _mail(s, document, 6, "ART-BL-NEXTDAY")
    _mail(t, tracy_doc, 5, "ART-TRACY", method="certified_mail_return_receipt")
    client = client_for(s.staff["clerk"])
    page = client.get(reverse("documents:mailing_sheet"), {"city": BATTLE_LAKE, "day": on(5)})
    text = page.content.decode()
    assert page.status_code == 200
    assert "ART-BL-1" in text and "ART-BL-2" in text
    assert "ART-BL-NEXTDAY" not in text and "ART-TRACY" not in text
    assert document.number in text and s.case.number in text
    assert "mailing-sheet.css" in text
    # a clerk of Tracy alone cannot see Battle Lake's sheet
    from django.test import Client

    other = Client()
    other.force_login(make_staff_user("city_clerk", username="tracy-only", cities=[TRACY]))
    assert (
        other.get(reverse("documents:mailing_sheet"), {"city": BATTLE_LAKE, "day": on(5)}).status_code == 404
    )
    assert (
        "ART-TRACY"
        in other.get(reverse("documents:mailing_sheet"), {"city": TRACY, "day": on(5)}).content.decode()
    )


def test_the_mailing_sheet_pages_on_by_position(story, login_as, monkeypatch):
    from dogcase.documents import service_views

    monkeypatch.setattr(service_views, "SHEET_PAGE", 2)
    s, document = served(story, method="personal", received_on=on(1))
    for n in range(3):
        _mail(s, document, 5, f"ART-{n}")
    client = client_for(s.staff["clerk"])
    first = client.get(reverse("documents:mailing_sheet"), {"city": BATTLE_LAKE, "day": on(5)})
    assert "ART-0" in first.content.decode() and "ART-2" not in first.content.decode()
    after = first.context["next_after"]
    second = client.get(
        reverse("documents:mailing_sheet"), {"city": BATTLE_LAKE, "day": on(5), "after": after}
    )
    assert "ART-2" in second.content.decode() and "ART-0" not in second.content.decode()


# ------------------------------------------------------------------------------- the decision's letter


def decided(story, outcome: str):
    s = story(BATTLE_LAKE, SERIOUS)
    s.step("declare", "officer", 0, designation="dangerous", basis="Unprovoked bite, see incident report")
    s.step(
        "serve_notice",
        "officer",
        1,
        served_on=on(1),
        method="personal",
        served_owner="Olive Owner",
        received_on=on(1),
    )
    s.step("receive_hearing_request", "clerk", 5, received_on=on(5))
    s.step(
        "schedule_hearing",
        "clerk",
        6,
        hearing_at=at(15, 14).isoformat(),
        place="City Hall",
        hearing_officer=str(s.staff["hearing"].pk),
    )
    s.step("hold_hearing", "hearing", 15, held_on=on(15), owner_present=True)
    event = s.step(
        "decide_appeal", "hearing", 20, outcome=outcome, method="registered_mail", copy_to_authority=True
    )
    return s, issued(s, event, day=20)


def test_the_green_card_of_a_decision_sent_by_registered_mail_starts_the_c2d_time(story):
    s, document = decided(story, "upheld")
    first = document.service_attempts.get()
    assert (first.method, first.outcome) == ("registered_mail", Outcome.SENT)
    done = mail_return(s, first, 24, outcome=Outcome.DELIVERED, received_on=dt.date.fromisoformat(on(23)))
    assert done.step_event is not None and done.step_event.act == "record_decision_receipt"
    assert events(s)["decision_received"] == dt.date.fromisoformat(on(23))


def test_the_green_card_of_a_rescinding_decision_is_recorded_and_starts_nothing_c2d(story):
    s, document = decided(story, "rescinded")
    first = document.service_attempts.get()
    done = mail_return(s, first, 24, outcome=Outcome.DELIVERED, received_on=dt.date.fromisoformat(on(23)))
    assert done.step_event is None
    assert "counts nothing from it now" in done.message
    first.refresh_from_db()
    assert first.outcome == Outcome.DELIVERED and first.received_on == dt.date.fromisoformat(on(23))
    assert "decision_received" not in events(s)


def test_the_case_page_offers_a_further_service_on_the_document_not_as_a_bare_step(story):
    s, document = served(story)
    page = client_for(s.staff["officer"]).get(reverse("staff:case", args=[s.case.number])).content.decode()
    assert reverse("documents:service_attempt", args=[document.pk]) in page
    assert reverse("staff:act", args=[s.case.number, "record_further_service"]) not in page
    assert reverse("staff:act", args=[s.case.number, "record_notice_receipt"]) not in page


def test_the_same_form_sent_twice_records_one_attempt(story):
    s, document = served(story)
    version = Case.objects.get(pk=s.case.pk).version
    kwargs = {
        "actor": s.staff["officer"],
        "method": "personal",
        "sent_on": dt.date.fromisoformat(on(3)),
        "outcome": "delivered",
        "expected_version": version,
        "idempotency_key": "6f1c2a9e-8d7b-4c1e-9f00-123456789abc",
        "at": at(3, 11),
    }
    first = serving.record_service_attempt(IssuedDocument.objects.get(pk=document.pk), **kwargs)
    again = serving.record_service_attempt(IssuedDocument.objects.get(pk=document.pk), **kwargs)
    assert again.attempt.pk == first.attempt.pk
    assert document.service_attempts.count() == 2
    assert Event.objects.filter(case=s.case, act="record_further_service").count() == 1


def test_the_next_action_after_unclaimed_mail_is_to_serve_again_by_a_method_the_law_names(story):
    s, document = served(story)
    first = document.service_attempts.get(number=1)
    today = dt.date.fromisoformat(on(12))
    assert serving.next_action(document, [first], today).startswith("Waiting for the return receipt")
    mail_return(s, first, 12, outcome=Outcome.UNCLAIMED)
    first.refresh_from_db()
    assert serving.next_action(document, [first], today) == (
        "Attempt 1: returned unclaimed. Serve it again by personal delivery to the owner or certified mail (§ 90.15 (B)(2))."
    )


def test_tracy_ordinary_mail_says_the_time_runs_only_from_certified_mail_rrr_subd_4a(story):
    s = story(TRACY, BITE)
    s.step("classify", "police", 0, designation="vicious", reasonable_cause="Unprovoked bite, Subd 1.B.2")
    document = issued(s, s.step("notify_classification", "police", 1, sent_on=on(1), certified_mail=False))
    done = attempt(
        s,
        document,
        2,
        actor=s.staff["police"],
        method="mail",
        sent_on=dt.date.fromisoformat(on(2)),
        outcome="sent",
    )
    assert done.message == (
        "The law requires written notice and names no method (Tracy City Code § 8.31, Subd 3): this service is "
        "recorded, but the owner's time runs only from a notice sent by certified mail, return receipt requested."
    )


def test_issuing_the_notice_records_its_first_service_as_attempt_1(make_case):
    c = make_case()
    c.declare()
    result = c.serve(day=2, method="certified_mail")
    (notice, *_rest) = result.documents
    first = notice.service_attempts.get()
    assert (first.number, first.method, first.outcome) == (1, "certified_mail", Outcome.SENT)
    assert first.step_event_id == result.event.pk
    # the return receipt comes back signed: the owner's receipt ((H)) is recorded by the receipt step
    done = serving.record_mail_return(
        first,
        actor=c.staff["officer"],
        outcome=Outcome.DELIVERED,
        received_on=dt.date.fromisoformat(on(4)),
        expected_version=Case.objects.get(pk=c.case.pk).version,
        at=at(5, 11),
    )
    assert done.step_event.act == "record_notice_receipt"


def test_a_corrected_notice_is_to_be_served_again(make_case, staff):
    from dogcase.documents import acts as document_acts

    c = make_case()
    c.declare()
    (notice, *_rest) = c.serve(day=2, method="certified_mail").documents
    corrected = document_acts.correct_document(notice, actor=staff["officer"], reason="Wrong street number")
    assert corrected.service_attempts.count() == 0
    page = client_for(staff["clerk"]).get(reverse("staff:case", args=[c.case.number])).content.decode()
    assert f'id="service-{corrected.pk}"' in page and f'id="service-{notice.pk}"' in page
    section = page.split(f'id="service-{corrected.pk}"')[1]
    assert "Not served yet. Serve it by personal delivery to the owner or certified mail" in section


def test_the_article_number_of_the_first_mailing_puts_it_on_the_mailing_sheet(story):
    s, document = served(story)
    first = document.service_attempts.get(number=1)
    client = client_for(s.staff["clerk"])
    sheet = reverse("documents:mailing_sheet")
    assert "9407 1111" not in client.get(sheet, {"city": BATTLE_LAKE, "day": on(1)}).content.decode()
    response = client.post(
        reverse("documents:service_article", args=[document.pk, 1]),
        {"version": Case.objects.get(pk=s.case.pk).version, "article_number": "9407 1111 2222 3333"},
    )
    assert response.status_code == 302
    first.refresh_from_db()
    assert first.article_number == "9407 1111 2222 3333"
    assert Event.objects.filter(case=s.case, act="record_article_number").count() == 1
    assert "9407 1111 2222 3333" in client.get(sheet, {"city": BATTLE_LAKE, "day": on(1)}).content.decode()
