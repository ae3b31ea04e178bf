"""The map's data (/map/points.json): the user's own cities, the period, the designations, the clusters, and a
city's 5,000 points within 200 KB."""

import datetime as dt
import json
import random
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from dogcase.cases import acts
from dogcase.cases.models import Case, Dog, Incident, Premises
from dogcase.staff import maps
from tests.maps.records import BATTLE_LAKE, BATTLE_LAKE_POINT, TRACY, TRACY_POINT, declared, dog_at_home
from tests.staff.conftest import client_for

pytestmark = pytest.mark.django_db

POINTS = reverse("staff:map_points")


def points_of(client, **query) -> dict:
    answer = client.get(POINTS, query)
    assert answer.status_code == 200, answer.content[:300]
    assert answer["Cache-Control"].startswith("no-store") and answer["X-Robots-Tag"] == "noindex, nofollow"
    return json.loads(answer.content)


def located(data) -> set[tuple[str, int]]:
    """{(kind id, record id)} of the single points."""
    return {(data["k"][p[2]][0], p[3]) for p in data["p"]}


def test_the_map_shows_only_the_users_own_cities(staff, make_staff_user):
    officer = staff["officer"]
    here = dog_at_home(officer, city=BATTLE_LAKE, incident_point=BATTLE_LAKE_POINT)
    there = dog_at_home(officer, city=TRACY, incident_point=TRACY_POINT)
    battle_lake_only = client_for(
        make_staff_user("animal_control_officer", username="bl", cities=(BATTLE_LAKE,))
    )
    data = points_of(battle_lake_only)
    assert located(data) == {("incident", here.incident_id)}
    assert battle_lake_only.get(POINTS, {"city": TRACY}).status_code == 404
    assert battle_lake_only.get(reverse("staff:map"), {"city": TRACY}).status_code == 404
    assert battle_lake_only.get(reverse("staff:map_incident", args=[there.incident_id])).status_code == 404
    # an auditor of both cities reads the map (read only)
    auditor = client_for(staff["auditor"])
    assert located(points_of(auditor, city=TRACY)) == {("incident", there.incident_id)}
    page = auditor.get(reverse("staff:map"), {"city": TRACY})
    assert page.status_code == 200 and page["Cache-Control"].startswith("no-store")


def test_the_map_is_for_staff_only(client):
    assert client.get(POINTS).status_code == 302  # to the login page
    assert client.get(reverse("staff:map")).status_code == 302


def test_incidents_are_shown_for_the_period_asked(staff):
    officer = staff["officer"]
    recent = dog_at_home(officer, incident_point=BATTLE_LAKE_POINT)
    old = dog_at_home(
        officer, occurred_at=acts.now() - dt.timedelta(days=500), incident_point=("46.2901", "-95.7201")
    )
    client = client_for(officer)
    assert located(points_of(client, show="incidents")) == {("incident", recent.incident_id)}
    first = timezone.localdate() - dt.timedelta(days=600)
    both = located(points_of(client, show="incidents", **{"from": first.isoformat()}))
    assert both == {("incident", recent.incident_id), ("incident", old.incident_id)}
    last = timezone.localdate() - dt.timedelta(days=100)
    only_old = points_of(client, show="incidents", **{"from": first.isoformat(), "to": last.isoformat()})
    assert located(only_old) == {("incident", old.incident_id)}


def test_declared_dogs_are_shown_by_designation_at_home_and_those_without_a_point_are_counted(staff):
    officer = staff["officer"]
    dangerous = declared(dog_at_home(officer, point=BATTLE_LAKE_POINT), officer, "dangerous")
    potentially = declared(
        dog_at_home(officer, point=("46.2850", "-95.7000")), officer, "potentially_dangerous"
    )
    declared(dog_at_home(officer), officer, "dangerous")  # no point at home yet
    dog_at_home(officer, point=("46.2700", "-95.7200"))  # not declared: not on the map
    client = client_for(officer)
    data = points_of(client, show="dogs")
    assert located(data) == {("dangerous", dangerous.dog_id), ("potentially_dangerous", potentially.dog_id)}
    assert data["missing"] == 1
    labels = {k[0]: (k[1], k[2], k[4]) for k in data["k"]}
    assert labels["dangerous"] == ("Dangerous dog", "D", "diamond")
    assert labels["potentially_dangerous"][1:] == ("P", "triangle")
    # Tracy's pack also has the vicious dog: a shape and letter of its own
    assert {k[0]: k[2] for k in points_of(client, city=TRACY)["k"]}["vicious"] == "V"
    page = client.get(reverse("staff:map"), {"show": "dogs"}).content.decode()
    assert "1 record has no location yet" in page
    assert "Dangerous dog" in page and "Potentially dangerous dog" in page  # the legend and the list


