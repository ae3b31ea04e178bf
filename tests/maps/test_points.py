"""A point on the map: its validation, the audit event of setting or moving it, and the intake's point."""

from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from dogcase.cases import acts, geo
from dogcase.cases.models import Event, Incident, Premises
from tests.maps.records import BATTLE_LAKE_POINT, dog_at_home
from tests.staff.conftest import client_for

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("lat", "lon", "field", "words"),
    [
        ("", "-95.7", "latitude", "give the latitude"),
        ("north", "-95.7", "latitude", "not a number"),
        ("91", "-95.7", "latitude", "between −90 and 90"),
        ("46.28", "-181", "longitude", "between −180 and 180"),
        ("46.28", "95.71", "longitude", "a longitude in Minnesota is negative"),
        ("-95.71", "46.28", "latitude", "swapped"),
        ("40.7128", "-74.0060", "latitude", "outside Minnesota"),
    ],
)
def test_a_point_far_outside_minnesota_or_off_the_earth_is_refused_on_its_field(lat, lon, field, words):
    with pytest.raises(geo.PointError) as caught:
        geo.check_point(lat, lon)
    assert caught.value.field == field
    assert words in caught.value.rule


def test_a_point_is_kept_to_six_decimal_places():
    assert geo.check_point("46.28080049", "−95.7139") == (Decimal("46.280800"), Decimal("-95.713900"))


def test_setting_a_point_is_audited_with_who_and_how_and_a_move_keeps_the_old_point(staff):
    officer = staff["officer"]
    case = dog_at_home(officer)
    premises = case.dog.premises
    acts.set_location(premises, actor=officer, latitude="46.2801", longitude="-95.7102", source="geocoded")
    placed = Event.objects.filter(act__endswith="_location").latest("seq")
    assert placed.actor == officer and placed.data["source"] == "geocoded" and placed.data["old"] is None
    assert placed.data["new"] == ["46.280100", "-95.710200", "geocoded"]
    assert "geocoded from the address" in placed.summary

    with pytest.raises(acts.InvalidInput) as caught:  # a move needs a reason
        acts.set_location(
            premises, actor=staff["clerk"], latitude="46.2811", longitude="-95.7112", source="hand"
        )
    assert caught.value.field == "reason"
    acts.set_location(
        premises,
        actor=staff["clerk"],
        latitude="46.2811",
        longitude="-95.7112",
        source="hand",
        reason="The geocoder put it on the street",
    )
    moved = Event.objects.filter(act__endswith="_location").latest("seq")
    assert moved.actor == staff["clerk"] and moved.summary.startswith("Moved premises")
    assert moved.data["old"] == ["46.280100", "-95.710200", "geocoded"]
    assert moved.data["reason"] == "The geocoder put it on the street"
    premises.refresh_from_db()
    assert (premises.latitude, premises.located_by) == (Decimal("46.281100"), "hand")
    history = client_for(officer).get(reverse("staff:dog", args=[case.dog_id])).content.decode()
    assert "Premises placed on the map" in history and "The geocoder put it on the street" in history


def test_the_auditor_cannot_set_a_point(staff):
    case = dog_at_home(staff["officer"])
    with pytest.raises(PermissionDenied):
        acts.set_location(
            case.incident, actor=staff["auditor"], latitude="46.28", longitude="-95.71", source="hand"
        )
    assert Incident.objects.get(pk=case.incident_id).latitude is None


def test_the_place_form_says_a_far_point_is_outside_minnesota_and_saves_nothing(staff):
    officer_client = client_for(staff["officer"])
    case = dog_at_home(staff["officer"])
    url = reverse("staff:map_place", args=["premises", case.dog.premises_id])
    answer = officer_client.post(url, {"latitude": "46.28", "longitude": "95.71", "location_source": "hand"})
    assert answer.status_code == 400
    assert "outside Minnesota" in answer.content.decode() and "negative" in answer.content.decode()
    assert Premises.objects.get(pk=case.dog.premises_id).latitude is None
    saved = officer_client.post(url, {"latitude": BATTLE_LAKE_POINT[0], "longitude": BATTLE_LAKE_POINT[1]})
    assert saved.status_code == 302
    assert Premises.objects.get(pk=case.dog.premises_id).located_by == "hand"
    assert answer["X-Robots-Tag"] == "noindex, nofollow"


def test_the_auditor_is_refused_the_place_form(staff):
    auditor_client = client_for(staff["auditor"])
    case = dog_at_home(staff["officer"])
    url = reverse("staff:map_place", args=["incident", case.incident_id])
    assert auditor_client.post(url, {"latitude": "46.28", "longitude": "-95.71"}).status_code == 403
