"""`make run` says only what a newcomer needs (issue 20, item 10): the law check's result in one line, the demo
owner and logins, and the address actually served; everything else (the law check's details, migrations, every
request, the worker) goes to the logs in the var folder."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.ops.test_production import free_port

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(
    bool(os.environ.get("DATABASE_URL")),
    reason="make run is the embedded SQLite demo; the PostgreSQL run must not seed its server",
)


def test_make_run_prints_the_address_served_and_the_logins_and_logs_the_rest(tmp_path):
    port = free_port()
    addr = f"127.0.0.1:{port}"
    env = os.environ | {
        "DOGCASE_VAR_DIR": str(tmp_path),
        "RUNSERVER_ADDR": addr,
        "VENV": str(Path(sys.executable).parent.parent),
    }
    env.pop("DOGCASE_SITE_URL", None)
    run = subprocess.Popen(  # noqa: S603
        ["scripts/run.sh"],  # noqa: S607
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    lines: list[str] = []
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            line = run.stdout.readline()
            if not line:
                break
            lines.append(line.rstrip("\n"))
            if "dogcase is running" in line:
                break
        # the server answers there, and its request log is in the var folder, not on the terminal
        with urllib.request.urlopen(f"http://{addr}/owner/", timeout=10) as response:  # noqa: S310
            assert response.status == 200
    finally:
        os.killpg(run.pid, signal.SIGTERM)
        rest, _ = run.communicate(timeout=60)
    lines += rest.splitlines()
    output = "\n".join(lines)

    assert f"open http://{addr}/" in output  # the address actually served, not the default 8000
    assert ":8000" not in output
    assert f"Owner's portal: http://{addr}/owner/" in output
    assert "officer" in output and "dogcase-demo-only" in output
    assert "Law packs checked: no errors" in output
    # nothing else: no migrations, no JSON of the law check, no warning repeated, no request line
    assert "Applying" not in output and '"warnings"' not in output and "GET /" not in output
    assert len(lines) <= 25, output
    assert "GET /owner/ 200" in (tmp_path / "server.log").read_text()
    assert '"ok": true' in (tmp_path / "law-check.log").read_text()
    assert "Applying cases.0001_initial" in (tmp_path / "setup.log").read_text()
