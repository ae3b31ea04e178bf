"""The background jobs (Django's task framework; in production the database backend of django-tasks-db, run
by `manage.py db_worker`, docs/deploy.md):

- send_message: one message, at most once (dogcase.messaging.delivery), retried with back-off by itself;
  enqueued by enqueue_send_message() when a message is written or retried (dogcase.messaging.enqueue);
- daily_sweep: the day's sweep (dogcase.cases.acts.sweep), then the day's reminders, the recovery pass of
  messages whose worker stopped (dogcase.messaging.recovery; it also runs every few minutes), then the check of the day's issued documents; enqueued once a day by `dogcase sweep --every` (dogcase.messaging.schedule);
- verify_documents: a batch of issued documents read back from the storage and checked against the hash
  recorded when they were issued; a missing or altered PDF raises a staff task to issue it again.

The framework has no retries of its own: a job that fails is enqueued again by retry_later() after a wait
that grows with each attempt, a bounded number of times, each attempt counted in the job's arguments.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging

from django.db import transaction
from django.dispatch import receiver
from django.tasks import task
from django.utils import timezone

from dogcase.messaging.cleanup import delete_expired_credentials
from dogcase.messaging.delivery import deliver
from dogcase.messaging.enqueue import send_requested
from dogcase.messaging.models import DailyRun
from dogcase.messaging.recovery import recover_stuck
from dogcase.messaging.reminders import send_reminders

log = logging.getLogger(__name__)

JOB_ATTEMPTS = 4  # a daily sweep or a verification that fails is tried this many times in all
JOB_RETRY_SECONDS = (60, 600, 3600)


def retry_later(job, *, attempt: int, exc: Exception, **kwargs) -> bool:
    """Enqueue `job` again (attempt + 1) after a wait, unless it has had its attempts; True when it will."""
    if attempt >= JOB_ATTEMPTS:
        log.error("%s failed for good after %s attempts: %s", job.name, attempt, exc)
        return False
    wait = JOB_RETRY_SECONDS[min(attempt, len(JOB_RETRY_SECONDS)) - 1]
    log.warning("%s attempt %s failed (%s); again in %ss", job.name, attempt, exc, wait)
    backend = job.get_backend()
    again = (
        job.using(run_after=timezone.now() + dt.timedelta(seconds=wait)) if backend.supports_defer else job
    )
    again.enqueue(attempt=attempt + 1, **kwargs)
    return True


@task()
def send_message(message_id: int) -> str:
    return deliver(message_id)


@receiver(send_requested, dispatch_uid="messaging_enqueue_send")
def enqueue_send_message(sender, *, message_id: int, run_after=None, **kwargs) -> None:
    """The send job of a message asked for (dogcase.messaging.enqueue); deferred to run_after if it can be."""
    task = send_message
    if run_after is not None and task.get_backend().supports_defer:
        task = task.using(run_after=run_after)
    task.enqueue(message_id)


@task()
def daily_sweep(day: str, attempt: int = 1) -> dict:
    """The sweep of `day` (ISO date), its reminders and the check of its documents; the report is kept on the
    day's DailyRun row. Safe to run again: the sweep raises each task once and each reminder's key is unique."""
    from dogcase.cases.acts import sweep

    try:
        at = timezone.now()
        report = sweep(at=at).as_dict()
        report["messages"] = send_reminders(at)
        stuck = recover_stuck(at)  # a backstop: `manage.py recover_stuck --every` runs it every few minutes
        report["messages"]["stuck_failed"] = stuck["failed"]
        report["messages"]["stuck_requeued"] = stuck["requeued"]
        report["expired_credentials"] = delete_expired_credentials(at)  # throttles, sign-in links, sessions
        report["documents"] = verify_documents.call(day=day)
    except Exception as exc:
        if not retry_later(daily_sweep, attempt=attempt, exc=exc, day=day):
            raise
        return {"retried": True, "error": str(exc)}
    DailyRun.objects.filter(day=dt.date.fromisoformat(day)).update(finished_at=timezone.now(), report=report)
    return report


@task()
def verify_documents(day: str, attempt: int = 1) -> dict:
    """Read back every document issued on `day` and compare its bytes with the hash recorded at issue."""
    from dogcase.cases.files import open_blob
    from dogcase.cases.models import Task
    from dogcase.documents.models import IssuedDocument

    start = timezone.make_aware(dt.datetime.combine(dt.date.fromisoformat(day), dt.time()))
    docs = IssuedDocument.objects.filter(issued_at__gte=start, issued_at__lt=start + dt.timedelta(days=1))
    checked, bad = 0, []
    for doc in docs.order_by("pk").iterator(chunk_size=200):
        checked += 1
        try:
            with open_blob(doc.blob) as handle:
                data = handle.read()
        except OSError as exc:
            problem = f"its PDF is missing from the storage ({type(exc).__name__})"
        else:
            if not data.startswith(b"%PDF-"):
                problem = "its stored file is not a PDF"
            elif hashlib.sha256(data).hexdigest() != doc.sha256:
                problem = "its stored PDF does not match the one recorded when it was issued"
            else:
                continue
        bad.append(doc.number)
        with transaction.atomic():
            Task.objects.get_or_create(
                key=f"document:{doc.pk}:v{doc.version}:storage",
                defaults={
                    "case_id": doc.case_id,
                    "jurisdiction": doc.jurisdiction,
                    "text": f"{doc.title}, No. {doc.number}: {problem}; issue a corrected version from the case"[
                        :500
                    ],
                    "staff_roles": ",administrator,city_clerk,",
                    "created_at": timezone.now(),
                },
            )
    return {"checked": checked, "bad": bad}
