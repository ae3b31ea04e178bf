"""Calendars: the private feed of each user (the hearings and Council items of the cases they may see) and
the .ics of the owner's notice of hearing (issue 8, item 6). Read back with the icalendar package."""

import datetime as dt

import icalendar
import pytest
import time_machine
from django.test import Client

from dogcase.accounts.calendar_feed import issue_feed, revoke_feed, token_hash
from dogcase.accounts.models import CalendarFeed
from dogcase.cases import acts
from dogcase.documents.calendar import hearing_notice_ics
from dogcase.documents.ical import CalendarItem, calendar_text, fold
from tests.cases.conftest import at, on, story  # noqa: F401
from tests.documents.test_next_steps import classified_vicious, served_dangerous

UTC = dt.UTC


def scheduled_hearing(story):  # noqa: F811
    s = served_dangerous(story)
    officer = s.staff["hearing"]
    officer.first_name, officer.last_name = "Ruth", "Aamodt"
    officer.save()
    s.step("receive_hearing_request", "clerk", 5, received_on=on(5))
    s.step(
        "schedule_hearing",
        "clerk",
        6,
        hearing_at=at(15, 14).isoformat(),
        place="City Hall, 105 Main St; Council chambers",
        hearing_officer=str(s.staff["hearing"].pk),
    )
    return s


def council_hearing_due(story):  # noqa: F811
    s = classified_vicious(story)
    s.step("receive_classification_appeal", "clerk", 2, received_on=on(2))
    return s


def events_of(text: str) -> list:
    return icalendar.Calendar.from_ical(text).walk("VEVENT")


# ------------------------------------------------------------------------------------------ the writer


def test_the_text_is_rfc5545_crlf_folded_at_75_octets_and_escaped():
    summary = "Hearing; case BL-1, dog “Señor Ñandú”, a very long summary " + "é" * 80
    item = CalendarItem(
        uid="BL-1-hearing@dogcase",
        start=dt.datetime(2026, 6, 16, 19, 0, tzinfo=UTC),
        summary=summary,
        description="Line one\nLine two, with a comma; and a semicolon \\ backslash",
        location="City Hall, Room 2",
    )
    text = calendar_text([item], name="Test", stamp=dt.datetime(2026, 6, 1, tzinfo=UTC))
    assert text.endswith("\r\n") and "\n" not in text.replace("\r\n", "")
    assert all(len(line.encode()) <= 75 for line in text.split("\r\n"))
    (event,) = events_of(text)
    assert str(event["SUMMARY"]) == summary
    assert str(event["DESCRIPTION"]) == "Line one\nLine two, with a comma; and a semicolon \\ backslash"
    assert str(event["LOCATION"]) == "City Hall, Room 2"
    assert event.decoded("DTSTART") == dt.datetime(2026, 6, 16, 19, 0, tzinfo=UTC)
    assert event.decoded("DTEND") - event.decoded("DTSTART") == dt.timedelta(hours=1)


def test_folding_never_splits_a_character():
    line = "SUMMARY:" + "ñ" * 100
    folded = fold(line)
    assert folded.replace("\r\n ", "") == line
    assert all(len(part.encode()) <= 75 for part in folded.split("\r\n"))


def test_an_all_day_item_is_a_date():
    item = CalendarItem(uid="x@dogcase", start=dt.date(2026, 6, 9), summary="Council: hold the hearing")
    (event,) = events_of(calendar_text([item], name="T", stamp=dt.datetime(2026, 6, 1, tzinfo=UTC)))
    assert event.decoded("DTSTART") == dt.date(2026, 6, 9)
    assert event.decoded("DTEND") == dt.date(2026, 6, 10)


# ------------------------------------------------------------------------------------------ the feed


def feed_get(client: Client, token: str):
    return client.get(f"/calendar/{token}.ics")


@pytest.fixture
def cases(story):  # noqa: F811
    return {"battle_lake": scheduled_hearing(story), "tracy": council_hearing_due(story)}


@time_machine.travel(at(7, 12), tick=False)
def test_the_feed_lists_the_hearings_and_council_items_of_the_users_cities(cases, make_staff_user):
    both = make_staff_user("city_clerk", "clerk-both")
    text = feed_get(Client(), issue_feed(both, at=at(7, 12))).content.decode()
    events = {str(e["UID"]): e for e in events_of(text)}
    hearing = events[f"{cases['battle_lake'].case.number}-hearing_scheduled@dogcase"]
    assert hearing.decoded("DTSTART") == at(15, 14).astimezone(UTC)
    assert str(hearing["LOCATION"]) == "City Hall, 105 Main St; Council chambers"
    assert "Place of the hearing: City Hall" in str(hearing["DESCRIPTION"])
    assert "Ruth Aamodt" in str(hearing["DESCRIPTION"])  # staff see who hears it
    assert str(hearing["URL"]).endswith(f"/cases/{cases['battle_lake'].case.number}")
    council = events[f"{cases['tracy'].case.number}-city.hold_hearing@dogcase"]
    assert council.decoded("DTSTART") == dt.date(2026, 6, 10)  # 7 calendar days after the request of June 3
    assert str(council["SUMMARY"]).startswith("Council: Hold the City Council hearing on the vicious dog")
    assert "Tracy City Code § 8.31" in str(council["DESCRIPTION"])


