"""The strength-table command: plays two matches per game, tabulates saved ones, writes
Markdown."""

from __future__ import annotations

from pathlib import Path

import pytest

import tests.support.toy_tricks  # noqa: F401  (registers toy-tricks)
from timelord.sim import strength


def test_strength_tables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(strength.STRONGEST, "toy-tricks", "ismcts:sims=10/cutoff=3")
    doc = tmp_path / "strength.md"
    args = [
        "--game",
        "toy-tricks",
        "--results",
        str(tmp_path / "results"),
        "--output",
        str(doc),
        "--heuristic-games",
        "8",
        "--search-games",
        "4",
        "--workers",
        "1",
    ]
    assert strength.main(args) == 0
    text = doc.read_text()
    assert "| toy-tricks | heuristic vs random | 8 | `heuristic` |" in text
    assert "| toy-tricks | strongest vs heuristic | 4 | `ismcts:sims=10/cutoff=3` |" in text
    assert "`toy-tricks`: `ismcts:sims=10/cutoff=3` = sims=10/rollout=heuristic/cutoff=3" in text
    files = sorted((tmp_path / "results").glob("*.results.jsonl"))
    assert len(files) == 2
    stamps = [f.stat().st_mtime_ns for f in files]
    # a second run reads the saved matches back instead of playing them again
    assert strength.main([*args, "--no-play"]) == 0
    assert [f.stat().st_mtime_ns for f in files] == stamps
    assert doc.read_text() == text
    # tabulating with other sizes still finds the saved matches, with their real counts
    assert strength.main([*args[:-4], "--search-games", "99", "--no-play"]) == 0
    assert doc.read_text() == text
    # a run that plays a game plays it again (saved results may come from older code)
    assert strength.main(args) == 0
    assert all(f.stat().st_mtime_ns > t for f, t in zip(files, stamps, strict=True))


def test_unknown_game_is_refused(tmp_path: Path) -> None:
    assert strength.main(["--game", "nope", "--output", str(tmp_path / "x.md")]) == 2
