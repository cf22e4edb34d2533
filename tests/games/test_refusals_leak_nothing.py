"""A refusal tells the mover only what it may know: in two worlds the mover cannot tell apart
(its view, and a world `sample_state` deals from that view), every action of the game's space
is offered or refused alike, with the same reason and clause. Reasons are written from the
full state, so this is what keeps a hidden card out of them."""

from __future__ import annotations

import pytest

import timelord
from timelord.core import Action, IllegalAction, Rng, State

CASES = [("card-game", 3), ("card-game", 2), ("episodes", 3), ("keys", 3), ("clue", 3)]
CHECKS = (3, 12, 30, 70)  # moves into the game at which the worlds are compared
PROBES = 150  # refused actions asked about per check


def _refusal(state: State, action: Action) -> tuple[str, str]:
    err = state.why_illegal(action)
    assert isinstance(err, IllegalAction)
    return type(err).__name__, str(err)


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_refusals_are_the_same_in_worlds_the_mover_cannot_tell_apart(
    game_id: str, players: int
) -> None:
    game = timelord.load(game_id, players=players)
    space = list(game.action_space())
    compared = 0
    for seed in range(3):
        rng = Rng(seed)
        state = game.new_game(seed)
        for moves in range(max(CHECKS) + 1):
            if state.is_over:
                break
            if moves in CHECKS and state.to_move is not None:
                seat = state.to_move
                other = game.sample_state(state.view(seat), Rng(seed * 1000 + moves))
                if other.to_json() != state.to_json():
                    compared += 1
                    legal = {str(a) for a in state.legal_actions()}
                    assert {str(a) for a in other.legal_actions()} == legal, (seed, moves)
                    refused = [a for a in space if str(a) not in legal]
                    for i in range(min(PROBES, len(refused))):
                        action = refused[rng.below(len(refused))] if i else refused[0]
                        assert _refusal(state, action) == _refusal(other, action), (
                            f"seed {seed}, move {moves}: the refusal of {action} differs "
                            "between worlds the mover cannot tell apart"
                        )
            state = state.apply_unchecked(rng.choice(state.legal_actions()))
    assert compared >= 3, "too few positions with hidden information were compared"
