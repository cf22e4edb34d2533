"""The race to the TARDIS of a seat certain of the envelope (`agents/clue/race.py`): expected
turns by value iteration, a roll where the detective's walk takes a passage that ends the
turn, the cards that shorten the race played, the search's settled move using it, and the
simulations (the coach's and the search's rollouts) racing and guessing as the table's seats
do, so a hint sees a rival's race."""

from __future__ import annotations

from typing import Any

import timelord
from timelord.agents.clue.heuristic import Simulation, toward
from timelord.agents.clue.race import race_move, turns_to_tardis
from timelord.agents.coach import hint
from timelord.core import Rng
from timelord.games.clue.actions import Accuse, Move, PlayCard, RollDice, UsePassage
from timelord.games.clue.board import TARDIS
from timelord.games.clue.doors import read_state
from timelord.games.clue.game import ClueGame

THE_MOON, SKARO, PLATFORM_ONE, VICTORIAN_LONDON, TRENZALORE = 1, 3, 0, 8, 4


def _state(seat: int, where: int, **fields: Any) -> Any:
    """Seat `seat` to move with its mover at `where` (a hand-made position)."""
    game = timelord.load("clue", players=4)
    assert isinstance(game, ClueGame)
    data = game.new_game(3).to_json()
    movers = list(data["movers"])
    movers[data["characters"][seat]] = where
    data.update(current=seat, decider=seat, movers=movers, **fields)
    return game, read_state(game, data)


def test_expected_turns_are_zero_at_the_tardis_and_grow_with_the_distance() -> None:
    game = timelord.load("clue", players=4)
    board: Any = game.board  # type: ignore[attr-defined]
    turns = turns_to_tardis(board, True)
    assert turns[TARDIS] == 0.0
    away = board.distances(TARDIS)
    for room in range(board.rooms):
        assert 1.0 < turns[room] < 2.0  # one roll often reaches it, two nearly always
    assert turns[SKARO] < turns[PLATFORM_ONE]  # 4 steps against 9
    assert away[SKARO] < away[PLATFORM_ONE]


def test_a_roll_beats_a_passage_that_ends_the_turn_a_step_nearer() -> None:
    """C-2.2: a passage replaces the roll and ends the turn with a rumour. From The Moon (8
    steps out) the passage reaches Victorian London (7 steps): the detective's walk takes it,
    the race rolls (an 8 or more reaches the TARDIS this turn)."""
    game, state = _state(0, THE_MOON)
    legal = state.legal_actions()
    assert UsePassage(VICTORIAN_LONDON) in legal
    view = state.view(0)
    assert toward(game.board, THE_MOON, TARDIS, legal) == UsePassage(VICTORIAN_LONDON)
    assert race_move(game, view, legal) == RollDice()


def test_an_extra_turn_is_played_before_anything_else() -> None:
    game, state = _state(0, THE_MOON, kept=[["timey-wimey"], [], [], []])
    legal = state.legal_actions()
    assert race_move(game, state.view(0), legal) == PlayCard("timey-wimey")


def test_the_jammie_dodger_is_played_when_six_more_steps_reach_the_tardis() -> None:
    """C-6.4: the Jammie Dodger adds 6 to a roll before moving. A 3 from Platform One (9
    steps out) cannot reach the TARDIS; 9 can. Rolling 9 needs no card."""
    game, state = _state(
        0, PLATFORM_ONE, phase="move", roll=[2, 1], steps=3, kept=[["jammie-dodger"], [], [], []]
    )
    legal = state.legal_actions()
    assert Move(TARDIS) not in legal
    assert race_move(game, state.view(0), legal) == PlayCard("jammie-dodger")
    played = state.apply(PlayCard("jammie-dodger"))
    assert race_move(game, played.view(0), played.legal_actions()) == Move(TARDIS)
    game, state = _state(
        0, PLATFORM_ONE, phase="move", roll=[5, 4], steps=9, kept=[["jammie-dodger"], [], [], []]
    )
    assert race_move(game, state.view(0), state.legal_actions()) == Move(TARDIS)


