"""What a jurisdiction's answers share: the range of dates asked about, the law's frozen data made plain."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from . import clock
from .errors import InputError


def check_date_range(day: dt.date, field: str) -> None:
    if not clock.MIN_DATE <= day <= clock.MAX_DATE:
        raise InputError(
            field, f"must be between {clock.MIN_DATE.isoformat()} and {clock.MAX_DATE.isoformat()}"
        )


def unfreeze(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: unfreeze(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [unfreeze(v) for v in value]
    return value
