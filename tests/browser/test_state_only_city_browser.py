"""A city and a county with no ordinance of their own, added with `dogcase city add --state-only`, in the browser:
the administrator fills in where its documents send people, the officer (a county's Sheriff's deputy) records a
bite, declares the dog dangerous
and serves the state's notice, the request is received, the hearing scheduled (the owner is sent its date,
time and place), held and decided, and the certificate issued once every condition is proven."""

import datetime as dt
import re

import pytest
from django.utils import timezone

from dogcase.cases.models import Case
from dogcase.documents.models import CityOffice, IssuedDocument
from dogcase.law.loader import PACKS_DIR, Library
from dogcase.law.sitepacks import add_state_only
from tests.browser.test_case_flow_browser import log_in, log_out, take_step_button
from tests.packs_library import use_library

pytestmark = pytest.mark.django_db(transaction=True)


def submit(page, number):
    page.locator("form.act-form button[type=submit]").click()
    page.wait_for_url(re.compile(rf".*/cases/{number}#timeline"))


# (kind, the name given to the command, its full name, its case prefix, who acts as its animal control
# authority): a city's animal control officer, a county's Sheriff's deputy (a police account)
PLACES = [
    ("city", "Example, MN", "City of Example, Minnesota", "EX", "animal_control_officer", "officer"),
    ("county", "Lake", "Lake County, Minnesota", "LC", "police_officer", "police"),
]


