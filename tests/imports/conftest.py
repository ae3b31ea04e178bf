"""Files brought in through the import's acts, with its background jobs run at once."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import TestCase

from dogcase.imports import fields, service, tasks

FILES = Path(__file__).parent / "files"
CITY = "battle-lake-mn"


@pytest.fixture(autouse=True)
def immediate_tasks(settings):
    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}


@pytest.fixture
def clerk(make_staff_user):
    return make_staff_user("city_clerk")


def upload(name: str, data: bytes | None = None) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data if data is not None else (FILES / name).read_bytes())


def received(
    actor, name: str, kind: str, *, data: bytes | None = None, source: str = "ASM3", city: str = CITY
):
    return service.receive(upload(name, data), city=city, kind=kind, source=source, actor=actor)


def checked(actor, name: str, kind: str, *, data=None, source="ASM3", extra: dict | None = None, city=CITY):
    """Received, its columns as suggested (plus `extra`), checked."""
    run = received(actor, name, kind, data=data, source=source, city=city)
    given = {
        k: v.get("column") or f"value:{v['value']}" for k, v in fields.suggest(kind, run.columns).items()
    }
    given.update(extra or {})
    with TestCase.captureOnCommitCallbacks(execute=True):  # the job starts when the act commits
        run = tasks.match_columns_and_check(run, given, actor=actor)
    run.refresh_from_db()
    return run


def imported(actor, name: str, kind: str, **kw):
    run = checked(actor, name, kind, **kw)
    assert run.problem_count == 0, run.problems
    with TestCase.captureOnCommitCallbacks(execute=True):
        run = tasks.bring_in_checked(run, actor=actor)
    run.refresh_from_db()
    return run
