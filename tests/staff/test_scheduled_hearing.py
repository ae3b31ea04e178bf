"""The scheduled hearing is part of the case (issue 10, item 6): its date, time and place, and the hearing
officer as a user chosen among those the law empowers in the city (impartiality still applies); the obligation
to hold it says when; the hearing officer's dashboard lists it."""

import json

import pytest
from django.test import Client

from dogcase.cases import acts
from tests.cases.conftest import SERIOUS, Story, at, on

pytestmark = pytest.mark.django_db


def client(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


@pytest.fixture
def requested(staff):
    s = Story(staff, "battle-lake-mn", SERIOUS)
    s.step("declare", "officer", 0, designation="dangerous", basis="Serious bite")
    s.step(
        "serve_notice", "officer", 1, served_on=on(1), method="personal", served_owner="O", received_on=on(1)
    )
    s.step("receive_hearing_request", "clerk", 5, received_on=on(5))
    staff["hearing"].first_name, staff["hearing"].last_name = "Ruth", "Aamodt"
    staff["hearing"].save()
    return s


def hearing_words() -> str:
    """How the hearing of `schedule` (16 June 2026 at 14:00) is written: without its year only in 2026."""
    from django.utils import timezone

    return "Tue 16 Jun" + ("" if timezone.localdate().year == 2026 else " 2026") + " at 14:00"


def schedule(s, officer):
    return s.step(
        "schedule_hearing",
        "clerk",
        6,
        hearing_at=at(15, 14).isoformat(),
        place="City Hall, council chambers",
        hearing_officer=str(officer.pk),
    )


def test_the_form_offers_the_citys_hearing_officers_as_people(requested, staff, make_staff_user):
    other_city = make_staff_user("hearing_officer", username="tracy-hearing", cities=("tracy-mn",))
    response = client(staff["clerk"]).get(f"/cases/{requested.case.number}/act/schedule_hearing")
    field = next(f for f in response.context["fields"] if f["id"] == "hearing_officer")
    offered = {c["value"]: c["label"] for c in field["choices"]}
    assert offered[str(staff["hearing"].pk)] == "Ruth Aamodt"
    assert str(other_city.pk) not in offered  # not working for Battle Lake
    assert str(staff["officer"].pk) not in offered  # (I)(3): the City Clerk/Treasurer or a hearing officer
    html = response.content.decode()
    assert f'name="in-hearing_officer" value="{staff["hearing"].pk}"' in html


def test_someone_the_law_does_not_empower_is_refused_on_the_field(requested, staff):
    case = requested.case
    response = client(staff["clerk"]).post(
        f"/api/v1/cases/{case.number}/steps/schedule_hearing",
        json.dumps(
            {
                "version": case.version,
                "inputs": {
                    "hearing_at": at(15, 14).isoformat(),
                    "place": "City Hall",
                    "hearing_officer": str(staff["officer"].pk),
                },
            }
        ),
        content_type="application/json",
    )
    assert response.status_code == 422, response.content
    error = response.json()["error"]
    assert error["field"] == "inputs.hearing_officer" and "Ruth Aamodt" in error["rule"]


def test_the_case_knows_its_hearing_and_the_obligation_says_when(requested, staff):
    schedule(requested, staff["hearing"])
    case = requested.case
    hearing = case.scheduled_hearing()
    assert (hearing.at, hearing.place, hearing.officer) == (
        at(15, 14),
        "City Hall, council chambers",
        staff["hearing"],
    )
    assert hearing.when_words == hearing_words()
    response = client(staff["clerk"]).get(f"/cases/{case.number}")
    hold = next(o for o in response.context["open_obligations"] if o["deadline_id"] == "city.hold_hearing")
    assert hold["what"] == f"hold the hearing on the dangerous dog declaration on {hearing_words()}"
    html = response.content.decode()
    assert f"{hearing_words()}, City Hall, council chambers — hearing officer Ruth Aamodt" in html
    # the timeline names the hearing officer, not their id
    row = next(r for r in response.context["timeline"] if r["act"] == "schedule_hearing")
    officer = next(e for e in row["entered"] if e["id"] == "hearing_officer")
    assert officer["value"] == "Ruth Aamodt"


def test_the_hearing_officers_dashboard_lists_the_hearing_until_it_is_held(requested, staff, make_staff_user):
    schedule(requested, staff["hearing"])
    colleague = make_staff_user("hearing_officer", username="other-hearing")
    mine = client(staff["hearing"]).get("/").context["hearings"]
    assert [(r["case"].number, r["hearing"].when_words) for r in mine] == [
        (requested.case.number, hearing_words())
    ]
    assert "Hearings you are to hold" in client(staff["hearing"]).get("/").content.decode()
    assert not client(colleague).get("/").context["hearings"]
    requested.step("hold_hearing", "hearing", 15, held_on=on(15))
    assert not client(staff["hearing"]).get("/").context["hearings"]


def test_the_case_page_shows_a_hearing_as_scheduled_only_until_it_is_held(requested, staff):
    schedule(requested, staff["hearing"])
    page = client(staff["clerk"]).get(f"/cases/{requested.case.number}")
    assert [h.when_words for h in page.context["hearings"]] == [hearing_words()]
    assert 'class="scheduled-hearing"' in page.content.decode()
    requested.step("hold_hearing", "hearing", 15, held_on=on(15))
    page = client(staff["clerk"]).get(f"/cases/{requested.case.number}")
    assert page.context["hearings"] == []  # held: it reads in the timeline, no longer as ahead
    assert 'class="scheduled-hearing"' not in page.content.decode()


def test_an_act_that_named_the_officer_in_words_still_reads(requested, staff):
    """Hearings scheduled before the officer was a user kept the name as text: it is shown as written."""
    schedule(requested, staff["hearing"])
    event = requested.case.events.get(act="schedule_hearing")
    event.data["inputs"]["hearing_officer"] = "Ruth Aamodt (retained)"  # never saved: events are append-only
    from dogcase.cases.hearings import scheduled_hearings

    found = scheduled_hearings(requested.case, events=[event])["hearing_scheduled"]
    assert found.officer is None and found.officer_name == "Ruth Aamodt (retained)"
    assert acts.case_state(requested.case).events["hearing_scheduled"] == at(15, 14)


def test_a_corrected_date_keeps_the_order_of_the_case(requested, staff):
    """Moving the hearing is a correction with its reason; it cannot put the hearing before the request."""
    schedule(requested, staff["hearing"])
    event = requested.case.events.get(act="schedule_hearing")
    with pytest.raises(acts.InvalidInput) as caught:
        acts.correct_event_date(
            requested.case,
            event=event,
            name="hearing_scheduled",
            value=at(4, 14),
            reason="the hearing was moved to an earlier date",
            actor=staff["clerk"],
            expected_version=requested.case.version,
        )
    assert caught.value.rule == "cannot be before receipt of the hearing request (Saturday 6 June 2026)"
    acts.correct_event_date(
        requested.case,
        event=event,
        name="hearing_scheduled",
        value=at(16, 10),
        reason="the owner asked for another day; moved to the 17th",
        actor=staff["clerk"],
        expected_version=requested.case.version,
    )
    assert requested.case.scheduled_hearing().at == at(16, 10)


def _requested_case(staff, day0: int):
    s = Story(staff, "battle-lake-mn", SERIOUS)
    s.step("declare", "officer", day0, designation="dangerous", basis="Serious bite")
    s.step(
        "serve_notice",
        "officer",
        day0 + 1,
        served_on=on(day0 + 1),
        method="personal",
        served_owner="O",
        received_on=on(day0 + 1),
    )
    s.step("receive_hearing_request", "clerk", day0 + 5, received_on=on(day0 + 5))
    return s


def _scheduled_with_the_hearing_officer(staff, day0: int, *, hearing_day: int):
    """A case whose hearing the clerk scheduled on day0 + 6, at 14:00 on `hearing_day`, with the hearing officer."""
    s = _requested_case(staff, day0)
    s.step(
        "schedule_hearing",
        "clerk",
        day0 + 6,
        hearing_at=at(hearing_day, 14).isoformat(),
        place=f"City Hall, room {day0 + 1}",  # one room a case: a room is never booked twice at once
        hearing_officer=str(staff["hearing"].pk),
    )
    return s


def test_the_hearing_officers_list_is_bounded_and_reads_the_same_for_few_or_many_cases(staff, monkeypatch):
    """A statewide hearing officer may have heard thousands of cases: the dashboard reads the cases most recently
    scheduled with them, a fixed number, and shows the soonest hearings among them, saying there may be more."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from dogcase.cases import hearings

    monkeypatch.setattr(hearings, "CASES_READ", 3)
    monkeypatch.setattr(hearings, "HEARINGS_SHOWN", 2)

    def counted() -> tuple[int, list, bool]:
        with CaptureQueriesContext(connection) as queries:
            rows, more = hearings.hearings_to_hold(staff["hearing"], ("battle-lake-mn",))
        return len(queries), rows, more

    stories = []
    for n in range(2):
        stories.append(_scheduled_with_the_hearing_officer(staff, n, hearing_day=18 - 3 * n))
    few, rows, more = counted()
    assert [r["case"].number for r in rows] == [
        stories[1].case.number,
        stories[0].case.number,
    ]  # soonest first
    assert not more
    for n in range(2, 7):
        stories.append(_scheduled_with_the_hearing_officer(staff, n, hearing_day=n + 12))
    many, rows, more = counted()
    assert len(rows) == 2 and more
    assert many <= few + 1  # the same reads whether 2 or 7 cases were scheduled with the officer
    page = client(staff["hearing"]).get("/").content.decode()
    assert "There may be more" in page and "(the 2 soonest)" in page


def test_the_hearing_officers_cases_are_found_a_page_of_acts_at_a_time(staff, monkeypatch):
    """The officer's acts are read newest first a page at a time (a query with a limit each, which the database
    answers from the officer's index without reading every open case): across pages, each case once."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from dogcase.cases import hearings

    monkeypatch.setattr(hearings, "SCHEDULING_PAGE", 1)
    stories = []
    for n in range(3):
        stories.append(_scheduled_with_the_hearing_officer(staff, n, hearing_day=12 + n))
    with CaptureQueriesContext(connection) as queries:
        rows, more = hearings.hearings_to_hold(staff["hearing"], ("battle-lake-mn",))
    assert [r["case"].number for r in rows] == [s.case.number for s in stories]  # soonest first
    assert not more
    pages = [q["sql"] for q in queries if "hearing_officer" in q["sql"]]
    assert len(pages) == 4  # three acts, one a page, and the empty page that ends the search
    assert all("LIMIT 1" in sql for sql in pages)


def test_staff_the_law_never_designates_to_hold_a_hearing_do_not_search_the_cases(staff):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from dogcase.cases import hearings

    with CaptureQueriesContext(connection) as queries:
        rows, more = hearings.hearings_to_hold(staff["officer"], ("battle-lake-mn", "tracy-mn"))
    assert (rows, more) == ([], False)
    assert not [q for q in queries if "cases_event" in q["sql"]]
    # Battle Lake's (I)(3) lets the City Clerk/Treasurer hold the hearing: the clerk's list is searched
    assert hearings._may_be_designated(staff["clerk"], ("battle-lake-mn",))
    assert hearings._may_be_designated(staff["hearing"], ("battle-lake-mn",))


def test_a_cases_hearings_are_worked_out_again_only_when_its_acts_or_the_law_change(staff, monkeypatch):
    """The hearing officer's dashboard keeps each case's hearings to hold for the case's version: a second look
    works out no case again; an act on one case (its version moves on) works out that case alone, and shows
    what the act changed; a reloaded law works out every case again."""
    from dogcase.cases import hearings
    from dogcase.law import library

    worked: list[int] = []
    original = hearings.case_state

    def counting(case, *args, **kwargs):
        worked.append(case.pk)
        return original(case, *args, **kwargs)

    monkeypatch.setattr(hearings, "case_state", counting)
    stories = [_scheduled_with_the_hearing_officer(staff, n, hearing_day=12 + n) for n in range(3)]

    def listed() -> list[str]:
        rows, _more = hearings.hearings_to_hold(staff["hearing"], ("battle-lake-mn",))
        return [r["case"].number for r in rows]

    assert listed() == [s.case.number for s in stories] and sorted(worked) == sorted(
        s.case.pk for s in stories
    )
    worked.clear()
    assert listed() == [s.case.number for s in stories] and worked == []
    stories[0].step("hold_hearing", "hearing", 12, held_on=on(12))
    assert listed() == [s.case.number for s in stories[1:]] and worked == [stories[0].case.pk]
    worked.clear()
    monkeypatch.setattr(hearings, "_KEPT_HEARINGS_FOR", [object()])  # as if the law in use were another
    hearings.keep_hearings_for(library())
    assert listed() == [s.case.number for s in stories[1:]] and len(worked) == 3


def test_hearings_worked_out_under_a_law_reloaded_meanwhile_are_not_kept():
    """A request that began under the old law and ends after another request took the new one keeps nothing."""
    from dogcase.cases import hearings

    old, new = object(), object()
    hearings.keep_hearings_for(old)
    hearings._keep(("case", 1), [], old)
    assert ("case", 1) in hearings._KEPT_HEARINGS
    hearings.keep_hearings_for(new)
    hearings._keep(("case", 2), [], old)
    assert not hearings._KEPT_HEARINGS
    hearings._keep(("case", 3), [], new)
    assert list(hearings._KEPT_HEARINGS) == [("case", 3)]
    hearings.forget_kept_hearings()