@time_machine.travel(at(7, 12), tick=False)
def test_the_feed_shows_only_the_cases_the_user_may_see(cases, make_staff_user):
    tracy_only = make_staff_user("council_clerk", "council-tracy", cities=("tracy-mn",))
    text = feed_get(Client(), issue_feed(tracy_only, at=at(7, 12))).content.decode()
    uids = [str(e["UID"]) for e in events_of(text)]
    assert uids == [f"{cases['tracy'].case.number}-city.hold_hearing@dogcase"]
    assert cases["battle_lake"].case.number not in text
    # a user who lost every role sees nothing, even with an address issued before
    no_role = make_staff_user("city_clerk", "clerk-no-role")
    token = issue_feed(no_role, at=at(7, 12))
    no_role.groups.clear()
    assert events_of(feed_get(Client(), token).content.decode()) == []


@time_machine.travel(at(7, 12), tick=False)
def test_a_corrected_hearing_date_is_the_same_event_moved(cases, make_staff_user, staff):
    s = cases["battle_lake"]
    scheduling = s.case.events.get(act="schedule_hearing")
    acts.correct_event_date(
        s.case,
        event=scheduling,
        name="hearing_scheduled",
        value=at(14, 10),
        reason="The hearing room was taken; moved a day earlier",
        actor=staff["clerk"],
        expected_version=s.case.version,
        at=at(7, 11),
    )
    user = make_staff_user("city_clerk", "clerk-resched")
    text = feed_get(Client(), issue_feed(user, at=at(7, 12))).content.decode()
    events = [e for e in events_of(text) if "hearing_scheduled" in str(e["UID"])]
    assert len(events) == 1
    assert events[0].decoded("DTSTART") == at(14, 10).astimezone(UTC)
    assert int(events[0]["SEQUENCE"]) == 1  # a calendar replaces the event it has


@time_machine.travel(at(7, 12), tick=False)
def test_the_feed_leaves_out_what_is_long_past(cases, make_staff_user):
    user = make_staff_user("city_clerk", "clerk-later")
    token = issue_feed(user, at=at(7, 12))
    with time_machine.travel(at(120, 12), tick=False):
        assert events_of(feed_get(Client(), token).content.decode()) == []


def test_an_invalid_or_revoked_token_is_404_and_only_the_hash_is_stored(make_staff_user):
    user = make_staff_user("city_clerk", "clerk-tokens")
    client = Client()
    assert feed_get(client, "not-a-token").status_code == 404
    token = issue_feed(user, at=at(0))
    assert feed_get(client, token).status_code == 200
    assert feed_get(client, token)["Content-Type"].startswith("text/calendar")
    stored = CalendarFeed.objects.get(user=user)
    assert stored.token_sha256 == token_hash(token) and token not in stored.token_sha256
    new = issue_feed(user, at=at(1))  # re-issued: the old address stops working
    assert feed_get(client, token).status_code == 404
    assert feed_get(client, new).status_code == 200
    assert revoke_feed(user)
    assert feed_get(client, new).status_code == 404
    user.is_active = False
    user.save()
    assert feed_get(client, issue_feed(user, at=at(2))).status_code == 404


def test_the_request_log_never_records_the_token(make_staff_user, caplog):
    user = make_staff_user("city_clerk", "clerk-log")
    token = issue_feed(user, at=at(0))
    with caplog.at_level("INFO", logger="dogcase.request"):
        feed_get(Client(), token)
    assert caplog.records and all(
        token not in r.getMessage() and token not in str(r.__dict__) for r in caplog.records
    )


def test_the_account_page_issues_shows_once_reissues_and_revokes(make_staff_user):
    user = make_staff_user("city_clerk", "clerk-account")
    client = Client()
    client.force_login(user)
    page = client.get("/accounts/")
    assert b"You have no calendar address." in page.content
    issued = client.post("/accounts/calendar/new")
    assert issued.status_code == 200
    url = issued.context["new_feed_url"]
    token = url.rsplit("/", 1)[1].removesuffix(".ics")
    assert Client().get(f"/calendar/{token}.ics").status_code == 200
    assert token not in client.get("/accounts/").content.decode()  # shown once only
    again = client.post("/accounts/calendar/new").context["new_feed_url"]
    assert again != url and Client().get(f"/calendar/{token}.ics").status_code == 404
    assert client.post("/accounts/calendar/revoke").status_code == 302
    assert not CalendarFeed.objects.filter(user=user).exists()
    assert client.get("/accounts/calendar/revoke").status_code == 405
    assert Client().post("/accounts/calendar/new").status_code == 302  # to the login page


# ------------------------------------------------------------------------------ the owner's hearing


def test_the_owners_hearing_notice_ics(story):  # noqa: F811
    s = scheduled_hearing(story)
    text = hearing_notice_ics(s.case, at=at(6, 12))
    cal = icalendar.Calendar.from_ical(text)
    assert str(cal["METHOD"]) == "PUBLISH"
    (event,) = cal.walk("VEVENT")
    assert event.decoded("DTSTART") == at(15, 14).astimezone(UTC)
    assert str(event["LOCATION"]) == "City Hall, 105 Main St; Council chambers"
    assert (
        str(event["SUMMARY"])
        == f"City of Battle Lake, Minnesota: hearing about your dog Rex (case {s.case.number})"
    )
    assert "§ 90.15 (I)" in str(event["DESCRIPTION"])
    assert "Ruth Aamodt" not in text and "URL" not in text  # for the owner: no staff names, no staff link


def test_no_hearing_no_ics(story):  # noqa: F811
    s = served_dangerous(story)
    assert hearing_notice_ics(s.case, at=at(2, 12)) == ""
    given = hearing_notice_ics(s.case, at=at(2, 12), scheduled=at(9, 13), place="City Hall")
    (event,) = events_of(given)
    assert event.decoded("DTSTART") == at(9, 13).astimezone(UTC)
