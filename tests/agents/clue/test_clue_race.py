"""The race to the TARDIS of a seat certain of the envelope (`agents/clue/race.py`): expected
turns by value iteration, a roll where the detective's walk takes a passage that ends the
turn, the cards that shorten the race played, and the search's settled move using it."""

from __future__ import annotations

from typing import Any

import timelord
from timelord.agents.clue.heuristic import toward
from timelord.agents.clue.race import race_move, turns_to_tardis
from timelord.games.clue.actions import Move, PlayCard, RollDice, UsePassage
from timelord.games.clue.board import TARDIS
from timelord.games.clue.doors import read_state
from timelord.games.clue.game import ClueGame

THE_MOON, SKARO, PLATFORM_ONE, VICTORIAN_LONDON = 1, 3, 0, 8


def _state(seat: int, where: int, **fields: Any) -> Any:
    """Seat `seat` to move with its mover at `where` (a hand-made position)."""
    game = timelord.load("clue", players=4)
    assert isinstance(game, ClueGame)
    data = game.new_game(3).to_json()
    movers = list(data["movers"])
    movers[data["characters"][seat]] = where
    data.update(current=seat, decider=seat, movers=movers, **fields)
    return game, read_state(game, data)


def test_expected_turns_are_zero_at_the_tardis_and_grow_with_the_distance() -> None:
    game = timelord.load("clue", players=4)
    board: Any = game.board  # type: ignore[attr-defined]
    turns = turns_to_tardis(board, True)
    assert turns[TARDIS] == 0.0
    away = board.distances(TARDIS)
    for room in range(board.rooms):
        assert 1.0 < turns[room] < 2.0  # one roll often reaches it, two nearly always
    assert turns[SKARO] < turns[PLATFORM_ONE]  # 4 steps against 9
    assert away[SKARO] < away[PLATFORM_ONE]


def test_a_roll_beats_a_passage_that_ends_the_turn_a_step_nearer() -> None:
    """C-2.2: a passage replaces the roll and ends the turn with a rumour. From The Moon (8
    steps out) the passage reaches Victorian London (7 steps): the detective's walk takes it,
    the race rolls (an 8 or more reaches the TARDIS this turn)."""
    game, state = _state(0, THE_MOON)
    legal = state.legal_actions()
    assert UsePassage(VICTORIAN_LONDON) in legal
    view = state.view(0)
    assert toward(game.board, THE_MOON, TARDIS, legal) == UsePassage(VICTORIAN_LONDON)
    assert race_move(game, view, legal) == RollDice()


def test_an_extra_turn_is_played_before_anything_else() -> None:
    game, state = _state(0, THE_MOON, kept=[["timey-wimey"], [], [], []])
    legal = state.legal_actions()
    assert race_move(game, state.view(0), legal) == PlayCard("timey-wimey")


def test_the_jammie_dodger_is_played_when_six_more_steps_reach_the_tardis() -> None:
    """C-6.4: the Jammie Dodger adds 6 to a roll before moving. A 3 from Platform One (9
    steps out) cannot reach the TARDIS; 9 can. Rolling 9 needs no card."""
    game, state = _state(
        0, PLATFORM_ONE, phase="move", roll=[2, 1], steps=3, kept=[["jammie-dodger"], [], [], []]
    )
    legal = state.legal_actions()
    assert Move(TARDIS) not in legal
    assert race_move(game, state.view(0), legal) == PlayCard("jammie-dodger")
    played = state.apply(PlayCard("jammie-dodger"))
    assert race_move(game, played.view(0), played.legal_actions()) == Move(TARDIS)
    game, state = _state(
        0, PLATFORM_ONE, phase="move", roll=[5, 4], steps=9, kept=[["jammie-dodger"], [], [], []]
    )
    assert race_move(game, state.view(0), state.legal_actions()) == Move(TARDIS)
