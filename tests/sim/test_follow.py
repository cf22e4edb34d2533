"""The hint follower's certain-win check (`timelord.sim.follow`): every game has one, and the
Card Game's finds the End Game move that ends the game with the seat the only winner, in
every world the seat cannot tell from the true one, and nothing where the game goes on."""

from __future__ import annotations

from typing import Any

import timelord
from timelord.agents.coach import Budget, Coach
from timelord.core import GAMES
from timelord.games.card_game.actions import PlayEnemy
from timelord.games.card_game.scenario import Scenario
from timelord.sim.follow import CERTAIN, PLAYERS


def test_every_game_has_a_certain_win_check() -> None:
    # the games the package ships (other tests register toy games in the same registry)
    shipped = {g for g in GAMES if type(timelord.load(g)).__module__.startswith("timelord.games.")}
    assert set(CERTAIN) == shipped == set(PLAYERS)


def _last_action(rival_time: int) -> Any:
    """End Game (C-6.3), seat 0 to act with a Dalek in hand, owning Roman Britain (1 VP);
    the rival owns Skaro (4 VP), has no card and `rival_time` Time Points (5 buy a card)."""
    game = timelord.load("card-game", players=2)
    t = Scenario(game, active=0)  # type: ignore[arg-type]
    t.s.endgame = True
    t.location(0, "roman-britain")
    t.location(1, "skaro")
    t.hand(0, "dalek")
    t.time(1, rival_time)
    return t.state()


def test_card_game_the_attack_that_ends_the_game_is_the_certain_win() -> None:
    """C-6.3, C-6.4: the rival cannot act after seat 0's turn, so the game ends with it.
    Declaring the Dalek against Skaro (then finishing) scores Skaro for seat 0, 5 to 0; the
    reserve or a discard ends it 1 to 4. The hint's top move is the declaration."""
    state = _last_action(rival_time=4)
    wins = CERTAIN["card-game"](state, 0)
    assert len(wins) == 1 and isinstance(wins[0], PlayEnemy)
    assert len(state.legal_actions()) == 3
    found = Coach(state.game).value_moves(state.view(0), state.legal_actions(), Budget(rollouts=60))
    assert found[0].action == wins[0]


def test_card_game_no_certain_win_while_the_game_goes_on() -> None:
    """C-6.3 negative: with 5 Time Points the rival can buy a card, so no move of seat 0
    ends the game now."""
    assert CERTAIN["card-game"](_last_action(rival_time=5), 0) == []
