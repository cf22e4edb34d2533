"""OpenSpiel games and states of the adapter pickle and cross to worker processes."""

from __future__ import annotations

import multiprocessing
import pickle

import pyspiel

import timelord.adapters.openspiel as tos

GAMES = ["card-game", "clue", "episodes", "keys"]


def _play_out(state: pyspiel.State) -> list[float]:
    """The first legal action until the end: the returns."""
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    returns: list[float] = state.returns()
    return returns


def test_games_and_states_round_trip() -> None:
    for game_id in GAMES:
        game = pyspiel.load_game(tos.short_name(game_id), {"players": 2, "rng_seed": 9})
        game.new_initial_state()  # the deal generator has moved on
        copy = pickle.loads(pickle.dumps(game))
        assert str(copy) == str(game)
        assert str(copy.new_initial_state()) == str(game.new_initial_state())
        state = game.new_initial_state()
        for _ in range(5):
            state.apply_action(state.legal_actions()[-1])
        again = pickle.loads(pickle.dumps(state))
        assert str(again) == str(state) and again.legal_actions() == state.legal_actions()
        assert again.information_state_tensor(0) == state.information_state_tensor(0)


def test_a_state_plays_on_in_a_worker_process() -> None:
    game = pyspiel.load_game(tos.short_name("episodes"), {"players": 3})
    states = [game.new_initial_state() for _ in range(2)]
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        remote = pool.map(_play_out, states)
    assert remote == [_play_out(s.clone()) for s in states]
