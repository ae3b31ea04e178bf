"""The background jobs of an import, and the two acts that start them once they commit: the check of a file
once its columns are matched, the import once the check found no problem (dogcase.imports.service)."""

from __future__ import annotations

from django.db import transaction
from django.tasks import task

from dogcase.imports import service
from dogcase.imports.models import ImportRun


@task()
def check_file(run_id: int) -> str:
    return service.run_check(run_id).status


@task()
def import_file(run_id: int) -> str:
    return service.run_import(run_id).status


def match_columns_and_check(run: ImportRun, given: dict[str, str], *, actor) -> ImportRun:
    with transaction.atomic():
        run = service.set_columns(run, given, actor=actor)
        transaction.on_commit(lambda: check_file.enqueue(run.pk))
    return run


def bring_in_checked(run: ImportRun, *, actor, attest: bool = False) -> ImportRun:
    with transaction.atomic():
        run = service.confirm(run, actor=actor, attest=attest)
        transaction.on_commit(lambda: import_file.enqueue(run.pk))
    return run
