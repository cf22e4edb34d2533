"""Sampling a Card Game view in the middle of a conflict whose Enemies are all gone.

C-card-impossible-astronaut: against River Song the Astronaut and River are discarded; when
the Astronaut was the attack's only Enemy, the conflict still goes on to the defender's
Ironsides choice (C-5.2) with the attacker named and no Enemy left at the Location. A real
match reached this (3 players, `heuristic,random,heuristic`, seed 116, step 183): the state
door refused that true state, so `sample_state` raised CorruptRecord on every seat's view
and every searching bot at the table would have failed there."""

from __future__ import annotations

from typing import Any

import pytest

from timelord.core import CorruptRecord, Rng
from timelord.games.card_game.game import CardGame
from timelord.games.card_game.state import IRON


def _ironsides_without_enemies(game: CardGame) -> dict[str, Any]:
    """A true Ironsides decision (random play to it) with the attack's Enemies moved to the
    discard pile, face-up, as the Astronaut alone against River Song leaves them."""
    state, rng = game.new_game(5), Rng(5)
    while state.phase != IRON:
        legal = state.legal_actions()
        state = state.apply(legal[rng.below(len(legal))])
    data = state.to_json()
    where = data["p_loc"]
    assert data["loc_att"][where] >= 0 and data["loc_en"][where]
    full = (1 << game.players) - 1
    for enemy in data["loc_en"][where]:
        data["discard"].append(enemy)
        data["known"][enemy] = full
    data["loc_en"][where] = []
    data["loc_up"][where] = 0
    return data


def test_the_true_state_opens_and_every_seat_can_sample_its_view() -> None:
    game = CardGame(players=2)
    state = game.state_from_json(_ironsides_without_enemies(game))
    assert {str(a) for a in state.legal_actions()} == {"pay for Ironsides: +1 defence", "pass"}
    for seat in range(game.players):
        view = state.view(seat)
        for seed in range(5):
            assert game.sample_state(view, Rng(seed)).view(seat) == view
    after = state.apply(state.legal_actions()[-1])  # the conflict ends: the attack with it
    assert after.loc_att[state.p_loc] == -1 or after.loc_en[state.p_loc]


def test_an_attacker_without_enemies_away_from_the_conflict_is_still_refused() -> None:
    game = CardGame(players=2)
    data = _ironsides_without_enemies(game)
    other = next(
        L
        for L, owner in enumerate(data["loc_owner"])
        if data["p_loc"] != L and not data["loc_en"][L] and owner != data["active"]
    )
    data["loc_att"][other] = data["active"]
    with pytest.raises(CorruptRecord, match="attacker does not fit"):
        game.state_from_json(data)
