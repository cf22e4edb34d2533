"""Explicit chance for OpenSpiel: every game passes `pyspiel.random_sim_test` with
serialisation on, chance nodes carry the engine's own draws with probabilities summing to 1,
merged outcomes keep the exact distribution, and CFR converges on a small variant."""

from __future__ import annotations

import json
import pickle
from collections import defaultdict
from pathlib import Path

import pyspiel
import pytest

import timelord
from timelord.adapters.openspiel_chance import chance_name, step_outcomes
from timelord.agents import make_agent
from timelord.agents.tabular import TabularAgent, history_key
from timelord.core import ConfigError, Rng
from timelord.sim.cfr import load, main, run_cfr, tree_size

GAMES = ("card-game", "clue", "episodes", "keys")


@pytest.mark.parametrize(
    ("game_id", "variant"),
    # the full Card Game takes half a minute here (a 120-card deal is 119 chance nodes, each
    # step resolved afresh); its draws are checked against the engine's below
    [("card-game", "tiny"), ("clue", "standard"), ("episodes", "standard"), ("keys", "standard")],
)
def test_random_sim_test_with_explicit_chance(game_id: str, variant: str) -> None:
    params: dict[str, object] = {"players": 2}
    if variant != "standard":
        params["variant"] = variant
    game = pyspiel.load_game(chance_name(game_id), params)
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("game_id", GAMES)
def test_chance_nodes_are_the_engines_draws(game_id: str) -> None:
    """Answering each chance node with the next draw of `Rng(seed)` replays the seeded
    engine game exactly: same deal, same draws, same positions."""
    game = pyspiel.load_game(chance_name(game_id), {"players": 2})
    engine = timelord.load(game_id, players=2)
    draws, moves = Rng(7), Rng(8)
    expected = engine.new_game(Rng(7))
    state = game.new_initial_state()
    for _ in range(25):
        while state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            assert len({p for _, p in outcomes}) == 1  # each draw is uniform, as below() is
            state.apply_action(outcomes[draws.below(len(outcomes))][0])
        mine = state.timelord_state.to_json()
        theirs = expected.to_json()
        mine.pop("rng"), theirs.pop("rng")
        assert mine == theirs
        if state.is_terminal():
            break
        legal = expected.legal_actions()
        action = legal[moves.below(len(legal))]
        state.apply_action(game.index.index(action))
        expected = expected.apply(action)


def test_merged_outcomes_keep_the_exact_distribution() -> None:
    """The single chance node of a step ("outcomes") gives each position the probability of
    all draw sequences reaching it ("draws")."""
    engine = timelord.load("card-game", players=2, variant="tiny")
    merged = {
        pickle.dumps(sorted(s.to_json().items())): p for s, p in step_outcomes(engine, None, None)
    }
    assert sum(merged.values()) == pytest.approx(1.0)
    chained: dict[bytes, float] = defaultdict(float)
    leaves = 0
    stack = [
        (
            pyspiel.load_game(
                chance_name("card-game"), {"players": 2, "variant": "tiny"}
            ).new_initial_state(),
            1.0,
        )
    ]
    while stack:
        state, p = stack.pop()
        if state.is_chance_node():
            stack += [(state.child(a), p * q) for a, q in state.chance_outcomes()]
        else:
            leaves += 1
            chained[pickle.dumps(sorted(state.timelord_state.to_json().items()))] += p
    assert set(merged) == set(chained) and len(merged) < leaves  # 240 sequences, fewer deals
    for key, p in merged.items():
        assert chained[key] == pytest.approx(p)


def test_states_pickle_and_serialise_by_their_history() -> None:
    game = load("card-game", variant="tiny")
    state = game.new_initial_state()
    for _ in range(4):
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[-1][0])
        else:
            state.apply_action(state.legal_actions()[0])
    back = pickle.loads(pickle.dumps(state))
    assert back.history() == state.history()
    assert str(back) == str(state)
    assert str(game.deserialize_state(state.serialize())) == str(state)
    assert pickle.loads(pickle.dumps(game)).get_parameters() == game.get_parameters()


def test_the_tiny_variants_are_small() -> None:
    size = tree_size(load("card-game", variant="tiny"))
    assert (size.histories, size.infosets) == (3417, [250, 250])
    size = tree_size(load("episodes", variant="tiny"))
    assert (size.histories, size.infosets) == (1093, [20, 94])


def test_cfr_converges_on_the_tiny_card_game() -> None:
    """NashConv (win-share units) of CFR's average policy: 0.35 after one iteration, below
    0.05 after ten on the one-turn tiny Card Game (793 histories, a few seconds)."""
    game = load("card-game", variant="tiny", max_turns=1)
    first, tenth = run_cfr(game, 10, [1])
    assert first.iterations == 1 and tenth.iterations == 10
    assert first.nash_conv > 0.3
    assert tenth.nash_conv < 0.05


def test_cfr_command_writes_the_curve_and_a_policy_seat(tmp_path: Path) -> None:
    argv = ["card-game", "--iterations", "2", "--option", "max_turns=1", "--out", str(tmp_path)]
    assert main(argv) == 0
    name = "card-game-tiny-max_turns1-2p"
    table = (tmp_path / f"{name}.md").read_text()
    assert "| 2 |" in table and "793 histories" in table
    assert (tmp_path / f"{name}.svg").read_text().startswith("<?xml")
    path = tmp_path / f"{name}.policy.json"
    policy = json.loads(path.read_text())["policy"]
    assert len(policy) == 2 * 78
    game = timelord.load("card-game", players=2, variant="tiny", max_turns=1)
    agents = [make_agent(f"cfr:{path}", game) for _ in range(2)]  # one a seat: each remembers
    rng, state, followed = Rng(5), game.new_game(5), 0
    while not state.is_over:
        agent = agents[state.to_move]
        assert isinstance(agent, TabularAgent)
        view = state.view(state.to_move)
        legal = state.legal_actions()
        probs = policy[history_key(agent.decisions, view)]
        action = agent.act(view, legal, rng)
        assert probs[json.dumps(action.to_json(), sort_keys=True, separators=(",", ":"))] > 0
        followed += 1
        state = state.apply(action)
    assert followed >= 2
    with pytest.raises(ConfigError, match="policy of"):
        make_agent(f"cfr:{path}", timelord.load("card-game", players=2, variant="tiny"))
    with pytest.raises(ConfigError, match="policy file"):
        make_agent("cfr:passwd", game)


@pytest.mark.parametrize(
    ("game_id", "options"), [("card-game", {"max_turns": 1}), ("episodes", {})]
)
def test_tiny_variants_have_perfect_recall_and_constant_sum(
    game_id: str, options: dict[str, int]
) -> None:
    """What CFR's guarantees rest on: an information state fixes the seat's own past (its
    earlier information states and actions), and every game's returns sum to 1."""
    game = load(game_id, variant="tiny", **options)
    past_of: dict[str, tuple[object, ...]] = {}
    sums = set()
    stack = [(game.new_initial_state(), ((), ()))]
    while stack:
        state, pasts = stack.pop()
        if state.is_terminal():
            sums.add(round(sum(state.returns()), 9))
        elif state.is_chance_node():
            stack += [(state.child(a), pasts) for a, _ in state.chance_outcomes()]
        else:
            seat = state.current_player()
            key = state.information_state_string(seat)
            assert past_of.setdefault(key, pasts[seat]) == pasts[seat]
            for a in state.legal_actions():
                mine = (*pasts[seat], key, a)
                stack.append((state.child(a), (mine, pasts[1]) if seat == 0 else (pasts[0], mine)))
    assert sums == {1.0}
