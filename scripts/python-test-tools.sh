#!/usr/bin/env bash
# Makes the Python virtual environment the tests use (jsonschema, the SARIF 2.1.0 schema, the MCP SDK: see
# python-test-requirements.txt) in .build/python-tools, or in the directory given as $1, and prints its python.
# Does nothing but print when the environment already holds exactly those requirements. Needs python3 with its
# venv module (Debian: python3, python3-venv; scripts/install-deps.sh installs them) and PyPI.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
requirements="$root/scripts/python-test-requirements.txt"
venv=${1:-"$root/.build/python-tools"}
stamp="$venv/requirements.txt"

if ! cmp -s "$requirements" "$stamp" 2>/dev/null || [ ! -x "$venv/bin/python" ]; then
    if ! command -v python3 >/dev/null 2>&1; then
        echo "error: no python3 on PATH; the tests need it (scripts/install-deps.sh installs it)" >&2
        exit 1
    fi
    echo "Installing the tests' Python packages into $venv" >&2
    rm -rf "$venv"
    mkdir -p "$(dirname "$venv")"
    python3 -m venv "$venv" >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input -r "$requirements" >&2
    cp "$requirements" "$stamp"
fi
echo "$venv/bin/python"
