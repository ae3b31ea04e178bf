"""`make bench-reminders`: the reminders of a day (issue 22) beside the raw SQL that finds the same obligations.

    .venv/bin/python bench/reminders_scale.py [N_CASES] [--rounds R] [--share S] [--out FILE]

N_CASES defaults to 2,000 open cases, not the statewide 20,000: the synthetic cases are bench/sweep_scale.py's
(the demo stories played through the act functions, each copy shifted into the past), built at one to two
cases a second on a 2-core machine: 2,000 take 20 to 40 minutes, 20,000 would take three to six hours. The statewide size is
measured on PostgreSQL by `make bench-scale`: bench/scale.py calls `run(None)` on its data set (20,000 cases),
which measures the database it is given and builds nothing. Standalone, Django runs on SQLite in a throwaway
directory (or in DOGCASE_VAR_DIR's database when that is set: a second run reuses the cases already built).

The day measured is today, after a sweep has brought every case up to now. So that it has reminders at each
distance, real obligation rows (computed by the product, nothing inserted) are moved onto it: open obligations
of the deadlines with `remind_days` (the registration's renewal, the coverage on file) to 30 days ahead, other
open obligations to 7 and 2 days ahead, overdue and lapsed ones to the last 3 days (a missed deadline); each
row's due_at and sweep_at move with its due date. SHARE (2%) of N_CASES rows per distance: at 20,000 cases,
400 renewals and expiries 30 days ahead, 400 deadlines 7 days ahead, 400 2 days ahead and 400 missed
(with those the data set has on the day already): a heavy day.

Measured at N_CASES/4 (or at the open cases already in the database, when at most N_CASES/2) and at N_CASES
open cases: the rows moved at the smaller size stay on the day, and the cases built after add those of theirs
that fall due on it. As medians of interleaved rounds:
  (a) `reminder_rows(today)`: the day's obligations, one statement, a row each (what a reminder's key and
      recipients need; the obligation itself is read only for a message still to be written);
  (a') for reading (a): the same statement run by the cursor, without the ORM (the plan's part of (a));
  (b) `send_reminders(at)` on a day already sent (the second run of a day: it must write no message);
  (c) the raw SQL: one statement selecting the same obligations' columns (those (a) returns), in the same
      order; the run checks the rows are equal;
  (c') for reading (c): the same statement selecting the ids alone; the run checks the sets are equal;
  (d) the queries of (a) and (b) (CaptureQueriesContext) at both sizes: they must not grow with N. (b)'s
      grow with what falls due (one per 500 message keys, two per city's set of staff roles), never with N.
The query plans of (a) and (c) are printed and kept in the JSON (the index each reads the obligations through).
Target (issue 22): (a) <= 1.5x (c), the raw SQL returning the same rows. A benchmark reports, it does not
gate: FAIL is printed, the exit status is 0. Results are written to var/bench-reminders.json (--out).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import re
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import sweep_scale  # noqa: E402 - after the path above, for `python bench/reminders_scale.py`

ROUNDS = 9
SEED = 20261202
SHARE = 0.02  # of N_CASES: the obligations moved onto the day at each distance
RATIO_TARGET = 1.5
# reminder_rows' columns (dogcase.messaging.reminders.DUE_FIELDS), for the raw statement
SAME_COLUMNS = (
    "o.id, o.case_id, c.dog_id, o.jurisdiction, o.deadline_id, o.due_date, o.who, o.status, o.staff_roles"
)
MISSED = "missed"


# ------------------------------------------------------------------------------------------- the day's rows


def buckets(today: dt.date) -> list[dict]:
    """Each distance reminded today: its label, its days, and what it reminds (open obligations ahead, of the
    given deadlines only for a law's `remind_days`; overdue or lapsed ones missed)."""
    from dogcase.messaging.reminders import AHEAD_DAYS, MISSED_LOOKBACK_DAYS, earlier_reminders

    out = [
        {
            "label": f"{days} days ahead ({', '.join(sorted(deadlines))})",
            "days": [today + dt.timedelta(days=days)],
            "deadlines": sorted(deadlines),
            "kind": "ahead",
        }
        for days, deadlines in sorted(earlier_reminders().items(), reverse=True)
    ]
    out += [
        {
            "label": f"{d} days ahead",
            "days": [today + dt.timedelta(days=d)],
            "deadlines": None,
            "kind": "ahead",
        }
        for d in sorted(AHEAD_DAYS, reverse=True)
    ]
    out.append(
        {
            "label": f"{MISSED} (the last {MISSED_LOOKBACK_DAYS} days)",
            "days": [today - dt.timedelta(days=d) for d in range(1, MISSED_LOOKBACK_DAYS + 1)],
            "deadlines": None,
            "kind": MISSED,
        }
    )
    return out


def due_date_index() -> str | None:
    """The name of the index on Obligation.due_date alone."""
    from django.db import connection

    with connection.cursor() as cur:
        found = connection.introspection.get_constraints(cur, "cases_obligation")
    return next((n for n, c in sorted(found.items()) if c["index"] and c["columns"] == ["due_date"]), None)


def raw_sql(today: dt.date, columns: str = "o.id", order: bool = False) -> tuple[str, list]:
    """One statement: the obligations reminded on `today`, read through the due-date index (the only
    condition on the obligations outside the OR is the list of the day's dates). SQLite, which keeps no
    statistics unless asked (ANALYZE), would read every open obligation through the status index instead:
    INDEXED BY names the due-date index, and CROSS JOIN keeps the obligations the outer table. PostgreSQL
    chooses from its statistics, and plans the CROSS JOIN as the inner join it is."""
    from django.db import connection

    ahead = [b for b in buckets(today) if b["kind"] == "ahead"]
    every = [b for b in ahead if b["deadlines"] is None]
    earlier = [b for b in ahead if b["deadlines"] is not None]
    all_days = [d for b in buckets(today) for d in b["days"]]

    def marks(values) -> str:
        return ", ".join(["%s"] * len(values)) or "NULL"

    every_days = [d for b in every for d in b["days"]]
    terms = [f"o.due_date IN ({marks(every_days)})"] + [
        f"(o.due_date = %s AND o.deadline_id IN ({marks(b['deadlines'])}))" for b in earlier
    ]
    index = due_date_index() if connection.vendor == "sqlite" else None
    hint = f'INDEXED BY "{index}"' if index else ""
    dog = "CROSS JOIN cases_dog d" if "d." in columns else ""
    sql = f"""
SELECT {columns} FROM cases_obligation o {hint} CROSS JOIN cases_case c {dog}
WHERE o.due_date IN ({marks(all_days)}) AND c.id = o.case_id AND c.status = 'open' {"AND d.id = c.dog_id" if dog else ""}
  AND ((o.status = 'open' AND o.kind <> 'not_before' AND ({" OR ".join(terms)}))
       OR (o.status IN ('overdue', 'lapsed') AND o.due_date < %s))
{"ORDER BY o.due_date, o.id" if order else ""}"""  # noqa: S608 - placeholders and fixed column lists only
    params: list = [*all_days, *every_days]
    for b in earlier:
        params += [b["days"][0], *b["deadlines"]]
    params.append(today)  # the missed: before today
    return sql, params


def _day(value) -> dt.date:
    return value if isinstance(value, dt.date) else dt.date.fromisoformat(str(value)[:10])


def census(today: dt.date) -> dict[str, int]:
    """How many obligations each distance reminds today (the raw query, not timed)."""
    from django.db import connection

    sql, params = raw_sql(today, "o.id, o.due_date")
    with connection.cursor() as cur:
        cur.execute(sql, params)
        dates = Counter(_day(row[1]) for row in cur.fetchall())
    return {b["label"]: sum(dates[d] for d in b["days"]) for b in buckets(today)}


def place_on_day(today: dt.date, per_bucket: int, rnd: random.Random) -> dict[str, int]:
    """Move real obligations onto the day's distances until each has `per_bucket`; {label: rows moved}."""
    from dogcase.cases.models import Case, Obligation

    every_day = [d for b in buckets(today) for d in b["days"]]
    have = census(today)
    moved = {}
    for b in buckets(today):
        need = per_bucket - have[b["label"]]
        moved[b["label"]] = 0
        if need <= 0:
            continue
        pool = Obligation.objects.filter(case__status=Case.Status.OPEN, due_date__isnull=False).exclude(
            due_date__in=every_day
        )
        if b["kind"] == MISSED:
            pool = pool.filter(status__in=["overdue", "lapsed"])
        else:
            pool = pool.filter(status="open").exclude(kind="not_before")
            if b["deadlines"] is not None:
                pool = pool.filter(deadline_id__in=b["deadlines"])
        rows = list(pool.order_by("pk").values_list("pk", "due_date", "due_at", "sweep_at"))
        changed = []
        for i, (pk, due, due_at, sweep_at) in enumerate(rnd.sample(rows, min(need, len(rows)))):
            day = b["days"][i % len(b["days"])]
            delta = dt.timedelta(days=(day - due).days)
            changed.append(
                Obligation(
                    pk=pk,
                    due_date=day,
                    due_at=due_at + delta if due_at else None,
                    sweep_at=sweep_at + delta if sweep_at else None,
                )
            )
        Obligation.objects.bulk_update(changed, ["due_date", "due_at", "sweep_at"], batch_size=500)
        moved[b["label"]] = len(changed)
    return moved


# ------------------------------------------------------------------------------------------ measurement


def plans(today: dt.date) -> dict[str, list[str]]:
    """The database's plan of each query: how it reads the obligations."""
    from django.db import connection

    from dogcase.messaging.reminders import due_today

    queries = {"reminder_rows": due_today(today).query.sql_with_params(), "raw SQL": raw_sql(today)}
    out = {}
    with connection.cursor() as cur:
        for name, (sql, params) in queries.items():
            if connection.vendor == "sqlite":
                cur.execute("EXPLAIN QUERY PLAN " + sql, params)
                out[name] = [row[3] for row in cur.fetchall()]
            else:
                cur.execute("EXPLAIN " + sql, params)
                out[name] = [row[0] for row in cur.fetchall()]
    return out


def plan_summary(lines: list[str]) -> str:
    """The plan on one line: SQLite's steps, or PostgreSQL's scans without their costs."""
    kept = [line for line in lines if "Scan" in line or "SCAN" in line or "SEARCH" in line] or lines
    return "; ".join(" ".join(re.sub(r"\(cost=[^)]*\)", "", x).replace("->", "").split()) for x in kept)


def measure(at: dt.datetime, rounds: int) -> dict:
    """(a), (b), (c) and (c') on the day of `at`, interleaved; the sets compared, the queries counted."""
    from django.db import connection, reset_queries
    from django.test.utils import CaptureQueriesContext, override_settings
    from django.utils import timezone

    from dogcase.cases.models import Case, Obligation
    from dogcase.messaging.models import Message
    from dogcase.messaging.reminders import due_today, reminder_rows, send_reminders

    today = timezone.localdate(at)
    ids_sql, ids_params = raw_sql(today)
    rows_sql, rows_params = raw_sql(today, SAME_COLUMNS, order=True)

    def raw_ids():
        with connection.cursor() as cur:
            cur.execute(ids_sql, ids_params)
            return {row[0] for row in cur.fetchall()}

    def raw_rows():
        with connection.cursor() as cur:
            cur.execute(rows_sql, rows_params)
            return cur.fetchall()

    def product():
        return reminder_rows(today)

    product_sql, product_params = due_today(today).query.sql_with_params()

    def product_statements():  # (a)'s statement, as the database runs it, without the ORM
        with connection.cursor() as cur:
            cur.execute(product_sql, product_params)
            return cur.fetchall()

    def send_again():
        return send_reminders(at)

    chosen = [row.pk for row in product()]
    raw = raw_ids()
    same_set = set(chosen) == raw and len(chosen) == len(raw)
    same_rows = [tuple(row) for row in product()] == [(*r[:5], _day(r[5]), *r[6:]) for r in raw_rows()]

    started = time.perf_counter()
    first_counts = send_reminders(at)  # the day's first run: what the second must not write again
    first_s = time.perf_counter() - started
    messages_before = Message.objects.count()

    queries = {}  # counted at once: captured_queries is a slice of the log, which a later reset_queries() empties
    for name, fn in (("reminder_rows", product), ("send_again", send_again), ("raw_ids", raw_ids)):
        reset_queries()  # a full query log (9,000 rows, the build's) would leave nothing to capture
        with CaptureQueriesContext(connection) as captured:
            fn()
        queries[name] = len(captured.captured_queries)
    again_counts = send_again()

    timed = [
        ("raw_ids", raw_ids),
        ("raw_rows", raw_rows),
        ("product_statements", product_statements),
        ("reminder_rows", product),
        ("send_again", send_again),
    ]
    times: dict[str, list[float]] = {name: [] for name, _ in timed}
    with override_settings(DEBUG=False):  # no query log while timing
        for fn in (f for _, f in timed):  # a warm-up round
            fn()
        for i in range(rounds):
            k = i % len(timed)
            for name, fn in timed[k:] + timed[:k]:
                t0 = time.perf_counter()
                fn()
                times[name].append(time.perf_counter() - t0)
    written_again = Message.objects.count() - messages_before

    ms = {name: statistics.median(values) * 1000 for name, values in times.items()}
    return {
        "day": today.isoformat(),
        "open_cases": Case.objects.filter(status=Case.Status.OPEN).count(),
        "obligations": Obligation.objects.count(),
        "due": census(today),
        "reminders": len(chosen),
        "same_set": same_set,
        "same_rows": same_rows,
        "only_raw": len(raw - set(chosen)),
        "only_product": len(set(chosen) - raw),
        "rounds": rounds,
        "ms": ms,
        "ratio_rows_to_raw": ms["reminder_rows"] / ms["raw_rows"],
        "ratio_rows_to_raw_ids": ms["reminder_rows"] / ms["raw_ids"],
        "ratio_send_again_to_raw": ms["send_again"] / ms["raw_ids"],
        "ratio_raw_rows_to_raw": ms["raw_rows"] / ms["raw_ids"],
        "ratio_statements_to_raw": ms["product_statements"] / ms["raw_ids"],
        "queries": queries,
        "first_send": {"ms": first_s * 1000, "counts": first_counts},
        "send_again_counts": again_counts,
        "messages_written_again": written_again,
        "plans": plans(today),
    }


def run(n_cases: int | None = 2000, rounds: int = ROUNDS, share: float = SHARE, quarter: bool = True) -> dict:
    """Measure at n_cases/4 (or at the open cases already there, when at most n_cases/2) and at n_cases open
    cases, building the missing ones; n_cases None: the database as it is (bench/scale.py's data set)."""
    where = sweep_scale.setup_django()
    from django.db import connection
    from django.utils import timezone

    from dogcase.cases import acts
    from dogcase.cases.models import Case

    rnd = random.Random(SEED)  # noqa: S311 - a reproducible workload, not a secret
    have = Case.objects.filter(status=Case.Status.OPEN).count()
    targets: list[int | None] = [None]
    if n_cases is not None:  # the smaller size: N/4, or the open cases already there when at most N/2
        targets = [max(1, n_cases // 4)] if quarter and have <= n_cases // 2 else []
        targets.append(n_cases)
    per_bucket = max(1, round(share * (n_cases or have)))
    sizes, built, build_s = [], 0, 0.0
    for target in targets:
        if target is not None:
            started = time.perf_counter()
            built += sweep_scale.build(target, rnd)
            build_s += time.perf_counter() - started
        now = timezone.now().replace(microsecond=0)
        acts.sweep(at=now)  # the day's sweep first: the build's acts ran in the past
        moved = place_on_day(timezone.localdate(now), per_bucket, rnd)
        size = {**measure(now, rounds), "moved": moved}
        sizes.append(size)
        print_size(size, where if connection.vendor != "postgresql" else "PostgreSQL")
    result = {
        "database": where if connection.vendor != "postgresql" else "PostgreSQL",
        "vendor": connection.vendor,
        "n_cases": n_cases,
        "share": share,
        "per_distance": per_bucket,
        "built_cases": built,
        "build_s": round(build_s, 1),
        "ratio_target": RATIO_TARGET,
        "sizes": sizes,
        **verdicts(sizes),
    }
    print_verdicts(result)
    return result


def verdicts(sizes: list[dict]) -> dict:
    last = sizes[-1]
    first_q, last_q = sizes[0]["queries"], last["queries"]
    return {
        "same_set": all(s["same_set"] and s["same_rows"] for s in sizes),
        "nothing_written_again": all(s["messages_written_again"] == 0 for s in sizes),
        "queries_do_not_grow": all(last_q[k] <= first_q[k] for k in ("reminder_rows", "send_again")),
        "ratio": last["ratio_rows_to_raw"],
        "ok": last["ratio_rows_to_raw"] <= RATIO_TARGET,
    }


# ------------------------------------------------------------------------------------------------ report


def print_size(s: dict, where: str) -> None:
    print(
        f"reminders of {s['day']} at {s['open_cases']:,} open cases, {s['obligations']:,} obligations ({where})"
    )
    due = ", ".join(f"{label}: {n}" for label, n in s["due"].items())
    print(f"  due: {due} ({s['reminders']} obligations)")
    print(f"  medians of {s['rounds']} interleaved rounds")
    print(f"  {'':44} {'ms':>9}  {'x raw':>6}  {'queries':>7}")
    q = s["queries"]
    rows = [
        ("(c) raw SQL: the same rows and columns", s["ms"]["raw_rows"], 1),
        ("(c') raw SQL: the same obligation ids", s["ms"]["raw_ids"], q["raw_ids"]),
        ("(a') reminder_rows' statement, by the cursor", s["ms"]["product_statements"], q["reminder_rows"]),
        ("(a) reminder_rows(today)", s["ms"]["reminder_rows"], q["reminder_rows"]),
        ("(b) send_reminders, the day already sent", s["ms"]["send_again"], q["send_again"]),
    ]
    for label, ms, n in rows:
        print(f"  {label:44} {ms:9.2f}  {ms / s['ms']['raw_rows']:6.2f}  {n:7d}")
    print(
        f"  the raw query and reminder_rows find the same {s['reminders']} obligations: {s['same_set']}; "
        f"the same rows: {s['same_rows']}"
    )
    print(
        f"  first run of the day {s['first_send']['ms']:.0f} ms {s['first_send']['counts']}; "
        f"the second wrote {s['messages_written_again']} messages"
    )
    for name, lines in s["plans"].items():
        print(f"  plan, {name}: {plan_summary(lines)}")


def print_verdicts(r: dict) -> None:
    sizes = r["sizes"]

    def path(key: str) -> str:
        return " -> ".join(str(s["queries"][key]) for s in sizes)

    at = " and ".join(f"{s['open_cases']:,}" for s in sizes)
    grow = "ok" if r["queries_do_not_grow"] else "FAIL"
    if len(sizes) == 1:
        grow += " (one size measured)"
    print(
        f"queries at {at} open cases: reminder_rows {path('reminder_rows')}, "
        f"send_reminders again {path('send_again')}: do not grow with N: {grow}"
    )
    print(f"  the same set: {'ok' if r['same_set'] else 'FAIL'}")
    print(f"  the second run of the day writes nothing: {'ok' if r['nothing_written_again'] else 'FAIL'}")
    last = r["sizes"][-1]
    verdict = "ok" if r["ok"] else "FAIL"
    print(
        f"  target: reminder_rows <= {RATIO_TARGET}x the raw query of the same rows: {r['ratio']:.2f}x {verdict}"
    )
    print(
        f"  reading: reminder_rows {last['ratio_rows_to_raw_ids']:.2f}x the raw query of the ids alone; its "
        f"statement by the cursor {last['ms']['product_statements']:.2f} ms, the ORM's part "
        f"{last['ms']['reminder_rows'] - last['ms']['product_statements']:.2f} ms"
    )


def markdown(r: dict) -> list[str]:
    """The reminders' rows of a larger table (bench/scale.py's)."""
    lines = [
        "| reminders of the day | open cases | due | ms | × raw | queries | same set |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    for s in r["sizes"]:
        same = "yes" if s["same_set"] and s["same_rows"] else "NO"
        for label, key, queries in (
            ("raw SQL: the same rows", "raw_rows", 1),
            ("raw SQL: the same ids", "raw_ids", s["queries"]["raw_ids"]),
            ("reminder_rows", "reminder_rows", s["queries"]["reminder_rows"]),
            ("send_reminders, day already sent", "send_again", s["queries"]["send_again"]),
        ):
            lines.append(
                f"| {label} | {s['open_cases']:,} | {s['reminders']:,} | {s['ms'][key]:.1f} "
                f"| {s['ms'][key] / s['ms']['raw_rows']:.2f}× | {queries} | {same} |"
            )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n_cases", nargs="?", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    parser.add_argument("--share", type=float, default=SHARE, help="of N_CASES, moved onto each distance")
    parser.add_argument("--out", type=Path, default=ROOT / "var" / "bench-reminders.json")
    args = parser.parse_args(argv)
    result = run(args.n_cases, rounds=args.rounds, share=args.share)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2, default=str) + "\n")
    print(f"written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
