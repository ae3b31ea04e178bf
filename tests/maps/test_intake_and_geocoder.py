"""Where the point comes from: the officer's phone or typed at intake, and the geocoder — used only when the site
sets one up, never over the network in tests (a stub on this machine answers as Nominatim would)."""

import json
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from urllib.parse import parse_qs, urlsplit

import pytest
from django.urls import reverse

from dogcase.cases import geocoder
from dogcase.cases.models import Event, Incident, Premises
from tests.maps.records import dog_at_home
from tests.staff.conftest import client_for
from tests.staff.test_intake import intake

pytestmark = pytest.mark.django_db


@pytest.fixture
def officer(make_staff_user):
    return make_staff_user("animal_control_officer")


def test_the_officers_phone_location_at_intake_is_kept_with_the_incident(officer):
    client = client_for(officer)
    answer = client.post(
        "/incidents/new", intake(latitude="46.279712", longitude="-95.711634", location_source="phone")
    )
    assert answer.status_code == 302
    incident = Incident.objects.get()
    assert (str(incident.latitude), str(incident.longitude), incident.located_by) == (
        "46.279712",
        "-95.711634",
        "phone",
    )
    event = Event.objects.get(act="set_incident_location")
    assert event.actor == officer and event.data["source"] == "phone" and event.data["detail"] == "at intake"
    page = client.get(reverse("staff:incident", args=[incident.number])).content.decode()
    assert "46.279712, -95.711634 (officer’s phone location)" in page


def test_a_point_typed_at_intake_outside_minnesota_is_refused_on_its_field_and_nothing_is_recorded(officer):
    client = client_for(officer)
    answer = client.post("/incidents/new", intake(latitude="46.2797", longitude="95.7116"))
    assert answer.status_code == 400
    html = answer.content.decode()
    assert 'id="longitude-error"' in html and "outside Minnesota" in html
    assert not Incident.objects.exists()
    assert "data-locate-button hidden>Use my location</button>" in html  # shown by locate.js where it works


def test_an_incident_recorded_without_a_point_has_none(officer):
    assert client_for(officer).post("/incidents/new", intake()).status_code == 302
    assert (
        Incident.objects.get().latitude is None
        and not Event.objects.filter(act__endswith="_location").exists()
    )


