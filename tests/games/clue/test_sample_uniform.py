"""`sample_state` deals hidden cards uniformly over the deals consistent with the view: the
frequencies it produces match the deducer's exact probabilities (search bots rely on it)."""

from __future__ import annotations

import timelord
from timelord.core import Rng
from timelord.games.clue.deduction import deduce
from timelord.games.clue.notebook import knowledge_from_view


def test_sampled_deals_follow_the_deducers_exact_probabilities() -> None:
    game = timelord.load("clue", players=4)
    state, rng = game.new_game(5), Rng(11)
    # Play until the view holds some constraints from rumours.
    while not state.is_over:
        legal = state.legal_actions()
        state = state.apply(legal[rng.below(len(legal))])
        seat = state.to_move
        view = state.view(seat) if seat is not None else None
        if view and sum(1 for ev in view["log"] if ev[0] in ("pass", "show")) >= 6:
            break
    assert view is not None and view["envelope"] is None
    exact = deduce(knowledge_from_view(view))
    n = 3000
    env_hits = dict.fromkeys(range(21), 0)
    hand_hits = {c: [0] * 4 for c in range(21)}
    draw = Rng(3)
    for _ in range(n):
        data = game.sample_state(view, draw).to_json()
        for c in data["envelope"]:
            env_hits[c] += 1
        for p, hand in enumerate(data["hands"]):
            for c in hand:
                hand_hits[c][p] += 1
    for c in range(21):
        # 3000 draws: the standard error is at most 0.0092; allow about 4.5 of them.
        assert abs(env_hits[c] / n - exact.envelope[c]) < 0.04, c
        for p in range(4):
            assert abs(hand_hits[c][p] / n - exact.holder[c][p]) < 0.04, (c, p)
