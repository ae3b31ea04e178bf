"""A city's figures over a period, as plain data: each table says what it counts, its rows and its columns.

Every figure is a few aggregate queries bounded by the city and the period (GROUP BY in the database, through
the indexed columns: the case's city and opening day, the obligation's due date, the event's city), never a
walk over every case: a report runs QUERIES queries, whatever the number of cases.

The period is inclusive: from the first day at midnight to the end of the last day, in Minnesota time.
"""

from __future__ import annotations

import datetime as dt
import re
import statistics
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import Case as Choose
from django.db.models import CharField, Count, F, Min, Sum, Value, When
from django.db.models.fields.json import KT
from django.db.models.functions import Cast, Left, StrIndex

from dogcase.cases.models import Case, Event, Obligation
from dogcase.cases.pages import humanize
from dogcase.cases.roles import ROLES_BY_GROUP
from dogcase.law import library
from dogcase.law.clock import MINNESOTA_TZ
from dogcase.law.procedure import past_tense
from dogcase.money.models import Charge, Entry

# How many queries one report runs (the tests hold it to this, with few cases and with many).
QUERIES = 10

# The kinds of act (a step's `act:` in the law pack) each figure reads; the step ids come from the city's pack.
DECLARING = ("declare", "classify")
REQUESTING = ("receive_hearing_request",)
DECIDING = ("decide_appeal", "order_destruction")
SEIZING = ("seize", "impound")
SEIZURE_OUTCOMES = (
    ("release", "Released to the owner"),
    ("dispose", "Disposed of (not reclaimed)"),
    ("destroy", "Destroyed"),
)

# Obligation statuses, as counted: a duty met on time or late, a duty whose time ran out unmet, and an owner's
# right whose time ran out unused (a choice the law gives the owner, not a failure of anyone's).
ON_TIME, LATE, MISSED, UNUSED = (
    "Met on time",
    "Met late",
    "Missed (due date passed, not met)",
    "Right not used",
)
OBLIGATION_COLUMNS = (ON_TIME, LATE, MISSED, UNUSED)


class PeriodError(ValueError):
    """A period the report cannot cover; the message names the field and the rule."""

    def __init__(self, field_name: str, message: str) -> None:
        super().__init__(message)
        self.field = field_name


@dataclass(frozen=True)
class Table:
    """One figure: its rows (a label, then one number per column), what it counts, and how to chart it.
    `labels` is how many leading columns are text (a row's label, and a citation where there is one); the
    columns in `series` are drawn, stacked when there are several."""

    id: str
    title: str
    counts: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    labels: int = 1
    series: tuple[str, ...] = ()
    unit: str = ""
    notes: tuple[str, ...] = ()

    def chart_rows(self) -> list[tuple[str, list[float]]]:
        """Each row's label and its values in `series`, as numbers (a median not known is 0)."""
        idx = [self.columns.index(c) for c in self.series]
        return [(str(r[0]), [float(r[i] or 0) for i in idx]) for r in self.rows]


@dataclass(frozen=True)
class Report:
    city: str
    city_name: str
    start: dt.date
    end: dt.date
    tables: tuple[Table, ...] = field(default_factory=tuple)

    def table(self, table_id: str) -> Table | None:
        return next((t for t in self.tables if t.id == table_id), None)


TABLE_IDS = ("cases", "stages", "obligations", "deadlines", "timeliness", "hearings", "seizures", "money")


def parse_period(start: str | None, end: str | None, *, today: dt.date) -> tuple[dt.date, dt.date]:
    """The period from the page's `from` and `to` (YYYY-MM-DD, inclusive); missing ones default to the year
    to date. Raises PeriodError naming the field and the rule."""
    first = _day("from", start) or dt.date(today.year, 1, 1)
    last = _day("to", end) or today
    if first > last:
        raise PeriodError("from", "The “From” date must be on or before the “To” date.")
    if (last - first).days > 366 * 10:
        raise PeriodError("to", "A report covers at most ten years: choose a shorter period.")
    return first, last


