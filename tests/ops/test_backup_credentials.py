"""A backup holds no live credential (issue 19, item 8): the sessions (a staff login, an owner's portal
sign-in), the failed-login counts and the owners' one-time sign-in links are not in the dump, not even as
bytes left behind in the copy, and a restore of a backup that still had them brings none of them back.
On PostgreSQL (DATABASE_URL set) the dump is read back with pg_restore."""

import datetime as dt
import json
import sqlite3
import subprocess
from pathlib import Path

import pytest
from django.contrib.sessions.models import Session
from django.db import connection
from django.test import Client
from django.utils import timezone

from dogcase.accounts.models import LoginThrottle
from dogcase.ops import backup as backup_module
from dogcase.ops.backup import backup, left_out_tables
from dogcase.owners import codes
from dogcase.owners.models import SignInLink
from tests.cases.conftest import Story
from tests.ops.test_backup import fresh_target, run_dogcase  # noqa: F401  (the fresh_target fixture)

pytestmark = pytest.mark.django_db(transaction=True)

BITE = {
    "bit": True,
    "victim": "human",
    "injury": "minor",
    "place": "public",
    "provoked": False,
    "victim_conduct": [],
    "law_enforcement_dog": False,
}


@pytest.fixture
def credentials(staff):
    """A staff member logged in, an owner signed in to the portal, a failed login and a sign-in link."""
    officer = staff["officer"]
    story = Story(staff, "battle-lake-mn", BITE)
    staff_client = Client()
    staff_client.force_login(officer)
    assert staff_client.get("/cases/").status_code == 200
    person = story.case.dog.ownerships.first().person
    row, code = codes.issue_code(story.case, person, actor=officer)
    owner_client = Client()
    owner_client.post("/owner/", {"code": code, "fact": story.case.dog.name})
    now = timezone.now()
    LoginThrottle.objects.create(key="user:somebody", failures=3, first_failure_at=now)
    SignInLink.objects.create(
        access_code=row,
        token_hash=codes.keyed_hash("link", "a-token-from-an-email"),
        created_at=now,
        expires_at=now + dt.timedelta(minutes=30),
    )
    keys = list(Session.objects.values_list("session_key", flat=True))
    assert len(keys) >= 2  # the staff login and the owner's portal sign-in
    return {
        "sessions": keys,
        "throttle": "user:somebody",
        "link": codes.keyed_hash("link", "a-token-from-an-email"),
    }


def dump_text(directory: Path, manifest: dict) -> bytes:
    """Every byte the backup's database copy holds, as a reader of the backup would get them."""
    dump = directory / manifest["database"]["file"]
    if manifest["database"]["vendor"] == "sqlite":
        return dump.read_bytes()  # the raw file: a deleted row's bytes left in a free page count too
    result = subprocess.run(  # noqa: S603 - our own tool, arguments we built
        [backup_module._pg_tool("pg_restore"), "--data-only", "-f", "-", str(dump)],
        capture_output=True,
        check=True,
    )
    return result.stdout


def test_a_backup_holds_no_session_no_throttle_and_no_sign_in_link(credentials, tmp_path):
    manifest = backup(tmp_path / "backup")

    data = dump_text(tmp_path / "backup", manifest)
    for key in credentials["sessions"]:
        assert key.encode() not in data
    assert credentials["throttle"].encode() not in data
    assert credentials["link"].encode() not in data
    # the tables are there, empty, and the manifest says what was left out and why
    for table in ("django_session", "accounts_loginthrottle", "owners_signinlink"):
        assert manifest["tables"][table] == 0
        assert table in manifest["left_out"]
    assert "sessions" in manifest["left_out"]["django_session"]
    # everything else is kept
    assert manifest["tables"]["cases_case"] == 1 and manifest["tables"]["auth_user"] >= 1
    # the live database is untouched: the people signed in stay signed in
    assert Session.objects.filter(session_key__in=credentials["sessions"]).count() == len(
        credentials["sessions"]
    )


def test_a_backup_taken_with_the_sessions_is_restored_without_them(
    credentials,
    fresh_target,  # noqa: F811
    tmp_path,
    monkeypatch,
):
    env, restored_counts = fresh_target
    # a backup as dogcase took them before the rule: nothing left out
    monkeypatch.setattr(backup_module, "LEFT_OUT_MODELS", {})
    manifest = backup(tmp_path / "old-backup")
    assert manifest["tables"]["django_session"] >= 2 and manifest["tables"]["owners_signinlink"] == 1
    monkeypatch.undo()

    restored = run_dogcase("restore", str(tmp_path / "old-backup"), env=env)

    assert restored.returncode == 0, restored.stderr + restored.stdout
    assert json.loads(restored.stdout)["ok"] is True
    counts = restored_counts()
    assert {t: counts[t] for t in left_out_tables()} == dict.fromkeys(left_out_tables(), 0)
    assert counts["cases_case"] == 1


def test_the_sqlite_copy_keeps_no_bytes_of_the_deleted_rows(credentials, tmp_path):
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's copy only")
    manifest = backup(tmp_path / "backup")
    db = sqlite3.connect(tmp_path / "backup" / manifest["database"]["file"])
    try:
        assert db.execute("SELECT COUNT(*) FROM django_session").fetchone()[0] == 0
        assert db.execute("PRAGMA freelist_count").fetchone()[0] == 0  # vacuumed: no free pages left
    finally:
        db.close()
