"""The Keys bot's fast path pieces agree with the plain definitions they replace."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import timelord.agents.keys.heuristic as keys_bot
from timelord.agents.keys.heuristic import (
    INF,
    board,
    distance,
    evaluate,
    goal_field,
    rollout,
    tile_costs,
)
from timelord.core import Rng, load
from timelord.games.keys import KeysState
from timelord.games.keys.actions import MovePawn, OpenDoor, PlaceCookie
from timelord.games.keys.board import TELEPORT


def playout_states(players: int, games: int, every: int) -> Iterator[KeysState]:
    """Every `every`-th position of a few random games (doors, barriers, tunnels appear)."""
    game = load("keys", players=players)
    rng = Rng(players)
    n = 0
    for seed in range(games):
        state = game.new_game(seed)
        while not state.is_over:
            if n % every == 0:
                yield state
            n += 1
            legal = state.legal_actions()
            state = state.apply_unchecked(legal[rng.below(len(legal))])


@pytest.mark.parametrize("players", [2, 4])
def test_bitmask_levels_equal_dijkstra(players: int) -> None:
    """The level-by-level distances and fields give exactly what Dijkstra over the tile
    costs gives, on boards with open, closed, Dalek and barred doors and Time Tunnels."""
    tunnels = 0
    for state in playout_states(players, 8, 13):
        costs = tile_costs(state)
        tunnels += bool(state.tunnels)
        for seat in range(players):
            assert board(state).field(state.goal_mask(seat)) == goal_field(state, seat, costs)
            assert distance(state, seat) == distance(state, seat, costs)
    assert tunnels > 0


def test_unreachable_goal_is_infinite() -> None:
    """With every tile of the goal edge's approach cut off by Control only, nothing is
    reachable past it; the levels stop and report INF like Dijkstra."""
    state = load("keys", players=2).new_game(2)
    costs = [INF] * 49
    assert goal_field(state, 0, costs)[45] == INF


def test_evaluation_is_a_fresh_list_each_time() -> None:
    """The cached evaluation is copied out, so a caller changing it changes nothing."""
    state = load("keys", players=4).new_game(5)
    first = evaluate(state)
    first[0] = 99.0
    assert evaluate(state)[0] != 99.0
    assert abs(sum(evaluate(state)) - 1.0) < 1e-9


def test_tempo_favours_the_seat_about_to_move() -> None:
    """With TEMPO on, two seats equally far from their goals are valued by turn order: the
    seat to move first counts as ahead; TEMPO 0 keeps them equal."""
    state = load("keys", players=2).new_game(3)  # nothing open: both pawns 21 away
    assert state.seat == 0
    equal = evaluate(state)
    assert equal[0] == pytest.approx(equal[1])
    old = keys_bot.TEMPO
    try:
        keys_bot.TEMPO = 1.0
        ahead = evaluate(state)
    finally:
        keys_bot.TEMPO = old
    assert ahead[0] > ahead[1]


def test_rollout_moves_nearer_the_goal_when_it_can() -> None:
    """In the move step the rollout takes a move that most shortens the path (a Teleport
    counting one more), and stays put only when no move gets nearer."""
    checked = 0
    for state in playout_states(4, 6, 3):
        legal = state.legal_actions()
        moves = [a for a in legal if isinstance(a, MovePawn)]
        if not moves or state.pos[state.seat] < 0:
            continue
        field = goal_field(state, state.seat, tile_costs(state))
        value = {a: field[a.tile] + (state.back[a.tile] == TELEPORT) for a in moves}
        best = min(value.values())
        choice = rollout(state, legal, Rng(0))
        if best < field[state.pos[state.seat]]:
            assert isinstance(choice, MovePawn) and value[choice] == best
        else:
            assert not isinstance(choice, MovePawn)
        checked += 1
    assert checked > 20


def test_rollout_picks_as_a_full_field_would() -> None:
    """The rollout grows a board's goal field only until its nearest step or door is settled
    (and shares the growth with later questions on the same board); its choice is the one
    the full Dijkstra field gives: the first legal move or adjacent door of least cost (a
    Teleport or an opening one more), taken only when below the pawn's own tile."""
    keys_bot._BOARDS.clear()  # fields partly grown by other tests are fine, but start clean
    checked = 0
    for state in playout_states(4, 10, 2):
        legal = state.legal_actions()
        seat = state.seat
        pos = state.pos[seat]
        if keys_bot.winning(state, legal) is not None:
            continue
        field = goal_field(state, seat, tile_costs(state))
        near = state.tables.orthogonal[pos] if pos >= 0 else state.tables.home_tiles[seat]
        best, best_value = None, field[pos] if pos >= 0 else INF
        for a in legal:
            if isinstance(a, MovePawn):
                value = field[a.tile] + (state.back[a.tile] == TELEPORT)
            elif isinstance(a, OpenDoor | PlaceCookie) and a.tile in near:
                value = field[a.tile] + 1
            else:
                continue
            if value < best_value:
                best, best_value = a, value
        choice = rollout(state, legal, Rng(0))
        if best is not None:
            assert choice is best
            checked += 1
        else:
            assert not isinstance(choice, MovePawn)
    assert checked > 50


def test_partly_grown_fields_are_exact_where_asked() -> None:
    """A goal field grown for some tiles and asked again for others (the rollouts' and the
    distances' pattern: some asked tiles already reached, others not yet) is exact on every
    tile asked for."""
    keys_bot._BOARDS.clear()
    rng = Rng(11)
    asked = 0
    for state in playout_states(4, 6, 3):
        costs = tile_costs(state)
        here = board(state)
        for seat in range(4):
            truth = goal_field(state, seat, costs)
            goal = state.goal_mask(seat)
            for _ in range(3):
                need = 0
                for _ in range(3):
                    need |= 1 << rng.below(len(truth))
                found = here.field(goal, need)
                for t in range(len(truth)):
                    if need >> t & 1:
                        assert found[t] == truth[t]
                        asked += 1
    assert asked > 1000
