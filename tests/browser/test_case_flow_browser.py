"""A case from intake to the hearing decision, through the browser, as the officer, clerk and hearing officer
see it; and the clerk's dashboard showing a hearing request overdue for scheduling."""

import datetime as dt
import re

import pytest
from django.utils import timezone

from dogcase.cases import acts
from dogcase.cases.models import Case
from tests.conftest import PASSWORD
from tests.staff.conftest import declare, record_bite, take

pytestmark = pytest.mark.django_db(transaction=True)


def log_in(page, live_server, username):
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(live_server.url + "/")


def log_out(page, username):
    page.get_by_role("button", name=f"Log out {username}").click()


def take_step_button(page, label):
    page.locator("#next").get_by_role("link", name=label).click()
    page.wait_for_selector("form.act-form")


def test_from_a_bite_at_intake_to_the_hearing_decision(live_server, page, make_staff_user):
    for role in ("animal_control_officer", "city_clerk", "hearing_officer"):
        make_staff_user(role, cities=["battle-lake-mn"])
    today = timezone.localdate()
    yesterday = today - dt.timedelta(days=1)

    # The officer records the bite.
    log_in(page, live_server, "officer")
    page.get_by_role("link", name="Record an incident").click()
    page.get_by_label("When it happened").fill(f"{yesterday.isoformat()}T16:45")
    page.get_by_label("Where (address or description)").fill("Lakeside Park, by the beach")
    page.get_by_label("Public property").check()
    page.locator("#narrative").fill("The dog ran off its leash and bit a jogger on the ankle.")
    page.get_by_label("Bite", exact=True).check()
    page.get_by_label("Dog's name").fill("Brutus")
    page.get_by_label("Breed").fill("Boxer")
    page.get_by_label("Owner's full name").fill("Pat Owner")
    page.get_by_label("Owner's street address").fill("12 Elm St")
    page.get_by_label("Phone").first.fill("218-555-0101")
    page.get_by_role("button", name="Add a victim").click()
    page.get_by_label("Name (or the animal's kind and name)").fill("Jo Jogger")
    page.get_by_label("A person", exact=True).check()
    page.get_by_label("How badly hurt").select_option("minor")
    page.locator("#victim-0").get_by_label("None of these").check()
    page.locator("#q-provoked").get_by_label("No", exact=True).check()
    page.locator("#q-law_enforcement_dog").get_by_label("No", exact=True).check()
    # The live classification says what the facts support, with the law.
    panel = page.locator("#classification")
    panel.locator("[data-designation=potentially_dangerous][data-status=eligible]").wait_for()
    assert "§ 90.15 (B)(1)(a)" in panel.inner_text()
    page.get_by_role("button", name="Record the incident and open the case").click()
    page.wait_for_url(re.compile(r".*/cases/BL-\d{4}-\d{4}$"))
    number = page.url.rsplit("/", 1)[1]
    assert page.get_by_role("heading", level=1).inner_text() == f"Case {number}: Brutus"

    # ... declares the dog potentially dangerous ...
    take_step_button(page, "Declare the dog potentially dangerous or dangerous")
    page.get_by_label("Potentially dangerous dog", exact=True).check()
    page.locator("#in-basis").fill("Unprovoked bite on a jogger in a public park")
    page.locator("#in-declarant_telephone").fill("218-555-0102")
    page.locator("form.act-form button[type=submit]").click()
    page.wait_for_url(re.compile(rf".*/cases/{number}#timeline"))
    assert "Potentially dangerous dog — in effect" in page.locator(".designation-now").inner_text()

    # ... and serves the notice.
    take_step_button(page, "Serve the notice of declaration on the owner")
    page.locator("#in-served_on").fill(today.isoformat())
    page.locator("input[name=in-method][value=personal]").check()
    page.locator("#in-served_owner").fill("Pat Owner, at the front door")
    page.locator("#in-received_on").fill(today.isoformat())
    # no tick boxes: the form shows the notice dogcase writes, filled from the case, and issues it
    assert page.locator("input[name=in-contents]").count() == 0
    assert "Brutus" in page.locator(".draft").first.inner_text()
    page.locator("form.act-form button[type=submit]").click()
    page.wait_for_url(re.compile(rf".*/cases/{number}#timeline"))
    hearing_request = page.locator("[data-deadline='owner.request_hearing']")
    assert "request a hearing" in hearing_request.inner_text()
    assert re.search(r"due in \d+ days", hearing_request.inner_text())
    assert "§ 90.15 (H)" in hearing_request.inner_text()
    log_out(page, "officer")

    # The clerk records the owner's hearing request.
    log_in(page, live_server, "clerk")
    page.goto(f"{live_server.url}/cases/{number}")
    take_step_button(page, "Receive the owner's written request for a hearing")
    page.locator("#in-received_on").fill(today.isoformat())
    page.locator("form.act-form button[type=submit]").click()
    page.wait_for_url(re.compile(rf".*/cases/{number}#timeline"))
    schedule = page.locator("[data-deadline='city.schedule_hearing']")
    assert "schedule the appeal hearing" in schedule.inner_text()
    assert re.search(r"due in \d+ days", schedule.inner_text())
    assert "§ 90.15 (I)(1)" in schedule.inner_text()
    assert "Met" not in schedule.inner_text()
    # ... and schedules the hearing, mailing the notice of hearing ((I)(1)-(2)).
    take_step_button(page, "Schedule the hearing and mail the notice of hearing")
    page.locator("#in-hearing_at").fill(f"{today.isoformat()}T08:00")
    page.locator("#in-place").fill("City Hall, council chambers")
    # the hearing officer is a user of the city, chosen by name
    page.locator("label.choice", has_text=re.compile(r"^\s*hearing\s*$", re.I)).locator("input").check()
    page.locator("form.act-form button[type=submit]").click()
    page.wait_for_url(re.compile(rf".*/cases/{number}#timeline"))
    assert (
        "The city scheduled the appeal hearing and mailed the notice of hearing"
        in page.locator("#timeline").inner_text()
    )
    log_out(page, "clerk")

    # The hearing officer holds the hearing and decides.
    log_in(page, live_server, "hearing")
    page.goto(f"{live_server.url}/cases/{number}")
    take_step_button(page, "Hold the appeal hearing (impartial hearing officer)")
    page.locator("#in-held_on").fill(today.isoformat())
    page.locator("form.act-form button[type=submit]").click()
    page.wait_for_url(re.compile(rf".*/cases/{number}#timeline"))
    take_step_button(page, "Issue the hearing officer's decision")
    page.locator("input[name=in-outcome][value=upheld]").check()
    page.locator("#in-reasons").fill("The bite was unprovoked, in a public park.")
    page.locator("form.act-form button[type=submit]").click()
    page.wait_for_url(re.compile(rf".*/cases/{number}#timeline"))

    timeline = page.locator("#timeline").inner_text()
    # each act reads as what happened (issue 20, item 2)
    for outcome in (
        "The city declared the dog potentially dangerous",
        "The city served the notice of the declaration on the owner",
        "The owner asked in writing for a hearing on the designation",
        "The appeal hearing was held",
        "The hearing officer upheld the declaration in a written decision",
    ):
        assert outcome in timeline
    assert "§ 90.15 (I)(3)" in timeline
    assert (
        page.locator(".stage").inner_text()
        == "The hearing officer upheld the declaration in a written decision"
    )
    case = Case.objects.get(number=number)
    assert list(case.events.filter(kind="step").values_list("act", flat=True)) == [
        "declare",
        "serve_notice",
        "receive_hearing_request",
        "schedule_hearing",
        "hold_hearing",
        "decide_appeal",
    ]


