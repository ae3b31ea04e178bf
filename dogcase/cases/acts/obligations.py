"""The case's obligations: recomputed from the law engine by every act, with the law they were computed with,
and brought up to date by the sweep, which raises a task for each overdue one; and the completion of a task."""

from __future__ import annotations

import bisect
import datetime as dt
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.db import connection, transaction
from django.db.models import CharField, Q, Value
from django.utils import timezone

from dogcase.cases.access import require_city, staff_roles, staff_roles_for_pack_roles
from dogcase.cases.acts.core import Refused, lock_case, now, roles_text
from dogcase.cases.acts.observation import keep_observation_row, rebuild_observation_rows
from dogcase.cases.acts.waiting import KIND as WAITING_KIND
from dogcase.cases.acts.waiting import waiting_acts
from dogcase.cases.audit import append_event, jsonable
from dogcase.cases.citysettings import fingerprint as city_choices_mark
from dogcase.cases.citysettings import fingerprints as city_choices_marks
from dogcase.cases.lawchanges import take_newer_law
from dogcase.cases.models import Case, Event, Obligation, Task, case_state, jurisdiction_of, law_events
from dogcase.cases.observations import OBSERVATION_DEADLINE
from dogcase.law import CaseState, library
from dogcase.law.loader import PACKS_DIR, loaded_texts, site_packs_dir

# ------------------------------------------------------------------------------------------- obligations


def _satisfier_roles(j, on: dt.date) -> dict[str, str]:
    """deadline id -> ",role,role," of the staff roles that can take a step meeting it."""
    out: dict[str, set[str]] = {}
    for step in j.procedure(on):
        staff = staff_roles_for_pack_roles(j.id, step.roles)
        for deadline_id in step.satisfies:
            out.setdefault(deadline_id, set()).update(staff)
    return {k: "," + ",".join(sorted(v)) + "," for k, v in out.items()}


# Bump when the code that turns the engine's answer into obligation rows changes: every case is recomputed by
# the next sweep, as for a new pack.
OBLIGATION_ROWS_VERSION = "2"

_CONTENT_HASHES: dict[str, tuple[Any, str]] = {}


def _law_content_hash(j) -> str:
    """The hash of the law a jurisdiction's obligations are computed from: its packs' files (state and city)
    and the shared fact vocabulary. Read once per loaded library."""
    cached = _CONTENT_HASHES.get(j.id)
    if cached is not None and cached[0] is j:
        return cached[1]
    digest = hashlib.sha256(OBLIGATION_ROWS_VERSION.encode())
    # the texts the in_use_folders library in use was read from (not the files now: one may have been written since);
    # a library read from elsewhere, its files
    texts = loaded_texts()
    site = site_packs_dir()
    in_use_folders = {PACKS_DIR, *(PACKS_DIR / Path(layer.folder).name for layer in j.layers)}
    if site is not None:
        in_use_folders |= {site / Path(layer.folder).name for layer in j.layers}
    files = [Path(layer.folder) / "pack.yaml" for layer in j.layers]
    files.append(Path(library().root) / "facts.yaml")
    for path in files:
        text = texts.get(f"{path.parent.name}/pack.yaml" if path.name == "pack.yaml" else path.name)
        if path.parent not in in_use_folders or text is None:
            text = path.read_text(encoding="utf-8")
        digest.update(path.name.encode() + b"\0" + text.encode() + b"\0")
    value = digest.hexdigest()[:40]
    _CONTENT_HASHES[j.id] = (j, value)
    return value


def law_fingerprint(j, at: dt.datetime, choices_mark: str | None = None) -> str:
    """The law a case's obligations computed at `at` depend on: the packs' content, the city's choices of
    what its law leaves to it (City settings: `choices_mark`, read here unless given), and the stretch of
    unchanged law `at` falls in (a provision or step coming into force, or ending, starts a new stretch).
    Two computations with one fingerprint differ only by the time passing, which `Obligation.sweep_at`
    tracks."""
    days = j.procedure_change_days
    index = bisect.bisect_right(days, timezone.localtime(at, j.tz).date())
    since = days[index - 1].isoformat() if index else "start"
    mark = city_choices_mark(j.id) if choices_mark is None else choices_mark
    return f"{_law_content_hash(j)}{mark}@{since}"


