#!/usr/bin/env bash
# `make serve`: the production server — gunicorn with DEBUG=False, the background worker (manage.py db_worker:
# mail, the daily sweep, document checks) and the scheduler of the daily sweep beside it; when one stops, the
# others are stopped too and the script exits with its status. On a server, run them as the systemd units in
# docs/deploy.md instead (they restart each on its own). Needs SECRET_KEY, ALLOWED_HOSTS and DOGCASE_SITE_URL
# (and the rest of the production environment, docs/deploy.md).
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.venv}
export DEBUG=False
: "${SECRET_KEY:?set SECRET_KEY (e.g. from a file only the service can read); see docs/deploy.md}"
: "${ALLOWED_HOSTS:?set ALLOWED_HOSTS, e.g. dogcase.example.org; see docs/deploy.md}"
: "${DOGCASE_SITE_URL:?set DOGCASE_SITE_URL, the host of every link in documents and messages, e.g. https://dogcase.example.org; see docs/deploy.md}"

"$VENV/bin/python" manage.py check --deploy
"$VENV/bin/dogcase" law check >/dev/null
"$VENV/bin/python" manage.py migrate --noinput
"$VENV/bin/python" manage.py collectstatic --noinput --verbosity 0

"$VENV/bin/python" manage.py db_worker --queue-name '*' --no-reload &
worker=$!
"$VENV/bin/dogcase" sweep --every 3600 &
sweep=$!
# every 2 minutes: the sends a stopped worker left half-done, queued again once or served on paper
"$VENV/bin/python" manage.py recover_stuck --every 120 &
recover=$!
"$VENV/bin/gunicorn" --config config/gunicorn.py &
web=$!
trap 'kill $web $worker $sweep $recover 2>/dev/null || true' EXIT INT TERM
status=0
wait -n $web $worker $sweep $recover || status=$?
exit "$status"
