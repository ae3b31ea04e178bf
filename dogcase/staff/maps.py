"""What the map of a city shows (issue 23, part 4): incidents of a period and the dogs whose designation is in
effect, as points, clustered on a grid by zoom, in a compact JSON (a city's 5,000 points stay under 200 KB).

A point in the JSON is `[dlat, dlon, kind, id]`: the offsets from the origin `o` in units of 0.00001° (about a
metre), the index of its kind in `k` (0 is an incident, then the designations) and the record's id; a cluster
is `[dlat, dlon, count]`.
"""

from __future__ import annotations

import datetime as dt
import math
from collections import defaultdict
from dataclasses import dataclass

from django.utils import timezone

from dogcase.cases.models import Case, Dog, Incident
from dogcase.law import library

UNIT = 100_000  # offsets in 0.00001°: 5 decimals, about 1.1 m of latitude
CELL_PIXELS = 56  # the clustering grid, in screen pixels at the zoom asked
MAX_ZOOM = 18  # from here on no point is clustered


@dataclass(frozen=True)
class Kind:
    id: str
    label: str
    letter: str
    colour: str
    shape: str  # square, triangle, diamond, circle: a kind is told by its shape and letter, not colour alone


INCIDENT = Kind("incident", "Incident", "I", "#1f5fa8", "square")
# the designations as the law packs name them; one the packs may add later gets a shape and letter of its own
_LOOKS = {
    "potentially_dangerous": ("P", "#9a5800", "triangle"),
    "dangerous": ("D", "#b00020", "diamond"),
    "vicious": ("V", "#5b2a86", "circle"),
}


def kinds(cities) -> list[Kind]:
    """The kinds the map of these cities shows: incidents, then each designation of their packs, in the
    order of the packs (least to most serious)."""
    out, seen = [INCIDENT], set()
    lib = library()
    for city in cities:
        if city not in lib.jurisdictions:
            continue
        for d in lib.get(city).designations.values():
            if d.id in seen:
                continue
            seen.add(d.id)
            letter, colour, shape = _LOOKS.get(d.id, (d.label[:1].upper(), "#333333", "circle"))
            out.append(Kind(d.id, d.label, letter, colour, shape))
    return out


@dataclass(frozen=True)
class Period:
    start: dt.date
    end: dt.date

    def bounds(self) -> tuple[dt.datetime, dt.datetime]:
        tz = timezone.get_current_timezone()
        first = dt.datetime.combine(self.start, dt.time.min, tzinfo=tz)
        after = dt.datetime.combine(self.end + dt.timedelta(days=1), dt.time.min, tzinfo=tz)
        return first, after


def incidents(city: str, period: Period):
    first, after = period.bounds()
    return Incident.objects.filter(jurisdiction=city, occurred_at__gte=first, occurred_at__lt=after)


def declared_cases(city: str, designations):
    """The open cases of dogs still kept in the city whose designation (of those asked) is in effect."""
    return Case.objects.filter(
        jurisdiction=city,
        status=Case.Status.OPEN,
        designation_in_effect=True,
        designation__in=list(designations),
        dog__status=Dog.Status.IN_CITY,
    )


def points(city: str, period: Period, *, show: set[str], kinds_shown: list[Kind]):
    """([(lat, lon, kind index, id)], records without a point: [(kind index, id, words, premises id)])."""
    out: list[tuple[float, float, int, int]] = []
    missing: list[tuple[int, int, str, int | None]] = []
    if "incidents" in show:
        rows = incidents(city, period).order_by("occurred_at", "id")
        for pk, lat, lon, number, place in rows.values_list("pk", "latitude", "longitude", "number", "place"):
            if lat is None:
                missing.append((0, pk, f"Incident {number} at {place}", None))
            else:
                out.append((float(lat), float(lon), 0, pk))
    if "dogs" in show:
        index = {k.id: n for n, k in enumerate(kinds_shown) if n}
        dogs: dict[int, tuple] = {}
        rows = declared_cases(city, index).values_list(
            "dog_id",
            "designation",
            "dog__name",
            "dog__premises_id",
            "dog__premises__latitude",
            "dog__premises__longitude",
        )
        for dog_id, designation, name, premises, lat, lon in rows:
            k = index[designation]
            if dog_id not in dogs or dogs[dog_id][0] < k:  # the most serious designation in effect
                dogs[dog_id] = (k, name, premises, lat, lon)
        for dog_id, (k, name, premises, lat, lon) in sorted(dogs.items()):
            if lat is None:
                missing.append((k, dog_id, f"{name} ({kinds_shown[k].label.lower()})", premises))
            else:
                out.append((float(lat), float(lon), k, dog_id))
    return out, missing


def _pixel(lat: float, lon: float, zoom: int) -> tuple[float, float]:
    """Web Mercator: the point's place in pixels on the world map at this zoom (256-pixel tiles)."""
    size = 256 * 2**zoom
    s = math.sin(math.radians(max(min(lat, 85.0511), -85.0511)))
    return (lon + 180) / 360 * size, (0.5 - math.log((1 + s) / (1 - s)) / (4 * math.pi)) * size


def cluster(pts, zoom: int | None):
    """(single points, clusters [(lat, lon, count)]): the points that fall in one cell of a grid of about
    CELL_PIXELS at this zoom are one cluster at their mean. No zoom, or MAX_ZOOM and closer: every point."""
    if zoom is None or zoom >= MAX_ZOOM:
        return list(pts), []
    cells: dict[tuple[int, int], list] = defaultdict(list)
    for p in pts:
        x, y = _pixel(p[0], p[1], zoom)
        cells[(int(x // CELL_PIXELS), int(y // CELL_PIXELS))].append(p)
    singles, clusters = [], []
    for members in cells.values():
        if len(members) == 1:
            singles.append(members[0])
        else:
            n = len(members)
            clusters.append((sum(m[0] for m in members) / n, sum(m[1] for m in members) / n, n))
    return singles, clusters


def bounds(pts) -> list[float] | None:
    """[south, west, north, east] of the points, or None."""
    if not pts:
        return None
    lats, lons = [p[0] for p in pts], [p[1] for p in pts]
    return [round(min(lats), 5), round(min(lons), 5), round(max(lats), 5), round(max(lons), 5)]


def payload(pts, missing: int, kinds_shown: list[Kind], zoom: int | None) -> dict:
    """The compact JSON of the map (see the module's docstring)."""
    singles, clusters = cluster(pts, zoom)
    box = bounds(pts)
    origin = [round((box[0] + box[2]) / 2, 3), round((box[1] + box[3]) / 2, 3)] if box else [46.0, -94.5]

    def offset(lat: float, lon: float) -> list[int]:
        return [round((lat - origin[0]) * UNIT), round((lon - origin[1]) * UNIT)]

    return {
        "o": origin,
        "b": box,
        "z": zoom,
        "k": [[k.id, k.label, k.letter, k.colour, k.shape] for k in kinds_shown],
        "p": [[*offset(p[0], p[1]), p[2], p[3]] for p in singles],
        "c": [[*offset(c[0], c[1]), c[2]] for c in clusters],
        "n": len(pts),
        "missing": missing,
    }
