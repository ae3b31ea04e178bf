#!/usr/bin/env bash
# The whole suite on SQLite and on PostgreSQL at the same time (one core each), each with a var/ folder of its
# own. Each run's output goes to its log and is printed when both have ended; the exit code is non-zero if
# either run failed (pytest's 5, "no tests collected", included). Extra arguments go to both pytest runs.
#
# The whole run, with no arguments, then runs (after the PostgreSQL run) the law suite and the three cities' case
# stories once more on SQLite as if on an awkward day (DOGCASE_TEST_DATE, tests/conftest.py): the day after Thanksgiving, a Friday
# the state may or may not observe, two days before a weekend and in the month's last week; a test that passes
# only on some days fails.
set -uo pipefail
cd "$(dirname "$0")/.."
logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT
mkdir -p "$logs/var-sqlite" "$logs/var-postgres"
# The PostgreSQL run serves one more city, installed beside the shipped packs as a server's own pack is
# (DOGCASE_SITE_PACKS_DIR defaults to packs/ in the var folder): the invented Lakeview of tests/law/packs. A new
# city must not break the suite (issue 21, item 6): the tests read the packs installed.
mkdir -p "$logs/var-postgres/packs"
cp -r tests/law/packs/lakeview-mn "$logs/var-postgres/packs/"
AWKWARD_DAY=${DOGCASE_AWKWARD_DAY:-2026-11-27}
mkdir -p "$logs/var-dated"
DOGCASE_VAR_DIR="$logs/var-sqlite" scripts/test-sqlite.sh "$@" >"$logs/sqlite.log" 2>&1 &
sqlite_pid=$!
# The browser tests (headless Chromium over the pages) run once, in the SQLite run: what they add to the
# server-side tests is the browser, and the PostgreSQL run keeps every other test, so that the two runs side by
# side stay within CI's time. Given arguments, both runs take exactly them.
pg_args=("$@")
if [[ $# -eq 0 ]]; then
    pg_args=(-m "not browser")
fi
# The awkward day's run follows the PostgreSQL run, which ends a few minutes before the SQLite one (no browser).
(
    DOGCASE_EXPECT_SITE_PACKS=lakeview-mn DOGCASE_VAR_DIR="$logs/var-postgres" scripts/test-postgres.sh "${pg_args[@]}" || exit
    if [[ $# -eq 0 ]]; then
        echo "== the law suite and the case stories again on SQLite, as if on $AWKWARD_DAY"
        DOGCASE_TEST_DATE=$AWKWARD_DAY DOGCASE_VAR_DIR="$logs/var-dated" scripts/test-sqlite.sh -q tests/law \
            tests/cases/test_battle_lake_case.py tests/cases/test_tracy_case.py \
            tests/cases/test_state_destruction_case.py tests/cases/test_law_issue18_scenarios.py \
            tests/cases/test_moves.py
    fi
) >"$logs/postgres.log" 2>&1 &
postgres_pid=$!
wait "$sqlite_pid"; sqlite_status=$?
wait "$postgres_pid"; postgres_status=$?
cat "$logs/sqlite.log"
cat "$logs/postgres.log"
echo "== SQLite: exit $sqlite_status; PostgreSQL: exit $postgres_status"
[[ $sqlite_status -eq 0 && $postgres_status -eq 0 ]]
