"""Reports (issue 23, part 3): a city's figures over a period, each chart with its table and its CSV, and the
annual report as a PDF. Thin: the figures, charts, CSV and PDF are dogcase.reports'."""

from __future__ import annotations

import datetime as dt

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from dogcase.cases.access import cities_of, require_city
from dogcase.cases.guards import staff_required
from dogcase.cases.pages import city_names, now_and_today
from dogcase.reports import figures, tables


def _periods(today: dt.date) -> list[dict]:
    last_year = today.year - 1
    return [
        {
            "label": f"Last full year ({last_year})",
            "start": dt.date(last_year, 1, 1),
            "end": dt.date(last_year, 12, 31),
            "year": last_year,
        },
        {"label": f"This year to date ({today.year})", "start": dt.date(today.year, 1, 1), "end": today},
    ]


@staff_required
@require_GET
def report_home(request):
    """Choose a city and a period: the last full calendar year and the year to date, or any dates."""
    _now, today = now_and_today()
    cities = city_names(cities_of(request.user))
    context = {"cities": cities, "periods": _periods(today), "today": today}
    return render(request, "staff/reports.html", context)


@staff_required
@require_GET
def report_page(request, city: str):
    """The city's report over the chosen period; a date that cannot be read is said so, with the rule."""
    require_city(request.user, city)
    _now, today = now_and_today()
    values = {"from": request.GET.get("from", ""), "to": request.GET.get("to", "")}
    context = {
        "city": city,
        "city_name": city_names([city])[city],
        "values": values,
        "periods": _periods(today),
        "today": today,
    }
    try:
        start, end = figures.parse_period(values["from"], values["to"], today=today)
    except figures.PeriodError as exc:
        context["error"] = {"field": exc.field, "message": str(exc)}
        return render(request, "staff/reports_city.html", context, status=400)
    report = figures.report(city, start, end)
    context.update(
        report=report,
        figures=tables.charted(report),
        query=f"from={start:%Y-%m-%d}&to={end:%Y-%m-%d}",
        values={"from": start.isoformat(), "to": end.isoformat()},
        years=[y for y in (end.year - 1, end.year) if y <= today.year],
    )
    return render(request, "staff/reports_city.html", context)


@staff_required
@require_GET
def report_csv(request, city: str, table: str):
    """One table of the report as CSV, over the period of the page's `from` and `to`."""
    require_city(request.user, city)
    if table not in figures.TABLE_IDS:
        raise Http404("No such table.")
    _now, today = now_and_today()
    try:
        start, end = figures.parse_period(request.GET.get("from"), request.GET.get("to"), today=today)
    except figures.PeriodError as exc:
        return HttpResponse(str(exc), status=400, content_type="text/plain; charset=utf-8")
    report = figures.report(city, start, end)
    response = HttpResponse(
        tables.table_csv(report, report.table(table)), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{city}-{table}-{start:%Y%m%d}-{end:%Y%m%d}.csv"'
    return response


@staff_required
@require_GET
def annual_pdf(request, city: str, year: int):
    """The annual report for a calendar year (to today, for the year under way) as a printable PDF."""
    require_city(request.user, city)
    _now, today = now_and_today()
    if not 1900 <= year <= today.year:
        raise Http404("No report for that year.")
    end = min(dt.date(year, 12, 31), today)
    report = figures.report(city, dt.date(year, 1, 1), end)
    response = HttpResponse(tables.annual_pdf(report, made_on=today), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{city}-annual-report-{year}.pdf"'
    response["Cache-Control"] = "no-store"
    response["X-Content-Type-Options"] = "nosniff"
    return response
