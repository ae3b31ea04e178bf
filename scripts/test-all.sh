#!/usr/bin/env bash
# The whole suite on SQLite and on PostgreSQL at the same time (one core each), each with a var/ folder of its
# own. Each run's output goes to its log and is printed when both have ended; the exit code is non-zero if
# either run failed (pytest's 5, "no tests collected", included). Extra arguments go to both pytest runs.
set -uo pipefail
cd "$(dirname "$0")/.."
logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT
mkdir -p "$logs/var-sqlite" "$logs/var-postgres"
DOGCASE_VAR_DIR="$logs/var-sqlite" scripts/test-sqlite.sh "$@" >"$logs/sqlite.log" 2>&1 &
sqlite_pid=$!
DOGCASE_VAR_DIR="$logs/var-postgres" scripts/test-postgres.sh "$@" >"$logs/postgres.log" 2>&1 &
postgres_pid=$!
wait "$sqlite_pid"; sqlite_status=$?
wait "$postgres_pid"; postgres_status=$?
cat "$logs/sqlite.log"
cat "$logs/postgres.log"
echo "== SQLite: exit $sqlite_status; PostgreSQL: exit $postgres_status"
[[ $sqlite_status -eq 0 && $postgres_status -eq 0 ]]
