"""Every door refuses bad input with a library error (issue 10): seats, spectators,
saved states, views given to `sample_state`, actions built outside the legal list, options."""

from __future__ import annotations

import pytest

import timelord
from timelord.core import CorruptRecord, InvalidSeat, Rng
from timelord.games.card_game.actions import EndTurn
from timelord.games.card_game.game import CardGame
from timelord.games.card_game.scenario import Scenario

FILL = ("rory", "rory", "clara")


@pytest.mark.parametrize("seat", [-1, 3, 4, 99, True, "0", 1.0])
def test_c_7_1_view_refuses_a_seat_not_at_the_table(game3: CardGame, seat: object) -> None:
    """C-7.1: only None and 0..players-1 have a view; view(-1) must not be the last hand."""
    s = game3.new_game(1)
    with pytest.raises(InvalidSeat):
        s.view(seat)  # type: ignore[arg-type]


def test_c_7_1_spectator_never_sees_passed_cards_in_two_player_game(game2: CardGame) -> None:
    """C-7.1: with two players every passed card is known to both seats, yet hands stay
    secret: the spectator sees only face-up cards."""
    t = Scenario(game2, active=1)
    h = t.hand(1, "rory", "clara")
    t.hand(0, "dalek", "dalek")
    s = t.state().apply(EndTurn())
    assert set(h) <= set(s.view(0)["hands"][0]["known"])  # the receiver sees them
    assert set(h) <= set(s.view(1)["hands"][0]["known"])  # the passer remembers them
    spectator = s.view(None)
    assert all(x["known"] == [] for x in spectator["hands"])
    assert all(x["known"] == [] for x in spectator["reserves"])
    assert spectator["deck"]["known"] == []


def test_c_7_1_spectator_sees_no_hand_card_in_real_two_player_games() -> None:
    """C-7.1 over random 2-player games: no spectator view ever names a card in a hand, a
    reserve or the deck."""
    game = timelord.load("card-game", players=2)
    rng = Rng(3)
    for seed in range(5):
        s = game.new_game(seed)
        while not s.is_over:
            v = s.view(None)
            assert all(x["known"] == [] for x in v["hands"] + v["reserves"])
            assert v["deck"]["known"] == []
            legal = s.legal_actions()
            s = s.apply_unchecked(legal[rng.below(len(legal))])
