"""A guess at the envelope by a seat that is not certain (`agents/clue/gamble.py`): the exact
chance of a triple, the threat read from worlds sampled from the seat's own view, and the
guess made only when the triple beats the value of waiting."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

import timelord
from timelord.agents import make_agent
from timelord.agents.clue import gamble
from timelord.core import Rng
from timelord.games.clue.deduction import deduce, triple_chance
from timelord.games.clue.notebook import knowledge_from_view


def _played(seed: int, until: Any) -> tuple[Any, Any, int]:
    """A seeded 4-player game of deducers, played to the first position where `until(state,
    seat)` holds for some seat; (game, state, seat)."""
    game = timelord.load("clue", players=4)
    agents = [make_agent("heuristic:hard", game) for _ in range(4)]
    rng = Rng(seed)
    state = game.new_game(seed)
    while not state.is_over:
        for seat in range(4):
            if not state.out[seat] and until(state, seat):
                return game, state, seat
        mover = state.to_move
        state = state.apply(agents[mover].act(state.view(mover), state.legal_actions(), rng))
    raise AssertionError("no such position in this game")


def _open(state: Any, seat: int) -> bool:
    """The seat's likeliest triple is between a third and two thirds likely."""
    k = knowledge_from_view(state.view(seat))
    d = deduce(k)
    if d.certain_envelope() is not None:
        return False
    return 1 / 3 < gamble.best_triple(k)[1] < 2 / 3


def test_triple_chances_are_exact_and_sum_to_one() -> None:
    _, state, seat = _played(11, _open)
    k = knowledge_from_view(state.view(seat))
    d = deduce(k)
    triples = list(itertools.product(*[d.possible_envelope(i) for i in range(3)]))
    chances = {t: triple_chance(k, t) for t in triples}
    assert sum(chances.values()) == pytest.approx(1.0)
    for c in (card for cat in d.categories for card in cat):  # the marginals add up too
        assert sum(p for t, p in chances.items() if c in t) == pytest.approx(d.envelope[c])
    triple, chance = gamble.best_triple(k)
    assert chance == max(chances.values()) and chances[triple] == chance
    assert triple_chance(k, tuple(state.env)) > 0.0  # the true envelope is never ruled out


def test_a_guess_waits_when_nobody_threatens_and_goes_when_a_rival_is_certain(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game, state, seat = _played(11, _open)
    view = state.view(seat)
    monkeypatch.setattr(gamble, "threat", lambda *args: 0.0)
    assert gamble.guess(game, view) is None  # under CALM: waiting is worth more
    monkeypatch.setattr(gamble, "threat", lambda *args: 1.0)
    triple = gamble.guess(game, view)
    assert triple == gamble.best_triple(knowledge_from_view(view))[0]


def test_no_threat_at_the_start_and_a_certain_threat_once_every_rival_knows() -> None:
    game = timelord.load("clue", players=4)
    start = game.new_game(4)
    assert gamble.threat(game, start.view(0), Rng(1)) == 0.0

    def everyone_knows(state: Any, seat: int) -> bool:
        return all(
            deduce(knowledge_from_view(state.view(p))).certain_envelope() is not None
            for p in range(4)
        )

    game, state, seat = _played(3, everyone_knows)
    assert gamble.threat(game, state.view(seat), Rng(1)) == 1.0


def test_an_early_position_is_never_a_guess() -> None:
    """Early on no triple is likelier than its least likely card, far below THREATENED."""
    game = timelord.load("clue", players=4)
    state = game.new_game(9)
    assert gamble.guess(game, state.view(0)) is None
