"""`make bench-api` runs as a production server would serve it (DEBUG off, an audit key, HTTPS behind the
proxy): every answer of the classify API, the bare view and the ninja floor is a 200, and the figures are
written. A short run; no figure is judged here (timing is the benchmark's, never a test's)."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_api_benchmark_runs_and_writes_its_figures(tmp_path):
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DEBUG", "DJANGO_SETTINGS_MODULE", "DOGCASE_AUDIT_KEY", "SECURE_SSL_REDIRECT")
    }
    env["DOGCASE_VAR_DIR"] = str(tmp_path / "var")
    out = tmp_path / "bench-api.json"
    done = subprocess.run(  # noqa: S603 - our own benchmark, by path
        [
            sys.executable,
            "bench/api_classify.py",
            "--rounds",
            "2",
            "--warmup",
            "1",
            "--requests",
            "5",
            "--out",
            out,
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "classify / bare req/s" in done.stdout
    figures = json.loads(out.read_text())
    assert set(figures["per_request_ns"]) == {"classify", "bare", "ninja floor"}
    assert len(figures["ratios"]) == 2 and all(r > 0 for r in figures["ratios"])
