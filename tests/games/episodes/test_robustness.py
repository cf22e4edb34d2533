"""Malformed and foreign actions, and corrupt saved states, are refused cleanly."""

from __future__ import annotations

import copy
from dataclasses import dataclass

import pytest

from timelord.core import Action, CorruptRecord, GameError, InvalidAction, Rng
from timelord.games.episodes.actions import ChooseOpponent, PlayEpisode, SkipAbility, UseAbility
from timelord.games.episodes.game import EpisodesGame


@dataclass(frozen=True, slots=True)
class MoveElsewhere(Action):
    """An action of some other game."""

    tile: int


def _midgame() -> tuple[EpisodesGame, object]:
    game = EpisodesGame(players=3)
    st = game.new_game(1)
    rng = Rng(3)
    for _ in range(60):
        legal = st.legal_actions()
        st = st.apply(legal[rng.below(len(legal))])
    return game, st


@pytest.mark.parametrize(
    "action",
    [UseAbility(["x"], 3), UseAbility("Doctor", "5"), ChooseOpponent("1"), PlayEpisode(None)],
)
def test_malformed_actions_are_invalid(action) -> None:
    st = EpisodesGame().new_game(1)
    with pytest.raises(InvalidAction):
        st.apply(action)
    with pytest.raises(GameError):  # nothing is told of a move that is not applied
        st.describe(action, 1)
    assert st.why_illegal(action).reason


def test_foreign_action_refused_with_reason() -> None:
    st = EpisodesGame().new_game(1)
    with pytest.raises(InvalidAction) as err:  # no rule is broken: it is no move at all
        st.apply(MoveElsewhere(3))
    assert "not a well-formed Episodes move" in str(err.value)


def test_why_illegal_of_a_legal_action_does_not_crash() -> None:
    st = EpisodesGame().new_game(1)
    assert SkipAbility() in st.legal_actions()
    assert "allowed" in st.why_illegal(SkipAbility()).reason


def test_corrupt_fields_raise_corrupt_record_only() -> None:
    """Every top-level field replaced by junk: CorruptRecord, or a state that still works."""
    game, st = _midgame()
    data = st.to_json()
    junk = [None, -1, 0, 1, 5, 10**30, "x", [], [1], {}, True, [[]], [95, 95], "over"]
    for key in data:
        for value in junk:
            bad = copy.deepcopy(data)
            bad[key] = value
            try:
                back = game.state_from_json(bad)
            except CorruptRecord:
                continue
            back.legal_actions()
            for seat in (None, 0, 1, 2):
                view = back.view(seat)
                if seat is not None:
                    game.sample_state(view, Rng(1))
    for bad in (None, [], "x", 5):
        with pytest.raises(CorruptRecord):
            game.state_from_json(bad)
