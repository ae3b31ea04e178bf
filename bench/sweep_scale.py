"""`make bench-sweep`: the daily sweep's time beside a raw SQL query that finds the same overdue obligations.

    .venv/bin/python bench/sweep_scale.py [N_CASES]      (default 2,000; SQLite in a throwaway directory)

`run(n_cases)` is also what a larger benchmark calls: with Django already set up (say on the statewide data
set on PostgreSQL) it measures the database it is given, adding synthetic cases only when it has fewer than
`n_cases` open cases. The synthetic cases are the demo stories (every stage of both cities' procedures,
some overdue), played through the act functions again and again, each copy shifted by a random number of
days into the past, so their clocks run out on different days.

What is measured, as medians of interleaved rounds:
- the sweep with nothing changed since the last one (the daily run on a quiet day: the target);
- the sweep after 1% of the open cases had a time run out (a row's `sweep_at` come: they are recomputed);
- the sweep of each of the next days, with the times that really run out on them;
- the raw query: one SQL statement selecting the overdue obligations of open cases from their due dates; the
  run checks that it finds the same set as the sweep leaves marked overdue;
- once, the full recompute (`sweep --full`): what every sweep did before.
Targets (issue 11): nothing changed <= 1.5x the raw query, and <= 2 s at 20,000 cases. A benchmark reports,
it does not gate: FAIL is printed, the exit status is 0. Results are also written to var/bench-sweep.json.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import random
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

ROUNDS = 7
SEED = 20261130
RATIO_TARGET = 1.5
SECONDS_TARGET_AT_20000 = 2.0


def setup_django() -> str:
    """Django on a throwaway SQLite database, unless the caller set Django up already."""
    from django.conf import settings

    if settings.configured:
        import django

        django.setup()
        return "the configured database"
    os.environ.setdefault("DOGCASE_VAR_DIR", tempfile.mkdtemp(prefix="dogcase-bench-sweep-"))
    os.environ.pop("DATABASE_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DOGCASE_DEMO_PASSWORD", secrets.token_urlsafe(18))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from django.db import connection

    with connection.cursor() as cur:  # a throwaway database: no need to wait for the disk at each act
        cur.execute("PRAGMA synchronous = OFF")
        cur.execute("PRAGMA journal_mode = WAL")
    return f"SQLite in {os.environ['DOGCASE_VAR_DIR']}"


def build(n_cases: int, rnd: random.Random) -> int:
    """Play the demo stories, shifted into the past, until there are `n_cases` open cases."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from dogcase import demo
    from dogcase.cases.models import Case
    from dogcase.demo import dates

    users = {u.username: u for u in get_user_model().objects.all()}
    if "officer" not in users:
        call_command("seed_demo", stdout=open(os.devnull, "w"))  # noqa: SIM115 - the demo users and stories
        users = {u.username: u for u in get_user_model().objects.all()}
    original = dates.local
    made = 0
    started = time.perf_counter()
    rounds = 0
    try:
        while (have := Case.objects.filter(status=Case.Status.OPEN).count()) < n_cases:
            shift = rnd.randint(0, 90)
            rounds += 1
            dates.local = lambda days_ago, hour=10, shift=shift: original(days_ago + shift, hour)
            for city, stories in demo.STORIES.items():
                for story in stories():
                    demo.play(city, _own_rooms(story, rounds), users)
                    made += 1
            if made and made % 200 < 20:
                rate = made / (time.perf_counter() - started)
                print(f"  built {have} open cases ({rate:.0f} cases/s)", file=sys.stderr, flush=True)
    finally:
        dates.local = original
    return made


def _own_rooms(story, copy: int):
    """The story with its hearings in rooms of this copy's own: one room holds one hearing at a time
    (cases/hearings.py), and two copies (or two stories) shifted onto the same hour would be refused."""
    story.steps = [
        (sid, who, days, {**inputs, "place": f"{inputs['place']} (copy {copy})"})
        if "hearing_at" in inputs and inputs.get("place")
        else (sid, who, days, inputs)
        for sid, who, days, inputs in story.steps
    ]
    return story


RAW_SQL = """
SELECT o.id FROM cases_obligation o JOIN cases_case c ON c.id = o.case_id
WHERE c.status = 'open' AND o.status IN ('open', 'overdue') AND o.kind = 'due' AND o.met_by = ''
  AND o.deadline_id NOT IN %(rights)s
  AND (o.due_at < %(at)s OR (o.due_at IS NULL AND o.due_date < %(today)s))
"""


def _rights() -> tuple[str, ...]:
    """The deadlines that are the owner's rights (a right left unused lapses; it is never overdue)."""
    from dogcase.law import library

    out = set()
    for j in library().jurisdictions.values():
        for did, plan in j.deadline_plans.items():
            if plan.right:
                out.add(did)
    return tuple(sorted(out)) or ("",)


def raw_overdue(at: dt.datetime) -> set[int]:
    """The overdue obligations from their due dates alone, in one SQL statement (Minnesota's day)."""
    from zoneinfo import ZoneInfo

    from django.db import connection

    today = at.astimezone(ZoneInfo("America/Chicago")).date()
    sql = RAW_SQL.replace("%(rights)s", "(" + ", ".join(["%s"] * len(_rights())) + ")")
    sql = sql.replace("%(at)s", "%s").replace("%(today)s", "%s")
    with connection.cursor() as cur:
        cur.execute(sql, [*_rights(), at, today])
        return {row[0] for row in cur.fetchall()}


def _median_ms(values: list[float]) -> float:
    return statistics.median(values) * 1000


