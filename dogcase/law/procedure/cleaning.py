"""A step's form cleaned input by input: dates, instants, text, choices from the law."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from typing import Any

from .. import clock
from ..errors import InputError
from .model import Input


def _shown(value: Any) -> str:
    """A value as an error message repeats it: never more than 60 characters of it."""
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:57]}…"


def too_long(limit: int, length: int) -> str:
    """The one message for a text over its limit, on forms and the API alike."""
    return f"At most {limit:,} characters (you wrote {length:,})"


# A telephone number as people write one: digits with spaces, dashes, dots, brackets, a leading +, and an
# extension ("ext. 12", "x12"); 7 to 15 digits before the extension (a local number to E.164's longest).
TELEPHONE_MAX = 40
TELEPHONE_RULE = "Write a telephone number, e.g. 218-555-0150 (an extension as “ext. 12”)"
_TELEPHONE = re.compile(r"^\+?[\d\s().\-/]+?(?:\s*(?:ext\.?|extension|x)\s*\d{1,6})?$", flags=re.IGNORECASE)


def clean_telephone(value: Any, name: str) -> str:
    """A telephone input's value, or InputError with the one rule forms and the API say."""
    if not isinstance(value, str) or not value.strip():
        raise InputError(name, TELEPHONE_RULE)
    text = " ".join(value.split())
    if len(text) > TELEPHONE_MAX:
        raise InputError(name, too_long(TELEPHONE_MAX, len(text)))
    main = re.split(r"(?i)\s*(?:ext\.?|extension|x)\s*\d", text)[0]
    digits = sum(c.isdigit() for c in main)
    if not _TELEPHONE.match(text) or not 7 <= digits <= 15:
        raise InputError(name, TELEPHONE_RULE)
    return text


def check_instant(at: Any, name: str) -> None:
    if not isinstance(at, dt.datetime) or at.tzinfo is None or at.utcoffset() is None:
        raise InputError(name, "must be a timezone-aware date and time")


def clean_input(item: Input, value: Any, name: str, choices: list[dict[str, Any]] | None) -> Any:
    kind = item.kind
    if kind == "date":
        if isinstance(value, dt.datetime):
            raise InputError(name, "must be a date (YYYY-MM-DD), not a date and time")
        if isinstance(value, dt.date):
            day = value
        elif isinstance(value, str):
            try:
                day = dt.date.fromisoformat(value)
            except ValueError:
                raise InputError(
                    name, clock.missing_day(value) or f"{_shown(value)} is not a date written YYYY-MM-DD"
                ) from None
        else:
            raise InputError(name, "must be a date written YYYY-MM-DD")
        if not clock.MIN_DATE <= day <= clock.MAX_DATE:
            raise InputError(name, f"must be between {clock.MIN_DATE} and {clock.MAX_DATE}")
        return day
    if kind == "datetime":
        if isinstance(value, str):
            try:
                value = dt.datetime.fromisoformat(value)
            except ValueError:
                raise InputError(
                    name,
                    clock.missing_day(value) or f"{_shown(value)} is not a real date and time (ISO 8601)",
                ) from None
        if not isinstance(value, dt.datetime):
            raise InputError(name, "must be a date and time with its UTC offset")
        if value.tzinfo is None or value.utcoffset() is None:
            raise InputError(name, "a date and time needs its UTC offset, e.g. 2026-11-01T01:30:00-05:00")
        if not clock.MIN_DATE <= value.date() <= clock.MAX_DATE:
            raise InputError(name, f"must be between {clock.MIN_DATE} and {clock.MAX_DATE}")
        return value
    if kind == "text":
        if not isinstance(value, str) or not value.strip():
            raise InputError(name, "must be text")
        text = value.strip()
        if len(text) > item.text_limit:
            raise InputError(name, too_long(item.text_limit, len(text)))
        return text
    if kind == "telephone":
        return clean_telephone(value, name)
    if kind == "bool":
        if not isinstance(value, bool):
            raise InputError(name, "must be true or false")
        return value
    if kind == "file":
        return value
    if kind == "staff_member":  # the person's id; the product offers and checks its own users
        if not isinstance(value, str | int) or isinstance(value, bool) or not str(value).strip():
            raise InputError(name, "must name the person (their id)")
        person = str(value).strip()
        if len(person) > 64:
            raise InputError(name, too_long(64, len(person)))
        return person
    if kind == "jurisdiction":  # a served city's pack id or `elsewhere`; the product offers and checks them
        if not isinstance(value, str) or not value.strip():
            raise InputError(name, "must name the city or county (its id), or elsewhere")
        place = value.strip()
        if len(place) > 64:
            raise InputError(name, too_long(64, len(place)))
        return place
    allowed = [c["value"] for c in choices or ()]
    if kind == "proofs":
        if isinstance(value, str) or not isinstance(value, Iterable):
            raise InputError(name, "must be a list of requirement ids")
        items = list(value)
        for v in items:
            if v not in allowed:
                raise InputError(
                    name, f"{_shown(v)} is not a requirement here; choose from {', '.join(allowed)}"
                )
        return tuple(dict.fromkeys(items))
    if kind == "document":
        if value == "all":  # "the notice contains every element the law requires", recorded as the list
            value = [c["value"] for c in choices or () if c.get("applies", True)]
        if isinstance(value, str) or not isinstance(value, Iterable):
            raise InputError(name, "must be the list of the elements the notice contains")
        items = list(value)
        for v in items:
            if v not in allowed:
                raise InputError(name, f"{_shown(v)} is not an element of this notice")
        for choice in choices or ():
            if choice["value"] not in items and choice.get("applies", True):
                raise InputError(
                    name,
                    f"the notice must contain: “{choice['label'].rstrip(';.,: ')}” "
                    f"({choice['provision']['citation']}); serve a notice that has every element the law "
                    "requires",
                )
        return tuple(dict.fromkeys(items))
    if value not in allowed:
        raise InputError(
            name, f"{_shown(value)} is not allowed; choose one of {', '.join(map(str, allowed)) or '(none)'}"
        )
    return value
