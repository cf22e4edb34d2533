"""The Clue detectives never accuse wrongly unless told to gamble, and they solve the case."""

from __future__ import annotations

import pytest

from timelord.agents import make_agent
from timelord.core import GAMES, Rng, load

pytestmark = pytest.mark.skipif("clue" not in GAMES, reason="Clue is not registered yet")


def _play(specs: list[str], seed: int) -> tuple[list[list[object]], list[int]]:
    game = load("clue", players=len(specs))
    agents = [make_agent(s, game) for s in specs]
    rng = Rng(seed)
    state = game.new_game(seed)
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        state = state.apply(agents[seat].act(state.view(seat), state.legal_actions(), rng))
    return state.view(None)["log"], state.winners()


@pytest.mark.parametrize("spec", ["heuristic", "heuristic:hard"])
def test_no_wrong_accusation(spec: str) -> None:
    solved = 0
    for seed in range(6):
        log, winners = _play([spec, "random", spec, "random"], seed)
        wrong = [e for e in log if e[0] == "accuse" and e[1] in (0, 2) and not e[-1]]
        assert wrong == []
        solved += bool(set(winners) & {0, 2})
    assert solved >= 3


def test_the_deducer_solves_faster_than_the_notebook() -> None:
    wins = {0: 0.0, 1: 0.0}
    for seed in range(6):
        _, winners = _play(["heuristic:hard", "heuristic"] * 2, seed)
        for w in winners:
            wins[w % 2] += 1 / len(winners)
    assert wins[0] > wins[1]


def test_bad_level_is_refused() -> None:
    from timelord.core import ConfigError

    with pytest.raises(ConfigError):
        make_agent("heuristic:sneaky", load("clue", players=3))


@pytest.mark.parametrize(
    "spec", ["heuristic:easy", "heuristic", "heuristic:hard", "heuristic:gamble", "ismcts:easy"]
)
def test_the_clue_agents_play_the_tiny_variant(spec: str) -> None:
    """The agents read the board and cards from the game, so they play the research variant's
    three-room board (docs/variants.md) legally, and the detectives never accuse wrongly."""
    game = load("clue", players=2, variant="tiny", max_rounds=3)
    agent, rival = make_agent(spec, game), make_agent("random", game)
    rng, solved = Rng(7), 0
    for seed in range(8):
        state = game.new_game(seed)
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            who = agent if seat == seed % 2 else rival
            state = state.apply(who.act(state.view(seat), state.legal_actions(), rng))
        log = state.view(None)["log"]
        if spec != "heuristic:gamble" and not spec.startswith("ismcts"):
            assert not [e for e in log if e[0] == "accuse" and e[1] == seed % 2 and not e[-1]]
        solved += state.winners() == [seed % 2]
    assert solved >= 3
