#!/usr/bin/env bash
# Installs everything the tests need, then runs the whole suite: lint, types, tests.
# The browser tests drive Debian's chromium; the storage tests start a throw-away PostgreSQL
# cluster from Debian's postgresql binaries; both come from apt when missing.
set -euo pipefail
# a Debian system Python refuses pip installs (PEP 668) unless told; other pips ignore this
export PIP_BREAK_SYSTEM_PACKAGES=1
cd "$(dirname "$0")/.."

need_apt=()
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || need_apt+=(postgresql)
command -v tmux >/dev/null || need_apt+=(tmux)
if [ ${#need_apt[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

# torch's CPU build before the train extra, which would otherwise pull PyPI's CUDA build
# (about 2.8 GB); this machine kind keeps the CPU wheel of 2.13.0 on disk, which pip takes
python3 -m pip install --quiet 'torch==2.13.0'
# compiles the rules core with mypyc in place where a C compiler is (docs/hosts/serve.md)
echo "installing timelord[test]: the first install compiles the rules core (a few CPU-minutes)"
python3 -m pip install --quiet -e '.[test]'
python3 -c "import timelord; print('timelord build:', timelord.BUILD)"
# setup.py falls back to pure Python when mypyc fails (a user's install still works); the
# suite must not pass on that fallback where a compiler is, or a mypyc error goes unseen
if command -v gcc >/dev/null && ! python3 -c "import sys, timelord; sys.exit(not timelord.COMPILED)"; then
  echo "the rules core did not compile (see setup.py's warning above)" >&2
  exit 1
fi
python3 -m ruff check .
python3 -m ruff format --check .
python3 -m mypy
# axe-core for the accessibility tests only (never served): .cache/axe-core
scripts/fetch_axe.sh
python3 -m pytest "$@"
# the engine tests again on the pure-Python build (the golden replays prove both play alike)
if python3 -c "import sys, timelord; sys.exit(not timelord.COMPILED)"; then
  TIMELORD_PURE=1 python3 -c "import timelord; print('timelord build:', timelord.BUILD)"
  TIMELORD_PURE=1 python3 -m pytest tests/core tests/games
fi