def _midnight(j, day: dt.date) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(0), tzinfo=j.tz)


def _time_runs_out(j, ob) -> dt.datetime | None:
    """When the obligation's status changes by the time passing alone (the engine's `_status`): an open time
    ends after its due date or instant (overdue, or lapsed for a right); a time that may not start before a
    date becomes available on it. An overdue obligation: the instant it became overdue (its tasks). None when
    only an act can change it."""
    due = ob.due
    if due is None:
        return None
    if ob.status in ("open", "overdue"):
        if isinstance(due, dt.datetime):
            return due + dt.timedelta(microseconds=1)
        return _midnight(j, due + dt.timedelta(days=1))
    if ob.status == "not_yet":
        return due if isinstance(due, dt.datetime) else _midnight(j, due)
    return None


def recompute_obligations(
    case: Case,
    *,
    at: dt.datetime,
    state: CaseState | None = None,
    actor=None,
    existing: dict[str, Obligation] | None = None,
) -> list[dict]:
    """Bring the case's obligation rows in line with the law engine; return what changed (for the audit).
    Each row gets its `sweep_at`, and the case the instant and the law it was computed with, so that the
    sweep comes back to the case only when its time runs out or its law changes."""
    j = jurisdiction_of(case)
    state = state or case_state(case)
    computed = j.obligations(state, at)
    roles_by_deadline = _satisfier_roles(j, timezone.localtime(at).date())
    fingerprint = law_fingerprint(j, at)
    # a new law (or rows computed before their sweep_at was kept): look at the overdue ones' tasks again
    refresh = case.law_fingerprint != fingerprint
    closed = case.status == Case.Status.CLOSED  # the sweep passes over a closed case
    if existing is None:
        existing = {o.deadline_id: o for o in case.obligations.all()}
    changes: list[dict] = []
    seen = set()
    for ob in computed:
        key = ob.deadline_id or f"requirement:{ob.requirement}"
        seen.add(key)
        due_date, due_at = _due_parts(ob.due)
        detail = jsonable(
            {
                "citations": list(ob.citations),
                "consequences": list(ob.consequences),
                "rule": ob.rule,
                "notes": list(ob.notes),
                "reason": getattr(ob, "reason", "") or "",
                # the events the time is counted from, shown in the city's words for them
                "from": list(
                    dict.fromkeys(e["trigger"] for e in ob.answer.get("entries", ()) if e.get("trigger"))
                ),
            }
        )
        who_roles = roles_by_deadline.get(key, "")
        row = existing.get(key)
        fields = {
            "who": ob.who,
            "kind": ob.kind,
            "what": ob.what[:500],
            "status": ob.status,
            "due_date": due_date,
            "due_at": due_at,
            "late": bool(getattr(ob, "late", False)),
            "met_by": ob.met_by or "",
            "staff_roles": who_roles,
            "detail": detail,
        }
        sweep_at = None if closed else _time_runs_out(j, ob)
        if row is None:
            Obligation.objects.create(
                case=case,
                jurisdiction=case.jurisdiction,
                deadline_id=key,
                updated_at=at,
                sweep_at=sweep_at,
                **fields,
            )
            changes.append({"deadline": key, "old_due": None, "new_due": iso(ob.due), "status": ob.status})
            continue
        old_due = row.due_at or row.due_date
        changed = any(getattr(row, k) != v for k, v in fields.items())
        if ob.status == "overdue" and not changed and not refresh:
            sweep_at = row.sweep_at  # its tasks were raised already (None), or are still to raise
        if changed:
            if old_due != (due_at or due_date) or row.status != ob.status:
                changes.append(
                    {
                        "deadline": key,
                        "old_due": iso(old_due),
                        "new_due": iso(ob.due),
                        "old_status": row.status,
                        "status": ob.status,
                    }
                )
            for k, v in fields.items():
                setattr(row, k, v)
            row.sweep_at = sweep_at
            row.updated_at = at
            row.save()
            if actor is not None and ob.status != "overdue":
                # the act that met (or ended) the obligation also settles the tasks it had raised
                Task.objects.filter(obligation=row, done_at__isnull=True).update(done_at=at, done_by=actor)
        elif row.sweep_at != sweep_at:
            row.sweep_at = sweep_at
            row.save(update_fields=["sweep_at"])
    if not closed:
        active = {ob.deadline_id for ob in computed if ob.status in ("open", "overdue")}
        for act in waiting_acts(j, state, at, active):
            seen.add(act.deadline_id)  # an act waiting on staff (acts/waiting.py): not a clock, not audited
            _keep_waiting_act(case, existing.get(act.deadline_id), act, at)
    for deadline_id, row in existing.items():
        if deadline_id.startswith(OBSERVATION_DEADLINE):
            change = keep_observation_row(row, at)  # the rabies observation's own clock, not the law's
            if change is not None:
                changes.append(change)
            continue
        if deadline_id not in seen and row.status != "withdrawn":
            if row.kind != WAITING_KIND:
                changes.append({"deadline": deadline_id, "old_status": row.status, "status": "withdrawn"})
            row.status = "withdrawn"
            row.sweep_at = None
            row.updated_at = at
            row.save(update_fields=["status", "sweep_at", "updated_at"])
            if actor is not None:
                Task.objects.filter(obligation=row, done_at__isnull=True).update(done_at=at, done_by=actor)
    if case.obligations_at != at or case.law_fingerprint != fingerprint:
        case.obligations_at, case.law_fingerprint = at, fingerprint
        Case.objects.filter(pk=case.pk).update(obligations_at=at, law_fingerprint=fingerprint)
    return changes


