"""CFR on the small Episodes variant: the game has something to learn (its terminals are
wins for either seat and shared wins, the uniform policy is exploitable) and CFR learns it
(bounded: five iterations, a few seconds)."""

from __future__ import annotations

from pathlib import Path

from timelord.sim.cfr import CurvePoint, TreeSize, load, run_cfr, summary, tree_size, write_report


def test_cfr_converges_on_the_two_suit_episodes() -> None:
    """NashConv (win-share units): 0.519 for the uniform policy (CFR's average after one
    iteration), 0.111 after five; the bound is 0.12, under a quarter of where it starts."""
    game = load("episodes", variant="two-suit")
    first, fifth = run_cfr(game, 5, [1])
    assert first.iterations == 1 and fifth.iterations == 5
    assert first.nash_conv > 0.5
    assert fifth.nash_conv < 0.12
    size = tree_size(game)  # cheap now: CFR resolved every node already
    # perfect recall: 310 + 1,508 information sets (the view alone gave 310 + 1,328)
    assert (size.histories, size.infosets, size.recall_violations) == (8629, [310, 1508], 0)
    assert set(size.outcomes) == {"1,0", "0,1", "0.5,0.5"}
    assert min(size.outcomes.values()) > 500


def test_the_tiny_episodes_is_degenerate() -> None:
    """Why `tiny` is not the Episodes CFR variant: no episode can be gathered, so every
    terminal is a shared win and every policy is an equilibrium."""
    size = tree_size(load("episodes", variant="tiny"))
    assert size.outcomes == {"0.5,0.5": size.terminals}


def test_the_summary_has_one_row_per_curve(tmp_path: Path) -> None:
    size = TreeSize(histories=12, terminals=7, infosets=[3, 4], outcomes={"1,0": 7})
    for name, last in (("a-tiny-2p", 0.25), ("b-small-2p", 0.125)):
        curve = [CurvePoint(1, 0.5, 0.1), CurvePoint(10, last, 1.0)]
        write_report(tmp_path, name, name.upper(), size, curve, "cmd")
    (tmp_path / "a-tiny-2p.policy.json").write_text("{}")  # policies are no curves
    rows = summary(tmp_path).splitlines()[2:]
    assert len(rows) == 2
    assert rows[0].startswith("| A-TINY-2P | 12 | 3 + 4 | 0.5000 | 0.250000 (10) |")
    assert f"(../{tmp_path.as_posix()}/b-small-2p.md)" in rows[1]
    assert "1,0: 7" in (tmp_path / "a-tiny-2p.md").read_text()
