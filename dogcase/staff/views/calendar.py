"""The hearing calendar (issue 20, item 8): a month or a week of the hearings scheduled on the cases of the
user's cities — each with its case, place and hearing officer — and the Council items due, beside the private
.ics feed (dogcase.documents.calendar reads both). Only the user's cities, only the days shown."""

from __future__ import annotations

import calendar as month_math
import datetime as dt

from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone

from dogcase.cases.access import cities_of
from dogcase.cases.guards import staff_required
from dogcase.cases.pages import city_names, installed, now_and_today
from dogcase.documents.calendar import council_due, scheduled_dates

VIEWS = ("month", "week")
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def _anchor(value: str, today: dt.date) -> dt.date:
    try:
        day = dt.date.fromisoformat((value or "").strip())
    except ValueError:
        return today
    return day if 1900 < day.year < 3000 else today


def _span(view: str, day: dt.date) -> tuple[dt.date, dt.date, dt.date, dt.date]:
    """(first, last) day shown and the anchors of the previous and next month or week."""
    if view == "week":
        first = day - dt.timedelta(days=day.weekday())
        return first, first + dt.timedelta(days=6), first - dt.timedelta(days=7), first + dt.timedelta(days=7)
    start = day.replace(day=1)
    last = start.replace(day=month_math.monthrange(start.year, start.month)[1])
    previous = (start - dt.timedelta(days=1)).replace(day=1)
    return start, last, previous, last + dt.timedelta(days=1)


def _midnight(day: dt.date) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, dt.time()))


def calendar_items(cities, first: dt.date, last: dt.date, *, now: dt.datetime) -> dict[dt.date, list[dict]]:
    """{day: its items, hearings by time then the Council's}: the hearings scheduled from `first` to `last` and
    the Council items due then, in the given cities."""
    names = city_names(cities)
    by_day: dict[dt.date, list[dict]] = {}
    for x in scheduled_dates(
        cities, now=now, window=(_midnight(first), _midnight(last + dt.timedelta(days=1)))
    ):
        e = x.event
        j = installed(e.jurisdiction)
        what = j.event_label(x.scheduled.event) if j is not None else x.scheduled.label
        local = timezone.localtime(x.start)
        by_day.setdefault(local.date(), []).append(
            {
                "kind": "hearing",
                "time": local.strftime("%H:%M"),
                "what": what[:1].upper() + what[1:],
                "case": e.case.number,
                "dog": e.case.dog.name,
                "place": str(x.inputs.get("place") or ""),
                "officer": x.officer,
                "city": names.get(e.jurisdiction, e.jurisdiction),
            }
        )
    for ob in council_due(cities, first=first, last=last):
        by_day.setdefault(ob.due_date, []).append(
            {
                "kind": "council",
                "time": "",
                "what": "Council: " + ob.what[:1].upper() + ob.what[1:],
                "case": ob.case.number,
                "dog": ob.case.dog.name,
                "place": "",
                "officer": "",
                "city": names.get(ob.jurisdiction, ob.jurisdiction),
                "due": {"not_before": "not before", "window": "open until"}.get(ob.kind, "due by"),
            }
        )
    for items in by_day.values():
        items.sort(key=lambda i: (i["kind"] != "hearing", i["time"]))
    return by_day


@staff_required
def hearing_calendar(request):
    """GET /calendar/?view=month|week&day=YYYY-MM-DD: the month (a table, a week a row) or the week (a list)."""
    now, today = now_and_today()
    view = request.GET.get("view") if request.GET.get("view") in VIEWS else "month"
    day = _anchor(request.GET.get("day", ""), today)
    first, last, previous, following = _span(view, day)
    cities = cities_of(request.user)
    items = calendar_items(cities, first, last, now=now)
    days = [first + dt.timedelta(days=n) for n in range((last - first).days + 1)]
    listed = [{"day": d, "items": items.get(d, []), "today": d == today} for d in days]
    weeks = []
    if view == "month":
        grid_first = first - dt.timedelta(days=first.weekday())
        grid_last = last + dt.timedelta(days=6 - last.weekday())
        cells = [grid_first + dt.timedelta(days=n) for n in range((grid_last - grid_first).days + 1)]
        rows = [
            {"day": d, "items": items.get(d, []), "today": d == today, "outside": d.month != first.month}
            for d in cells
        ]
        weeks = [rows[n : n + 7] for n in range(0, len(rows), 7)]
    base = reverse("staff:calendar")
    context = {
        "view": view,
        "first": first,
        "last": last,
        "weeks": weeks,
        "weekdays": WEEKDAYS,
        "days": listed,
        "busy_days": [d for d in listed if d["items"]],
        "count": sum(len(v) for v in items.values()),
        "several_cities": len(cities) > 1,
        "previous_url": f"{base}?view={view}&day={previous.isoformat()}",
        "next_url": f"{base}?view={view}&day={following.isoformat()}",
        "today_url": f"{base}?view={view}&day={today.isoformat()}",
        "month_url": f"{base}?view=month&day={first.isoformat()}",
        "week_url": f"{base}?view=week&day={(today if first <= today <= last else first).isoformat()}",
        "today": today,
        "feed_url": reverse("account"),
    }
    return render(request, "staff/calendar.html", context)
