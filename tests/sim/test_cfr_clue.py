"""CFR on the tiny Clue (docs/variants.md): its tree is the size the docs give, and OpenSpiel's
CFR converges on its one-turn form (a few seconds); the full curve is a command
(`python -m timelord.sim.cfr clue --variant tiny`, results/cfr/clue-tiny-2p.md)."""

from __future__ import annotations

from timelord.sim.cfr import load, run_cfr, tree_size


def test_the_tiny_clue_trees() -> None:
    one_turn = tree_size(load("clue", variant="tiny", max_turns=1))
    assert (one_turn.histories, one_turn.infosets) == (3745, [276, 48])
    assert one_turn.recall_violations == 0


def test_cfr_converges_on_the_one_turn_tiny_clue() -> None:
    """NashConv (win-share units) of the average policy: 0.1875 after one iteration, below
    0.05 after five (it falls as 0.1875 / t: the first mover's only winning move is an
    accusation from the TARDIS, which CFR finds at once)."""
    game = load("clue", variant="tiny", max_turns=1)
    first, fifth = run_cfr(game, 5, [1])
    assert (first.iterations, fifth.iterations) == (1, 5)
    assert first.nash_conv > 0.15
    assert fifth.nash_conv < 0.05
