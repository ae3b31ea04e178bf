#!/usr/bin/env bash
# `make run`: the web app, the background worker (mail, the daily sweep, document checks: manage.py db_worker)
# and the scheduler that enqueues the daily sweep once a day (dogcase sweep --every), stopped together.
# In production run them as the systemd units in docs/deploy.md instead.
set -euo pipefail
VENV=${VENV:-.venv}
ADDR=${RUNSERVER_ADDR:-127.0.0.1:8000}
# The host of every link dogcase prints or sends (the portal on a notice, e-mails, /verify/ in the footers):
# the address served here, unless DOGCASE_SITE_URL names another (the worker and the sweep have no request).
export DOGCASE_SITE_URL=${DOGCASE_SITE_URL:-http://$ADDR}
echo "Links in documents and messages point to $DOGCASE_SITE_URL (DOGCASE_SITE_URL)."
mkdir -p var
"$VENV/bin/python" manage.py db_worker --queue-name '*' --no-reload > var/worker.log 2>&1 &
WORKER=$!
"$VENV/bin/dogcase" sweep --every 3600 > var/sweep.log 2>&1 &
SWEEP=$!
# every 2 minutes: the sends a stopped worker left half-done, queued again once or served on paper
"$VENV/bin/python" manage.py recover_stuck --every 120 > var/recover.log 2>&1 &
RECOVER=$!
trap 'kill $RECOVER $SWEEP $WORKER 2>/dev/null || true' EXIT INT TERM
echo "Worker running (pid $WORKER, log var/worker.log: e-mail is written there in development)."
echo "Daily sweep scheduled (pid $SWEEP, log var/sweep.log)."
"$VENV/bin/python" manage.py runserver "$ADDR"
