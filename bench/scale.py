"""`make bench-scale`: dogcase at statewide scale, on its own PostgreSQL cluster, measured side by side.

1. Starts a PostgreSQL cluster of its own (scripts/pg.sh with DOGCASE_PG_PORT=54344,
   DOGCASE_PG_DIR=/tmp/dogcase-pg-scale, kept between runs) and builds the data set with
   `manage.py seed_scale` into a database named after its parameters and the migrations. A database already
   seeded with the same parameters is reused; each run works on a fresh copy of it (CREATE DATABASE ...
   TEMPLATE), so every run starts from the same rows.
2. The daily sweep (`dogcase sweep --at T`, in this process, with the day's reminders it sends) once to catch
   up, five times with nothing changed (the median), and once after an act on 1% of the cases, each beside
   the raw SQL queries of the same sets at the same instant T: the overdue obligations (the two sets must be
   equal) and the obligations the day reminds of (bench/reminders_scale.py's raw statement).
3. The reminders of the day (bench/reminders_scale.py's `run`, on this data set, nothing built): a share of
   the obligations moved onto today's reminder distances, then `reminder_rows` and `send_reminders` on a day
   already sent beside one raw SQL statement that finds the same obligations (the sets must be equal), with
   their query counts.
4. Pages by URL through Django's test Client, logged in as the demo user of each role: every role's dashboard,
   then (as the officer) the case, dog, person and incident pages, the lists (their first page, and a page
   90% into each, reached by its cursor as the page's own links reach it and checked to show the rows at that
   depth), search (the most common surname and dog name of the cities) and the Law page: p50/p95 server
   time, bytes, queries; beside each, two floors measured in the same run: the raw SQL of its main query
   through the same connection, and an empty staff view through the same client and middleware
   (bench/scale_pages.py). The method (client, requests, caches, when the tables were analyzed) is printed
   with the table.
5. A year's report per city (busiest first): the year that ends on the day the city's last case was opened
   (the seeded cases are opened over the year and a bit before the day they were seeded), with the number of
   cases it holds. `figures.report` in this process, the report page and the annual PDF (of that last day's
   calendar year) by URL as the demo clerk: p50/p95 server time, queries, bytes; beside them two floors, the
   counts of the rows the report reads as one raw SQL statement and the same page over a year with nothing in
   it. The report's own totals must equal the raw counts (cases opened, obligations counted).
6. Acts per second with 1, 4 and 8 writers (bench/scale_writers.py), each in its own process, on its own
   cases (open a case for an incident, then declare or classify the dog). Beside each, what the machine's
   CPUs did while they wrote (/proc/stat between the first writer's start and the last one's end): how busy
   they were, and how much of it was the writers' own processes (the rest is PostgreSQL and whatever else
   runs). When the CPUs are busy through the whole phase, more writers cannot go faster: they share the same
   CPUs.

Prints a table and writes var/bench-scale.json. Reports, never gates: the exit status is 0 unless the run
itself fails (the sweep, the reminders or a report disagreeing with its raw query is a failure).
`scripts/pg.sh stop` with the same DOGCASE_PG_PORT/DOGCASE_PG_DIR removes the cluster and its cached data
sets.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import datetime as dt
import hashlib
import io
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import reminders_scale, scale_pages, scale_writers  # noqa: E402 - after the path above, for `python bench/scale.py`
from bench.scale_pages import (  # noqa: E402, F401 - ROLE_USERS: bench/scale.py's own name for them
    ROLE_USERS,
    counting,
    measure_page,
    measure_pages,
    timed_reps,
)

PG_PORT = os.getenv("DOGCASE_PG_PORT", "54344")
PG_DIR = os.getenv("DOGCASE_PG_DIR", "/tmp/dogcase-pg-scale")  # noqa: S108 - a throwaway local cluster
RUN_DB = "dogcase_scale_run"

# ------------------------------------------------------------------------------------------ the database


def pg_env() -> dict[str, str]:
    return {**os.environ, "DOGCASE_PG_PORT": PG_PORT, "DOGCASE_PG_DIR": PG_DIR, "DOGCASE_PG_KEEP": "1"}


def start_cluster() -> None:
    subprocess.run(
        [str(ROOT / "scripts" / "pg.sh"), "start"], env=pg_env(), check=True, stdout=subprocess.DEVNULL
    )


def db_url(name: str) -> str:
    return f"postgres://dogcase@127.0.0.1:{PG_PORT}/{name}"


def admin():
    import psycopg

    return psycopg.connect(f"postgresql://postgres@127.0.0.1:{PG_PORT}/postgres", autocommit=True)


INDEX_OPERATIONS = frozenset({"AddIndex", "RemoveIndex", "RenameIndex"})


def index_only(path: Path) -> bool:
    """Whether a migration only adds, removes or renames indexes: it shapes no row of a data set (the data set
    is migrated to it when reused, not built again)."""
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "operations" for t in node.targets):
            ops = node.value.elts if isinstance(node.value, ast.List) else None
            if not ops:
                return False
            names = [
                getattr(op.func, "attr", getattr(op.func, "id", "")) if isinstance(op, ast.Call) else ""
                for op in ops
            ]
            return all(name in INDEX_OPERATIONS for name in names)
    return False


def seeded_name(args) -> str:
    """The cached data set's database: its parameters, and a digest of the code that shapes its rows (the
    migrations but those of indexes alone, and the seeding code)."""
    digest = hashlib.sha256()
    migrations = sorted(p for p in (ROOT / "dogcase").glob("*/migrations/*.py") if not index_only(p))
    for path in [*migrations, ROOT / "dogcase/demo/scale.py"]:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return f"scale_d{args.dogs}_i{args.incidents}_c{args.cases}_s{args.seed}_{digest.hexdigest()[:10]}"


def migrate(name: str) -> None:
    """Bring the data set's database to the code's migrations (a reused data set: the indexes added since)."""
    env = {**os.environ, "DATABASE_URL": db_url(name), "DJANGO_SETTINGS_MODULE": "config.settings"}
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v1"], cwd=ROOT, env=env, check=True
    )


SEEDED_MARKER = "seeded by bench/scale.py"  # the comment on a data set's database once it is built


def ensure_seeded(args) -> tuple[str, dict | None]:
    """The seeded database's name and, when this run built it, seed_scale's report."""
    name = seeded_name(args)
    marker = SEEDED_MARKER
    with admin() as conn:
        row = conn.execute(
            "SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = %s", [name]
        ).fetchone()
        if row is not None and row[0] == marker:
            reuse = True
        else:
            reuse = False
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            conn.execute(f'CREATE DATABASE "{name}" OWNER dogcase')
    if reuse:
        print(f"bench-scale: reusing the data set in database {name}", flush=True)
        migrate(name)
        return name, None
    env = {**os.environ, "DATABASE_URL": db_url(name), "DJANGO_SETTINGS_MODULE": "config.settings"}
    py = sys.executable
    print(f"bench-scale: building the data set into database {name}", flush=True)
    subprocess.run([py, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    started = time.perf_counter()
    out = subprocess.run(
        [
            py,
            "manage.py",
            "seed_scale",
            f"--dogs={args.dogs}",
            f"--incidents={args.incidents}",
            f"--cases={args.cases}",
            f"--seed={args.seed}",
            f"--workers={args.seed_workers}",
        ],
        cwd=ROOT,
        env=env,
        check=True,
        stdout=subprocess.PIPE,
        text=True,
    ).stdout
    report = json.loads(out)
    report["wall_seconds"] = round(time.perf_counter() - started, 1)
    with admin() as conn:
        conn.execute(f"COMMENT ON DATABASE \"{name}\" IS '{marker}'")
    return name, report


def fresh_copy(seeded: str, name: str = RUN_DB) -> None:
    """A new database `name` made from the data set's, settled."""
    with admin() as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{seeded}" OWNER dogcase')
    settle(name)


