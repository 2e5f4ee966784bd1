#!/usr/bin/env bash
# Creates $REPO/.venv for compat/operations_client.py and installs
# compat/requirements.txt into it (from PyPI). Idempotent: skipped when the
# venv exists and was built from the same requirements.txt (its sha256 is kept
# in .venv/requirements.sha256). Runs at setup time; the test itself downloads
# nothing.
#
#   bash compat/setup_venv.sh            # then: .venv/bin/python compat/operations_client.py ...
#   PYTHON=python3.12 bash compat/setup_venv.sh   # another interpreter (>= 3.10)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
venv="$repo/.venv"
requirements="$here/requirements.txt"
stamp="$venv/requirements.sha256"

if [[ -z "${PYTHON:-}" ]]; then
    if command -v python3.11 >/dev/null 2>&1; then
        PYTHON=python3.11
    else
        PYTHON=python3
    fi
fi

want="$(sha256sum "$requirements" | cut -d' ' -f1)"

if [[ -x "$venv/bin/python" && -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
    exit 0
fi

if [[ ! -x "$venv/bin/python" ]] || ! "$venv/bin/python" -c 'import sys' >/dev/null 2>&1; then
    rm -rf "$venv"
    "$PYTHON" -c 'import sys; assert sys.version_info >= (3, 10), sys.version' \
        || { echo "setup_venv.sh: $PYTHON is older than Python 3.10" >&2; exit 1; }
    "$PYTHON" -m venv "$venv"
fi

rm -f "$stamp"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input --root-user-action=ignore \
    -r "$requirements"
echo "$want" >"$stamp"
