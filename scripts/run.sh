#!/usr/bin/env bash
# `make run`: the web app, the background worker (mail, the daily sweep, document checks: manage.py db_worker)
# and the scheduler that enqueues the daily sweep once a day (dogcase sweep --every), stopped together.
# In production run them as the systemd units in docs/deploy.md instead.
set -euo pipefail
VENV=${VENV:-.venv}
ADDR=${RUNSERVER_ADDR:-127.0.0.1:8000}
mkdir -p var
"$VENV/bin/python" manage.py db_worker --queue-name '*' --no-reload > var/worker.log 2>&1 &
WORKER=$!
"$VENV/bin/dogcase" sweep --every 3600 > var/sweep.log 2>&1 &
SWEEP=$!
trap 'kill $SWEEP $WORKER 2>/dev/null || true' EXIT INT TERM
echo "Worker running (pid $WORKER, log var/worker.log: e-mail is written there in development)."
echo "Daily sweep scheduled (pid $SWEEP, log var/sweep.log)."
"$VENV/bin/python" manage.py runserver "$ADDR"
