"""The learners' `recall=True` observation is perfect recall: two pasts that reach one
position give a seat different observations exactly when its own past differs (a view it
was shown at a decision, or an action it took), in the PettingZoo, Gymnasium and vector
envs, the policy agent and datasets; what only others did, in an order the seat could not
see, changes nothing. `recall=False` stays a function of the view (its golden digests:
test_obs_golden.py)."""

from __future__ import annotations

import copy
import itertools
import json
import pickle
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env, data_equivalence
from gymnasium.vector import SyncVectorEnv

import timelord
from tests.adapters.transpositions import meetings, own_past, prefix, transpositions
from timelord.adapters import gym as tg
from timelord.adapters import pettingzoo as tz
from timelord.adapters.encode import encoder_for
from timelord.adapters.encode.history import HistoryEncoder, Recall
from timelord.adapters.policy import Policy, PolicyAgent, observation_scale, save_policy
from timelord.adapters.space import ActionIndex
from timelord.adapters.vector import NextStepMask, vector_env
from timelord.agents import make_agent
from timelord.agents.base import Agent
from timelord.cli.main import main
from timelord.core import Action, Game, Record, Rng, State, View
from timelord.sim.match import play_game

#: the transpositions of test_recall_history.py: (game, players, seed, depth, whether some
#: seat's own past differs between two lines)
CASES = [
    ("keys", 2, 72306, 3, True),
    ("card-game", 3, 1, 2, True),
    ("episodes", 2, 3, 4, False),
    ("clue", 3, 1, 3, False),
]
#: lines replayed per case at most (Keys meets hundreds)
LINES = 60


def _pz_end(
    game_id: str, players: int, seed: int, moves: Sequence[Action], recall: bool
) -> tuple[State, list[bytes]]:
    """The PettingZoo table after `moves` from the deal of game `seed`: its state and every
    seat's observation."""
    env = tz.raw_env(game_id, players=players, recall=recall, events=False)
    env.reset(seed=seed)
    for action in moves:
        env.step(env.index.index(action))
    assert env.state_ is not None
    return env.state_, [env.observe(a)["observation"].tobytes() for a in env.possible_agents]


@pytest.mark.parametrize(("game_id", "players", "seed", "depth", "own_pasts_differ"), CASES)
def test_pettingzoo_recall_tells_apart_exactly_the_seats_own_pasts(
    game_id: str, players: int, seed: int, depth: int, own_pasts_differ: bool
) -> None:
    """Keys, seed 72306: seat 1 discards a Key before or after seat 0 opens a door; both
    orders reach one position and one view of seat 1, whose own decision differs: its
    recall observation differs, its plain one does not. Orders of others' moves that no
    seat's own past shows leave every observation as it was."""
    differing = same = 0
    for steps in (0, 9):
        before = prefix(game_id, players, seed, steps)
        for start, lines in transpositions(game_id, players, seed, steps, depth)[:LINES]:
            ends = [_pz_end(game_id, players, seed, [*before, *line], True) for line in lines]
            plain = [_pz_end(game_id, players, seed, [*before, *line], False) for line in lines]
            assert all(e[0].to_json() == ends[0][0].to_json() for e in ends)  # one position
            for seat in range(players):
                pasts = [own_past(start, line, seat) for line in lines]
                for i in range(1, len(lines)):
                    mine = pasts[i] == pasts[0]
                    differing += not mine
                    same += mine
                    assert (ends[i][1][seat] == ends[0][1][seat]) == mine
                    assert plain[i][1][seat] == plain[0][1][seat]  # the view: one
    assert same > 0
    assert (differing > 0) == own_pasts_differ


class Scripted(Agent):
    """Plays `moves` in order (the opponents' side of a line a test replays), then its first
    legal move."""

    name = "scripted"

    def __init__(self, game: Game, moves: list[Action]) -> None:
        super().__init__(game)
        self.moves = moves

    def act(self, view: View, legal: Sequence[Action], rng: Rng) -> Action:
        if not self.moves:
            return legal[0]
        want = self.moves.pop(0)
        return next(a for a in legal if a == want)


def _gym_table(
    game_id: str, players: int, seat: int, recall: bool
) -> tuple[tg.TimelordEnv, list[Action]]:
    """A learner's table whose opponents play the moves put in the returned list."""
    queue: list[Action] = []
    opponents = [lambda game: Scripted(game, queue)] * (players - 1)
    env = tg.env(game_id, opponents, seat=seat, players=players, recall=recall)
    return env, queue