def _keep_waiting_act(case: Case, row: Obligation | None, act, at: dt.datetime) -> None:
    fields = {
        "who": Obligation.Who.CITY,
        "kind": WAITING_KIND,
        "what": act.label[:500],
        "status": "open",
        "due_date": None,
        "due_at": None,
        "late": False,
        "met_by": "",
        "staff_roles": act.staff_roles,
        "detail": {
            "citations": list(act.citations),
            "consequences": [],
            "notes": [],
            "rule": "",
            "reason": "",
            "timed": act.timed,
        },
    }
    if row is None:
        Obligation.objects.create(
            case=case, jurisdiction=case.jurisdiction, deadline_id=act.deadline_id, updated_at=at, **fields
        )
    elif any(getattr(row, k) != v for k, v in fields.items()) or row.sweep_at is not None:
        for k, v in fields.items():
            setattr(row, k, v)
        row.sweep_at, row.updated_at = None, at
        row.save()


def _due_parts(due) -> tuple[dt.date | None, dt.datetime | None]:
    if due is None:
        return None, None
    if isinstance(due, dt.datetime):
        return timezone.localtime(due).date(), due
    return due, None


def iso(value) -> str | None:
    return value.isoformat() if value is not None else None


# ------------------------------------------------------------------------------------------------ sweep


@dataclass
class SweepReport:
    # the open cases of installed packs the sweep looked after (most need no work: see `recomputed`)
    cases: int = 0
    overdue: int = 0
    tasks_raised: int = 0
    changes: int = 0
    # open cases of a city whose law pack is no longer installed: no clock can be computed for them
    not_installed: int = 0
    # the cases whose obligations were computed again: a time ran out, the law changed, or --full
    recomputed: int = 0
    # of those, the cases recomputed because their law changed (a new pack, a provision coming into force)
    law_changed: int = 0

    def as_dict(self) -> dict[str, int]:
        return {
            "cases": self.cases,
            "overdue": self.overdue,
            "tasks_raised": self.tasks_raised,
            "changes": self.changes,
            "not_installed": self.not_installed,
            "recomputed": self.recomputed,
            "law_changed": self.law_changed,
        }


