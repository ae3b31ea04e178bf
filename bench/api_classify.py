"""The classify API beside a bare Django JSON view, served the same way (`make bench-api`).

Both are called through config's WSGI application in this process (the whole middleware stack, URL
resolution, the request body read and the JSON response written; no socket), one core, in interleaved
pairs of rounds (classify, bare, bare, classify, ...). The bare view reads the same JSON body and answers a
small JSON object: what any Django JSON endpoint costs. Each round sends the same seeded mix of fact sets
(bench/run.py's workload, Battle Lake on 2025-06-01). Target (issue 11): classify >= 0.8x the bare view's
requests per second. Reports medians and the ratio; it does not gate (exit status 0).

Time is this process's CPU time (time.process_time_ns): one thread on one pinned core, so it is the wall time
of a quiet machine, and it does not count the time other programs take the core from the loop.
"""

import gc
import io
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DEBUG", "False")
os.environ.setdefault("SECRET_KEY", "bench-only-not-a-secret")  # noqa: S105 - a local benchmark's key
os.environ.setdefault("ALLOWED_HOSTS", "testserver")
# the request log line costs both views the same; left out, it does not shrink the difference measured
os.environ.setdefault("LOG_LEVEL", "WARNING")
os.environ.setdefault("DOGCASE_AUDIT_KEY", "bench-only-audit-key-not-a-secret-0123456789")  # noqa: S105

ROUNDS = 12  # pairs
WARMUP = 2
N_REQUESTS = 400  # per round
TARGET = 0.8
BARE_PATH = "/bench/bare-json"
NINJA_FLOOR_PATH = "/bench/ninja/floor/battle-lake-mn"


def bare_json(request):
    # csrf_exempt below, as ninja's views are: a JSON API without cookie authentication
    from django.http import JsonResponse

    body = json.loads(request.body)
    return JsonResponse({"ok": True, "facts": len(body.get("facts", {}))})


def _ninja_floor():
    """What django-ninja alone costs: the classify body parsed into the same model, an empty answer."""
    from django.http import HttpResponse
    from ninja import NinjaAPI

    from dogcase.api.law import ClassifyIn

    floor = NinjaAPI(urls_namespace="bench-ninja-floor", docs_url=None, openapi_url=None)

    @floor.post("/floor/{id}")
    def ninja_floor(request, id: str, payload: ClassifyIn):
        return HttpResponse(b"{}", content_type="application/json")

    return floor


def _install_bare_view() -> None:
    """The bare view in front of the project's URLs (a bench-only URLconf, never in the product)."""
    import types

    from django.conf import settings
    from django.urls import path
    from django.views.decorators.csrf import csrf_exempt

    import config.urls

    urlconf = types.ModuleType("bench_urls")
    # resolved beside the API: the same patterns are tried before it
    patterns = list(config.urls.urlpatterns)
    at = next(i for i, p in enumerate(patterns) if str(p.pattern) == "api/v1/")
    patterns.insert(at, path(BARE_PATH.lstrip("/"), csrf_exempt(bare_json)))
    patterns.insert(at, path("bench/ninja/", _ninja_floor().urls))
    urlconf.urlpatterns = patterns
    sys.modules["bench_urls"] = urlconf
    settings.ROOT_URLCONF = "bench_urls"


def _environ(path: str, body: bytes) -> dict:
    return {
        "REQUEST_METHOD": "POST",
        "PATH_INFO": path,
        "SCRIPT_NAME": "",
        "QUERY_STRING": "",
        "CONTENT_TYPE": "application/json",
        "CONTENT_LENGTH": str(len(body)),
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "443",
        "HTTP_HOST": "testserver",
        "REMOTE_ADDR": "127.0.0.1",
        "wsgi.url_scheme": "https",  # behind the TLS proxy, as in production (docs/deploy.md)
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": sys.stderr,
        "wsgi.version": (1, 0),
        "wsgi.multithread": False,
        "wsgi.multiprocess": False,
        "wsgi.run_once": False,
    }


