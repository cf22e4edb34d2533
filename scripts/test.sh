#!/usr/bin/env bash
# Installs everything the tests need, then runs the whole suite: lint, types, tests.
set -euo pipefail
# a Debian system Python refuses pip installs (PEP 668) unless told; other pips ignore this
export PIP_BREAK_SYSTEM_PACKAGES=1
cd "$(dirname "$0")/.."
python3 -m pip install --quiet -e '.[test]'
python3 -m ruff check .
python3 -m ruff format --check .
python3 -m mypy
python3 -m pytest "$@"
