"""The map of a city (issue 23, part 4): the page, its compact points, and placing a record on it.

Staff only, the user's own cities only (an auditor reads it too): addresses are personal data. Every answer is
"no-store" (dogcase.ops.hardening) and asks not to be indexed.
"""

from __future__ import annotations

import datetime as dt
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from dogcase.cases import acts, geocoder, guards
from dogcase.cases.access import cities_of
from dogcase.cases.geo import PointSource
from dogcase.cases.models import Dog, Incident, Premises
from dogcase.cases.pages import city_names, now_and_today, sentence
from dogcase.staff import maps
from dogcase.staff.views.edits import require_record_writer

SHOW = ("incidents", "dogs")
TABLE_ROWS = 300  # the table below the map lists this many located records; every unlocated one is listed
NOINDEX = "noindex, nofollow"


def _private(response: HttpResponse) -> HttpResponse:
    response["X-Robots-Tag"] = NOINDEX
    return response


def _date(text: str) -> dt.date | None:
    try:
        return dt.date.fromisoformat((text or "").strip())
    except ValueError:
        return None


def _choices(request):
    """The city, period and layers asked for, with the words of any that could not be read."""
    cities = cities_of(request.user)
    if not cities:
        raise Http404("You work for no city yet.")
    city = request.GET.get("city") or cities[0]
    if city not in cities:
        raise Http404("No such city among yours.")
    _, today = now_and_today()
    problems = []
    start, end = _date(request.GET.get("from", "")), _date(request.GET.get("to", ""))
    if request.GET.get("from") and start is None:
        problems.append("The start of the period is not a date (YYYY-MM-DD); the last 12 months are shown.")
    if request.GET.get("to") and end is None:
        problems.append("The end of the period is not a date (YYYY-MM-DD); the period ends today.")
    end = end or today
    start = start or end - dt.timedelta(days=365)
    if start > end:
        problems.append("The period started after it ended; the two dates were swapped.")
        start, end = end, start
    # `show=incidents,dogs`, or one `show` per checkbox of the page's form
    asked = {s.strip() for s in ",".join(request.GET.getlist("show")).split(",")} & set(SHOW)
    show = asked or set(SHOW)
    return cities, city, maps.Period(start, end), show, problems


def _query(city: str, period: maps.Period, show: set[str]) -> str:
    return urlencode(
        {"city": city, "from": period.start, "to": period.end, "show": ",".join(s for s in SHOW if s in show)}
    )


@guards.staff_required
def map_points(request):
    """The compact JSON of the map (staff/maps.py); `zoom` clusters the points for that zoom."""
    _, city, period, show, _ = _choices(request)
    zoom_text = request.GET.get("zoom", "")
    zoom = int(zoom_text) if zoom_text.isdecimal() and int(zoom_text) <= 22 else None
    kinds = maps.kinds([city])
    pts, missing = maps.points(city, period, show=show, kinds_shown=kinds)
    data = maps.payload(pts, len(missing), kinds, zoom)
    return _private(JsonResponse(data, json_dumps_params={"separators": (",", ":")}))


@guards.staff_required
def map_page(request):
    cities, city, period, show, problems = _choices(request)
    kinds = maps.kinds([city])
    pts, missing = maps.points(city, period, show=show, kinds_shown=kinds)
    shown = pts[:TABLE_ROWS]
    incident_rows = Incident.objects.filter(pk__in=[p[3] for p in shown if p[2] == 0])
    incident_words = {
        pk: f"Incident {number} at {place}"
        for pk, number, place in incident_rows.values_list("pk", "number", "place")
    }
    dog_words = dict(Dog.objects.filter(pk__in=[p[3] for p in shown if p[2]]).values_list("pk", "name"))
    located = [
        {
            "kind": kinds[k],
            "url": reverse("staff:map_incident", args=[pk]) if k == 0 else reverse("staff:dog", args=[pk]),
            "words": incident_words.get(pk, "") if k == 0 else dog_words.get(pk, ""),
            "lat": f"{lat:.5f}",
            "lon": f"{lon:.5f}",
        }
        for lat, lon, k, pk in shown
    ]
    counts = {k.id: 0 for k in kinds}
    for p in pts:
        counts[kinds[p[2]].id] += 1
    for k, *_ in missing:
        counts[kinds[k].id] += 1
    names = city_names(cities)
    query = _query(city, period, show)
    context = {
        "cities": names,
        "city": city,
        "city_name": names[city],
        "period": period,
        "show": show,
        "problems": problems,
        "kinds": [{"kind": k, "count": counts[k.id]} for k in kinds],
        "points_url": f"{reverse('staff:map_points')}?{query}",
        "bounds": maps.bounds(pts),
        "tiles": settings.DOGCASE_MAP_TILES,
        "attribution": settings.DOGCASE_MAP_ATTRIBUTION,
        "located": located,
        "located_count": len(pts),
        "more_located": max(0, len(pts) - TABLE_ROWS),
        "missing": [
            {
                "kind": kinds[k],
                "words": words,
                "url": reverse("staff:map_incident", args=[pk])
                if k == 0
                else reverse("staff:dog", args=[pk]),
                "place_url": _place_url_of(k, pk, premises),
            }
            for k, pk, words, premises in missing
        ],
    }
    return _private(render(request, "staff/map.html", context))