def _loop(app, path: str, bodies: list[bytes]) -> tuple[int, int]:
    """ns for one round of requests; the count of non-200 answers (must be 0)."""
    start = time.process_time_ns()
    status: list[str] = []

    def start_response(s, headers, exc_info=None):
        status.append(s)

    for body in bodies:
        chunks = app(_environ(path, body), start_response)
        b"".join(chunks)
        if hasattr(chunks, "close"):
            chunks.close()
    bad = sum(1 for s in status if not s.startswith("200"))
    return time.process_time_ns() - start, bad


def main(argv: list[str] | None = None) -> int:
    import argparse

    from bench.run import cpu_model, fact_workload, pin_to_one_core

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=ROUNDS, help="interleaved pairs of rounds")
    parser.add_argument("--warmup", type=int, default=WARMUP, help="pairs of rounds before measuring")
    parser.add_argument("--requests", type=int, default=N_REQUESTS, help="requests a round")
    parser.add_argument(
        "--out", type=Path, default=ROOT / "var" / "bench-api.json", help="the figures as JSON"
    )
    args = parser.parse_args(argv)

    cpu = pin_to_one_core()
    import django

    django.setup()
    _install_bare_view()
    from django.core.wsgi import get_wsgi_application

    from bench.floor import DAY, JURISDICTION
    from dogcase.law import library

    app = get_wsgi_application()
    j = library().get(JURISDICTION)
    facts = fact_workload(j)[: args.requests]
    bodies = [
        json.dumps({"incident_date": DAY.isoformat(), "facts": f}, default=list).encode() for f in facts
    ]
    classify_path = f"/api/v1/jurisdictions/{JURISDICTION}/classify"
    # classify and bare alternate in each pair; the ninja floor (information) runs beside them
    variants = {"classify": classify_path, "bare": BARE_PATH, "ninja floor": NINJA_FLOOR_PATH}

    for _ in range(max(args.warmup, 1)):  # at least one: it also checks that every answer is a 200
        for path in variants.values():
            _, bad = _loop(app, path, bodies)
            if bad:
                print(f"{path}: {bad} answers were not 200", file=sys.stderr)
                return 1
    per_request: dict[str, list[float]] = {name: [] for name in variants}
    ratios: list[float] = []
    for r in range(args.rounds):
        order = list(variants) if r % 2 == 0 else list(reversed(variants))
        pair: dict[str, float] = {}
        for name in order:
            gc.collect()
            ns, _ = _loop(app, variants[name], bodies)
            pair[name] = ns / len(bodies)
            per_request[name].append(pair[name])
        ratios.append(pair["bare"] / pair["classify"])  # req/s of classify over req/s of bare

    print("classify API vs a bare Django JSON view (make bench-api)")
    print(
        f"pinned to cpu {cpu} of {os.cpu_count()} ({cpu_model()}); DEBUG=False; WSGI call loop, no socket; "
        "process CPU time"
    )
    print(
        f"{args.rounds} interleaved pairs of {len(bodies)} requests after {args.warmup} warm-up pairs; medians\n"
    )
    print(f"{'':<12} {'req/s':>10} {'µs/request':>11} {'spread (min-max µs)':>21}")
    for name, values in per_request.items():
        med = statistics.median(values)
        print(
            f"{name:<12} {1e9 / med:>10,.0f} {med / 1000:>11.1f} {min(values) / 1000:>10.1f}-{max(values) / 1000:.1f}"
        )
    floor_ratio = statistics.median(per_request["bare"]) / statistics.median(per_request["ninja floor"])
    print(
        f"\nninja floor / bare req/s: {floor_ratio:.2f}x (django-ninja's own dispatch, no law: information)"
    )
    ratio = statistics.median(ratios)
    verdict = "ok" if ratio >= TARGET else "FAIL"
    print(
        f"\nclassify / bare req/s: median of pairs {ratio:.2f}x (pairs {min(ratios):.2f}-{max(ratios):.2f}); "
        f"target >= {TARGET}x: {verdict}"
    )
    out = args.out
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"per_request_ns": per_request, "ratios": ratios, "ratio": ratio}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
