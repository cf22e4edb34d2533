"""Every legal action met in seeded random games lies in the game's fixed action space."""

from __future__ import annotations

import pytest

import timelord
from timelord.adapters.space import ActionIndex
from timelord.core import IllegalAction, InvalidAction, Rng

PLAYERS = {"card-game": (2, 3, 4), "clue": (2, 3, 4, 6), "episodes": (2, 3, 6), "keys": (2, 3, 4)}
CASES = [(g, n) for g, counts in PLAYERS.items() for n in counts]
#: Seeded games per case, and the steps each may take: the Card Game's rare decisions
#: (Madame Kovarian's turned Defenders among the Enemies to discard) need whole games.
GAMES = {"card-game": (24, 5000), "clue": (4, 600), "episodes": (4, 600), "keys": (4, 600)}


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_every_legal_action_is_in_the_space(game_id: str, players: int) -> None:
    game = timelord.load(game_id, players=players)
    space = ActionIndex(game)
    assert len(set(space.actions)) == len(space.actions), "an action is listed twice"
    games, steps = GAMES[game_id]
    for seed in range(games):
        rng = Rng(seed)
        state = game.new_game(seed)
        for _ in range(steps):
            if state.is_over:
                break
            legal = state.legal_actions()
            by_index = space.indices(legal)
            assert len(by_index) == len(legal), "two offered actions share one index"
            for i, a in by_index.items():
                assert space.action(i, by_index) is a
            state = state.apply_unchecked(rng.choice(legal))


def test_index_refuses_what_is_not_offered() -> None:
    game = timelord.load("episodes", players=2)
    space = ActionIndex(game)
    state = game.new_game(1)
    offered = space.indices(state.legal_actions())
    refused = next(i for i in range(len(space)) if i not in offered)
    with pytest.raises(IllegalAction):
        space.action(refused, offered)
    with pytest.raises(InvalidAction):
        space.action(len(space), offered)
    with pytest.raises(InvalidAction):
        space.action("3", offered)
