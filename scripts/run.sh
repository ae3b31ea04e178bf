#!/usr/bin/env bash
# `make run`: check the law packs, migrate, seed the demo, then serve the web app with the background worker
# (mail, the daily sweep, document checks: manage.py db_worker), the scheduler of the daily sweep (dogcase sweep
# --every) and the recovery of stalled sends, stopped together with Ctrl-C.
#
# The terminal shows only what a newcomer needs: the address served, the demo logins and the demo owner's code.
# Everything else goes to the logs in $DOGCASE_VAR_DIR (var/ by default): law-check.log, setup.log, server.log
# (every request and any error), worker.log (e-mail is written there in development), sweep.log, recover.log.
# In production run the systemd units in docs/deploy.md instead.
set -euo pipefail
VENV=${VENV:-.venv}
ADDR=${RUNSERVER_ADDR:-127.0.0.1:8000}
# The host of every link dogcase prints or sends (the portal on a notice, e-mails, /verify/ in the footers):
# the address served here, unless DOGCASE_SITE_URL names another (the worker and the sweep have no request).
export DOGCASE_SITE_URL=${DOGCASE_SITE_URL:-http://$ADDR}
LOGS=${DOGCASE_VAR_DIR:-var}
mkdir -p "$LOGS"

# step NAME LOG COMMAND...: run a setup step with its output in LOG; on failure show the log's end and stop
step() {
    local name=$1 log=$2
    shift 2
    if ! "$@" >"$log" 2>&1; then
        echo "$name failed; the end of $log:" >&2
        tail -n 40 "$log" >&2
        exit 1
    fi
}

step "Checking the law packs" "$LOGS/law-check.log" "$VENV/bin/dogcase" law check
# an office's address or telephone a pack leaves out is a city's setting (the City settings page; the demo fills
# them in), not a problem of the law: counted apart
warnings=$(grep '^warning:' "$LOGS/law-check.log" | grep -vc 'jurisdiction\.offices\.' || true)
echo "Law packs checked: no errors, $warnings warning(s) for the cities to settle (details: $LOGS/law-check.log)."
step "Preparing the database" "$LOGS/setup.log" "$VENV/bin/python" manage.py migrate --noinput
"$VENV/bin/python" manage.py seed_demo 2>>"$LOGS/setup.log"

"$VENV/bin/python" manage.py db_worker --queue-name '*' --no-reload >"$LOGS/worker.log" 2>&1 &
WORKER=$!
"$VENV/bin/dogcase" sweep --every 3600 >"$LOGS/sweep.log" 2>&1 &
SWEEP=$!
# every 2 minutes: the sends a stopped worker left half-done, queued again once or served on paper
"$VENV/bin/python" manage.py recover_stuck --every 120 >"$LOGS/recover.log" 2>&1 &
RECOVER=$!
"$VENV/bin/python" manage.py runserver "$ADDR" >"$LOGS/server.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER $RECOVER $SWEEP $WORKER 2>/dev/null || true' EXIT INT TERM

# Say where it is served only once it answers there (or why it could not start).
url="http://$ADDR/"
for _ in $(seq 1 120); do
    if ! kill -0 "$SERVER" 2>/dev/null; then
        echo "The web server stopped; the end of $LOGS/server.log:" >&2
        tail -n 20 "$LOGS/server.log" >&2
        exit 1
    fi
    if "$VENV/bin/python" -c "import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=2)" "$url" \
        2>/dev/null; then
        break
    fi
    sleep 0.5
done
echo
echo "dogcase is running: open $url and log in with one of the demo logins above."
echo "Links in documents and messages point to $DOGCASE_SITE_URL. Logs: $LOGS/*.log. Ctrl-C stops it."
wait "$SERVER"
