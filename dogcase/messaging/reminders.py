"""The daily reminders: a deadline 7 and 2 days ahead (and as many days ahead as its law's `remind_days` says:
the renewal of a registration and the coverage on file, 30 days), and a deadline missed. Bounded: each query selects a
few days of the indexed due date (Obligation.due_date), so the cost grows with what falls due on those days,
never with the number of cases. Each message's key names the obligation and its due date, so a sweep run
twice in a day, or a day's reminders asked for again, sends nothing twice; a due date moved by an act gives
a new reminder for the new date."""

from __future__ import annotations

import datetime as dt
from typing import NamedTuple

from django.db import connection
from django.db.models import BooleanField, Q
from django.db.models.expressions import RawSQL
from django.utils import timezone

from dogcase.cases.models import Case, Obligation
from dogcase.law import library
from dogcase.messaging.models import Message
from dogcase.messaging.outbox import (
    message_key,
    notify,
    owner_ids_by_dog,
    owners_by_dog,
    recipient_key,
    staff_ids_of_cities,
    staff_of_cities,
)

AHEAD_DAYS = (7, 2)
# a deadline missed is told once, on the first sweep after it passed; looking back a few days covers a
# sweep that did not run (the key keeps it to once)
MISSED_LOOKBACK_DAYS = 3


def _is_right(ob: Obligation) -> bool:
    """The owner's right (a time to ask for a hearing): it lapses unused, it is not a duty that is overdue."""
    if ob.status == "lapsed":
        return True
    try:
        plan = library().get(ob.jurisdiction).deadline_plans.get(ob.deadline_id)
    except Exception:  # noqa: BLE001 - a city whose pack is not installed
        return False
    return bool(getattr(plan, "right", False))


def _context(ob: Obligation, **extra) -> dict:
    citation = "; ".join(dict.fromkeys(c.get("citation", "") for c in ob.citations if c.get("citation")))
    consequences = [
        {"what": c.get("what", ""), "citation": (c.get("provision") or {}).get("citation", "")}
        for c in ob.consequences
        if c.get("what")
    ]
    return {
        "what": ob.what,
        "due": ob.due_date.isoformat(),
        "citation": citation,
        "consequences": consequences,
        "staff_roles": ob.staff_roles,
        "right": _is_right(ob),
        **extra,
    }


def earlier_reminders() -> dict[int, set[str]]:
    """{days ahead: the deadlines reminded that many days ahead too} (a deadline's `remind_days`), over the
    installed law."""
    out: dict[int, set[str]] = {}
    lib = library()
    for jid in lib.jurisdictions:
        for did, plan in lib.get(jid).deadline_plans.items():
            for ps in plan.steps:
                for days in ps.version.effect.get("remind_days") or ():
                    if days not in AHEAD_DAYS:
                        out.setdefault(int(days), set()).add(did)
    return out


class Due(NamedTuple):
    """One obligation reminded today, as the selection reads it: what a reminder's key and recipients need.
    The obligation itself (its words, citations and consequences) is read only for a message not yet sent."""

    pk: int
    case_id: int
    dog_id: int
    jurisdiction: str
    deadline_id: str
    due_date: dt.date
    who: str
    status: str
    staff_roles: str


DUE_FIELDS = (
    "pk",
    "case_id",
    "case__dog_id",
    "jurisdiction",
    "deadline_id",
    "due_date",
    "who",
    "status",
    "staff_roles",
)


def due_today(today: dt.date):
    """The obligations reminded today (their DUE_FIELDS), in one statement on a list of days of the due-date
    index: those open and due 7 and 2 days ahead (or as many days ahead as their law's `remind_days` says), and
    those missed in the last few days (overdue, or a right that lapsed); in due-date order.

    The statement's only condition on the obligations outside an OR is its list of due dates, so that a
    database without statistics (SQLite, never ANALYZEd) reads them through the due-date index too: given a
    status beside an OR of dates, or a status beside a range of dates, it read every open (or overdue and
    lapsed) obligation of every case through the status index instead (bench/reminders_scale.py)."""
    days = [today + dt.timedelta(days=d) for d in AHEAD_DAYS]
    due = Q(due_date__in=list(days))
    for ahead_days, deadlines in sorted(earlier_reminders().items()):
        day = today + dt.timedelta(days=ahead_days)
        due |= Q(due_date=day, deadline_id__in=sorted(deadlines))
        days.append(day)
    missed_days = [today - dt.timedelta(days=d) for d in range(MISSED_LOOKBACK_DAYS, 0, -1)]
    # a "not before" date opens a time to act: nothing to remind
    ahead = Q(due, status="open") & ~Q(kind="not_before")
    missed = Q(due_date__in=missed_days, status__in=["overdue", "lapsed"])
    return (
        Obligation.objects.filter(
            ahead | missed, due_date__in=sorted({*days, *missed_days}), case__status=Case.Status.OPEN
        )
        .order_by("due_date", "pk")
        .values_list(*DUE_FIELDS)
    )


