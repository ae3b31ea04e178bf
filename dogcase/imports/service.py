"""Bringing a file in, step by step: the file received (read by its content, stored under its hash, its
columns read), its columns matched to our fields (the match remembered for its source), the check (a dry run in
the background, every row's problems by row and column), then, when the check found none, the import (in the
background too: all of the file or nothing). Who may: the city's clerk, its administrator and its animal
control officer (the people who keep its records), in their own city only."""

from __future__ import annotations

import datetime as dt
import logging

from django.db import transaction
from django.utils import timezone

from dogcase.cases import files as file_store
from dogcase.cases.access import CASE_RECORDERS, require_city, staff_roles
from dogcase.cases.acts import InvalidInput, sweep
from dogcase.imports import fields as F
from dogcase.imports import reading
from dogcase.imports.models import ImportRun, ImportSource, Kind
from dogcase.imports.walk import NotImported, bring_in, check

log = logging.getLogger(__name__)
UNEXPECTED = (
    "The file could not be read to the end because of an error in dogcase (it is logged); nothing was brought "
    "in. Send the file again; if it happens again, tell your administrator"
)
IMPORT_ROLES = frozenset({"city_clerk", "administrator", "animal_control_officer"})
KINDS = (Kind.PEOPLE, Kind.DOGS, Kind.INCIDENTS, Kind.CASES)  # what a file may hold (docs/data.md)
# What the person who brings open cases in says of the notices they rest on, issued before dogcase: kept with
# the import's event and with every step recorded from the file (dogcase/imports/cases.py).
ATTESTATION = (
    "The steps these rows record were taken on the dates they give, and each notice they say was served was "
    "served as they say and contained everything the city's law requires of it. The notices themselves are "
    "kept in the city's files, outside dogcase."
)


def require_importer(actor, city: str, kind: str | None = None) -> None:
    require_city(actor, city)
    if not staff_roles(actor) & IMPORT_ROLES:
        raise PermissionError("Your role may not bring records in.")
    if kind == Kind.CASES and not staff_roles(actor) & CASE_RECORDERS:
        raise PermissionError("Only the city clerk or the administrator may bring in open cases.")


def _text(value: str, field: str, most: int) -> str:
    text = " ".join(str(value or "").split())
    if not text:
        raise InvalidInput(field, "This is required.")
    if len(text) > most:
        raise InvalidInput(field, f"At most {most} characters.")
    return text


def receive(upload, *, city: str, kind: str, source: str, actor, at: dt.datetime | None = None) -> ImportRun:
    """The uploaded file stored and its columns read; refused (naming the field) when it is not a table."""
    require_importer(actor, city, kind)
    if kind not in KINDS:
        raise InvalidInput("kind", "Choose what the file holds.")
    source = _text(source, "source", 100)
    if upload is None:
        raise InvalidInput("file", "Choose the file to bring in.")
    if upload.size is not None and upload.size > reading.MAX_BYTES:
        raise InvalidInput(
            "file", f"The file is larger than {reading.MAX_BYTES // (1024 * 1024)} MB: split it."
        )
    data = b"".join(upload.chunks())
    try:
        what = reading.identify(data, upload.name or "")
        digest, blob = file_store.write_blob(data, what.ext)
        with file_store.open_blob(blob) as stream:
            columns = reading.heading(stream, what)
        total = _count_rows(data, what)
    except reading.FileProblem as exc:
        raise InvalidInput("file", str(exc)) from None
    return ImportRun.objects.create(
        jurisdiction=city,
        kind=kind,
        source=source,
        file_name=(upload.name or f"upload{what.ext}")[:255],
        sha256=digest,
        blob=blob,
        file_format={"ext": what.ext, "encoding": what.encoding, "delimiter": what.delimiter},
        columns=columns,
        rows_total=total,
        created_by=actor,
        created_at=at or timezone.now(),
    )


