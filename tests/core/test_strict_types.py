"""The rules core and the games type-check under `mypy --strict`: they are what the compiled
build is made from (mypyc trusts the types), and what every other layer builds on. The rest
of the package is held to the project's milder settings (pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_core_and_games_pass_mypy_strict() -> None:
    pytest.importorskip("mypy.api", reason="the test extra brings mypy")
    # another process: mypy in this one would raise the recursion limit for every later test
    # (the view cache's door against a view nested thousands deep relies on the default);
    # a cache of its own: the strict options would invalidate the plain run's cache
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--cache-dir",
            str(ROOT / ".mypy_cache" / "strict"),
            str(ROOT / "timelord" / "core"),
            str(ROOT / "timelord" / "games"),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stdout + run.stderr
