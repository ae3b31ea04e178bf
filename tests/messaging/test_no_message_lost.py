"""No message lost (issue 19, item 6): a real worker process (`manage.py db_worker`, the database backend of
django-tasks-db) is killed with SIGKILL at each point of a send, against this test's own database (the
PostgreSQL test database, or a file copy of the SQLite in-memory one) and a real SMTP server (aiosmtpd). Then
the recovery pass runs (as `manage.py recover_stuck` would, after settings.DOGCASE_STUCK_SECONDS) and a
worker runs the queue. A message is lost when it neither reached the SMTP server nor raised the staff task to
serve it on paper; each kill point must lose none and send none twice."""

from __future__ import annotations

import datetime as dt
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import pytest
from django.core.management import call_command
from django.db import connection
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from dogcase.cases import updates
from dogcase.cases.models import Task
from dogcase.messaging import notify
from dogcase.messaging.models import Message
from dogcase.messaging.recovery import recover_stuck, stuck_age

ROOT = Path(__file__).resolve().parents[2]
CONTEXT = {
    "condition": "proof of liability insurance of at least $300,000",
    "reason": "The certificate ended on 1 May 2026.",
    "citation": "Minn. Stat. § 347.51, subd. 2",
}

# Run in the killed process: the worker (or, for "message_written", the act writing the message) with the
# function that follows the kill point replaced by SIGKILL of the process itself.
KILLER = f"""
import os, signal, sys
import django
django.setup()
from django.core.mail import EmailMessage
from django.core.management import call_command
from dogcase.messaging import delivery, outbox, tasks

point = sys.argv[1]

def die(*args, **kwargs):
    os.kill(os.getpid(), signal.SIGKILL)

if point == "message_written":  # the row committed, its send job not yet enqueued
    outbox.enqueue_send = die
    from dogcase.cases.models import Case
    from dogcase.messaging import notify
    notify(Case.objects.get(pk=int(sys.argv[2])), "proof_rejected", to="owners", context={CONTEXT!r},
           key="kill:written")
    sys.exit(3)
if point == "job_claimed":  # the job is running, the message still queued
    tasks.deliver = die
elif point == "message_claimed":  # the message is being sent, not yet handed to the server
    delivery.hand_over = die
elif point == "handed":  # handed_at written, the SMTP conversation not begun
    EmailMessage.send = die
elif point == "smtp_accepted":  # the server said 250 to the message, the row not yet marked sent
    send = EmailMessage.send
    def send_then_die(self, *args, **kwargs):
        send(self, *args, **kwargs)
        die()
    EmailMessage.send = send_then_die
call_command("db_worker", batch=True, startup_delay=False, reload=False, verbosity=0)
sys.exit(4)
"""


def database_url(tmp_path: Path) -> str:
    """A URL of this test's database for the killed process: PostgreSQL's test database itself, or a file
    copy of SQLite's in-memory one (copied back by copy_back())."""
    d = connection.settings_dict
    if connection.vendor == "postgresql":
        who = quote(d["USER"] or "") + (f":{quote(d['PASSWORD'])}" if d["PASSWORD"] else "")
        return f"postgres://{who}@{d['HOST'] or 'localhost'}:{d['PORT'] or 5432}/{d['NAME']}"
    assert connection.vendor == "sqlite"
    path = tmp_path / "worker.sqlite3"
    path.unlink(missing_ok=True)
    connection.ensure_connection()
    with sqlite3.connect(path) as copy:
        connection.connection.backup(copy)
    return f"sqlite:///{path}"


def copy_back(url: str) -> None:
    if connection.vendor == "sqlite":
        with sqlite3.connect(url.removeprefix("sqlite:///")) as copy:
            copy.backup(connection.connection)