SWEEP_BATCH = 500


class _BatchRead:
    """What recomputing a batch of cases reads, in three queries for the batch instead of two for each case:
    their versions, their step events and their obligation rows. Read before each case's lock is taken, so a
    case an act changed since (its version moved on) is read again under the lock."""

    def __init__(self, ids: list[int]) -> None:
        self.versions = dict(Case.objects.filter(pk__in=ids).values_list("pk", "version"))
        self.events: dict[int, list[Event]] = {pk: [] for pk in ids}
        steps = Event.objects.filter(law_events(), case_id__in=ids)
        for e in steps.order_by("case_id", "seq"):
            self.events[e.case_id].append(e)
        self.obligations: dict[int, dict[str, Obligation]] = {pk: {} for pk in ids}
        for o in Obligation.objects.filter(case_id__in=ids).order_by():
            self.obligations[o.case_id][o.deadline_id] = o

    def for_case(self, case: Case) -> dict:
        if self.versions.get(case.pk) != case.version:
            return {}  # changed since the batch was read: recompute_obligations reads it itself
        return {"state": case_state(case, self.events[case.pk]), "existing": self.obligations[case.pk]}


def sweep(
    *,
    at: dt.datetime | None = None,
    jurisdiction: str | None = None,
    full: bool = False,
    progress: Callable[[str], None] | None = None,
) -> SweepReport:
    """Bring the clocks of the open cases up to `at`, mark what is overdue, and raise a staff task for each
    overdue obligation and for what the law attaches to it (e.g. "seizure authorized under (J)(1)(a)"). Safe
    to run as often as wanted: a task is raised once.

    Incremental: the acts recompute a case's obligations in their own transaction, so the sweep recomputes
    only the cases where
    - a time ran out: a row whose `sweep_at` has come (open -> overdue or lapsed, not yet -> available);
    - the law changed: the case's `law_fingerprint` is not the law in force at `at` (a new pack, or a
      provision or step coming into force); these are recomputed in batches, with `progress` told of each;
    - the rows were computed as of an instant after `at` (a sweep run for an earlier date);
    and raises the tasks of the overdue rows whose tasks are still to raise. The audit chain is locked only
    for a case it raises tasks in. `full` recomputes every open case and looks at every overdue obligation's
    tasks (what every sweep did before; for after an upgrade of dogcase's own code)."""
    at = at or now()
    report = SweepReport()
    take_newer_law()  # a pack written since this process read the packs is used (and recorded) from now on
    lib = library()
    cases = Case.objects.filter(status=Case.Status.OPEN).order_by()
    if jurisdiction:
        cases = cases.filter(jurisdiction=jurisdiction)
    installed = [j for j in lib.jurisdictions if not jurisdiction or j == jurisdiction]
    # the open cases by city and law (the report's counts, and whether any case's law is not the law in
    # force) with the count of their overdue obligations, in one statement of index ranges
    by_law, overdue_before = _open_cases_by_law(jurisdiction, installed)
    report.cases = sum(n for (jid, _), n in by_law.items() if jid in installed)
    report.not_installed = sum(n for (jid, _), n in by_law.items() if jid not in installed)
    cases = cases.filter(jurisdiction__in=installed)
    # every query below is a range of an index: the sweep's cost grows with what is due or changed
    if full:
        law_ids: list[int] = []
        other_ids = list(cases.order_by("pk").values_list("pk", flat=True))
    else:
        marks = city_choices_marks(installed)  # the cities' choices (City settings), in one query
        in_force = {jid: law_fingerprint(lib.get(jid), at, marks[jid]) for jid in installed}
        law_ids = []
        if any(jid in in_force and mark != in_force[jid] for jid, mark in by_law):
            # one seek of the (status, jurisdiction, law_fingerprint) index on either side of each
            # jurisdiction's law in force: the terms are whole, so the database ORs index ranges
            stale_law = Q(pk__in=[])
            for jid, fingerprint in in_force.items():
                for other in (Q(law_fingerprint__lt=fingerprint), Q(law_fingerprint__gt=fingerprint)):
                    stale_law |= Q(status=Case.Status.OPEN, jurisdiction=jid) & other
            law_ids = sorted(Case.objects.filter(stale_law).order_by().values_list("pk", flat=True))
        # the rows whose time has come (an overdue one has its tasks still to raise), and the open cases whose
        # rows were computed as of a later instant than this sweep's (a sweep run for an earlier date), in one
        # statement of two index ranges
        come = Obligation.objects.filter(sweep_at__lte=at).order_by().values_list("case_id", "status")
        later = cases.filter(obligations_at__gt=at).values_list("pk", Value(LATER, output_field=CharField()))
        come = list(come.union(later, all=True).order_by())
        due = {case_id for case_id, status in come if status not in ("overdue", LATER)}
        if due:
            due = set(cases.filter(pk__in=due).values_list("pk", flat=True))
        due |= {case_id for case_id, status in come if status == LATER}
        come = [(case_id, status) for case_id, status in come if status != LATER]
        other_ids = sorted(due - set(law_ids))
    report.law_changed = len(law_ids)
    if full:  # a rabies observation's row deleted behind the application's back (the city's procedure)
        report.changes += rebuild_observation_rows(at, installed)
    for ids, why in ((law_ids, "law changed"), (other_ids, "full" if full else "time ran out")):
        for start in range(0, len(ids), SWEEP_BATCH):
            batch = ids[start : start + SWEEP_BATCH]
            read = _BatchRead(batch)
            for pk in batch:
                with transaction.atomic():
                    if ids is law_ids:
                        # a new law may move the case's times: what it moved goes into the case's chain
                        # (locked first, as every act does)
                        lock_case(pk)
                    # the case's row only: an act on it waits, acts on other cases do not
                    case = Case.objects.select_for_update().select_related("incident").get(pk=pk)
                    if case.status != Case.Status.OPEN:
                        continue  # closed by an act since the selection
                    old_fingerprint = case.law_fingerprint
                    changes = recompute_obligations(case, at=at, **read.for_case(case))
                    if changes and ids is law_ids:
                        _record_law_change(case, changes, old_fingerprint, at)
                    report.changes += len(changes)
                    report.recomputed += 1
            if progress is not None and len(ids) > SWEEP_BATCH:
                progress(f"{why}: recomputed {min(start + SWEEP_BATCH, len(ids))} of {len(ids)} cases")
    overdue = Obligation.objects.filter(
        status="overdue", case__status=Case.Status.OPEN, case__jurisdiction__in=installed
    ).order_by()
    if full:
        pending = set(overdue.values_list("case_id", flat=True))
    elif report.recomputed:
        pending = set(overdue.filter(sweep_at__lte=at).values_list("case_id", flat=True))
    else:
        pending = {case_id for case_id, status in come if status == "overdue"}
    for pk in sorted(pending):
        with transaction.atomic():
            lock_case(pk)  # the case's audit chain: only for a case the sweep raises tasks in
            case = Case.objects.select_for_update().get(pk=pk)
            if case.status != Case.Status.OPEN or case.jurisdiction not in installed:
                continue
            rows = case.obligations.filter(status="overdue")
            # only the rows handled: a row an act made overdue after this sweep began (due after `at`)
            # keeps its mark for the next sweep
            handled = rows if full else rows.filter(sweep_at__lte=at)
            for ob in handled:
                report.tasks_raised += _raise_tasks(case, ob, at)
            handled.exclude(sweep_at=None).update(sweep_at=None)
    # nothing recomputed: no obligation's status moved since the open cases were counted
    report.overdue = (
        overdue_before if overdue_before is not None and not report.recomputed else overdue.count()
    )
    return report


