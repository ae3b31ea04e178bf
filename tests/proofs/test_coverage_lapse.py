"""The bond or insurance on file ends (issue 22, item 1): its last day is the owner's deadline to show a renewal
(Minn. Stat. 347.51 subd. 2, dogcase's reading coverage-on-file-ends), reminded 30, 7 and 2 days ahead; missed, it
is a breach with the seizure ground of 347.54 subd. 1; a renewal accepted moves the date."""

import datetime as dt

import pytest
from django.utils import timezone

from dogcase.cases import acts
from dogcase.cases.models import Event
from dogcase.proofs import services
from tests.proofs.helpers import coverage_data, owner_of, pdf, today


def _noon(day: dt.date) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, dt.time(12)))


def _covered(case, officer, ends: dt.date):
    proof = services.submit(
        case,
        "liability_coverage",
        data=coverage_data(ends_on=ends.isoformat()),
        uploads=[pdf()],
        person=owner_of(case),
    )
    return services.accept(proof, actor=officer)


def test_the_coverage_on_file_ending_is_the_owners_deadline_then_a_breach_with_its_ground(
    dangerous_case, officer
):
    case = dangerous_case()
    assert not case.obligations.filter(deadline_id="owner.keep_coverage").exists()  # nothing on file yet
    ends = today() + dt.timedelta(days=40)
    accepted = _covered(case, officer, ends)
    assert accepted.review_event.data["events"] == {"coverage_ends": ends.isoformat()}
    ob = case.obligations.get(deadline_id="owner.keep_coverage")
    assert (ob.status, ob.due_date, ob.who) == ("open", ends, "owner")
    assert "Minn. Stat. § 347.51, subd. 2" in ob.citations[0]["citation"]
    # the day after it ends: a breach, with the ground the law attaches
    acts.recompute_obligations(case, at=_noon(ends + dt.timedelta(days=1)))
    ob.refresh_from_db()
    assert ob.status == "overdue"
    grounds = [c["ground"] for c in ob.consequences]
    assert "The owner has no surety bond or liability insurance as required" in grounds
    assert (
        ob.consequences[0]["provision"]["citation"] == "Minn. Stat. § 347.54, subd. 1 (no bond or insurance)"
    )


def test_a_renewal_starting_when_the_coverage_on_file_ends_is_accepted_ahead_and_moves_the_date(
    dangerous_case, officer
):
    case = dangerous_case()
    ends = today() + dt.timedelta(days=20)
    _covered(case, officer, ends)
    renewal = services.submit(
        case,
        "liability_coverage",
        data=coverage_data(
            policy_number="HO-123456-R",
            starts_on=(ends + dt.timedelta(days=1)).isoformat(),
            ends_on=(ends + dt.timedelta(days=366)).isoformat(),
        ),
        uploads=[pdf()],
        person=owner_of(case),
    )
    services.accept(renewal, actor=officer)
    ob = case.obligations.get(deadline_id="owner.keep_coverage")
    assert (ob.status, ob.due_date) == ("open", ends + dt.timedelta(days=366))
    # the facts the law reads are events of the case's chain, like its steps
    assert (
        Event.objects.filter(case=case, act="review_proof", data__events__coverage_ends__isnull=False).count()
        == 2
    )


def test_a_policy_starting_after_a_gap_is_still_refused_before_its_first_day(dangerous_case, officer):
    case = dangerous_case()
    ends = today() + dt.timedelta(days=20)
    _covered(case, officer, ends)
    later = services.submit(
        case,
        "liability_coverage",
        data=coverage_data(
            starts_on=(ends + dt.timedelta(days=5)).isoformat(),
            ends_on=(ends + dt.timedelta(days=300)).isoformat(),
        ),
        uploads=[pdf()],
        person=owner_of(case),
    )
    with pytest.raises(services.ProofInvalid) as refused:
        services.accept(later, actor=officer)
    assert "starts_on" in refused.value.errors


def test_the_owner_is_reminded_30_days_before_the_coverage_on_file_ends(dangerous_case, officer):
    from dogcase.messaging.models import Message
    from dogcase.messaging.reminders import send_reminders

    case = dangerous_case()
    ends = today() + dt.timedelta(days=45)
    _covered(case, officer, ends)
    Message.objects.all().delete()
    send_reminders(_noon(ends - dt.timedelta(days=31)))
    assert not Message.objects.filter(kind="deadline_soon").exists()  # 31 days ahead: nothing
    send_reminders(_noon(ends - dt.timedelta(days=30)))
    (message,) = Message.objects.filter(kind="deadline_soon")
    assert message.person == owner_of(case)
    body = " ".join(message.body.split())
    assert "In 30 days, by " in body and "keep the surety bond or liability insurance in force" in body, body
    assert "Minn. Stat. § 347.54, subd. 1 (no bond or insurance)" in body  # what follows if it is missed
