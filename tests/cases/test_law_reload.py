"""A law pack written on a running server is used from the next request, recorded as a new version of the law
with an audit event in each city it touches, and a pack that does not load is refused with the law in use
kept; `dogcase law changes` says what the packs on disk would change."""

from __future__ import annotations

import io
import json
import logging
import os
import shutil
from contextlib import redirect_stdout

import pytest
from django.test import Client

from dogcase import cli
from dogcase.cases import acts, lawchanges, lawversions
from dogcase.cases.lawversions import LawVersion
from dogcase.cases.models import Event
from dogcase.law import library, loader

pytestmark = pytest.mark.django_db

NOTIFY_PERIOD = (
    "      trigger: classification\n      period: {amount: 3, unit: calendar_days}",
    "      trigger: classification\n      period: {amount: 5, unit: calendar_days}",
)


@pytest.fixture
def packs(tmp_path, monkeypatch, settings):
    """The shipped packs copied to a folder this process reads as the shipped one."""
    folder = tmp_path / "packs"
    shutil.copytree(loader.PACKS_DIR, folder, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(loader, "PACKS_DIR", folder)
    monkeypatch.setattr("dogcase.cases.acts.obligations.PACKS_DIR", folder)
    monkeypatch.setattr(lawchanges, "_last_recorded", {})
    settings.DOGCASE_LAW_RELOAD_SECONDS = 10
    loader.forget_loaded()
    yield folder
    loader.forget_loaded()


def _write(path, text):
    path.write_text(text, encoding="utf-8")
    info = path.stat()
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns + 1_000_000_000))


def _period():
    return library().packs["tracy-mn"].provisions["3"].versions[0].effect["period"]["amount"]


def _law_changes() -> tuple[int, dict]:
    out = io.StringIO()
    with redirect_stdout(out):
        code = cli.main(["law", "changes"])
    return code, json.loads(out.getvalue())


def test_a_pack_written_on_the_server_is_used_from_the_next_request_and_recorded(packs):
    acts.sweep()  # the version in use at start, recorded (nothing changed: no event)
    assert LawVersion.objects.count() == 1 and not Event.objects.filter(act="law_changed").exists()
    assert _law_changes()[1]["what_happens"] == "the packs on disk are the law in use"

    tracy = packs / "tracy-mn" / "pack.yaml"
    good = tracy.read_text(encoding="utf-8")
    _write(tracy, good.replace(*NOTIFY_PERIOD))
    code, said = _law_changes()
    assert (
        code == 0
        and len(said["changes"]) == 1
        and said["changes"][0].startswith(
            "tracy-mn: Tracy City Code § 8.31, Subd 3: its time: 3 calendar days"
        )
    )
    assert "within 10 seconds" in said["what_happens"]
    assert _period() == 3  # nothing is read until a request looks

    Client().get("/")
    assert _period() == 5
    latest = lawversions.current()
    assert LawVersion.objects.count() == 2 and latest.changes == said["changes"]
    event = Event.objects.get(act="law_changed")
    assert event.jurisdiction == "tracy-mn" and "Subd 3" in event.summary
    assert event.data["changes"] == said["changes"] and event.actor_name == "dogcase (law packs)"
    # Battle Lake's law (its pack and the state's) did not change: nothing in its audit trail
    assert not Event.objects.filter(act="law_changed", jurisdiction="battle-lake-mn").exists()

    _write(tracy, good + "\nprocedure: [unclosed\n")
    code, said = _law_changes()
    assert (
        code == 1 and said["on_disk"]["loads"] is False and "tracy-mn/pack.yaml" in said["on_disk"]["error"]
    )
    logged: list[logging.LogRecord] = []
    handler = logging.Handler(logging.ERROR)
    handler.emit = logged.append
    logging.getLogger("dogcase.cases.lawchanges").addHandler(handler)
    try:
        Client().get("/")
    finally:
        logging.getLogger("dogcase.cases.lawchanges").removeHandler(handler)
    assert _period() == 5  # the law in use is kept
    [error] = [r.getMessage() for r in logged]
    assert "tracy-mn/pack.yaml:" in error and "not valid YAML" in error and "the law in use is kept" in error
    assert LawVersion.objects.count() == 2

    _write(tracy, good)  # the change undone: a new version again, recorded as such
    Client().get("/")
    assert _period() == 3
    assert LawVersion.objects.count() == 3
    assert Event.objects.filter(act="law_changed", jurisdiction="tracy-mn").count() == 2


def test_with_reloading_off_a_request_reads_nothing(packs, settings):
    settings.DOGCASE_LAW_RELOAD_SECONDS = 0
    acts.sweep()
    tracy = packs / "tracy-mn" / "pack.yaml"
    _write(tracy, tracy.read_text(encoding="utf-8").replace(*NOTIFY_PERIOD))
    Client().get("/")
    assert _period() == 3
    assert "a restart of the web processes takes them" in _law_changes()[1]["what_happens"]