def run(n_cases: int = 2000, rounds: int = ROUNDS, full_recompute: bool = True) -> dict:
    where = setup_django()
    from django.db import connection
    from django.utils import timezone

    from dogcase.cases import acts
    from dogcase.cases.models import Case, Obligation

    rnd = random.Random(SEED)  # noqa: S311 - a reproducible workload, not a secret
    t0 = time.perf_counter()
    made = build(n_cases, rnd)
    build_s = time.perf_counter() - t0
    open_cases = Case.objects.filter(status=Case.Status.OPEN).count()
    now = timezone.now().replace(microsecond=0)
    acts.sweep(at=now)  # bring every case up to now (the build's acts ran in the past)

    def timed_sweep(at):
        start = time.perf_counter()
        report = acts.sweep(at=at)
        return time.perf_counter() - start, report

    def counted_sweep(at):
        queries = []

        def count(execute, sql, params, many, context):
            queries.append(sql)
            return execute(sql, params, many, context)

        with connection.execute_wrapper(count):
            report = acts.sweep(at=at)
        return report, len(queries)

    def timed_raw(at):
        start = time.perf_counter()
        found = raw_overdue(at)
        return time.perf_counter() - start, found

    quiet, quiet_queries, raw, one_pct, one_pct_n = [], [], [], [], []
    at = now
    for i in range(rounds):
        at = now + dt.timedelta(seconds=i + 1)  # no time runs out within seconds of the last sweep
        took_raw, _ = timed_raw(at)
        took, report = timed_sweep(at)
        if report.recomputed:  # a time ran out in this very second: not a quiet round
            continue
        quiet.append(took)
        quiet_queries.append(counted_sweep(at)[1])
        raw.append(took_raw)
        # 1% of the open cases have a time run out: their recompute is what the next sweep does
        ids = list(Case.objects.filter(status=Case.Status.OPEN).values_list("pk", flat=True))
        chosen = rnd.sample(ids, max(1, len(ids) // 100))
        first = {}
        for case_id, ob_id in (
            Obligation.objects.filter(case_id__in=chosen)
            .exclude(status="overdue")
            .order_by("case_id", "id")
            .values_list("case_id", "id")
        ):
            first.setdefault(case_id, ob_id)
        Obligation.objects.filter(pk__in=first.values()).update(sweep_at=at)
        took, report = timed_sweep(at + dt.timedelta(milliseconds=500))
        one_pct.append(took)
        one_pct_n.append(report.recomputed)

    # the next days, with what really runs out on them (each day once: sweeping changes the state)
    days = []
    for day in range(1, 6):
        day_at = now + dt.timedelta(days=day)
        took, report = timed_sweep(day_at)
        queries = counted_sweep(day_at)[1]
        days.append({"day": day, "ms": took * 1000, "recomputed": report.recomputed, "queries": queries})
    last = now + dt.timedelta(days=5, seconds=1)
    acts.sweep(at=last)
    stored = set(
        Obligation.objects.filter(status="overdue", case__status=Case.Status.OPEN).values_list(
            "pk", flat=True
        )
    )
    same_set = raw_overdue(last) == stored

    full_ms = None
    if full_recompute:
        start = time.perf_counter()
        acts.sweep(at=last, full=True)
        full_ms = (time.perf_counter() - start) * 1000

    result = {
        "database": where if connection.vendor != "postgresql" else "PostgreSQL",
        "vendor": connection.vendor,
        "open_cases": open_cases,
        "obligations": Obligation.objects.count(),
        "built_cases": made,
        "build_s": round(build_s, 1),
        "rounds": len(quiet),
        "sweep_quiet_ms": _median_ms(quiet),
        "sweep_quiet_queries": statistics.median(quiet_queries),
        "sweep_1pct_ms": _median_ms(one_pct),
        "sweep_1pct_recomputed": statistics.median(one_pct_n),
        "raw_query_ms": _median_ms(raw),
        "ratio_quiet_to_raw": _median_ms(quiet) / _median_ms(raw),
        "next_days": days,
        "overdue": len(stored),
        "same_set": same_set,
        "full_recompute_ms": full_ms,
    }
    print_table(result)
    return result


def print_table(r: dict) -> None:
    ok = r["ratio_quiet_to_raw"] <= RATIO_TARGET and r["same_set"]
    print(f"sweep at {r['open_cases']:,} open cases, {r['obligations']:,} obligations ({r['database']})")
    print(f"  medians of {r['rounds']} interleaved rounds")
    print(f"  {'':34} {'ms':>9}  {'x raw':>6}")
    rows = [
        ("raw SQL: the overdue obligations", r["raw_query_ms"]),
        (f"sweep, nothing changed ({r['sweep_quiet_queries']:.0f} queries)", r["sweep_quiet_ms"]),
        (f"sweep, 1% changed ({r['sweep_1pct_recomputed']:.0f} cases)", r["sweep_1pct_ms"]),
    ]
    if r["full_recompute_ms"] is not None:
        rows.append(("full recompute (sweep --full)", r["full_recompute_ms"]))
    for label, ms in rows:
        print(f"  {label:34} {ms:9.1f}  {ms / r['raw_query_ms']:6.1f}")
    for d in r["next_days"]:
        label = f"sweep of day +{d['day']} ({d['recomputed']} cases due)"
        print(f"  {label:34} {d['ms']:9.1f}  {d['ms'] / r['raw_query_ms']:6.1f}")
    print(f"  raw query and sweep find the same {r['overdue']} overdue obligations: {r['same_set']}")
    verdict = "ok" if ok else "FAIL"
    print(
        f"  target: nothing changed <= {RATIO_TARGET}x the raw query: {r['ratio_quiet_to_raw']:.2f}x {verdict}"
    )


def main() -> int:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    result = run(n)
    out = ROOT / "var" / "bench-sweep.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(result, indent=2, default=str) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
