"""Every legal action met in seeded random games lies in the game's fixed action space."""

from __future__ import annotations

import dataclasses

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


@pytest.mark.parametrize("players", [2, 4])
def test_card_game_space_covers_every_location_the_table_can_hold(players: int) -> None:
    """Locations in play are every Location card plus one start Location per seat: with all
    of them out, moves at the last one are in the space (random play never gets there; an
    OpenSpiel rollout did, and the space lacked them)."""
    from timelord.games.card_game.actions import PlayDefender
    from timelord.games.card_game.scenario import Scenario

    game = timelord.load("card-game", players=players)
    space = ActionIndex(game)
    t = Scenario(game, active=0)
    cs = game.cards
    every = sum(cs.is_location[c] for c in cs.cards_in_play(players)) + players
    last = max(t.location(n % players) for n in range(every))
    assert last == every - 1
    doctor = t.hand(0, "the-doctor", "rory", "rory", "clara", "clara")[0]
    state = t.state()
    own = [L for L, loc in enumerate(state.view(0)["locations"]) if loc["owner"] == 0]
    assert PlayDefender(doctor, max(own)) in state.legal_actions()
    assert len(space.indices(state.legal_actions())) == len(state.legal_actions())


def test_tables_of_one_game_share_one_action_space() -> None:
    """Many envs of one game (a vector env) build its action table once."""
    a = ActionIndex(timelord.load("card-game", players=4))
    b = ActionIndex(timelord.load("card-game", players=4))
    other = ActionIndex(timelord.load("card-game", players=2))
    assert a.actions is b.actions and a._index is b._index
    assert other.actions is not a.actions and len(other) != len(a)


@pytest.mark.parametrize("game_id", sorted(PLAYERS))
def test_an_equal_copy_of_each_action_finds_its_own_index(game_id: str) -> None:
    # by value, not identity: a fresh equal object gets its position in the space, and
    # actions of different classes with equal fields (the Card Game's PlaceReserve and
    # DiscardForTime of one card) do not take each other's
    space = ActionIndex(timelord.load(game_id, players=2))
    for i, action in enumerate(space.actions):
        assert space.index(dataclasses.replace(action)) == i
    with pytest.raises(InvalidAction):
        space.index("no action")  # type: ignore[arg-type]
