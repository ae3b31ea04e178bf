"""Bringing a city's records in (dogcase/imports): the file sent, its columns matched to our fields, the check
with its progress and every row's problem, then the import. Each view checks the reader's city and role on the
server; a refused value is shown beside its field with what was typed kept."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from dogcase.cases import files as file_store
from dogcase.cases.access import cities_of, staff_roles
from dogcase.cases.acts import InvalidInput
from dogcase.cases.guards import staff_required
from dogcase.cases.pages import city_names, sentence
from dogcase.imports import fields, reading, service, tasks
from dogcase.imports.models import ImportRun, ImportSource, Kind

RUNNING = (ImportRun.Status.CHECKING, ImportRun.Status.IMPORTING)
PREVIEW_ROWS = 3
RECENT = 20

MODEL_WORDS = {
    "person": ("person", "people"),
    "dog": ("dog", "dogs"),
    "premises": ("home", "homes"),
    "incident": ("incident", "incidents"),
    "licence": ("licence", "licences"),
    "case": ("case", "cases"),
}


def may_import(user) -> bool:
    return bool(staff_roles(user) & service.IMPORT_ROLES)


def _importer(request) -> list[str]:
    if not may_import(request.user):
        raise PermissionDenied(
            "Bringing records in is for the city's clerk, administrator and animal control officer."
        )
    return sorted(cities_of(request.user))


def _run_of(request, pk: int) -> ImportRun:
    cities = _importer(request)
    run = ImportRun.objects.filter(pk=pk, jurisdiction__in=cities).first()
    if run is None:
        raise Http404("No such import in your cities.")
    return run


def _counts(bucket: dict[str, int]) -> list[str]:
    out = []
    for what, n in sorted(bucket.items()):
        one, many = MODEL_WORDS.get(what, (what, what))
        out.append(f"{n:,} {one if n == 1 else many}")
    return out


@staff_required
@require_http_methods(["GET", "POST"])
def import_list(request):
    cities = _importer(request)
    names = city_names(cities)
    values = {"city": cities[0] if len(cities) == 1 else "", "kind": "", "source": ""}
    errors: dict[str, str] = {}
    status = 200
    if request.method == "POST":
        values = {k: (request.POST.get(k) or "").strip() for k in values}
        if values["city"] not in cities:
            errors["city"] = "Choose one of your cities."
        else:
            try:
                run = service.receive(
                    request.FILES.get("file"),
                    city=values["city"],
                    kind=values["kind"],
                    source=values["source"],
                    actor=request.user,
                )
            except InvalidInput as exc:
                errors[exc.field] = sentence(exc.rule)
            except PermissionError as exc:
                raise PermissionDenied(str(exc)) from None
            else:
                return redirect("staff:import_columns", pk=run.pk)
        status = 400
    runs = [
        {"run": r, "city": names.get(r.jurisdiction, r.jurisdiction)}
        for r in ImportRun.objects.filter(jurisdiction__in=cities).order_by("-created_at")[:RECENT]
    ]
    sources = sorted(
        set(ImportSource.objects.filter(jurisdiction__in=cities).values_list("name", flat=True)) | {"ASM3"}
    )
    can_bring_cases = bool(staff_roles(request.user) & service.CASE_RECORDERS)
    context = {
        "cities": names,
        # open cases only for the clerk and the administrator (service.require_importer)
        "kinds": [(k, Kind(k).label) for k in service.KINDS if k != Kind.CASES or can_bring_cases],
        "can_bring_cases": can_bring_cases,
        "values": values,
        "errors": errors,
        "runs": runs,
        "sources": sources,
        "max_mb": reading.MAX_BYTES // (1024 * 1024),
    }
    return render(request, "staff/imports.html", context, status=status)


def _samples(run: ImportRun) -> dict[str, list[str]]:
    """Each column of the file with a value in its first rows -> those values (the columns page shows them)."""
    rows = _preview(run)
    out: dict[str, list[str]] = {}
    for i, column in enumerate(run.columns):
        values = [row[i] for row in rows if i < len(row) and row[i]]
        if values:
            out[column] = values
    return out


def _preview(run: ImportRun) -> list[list[str]]:
    out: list[list[str]] = []
    fmt = run.file_format
    kind = reading.FileKind(
        fmt.get("ext", ".csv"), fmt.get("encoding", "utf-8-sig"), fmt.get("delimiter", ",")
    )
    try:
        with file_store.open_blob(run.blob) as stream:
            for i, (_number, row) in enumerate(reading.rows(stream, kind)):
                if i == 0:
                    continue
                out.append(row + [""] * (len(run.columns) - len(row)))
                if len(out) >= PREVIEW_ROWS:
                    break
    except (reading.FileProblem, OSError):
        return []
    return out


@staff_required
@require_http_methods(["GET", "POST"])
def import_columns(request, pk: int):
    run = _run_of(request, pk)
    if run.status in RUNNING or run.status == ImportRun.Status.IMPORTED:
        return redirect("staff:import_run", pk=run.pk)
    suggested = fields.suggest(run.kind, run.columns, service.remembered(run) or run.mapping)
    chosen = {name: m.get("column") or f"value:{m['value']}" for name, m in suggested.items()}
    errors: dict[str, str] = {}
    status = 200
    if request.method == "POST":
        chosen = {f.name: (request.POST.get(f.name) or "").strip() for f in fields.fields_of(run.kind)}
        try:
            tasks.match_columns_and_check(run, chosen, actor=request.user)
        except InvalidInput as exc:
            errors[exc.field] = sentence(exc.rule)
            status = 400
        except PermissionError as exc:
            raise PermissionDenied(str(exc)) from None
        else:
            return redirect("staff:import_run", pk=run.pk)
    samples = _samples(run)
    rows = [
        {
            "field": f,
            "chosen": chosen.get(f.name, ""),
            "sample": samples.get(chosen.get(f.name, ""), []),
            "error": errors.get(f.name, ""),
            "values": [(f"value:{v}", words) for v, words in f.choices],
        }
        for f in fields.fields_of(run.kind)
    ]
    context = {
        "run": run,
        "city": city_names([run.jurisdiction])[run.jurisdiction],
        "rows": rows,
        "errors": errors,
        "samples": sorted(samples.items(), key=lambda kv: run.columns.index(kv[0])),
        "preview_rows": PREVIEW_ROWS,
        "remembered": bool(service.remembered(run)),
    }
    return render(request, "staff/import_columns.html", context, status=status)


def _run_context(run: ImportRun) -> dict:
    summary = run.summary or {}
    return {
        "run": run,
        "city": city_names([run.jurisdiction])[run.jurisdiction],
        "running": run.status in RUNNING,
        "percent": min(100, round(100 * run.rows_done / run.rows_total)) if run.rows_total else 0,
        "created": _counts(summary.get("created", {})),
        "linked": _counts(summary.get("linked", {})),
        "changed": _counts(summary.get("changed", {})),
        "skipped": sorted(summary.get("skipped", {}).items()),
        "more_problems": max(0, run.problem_count - len(run.problems)),
        "may_bring_in": run.status == ImportRun.Status.CHECKED and not run.problem_count,
        "progress_url": reverse("staff:import_progress", args=[run.pk]),
        "attestation": service.ATTESTATION if run.kind == Kind.CASES else "",
        "attested": summary.get("attested") or {},
    }


@staff_required
def import_run(request, pk: int):
    run = _run_of(request, pk)
    return render(request, "staff/import_run.html", _run_context(run))


@staff_required
def import_progress(request, pk: int):
    """The progress bar alone (fetched every second while the file is read); the whole page again when done."""
    run = _run_of(request, pk)
    response = render(request, "staff/_partials/import_progress.html", _run_context(run))
    if run.status not in RUNNING:
        response["HX-Refresh"] = "true"
    return response


@staff_required
@require_POST
def import_bring_in(request, pk: int):
    run = _run_of(request, pk)
    try:
        tasks.bring_in_checked(run, actor=request.user, attest=request.POST.get("attest") == "yes")
    except InvalidInput as exc:
        context = {
            **_run_context(run),
            "refusal": sentence(exc.rule),
            "errors": {exc.field: sentence(exc.rule)},
        }
        return render(request, "staff/import_run.html", context, status=400)
    except PermissionError as exc:
        raise PermissionDenied(str(exc)) from None
    return redirect("staff:import_run", pk=run.pk)
