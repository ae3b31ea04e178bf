"""`make bench-report-scale`: a year's report over 20,000 cases of one city, on bench/scale.py's PostgreSQL cluster.

The statewide data set (bench/scale.py, `seed_scale`) spreads its cases over two cities: about 8,500 each,
fewer than a council's year at the size the report is built for. This copies a data set's cases until the
busiest city holds the wanted number in its report year, then measures that city's report as bench/scale.py
does: `figures.report` in this process, the report page and the annual PDF by URL as the demo clerk, beside
the raw counts of the rows it reads (one statement) and the page over a year with nothing in it; the report's
totals must equal the raw counts.

The data set is swept first (`dogcase sweep`: nothing to do on a data set `seed_scale` finished, a catch-up on
one it was stopped in), so that the statuses the report counts are those of the day it is measured.

What a copy is: the cases of every city again, each with its obligations and its case events, in the order
they were written (so that the cities' rows stay mixed in the tables as they were), under new ids and numbers
("<number>/<copy>"), with the same dogs, incidents, dates, stages and outcomes. A copy takes the cases up to
the busiest city's last case of its report year (the last copy: up to the one that brings that city to the
number wanted), so a later case of another city is not in it. A copied event is in a chain of its own
("<chain>/copy <n>") with a hash of its own: the copies' audit trail does not verify, and the database is a
throwaway (dropped and made again from the data set at each run). Documents, messages, tasks and money are not
copied (the seeded cases have no money; the report reads no document, message or task).

    make bench-report-scale   # or: python bench/report_scale.py [--data-set NAME] [--cases N]

The data set is bench/scale.py's, seeded on its cluster by `make bench-scale` (one it finished before one it
was stopped in, the newest first).

Prints the figures and writes var/bench-report-scale.json; the exit status is 1 when the report's totals
differ from the raw counts.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import scale  # noqa: E402 - after the path above, for `python bench/report_scale.py`

REPORT_DB = "dogcase_report_run"
TARGET = 20_000


def columns(cursor, table: str) -> list[str]:
    cursor.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = %s "
        "ORDER BY ordinal_position",
        [table],
    )
    return [name for (name,) in cursor.fetchall()]


def copy_rows(cursor, table: str, changed: dict[str, str], where: str, params: dict) -> int:
    """INSERT the rows of `table` meeting `where` again, in id order, with the columns of `changed` made by its
    SQL expressions (the others as they are). Names and expressions are ours."""
    names = columns(cursor, table)
    chosen = ", ".join(changed.get(name, f'"{name}"') for name in names)
    listed = ", ".join(f'"{name}"' for name in names)
    cursor.execute(
        f'INSERT INTO "{table}" ({listed}) SELECT {chosen} FROM "{table}" WHERE {where} ORDER BY id',  # noqa: S608
        params,
    )
    return cursor.rowcount


def busiest_in_year() -> tuple[str, dt.date, dt.date, int]:
    """The city with the most cases opened in its report year (bench/scale.py's period), and that number."""
    rows = []
    for city, _ in scale.report_cities():
        start, end = scale.report_period(city)
        raw, _ = scale.raw_report_counts(city, start, end)
        rows.append((raw["cases"], city, start, end))
    if not rows:
        raise SystemExit("bench-report-scale: the data set has no case (a seed stopped before its cases?)")
    cases, city, start, end = max(rows)
    return city, start, end, cases


def make_copies(target: int) -> dict:
    """Copies of the data set's cases until the busiest city holds `target` cases in its report year."""
    from django.db import connection, transaction

    from dogcase.law.clock import MINNESOTA_TZ

    city, start, end, in_year = busiest_in_year()
    if in_year >= target:
        return {"city": city, "copies": 0, "cases_before": in_year, "copied": {}}
    # the period's bounds as the report and the raw counts take them
    since = dt.datetime.combine(start, dt.time(), tzinfo=MINNESOTA_TZ)
    until = dt.datetime.combine(end + dt.timedelta(days=1), dt.time(), tzinfo=MINNESOTA_TZ)
    with connection.cursor() as cursor:
        cursor.execute("SELECT COALESCE(MAX(id), 0) FROM cases_case")
        last_case = cursor.fetchone()[0]
        cursor.execute("SELECT COALESCE(MAX(id), 0), COALESCE(MAX(seq), 0) FROM cases_event")
        last_event, last_seq = cursor.fetchone()
        cursor.execute("SELECT COALESCE(MAX(id), 0) FROM cases_obligation")
        last_obligation = cursor.fetchone()[0]
        # the busiest city's cases of its year, in id order: the copies take them in this order
        cursor.execute(
            "SELECT id FROM cases_case WHERE jurisdiction = %s AND opened_at >= %s AND opened_at < %s ORDER BY id",
            [city, since, until],
        )
        ids = [pk for (pk,) in cursor.fetchall()]
    needed = target - in_year
    copied = {"cases": 0, "obligations": 0, "case events": 0}
    copy = 0
    started = time.perf_counter()
    while needed > 0:
        copy += 1
        # every case up to the one that brings the busiest city to the number wanted (all, when short of it)
        upto = ids[min(needed, len(ids)) - 1]
        needed -= min(needed, len(ids))
        params = {
            "upto": upto,
            "case": copy * (last_case + 1),
            "obligation": copy * (last_obligation + 1),
            "event": copy * (last_event + 1),
            "seq": copy * (last_seq + 1),
            "tag": f"/copy {copy}",
            "number": f"/{copy}",
        }
        with transaction.atomic(), connection.cursor() as cursor:
            copied["cases"] += copy_rows(
                cursor,
                "cases_case",
                {"id": "id + %(case)s", "number": "number || %(number)s"},
                "id <= %(upto)s",
                params,
            )
            copied["obligations"] += copy_rows(
                cursor,
                "cases_obligation",
                {"id": "id + %(obligation)s", "case_id": "case_id + %(case)s"},
                "case_id <= %(upto)s AND id <= " + str(int(last_obligation)),
                params,
            )

            def rehash(column: str) -> str:
                return (
                    f"CASE WHEN {column} = '' THEN '' ELSE "
                    f"encode(sha256(convert_to({column} || %(tag)s, 'UTF8')), 'hex') END"
                )

            copied["case events"] += copy_rows(
                cursor,
                "cases_event",
                {
                    "id": "id + %(event)s",
                    "seq": "seq + %(seq)s",
                    "chain": "chain || %(tag)s",
                    "case_id": "case_id + %(case)s",
                    "corrects_id": "corrects_id + %(event)s",
                    "idempotency_key": "NULL",
                    "hash": rehash("hash"),
                    "prev_hash": rehash("prev_hash"),
                },
                "case_id IS NOT NULL AND case_id <= %(upto)s AND id <= " + str(int(last_event)),
                params,
            )
    with connection.cursor() as cursor:
        for table in ("cases_case", "cases_obligation", "cases_event"):
            cursor.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT MAX(id) FROM {table}))"  # noqa: S608
            )
    return {
        "city": city,
        "copies": copy,
        "cases_before": in_year,
        "copied": copied,
        "seconds": round(time.perf_counter() - started, 1),
    }


