"""The scheduler of the daily sweep: `dogcase sweep --every SECONDS` enqueues the day's sweep job once a day
(one DailyRun row a day: a scheduler restarted, or two of them, enqueue a day once); the worker runs it."""

from __future__ import annotations

import datetime as dt

from django.db import IntegrityError, transaction
from django.utils import timezone

from dogcase.messaging.models import DailyRun
from dogcase.messaging.tasks import daily_sweep


def schedule_daily_sweep(at: dt.datetime | None = None) -> bool:
    """Enqueue the sweep of `at`'s day unless it was enqueued already; True when it was enqueued now."""
    at = at or timezone.now()
    day = timezone.localdate(at)
    try:
        with transaction.atomic():
            DailyRun.objects.create(day=day, enqueued_at=at)
            transaction.on_commit(lambda: daily_sweep.enqueue(day=day.isoformat()))
    except IntegrityError:
        return False
    return True
