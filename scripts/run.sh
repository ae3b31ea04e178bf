#!/usr/bin/env bash
# `make run`: the web app plus the daily sweep (overdue obligations -> staff tasks), stopped together.
# In production run the sweep from cron or a systemd timer instead (see README "Running the daily sweep").
set -euo pipefail
VENV=${VENV:-.venv}
ADDR=${RUNSERVER_ADDR:-127.0.0.1:8000}
"$VENV/bin/dogcase" sweep --every 86400 > var/sweep.log 2>&1 &
SWEEP=$!
trap 'kill $SWEEP 2>/dev/null || true' EXIT INT TERM
echo "Daily sweep running (pid $SWEEP, log var/sweep.log)."
"$VENV/bin/python" manage.py runserver "$ADDR"
