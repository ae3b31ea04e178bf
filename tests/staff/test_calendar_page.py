"""The hearing calendar (issue 20, item 8): a month and a week of hearings (case, place, hearing officer) and
Council items of the user's cities; a room is never booked for two hearings at once — refused by the act, on
the staff form and the API alike, naming the other case and its time; rescheduling a hearing is no clash."""

from __future__ import annotations

import json

import pytest
import time_machine
from django.test import Client

from dogcase.cases.hearings import check_room
from dogcase.law import library
from tests.documents.conftest import BITE, Case, at, on

pytestmark = pytest.mark.django_db
PLACE = "City Hall council chambers"


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture
def make_case(staff, media, db):
    def make(city: str = "battle-lake-mn", facts=BITE) -> Case:
        return Case(staff, city, facts)

    return make


def client(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def requested(make_case):
    c = make_case()
    c.declare(day=1)
    c.serve(day=2, telephoned=True)
    c.step("receive_hearing_request", "clerk", 3, received_on=on(3))
    return c


def schedule(c, staff, day: int, hour: int, place: str = PLACE):
    return c.step(
        "schedule_hearing",
        "clerk",
        4,
        hearing_at=at(day, hour).isoformat(),
        place=place,
        hearing_officer=str(staff["hearing"].pk),
    )


@pytest.fixture
def booked(make_case, staff):
    staff["hearing"].first_name, staff["hearing"].last_name = "Ruth", "Aamodt"
    staff["hearing"].save()
    first = requested(make_case)
    schedule(first, staff, 10, 14)
    return first


def test_the_month_and_the_week_show_each_hearing_with_case_place_and_officer(booked, staff):
    with time_machine.travel(at(4, 12), tick=False):
        month = client(staff["clerk"]).get("/calendar/")
        html = month.content.decode()
        assert month.status_code == 200
        assert "<table" in html and '<th scope="col"><abbr title="Monday">Mon</abbr></th>' in html
        assert 'aria-current="date"' in html  # today marked
        assert f'href="/cases/{booked.case.number}"' in html
        assert PLACE in html and "hearing officer Ruth Aamodt" in html and "14:00" in html
        week = client(staff["clerk"]).get("/calendar/", {"view": "week", "day": on(10)})
        text = week.content.decode()
        assert "<table" not in text and booked.case.number in text and "Thursday 11 June" in text
        # another week, another month: not shown
        assert (
            booked.case.number
            not in client(staff["clerk"]).get("/calendar/", {"view": "week", "day": on(20)}).content.decode()
        )
        nxt = (
            client(staff["clerk"]).get("/calendar/", {"view": "month", "day": "2026-07-01"}).content.decode()
        )
        assert booked.case.number not in nxt and "July 2026" in nxt and "Previous month" in nxt


def test_only_the_users_cities(booked, make_staff_user):
    tracy = make_staff_user("city_clerk", username="tracy-clerk", cities=("tracy-mn",))
    with time_machine.travel(at(4, 12), tick=False):
        html = client(tracy).get("/calendar/").content.decode()
    assert booked.case.number not in html and PLACE not in html
    assert Client().get("/calendar/").status_code == 302  # the sign-in page


def test_a_room_booked_at_that_time_is_refused_on_the_staff_form(booked, make_case, staff):
    second = requested(make_case)
    with time_machine.travel(at(4, 12), tick=False):
        response = client(staff["clerk"]).post(
            f"/cases/{second.case.number}/act/schedule_hearing",
            {
                "version": second.case.version,
                "in-hearing_at": at(10, 14).replace(minute=30).strftime("%Y-%m-%dT%H:%M"),
                "in-place": "city hall  Council Chambers",
                "in-hearing_officer": str(staff["hearing"].pk),
            },
        )
    assert response.status_code in (400, 422)
    page = response.content.decode()
    assert f"already booked for the hearing of case {booked.case.number}" in page
    assert "Thursday 11 June 2026 at 14:00" in page and "one hour" in page
    assert not second.case.events.filter(act="schedule_hearing").exists()


def test_a_room_booked_at_that_time_is_refused_through_the_api(booked, make_case, staff):
    second = requested(make_case)
    body = {
        "version": second.case.version,
        "inputs": {
            "hearing_at": at(10, 13).replace(minute=30).isoformat(),
            "place": PLACE,
            "hearing_officer": str(staff["hearing"].pk),
        },
    }
    with time_machine.travel(at(4, 12), tick=False):
        response = client(staff["clerk"]).post(
            f"/api/v1/cases/{second.case.number}/steps/schedule_hearing",
            json.dumps(body),
            content_type="application/json",
        )
        assert response.status_code == 422, response.content
        error = response.json()["error"]
        assert error["field"] == "inputs.hearing_at"
        assert booked.case.number in error["rule"] and "14:00" in error["rule"]
        # an hour later the room is free (a hearing holds it one hour unless the city's pack says otherwise)
        body["inputs"]["hearing_at"] = at(10, 15).isoformat()
        done = client(staff["clerk"]).post(
            f"/api/v1/cases/{second.case.number}/steps/schedule_hearing",
            json.dumps(body),
            content_type="application/json",
        )
    assert done.status_code == 201, done.content


def test_rescheduling_is_no_clash_with_itself_and_the_city_sets_the_length(booked, make_case, monkeypatch):
    j = library().get("battle-lake-mn")
    moment = at(10, 14).isoformat()
    assert (
        check_room(j, booked.case, "schedule_hearing", {"hearing_at": moment, "place": PLACE}, at(4)) is None
    )
    second = requested(make_case)
    later = at(10, 15).isoformat()
    assert (
        check_room(j, second.case, "schedule_hearing", {"hearing_at": later, "place": PLACE}, at(4)) is None
    )
    assert (
        check_room(j, second.case, "schedule_hearing", {"hearing_at": moment, "place": "Fire hall"}, at(4))
        is None
    )
    monkeypatch.setitem(j.setting_values, "hearing_minutes", 90)
    field, words = check_room(
        j, second.case, "schedule_hearing", {"hearing_at": later, "place": PLACE}, at(4)
    )
    assert field == "hearing_at" and "90 minutes" in words and booked.case.number in words


def test_a_closed_case_books_no_room(booked, make_case, staff):
    """A hearing of a closed case will not be held: its room is free."""
    from dogcase.cases.models import Case

    Case.objects.filter(pk=booked.case.pk).update(status=Case.Status.CLOSED)
    second = requested(make_case)
    j = library().get("battle-lake-mn")
    found = check_room(
        j, second.case, "schedule_hearing", {"hearing_at": at(10, 14).isoformat(), "place": PLACE}, at(4)
    )
    assert found is None


def test_moving_a_hearing_by_a_correction_into_a_booked_room_is_refused(booked, make_case, staff):
    from dogcase.cases import acts

    second = requested(make_case)
    schedule(second, staff, 10, 16)
    event = second.case.events.get(act="schedule_hearing")
    second.case.refresh_from_db()
    with pytest.raises(acts.InvalidInput) as caught:
        acts.correct_event_date(
            second.case,
            event=event,
            name="hearing_scheduled",
            value=at(10, 14).replace(minute=30),
            reason="the hearing was moved to the afternoon session",
            actor=staff["clerk"],
            expected_version=second.case.version,
            at=at(5),
        )
    assert booked.case.number in caught.value.rule and "14:00" in caught.value.rule
    # moved within its own hour: no clash with itself
    acts.correct_event_date(
        second.case,
        event=event,
        name="hearing_scheduled",
        value=at(10, 16).replace(minute=30),
        reason="the hearing starts half an hour later",
        actor=staff["clerk"],
        expected_version=second.case.version,
        at=at(5),
    )


def test_a_room_is_looked_for_among_the_hearings_near_that_time_not_the_citys_months_of_them(
    booked, make_case, staff
):
    """The room check reads the cases with a hearing recorded near the time asked for (and those whose
    hearing was corrected since), not every hearing the city scheduled in the last months."""
    from dogcase.cases.hearings import _cases_booked_near, scheduled_inputs
    from dogcase.cases.models import Event

    far = requested(make_case)
    schedule(far, staff, 16, 14)
    j = library().get("battle-lake-mn")
    steps = {s.step_id: s for s in scheduled_inputs(j, at(4).date())}
    scheduling = Event.objects.filter(jurisdiction=j.id, kind=Event.Kind.STEP, act__in=list(steps))
    near_ten = set(
        _cases_booked_near(scheduling, steps, at(10, 14), at(10, 15)).values_list("case_id", flat=True)
    )
    near_thirty = set(
        _cases_booked_near(scheduling, steps, at(16, 9), at(16, 10)).values_list("case_id", flat=True)
    )
    assert near_ten == {booked.case.pk}
    assert near_thirty == {far.case.pk}
    # a day or two either side is still read (the text's own offset may put it on another day)
    assert booked.case.pk in set(
        _cases_booked_near(scheduling, steps, at(11, 23), at(12, 0)).values_list("case_id", flat=True)
    )
    assert not set(
        _cases_booked_near(scheduling, steps, at(13, 9), at(13, 10)).values_list("case_id", flat=True)
    )


def test_a_hearing_corrected_from_a_far_day_into_the_hour_holds_the_room(booked, make_case, staff):
    from dogcase.cases import acts

    moved = requested(make_case)
    schedule(moved, staff, 16, 9)
    event = moved.case.events.get(act="schedule_hearing")
    moved.case.refresh_from_db()
    acts.correct_event_date(
        moved.case,
        event=event,
        name="hearing_scheduled",
        value=at(12, 9),
        reason="the hearing was brought forward",
        actor=staff["clerk"],
        expected_version=moved.case.version,
        at=at(5),
    )
    third = requested(make_case)
    j = library().get("battle-lake-mn")
    field, words = check_room(
        j, third.case, "schedule_hearing", {"hearing_at": at(12, 9).isoformat(), "place": PLACE}, at(6)
    )
    assert field == "hearing_at" and moved.case.number in words
    assert (
        check_room(
            j, third.case, "schedule_hearing", {"hearing_at": at(16, 9).isoformat(), "place": PLACE}, at(6)
        )
        is None
    )