def reminder_rows(today: dt.date) -> list[Due]:
    """due_today(), a Due a row: its statement compiled once for every day (_DayStatement), then run by the
    cursor with the day's dates."""
    key = (connection.alias, tuple(sorted((d, tuple(sorted(ids))) for d, ids in earlier_reminders().items())))
    statement = _statements.get(key)
    if statement is None:
        statement = _statements[key] = _DayStatement.compile()
    if statement is None:  # the statement's words depend on the day: the ORM's own way, every day
        return [Due(*row) for row in due_today(today)]
    with connection.cursor() as cursor:
        cursor.execute(statement.sql, statement.params_for(today))
        rows = cursor.fetchall()
    due = DUE_FIELDS.index("due_date")
    return [
        Due(
            *row[:due],
            dt.date.fromisoformat(row[due]) if isinstance(row[due], str) else row[due],
            *row[due + 1 :],
        )
        for row in rows
    ]


class _DayStatement(NamedTuple):
    """due_today()'s statement, the same words every day: only its dates change, each a fixed number of days
    from the day reminded. Compiled for two days far apart, the parameters that differ are those dates (kept as
    their offsets and their type: a date, or the ISO text SQLite is given); the others are the same every day.
    Building and compiling the query took more time than running it on a city's day of reminders."""

    sql: str
    params: tuple
    offsets: dict  # index of a date parameter -> (days from the day reminded, given as text)

    REFERENCE = dt.date(2000, 1, 1)
    OTHER = dt.date(2003, 7, 1)

    @classmethod
    def compile(cls) -> _DayStatement | None:
        first, first_params = due_today(cls.REFERENCE).query.sql_with_params()
        second, second_params = due_today(cls.OTHER).query.sql_with_params()
        if first != second or len(first_params) != len(second_params):
            return None
        offsets = {}
        for index, (a, b) in enumerate(zip(first_params, second_params, strict=True)):
            if a == b:
                continue
            as_text = isinstance(a, str)
            try:
                day_a = dt.date.fromisoformat(a) if as_text else a
                day_b = dt.date.fromisoformat(b) if as_text else b
            except (TypeError, ValueError):
                return None
            if not isinstance(day_a, dt.date) or (day_a - cls.REFERENCE) != (day_b - cls.OTHER):
                return None
            offsets[index] = ((day_a - cls.REFERENCE).days, as_text)
        return cls(first, tuple(first_params), offsets)

    def params_for(self, today: dt.date) -> list:
        params = list(self.params)
        for index, (days, as_text) in self.offsets.items():
            day = today + dt.timedelta(days=days)
            params[index] = day.isoformat() if as_text else day
        return params


_statements: dict[tuple, _DayStatement | None] = {}


def _items(rows: list[Due], today: dt.date) -> list[tuple[Due, str, str, str, dict]]:
    """(row, kind, to, key, extra context) of each reminder of the day: a deadline ahead to whoever must meet
    it (the owner's yearly renewal a month ahead to the office that answers it too), a deadline missed to the
    owner or the staff (a right that lapsed unused is the owner's to be told, not the staff's)."""
    items = []
    for row in rows:
        to = "owners" if row.who == Obligation.Who.OWNER else "staff"
        if row.due_date < today:
            if to == "staff" and row.status == "lapsed":
                continue
            key = f"missed:{row.case_id}:{row.deadline_id}:{row.due_date.isoformat()}"
            items.append((row, "deadline_missed", to, key, {}))
            continue
        days = (row.due_date - today).days
        key = f"reminder:{row.case_id}:{row.deadline_id}:{row.due_date.isoformat()}:{days}"
        items.append((row, "deadline_soon", to, key, {"days": days}))
        if days not in AHEAD_DAYS and to == "owners" and row.staff_roles.strip(","):
            staff_key = f"reminder-staff:{row.case_id}:{row.deadline_id}:{row.due_date.isoformat()}:{days}"
            items.append((row, "deadline_soon", "staff", staff_key, {"days": days}))
    return items