def kill_at(point: str, tmp_path: Path, smtp_port: int, *args: str) -> None:
    url = database_url(tmp_path)
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": url,
        "DEBUG": "True",
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(smtp_port),
        "EMAIL_USE_TLS": "False",
        "EMAIL_TIMEOUT": "5",
        "DEFAULT_FROM_EMAIL": "animals@battlelake.example",
        "DOGCASE_TASKS_BACKEND": "django_tasks_db.DatabaseBackend",
        "DOGCASE_VAR_DIR": str(tmp_path / "var"),
    }
    done = subprocess.run(  # noqa: S603 - this interpreter, a fixed script
        [sys.executable, "-c", KILLER, point, *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == -signal.SIGKILL, (done.returncode, done.stdout[-2000:], done.stderr[-3000:])
    copy_back(url)


def later() -> dt.datetime:
    """When the recovery pass first takes what a worker left for stuck."""
    return timezone.now() + stuck_age() + dt.timedelta(seconds=1)


def run_worker() -> None:
    call_command("db_worker", batch=True, startup_delay=False, reload=False, verbosity=0)


@pytest.fixture
def db_tasks(settings, smtp_server):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    return smtp_server


@pytest.fixture
def owner_case(make_case):
    c = make_case()
    updates.update_person(
        c.owner, actor=c.staff["officer"], changes={"email": "olive@example.org"}, reason="Told us"
    )
    Message.objects.all().delete()
    DBTaskResult.objects.all().delete()
    return c


def one_message(c) -> Message:
    """One message to the owner, its send job the only job queued."""
    (message,) = notify(c.case, "proof_rejected", to="owners", context=CONTEXT, key="kill:one")
    assert DBTaskResult.objects.filter(status="READY").count() == 1
    return message


def outcome(message: Message, mailbox) -> dict:
    message.refresh_from_db()
    paper = Task.objects.filter(key=f"message:{message.pk}:paper", case=message.case_id).exists()
    delivered = len(mailbox.messages)
    return {
        "delivered": delivered,
        "paper": paper,
        "status": message.status,
        "lost": delivered == 0 and not paper,
    }


def port_of(settings) -> int:
    return settings.MAILERS["default"]["OPTIONS"]["port"]


# kill point -> (state it leaves, what the recovery pass does, delivered once after it, a paper task)
KILL_POINTS = {
    "message_written": ("queued", "requeued", 1, False),
    "job_claimed": ("queued", "requeued", 1, False),
    "message_claimed": ("sending", "requeued", 1, False),
    "handed": ("sending", "failed", 0, True),
    "smtp_accepted": ("sending", "failed", 1, True),
}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("point", list(KILL_POINTS))
def test_a_worker_killed_at_each_point_of_a_send_loses_no_message_and_sends_none_twice(
    point, owner_case, db_tasks, settings, tmp_path
):
    left, action, delivered, paper = KILL_POINTS[point]
    port = port_of(settings)
    if point == "message_written":
        kill_at(point, tmp_path, port, str(owner_case.case.pk))
        message = Message.objects.get(key__startswith="kill:written")
        assert not DBTaskResult.objects.exists()  # killed before its job was enqueued
    else:
        message = one_message(owner_case)
        kill_at(point, tmp_path, port)
        job = DBTaskResult.objects.get()
        assert job.status == "RUNNING"  # the framework never finishes it
    message.refresh_from_db()
    assert message.status == left
    assert len(db_tasks.messages) == (1 if point == "smtp_accepted" else 0)

    # within the age nothing is touched: a job or a message that young may be alive
    assert recover_stuck(timezone.now()) == {"jobs_failed": 0, "requeued": 0, "failed": 0}
    report = recover_stuck(later())
    assert report[action] == 1 and report["requeued" if action == "failed" else "failed"] == 0
    assert report["jobs_failed"] == (0 if point == "message_written" else 1)
    assert not DBTaskResult.objects.filter(status="RUNNING").exists()
    run_worker()

    result = outcome(message, db_tasks)
    assert result["lost"] is False
    assert result["delivered"] == delivered  # never twice
    assert result["paper"] is paper
    assert result["status"] == ("sent" if action == "requeued" else "failed")
    if point == "smtp_accepted":  # the one that reached the server can be found by a bounce
        assert message.message_id and message.message_id in db_tasks.messages[0].original_content.decode()
    # a later pass finds nothing left
    assert recover_stuck(later()) == {"jobs_failed": 0, "requeued": 0, "failed": 0}


@pytest.mark.django_db(transaction=True)
def test_a_message_whose_worker_is_killed_twice_is_served_on_paper(owner_case, db_tasks, settings, tmp_path):
    port = port_of(settings)
    message = one_message(owner_case)
    kill_at("message_claimed", tmp_path, port)
    assert recover_stuck(later())["requeued"] == 1
    kill_at("job_claimed", tmp_path, port)
    assert recover_stuck(later()) == {"jobs_failed": 1, "requeued": 0, "failed": 1}
    result = outcome(message, db_tasks)
    assert result == {"delivered": 0, "paper": True, "status": "failed", "lost": False}
    assert "twice" in message.status_reason and message.recoveries == 1
    task = Task.objects.get(key=f"message:{message.pk}:paper")
    assert task.text.startswith("Serve on paper: the e-mail could not be sent")
    run_worker()  # nothing left to send
    assert len(db_tasks.messages) == 0


@pytest.mark.django_db(transaction=True)
def test_a_message_waiting_for_its_retry_is_not_taken_for_stuck(owner_case, db_tasks, settings):
    """A message the server refused for now waits, queued, for a job deferred by minutes or hours: alive."""
    settings.DOGCASE_MAIL_RETRY_SECONDS = [7200]
    db_tasks.refuse, db_tasks.refusals = "451 4.3.0 Try again later", 1
    message = one_message(owner_case)
    run_worker()
    message.refresh_from_db()
    assert message.status == "queued" and message.attempts == 1
    assert recover_stuck(later()) == {"jobs_failed": 0, "requeued": 0, "failed": 0}


def test_the_stuck_age_is_a_setting(settings):
    settings.DOGCASE_STUCK_SECONDS = 120
    assert stuck_age() == dt.timedelta(minutes=2)


@pytest.mark.django_db(transaction=True)
def test_the_recovery_command_runs_one_pass_and_reports_it(owner_case, db_tasks, capsys):
    """`manage.py recover_stuck` (without --every: one pass, as a systemd timer runs it)."""
    import json

    message = one_message(owner_case)
    DBTaskResult.objects.all().delete()  # as if the process died before the job was enqueued
    Message.objects.filter(pk=message.pk).update(created_at=timezone.now() - stuck_age() * 2)
    call_command("recover_stuck")
    line = json.loads(capsys.readouterr().out)
    assert (line["jobs_failed"], line["requeued"], line["failed"]) == (0, 1, 0)
    assert DBTaskResult.objects.get().args_kwargs["args"] == [message.pk]