def _day(name: str, value: str | None) -> dt.date | None:
    value = (value or "").strip()
    if not value:
        return None
    words = "“From”" if name == "from" else "“To”"
    try:
        day = dt.date.fromisoformat(value)
    except ValueError:
        raise PeriodError(
            name, f"The {words} date must be a real date written YYYY-MM-DD, e.g. 2026-01-31."
        ) from None
    if not 1900 <= day.year <= 2200:
        raise PeriodError(name, f"The {words} date must fall between the years 1900 and 2200.")
    return day


def _bounds(start: dt.date, end: dt.date) -> tuple[dt.datetime, dt.datetime]:
    """The period as instants: from the first day's midnight to the midnight after the last day (excluded)."""
    return (
        dt.datetime.combine(start, dt.time(), tzinfo=MINNESOTA_TZ),
        dt.datetime.combine(end + dt.timedelta(days=1), dt.time(), tzinfo=MINNESOTA_TZ),
    )


def _steps(j, start: dt.date, end: dt.date) -> dict[str, Any]:
    """The city's steps in force on the first or the last day of the period, by id."""
    out: dict[str, Any] = {}
    for day in (start, end):
        for step in j.procedure(day):
            out.setdefault(step.id, step)
    return out


def _ids(steps: dict[str, Any], kinds: tuple[str, ...]) -> list[str]:
    return sorted(s.id for s in steps.values() if s.act in kinds)


def stage_group(stage: str) -> str:
    """Where a case stands, in a clerk's words, without the particulars in brackets ("The city seized the
    dog (ground: ...)" -> "The city seized the dog"), so that one kind of act is one row."""
    if not stage or stage == "Case opened":
        return "Incident recorded, not yet decided"
    words = re.sub(r"\s*\([^)]*\)\s*$", "", stage).strip()
    if words.split(" ", 1)[0].lower() in ("the", "a", "an", "moved"):
        return words
    return past_tense(words).removeprefix("Recorded: ")


def report(city: str, start: dt.date, end: dt.date) -> Report:
    """The city's figures from `start` to `end` (both days included)."""
    j = library().get(city)
    steps = _steps(j, start, end)
    since, until = _bounds(start, end)
    events = Event.objects.filter(
        jurisdiction=city, kind=Event.Kind.STEP, case__isnull=False, at__gte=since, at__lt=until
    )
    tables = [
        *_cases_tables(j, city, since, until),
        *_obligation_tables(j, city, start, end),
        _timeliness_table(events, steps, city),
        _hearings_table(events, steps),
        _seizures_table(events, steps),
        _money_table(city, start, end),
    ]
    name = j.name.removeprefix("City of ").removesuffix(", Minnesota")
    return Report(city=city, city_name=name, start=start, end=end, tables=tuple(tables))


def _cases_tables(j, city: str, since: dt.datetime, until: dt.datetime) -> list[Table]:
    grouped = (
        Case.objects.filter(jurisdiction=city, opened_at__gte=since, opened_at__lt=until)
        .order_by()
        .values_list("designation", "status", "stage")
        .annotate(n=Count("id"))
    )
    by_designation: dict[str, list[int]] = {}
    by_stage: dict[str, int] = {}
    for designation, status, stage, n in grouped:
        label = _designation_label(j, designation)
        row = by_designation.setdefault(label, [0, 0])
        row[0 if status == Case.Status.OPEN else 1] += n
        by_stage[stage_group(stage)] = by_stage.get(stage_group(stage), 0) + n
    cases = Table(
        id="cases",
        title="Cases opened, by designation",
        counts=(
            "Cases opened in the period (the day the case was opened), by the designation each carries today; "
            "“Not declared” is a case not (or not yet) declared. Open or closed as of today."
        ),
        columns=("Designation", "Open", "Closed", "Total"),
        rows=tuple((label, o, c, o + c) for label, (o, c) in sorted(by_designation.items())),
        series=("Open", "Closed"),
        unit="cases",
    )
    stages = Table(
        id="stages",
        title="Where those cases stand today",
        counts="The same cases opened in the period, by the last act recorded on each (its stage today).",
        columns=("Stage", "Cases"),
        rows=tuple(sorted(by_stage.items(), key=lambda kv: (-kv[1], kv[0]))),
        series=("Cases",),
        unit="cases",
    )
    return [cases, stages]


