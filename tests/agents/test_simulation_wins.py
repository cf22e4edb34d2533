"""Never blind to a win: inside a simulation, a seat that can win now with certainty takes it
(the coach's and the search's simulations play every seat by these policies)."""

from __future__ import annotations

from collections.abc import Iterator

import timelord
from timelord.agents import make_agent
from timelord.agents.hooks import hooks_for
from timelord.core import Rng, State


def _states(game_id: str, players: int, seed: int) -> Iterator[State]:
    game = timelord.load(game_id, players=players)
    agents = [make_agent("heuristic", game) for _ in range(players)]
    rng = Rng(seed)
    state = game.new_game(seed)
    while not state.is_over:
        yield state
        seat = state.to_move
        assert seat is not None
        state = state.apply(agents[seat].act(state.view(seat), state.legal_actions(), rng))


def _at(game_id: str, players: int, seed: int, step: int) -> State:
    for i, state in enumerate(_states(game_id, players, seed)):
        if i == step:
            return state
    raise AssertionError("the game ended earlier")


def _play_turn(state: State, thorough: bool, steps: int) -> State:
    """`steps` actions of the game's simulation policy from the view of the seat to move."""
    seat = state.to_move
    assert seat is not None
    game = state.game  # type: ignore[attr-defined]
    policy, _ = hooks_for(game).for_view(game, state.view(seat), thorough)
    assert policy is not None
    rng = Rng(1)
    for _ in range(steps):
        if state.is_over:
            break
        state = state.apply(policy(state, state.legal_actions(), rng))
    return state


def test_clue_a_seat_certain_of_the_envelope_accuses_and_names_it() -> None:
    """C-5.3: in the TARDIS and certain (by its exact deducer, not yet by crossing off), the
    simulated seat accuses and names the envelope: the game ends with its win."""
    state = _at("clue", 3, 0, 166)
    seat = state.to_move
    for thorough in (False, True):
        after = _play_turn(state, thorough, 4)
        assert after.is_over and after.winners() == [seat]


def test_keys_the_card_that_opens_the_goal_edge_and_the_step_onto_it() -> None:
    """K-6.1, K-7.1: a Key opens a goal-edge door whose back is known; the simulated seat
    plays it and steps onto the edge, with the search's rollout and the coach's."""
    state = _at("keys", 2, 14, 128)
    seat = state.to_move
    for thorough in (False, True):
        after = _play_turn(state, thorough, 2)
        assert after.is_over and after.winners() == [seat]


def test_episodes_the_finishing_episode_is_played() -> None:
    """E-5: with an episode that reaches the target in hand, the simulated seat plays it."""
    state = _at("episodes", 2, 1, 47)
    seat = state.to_move
    after = _play_turn(state, True, 1)
    assert after.is_over and after.winners() == [seat]


def test_card_game_the_one_defender_that_wins_the_conflict() -> None:
    """C-5.3: Skaro attacked with strength 4, Rory (1) declared: the simulation's choice
    (without its one-in-ten random move) adds The Doctor (3), the card that wins."""
    from timelord.agents.card_game.play import choose, table_from_state
    from timelord.games.card_game.actions import PlayDefender
    from timelord.games.card_game.scenario import Scenario

    game = timelord.load("card-game", players=2, max_turns=2)
    t = Scenario(game, active=0)  # type: ignore[arg-type]
    t.location(1)
    t.location(0, "skaro", enemies=["dalek", "dalek"], attacker=1, face_up=True)
    t.hand(0, "the-doctor", "rory", "wilf", "ood", "tardis")
    start = t.state()
    cards = game.cards  # type: ignore[attr-defined]
    rory = next(
        a
        for a in start.legal_actions()
        if isinstance(a, PlayDefender) and cards.key[a.card] == "rory"
    )
    state = start.apply(rory)
    pick = choose(table_from_state(state), state.legal_actions())
    assert isinstance(pick, PlayDefender) and cards.key[pick.card] == "the-doctor"
