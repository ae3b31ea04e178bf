#!/usr/bin/env bash
# Print the path of a Python interpreter >= 3.12 (Django 6.1 needs it); exit 1 if there is none.
# pyenv shims are skipped unless they actually run: a shim for a version that is not selected fails.
set -uo pipefail

works() {
    "$1" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)' >/dev/null 2>&1
}

candidates=()
[[ -n "${DOGCASE_PYTHON:-}" ]] && candidates+=("$DOGCASE_PYTHON")
for name in python3.14 python3.13 python3.12 python3; do
    path=$(command -v "$name" 2>/dev/null) && candidates+=("$path")
done
pyenv_root="${PYENV_ROOT:-$HOME/.pyenv}"
# Newest first.
while IFS= read -r path; do
    candidates+=("$path")
done < <(ls -d "$pyenv_root"/versions/3.1[2-9]*/bin/python 2>/dev/null | sort -rV)
for path in /usr/bin/python3.1[2-9] /usr/local/bin/python3.1[2-9]; do
    [[ -x "$path" ]] && candidates+=("$path")
done

for candidate in "${candidates[@]}"; do
    if works "$candidate"; then
        # Resolve pyenv shims to the real interpreter so the venv does not depend on the shim.
        "$candidate" -c 'import sys; print(sys.executable)'
        exit 0
    fi
done

echo "find-python: no Python >= 3.12 found (Django 6.1 needs it)." >&2
echo "find-python: install Python 3.12+ (e.g. 'pyenv install 3.12'; Debian 12's apt has only 3.11)," >&2
echo "find-python: or point DOGCASE_PYTHON at one." >&2
exit 1
