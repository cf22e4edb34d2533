"""The conformance suite passes a correct game and catches each kind of broken promise."""

from __future__ import annotations

from typing import Any

import pytest

from tests.core.toy_game import PlayCard, ToyGame, ToyState
from timelord.core import Action, Rng, View, register
from timelord.core.conformance import ConformanceError, check_game

register("toy", "tests.core.toy_game:ToyGame", "toy high-card game")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_correct_game_passes(players: int) -> None:
    report = check_game(ToyGame(players=players), games=30, seed=1)
    assert report.games == 30
    assert report.actions == 30 * 2 * players
    assert report.samples_checked > 0
    assert report.illegal_checked > 0


class _MutatingState(ToyState):
    def apply_unchecked(self, action: Action) -> ToyState:
        self.turn += 0  # harmless
        self.hands[self.turn % self.game.players].sort(reverse=True)
        return super().apply_unchecked(action)


class _LeakyState(ToyState):
    def view(self, seat: int | None) -> View:
        out = super().view(seat)
        out["everyone"] = [list(h) for h in self.hands]  # shows other seats' hands
        return out


class _MiscountingState(ToyState):
    def legal_count(self) -> int:
        return len(self.legal_actions()) + 1


class _MisplacingState(ToyState):
    def legal_at(self, i: int) -> Action:
        legal = self.legal_actions()
        return legal[len(legal) - 1 - i]

    def random_legal(self, rng: Rng) -> Action:
        return self.legal_at(rng.below(self.legal_count()))


class _OffStreamState(ToyState):
    def random_legal(self, rng: Rng) -> Action:
        rng.next64()  # a draw the list path does not make
        return super().random_legal(rng)


def _game_with(state_cls: type[ToyState]) -> ToyGame:
    class Broken(ToyGame):
        def new_game(self, seed: int) -> ToyState:
            s = super().new_game(seed)
            return state_cls(self, s.hands, s.played, s.turn, s.rng)

        def state_from_json(self, data: Any) -> ToyState:
            s = super().state_from_json(data)
            return state_cls(self, s.hands, s.played, s.turn, s.rng)

    return Broken(players=3)


def test_mutating_apply_is_caught() -> None:
    with pytest.raises(ConformanceError, match="changed the state"):
        check_game(_game_with(_MutatingState), games=5)


def test_view_that_leaks_is_caught_by_sampling() -> None:
    with pytest.raises(ConformanceError, match="sample_state"):
        check_game(_game_with(_LeakyState), games=5)


def test_game_longer_than_its_bound_is_caught() -> None:
    class TooShortBound(ToyGame):
        @property
        def max_actions(self) -> int:
            return 2

    with pytest.raises(ConformanceError, match="max_actions"):
        check_game(TooShortBound(players=3), games=1)


@pytest.mark.parametrize(
    ("state_cls", "message"),
    [
        (_MiscountingState, "legal_count"),
        (_MisplacingState, "random_legal gave|legal_at"),
        (_OffStreamState, "random_legal gave"),
    ],
)
def test_counted_enumeration_that_disagrees_with_the_list_is_caught(
    state_cls: type[ToyState], message: str
) -> None:
    with pytest.raises(ConformanceError, match=message):
        check_game(_game_with(state_cls), games=5)


def test_default_counted_enumeration_follows_the_list() -> None:
    state = ToyGame(players=3).new_game(4)
    legal = state.legal_actions()
    assert state.legal_count() == len(legal) > 1
    assert [state.legal_at(i) for i in range(len(legal))] == legal
    ours, theirs = Rng(9), Rng(9)
    assert state.random_legal(ours) == legal[theirs.below(len(legal))]
    assert ours.state == theirs.state


class _OrderRevealingState(ToyState):
    """Says its plays reveal nothing, yet lays a card before or after the one already down
    according to whether the next seat's hidden hand holds a higher card."""

    def reveals(self, action: Action) -> bool:
        return False

    def apply_unchecked(self, action: Action) -> ToyState:
        after = super().apply_unchecked(action)
        assert isinstance(action, PlayCard)
        seat = self.turn % self.game.players
        nxt = (seat + 1) % self.game.players
        if after.hands[nxt] and max(after.hands[nxt]) > action.card:
            row = after.played[seat]
            row.insert(0, row.pop())
        return _OrderRevealingState(after.game, after.hands, after.played, after.turn, after.rng)


def test_an_order_that_depends_on_hidden_cards_is_a_reveal() -> None:
    """The views after an action are compared exactly, order included: the same cards laid in
    an order that hidden cards decide tell a seat something."""
    with pytest.raises(ConformanceError, match="reveals\\(\\) said no"):
        check_game(_game_with(_OrderRevealingState), games=30, illegal_per_step=0)