def stored_keys(keys: list[str]) -> set[str]:
    """Which of the message keys are stored already: on PostgreSQL in one query (the keys one array: given as
    one text of lines when no key holds a line break, which the client quotes and the server reads several
    times faster than an array of as many values), elsewhere in one per 500 keys (SQLite's limit on a
    statement's values)."""
    if not keys:
        return set()
    if connection.vendor == "postgresql":
        if any("\n" in k for k in keys):
            among = RawSQL('"messaging_message"."key" = ANY(%s)', [keys], output_field=BooleanField())  # noqa: S611
        else:
            lines = "\n".join(keys)
            among = RawSQL(  # noqa: S611 - the keys are a parameter
                '"messaging_message"."key" = ANY(string_to_array(%s, E\'\\n\'))',
                [lines],
                output_field=BooleanField(),
            )
        return set(Message.objects.filter(Q(among)).order_by().values_list("key", flat=True))
    stored: set[str] = set()
    for start in range(0, len(keys), 500):
        chunk = keys[start : start + 500]
        stored.update(Message.objects.filter(key__in=chunk).order_by().values_list("key", flat=True))
    return stored


def send_reminders(at: dt.datetime | None = None) -> dict[str, int]:
    """Queue today's reminders (owners' deadlines to the owners, the city's to its staff); the counts of
    messages the day's reminders have (those sent by an earlier run of the day included).

    The day's obligations are read in one statement, the ids of the owners of all their dogs in one, the ids
    of the cities' staff in one, the messages already stored in one (one per 500 keys on SQLite); then, for
    the messages still to be written only, the owners in one, the staff in two and the obligations in one per
    500: a second sweep the same day, which has nothing new to send, costs four queries whatever the number of
    deadlines, and builds no obligation, no owner, no user and no message."""
    at = at or timezone.now()
    today = timezone.localdate(at)
    items = _items(reminder_rows(today), today)

    # who each message goes to, by id: enough for the messages' keys (the people are read below, for the
    # messages still to write only)
    owner_ids = owner_ids_by_dog({row.dog_id for row, _, to, _, _ in items if to == "owners"}, today)
    staff_ids = staff_ids_of_cities(
        sorted({(row.jurisdiction, row.staff_roles) for row, _, to, _, _ in items if to == "staff"})
    )
    recipients = []  # each item's stored keys, one a recipient
    for row, _, to, key, _ in items:
        ids = (
            owner_ids.get(row.dog_id, [])
            if to == "owners"
            else staff_ids[(row.jurisdiction, row.staff_roles)]
        )
        recipients.append([message_key(recipient_key(key, to, pk)) for pk in ids])
    # the keys of the messages stored already, not the messages: a run that has nothing new to send (a second
    # sweep the same day) builds no message in Python
    stored = stored_keys(sorted({k for keys in recipients for k in keys}))

    counts = {"deadline_soon": 0, "deadline_missed": 0}
    to_write = []
    for item, keys in zip(items, recipients, strict=True):
        if all(k in stored for k in keys):
            counts[item[1]] += len(keys)
        else:
            to_write.append(item)
    if not to_write:  # the day's reminders were all sent already: nothing more to read
        return counts
    owners = owners_by_dog({row.dog_id for row, _, to, _, _ in to_write if to == "owners"}, today)
    staff = staff_of_cities(
        sorted({(row.jurisdiction, row.staff_roles) for row, _, to, _, _ in to_write if to == "staff"})
    )
    wanted = sorted({row.pk for row, *_ in to_write})
    obligations: dict[int, Obligation] = {}
    for start in range(0, len(wanted), 500):
        obligations.update(
            (ob.pk, ob)
            for ob in Obligation.objects.filter(pk__in=wanted[start : start + 500]).select_related(
                "case", "case__dog"
            )
        )
    for row, kind, to, key, extra in to_write:
        ob = obligations[row.pk]
        people = owners.get(row.dog_id, []) if to == "owners" else staff[(row.jurisdiction, row.staff_roles)]
        context = _context(ob, **extra)
        # some of its messages are still to write: notify reads those of them stored already itself
        counts[kind] += len(notify(ob.case, kind, to=to, context=context, key=key, people=people))
    return counts