def _place_url_of(kind_index: int, pk: int, premises: int | None) -> str:
    if kind_index == 0:
        return reverse("staff:map_place", args=["incident", pk])
    if premises is None:
        return reverse("staff:dog", args=[pk])  # no premises recorded: the dog's page says where to add them
    return reverse("staff:map_place", args=["premises", premises]) + f"?dog={pk}"


@guards.staff_required
def map_incident(request, pk: int):
    """A point of the map to its incident's page (the JSON carries ids, not the longer numbers)."""
    incident = guards.in_cities(Incident.objects.all(), request.user, pk=pk)
    return redirect("staff:incident", number=incident.number)


def _record(user, kind: str, pk: int) -> Incident | Premises:
    model = {"incident": Incident, "premises": Premises}.get(kind)
    if model is None:
        raise Http404("Only an incident or premises is placed on the map.")
    return guards.in_cities(model.objects.all(), user, pk=pk)


def _back(record: Incident | Premises, request) -> tuple[str, str]:
    if isinstance(record, Incident):
        return reverse("staff:incident", args=[record.number]), f"Incident {record.number}"
    dog = record.dogs.order_by("name", "id").first()
    wanted = request.GET.get("dog") or request.POST.get("dog") or ""
    if wanted.isdecimal():
        dog = record.dogs.filter(pk=int(wanted)).first() or dog
    if dog is None:
        return reverse("staff:dogs"), "Dogs"
    return reverse("staff:dog", args=[dog.pk]), dog.name


def _address(record: Incident | Premises) -> str:
    if isinstance(record, Incident):
        return f"{record.place}, {city_names([record.jurisdiction])[record.jurisdiction]}, Minnesota"
    return geocoder.premises_address(record)


@guards.staff_required
def place(request, kind: str, pk: int):
    """Set or move the point of an incident or premises: by hand, the officer's phone, or the address
    geocoded (only when a geocoder is set up). A geocoder that fails leaves the record as it was, and says so."""
    user = request.user
    record = _record(user, kind, pk)
    require_record_writer(user)
    back_url, back_words = _back(record, request)
    values = {
        "latitude": "" if record.latitude is None else str(record.latitude),
        "longitude": "" if record.longitude is None else str(record.longitude),
        "location_source": PointSource.HAND,
        "reason": "",
    }
    errors: dict[str, str] = {}
    status = 200
    if request.method == "POST":
        status = 400
        values = {k: (request.POST.get(k) or "").strip() for k in values}
        source = values["location_source"]
        source = source if source in (PointSource.HAND, PointSource.PHONE) else PointSource.HAND
        detail = ""
        latitude, longitude = values["latitude"], values["longitude"]
        if "geocode" in request.POST:
            source = PointSource.GEOCODED
            try:
                found = geocoder.geocode(_address(record))
            except geocoder.GeocoderError as exc:
                errors["geocode"] = str(exc) + " Nothing was changed."
            else:
                latitude, longitude, detail = found.latitude, found.longitude, found.name
        if not errors:
            try:
                acts.set_location(
                    record,
                    actor=user,
                    latitude=latitude,
                    longitude=longitude,
                    source=source,
                    reason=values["reason"],
                    detail=detail,
                )
            except acts.InvalidInput as exc:
                errors[exc.field if exc.field in ("latitude", "longitude", "reason") else "general"] = (
                    sentence(exc.rule)
                )
            else:
                how = PointSource(source).label.lower()
                messages.success(request, f"The point was saved ({how}). The change is kept in the history.")
                return redirect(back_url)
    context = {
        "record": record,
        "kind": kind,
        "title": ("Move the point of " if record.latitude is not None else "Place on the map: ")
        + (f"incident {record.number}" if kind == "incident" else f"the premises at {record}"),
        "back_url": back_url,
        "back_words": back_words,
        "city": city_names([record.jurisdiction])[record.jurisdiction],
        "address": _address(record),
        "values": values,
        "errors": errors,
        "geocoder": geocoder.configured(),
        "has_point": record.latitude is not None,
        "source_label": record.get_located_by_display() if record.located_by else "",
        "dog": request.GET.get("dog", ""),
    }
    return _private(render(request, "staff/map_place.html", context, status=status))
