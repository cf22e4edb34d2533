"""Clue's ismcts hooks: rollouts never accuse blindly, the evaluation favours the seat that has
placed more cards and gives nothing to seats that are out, the levels cut rollouts short, and
a seat certain of the envelope goes to accuse without searching."""

from __future__ import annotations

import timelord
from timelord.agents import make_agent
from timelord.agents.clue.heuristic import (
    HOOKS,
    SEARCH_CUTOFF,
    ClueDetective,
    evaluate,
    rollout_policy,
    settled,
)
from timelord.agents.clue.race import race_move
from timelord.agents.ismcts import IsmctsAgent, parse_settings
from timelord.core import Rng
from timelord.games.clue.actions import Accuse, EndTurn
from timelord.games.clue.doors import read_state
from timelord.games.clue.game import ClueGame


def _state(**fields: object) -> object:
    """A hand-made position (a history without its rumours): read without the door's
    reachability check, like the rule scenarios."""
    game = timelord.load("clue", players=4)
    assert isinstance(game, ClueGame)
    data = game.new_game(3).to_json()
    data.update(fields)
    return read_state(game, data)


def test_rollouts_never_accuse() -> None:
    rng = Rng(2)
    centre = _state(phase="centre", movers=[9] * 6)
    assert centre.legal_actions() == [Accuse(), EndTurn()]
    for _ in range(200):
        assert rollout_policy(centre, centre.legal_actions(), rng) == EndTurn()
    start = _state(movers=[9] * 6)
    assert Accuse() in start.legal_actions()
    picked = {rollout_policy(start, start.legal_actions(), rng) for _ in range(200)}
    assert picked == {a for a in start.legal_actions() if a != Accuse()}


def test_evaluation_prefers_the_seat_that_has_seen_more_cards() -> None:
    state = _state()
    even = evaluate(state)
    assert abs(sum(even) - 1.0) < 1e-9 and max(even) - min(even) < 1e-9
    data = state.to_json()
    shown = [c for c in data["hands"][2]][:2]
    log = data["log"] + [["show", 2, 1, c] for c in shown]
    values = evaluate(_state(log=log))
    assert values[1] > values[0] and values[1] > values[2]
    out = evaluate(_state(log=log, out=["", "accused", "", ""]))
    assert out[1] == 0.0 and abs(sum(out) - 1.0) < 1e-9


def test_levels_use_the_short_cutoff_with_the_evaluation() -> None:
    for level in ("easy", "medium", "hard"):
        assert parse_settings(level, HOOKS).cutoff == SEARCH_CUTOFF
    assert HOOKS.evaluate is evaluate and HOOKS.rollout is rollout_policy


def test_the_detective_chooses_its_cloister_bell_location_towards_its_goal() -> None:
    from timelord.agents import make_agent

    game = timelord.load("clue", players=4)
    data = game.new_game(3).to_json()
    seat = 1
    char = data["characters"][seat]
    movers = [9] * 6
    movers[char] = 1  # The Moon: the Bell offers The Library or Victorian London
    data.update(phase="bell", decider=seat, movers=movers, bell_queue=[])
    assert isinstance(game, ClueGame)
    state = read_state(game, data)
    legal = state.legal_actions()
    assert len(legal) == 2
    agent = make_agent("heuristic:hard", game)
    choice = agent.act(state.view(seat), legal, Rng(0))
    assert choice in legal


def test_a_seat_certain_of_the_envelope_plays_the_detective_without_searching() -> None:
    """Search has nothing to learn once the envelope is known, and its rollouts never accuse:
    the settled move (the race to the TARDIS, then the exact detective's accusation) is
    played without a search, all the way to a right accusation; the race's own moves are
    among them (the detective's walk is taken only where the race has no move)."""
    game = timelord.load("clue", players=4)
    search = make_agent("ismcts:hard/sims=12", game)
    assert isinstance(search, IsmctsAgent)
    detective = ClueDetective(game, "hard")
    rng = Rng(5)
    state = game.new_game(5)
    searched = certain_moves = raced = 0
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        view, legal = state.view(seat), state.legal_actions()
        move = search.act(view, legal, rng)
        if len(legal) > 1:
            certain = detective._accusation(detective.deduce(view)) is not None
            hooked = settled(game, view, legal)
            if certain:
                assert move == hooked and search.last_sims == 0
                certain_moves += 1
                raced += move == race_move(game, view, legal)
            elif hooked is None:  # no guess worth making (agents/clue/gamble.py): a search
                assert search.last_sims == 12
                searched += 1
        state = state.apply(move)
    assert searched and certain_moves and raced
    assert state.winners(), "the search never solved the case"
    accusations = [e for e in state.view(None)["log"] if e[0] == "accuse"]
    assert accusations and all(e[-1] for e in accusations[-1:])