# a row of the sweep's statement of what came due that is an open case computed as of a later instant (not a
# status of an obligation)
LATER = "later"

# The open cases by city and law, read from the (status, jurisdiction, law_fingerprint) index alone; beside them
# the overdue obligations of every case, and those of the cases that are not open (the status's ranges on
# either side of open: an index range, not a scan), both read from the (status, case) index.
OPEN_CASES_BY_LAW = """
SELECT {jurisdiction}, {law_fingerprint}, COUNT(*){overdue}
FROM {case} WHERE {status} = %s{city}
GROUP BY {jurisdiction}, {law_fingerprint}
"""
OVERDUE = """,
    (SELECT COUNT(*) FROM {obligation} WHERE {status} = %s),
    (SELECT COUNT(*) FROM {obligation} o JOIN {case} c ON c.{id} = o.{case_id}
     WHERE o.{status} = %s AND (c.{status} < %s OR c.{status} > %s))"""


def _open_cases_by_law(
    jurisdiction: str | None, installed: list[str]
) -> tuple[dict[tuple[str, str], int], int | None]:
    """{(jurisdiction, law fingerprint): open cases}, of one city when given, and the overdue obligations of
    the open cases of the installed packs: every overdue obligation but those of a case not open, in the same
    statement (one snapshot), when every open case is of an installed pack and no city is asked for; None
    otherwise (the caller counts them itself)."""
    q = connection.ops.quote_name
    names = {
        "case": q(Case._meta.db_table),
        "obligation": q(Obligation._meta.db_table),
        "id": q(Case._meta.pk.column),
        "case_id": q(Obligation._meta.get_field("case").column),
        "jurisdiction": q("jurisdiction"),
        "law_fingerprint": q("law_fingerprint"),
        "status": q("status"),
    }
    open_ = Case.Status.OPEN.value
    if jurisdiction:
        sql = OPEN_CASES_BY_LAW.format(**names, overdue="", city=f" AND {q('jurisdiction')} = %s")
        params = [open_, jurisdiction]
    else:
        overdue = OVERDUE.format(**names)
        sql = OPEN_CASES_BY_LAW.format(**names, overdue=overdue, city="")
        params = ["overdue", "overdue", open_, open_, open_]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    by_law = {(row[0], row[1]): int(row[2]) for row in rows}
    if jurisdiction or any(jid not in installed for jid, _ in by_law):
        return by_law, None
    # no open case: none of their obligations is overdue
    return by_law, (int(rows[0][3]) - int(rows[0][4]) if rows else 0)


