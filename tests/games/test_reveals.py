"""The engine says what an action reveals (`State.reveals`, part of the protocol): whether it
drew chance or showed any seat something it did not know. The conformance suite checks every
"no" against sampled worlds; these check the answers that matter to undo, by name."""

from __future__ import annotations

import timelord
from timelord.core import Rng
from timelord.games.clue.actions import Move, RollDice
from timelord.games.keys.actions import MovePawn, OpenDoor


def test_keys_a_door_opened_with_a_key_from_the_hand_reveals() -> None:
    """K-7.3: the key came from a hidden hand, so the table learns the hand held it (the six
    sampled worlds of the old undo rule let 2.6% of these through)."""
    state = timelord.load("keys").new_game(5)
    opening = next(a for a in state.legal_actions() if isinstance(a, OpenDoor))
    assert state.reveals(opening)


def test_keys_a_move_that_ends_the_turn_reveals_the_next_draw() -> None:
    """K-3.1: the next player's draw comes with the end of the turn."""
    state = timelord.load("keys").new_game(5)
    rng = Rng(1)
    while not any(isinstance(a, MovePawn) for a in state.legal_actions()):
        legal = state.legal_actions()
        state = state.apply(legal[rng.below(len(legal))])
    move = next(a for a in state.legal_actions() if isinstance(a, MovePawn))
    assert state.reveals(move)


def test_clue_a_roll_reveals_and_the_move_after_it_does_not() -> None:
    """C-3.1, C-3.2: the dice are chance; moving the number rolled is a public choice that
    shows nobody anything."""
    state = timelord.load("clue", players=3).new_game(2)
    roll = next(a for a in state.legal_actions() if isinstance(a, RollDice))
    assert state.reveals(roll)
    state = state.apply(roll)
    move = next(a for a in state.legal_actions() if isinstance(a, Move))
    assert not state.reveals(move)


def test_every_game_says_no_for_some_action_and_yes_for_others() -> None:
    """Each game answers from its own bookkeeping: over a random game some actions show
    nothing (undo may take them back) and some do."""
    for game_id in ("card-game", "clue", "episodes", "keys"):
        game = timelord.load(game_id)
        state, rng = game.new_game(4), Rng(4)
        answers = set()
        while not state.is_over and len(answers) < 2:
            legal = state.legal_actions()
            action = legal[rng.below(len(legal))]
            answers.add(state.reveals(action))
            state = state.apply(action)
        assert answers == {True, False}, game_id
