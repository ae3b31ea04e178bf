"""The demo's dates, in days ago from today (local time): the stories' dates move with the calendar."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone


def local(days_ago: float, hour: int = 10) -> dt.datetime:
    today = timezone.localdate()
    day = today - dt.timedelta(days=int(days_ago))
    minutes = int(round((days_ago - int(days_ago)) * 60 * 8))  # fractional days = minutes after the hour
    return timezone.make_aware(dt.datetime.combine(day, dt.time(hour, 0))) + dt.timedelta(minutes=minutes)


def d(days_ago: float) -> str:
    return local(days_ago).date().isoformat()


def t(days_ago: float, hour: int = 10) -> str:
    return local(days_ago, hour).isoformat()
