"""Agents: specs, legality, determinism, fairness on every registered game, and search sense."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

import tests.support.toy_tricks as toy
import timelord
from tests.support.positions import mid_game
from timelord.agents import Hooks, hooks_for, make_agent
from timelord.agents.heuristic import LookaheadAgent, NoisyAgent
from timelord.agents.ismcts import IsmctsAgent, Settings, parse_settings
from timelord.core import GAMES, Action, ConfigError, Game, Rng, State, load, register

register("toy", "tests.core.toy_game:ToyGame", "toy high-card game")

#: cheap versions of every kind of agent, so the fairness test stays fast on every game
SPECS = ["random", "heuristic", "heuristic:easy", "heuristic:hard", "ismcts:sims=25/cutoff=10"]


def _fairness_games() -> list[str]:
    return ["toy-tricks", *(g for g in GAMES if not g.startswith("toy"))]


@pytest.mark.parametrize("game_id", _fairness_games())
@pytest.mark.parametrize("spec", SPECS)
def test_same_view_same_decision(game_id: str, spec: str) -> None:
    """Two states a seat cannot tell apart give every agent the same decision for a seed."""
    game = load(game_id)
    for seed in range(3):
        real = mid_game(game, seed)
        seat = real.to_move
        assert seat is not None
        view = real.view(seat)
        one = game.sample_state(view, Rng(1000 + seed))
        two = game.sample_state(view, Rng(2000 + seed))
        assert one.view(seat) == two.view(seat) == view
        assert one.legal_actions() == two.legal_actions() == real.legal_actions()
        agent = make_agent(spec, game)
        first = agent.act(one.view(seat), one.legal_actions(), Rng(seed))
        second = agent.act(two.view(seat), two.legal_actions(), Rng(seed))
        assert first == second
        assert first in real.legal_actions()


@pytest.mark.parametrize("game_id", _fairness_games())
@pytest.mark.parametrize("spec", ["heuristic", "ismcts:sims=10/cutoff=5"])
def test_agents_finish_a_game_with_legal_moves(game_id: str, spec: str) -> None:
    game = load(game_id)
    agent = make_agent(spec, game)
    rng = Rng(3)
    state = game.new_game(3)
    steps = 0
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        legal = state.legal_actions()
        state = state.apply(agent.act(state.view(seat), legal, rng))
        steps += 1
    assert steps <= game.max_actions


def test_spec_names_and_levels() -> None:
    game = load("toy-tricks")
    assert make_agent("ismcts:hard", game).name == "ismcts:hard"
    agent = make_agent("ismcts:sims=30/cutoff=none/rollout=random/c=1.5", game)
    assert isinstance(agent, IsmctsAgent)
    assert agent.settings == Settings(sims=30, rollout="random", cutoff=None, c=1.5)
    described = agent.settings.describe()
    assert "cutoff=none" in described
    assert parse_settings(described, Hooks()) == agent.settings
    assert parse_settings("250", Hooks()).sims == 250
    assert parse_settings("hard/time=0.5", Hooks()).time == 0.5
    assert parse_settings("easy", Hooks(levels={"easy": {"sims": 7}})).sims == 7
    assert isinstance(make_agent("heuristic:easy", game), NoisyAgent)
    for bad in ["nobody", "ismcts:huge", "ismcts:sims=x", "ismcts:width=3", "ismcts:sims=0"]:
        with pytest.raises(ConfigError):
            make_agent(bad, game)


@pytest.mark.parametrize("game_id", [g for g in GAMES if not g.startswith("toy")])
def test_a_described_level_reads_back_as_itself(game_id: str) -> None:
    """A settings text is read against the game's medium level, so what `describe` writes for a
    level (the strength table's settings lines, an agent's name) must name every setting that
    differs from medium: Episodes' hard drops medium's prior, depth and c."""
    hooks = hooks_for(load(game_id))
    medium = parse_settings("medium", hooks)
    for level in ("easy", "medium", "hard", "expert", "hard/weigh=8/time=0.5"):
        settings = parse_settings(level, hooks)
        assert parse_settings(settings.describe(medium), hooks) == settings
        agent = IsmctsAgent(load(game_id), settings)
        assert make_agent(agent.name, load(game_id)).settings == settings  # type: ignore[attr-defined]


def test_game_without_hooks_gets_the_lookahead() -> None:
    game = load("toy")  # the core tests' toy game ships no hooks
    assert hooks_for(game) == Hooks()
    assert isinstance(make_agent("heuristic", game), LookaheadAgent)
    with pytest.raises(ConfigError):
        make_agent("heuristic:clever", game)


def test_lookahead_takes_the_higher_card() -> None:
    """The generic heuristic on the core toy game (highest played total wins) plays high."""
    game = load("toy", players=2)
    agent = make_agent("heuristic", game)
    state = game.state_from_json(
        {"hands": [[1, 6], [3, 4]], "played": [[], []], "turn": 0, "rng": 0}
    )
    picked = agent.act(state.view(0), state.legal_actions(), Rng(0))
    assert str(picked) == "play 6"


def _endgame() -> tuple[Game, State]:
    """Seat 0 to lead with A6 and A1 against A5 and B2, every other card seen: A6 wins both."""
    game = load("toy-tricks", players=2)
    a1, a5, a6, b2 = 0, 4, 5, 7
    seen = [c for c in toy.DECK if c not in (a1, a5, a6, b2)]
    data = {
        "hands": [[a1, a6], [a5, b2]],
        "stock": [],
        "trick": [],
        "leader": 0,
        "points": [3, 3],
        "seen": seen,
        "rng": 1,
    }
    return game, game.state_from_json(data)


def test_ismcts_finds_the_winning_lead() -> None:
    game, state = _endgame()
    agent = make_agent("ismcts:sims=200/rollout=random", game)
    for seed in range(3):
        action = agent.act(state.view(0), state.legal_actions(), Rng(seed))
        assert str(action) == "play A6"


def test_ismcts_is_reproducible_and_respects_its_budget() -> None:
    game = load("toy-tricks", players=3)
    state = game.new_game(11)
    seat = state.to_move
    assert seat is not None
    agent = make_agent("ismcts:sims=60", game)
    assert isinstance(agent, IsmctsAgent)
    picks = {str(agent.act(state.view(seat), state.legal_actions(), Rng(4))) for _ in range(3)}
    assert len(picks) == 1
    assert agent.last_sims == 60
    timed = make_agent("ismcts:sims=100000/time=0.05", game)
    assert isinstance(timed, IsmctsAgent)
    timed.act(state.view(seat), state.legal_actions(), Rng(4))
    assert 0 < timed.last_sims < 100000


def test_heuristic_hook_is_used() -> None:
    game = load("toy-tricks")
    assert isinstance(make_agent("heuristic", game), toy.TricksHeuristic)
    assert timelord.GAMES is GAMES


def test_flat_search_grows_only_the_root() -> None:
    game = load("toy-tricks", players=3)
    state = game.new_game(2)
    seat = state.to_move
    assert seat is not None
    agent = make_agent("ismcts:sims=40/depth=1/prior=1", game)
    assert isinstance(agent, IsmctsAgent)
    assert agent.settings.depth == 1 and agent.settings.prior == 1.0
    root = agent.search(state.view(seat), Rng(0))
    assert root.visits == 40
    assert root.children and all(not child.children for child in root.children.values())
    assert sum(child.visits for child in root.children.values()) == 40


def test_availability_counts_bound_visits() -> None:
    """SO-ISMCTS bookkeeping: a child is visited at most as often as it was available, and
    available at most as often as its parent was visited; every root visit went to a child."""
    game = load("toy-tricks", players=3)
    state = game.new_game(5)
    seat = state.to_move
    assert seat is not None
    agent = make_agent("ismcts:sims=150/cutoff=none/rollout=random", game)
    assert isinstance(agent, IsmctsAgent)
    root = agent.search(state.view(seat), Rng(2))
    assert sum(child.visits for child in root.children.values()) == root.visits == 150

    def walk(node: object, parent_visits: int) -> None:
        assert isinstance(node, type(root))
        for child in node.children.values():
            assert 1 <= child.visits <= child.avail <= parent_visits
            walk(child, child.visits)

    walk(root, root.visits)


def _first_legal(state: State, legal: Sequence[Action], rng: Rng) -> Action:
    return legal[0]


def test_paired_search_leaves_the_policy_for_a_certain_gain_only() -> None:
    """The paired flat search keeps the rollout policy's move unless another beats it by the
    margin: here the policy leads the losing A1, every deal shows A6 winning, so the search
    plays A6; with a margin no evidence can reach, an uncertain gain leaves the policy's move,
    which a tiny margin gives up for the best-looking one."""
    game, state = _endgame()
    hooks = Hooks(rollout=_first_legal)
    legal = state.legal_actions()
    assert [str(a) for a in legal] == ["play A1", "play A6"]
    agent = IsmctsAgent(game, parse_settings("sims=40/cutoff=none/paired=2", hooks), hooks)
    assert str(agent.act(state.view(0), legal, Rng(0))) == "play A6"
    assert agent.last_sims == 40
    opening = load("toy-tricks", players=3).new_game(11)
    seat = opening.to_move
    assert seat is not None
    moves = opening.legal_actions()
    strict = IsmctsAgent(
        opening.game, parse_settings("sims=90/cutoff=none/paired=1000", hooks), hooks
    )
    assert strict.act(opening.view(seat), moves, Rng(3)) == moves[0]
    loose = IsmctsAgent(
        opening.game, parse_settings("sims=90/cutoff=none/paired=0.001", hooks), hooks
    )
    assert loose.act(opening.view(seat), moves, Rng(3)) != moves[0]
    # a game's own margin for a decision overrides the level's
    own = Hooks(rollout=_first_legal, paired_margin=lambda legal: 0.001)
    overridden = IsmctsAgent(
        opening.game, parse_settings("sims=90/cutoff=none/paired=1000", own), own
    )
    assert overridden.act(opening.view(seat), moves, Rng(3)) != moves[0]
