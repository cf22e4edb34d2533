#!/usr/bin/env bash
# Installs everything the tests need, then runs the whole suite: lint, types, tests.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet --upgrade pip
python3 -m pip install --quiet -e '.[test]'
python3 -m ruff check .
python3 -m ruff format --check .
python3 -m mypy
python3 -m pytest "$@"