def _gym_end(
    game_id: str, players: int, seat: int, seed: int, line: list[Action], recall: bool
) -> tuple[State, bytes]:
    """The learner's table of `seed` after `line` from its first decision: the state and
    the learner's observation."""
    env, queue = _gym_table(game_id, players, seat, recall)
    obs, _ = env.reset(seed=seed)
    state = env.state
    assert state is not None
    mine = []
    for action in line:
        (mine if state.to_move == seat else queue).append(action)
        state = state.apply_unchecked(action)
    for action in mine:  # the opponents' moves of the line are played between them
        obs, *_ = env.step(env.index.index(action))
    assert env.state is not None and not queue
    return env.state, obs.tobytes()


@pytest.mark.parametrize(
    ("game_id", "players", "seat", "depth", "own_pasts_differ"),
    [("keys", 2, 1, 3, True), ("episodes", 2, 0, 4, False), ("clue", 3, 2, 3, False)],
)
def test_gym_recall_tells_apart_exactly_the_learners_own_pasts(
    game_id: str, players: int, seat: int, depth: int, own_pasts_differ: bool
) -> None:
    """Lines from the learner's first decision that reach one position: its observation
    differs exactly when its own past does (two orders of its own plays), and orders of
    the opponents' moves it was not shown change nothing."""
    seed = 5
    probe, _ = _gym_table(game_id, players, seat, True)
    probe.reset(seed=seed)
    assert probe.state is not None
    differing = same = 0
    for lines in meetings(probe.state, depth, Rng(seed))[:LINES]:
        ends = [_gym_end(game_id, players, seat, seed, line, True) for line in lines]
        plain = [_gym_end(game_id, players, seat, seed, line, False) for line in lines]
        assert all(e[0].to_json() == ends[0][0].to_json() for e in ends)
        pasts = [own_past(probe.state, line, seat) for line in lines]
        for i in range(1, len(lines)):
            mine = pasts[i] == pasts[0]
            differing += not mine
            same += mine
            assert (ends[i][1] == ends[0][1]) == mine
            assert plain[i][1] == plain[0][1]
    assert same + differing > 0, "no transposition met: the check saw nothing"
    assert (differing > 0) == own_pasts_differ
    assert same > 0 or own_pasts_differ


@pytest.mark.parametrize("game_id", ["card-game", "clue", "episodes", "keys"])
def test_the_recall_observation_fits_its_space_and_names_its_segments(game_id: str) -> None:
    env = tg.env(game_id, opponents=["random"], recall=True)
    encoder = env.encoder
    assert isinstance(encoder, HistoryEncoder)
    assert env.observation_space.shape == (encoder.size,) == (sum(n for _, n in encoder.layout),)
    assert encoder.layout[: len(encoder_for(env.game, recall=True).layout)] == tuple(
        encoder_for(env.game, recall=True).layout
    )
    assert [name for name, _ in encoder.layout[-2:]] == ["digest", "decisions"]
    check_env(env, skip_render_check=True)
    z = tz.raw_env(game_id, players=2, recall=True)
    assert z.observation_space("player_0")["observation"] == env.observation_space


def test_the_gym_record_holds_the_learners_views_and_choices_only() -> None:
    """What the env remembers for the learner is what the learner saw when it decided and
    what it chose; nothing of the opponents' decisions, and afresh every episode."""
    env = tg.env("episodes", opponents=["heuristic"], seat=1, players=2, recall=True)
    rng = np.random.default_rng(4)
    for seed in (4, None):
        _, info = env.reset(seed=seed)
        seen: list[tuple[View, int]] = []
        done = False
        while not done:
            assert env.state is not None
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            seen.append((env.state.view(1), action))
            _, _, done, _, info = env.step(action)
        assert env.record is not None
        assert [(d.view, d.action) for d in env.record.seats[1]] == seen
        assert env.record.seats[0] == ()


def _recall_policy(game: Game, folder: Path, seed: int = 0) -> Policy:
    """Random weights over the recall observation, saved as `timelord train --recall`."""
    index = ActionIndex(game)
    encoder = HistoryEncoder(game, len(index))
    rng = np.random.default_rng(seed)
    sizes = [encoder.size, 16]
    hidden = tuple(
        (rng.normal(size=(b, a)).astype(np.float32), rng.normal(size=b).astype(np.float32))
        for a, b in itertools.pairwise(sizes)
    )
    head = (
        rng.normal(size=(len(index), 16)).astype(np.float32),
        rng.normal(size=len(index)).astype(np.float32),
    )
    policy = Policy(hidden, head, observation_scale(encoder))
    config = {"game": game.id, "players": game.players, "options": {}, "recall": True}
    save_policy(folder, policy, config)
    return policy


