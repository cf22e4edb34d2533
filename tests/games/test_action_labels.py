"""Every move of a game's action space can be named from any seat's view, offered or not:
the terminal's why-not and the boards name moves a seat asks about but may not make."""

from __future__ import annotations

import pytest

import timelord
from timelord.core import Rng

CASES = [("card-game", 3), ("episodes", 3), ("keys", 2), ("keys", 4), ("clue", 3)]
LABELLED = 3000  # moves of the space named per view (the Card Game's is about 25,000)


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_every_move_of_the_space_has_a_label_in_every_view(game_id: str, players: int) -> None:
    game = timelord.load(game_id, players=players)
    space = list(game.action_space())
    step = max(1, len(space) // LABELLED)
    rng = Rng(4)
    state = game.new_game(4)
    for moves in range(41):
        if state.is_over:
            break
        if moves in (0, 5, 40):
            for seat in range(players):
                view = state.view(seat)
                for action in space[moves % step :: step]:
                    label = game.action_label(view, action)
                    assert isinstance(label, str) and label.strip(), action
        state = state.apply_unchecked(rng.choice(state.legal_actions()))
