"""Real positions for tests that need a game in progress rather than a fresh deal."""

from __future__ import annotations

from timelord.core import Game, Rng, State


def mid_game(game: Game, seed: int) -> State:
    """A real state about a third of the way into the random game `seed` (play to the end,
    then step back), so it holds history, hidden cards and a seat to move in most games."""
    rng = Rng(seed)
    state = game.new_game(seed)
    trail = [state]
    while not state.is_over:
        legal = state.legal_actions()
        state = state.apply_unchecked(legal[rng.below(len(legal))])
        trail.append(state)
    return trail[len(trail) // 3]
