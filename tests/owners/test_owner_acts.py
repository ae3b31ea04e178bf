"""The owner files a step themselves (acts.take_owner_step): the same law as a staff member's act, the
owner as actor, the filing dated when submitted."""

import pytest

from dogcase.cases import acts
from dogcase.cases.audit import verify_chain
from dogcase.cases.models import Event, Person
from tests.owners.conftest import at, on, owner_of, served


def file_request(s, person, day, hour=16, **inputs):
    return acts.take_owner_step(
        s.case,
        "receive_hearing_request",
        person=person,
        inputs=inputs,
        expected_version=s.case.version,
        at=at(day, hour),
    )


def test_a_request_on_the_last_day_is_in_time_and_starts_the_hearing_clock(story):
    served_case = served(story)
    s = served_case
    owner = owner_of(s)
    assert str(s.obligation("owner.request_hearing").due_date) == on(15)
    # the owner's date for the receipt is ignored: the filing is dated when submitted
    result = file_request(s, owner, 15, received_on=on(3))
    event = result.event
    assert event.actor is None and event.actor_name == "Olive Owner" and event.actor_roles == "owner"
    assert event.data["filed_by"] == {"person": owner.pk, "via": "portal"}
    assert event.data["inputs"]["received_on"] == on(15)
    assert event.data["events"]["hearing_request_received"] == on(15)
    s.case = result.case
    assert s.obligation("owner.request_hearing").status == "met"
    hold = s.obligation("city.hold_hearing")  # 14 days from the request of June 16: June 30
    assert str(hold.due_date) == on(29)
    assert verify_chain().ok
    from dogcase.ops import integrity

    report = integrity.verify_all()
    assert report["ok"], report


def test_a_request_a_day_late_is_refused_with_the_date_the_window_closed(story):
    served_case = served(story)
    s = served_case
    with pytest.raises(acts.OwnerRefused) as info:
        file_request(s, owner_of(s), 16, hour=9)
    refusal = info.value.refusals[0]
    assert refusal["code"] == "too_late"
    assert "ended on Tuesday 16 June 2026" in refusal["reason"]
    assert refusal["citation"]
    assert not s.case.events.filter(act="receive_hearing_request").exists()


def test_a_person_who_is_not_an_owner_is_refused(story):
    served_case = served(story)
    s = served_case
    stranger = acts.record_person(
        jurisdiction=s.case.jurisdiction, actor=s.staff["officer"], full_name="Sam Stranger", at=at(2)
    )
    with pytest.raises(acts.OwnerRefused) as info:
        file_request(s, stranger, 5)
    assert info.value.refusals[0]["code"] == "not_owner"
    assert not s.case.events.filter(act="receive_hearing_request").exists()


def test_a_step_the_city_takes_is_refused_to_the_owner(story):
    served_case = served(story)
    s = served_case
    with pytest.raises(acts.OwnerRefused) as info:
        acts.take_owner_step(
            s.case,
            "schedule_hearing",
            person=owner_of(s),
            inputs={},
            expected_version=s.case.version,
            at=at(5),
        )
    assert info.value.refusals[0]["code"] == "not_owner_step"


def test_the_same_submission_twice_is_recorded_once(story):
    served_case = served(story)
    s = served_case
    owner = owner_of(s)
    first = acts.take_owner_step(
        s.case,
        "receive_hearing_request",
        person=owner,
        inputs={},
        expected_version=s.case.version,
        idempotency_key="k-1",
        at=at(5),
    )
    again = acts.take_owner_step(
        s.case,
        "receive_hearing_request",
        person=owner,
        inputs={},
        expected_version=s.case.version,
        idempotency_key="k-1",
        at=at(5),
    )
    assert again.replayed and again.event.pk == first.event.pk
    assert Event.objects.filter(act="receive_hearing_request").count() == 1


def test_the_owner_gives_notice_of_a_transfer(story):
    served_case = served(story)
    s = served_case
    result = acts.take_owner_step(
        s.case,
        "record_transfer",
        person=owner_of(s),
        inputs={"transferred_on": on(20), "new_owner": "Nora New, 1 Lake St, Battle Lake, 218-555-0199"},
        expected_version=s.case.version,
        at=at(21),
    )
    assert result.event.data["events"]["transfer"] == on(20)
    assert Person.objects.filter(full_name="Olive Owner").exists()
    assert not s.case.tasks.filter(key__startswith="owner-filing:").exists()  # no document to send


def test_a_tracy_owner_asks_for_the_council_hearing(story):
    from tests.cases.test_tracy_case import classified

    s = classified(story)
    s.step("notify_classification", "clerk", 0, sent_on=on(0), certified_mail=True)
    owner = Person.objects.get(ownerships__dog=s.dog)
    result = acts.take_owner_step(
        s.case,
        "receive_classification_appeal",
        person=owner,
        inputs={},
        expected_version=s.case.version,
        at=at(2, 15),
    )
    assert result.event.data["events"]["hearing_request_received"] == on(2)
    assert s.case.obligations.get(deadline_id="owner.request_hearing").status == "met"
    # the acknowledgment the step issues is not issued by the owner's filing: a task says to send it
    task = s.case.tasks.get(done_at__isnull=True, key__startswith="owner-filing:")
    assert "Your request for a hearing on the vicious dog classification" in task.text


def test_the_clerks_dashboard_says_what_the_owner_filed_not_the_citys_step(
    served_case, client, make_staff_user
):
    s = served_case
    acts.take_owner_step(
        s.case, "receive_hearing_request", person=owner_of(s), inputs={}, expected_version=s.case.version
    )
    clerk = make_staff_user("city_clerk", username="filings-clerk", cities=["battle-lake-mn"])
    client.force_login(clerk)
    page = client.get("/").content.decode()
    filings = page[page.index('id="owner-filings"') :]
    filings = filings[: filings.index("</section>")]
    # what the owner did, as the case's history says it (the pack's outcome), then who did it
    assert "The owner asked in writing for a hearing on the designation (Olive Owner)" in filings
    assert "Receive the owner" not in filings  # the city's step, which the clerk still has to take
    assert s.case.number in filings


def test_a_filing_the_law_writes_no_sentence_of_is_named_by_its_step(
    served_case, client, make_staff_user, monkeypatch
):
    """A sentence made from the step's label (a site pack with no `outcome:`) would say "The city ...": the
    list names the owner and the step instead, never the city as the one who filed."""
    from dogcase.cases import outcomes

    s = served_case
    acts.take_owner_step(
        s.case, "receive_hearing_request", person=owner_of(s), inputs={}, expected_version=s.case.version
    )
    made = "The city received the owner's written request for a hearing"
    monkeypatch.setattr(outcomes, "event_outcome", lambda *a, **k: {"what": made})
    client.force_login(make_staff_user("city_clerk", username="filings-clerk2", cities=["battle-lake-mn"]))
    page = client.get("/").content.decode()
    filings = page[page.index('id="owner-filings"') :]
    filings = filings[: filings.index("</section>")]
    assert "The city received" not in filings
    assert "Olive Owner: Receive the owner&#x27;s written request for a hearing" in filings
