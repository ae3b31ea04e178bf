"""Taking records out (docs/data.md): the Export page, every list as CSV or XLSX with the filters on screen, and
a whole city as one archive for its administrator. Downloads are GET only; who may take what is
dogcase/exports/access.py, checked here on every request."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404, StreamingHttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from dogcase.cases.access import cities_of
from dogcase.cases.guards import staff_required
from dogcase.cases.models import Case, Obligation
from dogcase.cases.pages import city_names, now_and_today
from dogcase.exports import archive
from dogcase.exports.access import may_export, may_take_archive
from dogcase.exports.lists import (
    KINDS,
    OBLIGATION_STATUS_WORDS,
    designation_choices,
    headers,
    parse_filters,
    rows,
)
from dogcase.exports.writers import csv_lines, xlsx_file

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _require_export(user) -> None:
    if not may_export(user):
        raise PermissionDenied("Your role may not take lists out of dogcase.")


def _private(response, filename: str):
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "private, no-store"
    response["X-Content-Type-Options"] = "nosniff"
    return response


@staff_required
@require_GET
def export_page(request):
    user = request.user
    _require_export(user)
    cities = cities_of(user)
    context = {
        "kinds": [k for k in KINDS.values() if k.listed],
        "cities": city_names(cities),
        "case_statuses": Case.Status.choices,
        "obligation_statuses": list(OBLIGATION_STATUS_WORDS.items()),
        "designations": sorted(designation_choices(cities).items(), key=lambda kv: kv[1]),
        "whose": Obligation.Who.choices,
        "archive_cities": city_names(cities) if may_take_archive(user) else {},
    }
    return render(request, "staff/export.html", context)


@staff_required
@require_GET
def export_list(request, kind: str, fmt: str):
    user = request.user
    _require_export(user)
    chosen = KINDS.get(kind)
    if chosen is None or not chosen.listed or fmt not in ("csv", "xlsx"):
        raise Http404("No such export.")
    cities = cities_of(user)
    filters = parse_filters(chosen, request.GET, cities)
    _, today = now_and_today()
    filename = f"dogcase-{chosen.id}-{today.isoformat()}.{fmt}"
    lines = rows(chosen, cities, filters)
    if fmt == "csv":
        response = StreamingHttpResponse(
            csv_lines(headers(chosen), lines), content_type="text/csv; charset=utf-8"
        )
    else:
        response = FileResponse(xlsx_file(chosen.title, headers(chosen), lines), content_type=XLSX)
    return _private(response, filename)


@staff_required
@require_GET
def city_archive(request, jurisdiction: str):
    user = request.user
    try:
        archive.require_archive(user, jurisdiction)
    except LookupError:
        raise Http404("No such city among yours.") from None
    except archive.ArchiveRefused as exc:
        raise PermissionDenied(str(exc)) from None
    now, today = now_and_today()
    taken = archive.record_taking(jurisdiction, actor=user, at=now)
    response = FileResponse(archive.build(jurisdiction, taken), content_type="application/zip")
    return _private(response, f"dogcase-{jurisdiction}-archive-{today.isoformat()}.zip")