def _record_law_change(case: Case, changes: list[dict], old_fingerprint: str, at: dt.datetime) -> None:
    """The times a change of the law in force moved, in the case's chain: why a due date moved, or a time
    ended, is on the record even though no one acted."""
    what = dict(case.obligations.values_list("deadline_id", "what"))

    def words(c: dict) -> str:
        text = what.get(c["deadline"], "a time of the case")
        if c["status"] == "withdrawn":
            return f"{text}: no longer required"
        was = f" (was {c['old_due']})" if c.get("old_due") and c.get("old_due") != c.get("new_due") else ""
        return f"{text}: due {c.get('new_due') or 'not yet known'}{was}"

    moved = "; ".join(words(c) for c in changes[:10])
    append_event(
        at=at,
        jurisdiction=case.jurisdiction,
        case=case,
        kind=Event.Kind.SYSTEM,
        act="recompute_deadlines",
        summary=f"The law in force changed; the case's times were recomputed — {moved}"[:500],
        data={"changes": changes, "law_before": old_fingerprint, "law_after": case.law_fingerprint},
    )


def _raise_tasks(case: Case, ob: Obligation, at: dt.datetime) -> int:
    """A task for the overdue obligation, and one for each act the law attaches to it; each raised once."""
    due = ob.due_at or ob.due_date
    citation = "; ".join(dict.fromkeys(c.get("citation", "") for c in ob.citations))
    who = "the owner" if ob.who == "owner" else "the city"
    base = f"{case.pk}:{ob.deadline_id}:{iso(due)}"
    items = [(base, f"Overdue since {iso(due)}: {who} had to {ob.what}", citation, ob.staff_roles)]
    for c in ob.consequences:
        cite = (c.get("provision") or {}).get("citation", "")
        key = f"{base}:{c.get('trigger') or cite}"
        items.append((key, c.get("what", ""), cite, _consequence_roles(case, c.get("act"), at)))
    raised = 0
    keys = [task_key(item[0]) for item in items]
    present = set(Task.objects.filter(key__in=keys).values_list("key", flat=True))  # one query for them all
    for key, (_long_key, text, cite, roles) in zip(keys, items, strict=True):
        if key in present:
            continue
        present.add(key)  # two of the law's consequences may come to one task
        Task.objects.create(
            case=case,
            jurisdiction=case.jurisdiction,
            obligation=ob,
            key=key,
            text=text[:500],
            citation=cite[:500],
            staff_roles=roles,
            created_at=at,
        )
        append_event(
            at=at,
            jurisdiction=case.jurisdiction,
            case=case,
            kind=Event.Kind.SYSTEM,
            act="raise_task",
            summary=f"Task raised: {text}"[:500],
            citation=cite,
            data={"task": key, "obligation": ob.deadline_id, "due": iso(due)},
        )
        raised += 1
    return raised