def _designation_label(j, designation: str) -> str:
    if not designation:
        return "Not declared"
    d = j.designations.get(designation)
    return d.label if d is not None else humanize(designation)


# A deadline the city's procedure numbers per record ("rabies_observation:12", one per observation) is one
# deadline of the law: its number is dropped, in the database, so that it groups as one row.
NUMBERED_DEADLINE = r"^[a-z_.]+:[0-9]+$"
DEADLINE_OF_LAW = Choose(
    When(
        deadline_id__regex=NUMBERED_DEADLINE,
        then=Left("deadline_id", StrIndex("deadline_id", Value(":")) - 1),
    ),
    default=F("deadline_id"),
    output_field=CharField(),
)


def _obligation_tables(j, city: str, start: dt.date, end: dt.date) -> list[Table]:
    grouped = list(
        Obligation.objects.filter(
            jurisdiction=city, due_date__gte=start, due_date__lte=end, status__in=("met", "overdue", "lapsed")
        )
        .order_by()
        .annotate(deadline=DEADLINE_OF_LAW)
        .values_list("who", "staff_roles", "deadline", "case__designation", "status", "late")
        .annotate(n=Count("id"), sample=Min("id"))
    )
    samples = {
        o.pk: o
        for o in Obligation.objects.filter(id__in=[g[-1] for g in grouped]).only(
            "deadline_id", "what", "detail"
        )
    }
    by_role: dict[str, list[int]] = {}
    # one row per deadline and designation: the same deadline is set by other provisions (and said in other
    # words) for a potentially dangerous dog and a dangerous one; a numbered deadline is one row
    by_deadline: dict[tuple[str, str], list[int]] = {}
    sample_of: dict[tuple[str, str], int] = {}
    for who, roles, deadline_id, designation, status, late, n, sample in grouped:
        column = _obligation_column(status, late)
        for role in _role_words(who, roles):
            by_role.setdefault(role, [0, 0, 0, 0])[column] += n
        key = (deadline_id, "" if samples[sample].deadline_id != deadline_id else designation)
        by_deadline.setdefault(key, [0, 0, 0, 0])[column] += n
        sample_of[key] = min(sample_of.get(key, sample), sample)
    role_order = ["Owner", *(r.label for r in ROLES_BY_GROUP.values())]
    roles = Table(
        id="obligations",
        title="Deadlines met on time and late, by who must act",
        counts=(
            "Obligations whose due date fell in the period: met on time, met late, missed (the due date passed "
            "and it is not met), or — for an owner's right, such as asking for a hearing — not used. "
            "A city obligation counts under each staff role that may meet it; withdrawn obligations and those "
            "still open are not counted."
        ),
        columns=("Who must act", *OBLIGATION_COLUMNS),
        rows=tuple(
            (role, *counts)
            for role, counts in sorted(
                by_role.items(), key=lambda kv: role_order.index(kv[0]) if kv[0] in role_order else 99
            )
        ),
        series=OBLIGATION_COLUMNS,
        unit="obligations",
    )
    deadlines = Table(
        id="deadlines",
        title="Each deadline, with the law that sets it",
        counts=(
            "The same obligations, one row per deadline of the law (and per designation, where the law sets it "
            "apart), with the provisions that set it as stored on the obligation when it was computed."
        ),
        columns=("Deadline", "Citation", *OBLIGATION_COLUMNS),
        rows=_deadline_rows(
            j, {key: (samples[sample_of[key]], counts) for key, counts in by_deadline.items()}
        ),
        labels=2,
        series=OBLIGATION_COLUMNS,
        unit="obligations",
    )
    return [roles, deadlines]