def _count_rows(data: bytes, what: reading.FileKind) -> int:
    """About how many rows of records (for the progress bar): the lines after the heading, or the sheet's."""
    if what.ext == ".csv":
        return max(0, data.count(b"\n") - 1 + (0 if data.endswith(b"\n") else 1))
    import io

    from openpyxl import load_workbook

    book = load_workbook(io.BytesIO(data), read_only=True)
    try:
        return min(reading.MAX_ROWS, max(0, (book.worksheets[0].max_row or 1) - 1))  # what the sheet claims
    finally:
        book.close()


def remembered(run: ImportRun) -> dict:
    source = ImportSource.objects.filter(
        jurisdiction=run.jurisdiction, name=run.source, kind=run.kind
    ).first()
    return source.mapping if source else {}


def set_columns(run: ImportRun, given: dict[str, str], *, actor) -> ImportRun:
    """The columns matched (`given`: our field -> a column of the file, or "value:<v>" for a choice field's one
    value for the whole file), checked, remembered for the source, and the check started."""
    require_importer(actor, run.jurisdiction, run.kind)
    if run.status not in (ImportRun.Status.MAPPING, ImportRun.Status.CHECKED, ImportRun.Status.FAILED):
        raise InvalidInput("mapping", "This file is being checked or brought in: wait for it to finish.")
    mapping: dict[str, dict] = {}
    used: dict[str, str] = {}
    for f in F.fields_of(run.kind):
        raw = (given.get(f.name) or "").strip()
        if not raw:
            continue
        if raw.startswith("value:"):
            value = raw.removeprefix("value:")
            if value not in {v for v, _ in f.choices}:
                raise InvalidInput(f.name, "Choose one of the values offered.")
            mapping[f.name] = {"value": value}
            continue
        if raw not in run.columns:
            raise InvalidInput(f.name, "Choose a column of the file.")
        if raw in used and not (f.name.startswith("owner_") or used[raw].startswith("owner_")):
            raise InvalidInput(f.name, f"The column “{raw}” is already matched to another field.")
        used[raw] = f.name
        mapping[f.name] = {"column": raw}
    for f in F.fields_of(run.kind):
        if f.required and f.name not in mapping:
            raise InvalidInput(f.name, "Match this field to a column (it is required).")
    if run.kind == Kind.PEOPLE and not ({"full_name", "last_name", "first_name"} & set(mapping)):
        raise InvalidInput("full_name", "Match the person's name: a full name, or first and last names.")
    if run.kind == Kind.INCIDENTS and not ({"dog_ref", "dog_microchip"} & set(mapping)):
        raise InvalidInput("dog_ref", "Match the dog: by the source's id for it, or by its microchip.")
    now = timezone.now()
    with transaction.atomic():  # the caller starts the check when this commits (dogcase.imports.tasks)
        ImportSource.objects.update_or_create(
            jurisdiction=run.jurisdiction,
            name=run.source,
            kind=run.kind,
            defaults={"mapping": mapping, "updated_by": actor, "updated_at": now},
        )
        run.mapping = mapping
        run.status = ImportRun.Status.CHECKING
        run.rows_done = 0
        run.problems, run.problem_count, run.summary = [], 0, {}
        run.save()
    return run


def _progress(run_id: int):
    def write(done: int) -> None:
        ImportRun.objects.filter(pk=run_id).update(rows_done=done)

    return write


def run_check(run_id: int) -> ImportRun:
    run = ImportRun.objects.get(pk=run_id)
    try:
        with file_store.open_blob(run.blob) as stream:
            outcome = check(
                run, reading.rows(stream, _kind(run)), actor=run.created_by, progress=_progress(run.pk)
            )
    except reading.FileProblem as exc:
        return _failed(run, str(exc))
    except Exception:
        log.exception("import run %s: the check failed", run.pk)
        return _failed(run, UNEXPECTED)
    run.refresh_from_db()
    run.status = ImportRun.Status.CHECKED
    run.rows_total = outcome.rows
    run.problems, run.problem_count = outcome.problems, outcome.problem_count
    run.summary = outcome.as_summary()
    run.finished_at = timezone.now()
    run.save()
    return run


