"""iCalendar (RFC 5545) for hearings and Council items: a user's private feed, and the .ics of the owner's
notice of hearing (issue 8, item 6).

Written here rather than with a library: a calendar of a few events needs only the rules below, each in one
place. Lines end in CRLF and are folded at 75 octets without splitting a UTF-8 character (3.1); TEXT values
escape backslash, semicolon, comma and line breaks (3.3.11); instants are written in UTC (3.3.5, form #2),
all-day items as DATE values (3.3.4). tests/documents/test_ical.py reads the output back with the icalendar
package, an independent parser.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

PRODID = "-//dogcase//dangerous-dog cases//EN"
# How long a hearing is shown as lasting when the law and the schedule say nothing about its end.
DEFAULT_DURATION = dt.timedelta(hours=1)


@dataclass(frozen=True)
class CalendarItem:
    uid: str  # stable across feeds and re-issues: the same hearing keeps its UID, so a calendar updates it
    start: dt.datetime | dt.date  # an aware instant, or a day (an all-day item: a Council item due that day)
    summary: str
    description: str = ""
    location: str = ""
    url: str = ""
    end: dt.datetime | None = None
    sequence: int = 0  # raised when a rescheduling moves the same item


def escape_text(value: str) -> str:
    """A TEXT value (RFC 5545 3.3.11)."""
    value = value.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
    return value.replace("\r\n", "\\n").replace("\r", "\\n").replace("\n", "\\n")


def fold(line: str) -> str:
    """A content line folded at 75 octets (3.1): the continuation lines start with one space, and a
    multi-octet UTF-8 character is never split."""
    out: list[str] = []
    current = ""
    size = 0
    limit = 75
    for char in line:
        width = len(char.encode("utf-8"))
        if size + width > limit:
            out.append(current)
            current, size, limit = " ", 1, 75
        current += char
        size += width
    out.append(current)
    return "\r\n".join(out)


def _utc(value: dt.datetime) -> str:
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError("a calendar instant must be timezone-aware")
    return value.astimezone(dt.UTC).strftime("%Y%m%dT%H%M%SZ")


def _event_lines(item: CalendarItem, stamp: dt.datetime) -> list[str]:
    lines = ["BEGIN:VEVENT", f"UID:{escape_text(item.uid)}", f"DTSTAMP:{_utc(stamp)}"]
    if isinstance(item.start, dt.datetime):
        end = item.end or item.start + DEFAULT_DURATION
        lines += [f"DTSTART:{_utc(item.start)}", f"DTEND:{_utc(end)}"]
    else:
        lines += [
            f"DTSTART;VALUE=DATE:{item.start:%Y%m%d}",
            f"DTEND;VALUE=DATE:{item.start + dt.timedelta(days=1):%Y%m%d}",
            "TRANSP:TRANSPARENT",  # a due date, not time the reader is busy
        ]
    lines.append(f"SUMMARY:{escape_text(item.summary)}")
    if item.description:
        lines.append(f"DESCRIPTION:{escape_text(item.description)}")
    if item.location:
        lines.append(f"LOCATION:{escape_text(item.location)}")
    if item.url:
        lines.append(f"URL:{item.url}")
    if item.sequence:
        lines.append(f"SEQUENCE:{item.sequence}")
    lines.append("END:VEVENT")
    return lines


def calendar_text(
    items: Iterable[CalendarItem], *, name: str, stamp: dt.datetime, method: str | None = None
) -> str:
    """A VCALENDAR of `items`, as text with CRLF line ends. `stamp` is the instant the calendar is written
    (DTSTAMP); `method` PUBLISH for a file sent to someone (the owner's hearing), None for a feed."""
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", f"PRODID:{PRODID}", "CALSCALE:GREGORIAN"]
    if method:
        lines.append(f"METHOD:{method}")
    lines += [f"X-WR-CALNAME:{escape_text(name)}", "X-PUBLISHED-TTL:PT1H"]
    for item in items:
        lines += _event_lines(item, stamp)
    lines.append("END:VCALENDAR")
    return "".join(fold(line) + "\r\n" for line in lines)