def test_the_dashboard_shows_an_overdue_obligation(live_server, page, make_staff_user):
    officer = make_staff_user("animal_control_officer", cities=["battle-lake-mn"])
    clerk = make_staff_user("city_clerk", cities=["battle-lake-mn"])
    then = acts.now() - dt.timedelta(days=40)
    case = record_bite(officer, dog_name="Rover")
    declare(case, officer, at=then - dt.timedelta(days=2))
    take(
        case,
        "serve_notice",
        officer,
        at=then - dt.timedelta(days=1),
        served_on=timezone.localdate(then - dt.timedelta(days=1)).isoformat(),
        method="personal",
        served_owner="The owner",
    )
    take(case, "receive_hearing_request", clerk, at=then, received_on=timezone.localdate(then).isoformat())
    acts.sweep()

    log_in(page, live_server, "clerk")
    overdue = page.locator("#schedule")
    row = overdue.locator("[data-deadline='city.schedule_hearing']")
    assert case.number in row.inner_text()
    assert "Rover" in row.inner_text()
    assert re.search(r"\d+ days overdue", row.inner_text())
    assert "§ 90.15 (I)(1)" in row.inner_text()
    assert int(page.locator("[data-count=schedule]").inner_text()) >= 1
    tasks = page.locator("#tasks")
    # the tasks repeat the deadlines listed above: folded while the clerk's own lists hold something
    tasks.locator("details").first.evaluate("d => d.open = true")
    assert "schedule the appeal hearing" in tasks.inner_text()
    # Marking the task done takes it off the list.
    before = int(page.locator("[data-count=tasks]").inner_text())
    tasks.get_by_role("button", name="Mark done").first.click()
    page.wait_for_url(live_server.url + "/#tasks")
    assert int(page.locator("[data-count=tasks]").inner_text()) == before - 1