def test_clustering_joins_nearby_points_at_a_low_zoom_and_keeps_every_point(staff):
    rng = random.Random(4)  # noqa: S311 - made-up points, the same on every run
    pts = [(46.28 + rng.uniform(-0.02, 0.02), -95.71 + rng.uniform(-0.03, 0.03), 0, n) for n in range(400)]
    singles, clusters = maps.cluster(pts, 10)
    assert len(singles) + len(clusters) < 40
    assert len(singles) + sum(c[2] for c in clusters) == 400
    close_singles, close_clusters = maps.cluster(pts, 17)
    assert len(close_singles) + len(close_clusters) > len(singles) + len(clusters)
    assert maps.cluster(pts, 18) == (pts, []) and maps.cluster(pts, None) == (pts, [])


def _bulk_city(officer, incidents: int, dogs: int) -> None:
    """A city's points made in bulk (no act: speed), with ids as large as a statewide database's."""
    rng = random.Random(23)  # noqa: S311 - made-up points, the same on every run
    now = acts.now()

    def point():  # a city of about 20 by 25 km
        return (
            Decimal(f"{46.2 + rng.uniform(0, 0.18):.6f}"),
            Decimal(f"{-95.85 + rng.uniform(0, 0.3):.6f}"),
        )

    rows = []
    for n in range(incidents):
        lat, lon = point()
        rows.append(
            Incident(
                pk=1_000_000 + n,
                jurisdiction=BATTLE_LAKE,
                number=f"BL-I2026-{n:05d}",
                occurred_at=now - dt.timedelta(hours=n + 1),
                place=f"{n} Lake Ave",
                place_type="public",
                kind="bite",
                reported_by=officer,
                created_at=now,
                latitude=lat,
                longitude=lon,
                located_by="phone",
            )
        )
    Incident.objects.bulk_create(rows)
    homes, dog_rows, cases = [], [], []
    for n in range(dogs):
        lat, lon = point()
        homes.append(
            Premises(
                pk=2_000_000 + n,
                jurisdiction=BATTLE_LAKE,
                street=f"{n} Elm St",
                city_name="Battle Lake",
                created_at=now,
                latitude=lat,
                longitude=lon,
                located_by="geocoded",
            )
        )
        dog_rows.append(
            Dog(
                pk=3_000_000 + n,
                jurisdiction=BATTLE_LAKE,
                name=f"Dog {n}",
                premises_id=2_000_000 + n,
                created_at=now,
            )
        )
        cases.append(
            Case(
                pk=4_000_000 + n,
                jurisdiction=BATTLE_LAKE,
                number=f"BL-2026-{n:05d}",
                dog_id=3_000_000 + n,
                incident_id=1_000_000 + n,
                designation=rng.choice(["potentially_dangerous", "dangerous"]),
                designation_in_effect=True,
                opened_at=now,
                updated_at=now,
            )
        )
    Premises.objects.bulk_create(homes)
    Dog.objects.bulk_create(dog_rows)
    Case.objects.bulk_create(cases)


def test_a_citys_5000_points_load_in_at_most_200_kb(staff):
    officer = staff["officer"]
    _bulk_city(officer, incidents=4000, dogs=1000)
    client = client_for(officer)
    answer = client.get(POINTS, {"city": BATTLE_LAKE})  # every point, not clustered: the most the page loads
    data = json.loads(answer.content)
    assert data["n"] == 5000 and len(data["p"]) == 5000 and data["missing"] == 0
    assert len(answer.content) <= 200_000, len(answer.content)
    # the points come back where they were, to 5 decimals
    first = Incident.objects.get(pk=1_000_000)
    p = next(p for p in data["p"] if p[2] == 0 and p[3] == first.pk)
    assert abs(data["o"][0] + p[0] / 1e5 - float(first.latitude)) < 1e-5
    assert abs(data["o"][1] + p[1] / 1e5 - float(first.longitude)) < 1e-5
    # clustered for a whole-city view, far less
    zoomed_out = client.get(POINTS, {"city": BATTLE_LAKE, "zoom": "11"})
    assert len(zoomed_out.content) < 20_000
    assert (
        sum(c[2] for c in json.loads(zoomed_out.content)["c"]) + len(json.loads(zoomed_out.content)["p"])
        == 5000
    )
    # the page itself lists a bounded number of rows
    page = client.get(reverse("staff:map"), {"city": BATTLE_LAKE})
    assert page.status_code == 200 and len(page.content) < 200_000