def _certain(game: Any) -> dict[int, frozenset[int]]:
    """Seat 0's root deductions in a `Simulation`: every card but the envelope's."""
    everything = {c for cat in game.categories for c in cat}
    return {0: frozenset(everything - set(game.new_game(3).env))}


def test_a_certain_seat_in_a_simulation_races_where_the_walk_would_take_the_passage() -> None:
    """C-2.2: the simulations the coach and the search play (`Simulation.policy`) race like
    the table's certain seat: from The Moon they roll, where the walk takes the passage."""
    game, state = _state(0, THE_MOON)
    legal = state.legal_actions()
    for thorough in (False, True):
        sim = Simulation(game, _certain(game), thorough)
        assert sim.policy(state, legal, Rng(1)) == RollDice()


def test_a_certain_seat_in_a_simulation_plays_its_extra_turn_first() -> None:
    game, state = _state(0, THE_MOON, kept=[["timey-wimey"], [], [], []])
    sim = Simulation(game, _certain(game))
    assert sim.policy(state, state.legal_actions(), Rng(1)) == PlayCard("timey-wimey")


def _two_player(where: int, rival_at: int, seat_knows: int = 7, rival_knows: int = 7) -> Any:
    """A two-player position, seat 0 to start its turn at `where`, the rival's mover at
    `rival_at`. Each seat has seen every side card and as many of the other's cards as it
    `knows`, each shown after a rumour naming it (7 of 7: certain of the envelope)."""
    game = timelord.load("clue", players=2)
    data = game.new_game(3).to_json()

    def asked(asker: int, shower: int, card: int) -> list[list[Any]]:
        triple = list(data["envelope"])
        triple[next(i for i, cat in enumerate(game.categories) if card in cat)] = card
        return [["rumour", asker, *triple], ["show", shower, asker, card]]

    hands = data["hands"]
    log = [e for c in hands[1][:seat_knows] for e in asked(0, 1, c)]
    log += [e for c in hands[0][:rival_knows] for e in asked(1, 0, c)]
    log += [["side", p, i, c] for p in (0, 1) for i, c in enumerate(data["side"])]
    movers = list(data["movers"])
    movers[data["characters"][0]] = where
    movers[data["characters"][1]] = rival_at
    data.update(log=log, side_seen=[[0, 1, 2, 3], [0, 1, 2, 3]], movers=movers)
    return game, read_state(game, data)


def test_the_hint_of_a_certain_seat_ranks_the_roll_first_against_a_racing_rival() -> None:
    """C-2.2, C-5.3: both seats know the envelope; seat 0 in Victorian London, the rival in
    The Moon. A roll of 7 or more reaches the TARDIS (and the accusation) this turn; a
    passage ends the turn, and the rival, racing too, is a roll from winning. The hint ranks
    the roll first and calls it best; with rivals that walked by board steps (and took the
    slow passage from The Moon) the simulations saw no race and the coach was unsure."""
    game, state = _two_player(VICTORIAN_LONDON, THE_MOON)
    legal = state.legal_actions()
    assert RollDice() in legal and UsePassage(TRENZALORE) in legal
    moves = hint(game, state.view(0), legal, seconds=1.25)
    assert moves[0]["label"] == "roll the dice" and moves[0]["verdict"] == "best"
    assert moves[0]["value"] - moves[1]["value"] > 0.2


def test_a_simulated_seat_guesses_only_when_a_solved_rival_is_as_near_the_tardis() -> None:
    """C-5.3 with `gamble.guess` in the notebook's terms: in the TARDIS with two triples left
    open (one in two), the simulated seat accuses once its rival has solved the envelope and
    stands as near the TARDIS (here in it too: it accuses on its turn), and waits while the
    rival has not solved it, or has but is a roll or more away."""
    from timelord.games.clue.board import TARDIS

    for rival_at, rival_knows, accuses in (
        (TARDIS, 7, True),
        (TARDIS, 6, False),
        (THE_MOON, 7, False),
    ):
        game, state = _two_player(TARDIS, rival_at, seat_knows=6, rival_knows=rival_knows)
        legal = state.legal_actions()
        assert Accuse() in legal
        picked = Simulation(game).policy(state, legal, Rng(1))
        assert (picked == Accuse()) is accuses, (rival_at, rival_knows)
