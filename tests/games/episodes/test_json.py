"""Saved states: exact round-trip, and corrupt ones refused."""

from __future__ import annotations

import copy

import pytest

from timelord.core import CorruptRecord, Rng
from timelord.games.episodes.game import EpisodesGame


def _midgame() -> tuple[EpisodesGame, dict]:
    game = EpisodesGame(players=3)
    st = game.new_game(4)
    rng = Rng(1)
    for _ in range(40):
        legal = st.legal_actions()
        st = st.apply(legal[rng.below(len(legal))])
    return game, st.to_json()


def test_round_trip() -> None:
    game, data = _midgame()
    assert game.state_from_json(data).to_json() == data


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d.pop("deck"),
        lambda d: d["hands"][0].append(17),  # a card that is not in the deck
        lambda d: d["deck"].pop(),  # a card gone missing
        lambda d: d.__setitem__("phase", "lunch"),
        lambda d: d.__setitem__("turn", "three"),
        lambda d: d["known"][1].__setitem__(0, [95]),  # knows a card seat 0 lacks
        lambda d: d.__setitem__("vp", [1, 2]),
        lambda d: d.__setitem__("phase", "target"),  # no ability waiting
    ],
)
def test_corrupt_state_refused(damage) -> None:
    game, data = _midgame()
    bad = copy.deepcopy(data)
    damage(bad)
    with pytest.raises(CorruptRecord):
        game.state_from_json(bad)
