"""The daily reminders: a deadline 7 and 2 days ahead (and as many days ahead as its law's `remind_days` says:
the renewal of a registration and the coverage on file, 30 days), and a deadline missed. Bounded: each query selects a
few days of the indexed due date (Obligation.due_date), so the cost grows with what falls due on those days,
never with the number of cases. Each message's key names the obligation and its due date, so a sweep run
twice in a day, or a day's reminders asked for again, sends nothing twice; a due date moved by an act gives
a new reminder for the new date."""

from __future__ import annotations

import datetime as dt

from django.db.models import Q
from django.utils import timezone

from dogcase.cases.models import Case, Obligation
from dogcase.law import library
from dogcase.messaging.models import Message
from dogcase.messaging.outbox import case_staff, message_key, notify, owners_by_dog, recipients_of

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


def reminder_rows(today: dt.date):
    """(ahead, missed): the obligations reminded today, each a query on a list of days of the due-date index.

    Each query's only condition on the obligations outside an OR is its list of due dates, so that a database
    without statistics (SQLite, never ANALYZEd) reads them through the due-date index too: given a status
    beside an OR of dates, or a status beside a range of dates, it read every open (or overdue and lapsed)
    obligation of every case through the status index instead (bench/reminders_scale.py)."""
    open_cases = {"case__status": Case.Status.OPEN}
    days = [today + dt.timedelta(days=d) for d in AHEAD_DAYS]
    due = Q(due_date__in=list(days))
    for ahead_days, deadlines in sorted(earlier_reminders().items()):
        day = today + dt.timedelta(days=ahead_days)
        due |= Q(due_date=day, deadline_id__in=sorted(deadlines))
        days.append(day)
    ahead = (
        Obligation.objects.filter(due, due_date__in=sorted(set(days)), status="open", **open_cases)
        .exclude(kind="not_before")  # a "not before" date opens a time to act: nothing to remind
        .select_related("case", "case__dog")
        .order_by("due_date", "pk")
    )
    missed = (
        Obligation.objects.filter(
            due_date__in=[today - dt.timedelta(days=d) for d in range(MISSED_LOOKBACK_DAYS, 0, -1)],
            status__in=["overdue", "lapsed"],
            **open_cases,
        )
        .select_related("case", "case__dog")
        .order_by("due_date", "pk")
    )
    return ahead, missed


def send_reminders(at: dt.datetime | None = None) -> dict[str, int]:
    """Queue today's reminders (owners' deadlines to the owners, the city's to its staff); the counts.

    The owners of all the day's cases are read in one query, each city's staff once per set of roles, and the
    messages already stored in one query per 500 keys: a second sweep the same day, which has nothing new to
    send, costs a few queries whatever the number of deadlines."""
    at = at or timezone.now()
    today = timezone.localdate(at)
    ahead, missed = reminder_rows(today)
    items = []  # (obligation, kind, to, key, context)
    for ob in ahead:
        days = (ob.due_date - today).days
        to = "owners" if ob.who == Obligation.Who.OWNER else "staff"
        key = f"reminder:{ob.case_id}:{ob.deadline_id}:{ob.due_date.isoformat()}:{days}"
        items.append((ob, "deadline_soon", to, key, {"days": days}))
        if days not in AHEAD_DAYS and to == "owners" and ob.staff_roles.strip(","):
            # the owner's yearly renewal, a month ahead: the office that answers it is told too
            staff_key = f"reminder-staff:{ob.case_id}:{ob.deadline_id}:{ob.due_date.isoformat()}:{days}"
            items.append((ob, "deadline_soon", "staff", staff_key, {"days": days}))
    for ob in missed:
        to = "owners" if ob.who == Obligation.Who.OWNER else "staff"
        if to == "staff" and ob.status == "lapsed":
            continue
        key = f"missed:{ob.case_id}:{ob.deadline_id}:{ob.due_date.isoformat()}"
        items.append((ob, "deadline_missed", to, key, {}))

    owners = owners_by_dog({ob.case.dog_id for ob, _, to, _, _ in items if to == "owners"}, today)
    staff: dict[tuple[str, str], list] = {}
    people = []
    for ob, _, to, _, _ in items:
        if to == "owners":
            people.append(owners.get(ob.case.dog_id, []))
        else:
            at_city = (ob.jurisdiction, ob.staff_roles)
            if at_city not in staff:
                staff[at_city] = case_staff(ob.case, ob.staff_roles)
            people.append(staff[at_city])
    wanted = {
        message_key(k)
        for (ob, _, to, key, _), who in zip(items, people, strict=True)
        for k, *_ in recipients_of(ob.case, to=to, context={}, key=key, people=who)
    }
    existing: dict[str, Message] = {}
    ordered = sorted(wanted)
    for start in range(0, len(ordered), 500):
        existing.update((m.key, m) for m in Message.objects.filter(key__in=ordered[start : start + 500]))

    counts = {"deadline_soon": 0, "deadline_missed": 0}
    for (ob, kind, to, key, extra), who in zip(items, people, strict=True):
        context = _context(ob, **extra)
        counts[kind] += len(
            notify(ob.case, kind, to=to, context=context, key=key, people=who, existing=existing)
        )
    return counts