@pytest.mark.parametrize("game_id", ["episodes", "keys"])
def test_a_recall_policy_sees_what_the_env_showed_its_seat(game_id: str, tmp_path: Path) -> None:
    """The policy agent keeps its own record from the views it is shown and the actions it
    takes: at every decision its input is the gym env's recall observation of that seat,
    and its record is the env's record of that seat (so it reads nothing the seat did not
    see: the env's record is made of that seat's views)."""
    game = timelord.load(game_id, players=2)
    _recall_policy(game, tmp_path)
    env = tg.env(game, ["random"], seat=0, recall=True)
    for seed in (2, 3):
        agent = make_agent(f"ppo:{tmp_path}", game)
        assert isinstance(agent, PolicyAgent)
        obs, _ = env.reset(seed=seed)
        done, rng = False, Rng(seed)
        while not done:
            state = env.state
            assert state is not None
            view = state.view(0)
            assert np.array_equal(agent.observation(view), obs)
            action = agent.act(view, state.legal_actions(), rng)
            assert agent.record is not None and env.record is not None
            obs, _, done, _, _ = env.step(env.index.index(action))
            assert agent.record.seats[0] == env.record.seats[0]


def test_a_recall_policy_plays_legal_games(tmp_path: Path) -> None:
    game = timelord.load("keys", players=2)
    _recall_policy(game, tmp_path)
    record = play_game(game, [f"ppo:{tmp_path}/sample", "random"], seed=5, index=0)
    assert 0 in record["result"]["movers"]


def test_the_vector_env_writes_each_tables_recall_observation() -> None:
    """The batch rows are the single-agent tables' recall observations, episode after
    episode (each table's record starts afresh at its autoreset)."""

    def table() -> NextStepMask:
        return NextStepMask(tg.env("keys", opponents=["random"], recall=True))

    mine = vector_env("keys", 2, opponents=["random"], recall=True)
    reference = SyncVectorEnv([table] * 2)
    got, want = mine.reset(seed=8), reference.reset(seed=8)
    assert data_equivalence(got, want, exact=True)
    rng, ended, steps = np.random.default_rng(8), np.zeros(2, bool), 0
    while not ended.all() or steps < 5:
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in got[-1]["action_mask"]])
        got, want = mine.step(actions), reference.step(actions)
        assert data_equivalence(got, want, exact=True), steps
        ended |= got[2]
        steps += 1
    mine.close()
    reference.close()


def test_a_recall_dataset_holds_each_seats_recall_observation(tmp_path: Path) -> None:
    """`timelord dataset --recall`: each row's observation is the deciding seat's, with its
    own decisions of that game, as the PettingZoo env gives it at that step."""
    argv = ["dataset", "keys", "--games", "2", "--seats", "heuristic,random", "--seed", "3"]
    assert main([*argv, "--out", str(tmp_path), "--serial", "--recall"]) == 0
    meta = json.loads((tmp_path / "meta.json").read_text())
    parts = [np.load(p) for p in sorted(tmp_path.glob("part-*.npz"))]
    obs = np.concatenate([p["obs"] for p in parts])
    game = timelord.load("keys", players=2)
    assert meta["observation_size"] == obs.shape[1] == HistoryEncoder(game, 1).size
    row = 0
    for line in (tmp_path / "records.jsonl").read_text().splitlines():
        record = Record.from_json(json.loads(line))
        env = tz.raw_env("keys", players=2, recall=True, events=False)
        env.reset(seed=record.seed)
        for raw in record.actions:
            assert np.array_equal(obs[row], env.observe(env.agent_selection)["observation"])
            env.step(env.index.index(game.action_from_json(raw)))
            row += 1
    assert row == len(obs)


def test_a_seats_record_never_holds_another_seats_view() -> None:
    """Every entry of a seat's record in the PettingZoo env is a view of that seat."""
    env = tz.raw_env("clue", players=3, recall=True, events=False)
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(40):
        agent = env.agent_selection
        if env.terminations[agent]:
            break
        mask = env.observe(agent)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    assert env.record is not None
    assert isinstance(env.record, Recall)
    for seat, decisions in enumerate(env.record.seats):
        assert decisions and all(d.view["seat"] == seat for d in decisions)


def test_a_copied_recall_env_keeps_the_learners_record() -> None:
    """A copy mid-episode (pickle, `copy.deepcopy`) holds the same record, so its next
    observations are the original's."""
    env = tg.env("keys", opponents=["random"], seat=0, recall=True)
    _, info = env.reset(seed=6)
    rng = np.random.default_rng(6)
    for _ in range(5):
        _, _, _, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    for twin in (copy.deepcopy(env), pickle.loads(pickle.dumps(env))):
        assert twin.record is not None and env.record is not None
        assert twin.record.seats == env.record.seats and len(env.record.seats[0]) == 5
        action = int(np.flatnonzero(info["action_mask"])[0])
        assert np.array_equal(twin.step(action)[0], copy.deepcopy(env).step(action)[0])
