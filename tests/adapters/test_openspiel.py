"""The OpenSpiel adapter: registered games pass `pyspiel.random_sim_test` at every player
count, OpenSpiel's own ISMCTS and MCTS bots play whole games through it, resampling keeps
the seat's information state, and states serialise."""

from __future__ import annotations

import pickle

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from tests.adapters.cases import CASES, PLAYERS
from timelord.adapters.openspiel import short_name


def test_every_game_is_registered_with_its_parameters() -> None:
    names = {g.short_name: g for g in pyspiel.registered_games()}
    for game_id in PLAYERS:
        info = names[short_name(game_id)]
        assert info.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
        assert "players" in info.parameter_specification
    game = pyspiel.load_game("python_timelord_episodes", {"players": 3, "target": 20})
    assert game.num_players() == 3
    assert game.get_parameters()["target"] == 20
    with pytest.raises(pyspiel.SpielError):
        pyspiel.load_game("python_timelord_episodes", {"players": 9})


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_random_sim_test(game_id: str, players: int) -> None:
    game = pyspiel.load_game(short_name(game_id), {"players": players})
    # serialize=False: OpenSpiel serialises sampled-stochastic games with the game's RNG
    # state (Game::GetRNGState), which pyspiel lets no Python game provide; state
    # serialisation is checked below instead.
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def _zero_or_rollout(game: object, rollouts: bool, rs: np.random.RandomState) -> mcts.Evaluator:
    if rollouts:
        return mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    return _Flat()


class _Flat(mcts.Evaluator):
    """No playout: value 0, uniform prior (keeps full-game tests short on two cores)."""

    def evaluate(self, state: object) -> np.ndarray:
        return np.zeros(state.num_players())  # type: ignore[attr-defined]

    def prior(self, state: object) -> list[tuple[int, float]]:
        legal = state.legal_actions()  # type: ignore[attr-defined]
        return [(a, 1.0 / len(legal)) for a in legal]


@pytest.mark.parametrize("game_id", list(PLAYERS))
def test_openspiel_ismcts_and_mcts_play_a_whole_game(game_id: str) -> None:
    game = pyspiel.load_game(short_name(game_id), {"players": 2})
    rs = np.random.RandomState(7)
    evaluator = _zero_or_rollout(game, game_id in ("episodes", "clue"), rs)
    bots = [
        ismcts.ISMCTSBot(game, evaluator, 2.0, 4, random_state=rs),
        mcts.MCTSBot(game, 2.0, 4, evaluator, random_state=rs, solve=False),
    ]
    state = game.new_initial_state()
    state.reseed(5)
    moves = 0
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
        moves += 1
    returns = state.returns()
    assert moves > 0
    assert sum(returns) in (0.0, 1.0) and all(r >= 0 for r in returns)
    tl = state.timelord_state
    assert tl.is_over and [r > 0 for r in returns] == [s in tl.winners() for s in range(2)]


@pytest.mark.parametrize("game_id", list(PLAYERS))
def test_resample_keeps_the_information_state(game_id: str) -> None:
    game = pyspiel.load_game(short_name(game_id), {"players": 3})
    state = game.new_initial_state()
    rng = np.random.RandomState(3)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for _ in range(25):
        if state.is_terminal():
            break
        player = state.current_player()
        sampled = state.resample_from_infostate(player, sampler)
        assert sampled.information_state_string(player) == state.information_state_string(player)
        assert sampled.legal_actions() == state.legal_actions()
        state.apply_action(int(rng.choice(state.legal_actions())))


def test_states_serialise_and_pickle() -> None:
    game = pyspiel.load_game("python_timelord_card_game", {"players": 3})
    state = game.new_initial_state()
    rng = np.random.RandomState(1)
    for _ in range(30):
        state.apply_action(int(rng.choice(state.legal_actions())))
    back = game.deserialize_state(state.serialize())
    assert str(back) == str(state)
    assert back.history() == state.history()
    again = pickle.loads(pickle.dumps(state))
    assert str(again) == str(state)
    for p in range(3):  # the seats' decisions travel too
        assert back.information_state_string(p) == state.information_state_string(p)
        assert again.information_state_string(p) == state.information_state_string(p)
    # the restored state goes on as the original does (the engine's Rng travelled too)
    for s in (back, again, state):
        s.apply_action(s.legal_actions()[-1])
    assert str(back) == str(state) == str(again)


def test_strings_and_tensors() -> None:
    game = pyspiel.load_game("python_timelord_keys", {"players": 2})
    state = game.new_initial_state()
    size = game.information_state_tensor_size()
    assert len(state.information_state_tensor(0)) == size
    assert len(state.observation_tensor(1)) == game.observation_tensor_size()
    assert state.information_state_string(0) != state.information_state_string(1)
    assert isinstance(state.observation_string(0), str)
    # pyspiel's own observer (what C++ callers reach) gives the same information state
    from open_spiel.python.observation import make_observation

    observer = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    for _ in range(3):
        state.apply_action(state.legal_actions()[0])
    for p in range(2):
        assert observer.string_from(state, p) == state.information_state_string(p)
        observer.set_from(state, p)
        assert observer.tensor.tolist() == state.information_state_tensor(p)
    assert '"decisions":[[' in state.information_state_string(0)
    refused = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(pyspiel.SpielError):
        state.apply_action(refused)


@pytest.mark.parametrize("game_id", list(PLAYERS))
def test_python_answers_agree_with_pyspiels_own_path(game_id: str) -> None:
    """`legal_actions`, `current_player`, `is_chance_node` and `is_terminal` are answered
    in Python; pyspiel's C++ path (`legal_actions_mask`, `history`) agrees at every step."""
    game = pyspiel.load_game(short_name(game_id), {"players": 3 if game_id != "keys" else 2})
    state = game.new_initial_state()
    state.reseed(5)
    rng = np.random.default_rng(5)
    while not state.is_terminal():
        mover = state.current_player()
        legal = state.legal_actions()
        assert legal == [i for i, m in enumerate(state.legal_actions_mask()) if m]
        assert legal == state.legal_actions(mover) and legal == sorted(legal)
        assert all(state.legal_actions(p) == [] for p in range(game.num_players()) if p != mover)
        assert not state.is_chance_node()
        legal.clear()  # a caller's copy: the state's own list is untouched
        action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)
        assert state.history()[-1] == action
    assert state.current_player() == pyspiel.PlayerId.TERMINAL and state.legal_actions() == []
