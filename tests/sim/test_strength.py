"""The strength-table command: plays two matches per game, tabulates saved ones, writes
Markdown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import tests.support.toy_tricks  # noqa: F401  (registers toy-tricks)
from timelord.sim import strength

ROOT = Path(__file__).resolve().parents[2]


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


def test_coach_section_plays_its_matches_and_survives_a_rewrite(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--coach` plays the stronger levels' matches into their own section, whose side share
    adds both seats of a side; a later rewrite of the main strength table keeps that section."""
    plan = strength.Plan(
        "toy-tricks", "one v three", "heuristic", ("heuristic", "random", "random"), 0.4
    )
    monkeypatch.setattr(strength, "coach_plans", lambda: [plan])
    monkeypatch.setattr(strength, "PLAYERS", 3)
    doc = tmp_path / "strength.md"
    common = ["--game", "toy-tricks", "--results", str(tmp_path / "r"), "--output", str(doc)]
    assert strength.main([*common, "--coach", "--coach-games", "6", "--workers", "1"]) == 0
    records = strength.plan_records(tmp_path / "r", plan)
    assert len(records) == 6
    wins, n = strength.side_share(records, "heuristic")
    expected = sum(
        1 / len(r["result"]["winners"])
        for r in records
        for i in r["result"]["winners"]
        if r["seats"][i] == "heuristic"
    )
    assert (wins, n) == (expected, 6)
    text = doc.read_text()
    assert "| toy-tricks | one v three | 6 | `heuristic` |" in text
    assert strength.main([*common, "--no-play"]) == 0
    again = doc.read_text()
    assert strength.COACH_BEGIN in again and "| toy-tricks | one v three | 6 |" in again


def test_coach_section_names_the_settings_its_rows_were_played_with(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A results file names a seat by its spec only, so the section prints what `hard` and
    `expert` mean in each game of its plans, from the game's own level hooks."""
    from timelord.agents.keys.heuristic import LEVELS

    plan = strength.Plan(
        "keys", "hard vs 3", "ismcts:hard", ("ismcts:hard",) + ("heuristic",) * 3, None
    )
    monkeypatch.setattr(strength, "coach_plans", lambda: [plan])
    text = strength.render_coach(tmp_path)
    sims = (LEVELS["hard"]["sims"], LEVELS["expert"]["sims"])
    assert f"- `keys`: `hard` = sims={sims[0]}/" in text
    assert f"`expert` = sims={sims[1]}/" in text
    assert "| keys | hard vs 3 | 0 | `ismcts:hard` | - | - | - | - | not run |" in text


def test_a_match_counts_a_level_by_its_settings_not_its_spelling(tmp_path: Path) -> None:
    """A record whose seat spelled out the level's own default ("ismcts:hard/weigh=0") is a
    game of `ismcts:hard`; one played with another setting ("weigh=8") is not."""
    seats = ("ismcts:hard",) + ("heuristic",) * 3
    plan = strength.Plan("episodes", "hard vs 3 heuristics", "ismcts:hard", seats, 0.4)
    played = ROOT / "results/coach/episodes-4p-hard-3heur-s68.results.jsonl"
    games = [json.loads(line) for line in played.read_text().splitlines()[:3]]
    spellings = ["ismcts:hard/weigh=0", "ismcts:hard", "ismcts:hard/weigh=8"]
    for game, spelling in zip(games, spellings, strict=True):
        game["seats"] = [spelling if s == "ismcts:hard" else s for s in game["seats"]]
    folder = tmp_path / "r"
    folder.mkdir()
    text = "".join(json.dumps(game) + "\n" for game in games)
    (folder / "episodes-4p-mixed.results.jsonl").write_text(text)
    records = strength.plan_records(folder, plan)
    assert records == games[:2]
    search_won = sum(
        1 / len(g["result"]["winners"])
        for g in games[:2]
        for i in g["result"]["winners"]
        if g["seats"][i].startswith("ismcts")
    )
    assert strength.side_share(records, "ismcts:hard") == (search_won, 2)
