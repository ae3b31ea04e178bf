#!/usr/bin/env bash
# The test suite on SQLite (the default database). Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
unset DATABASE_URL
echo "== pytest on SQLite"
exec .venv/bin/python -m pytest "$@"
