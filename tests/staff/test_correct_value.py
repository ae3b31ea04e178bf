"""A value an act recorded in its form can be corrected (issue 21, item 5): a declaration recorded without the
officer's telephone no longer leaves the case unable ever to issue its notice. The correction is a new event
with the actor and the reason; the act's own event is never changed; the act's documents are issued again as
new versions; what decides the case (a designation, an outcome) is not a value a correction may change."""

import pytest
from django.test import Client

from dogcase.cases import acts
from dogcase.cases.audit import verify_chain
from dogcase.cases.models import Event
from dogcase.documents import acts as document_acts
from dogcase.documents.models import IssuedDocument
from tests.documents.conftest import SERIOUS, at, make_case, media, on, pdf_text  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db

REASON = "The officer's telephone was left out of the form by mistake."


def _declaration(c):
    return c.case.events.get(kind=Event.Kind.STEP, act="declare")


def test_a_declaration_without_the_telephone_is_corrected_and_the_notice_can_then_issue(make_case, staff):  # noqa: F811
    c = make_case(facts=SERIOUS)
    c.declare(day=1, designation="dangerous", telephone=None)
    with pytest.raises(document_acts.MissingElements) as refused:
        c.serve(day=2, telephoned=True)
    assert "declarant.telephone" in {m.source for m in refused.value.missing}
    declared = _declaration(c)
    c.case.refresh_from_db()
    result = acts.correct_event_input(
        c.case,
        event=declared,
        input_id="declarant_telephone",
        value="218-555-0102",
        reason=REASON,
        actor=staff["officer"],
        expected_version=c.case.version,
        at=at(2, 9),
    )
    correction = result.event
    assert (correction.kind, correction.act, correction.corrects_id) == (
        Event.Kind.CORRECTION,
        "correct_input",
        declared.pk,
    )
    assert (
        correction.data["old"] is None and correction.data["new"] == "218-555-0102"
    )  # cleaned as the form cleans
    assert correction.actor == staff["officer"] and REASON in correction.summary
    declared.refresh_from_db()
    assert "declarant_telephone" not in declared.data["inputs"]  # the act's own record is never changed
    notice = next(
        d for d in c.serve(day=2, telephoned=True).documents if d.doc_type == "dangerous_declaration_notice"
    )
    assert "218-555-0102" in pdf_text(notice)
    assert verify_chain().ok


@pytest.mark.parametrize(
    ("who", "input_id", "value", "reason", "field"),
    [
        ("officer", "designation", "potentially_dangerous", REASON, "input"),  # the act itself: not a value
        ("officer", "declarant_telephone", "call me", REASON, "value"),
        ("officer", "declarant_telephone", "218-555-0102", "oops", "reason"),
        (
            "officer",
            "basis",
            "Bit a person without provocation on public property",
            REASON,
            "value",
        ),  # unchanged
    ],
)
def test_a_wrong_correction_is_refused_naming_the_field(  # noqa: F811
    make_case,  # noqa: F811
    staff,
    who,
    input_id,
    value,
    reason,
    field,  # noqa: F811
):
    c = make_case(facts=SERIOUS)
    c.declare(day=1, designation="dangerous")
    c.case.refresh_from_db()
    with pytest.raises(acts.InvalidInput) as refused:
        acts.correct_event_input(
            c.case,
            event=_declaration(c),
            input_id=input_id,
            value=value,
            reason=reason,
            actor=staff[who],
            expected_version=c.case.version,
        )
    assert refused.value.field == field
    assert not Event.objects.filter(act="correct_input").exists()


def test_only_who_may_take_the_step_or_an_administrator_corrects_it(make_case, staff):  # noqa: F811
    c = make_case(facts=SERIOUS)
    c.declare(day=1, designation="dangerous")
    c.case.refresh_from_db()
    with pytest.raises(acts.Refused):
        acts.correct_event_input(
            c.case,
            event=_declaration(c),
            input_id="declarant_telephone",
            value="218-555-0102",
            reason=REASON,
            actor=staff["clerk"],
            expected_version=c.case.version,
        )


def test_through_the_page_the_acts_documents_are_issued_again_with_the_corrected_value(make_case, staff):  # noqa: F811
    c = make_case(facts=SERIOUS)
    c.declare(day=1, designation="dangerous")
    c.serve(day=2, telephoned=True)
    c.step("receive_hearing_request", "clerk", 3, received_on=on(3))
    c.step(
        "schedule_hearing",
        "clerk",
        4,
        hearing_at=at(10, 14).isoformat(),
        place="City Hall, room 1",
        hearing_officer=str(staff["hearing"].pk),
    )
    scheduled = c.case.events.get(kind=Event.Kind.STEP, act="schedule_hearing")
    first = IssuedDocument.objects.get(step_event=scheduled)
    client = Client()
    client.force_login(staff["clerk"])
    url = f"/cases/{c.case.number}/events/{scheduled.seq}/correct-value"
    page = client.get(url)
    assert page.status_code == 200 and "Place of the hearing" in page.content.decode()
    c.case.refresh_from_db()
    response = client.post(
        url,
        {
            "version": c.case.version,
            "idempotency_key": "k-1",
            "input": "place",
            "value": "City Hall, council chambers",
            "reason": "The room was given wrong on the form.",
        },
    )
    assert response.status_code == 302
    second = IssuedDocument.objects.get(replaces=first)
    assert second.version == first.version + 1
    assert "council chambers" in " ".join(pdf_text(second).split())
    assert "room 1" in " ".join(pdf_text(first).split())  # the version sent stays as it was
    # the case page shows the value as corrected, and the correction with its reason
    case_page = client.get(f"/cases/{c.case.number}").content.decode()
    assert "The room was given wrong on the form." in case_page
    assert c.case.scheduled_hearing is not None
