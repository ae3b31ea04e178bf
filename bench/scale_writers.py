"""The writers part of `make bench-scale` (bench/scale.py): acts per second with 1, 4 and 8 writers, each in
its own process, each on its own cases (open a case for an incident, then declare or classify the dog), and
beside each what the machine's CPUs did while they wrote (/proc/stat between the first writer's start and the
last one's end): how busy they were, and how much of it was the writers' own processes."""

from __future__ import annotations

import multiprocessing as mp
import os
import statistics
import time

from bench.scale_pages import pct

WRITERS = (1, 4, 8)


def writer_pool() -> list[tuple[int, str]]:
    """Incidents with no case yet whose facts support a designation (an unprovoked bite or attack on a
    person in a public place): each writer opens a case for its own and declares (or classifies) the dog."""
    from dogcase.cases.models import Incident

    out = []
    rows = (
        Incident.objects.filter(cases__isnull=True, kind__in=["bite", "attack"], place_type="public")
        .order_by("pk")
        .values_list("pk", "jurisdiction", "facts")
    )
    for pk, city, facts in rows.iterator(chunk_size=2000):
        if facts.get("provoked") is False and facts.get("victim") == "human":
            out.append((pk, city))
    return out


def cpu_ticks() -> tuple[int, int] | None:
    """(busy, total) clock ticks of all the machine's CPUs since boot (Linux /proc/stat); None elsewhere."""
    try:
        with open("/proc/stat", encoding="ascii") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    return sum(fields) - idle, sum(fields)


def cpu_use(starts: list, ends: list, writers_cpu: float) -> dict | None:
    """How busy the CPUs were between the earliest start and the latest end, and the writers' share of it."""
    if any(t is None for t in starts + ends):
        return None
    busy0, total0 = min(starts, key=lambda t: t[1])
    busy1, total1 = max(ends, key=lambda t: t[1])
    if total1 <= total0:
        return None
    seconds = (busy1 - busy0) / os.sysconf("SC_CLK_TCK")
    return {
        "busy": (busy1 - busy0) / (total1 - total0),
        "cpu_seconds": seconds,
        "writers_cpu_seconds": writers_cpu,
        "writers_share": writers_cpu / seconds if seconds else None,
    }


def writer(url: str, incidents: list, duration: float, barrier, results) -> None:
    from bench.scale import setup_django  # the writer runs in a process of its own: Django set up there

    setup_django(url)
    from django.contrib.auth import get_user_model

    from dogcase.cases import acts
    from dogcase.cases.models import Incident
    from dogcase.law import library

    users = {u.username: u for u in get_user_model().objects.filter(username__in=["officer", "clerk"])}
    for city in ("battle-lake-mn", "tracy-mn"):
        library().get(city)
    latencies, errors, first_error = [], 0, ""
    barrier.wait()
    ticks_start, cpu_start = cpu_ticks(), time.process_time()
    started = time.perf_counter()
    end = started + duration

    def timed(fn, *args, **kwargs):
        nonlocal errors, first_error
        t0 = time.perf_counter()
        try:
            result = fn(*args, **kwargs)
        except acts.ActError as exc:
            errors += 1
            first_error = first_error or str(exc)
            return None
        latencies.append(time.perf_counter() - t0)
        return result

    for pk, city in incidents:
        if time.perf_counter() >= end:
            break
        incident = Incident.objects.get(pk=pk)
        dog = incident.dogs.order_by("pk").first()
        case = timed(acts.open_case, incident=incident, dog=dog, actor=users["officer"])
        if case is None or time.perf_counter() >= end:
            continue
        if city == "battle-lake-mn":
            step, who = "declare", "officer"
            inputs = {"designation": "potentially_dangerous", "basis": "Bench: an unprovoked bite."}
        else:
            step, who = "classify", "clerk"
            inputs = {"designation": "vicious", "reasonable_cause": "Bench: an unprovoked bite."}
        timed(acts.take_step, case, step, actor=users[who], inputs=inputs, expected_version=case.version)
    results.put(
        {
            "acts": len(latencies),
            "seconds": time.perf_counter() - started,
            "latencies": latencies,
            "errors": errors,
            "first_error": first_error,
            "cpu_seconds": time.process_time() - cpu_start,
            "ticks": (ticks_start, cpu_ticks()),
        }
    )


def measure_writers(url: str, duration: float) -> list[dict]:
    pool = writer_pool()
    ctx = mp.get_context("spawn")
    rows = []
    # generous: a writer rarely does more than 200 acts/s; each incident gives two acts
    per_writer = max(10, int(duration * 100))
    phase = len(pool) // len(WRITERS)
    for number, n in enumerate(WRITERS):
        share = min(per_writer, phase // n)
        if share < 1:
            print(f"  {n} writers: not enough fresh incidents ({len(pool)})", flush=True)
            break
        start = number * phase
        slices = [pool[start + i * share : start + (i + 1) * share] for i in range(n)]
        barrier = ctx.Barrier(n)
        results = ctx.Queue()
        procs = [ctx.Process(target=writer, args=(url, s, duration, barrier, results)) for s in slices]
        for p in procs:
            p.start()
        outs = [results.get(timeout=duration + 600) for _ in procs]
        for p in procs:
            p.join()
        lat = [x for o in outs for x in o["latencies"]]
        total = sum(o["acts"] for o in outs)
        wall = max(o["seconds"] for o in outs)
        row = {
            "writers": n,
            "acts": total,
            "seconds": wall,
            "acts_per_s": total / wall,
            "per_writer_acts_per_s": total / wall / n,
            "p50_ms": statistics.median(lat) * 1000 if lat else None,
            "p95_ms": pct(lat, 0.95) * 1000 if lat else None,
            "errors": sum(o["errors"] for o in outs),
            "first_error": next((o["first_error"] for o in outs if o["first_error"]), ""),
            # a writer that used up its incidents stopped before the time was up: the rate is still right,
            # the sample smaller
            "ran_out": sum(o["seconds"] < duration for o in outs),
            "cpu": cpu_use(
                [o["ticks"][0] for o in outs],
                [o["ticks"][1] for o in outs],
                sum(o["cpu_seconds"] for o in outs),
            ),
        }
        rows.append(row)
        print(
            f"  {n} writer(s): {row['acts_per_s']:.1f} acts/s in all ({row['per_writer_acts_per_s']:.1f} each), "
            f"p50 {row['p50_ms'] or 0:.1f} ms, p95 {row['p95_ms'] or 0:.1f} ms, {row['errors']} refused",
            flush=True,
        )
        if row["cpu"]:
            print(
                f"    CPUs ({os.cpu_count()}) {row['cpu']['busy']:.0%} busy while they wrote; the writers' own "
                f"processes {row['cpu']['writers_share']:.0%} of that, PostgreSQL and the rest "
                f"{1 - row['cpu']['writers_share']:.0%}",
                flush=True,
            )
        if row["ran_out"]:
            print(
                f"    {row['ran_out']} writer(s) used up their incidents before {duration:.0f} s", flush=True
            )
        if row["first_error"]:
            print(f"    first refusal: {row['first_error'][:300]}", flush=True)
    base = rows[0]["acts_per_s"] if rows else 0
    for row in rows:
        row["vs_one_writer"] = row["acts_per_s"] / base if base else None
    return rows