def _deadline_rows(j, found: dict[tuple[str, str], tuple[Obligation, list[int]]]) -> tuple[tuple, ...]:
    """One row per deadline (and designation): its words, its citations, its counts; words that two rows
    share (the same deadline for two designations) name the designation."""
    words = {key: _deadline_words(sample, key[0]) for key, (sample, _counts) in found.items()}
    seen = Counter(what for what, _citation in words.values())
    rows = []
    for key, (_sample, counts) in found.items():
        what, citation = words[key]
        if seen[what] > 1 and key[1]:
            what = f"{what} ({_designation_label(j, key[1]).lower()})"
        rows.append((what, citation, *counts))
    return tuple(sorted(rows, key=lambda r: (-sum(r[2:]), r[0])))


def _obligation_column(status: str, late: bool) -> int:
    if status == "met":
        return 1 if late else 0
    return 2 if status == "overdue" else 3


def _role_words(who: str, roles: str) -> list[str]:
    if who == Obligation.Who.OWNER:
        return ["Owner"]
    names = [ROLES_BY_GROUP[r].label if r in ROLES_BY_GROUP else humanize(r) for r in roles.split(",") if r]
    return names or ["The city (no staff role named)"]


def _deadline_words(sample: Obligation, deadline_id: str) -> tuple[str, str]:
    citations = "; ".join(dict.fromkeys(c.get("citation", "") for c in sample.citations if c.get("citation")))
    if (
        sample.deadline_id != deadline_id
    ):  # one of a numbered kind: its words name one dog, the row all of them
        return humanize(deadline_id), citations
    what = sample.what[:1].upper() + sample.what[1:]
    return what, citations


def _law_day(law_date: str | None, at: dt.datetime) -> dt.date:
    """The act's legal date as recorded (the day it took effect), else the day it was recorded."""
    if law_date:
        try:
            return dt.date.fromisoformat(str(law_date)[:10])
        except ValueError:
            pass
    return at.astimezone(MINNESOTA_TZ).date()


def _timeliness_table(events, steps: dict[str, Any], city: str) -> Table:
    law_date = Cast(KT("data__law_date"), output_field=CharField())
    declared = events.filter(act__in=_ids(steps, DECLARING)).values_list(
        law_date, "at", "case__incident__occurred_at"
    )
    to_declaration = [
        (_law_day(day, at) - occurred.astimezone(MINNESOTA_TZ).date()).days for day, at, occurred in declared
    ]
    decisions = list(events.filter(act__in=_ids(steps, DECIDING)).values_list("case_id", law_date, "at"))
    requests: dict[int, list[dt.date]] = {}
    for case_id, day, at in (
        Event.objects.filter(
            jurisdiction=city,
            kind=Event.Kind.STEP,
            act__in=_ids(steps, REQUESTING),
            case_id__in=events.filter(act__in=_ids(steps, DECIDING)).values("case_id"),
        )
        .order_by()
        .values_list("case_id", law_date, "at")
    ):
        requests.setdefault(case_id, []).append(_law_day(day, at))
    to_decision = []
    for case_id, day, at in decisions:
        decided = _law_day(day, at)
        before = [r for r in requests.get(case_id, []) if r <= decided]
        if before:
            to_decision.append((decided - max(before)).days)
    rows = (
        ("From the incident to the declaration", *_spread(to_declaration)),
        ("From the owner's request for a hearing to the decision", *_spread(to_decision)),
    )
    return Table(
        id="timeliness",
        title="How long it took (median days)",
        counts=(
            "Declarations (or classifications) made in the period: days from the day of the incident to the "
            "day of the declaration. Hearing decisions made in the period: days from the day the city received "
            "the owner's latest request for a hearing on the case before the decision, to the day of the "
            "decision. Calendar days; the median is the middle value."
        ),
        columns=("Interval", "Median days", "Shortest", "Longest", "Counted"),
        rows=rows,
        series=("Median days",),
        unit="days",
    )