def task_key(key: str) -> str:
    """The key as stored (200 characters at most): a longer one (a pack's long ids) ends in its own hash, so
    that two keys cut to the same first characters stay two tasks and the check before raising one holds."""
    if len(key) <= 200:
        return key
    return f"{key[:135]}#{hashlib.sha256(key.encode()).hexdigest()}"


def _consequence_roles(case: Case, act: str | None, at: dt.datetime) -> str:
    """ ",role,role," of the staff roles who can take the act the law attaches (e.g. seize), from the pack."""
    if not act:
        return ""
    j = jurisdiction_of(case)
    pack_roles: set[str] = set()
    for step in j.procedure(timezone.localtime(at).date()):
        if step.act == act:
            pack_roles.update(step.roles)
    staff = staff_roles_for_pack_roles(j.id, pack_roles)
    return "," + ",".join(sorted(staff)) + "," if staff else ""


def complete_task(task: Task, *, actor, at: dt.datetime | None = None) -> Task:
    at = at or now()
    require_city(actor, task.jurisdiction)
    if staff_roles(actor) <= {"auditor"}:
        raise Refused(
            "Complete a task",
            [{"reason": "The auditor role is read-only.", "citation": "", "code": "read_only"}],
        )
    roles = staff_roles(actor)
    if (
        task.staff_roles
        and "administrator" not in roles
        and not any(f",{r}," in task.staff_roles for r in roles)
    ):
        raise Refused(
            "Complete a task",
            [
                {
                    "reason": "This task is for another role.",
                    "citation": task.citation,
                    "code": "not_empowered",
                }
            ],
        )
    with transaction.atomic():
        lock_case(task.case_id)
        task = Task.objects.select_for_update().get(pk=task.pk)
        if task.done_at is not None:
            return task
        task.done_at = at
        task.done_by = actor
        task.save(update_fields=["done_at", "done_by"])
        append_event(
            at=at,
            jurisdiction=task.jurisdiction,
            case=task.case,
            actor=actor,
            actor_roles=roles_text(actor),
            kind=Event.Kind.RECORD,
            act="complete_task",
            summary=f"Task done: {task.text}"[:500],
            citation=task.citation,
            data={"task": task.key},
        )
    return task
