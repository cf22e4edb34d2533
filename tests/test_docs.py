"""The documentation site builds without a warning (`mkdocs build --strict`: every link, anchor
and docstring reference resolves), and what its pages state about the code is what the code
says: every error code the server can answer is in the HTTP reference, and the CFR tables are
what `python -m timelord.sim.cfr --summary` prints from the committed results."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: an API error code as the server writes it: "area/what"
CODE = re.compile(r'"([a-z]+/[a-z_]+)"')
#: strings of that shape that are media types, not error codes
MEDIA = ("application/", "text/", "image/", "multipart/")


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    pytest.importorskip("mkdocs", reason="the docs extra brings MkDocs")
    pytest.importorskip("mkdocstrings", reason="the docs extra brings mkdocstrings")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert built.returncode == 0, built.stderr[-4000:]
    # the pages that read the code and the results have what they read
    assert "timelord serve" in (tmp_path / "reference" / "cli" / "index.html").read_text()
    routes = (tmp_path / "reference" / "http" / "index.html").read_text()
    assert "/api/tables/{table_id}/actions" in routes
    assert (tmp_path / "results" / "cfr" / "keys-tiny-2p.svg").is_file()
    assert (tmp_path / "contributing" / "index.html").is_file()


def _server_codes() -> set[str]:
    found: set[str] = set()
    for path in (ROOT / "timelord" / "server").rglob("*.py"):
        found |= {c for c in CODE.findall(path.read_text()) if not c.startswith(MEDIA)}
    return found


def test_every_error_code_of_the_server_is_in_the_http_reference() -> None:
    page = (ROOT / "docs" / "reference" / "http.md").read_text()
    registry = set(re.findall(r"^\| `([a-z]+/[a-z_]+)` \|", page, re.MULTILINE))
    codes = _server_codes()
    assert {"action/stale", "rate/limited"} <= codes  # the scan finds codes at all
    assert codes - registry == set(), "codes the server answers that the reference lacks"
    assert registry - codes == set(), "codes the reference lists that the server never answers"


def test_the_cfr_tables_are_what_the_results_give(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("pyspiel", reason="the rl extra brings OpenSpiel")
    from timelord.sim.cfr import summary

    monkeypatch.chdir(ROOT)
    table = summary(Path("results/cfr"))
    assert table.count("\n") >= 5, "one row per committed curve"
    assert table in (ROOT / "docs" / "variants.md").read_text()
    deeper = table.replace("](../results/", "](../../results/")
    assert deeper in (ROOT / "docs" / "research" / "cfr.md").read_text()
