#!/usr/bin/env bash
# The test suite on a throwaway PostgreSQL cluster, always stopped afterwards; exits with pytest's code.
set -euo pipefail
cd "$(dirname "$0")/.."
trap 'scripts/pg.sh stop' EXIT
DATABASE_URL="$(scripts/pg.sh start)"
export DATABASE_URL
echo "== pytest on PostgreSQL ($DATABASE_URL)"
status=0
.venv/bin/python -m pytest "$@" || status=$?
exit "$status"