def sweep() -> dict:
    """`dogcase sweep` on the data set's copy before its cases are copied (its report, as printed)."""
    from dogcase.cases.acts import sweep as run_sweep

    started = time.perf_counter()
    report = run_sweep(progress=lambda line: print(f"  sweep: {line}", flush=True)).as_dict()
    return {**report, "seconds": round(time.perf_counter() - started, 1)}


def seeded_data_set() -> str:
    """The data set bench/scale.py seeded on the cluster: one it finished (its marker) before one it did not,
    the newest first."""
    with scale.admin() as conn:
        rows = conn.execute(
            "SELECT datname, shobj_description(oid, 'pg_database') = %s AS done FROM pg_database "
            "WHERE datname LIKE 'scale\\_%%' ORDER BY done DESC NULLS LAST, oid DESC",
            [scale.SEEDED_MARKER],
        ).fetchall()
    if not rows:
        raise SystemExit(
            "bench-report-scale: no seeded data set on the cluster; run `make bench-scale` first"
        )
    return rows[0][0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--data-set", default="", help="a seeded database of the cluster (default: bench/scale.py's data set)"
    )
    parser.add_argument(
        "--cases", type=int, default=TARGET, help="the busiest city's cases in its report year"
    )
    parser.add_argument("--reps", type=int, default=20, help="requests per page (fewer when a page is slow)")
    parser.add_argument("--page-budget", type=float, default=20.0, help="seconds per page at most")
    args = parser.parse_args(argv)

    scale.start_cluster()
    args.data_set = args.data_set or seeded_data_set()
    scale.migrate(args.data_set)
    scale.fresh_copy(args.data_set, REPORT_DB)
    scale.setup_django(scale.db_url(REPORT_DB))
    print(f"bench-report-scale: sweeping a copy of {args.data_set} ({REPORT_DB})", flush=True)
    swept = sweep()
    print(f"  {swept}", flush=True)
    print("bench-report-scale: copying its cases", flush=True)
    copies = make_copies(args.cases)
    print(
        f"  {copies['copies']} copies ({copies['copied']}) in {copies.get('seconds', 0)} s: "
        f"{copies['city']} had {copies['cases_before']:,} cases in its report year",
        flush=True,
    )
    from django.db import connection

    connection.close()
    scale.settle(REPORT_DB)
    scale.load_law()
    print(f"The busiest city's report over its year (server time; pages as the demo {scale.REPORT_USER}):")
    reports = scale.measure_reports(args.reps, args.page_budget, only=copies["city"])
    result = {"when": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"), "data_set": args.data_set}
    result.update(sweep=swept, copies=copies, reports=reports)
    out = ROOT / "var" / "bench-report-scale.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2, default=str))
    print(f"\nwritten to {out.relative_to(ROOT)}")
    disagree = [c["city"] for c in reports["cities"] if not c["agrees"]]
    if disagree:
        print("FAIL: a report's totals differ from the raw counts: " + ", ".join(disagree))
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main())
