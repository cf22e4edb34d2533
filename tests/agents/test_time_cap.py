"""Bots at a web table keep to a wall-clock cap per move: on the positions of each game with
the most moves to consider, every named search level stops at the cap (a fake clock that
advances with each simulation stands in for a slow machine) with a legal move, doing fewer
simulations than its budget; without a cap the budget is spent in full (reproducible)."""

from __future__ import annotations

import pytest

import timelord
from timelord.agents import TABLE_TIME_CAP, make_agent
from timelord.agents.ismcts import IsmctsAgent
from timelord.core import Rng, State

#: fake seconds one simulation takes (a machine far slower than any real one)
TICK = 0.05


def _widest(game_id: str, count: int = 2) -> list[State]:
    """The `count` positions with the most legal moves in two seeded random games."""
    game = timelord.load(game_id, players=4)
    rng = Rng(3)
    seen: list[State] = []
    for seed in range(2):
        state = game.new_game(seed)
        while not state.is_over:
            legal = state.legal_actions()
            if len(legal) > 1:
                seen.append(state)
            state = state.apply(legal[rng.below(len(legal))])
    seen.sort(key=lambda s: -len(s.legal_actions()))
    return seen[:count]


class _SlowClock:
    """Reads the time as `TICK` per simulation done so far (counted at each world dealt; the
    paired search plays each world out once per move, so it counts `moves` for it)."""

    def __init__(self, agent: IsmctsAgent, moves: int = 1) -> None:
        self.sims = 0
        game = agent.game
        deal = game.sample_state
        per_world = moves if agent.settings.paired else 1

        def counted(view: object, rng: Rng) -> State:
            self.sims += per_world
            return deal(view, rng)  # type: ignore[arg-type]

        game.sample_state = counted  # type: ignore[method-assign]

    def __call__(self) -> float:
        return self.sims * TICK


@pytest.mark.parametrize("game_id", sorted(timelord.GAMES))
@pytest.mark.parametrize("level", ["hard", "expert"])
def test_the_cap_holds_on_the_widest_positions(game_id: str, level: str) -> None:
    for state in _widest(game_id):
        game = timelord.load(game_id, players=4)
        agent = make_agent(f"ismcts:{level}", game)
        assert isinstance(agent, IsmctsAgent)
        agent.time_cap = TABLE_TIME_CAP
        legal = state.legal_actions()
        clock = agent.clock = _SlowClock(agent, len(legal))
        seat = state.to_move
        assert seat is not None
        move = agent.act(state.view(seat), legal, Rng(1))
        assert move in legal
        if agent.last_sims == 0:
            continue  # a settled move (Clue, certain of the envelope): no search at all
        # the clock is read before every simulation (before every world of the paired
        # search, one playout a move): the search ends within one of them of the cap
        assert clock() <= TABLE_TIME_CAP + TICK * (len(legal) if agent.settings.paired else 1)
        assert agent.last_sims < agent.settings.sims


def test_without_a_cap_the_budget_is_spent_in_full() -> None:
    state = _widest("keys", 1)[0]
    game = timelord.load("keys", players=4)
    agent = make_agent("ismcts:hard", game)
    assert isinstance(agent, IsmctsAgent) and agent.time_cap is None
    agent.clock = _SlowClock(agent)
    seat = state.to_move
    assert seat is not None
    agent.act(state.view(seat), state.legal_actions(), Rng(1))
    assert agent.last_sims == agent.settings.sims


def test_the_server_caps_its_bots() -> None:
    from timelord.server.bots import _worker_agent

    game = timelord.load("keys", players=2)
    _, agent = _worker_agent("keys", '{"players": 2, "round_limit": 100}', "ismcts:hard")
    assert agent.time_cap == TABLE_TIME_CAP and game.players == 2