def _spread(days: list[int]) -> tuple[Any, Any, Any, int]:
    if not days:
        return "", "", "", 0
    median = statistics.median(days)
    return (int(median) if median == int(median) else median), min(days), max(days), len(days)


def _hearings_table(events, steps: dict[str, Any]) -> Table:
    outcome = Cast(KT("data__outcome"), output_field=CharField())
    grouped = (
        events.filter(act__in=_ids(steps, DECIDING))
        .order_by()
        .values_list("act", outcome)
        .annotate(n=Count("id"))
    )
    rows = []
    for act, result, n in grouped:
        step = steps.get(act)
        label = step.label if step is not None else humanize(act)
        rows.append((f"{label} — {humanize(result).lower() if result else 'outcome not recorded'}", n))
    return Table(
        id="hearings",
        title="Hearing decisions, by outcome",
        counts=(
            "Decisions after a hearing recorded in the period (on a designation, a classification, an "
            "impoundment or a destruction), by their outcome."
        ),
        columns=("Decision and outcome", "Decisions"),
        rows=tuple(sorted(rows)),
        series=("Decisions",),
        unit="decisions",
    )


def _seizures_table(events, steps: dict[str, Any]) -> Table:
    kinds = {"seize": "Dogs seized or impounded", **dict(SEIZURE_OUTCOMES)}
    act_kind = {
        s.id: ("seize" if s.act in SEIZING else s.act) for s in steps.values() if s.act in (*SEIZING, *kinds)
    }
    counts = dict.fromkeys(kinds.values(), 0)
    for act, n in events.filter(act__in=list(act_kind)).order_by().values_list("act").annotate(n=Count("id")):
        counts[kinds[act_kind[act]]] += n
    return Table(
        id="seizures",
        title="Seizures and what became of the dogs",
        counts=(
            "Seizures and impoundments recorded in the period, and the releases, dispositions and "
            "destructions recorded in the period (a dog seized in one period may be released in the next)."
        ),
        columns=("What happened", "Dogs"),
        rows=tuple(counts.items()),
        series=("Dogs",),
        unit="dogs",
    )


def _money_table(city: str, start: dt.date, end: dt.date) -> Table:
    charged = (
        Charge.objects.filter(jurisdiction=city, starts_on__gte=start, starts_on__lte=end)
        .order_by()
        .aggregate(n=Count("id"), total=Sum("amount"))
    )
    entries = {
        kind: (n, total)
        for kind, n, total in Entry.objects.filter(jurisdiction=city, on__gte=start, on__lte=end)
        .order_by()
        .values_list("kind")
        .annotate(n=Count("id"), total=Sum("amount"))
    }
    rows = [("Charges incurred", charged["n"], _dollars(charged["total"]))]
    for kind, label in (
        (Entry.Kind.PAYMENT, "Payments received"),
        (Entry.Kind.REFUND, "Refunds given"),
        (Entry.Kind.WAIVER, "Waived by the council"),
        (Entry.Kind.CANCELLATION, "Charges cancelled as recorded in error"),
    ):
        n, total = entries.get(kind, (0, None))
        rows.append((label, n, _dollars(total)))
    return Table(
        id="money",
        title="Money",
        counts=(
            "Charges that began in the period (a fee, a cost of care), and payments, refunds, waivers and "
            "cancellations dated in the period. A daily charge still running has no amount until it ends."
        ),
        columns=("Entry", "Number", "Amount ($)"),
        rows=tuple(rows),
        unit="dollars",
    )


def _dollars(amount: Decimal | None) -> str:
    return f"{(amount or Decimal(0)):.2f}"