@pytest.fixture
def no_network(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the geocoder must not be called")

    monkeypatch.setattr("urllib.request.urlopen", refuse)


def test_without_a_geocoder_nothing_is_sent_and_the_form_offers_no_lookup(staff, settings, no_network):
    settings.DOGCASE_GEOCODER_URL = ""
    case = dog_at_home(staff["officer"])
    client = client_for(staff["officer"])
    url = reverse("staff:map_place", args=["premises", case.dog.premises_id])
    assert "Find from the address" not in client.get(url).content.decode()
    answer = client.post(url, {"geocode": "1"})
    assert answer.status_code == 400 and "No geocoder is set up" in answer.content.decode()
    assert Premises.objects.get(pk=case.dog.premises_id).latitude is None


class Stub(BaseHTTPRequestHandler):
    answer: bytes = b"[]"
    status = 200
    asked: list[dict] = []

    def do_GET(self):  # noqa: N802 - http.server's name
        Stub.asked.append(parse_qs(urlsplit(self.path).query))
        self.send_response(Stub.status)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(Stub.answer)

    def log_message(self, *args):
        pass


@pytest.fixture
def stub_geocoder(settings):
    server = HTTPServer(("127.0.0.1", 0), Stub)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    Stub.asked = []
    settings.DOGCASE_GEOCODER_URL = f"http://127.0.0.1:{server.server_port}/search"
    settings.DOGCASE_GEOCODER_TIMEOUT = 2
    yield Stub
    server.shutdown()
    server.server_close()


def test_find_from_the_address_stores_the_geocoders_point_with_its_source(staff, stub_geocoder):
    stub_geocoder.status = 200
    stub_geocoder.answer = json.dumps(
        [{"lat": "46.2799871", "lon": "-95.7141112", "display_name": "12 Elm St, Battle Lake, MN 56515"}]
    ).encode()
    case = dog_at_home(staff["officer"])
    premises = case.dog.premises
    client = client_for(staff["officer"])
    url = reverse("staff:map_place", args=["premises", premises.pk])
    assert "Find from the address" in client.get(url).content.decode()
    assert client.post(url, {"geocode": "1"}).status_code == 302
    premises.refresh_from_db()
    assert (str(premises.latitude), str(premises.longitude), premises.located_by) == (
        "46.279987",
        "-95.714111",
        "geocoded",
    )
    assert stub_geocoder.asked[0]["q"] == [f"{premises.street}, Battle Lake, MN"]
    assert stub_geocoder.asked[0]["format"] == ["jsonv2"]
    event = Event.objects.filter(act__endswith="_location").latest("seq")
    assert event.data["source"] == "geocoded" and event.data["detail"] == "12 Elm St, Battle Lake, MN 56515"


@pytest.mark.parametrize(
    ("status", "answer", "words"),
    [
        (200, b"[]", "found no place"),
        (500, b"oops", "did not answer"),
        (200, json.dumps([{"lat": "40.71", "lon": "-74.0"}]).encode(), "outside Minnesota"),
    ],
)
def test_a_geocoder_that_fails_leaves_the_record_as_it_was_and_says_so(
    staff, stub_geocoder, status, answer, words
):
    stub_geocoder.status, stub_geocoder.answer = status, answer
    case = dog_at_home(staff["officer"], point=("46.2808", "-95.7139"))
    client = client_for(staff["officer"])
    url = reverse("staff:map_place", args=["premises", case.dog.premises_id])
    response = client.post(url, {"geocode": "1", "reason": "check the address"})
    assert response.status_code == 400
    html = response.content.decode()
    assert words in html and "Nothing was changed." in html
    premises = Premises.objects.get(pk=case.dog.premises_id)
    assert (str(premises.latitude), premises.located_by) == ("46.280800", "hand")


def test_the_geocoder_is_asked_only_when_configured(settings, no_network):
    settings.DOGCASE_GEOCODER_URL = ""
    assert not geocoder.configured()
    with pytest.raises(geocoder.GeocoderError):
        geocoder.geocode("1 Main St, Battle Lake, MN")


def _new_address(client, premises, street: str):
    url = reverse("staff:premises_edit", args=[premises.pk])
    return client.post(
        url,
        {
            "seen-street": premises.street,
            "street": street,
            "seen-city_name": premises.city_name,
            "city_name": premises.city_name,
            "reason": "The owner moved down the road",
        },
        follow=True,
    )


def test_a_new_address_is_geocoded_on_save_when_a_geocoder_is_set_up(staff, stub_geocoder):
    stub_geocoder.status = 200
    stub_geocoder.answer = json.dumps(
        [{"lat": "46.2811", "lon": "-95.7155", "display_name": "40 Elm St"}]
    ).encode()
    case = dog_at_home(staff["officer"], point=("46.2808", "-95.7139"))
    answer = _new_address(client_for(staff["officer"]), case.dog.premises, "40 Elm St")
    assert answer.status_code == 200
    premises = Premises.objects.get(pk=case.dog.premises_id)
    assert premises.street == "40 Elm St"
    assert (str(premises.latitude), premises.located_by) == ("46.281100", "geocoded")
    assert stub_geocoder.asked[-1]["q"] == ["40 Elm St, Battle Lake, MN"]
    moved = Event.objects.filter(act="set_premises_location").latest("seq")
    assert (
        moved.data["old"] == ["46.280800", "-95.713900", "hand"]
        and moved.data["reason"] == "The address changed"
    )


def test_a_failed_lookup_on_save_keeps_the_new_address_and_says_so(staff, stub_geocoder):
    stub_geocoder.status, stub_geocoder.answer = 200, b"[]"
    case = dog_at_home(staff["officer"])
    answer = _new_address(client_for(staff["officer"]), case.dog.premises, "41 Elm St")
    html = answer.content.decode()
    assert "The new address is saved, but it was not placed on the map" in html and "found no place" in html
    premises = Premises.objects.get(pk=case.dog.premises_id)
    assert premises.street == "41 Elm St" and premises.latitude is None


def test_without_a_geocoder_a_new_address_is_saved_and_nothing_is_sent(staff, settings, no_network):
    settings.DOGCASE_GEOCODER_URL = ""
    case = dog_at_home(staff["officer"])
    assert _new_address(client_for(staff["officer"]), case.dog.premises, "42 Elm St").status_code == 200
    premises = Premises.objects.get(pk=case.dog.premises_id)
    assert premises.street == "42 Elm St" and premises.latitude is None