@pytest.mark.parametrize(
    ("kind", "given", "full", "prefix", "role", "acting"), PLACES, ids=["city", "county"]
)
def test_a_state_only_city_runs_a_dangerous_case_in_the_browser(
    live_server, page, make_staff_user, tmp_path, monkeypatch, kind, given, full, prefix, role, acting
):
    city = add_state_only(
        given,
        kind=kind,
        site=tmp_path / "site",
        observes={"indigenous_peoples_day": "yes", "day_after_thanksgiving": "yes"},
    )
    use_library(monkeypatch, Library(PACKS_DIR, tmp_path / "site"))
    CityOffice.objects.filter(jurisdiction=city.id).delete()  # a new city has supplied nothing yet
    for staff_role in ("administrator", role, "hearing_officer"):
        make_staff_user(staff_role, cities=[city.id])
    today = timezone.localdate()
    yesterday = today - dt.timedelta(days=1)

    # The administrator fills in the city's settings: the documents cannot be issued without them.
    log_in(page, live_server, "admin")
    page.get_by_role("link", name="City settings").click()
    page.wait_for_url(re.compile(r".*/city-settings/.*"))
    assert page.get_by_role("heading", level=1).inner_text() == f"City settings: {full}"
    assert "still missing" in page.locator("main").inner_text()
    page.locator("#animal_control_authority-address").fill("City Hall, 1 Main Street, Example, MN 56000")
    page.locator("#animal_control_authority-telephone").fill("218-555-0111")
    page.locator("#letterhead-address").fill("City Hall, 1 Main Street, Example, MN 56000")
    page.locator("#letterhead-telephone").fill("218-555-0100")
    page.get_by_role("button", name="Save").click()
    page.wait_for_url(re.compile(rf".*/city-settings/\?city={city.id}$"))
    assert "still missing" not in page.locator("main").inner_text()
    assert "218-555-0111" in page.locator("table").inner_text()  # the change, in the city's history
    log_out(page, "admin")

    # The officer (a county's deputy) records the bite and opens the case.
    log_in(page, live_server, acting)
    page.get_by_role("link", name="Record an incident").click()
    page.get_by_label("When it happened").fill(f"{yesterday.isoformat()}T16:45")
    page.get_by_label("Where (address or description)").fill("Riverside Park")
    page.get_by_label("Public property").check()
    page.locator("#narrative").fill(
        "The dog jumped the fence and bit a child on the arm; stitches were needed."
    )
    page.get_by_label("Bite", exact=True).check()
    page.get_by_label("Dog's name").fill("Tank")
    page.get_by_label("Breed").fill("Mastiff")
    page.get_by_label("Owner's full name").fill("Sam Owner")
    page.get_by_label("Owner's street address").fill("4 Birch Lane")
    page.get_by_label("Phone").first.fill("218-555-0144")
    page.get_by_role("button", name="Add a victim").click()
    page.get_by_label("Name (or the animal's kind and name)").fill("Kim Child")
    page.get_by_label("A person", exact=True).check()
    page.get_by_label("How badly hurt").select_option("substantial_bodily_harm")
    page.locator("#victim-0").get_by_label("None of these").check()
    page.locator("#q-provoked").get_by_label("No", exact=True).check()
    page.locator("#q-law_enforcement_dog").get_by_label("No", exact=True).check()
    panel = page.locator("#classification")
    panel.locator("[data-designation=dangerous][data-status=eligible]").wait_for()
    assert "347.50" in panel.inner_text()  # the state's definition: the city has none of its own
    page.get_by_role("button", name="Record the incident and open the case").click()
    page.wait_for_url(re.compile(rf".*/cases/{prefix}-\d{{4}}-\d{{4}}$"))
    number = page.url.rsplit("/", 1)[1]

    take_step_button(page, "Declare the dog potentially dangerous or dangerous")
    page.get_by_label("Dangerous dog", exact=True).check()
    page.locator("#in-basis").fill("Unprovoked bite causing substantial bodily harm (347.50, subd. 2)")
    page.locator("#in-declarant_telephone").fill("218-555-0111")
    submit(page, number)
    take_step_button(page, "Serve the notice of the dangerous dog declaration")
    page.locator("#in-served_on").fill(today.isoformat())
    page.locator("input[name=in-method][value=personal]").check()
    page.locator("#in-received_on").fill(today.isoformat())
    submit(page, number)
    assert "Minn. Stat. § 347.541" in page.locator("[data-deadline='owner.request_hearing']").inner_text()
    take_step_button(page, "Receive the owner's request for a hearing")
    page.locator("#in-received_on").fill(today.isoformat())
    submit(page, number)
    take_step_button(page, "Schedule the hearing and send the owner its date, time and place")
    page.locator("#in-hearing_at").fill(f"{today.isoformat()}T10:00")
    page.locator("#in-place").fill("City Hall, council room")
    page.locator("label.choice", has_text=re.compile(r"^\s*hearing\s*$", re.I)).locator("input").check()
    submit(page, number)
    timeline = page.locator("#timeline").inner_text()
    assert (
        "The animal control authority scheduled the hearing and sent the owner its date, time and place"
        in (timeline)
    )
    log_out(page, acting)

    # The impartial hearing officer holds the hearing and decides.
    log_in(page, live_server, "hearing")
    page.goto(f"{live_server.url}/cases/{number}")
    take_step_button(page, "Hold the hearing before an impartial hearing officer")
    page.locator("#in-held_on").fill(today.isoformat())
    submit(page, number)
    take_step_button(page, "Issue the hearing officer's written decision")
    page.locator("input[name=in-outcome][value=upheld]").check()
    page.locator("#in-reasons").fill("The bite was unprovoked and the child needed stitches.")
    submit(page, number)
    log_out(page, "hearing")

    # Every condition of registration proven, the officer (the deputy) issues the certificate.
    log_in(page, live_server, acting)
    page.goto(f"{live_server.url}/cases/{number}")
    take_step_button(page, "Issue the certificate of registration")
    boxes = page.locator("input[name=in-proofs]")
    assert boxes.count() >= 4  # enclosure, sign, bond or insurance, microchip (347.51 subd. 2)
    for i in range(boxes.count()):
        boxes.nth(i).check()
    submit(page, number)
    assert "The animal control authority issued the certificate of registration" in (
        page.locator("#timeline").inner_text()
    )

    case = Case.objects.get(number=number)
    assert list(case.events.filter(kind="step").values_list("act", flat=True)) == [
        "declare",
        "serve_notice",
        "receive_hearing_request",
        "schedule_hearing",
        "hold_hearing",
        "decide_appeal",
        "issue_certificate",
    ]
    issued = set(IssuedDocument.objects.filter(case=case).values_list("doc_type", flat=True))
    assert {
        "dangerous_declaration_notice",
        "hearing_date_letter",
        "hearing_officer_decision",
        "certificate_of_registration",
    } <= issued
