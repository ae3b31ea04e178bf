"""No message lost (issue 19, item 6): the pass that finds the send jobs and messages a worker left half-done
(killed, the machine restarted) and puts them right. Run every few minutes (`manage.py recover_stuck --every`,
beside the worker; docs/deploy.md), and by the daily sweep as a backstop.

A send goes: the job claimed (django-tasks-db: running) -> the message claimed (queued -> sending) -> handed to
the mail server (handed_at written) -> sent. A worker that stops in between leaves:

- a job "running" for ever: after settings.DOGCASE_STUCK_SECONDS it is marked failed (its worker is gone);
- its message still queued with no job left to send it, or "sending" but never handed to the server: nothing
  reached the recipient, so it is queued again (a new job), once; the second time it is failed and a staff
  task raised to serve it on paper;
- its message "sending" and handed to the server: the server may have taken it. It is never sent again (a
  message is sent at most once): it is failed and served on paper, as the notice is served when the e-mail
  may not have arrived.
"""

from __future__ import annotations

import datetime as dt
import logging

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.tasks import DEFAULT_TASK_BACKEND_ALIAS, task_backends
from django.utils import timezone
from django_tasks_db.backend import DatabaseBackend
from django_tasks_db.compat import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from dogcase.messaging.delivery import raise_paper_task
from dogcase.messaging.enqueue import enqueue_send
from dogcase.messaging.models import Message

log = logging.getLogger(__name__)

SEND_JOB = "dogcase.messaging.tasks.send_message"
RECOVERIES = 1  # a message whose worker stopped before it reached the server is queued again this many times


class WorkerLost(Exception):
    """Recorded on a job whose worker stopped while running it."""


def stuck_age() -> dt.timedelta:
    return dt.timedelta(seconds=getattr(settings, "DOGCASE_STUCK_SECONDS", 600))


def _entry(at: dt.datetime, outcome: str, detail: str) -> dict:
    return {"at": at.isoformat(), "outcome": outcome, "detail": detail}


def _message_of(job: DBTaskResult) -> int | None:
    args, kwargs = job.args_kwargs.get("args") or [], job.args_kwargs.get("kwargs") or {}
    value = args[0] if args else kwargs.get("message_id")
    return value if isinstance(value, int) else None


def fail_stuck_jobs(at: dt.datetime) -> int:
    """Send jobs running longer than the age: their worker is gone; marked failed so that they are not taken
    for live ones (the framework never finishes them)."""
    stale = DBTaskResult.objects.filter(
        task_path=SEND_JOB, status=TaskResultStatus.RUNNING, started_at__lt=at - stuck_age()
    )
    return stale.update(
        status=TaskResultStatus.FAILED,
        finished_at=at,
        exception_class_path=f"{WorkerLost.__module__}.{WorkerLost.__qualname__}",
        traceback="WorkerLost: the worker stopped while running this job (found by the recovery pass)\n",
        return_value=None,
    )


def live_sends() -> set[int]:
    """The messages a send job is still waiting for, or running for."""
    jobs = DBTaskResult.objects.filter(
        task_path=SEND_JOB, status__in=[TaskResultStatus.READY, TaskResultStatus.RUNNING]
    ).only("args_kwargs")
    return {pk for pk in map(_message_of, jobs) if pk is not None}


def stuck_messages(at: dt.datetime) -> list[Message]:
    """Messages left behind longer than the age: "sending" since then, or queued since then with no job."""
    cutoff = at - stuck_age()
    sending = Q(status=Message.Status.SENDING, last_attempt_at__lt=cutoff)
    found = list(Message.objects.filter(sending).select_related("case").order_by("pk"))
    if isinstance(_backend(), DatabaseBackend):  # jobs are rows: a queued message without one is lost
        live = live_sends()
        queued = Message.objects.filter(status=Message.Status.QUEUED, created_at__lt=cutoff).filter(
            Q(last_attempt_at__isnull=True) | Q(last_attempt_at__lt=cutoff)
        )
        found += [m for m in queued.select_related("case").order_by("pk") if m.pk not in live]
    return found


def _backend():
    return task_backends[DEFAULT_TASK_BACKEND_ALIAS]  # the send job's (dogcase.messaging.tasks.send_message)


def recover(message: Message, at: dt.datetime) -> str:
    """Put one stuck message right: "requeued", "failed" (paper task raised) or "" (it moved meanwhile)."""
    was = Q(pk=message.pk, status=message.status, recoveries=message.recoveries)
    if message.status == Message.Status.SENDING:
        was &= Q(last_attempt_at=message.last_attempt_at)
    maybe_sent = message.status == Message.Status.SENDING and message.handed_at is not None
    with transaction.atomic():
        if not maybe_sent and message.recoveries < RECOVERIES:
            changed = Message.objects.filter(was).update(
                status=Message.Status.QUEUED,
                recoveries=message.recoveries + 1,
                handed_at=None,
                status_reason="the worker stopped before sending it; will try again",
                history=[*message.history, _entry(at, "error", "the worker stopped before sending it")],
            )
            if changed:
                transaction.on_commit(lambda: enqueue_send(message.pk))
                log.warning("message %s: its worker stopped before sending it; queued again", message.pk)
                return "requeued"
            return ""
        if maybe_sent:
            reason = "the worker stopped while sending it: it may not have been delivered"
            why = "the e-mail may not have been delivered"
        else:
            reason = "the worker stopped before sending it, twice: it was not sent"
            why = "the e-mail could not be sent"
        changed = Message.objects.filter(was).update(
            status=Message.Status.FAILED,
            status_reason=reason,
            history=[*message.history, _entry(at, "error", reason)],
        )
        if not changed:
            return ""
        raise_paper_task(message, why, at)
        log.error("message %s: %s; serve on paper", message.pk, reason)
        return "failed"


def recover_stuck(at: dt.datetime | None = None) -> dict:
    """The pass: stale send jobs marked failed, then each stuck message queued again or failed to paper."""
    at = at or timezone.now()
    report = {"jobs_failed": fail_stuck_jobs(at), "requeued": 0, "failed": 0}
    for message in stuck_messages(at):
        outcome = recover(message, at)
        if outcome:
            report[outcome] += 1
    return report
