"""The package's layers (docs/architecture.md, "Layers") hold: import-linter reads every
import of the package and checks the contracts in pyproject.toml, and the page states the
same layers, in the same order, as the contract enforces."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _contract_layers() -> list[list[str]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    contracts = config["tool"]["importlinter"]["contracts"]
    (layers,) = [c["layers"] for c in contracts if c["type"] == "layers"]
    return [[name.strip().removeprefix("timelord.") for name in row.split("|")] for row in layers]


def test_the_import_contracts_are_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    cli = pytest.importorskip("importlinter.cli", reason="the test extra brings import-linter")
    monkeypatch.chdir(ROOT)
    assert cli.lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True) == 0


def test_the_architecture_page_states_the_enforced_layers() -> None:
    page = (ROOT / "docs" / "architecture.md").read_text()
    section = page.split("## Layers", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    stated = [re.findall(r"`(\w+)`", row.split("|")[1]) for row in rows]
    assert stated == _contract_layers()
