"""The map in the browser, on a blank base (no tile server: nothing is loaded from outside this site): the
points and a cluster of the city's records, the legend, a point through to its record, and a phone's width."""

import re
from urllib.parse import urlsplit

import pytest

from tests.browser.axe import describe, violations
from tests.browser.test_case_flow_browser import log_in
from tests.maps.records import declared, dog_at_home

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_map_shows_clusters_points_and_legend_and_leads_to_the_record(
    live_server, page, make_staff_user, settings
):
    settings.DOGCASE_MAP_TILES = ""
    officer = make_staff_user("animal_control_officer")
    # five incidents at one corner (a cluster at the city's zoom), one far off; a dangerous dog at home
    for n in range(5):
        dog_at_home(officer, incident_point=(f"46.2800{n}", f"-95.7100{n}"))
    alone = dog_at_home(officer, incident_point=("46.2950", "-95.6900"))
    dog = declared(dog_at_home(officer, point=("46.2650", "-95.7350")), officer, "dangerous")

    hosts = set()
    page.on("request", lambda request: hosts.add(urlsplit(request.url).netloc))
    log_in(page, live_server, "officer")
    page.get_by_role("link", name="Map", exact=True).click()
    page.wait_for_url(re.compile(r".*/map/$"))
    page.wait_for_selector("#map[data-loaded='7']")
    assert page.locator("#map.map-blank").count() == 1  # the blank base
    assert page.locator(".map-cluster").count() >= 1
    assert page.locator(".map-cluster").first.inner_text() == "5"
    assert page.locator("a.map-point").count() == 2
    legend = page.locator(".map-legend").inner_text()
    assert "Incident" in legend and "Dangerous dog" in legend and "Potentially dangerous dog" in legend
    found = violations(page)
    assert not found, describe(found)
    # the list below the map: the same records, for a screen reader or a keyboard
    assert page.locator("#map-list ~ .table-scroll tbody tr").count() == 7

    # a cluster zooms in
    zoom = page.locator("#map").get_attribute("data-zoom")
    page.locator(".map-cluster").first.click()
    page.wait_for_selector(f"#map[data-zoom]:not([data-zoom='{zoom}'])")
    assert int(page.locator("#map").get_attribute("data-zoom")) > int(zoom)
    page.goto(f"{live_server.url}/map/")
    page.wait_for_selector("#map[data-loaded='7']")
    # the dog's point leads to the dog
    page.locator(f"a.map-point[href$='/dogs/{dog.dog_id}']").click()
    page.wait_for_url(re.compile(rf".*/dogs/{dog.dog_id}$"))
    page.go_back()
    page.wait_for_selector("#map[data-loaded='7']")
    # the far incident's point leads to its incident
    page.locator(f"a.map-point[href$='/map/incidents/{alone.incident_id}']").click()
    page.wait_for_url(re.compile(rf".*/incidents/{alone.incident.number}$"))
    assert live_server.url.removeprefix("http://") in hosts and hosts <= {urlsplit(live_server.url).netloc}

    # a phone's width: the map and its list fit, nothing wider than the screen
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/map/")
    page.wait_for_selector("#map[data-loaded='7']")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    found = violations(page)
    assert not found, describe(found)


def test_use_my_location_fills_the_point_from_the_phone_and_saves_it_as_such(
    live_server, browser, make_staff_user
):
    officer = make_staff_user("animal_control_officer")
    case = dog_at_home(officer)
    context = browser.new_context(
        geolocation={"latitude": 46.279712, "longitude": -95.711634, "accuracy": 8},
        permissions=["geolocation"],
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    log_in(page, live_server, "officer")
    page.goto(f"{live_server.url}/dogs/{case.dog_id}")
    page.get_by_role("link", name="Place on the map").click()
    page.get_by_role("button", name="Use my location").click()
    page.wait_for_selector("[data-locate-status]:has-text('Your location: 46.279712, -95.711634')")
    assert page.get_by_label("Latitude").input_value() == "46.279712"
    page.get_by_role("button", name="Save the point").click()
    page.wait_for_url(re.compile(rf".*/dogs/{case.dog_id}$"))
    assert "on the map at 46.279712, -95.711634 (officer’s phone location)" in page.inner_text("main")
    context.close()
