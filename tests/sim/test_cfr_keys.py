"""CFR on the tiny Keys to the TARDIS (docs/variants.md): the exact-chance tree is the size the
docs give, and OpenSpiel's CFR drives the average policy's NashConv down on it."""

from __future__ import annotations

from timelord.sim.cfr import load, run_cfr, tree_size


def test_cfr_converges_on_the_tiny_keys() -> None:
    """NashConv (win-share units): 0.059 for the first, uniform, average policy; below 0.025
    after three iterations (0.020: it falls as 0.059 / t). A stalled tiny game is a shared
    win (K-R23), so the game is constant-sum and seat 1 gains by blocking. 29,793 histories,
    about half a minute on a loaded 2-core machine."""
    game = load("keys", variant="tiny")
    size = tree_size(game)
    # perfect recall: 3,862 + 170 information sets, where the seat's view alone gave
    # 1,414 + 110 and merged 5,593 histories with pasts of the seat that differ
    assert (size.histories, size.chance_nodes, size.infosets) == (29793, 1, [3862, 170])
    assert size.recall_violations == 0
    first, third = run_cfr(game, 3, [1])
    assert (first.iterations, third.iterations) == (1, 3)
    assert first.nash_conv > 0.055
    assert third.nash_conv < 0.025