def settle(name: str) -> None:
    """VACUUM ANALYZE the database, then restart the server: the measurements start with its shared buffers
    empty (the machine's file cache is not ours to drop), as a server restarted for a deployment finds them."""
    import psycopg

    with psycopg.connect(f"postgresql://dogcase@127.0.0.1:{PG_PORT}/{name}", autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")
    subprocess.run(
        [str(ROOT / "scripts" / "pg.sh"), "restart"], env=pg_env(), check=True, stdout=subprocess.DEVNULL
    )


def load_law() -> None:
    """The seeded cities' packs read before anything is timed."""
    from dogcase.law import library

    for city in ("battle-lake-mn", "tracy-mn"):
        library().get(city)


def setup_django(url: str) -> None:
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")  # a line a measured request would bury the table
    import django

    django.setup()
    from django.conf import settings

    # No query log and no debug pages while measuring (static files stay as in development: no manifest).
    settings.DEBUG = False


# ------------------------------------------------------------------------------------------------ sweep

RAW_OVERDUE = """
SELECT o.case_id, o.deadline_id
FROM cases_obligation o JOIN cases_case c ON c.id = o.case_id
WHERE c.status = 'open' AND o.kind = 'due' AND o.status IN ('open', 'overdue')
  AND ((o.due_at IS NOT NULL AND o.due_at < %(at)s)
       OR (o.due_at IS NULL AND o.due_date < %(today)s))
"""


def raw_overdue(at: dt.datetime) -> tuple[set, float]:
    """The obligations past their time at `at`, straight from the rows: the floor a sweep is compared to."""
    from django.db import connection
    from django.utils import timezone

    started = time.perf_counter()
    with connection.cursor() as cur:
        cur.execute(RAW_OVERDUE, {"at": at, "today": timezone.localtime(at).date()})
        rows = set(cur.fetchall())
    return rows, time.perf_counter() - started


def swept_overdue() -> set:
    from dogcase.cases.models import Obligation

    return set(
        Obligation.objects.filter(case__status="open", status="overdue").values_list("case_id", "deadline_id")
    )


def run_sweep(at: dt.datetime) -> dict:
    """`dogcase sweep --at AT`, in this process (the packs already loaded), timed with its query count."""
    from dogcase import cli

    buf = io.StringIO()
    with counting() as q, contextlib.redirect_stdout(buf):
        started = time.perf_counter()
        status = cli.main(["sweep", "--at", at.isoformat()])
        seconds = time.perf_counter() - started
    if status:
        raise SystemExit(f"dogcase sweep failed ({status}): {buf.getvalue()}")
    text = buf.getvalue().strip()
    try:
        report = json.loads(text)
    except ValueError:
        report = {"output": text[-500:]}
    return {"seconds": seconds, "queries": q.n, "report": report}


def raw_reminders(at: dt.datetime) -> float:
    """The obligations the day of `at` reminds of, straight from the rows (bench/reminders_scale.py's raw
    statement): the floor of the reminders the sweep command sends after the sweep."""
    from django.db import connection
    from django.utils import timezone

    sql, params = reminders_scale.raw_sql(
        timezone.localtime(at).date(), columns="o.id, o.case_id, o.deadline_id"
    )
    started = time.perf_counter()
    with connection.cursor() as cur:
        cur.execute(sql, params)
        cur.fetchall()
    return time.perf_counter() - started


def sweep_round(label: str, raw_reps: int, repeat: int = 1) -> dict:
    """The sweep command at one instant (`repeat` times: the runs after the first find nothing changed),
    beside the raw queries of the same sets: the overdue obligations, and the day's reminders."""
    from django.utils import timezone

    at = timezone.now()
    times, reminder_times = [], []
    for _ in range(raw_reps):
        raw, seconds = raw_overdue(at)
        times.append(seconds)
        reminder_times.append(raw_reminders(at))
    sweeps = [run_sweep(at) for _ in range(repeat)]
    sweep = {"seconds": statistics.median(s["seconds"] for s in sweeps), "queries": sweeps[-1]["queries"]}
    sweep["report"] = sweeps[0]["report"]
    after = swept_overdue()
    same = raw == after
    floor = statistics.median(times) + statistics.median(reminder_times)
    row = {
        "label": label,
        "at": at.isoformat(),
        "runs": repeat,
        "raw_seconds": statistics.median(times),
        "raw_reminders_seconds": statistics.median(reminder_times),
        "sweep_seconds": sweep["seconds"],
        "sweep_queries": sweep["queries"],
        "ratio": sweep["seconds"] / max(statistics.median(times), 1e-9),
        # the command sweeps and sends the day's reminders: against the raw queries of both sets
        "ratio_with_reminders": sweep["seconds"] / max(floor, 1e-9),
        "overdue": len(after),
        "same_set": same,
        "only_raw": len(raw - after),
        "only_sweep": len(after - raw),
        "sweep_report": sweep["report"],
    }
    runs = f"median of {repeat} runs, " if repeat > 1 else ""
    print(
        f"  {label}: sweep {sweep['seconds'] * 1000:.1f} ms ({runs}{sweep['queries']} queries), raw queries "
        f"{row['raw_seconds'] * 1000:.1f} ms (overdue) + {row['raw_reminders_seconds'] * 1000:.1f} ms (the "
        f"day's reminders), {len(after)} overdue, same set: {same}",
        flush=True,
    )
    return row


def touch_cases(fraction: float) -> dict:
    """An act on `fraction` of the cases: declare the dogs of Battle Lake cases still at "Case opened"."""
    from django.contrib.auth import get_user_model

    from dogcase.cases import acts
    from dogcase.cases.models import Case

    officer = get_user_model().objects.get(username="officer")
    want = max(1, round(Case.objects.count() * fraction))
    candidates = list(
        Case.objects.filter(jurisdiction="battle-lake-mn", status="open", designation="")
        .order_by("pk")
        .values_list("pk", flat=True)[:want]
    )
    done = errors = 0
    started = time.perf_counter()
    for pk in candidates:
        case = Case.objects.get(pk=pk)
        try:
            acts.take_step(
                case,
                "declare",
                actor=officer,
                inputs={"designation": "potentially_dangerous", "basis": "Bench: a bite on a person."},
                expected_version=case.version,
            )
            done += 1
        except acts.ActError as exc:
            errors += 1
            if errors == 1:
                print(f"  touch: {exc}", flush=True)
    return {"wanted": want, "touched": done, "errors": errors, "seconds": time.perf_counter() - started}


# ---------------------------------------------------------------------------------------------- reports

REPORT_USER = (
    "clerk"  # any staff role may see its cities' reports; the demo clerk works for every seeded city
)
EMPTY_YEAR = (dt.date(1990, 1, 1), dt.date(1990, 12, 31))  # before any record of the data set

# The rows a report reads, counted in one statement: the floor beside `figures.report`. Each count is bounded
# as the report bounds it (docs/data.md, Reports): a case by the instant it was opened, an obligation by its
# due date, an act by the instant it was recorded, money by the day it bears.
RAW_REPORT_COUNTS = """
SELECT
  (SELECT COUNT(*) FROM {case} WHERE jurisdiction = %(city)s
     AND opened_at >= %(since)s AND opened_at < %(until)s),
  (SELECT COUNT(*) FROM {obligation} WHERE jurisdiction = %(city)s
     AND due_date >= %(start)s AND due_date <= %(end)s AND status IN ('met', 'overdue', 'lapsed')),
  (SELECT COUNT(*) FROM {event} WHERE jurisdiction = %(city)s
     AND kind = 'step' AND case_id IS NOT NULL AND at >= %(since)s AND at < %(until)s),
  (SELECT COUNT(*) FROM {charge} WHERE jurisdiction = %(city)s
     AND starts_on >= %(start)s AND starts_on <= %(end)s),
  (SELECT COUNT(*) FROM {entry} WHERE jurisdiction = %(city)s
     AND "on" >= %(start)s AND "on" <= %(end)s)
"""
RAW_REPORT_FIELDS = ("cases", "obligations", "acts", "charges", "entries")


def report_period(city: str) -> tuple[dt.date, dt.date]:
    """The year (365 days, both ends included) that ends on the day the city's last case was opened: the
    seeded cases are opened over the year and a bit before the day the data set was built, whenever it
    runs."""
    from django.db.models import Max

    from dogcase.cases.models import Case
    from dogcase.law.clock import MINNESOTA_TZ

    last = Case.objects.filter(jurisdiction=city).aggregate(last=Max("opened_at"))["last"]
    end = last.astimezone(MINNESOTA_TZ).date()
    return end - dt.timedelta(days=364), end


def raw_report_counts(city: str, start: dt.date, end: dt.date) -> tuple[dict, float]:
    """The rows the city's report over the period reads, straight from the tables, and the seconds taken."""
    from django.db import connection

    from dogcase.cases.models import Case, Event, Obligation
    from dogcase.law.clock import MINNESOTA_TZ
    from dogcase.money.models import Charge, Entry

    ops = connection.ops
    since = dt.datetime.combine(start, dt.time(), tzinfo=MINNESOTA_TZ)
    until = dt.datetime.combine(end + dt.timedelta(days=1), dt.time(), tzinfo=MINNESOTA_TZ)
    tables = {
        m.__name__.lower(): ops.quote_name(m._meta.db_table) for m in (Case, Obligation, Event, Charge, Entry)
    }
    params = {
        "city": city,
        "since": ops.adapt_datetimefield_value(since),
        "until": ops.adapt_datetimefield_value(until),
        "start": ops.adapt_datefield_value(start),
        "end": ops.adapt_datefield_value(end),
    }
    started = time.perf_counter()
    with connection.cursor() as cur:
        cur.execute(RAW_REPORT_COUNTS.format(**tables), params)
        row = cur.fetchone()
    return dict(zip(RAW_REPORT_FIELDS, row, strict=True)), time.perf_counter() - started


def report_totals(report) -> dict:
    """What the report itself says it counted, in the raw counts' terms: the cases opened (in both tables that
    count them), the obligations (once each, in the table by deadline), the charges and the money entries."""
    cases = report.table("cases")
    total = cases.columns.index("Total")
    deadlines = report.table("deadlines")
    money = {r[0]: r[1] for r in report.table("money").rows}
    return {
        "cases": sum(r[total] for r in cases.rows),
        "cases (stages)": sum(r[1] for r in report.table("stages").rows),
        "obligations": sum(sum(r[deadlines.labels :]) for r in deadlines.rows),
        "charges": money.pop("Charges incurred"),
        "entries": sum(money.values()),
    }


def report_agrees(totals: dict, raw: dict) -> bool:
    return (
        totals["cases"] == totals["cases (stages)"] == raw["cases"]
        and totals["obligations"] == raw["obligations"]
        and totals["charges"] == raw["charges"]
        and totals["entries"] == raw["entries"]
    )


def report_cities() -> list[tuple[str, int]]:
    """The cities with cases, busiest first, with their number of cases."""
    from django.db.models import Count

    from dogcase.cases.models import Case

    rows = Case.objects.order_by().values_list("jurisdiction").annotate(n=Count("id"))
    return sorted(rows, key=lambda r: (-r[1], r[0]))


def measure_reports(reps: int, budget: float, *, pdf: bool = True, only: str = "") -> dict:
    """Each city's report over its year (the city `only`, when given): in process, its page, its annual PDF,
    and the two floors."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    from dogcase.reports import figures

    client = Client(HTTP_HOST="localhost")
    client.force_login(get_user_model().objects.get(username=REPORT_USER))
    out = {"user": REPORT_USER, "queries_expected": figures.QUERIES, "cities": []}
    for city, city_cases in report_cities():
        if only and city != only:
            continue
        start, end = report_period(city)
        raw, _ = raw_report_counts(city, start, end)
        totals = report_totals(figures.report(city, start, end))
        entry = {
            "city": city,
            "start": start.isoformat(),
            "end": end.isoformat(),
            "cases_in_city": city_cases,
            "cases_in_period": raw["cases"],
            "raw_counts": raw,
            "report_totals": totals,
            "agrees": report_agrees(totals, raw),
            "rows": [],
        }
        print(
            f"  {city}, {start} to {end}: {raw['cases']:,} of the city's {city_cases:,} cases opened in the "
            f"period, {raw['obligations']:,} obligations counted, {raw['acts']:,} acts recorded; "
            f"the report's totals agree with the raw counts: {entry['agrees']}",
            flush=True,
        )
        rows = entry["rows"]
        in_process = timed_reps(lambda c=city, s=start, e=end: figures.report(c, s, e), reps, budget)
        rows.append({"what": "figures.report (in process)", **in_process})
        url = f"/reports/{city}/?from={start:%Y-%m-%d}&to={end:%Y-%m-%d}"
        rows.append({"what": "report page", **measure_page(client, url, reps, budget)})
        if pdf:
            # the annual report is a calendar year's: the year of the period's last day, to that day
            year = end.year
            in_year, _ = raw_report_counts(city, dt.date(year, 1, 1), end)
            pdf_url = f"/reports/{city}/annual-{year}.pdf"
            row = measure_page(client, pdf_url, reps, budget)
            rows.append({"what": f"annual PDF {year} ({in_year['cases']:,} cases)", **row})
        floor = timed_reps(lambda c=city, s=start, e=end: raw_report_counts(c, s, e), reps, budget)
        rows.append({"what": "floor: the raw counts, one statement", **floor})
        empty = f"/reports/{city}/?from={EMPTY_YEAR[0]:%Y-%m-%d}&to={EMPTY_YEAR[1]:%Y-%m-%d}"
        row = measure_page(client, empty, reps, budget)
        rows.append({"what": f"floor: report page, empty year ({EMPTY_YEAR[0].year})", **row})
        for row in rows:
            print_report_row(row)
        out["cities"].append(entry)
    return out


def print_report_row(row: dict) -> None:
    size = f"{row['bytes'] / 1024:9.1f} KB" if "bytes" in row else " " * 12
    status = f"  HTTP {row['status']}" if "status" in row else ""
    print(
        f"    {row['what']:<44} p50 {row['p50_ms']:9.1f} ms  p95 {row['p95_ms']:9.1f} ms  {size}  "
        f"{row['queries']:5d} queries{status}",
        flush=True,
    )


# ------------------------------------------------------------------------------------------------ table


def held_rows(name: str) -> dict:
    """What a data set measured as it is holds (its rows, counted on the run's copy)."""
    from dogcase.cases.models import Case, Dog, Incident

    return {
        "dogs": Dog.objects.count(),
        "incidents": Incident.objects.count(),
        "cases": Case.objects.count(),
        "seed": f"none: database {name}, measured as it is",
    }


def table(result: dict) -> str:
    p = result["parameters"]
    seed = p["seed"] if isinstance(p["seed"], str) else f"seed {p['seed']}"
    lines = [
        f"Scale benchmark: {p['dogs']:,} dogs, {p['incidents']:,} incidents, {p['cases']:,} cases ({seed}); "
        f"PostgreSQL {result['environment']['postgresql']}, {result['environment']['cpus']} CPUs",
        "",
        "| sweep command (with its reminders) | ms | queries | raw overdue ms | raw reminders ms | ÷ raw overdue "
        "| ÷ both raw | overdue | same set |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in result["sweep"]:
        both = f"{r['ratio_with_reminders']:,.1f}×" if "ratio_with_reminders" in r else ""
        reminders = f"{r['raw_reminders_seconds'] * 1000:.1f}" if "raw_reminders_seconds" in r else ""
        runs = f" (median of {r['runs']})" if r.get("runs", 1) > 1 else ""
        lines.append(
            f"| {r['label']}{runs} | {r['sweep_seconds'] * 1000:,.1f} | {r['sweep_queries']:,} "
            f"| {r['raw_seconds'] * 1000:.1f} | {reminders} | {r['ratio']:,.1f}× | {both} | {r['overdue']:,} "
            f"| {'yes' if r['same_set'] else 'NO'} |"
        )
    if result.get("reminders"):
        lines += ["", *reminders_scale.markdown(result["reminders"])]
    if result["pages"]:
        lines += ["", *scale_pages.markdown(result["pages"], result.get("pages_method"))]
    for c in (result.get("reports") or {}).get("cities", []):
        lines += [
            "",
            f"| report: {c['city']}, {c['start']} to {c['end']} ({c['cases_in_period']:,} of its "
            f"{c['cases_in_city']:,} cases; totals = raw counts: {'yes' if c['agrees'] else 'NO'}) "
            "| p50 ms | p95 ms | KB | queries |",
            "|---|---:|---:|---:|---:|",
        ]
        for r in c["rows"]:
            size = f"{r['bytes'] / 1024:,.1f}" if "bytes" in r else ""
            lines.append(f"| {r['what']} | {r['p50_ms']:.1f} | {r['p95_ms']:.1f} | {size} | {r['queries']} |")
    lines += [
        "",
        "| writers | acts/s (all) | acts/s (each) | × one writer | p50 ms | p95 ms | refused | CPUs busy "
        "| of it the writers |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in result["writers"]:
        cpu = r.get("cpu")
        busy = f"{cpu['busy']:.0%} | {cpu['writers_share']:.0%}" if cpu else "– | –"
        lines.append(
            f"| {r['writers']} | {r['acts_per_s']:.1f} | {r['per_writer_acts_per_s']:.1f} | "
            f"{r['vs_one_writer']:.2f} | {r['p50_ms'] or 0:.1f} | {r['p95_ms'] or 0:.1f} | {r['errors']} | {busy} |"
        )
    return "\n".join(lines)


def analyzed(skip: set[str]) -> str:
    """What the pages' statistics are: the run's copy analyzed, and the parts that changed rows since."""
    before = [part for part in ("sweep", "reminders") if part not in skip]
    since = f"; changed since by the parts run before the pages: {', '.join(before)}" if before else ""
    return (
        f"VACUUM ANALYZE on the run's fresh copy of the data set, then PostgreSQL restarted (its buffers empty; "
        f"the machine's file cache as it was), before the first part{since}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dogs", type=int, default=1_000_000)
    parser.add_argument("--incidents", type=int, default=100_000)
    parser.add_argument("--cases", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--seed-workers", type=int, default=os.cpu_count() or 1, help="processes that play the seeded cases"
    )
    parser.add_argument("--reps", type=int, default=20, help="requests per page (fewer when a page is slow)")
    parser.add_argument(
        "--page-budget", type=float, default=10.0, help="seconds per page at most (3 requests at least)"
    )
    parser.add_argument("--writer-seconds", type=float, default=10.0)
    parser.add_argument("--raw-reps", type=int, default=5)
    parser.add_argument("--reminder-rounds", type=int, default=9, help="interleaved rounds of the reminders")
    parser.add_argument(
        "--skip", default="", help="comma-separated parts to leave out: sweep,reminders,pages,reports,writers"
    )
    parser.add_argument(
        "--data-set",
        default="",
        help="measure this database of the cluster as it is (migrated to the code's migrations first) instead "
        "of the seeded one: the figures name the rows it holds, not --dogs/--incidents/--cases",
    )
    args = parser.parse_args(argv)
    skip = {s.strip() for s in args.skip.split(",") if s.strip()}

    start_cluster()
    if args.data_set:
        seeded, seed_report = args.data_set, None
        print(f"bench-scale: measuring the data set in database {seeded}, as it is", flush=True)
        migrate(seeded)
    else:
        seeded, seed_report = ensure_seeded(args)
    fresh_copy(seeded)
    url = db_url(RUN_DB)
    setup_django(url)
    from django.db import connection

    load_law()
    with connection.cursor() as cur:
        cur.execute("SHOW server_version")
        pg_version = cur.fetchone()[0]
        cur.execute("SELECT pg_size_pretty(pg_database_size(current_database()))")
        db_size = cur.fetchone()[0]

    result = {
        "when": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "parameters": held_rows(args.data_set)
        if args.data_set
        else {"dogs": args.dogs, "incidents": args.incidents, "cases": args.cases, "seed": args.seed},
        "environment": {
            "python": platform.python_version(),
            "postgresql": pg_version,
            "cpus": os.cpu_count(),
            "database_size": db_size,
        },
        "seed": seed_report,
        "sweep": [],
        "pages": [],
        "writers": [],
    }
    if "sweep" not in skip:
        print("Sweep (dogcase sweep) beside the raw query, at the same instant:", flush=True)
        result["sweep"].append(sweep_round("first run on this copy (catch up)", args.raw_reps))
        result["sweep"].append(sweep_round("nothing changed", args.raw_reps, repeat=5))
        result["touched"] = touch_cases(0.01)
        print(
            f"  touched {result['touched']['touched']} cases ({result['touched']['seconds']:.1f} s)",
            flush=True,
        )
        result["sweep"].append(
            sweep_round(f"after acts on 1% of cases ({result['touched']['touched']})", args.raw_reps)
        )
    if "reminders" not in skip:
        print("Reminders of the day (reminder_rows, send_reminders) beside the raw query:", flush=True)
        result["reminders"] = reminders_scale.run(None, rounds=args.reminder_rounds)
    if "pages" not in skip:
        print("Pages (server time through the test Client):", flush=True)
        result["pages"], result["page_choices"] = measure_pages(args.reps, args.page_budget)
        result["pages_method"] = scale_pages.method(args.reps, args.page_budget, analyzed(skip))
    if "reports" not in skip:
        print(f"A year's report per city (server time; pages as the demo {REPORT_USER}):", flush=True)
        result["reports"] = measure_reports(args.reps, args.page_budget)
    if "writers" not in skip:
        print("Concurrent writers (separate processes, acts in different cases):", flush=True)
        connection.close()
        result["writers"] = scale_writers.measure_writers(url, args.writer_seconds)

    text = table(result)
    print()
    print(text)
    out = ROOT / "var" / "bench-scale.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({**result, "table": text}, indent=2, default=str))
    print(f"\nwritten to {out.relative_to(ROOT)}")
    bad = [r["label"] for r in result["sweep"] if not r["same_set"]]
    if result.get("reminders") and not result["reminders"]["same_set"]:
        bad.append("the reminders of the day")
    if bad:
        print("FAIL: the obligations found differ from the raw query's: " + ", ".join(bad))
    disagree = [c["city"] for c in (result.get("reports") or {}).get("cities", []) if not c["agrees"]]
    if disagree:
        print("FAIL: a report's totals differ from the raw counts: " + ", ".join(disagree))
    return 1 if bad or disagree else 0


if __name__ == "__main__":
    sys.exit(main())