def confirm(run: ImportRun, *, actor, attest: bool = False, at: dt.datetime | None = None) -> ImportRun:
    """Bring in a file the check found no problem in: once, however often the button is pressed (the run
    moves from checked to being brought in in one statement, which only one request can do). A file of open
    cases is brought in only when the person bringing it in `attest`s what its notices contained (ATTESTATION);
    who did, and when, is kept with the run."""
    require_importer(actor, run.jurisdiction, run.kind)
    if run.kind == Kind.CASES:
        if not attest:
            raise InvalidInput(
                "attest",
                "Say that the notices were served as the rows say and contained what the law requires: the "
                "cases' clocks count from them.",
            )
        attested = {
            "by": actor.get_full_name() or actor.get_username(),
            "user": actor.pk,
            "at": (at or timezone.now()).isoformat(),
            "words": ATTESTATION,
        }
    # the attestation moves with the run, in the statement only one request can make
    moved = ImportRun.objects.filter(pk=run.pk, status=ImportRun.Status.CHECKED, problem_count=0).update(
        status=ImportRun.Status.IMPORTING,
        confirmed_by=actor,
        rows_done=0,
        **({"summary": {**run.summary, "attested": attested}} if run.kind == Kind.CASES else {}),
    )
    run.refresh_from_db()
    if not moved:
        if run.problem_count:
            raise InvalidInput(
                "run", "Correct the rows with problems first: nothing is brought in while one has."
            )
        raise InvalidInput("run", "Only a file checked (and not yet brought in) can be brought in.")
    return run


def run_import(run_id: int) -> ImportRun:
    run = ImportRun.objects.get(pk=run_id)
    if run.status != ImportRun.Status.IMPORTING or run.event_seq is not None:
        return run  # the job run again: the file was brought in (or refused) already
    actor = run.confirmed_by or run.created_by
    attested = run.summary.get("attested")
    try:
        # no progress is written while it is brought in: the import is one transaction, which no one else
        # sees until it ends (the page says it is being brought in, all at once)
        with file_store.open_blob(run.blob) as stream:
            outcome, seq = bring_in(run, reading.rows(stream, _kind(run)), actor=actor)
    except NotImported as exc:
        run.refresh_from_db()
        run.status = ImportRun.Status.FAILED
        run.problems, run.problem_count = exc.outcome.problems, exc.outcome.problem_count
        run.summary = exc.outcome.as_summary()
        run.finished_at = timezone.now()
        run.save()
        return run
    except reading.FileProblem as exc:
        return _failed(run, str(exc))
    except Exception:
        log.exception("import run %s failed", run.pk)
        return _failed(run, UNEXPECTED)
    run.refresh_from_db()
    run.status = ImportRun.Status.IMPORTED
    run.summary = {**outcome.as_summary(), **({"attested": attested} if attested else {})}
    run.rows_done = outcome.rows
    run.event_seq = seq
    run.finished_at = timezone.now()
    run.save()
    if run.kind == Kind.CASES:
        # the cases' overdue obligations raise their staff tasks now, not at the next daily sweep
        sweep(at=run.finished_at, jurisdiction=run.jurisdiction)
    return run


def _kind(run: ImportRun) -> reading.FileKind:
    f = run.file_format
    return reading.FileKind(f.get("ext", ".csv"), f.get("encoding", "utf-8-sig"), f.get("delimiter", ","))


def _failed(run: ImportRun, problem: str) -> ImportRun:
    run.refresh_from_db()
    run.status = ImportRun.Status.FAILED
    run.problems = [{"row": 0, "column": "", "field": "The file", "problem": problem.rstrip(".")}]
    run.problem_count = 1
    run.finished_at = timezone.now()
    run.save()
    return run
