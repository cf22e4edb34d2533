"""C-2 the start of a turn and C-3 dice and movement on the grid."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from timelord.core import IllegalAction, Rng
from timelord.games.clue.actions import (
    Accuse,
    Move,
    NameCard,
    PlayCard,
    RollDice,
    StayPut,
    UsePassage,
)
from timelord.games.clue.board import TARDIS, standard_board

P, M, G, S, Z, L, U, D, V = range(9)  # board rooms in card order


def test_c2_1_a_turn_may_start_with_a_roll(h: SimpleNamespace) -> None:
    state = h.build()
    assert RollDice() in state.legal_actions()
    after = state.apply(RollDice())
    assert after.view(0)["phase"] == "move" and after.view(0)["steps"] >= 1


def test_c2_2_joining_location_without_rolling_then_a_rumour(h: SimpleNamespace) -> None:
    state = h.build(movers=[Z, 9, 9, 9, 9, 9])
    assert UsePassage(V) in state.legal_actions()
    after = state.apply(UsePassage(V))
    assert after.to_json()["movers"][0] == V
    assert after.view(0)["phase"] == "name"
    done = h.play(after, NameCard(h.STRAX), NameCard(h.VORTEX))
    assert done.view(0)["log"][0] == ["rumour", 0, h.STRAX, h.VORTEX, h.LONDON]


def test_c2_2_secret_passage_moon_to_london_both_ways(h: SimpleNamespace) -> None:
    assert UsePassage(V) in h.build(movers=[M, 9, 9, 9, 9, 9]).legal_actions()
    assert UsePassage(M) in h.build(movers=[V, 9, 9, 9, 9, 9]).legal_actions()


def test_c2_2_no_passage_from_a_location_without_one(h: SimpleNamespace) -> None:
    state = h.build(movers=[L, 9, 9, 9, 9, 9])
    with pytest.raises(IllegalAction) as err:
        state.apply(UsePassage(M))
    assert err.value.rule == "C-2.2"


def test_c2_3_stay_after_being_moved_by_a_rumour(h: SimpleNamespace) -> None:
    state = h.build(movers=[L, 9, 9, 9, 9, 9], moved=[True, False, False, False])
    assert StayPut() in state.legal_actions()
    after = state.apply(StayPut())
    assert after.view(0)["phase"] == "name" and after.to_json()["movers"][0] == L


def test_c2_3_no_staying_without_being_moved(h: SimpleNamespace) -> None:
    state = h.build(movers=[L, 9, 9, 9, 9, 9])
    with pytest.raises(IllegalAction) as err:
        state.apply(StayPut())
    assert err.value.rule == "C-4.2"


def test_c2_4_accuse_at_the_start_of_a_turn_in_the_tardis(h: SimpleNamespace) -> None:
    assert Accuse() in h.build().legal_actions()


def test_c2_5_kept_cards_are_played_at_their_time(h: SimpleNamespace) -> None:
    state = h.build(kept=[["jammie-dodger"], [], [], []])
    assert PlayCard("jammie-dodger") not in state.legal_actions()
    with pytest.raises(IllegalAction) as err:
        state.apply(PlayCard("jammie-dodger"))
    assert err.value.rule == "C-6.4"


def _roller(first: int) -> int:
    """An rng state whose next roll has `first` on the first die."""
    for seed in range(1000):
        rng = Rng(seed)
        if rng.randint(1, 6) == first:
            return seed
    raise AssertionError


def test_c3_1_question_mark_draws_then_moves_the_other_die(h: SimpleNamespace) -> None:
    state = h.build(rng=_roller(1), pile=["timey-wimey"])
    after = state.apply(RollDice())
    view = after.view(0)
    assert view["roll"][0] == 0 and view["steps"] == view["roll"][1]
    assert view["kept"] == ["timey-wimey"] and view["pile_size"] == 0
    assert view["phase"] == "move"


def test_c3_1_question_mark_is_ignored_without_intrigue(h: SimpleNamespace) -> None:
    state = h.build(options={"intrigue": False}, rng=_roller(1))
    view = state.apply(RollDice()).view(0)
    assert view["roll"][0] == 0 and view["steps"] == view["roll"][1]
    assert [e for e in view["log"] if e[0] == "draw"] == []


def test_c3_2_rulebook_example_skaro_to_trenzalore_with_seven() -> None:
    board = standard_board()
    assert board.distances(S)[Z] == 7
    assert Z in board.destinations(S, 7, True)
    assert Z not in board.destinations(S, 6, True)


def test_c3_2_entering_a_location_ends_the_move(h: SimpleNamespace) -> None:
    # Skaro is 4 steps from the TARDIS; with 12 the mover may still stop in it, and the
    # squares beyond Skaro are never reached through it.
    board = standard_board()
    assert S in board.destinations(TARDIS, 12, True)
    state = h.build(phase="move", steps=12, roll=[6, 6])
    after = state.apply(Move(S))
    assert after.view(0)["phase"] == "name"


def test_c3_3_no_exact_roll_for_locations_or_question_squares() -> None:
    board = standard_board()
    dist = board.distances(TARDIS)
    for q in board.intrigue:
        assert q in board.destinations(TARDIS, dist[q] + 1, True)
    assert G in board.destinations(TARDIS, dist[G] + 3, True)


def test_c3_4_plain_squares_need_the_exact_roll_by_parity() -> None:
    board = standard_board()
    dist = board.distances(TARDIS)
    plain = next(n for n, d in dist.items() if d == 3 and n >= 10 and n not in board.intrigue)
    assert plain in board.destinations(TARDIS, 3, True)
    assert plain in board.destinations(TARDIS, 5, True)
    assert plain not in board.destinations(TARDIS, 4, True)
    assert plain not in board.destinations(TARDIS, 2, True)


def test_c3_4_moving_to_an_unreachable_square_is_refused(h: SimpleNamespace) -> None:
    board = standard_board()
    far = max(board.distances(TARDIS).items(), key=lambda kv: kv[1])[0]
    state = h.build(phase="move", steps=2, roll=[0, 2])
    with pytest.raises(IllegalAction) as err:
        state.apply(Move(far))
    assert err.value.rule == "C-3.2"


def test_c3_5_a_move_never_ends_where_it_started() -> None:
    board = standard_board()
    for start in (TARDIS, S, 40):
        for roll in range(1, 13):
            assert start not in board.destinations(start, roll, True)


def test_c3_6_landing_on_a_plain_square_ends_the_turn(h: SimpleNamespace) -> None:
    board = standard_board()
    dist = board.distances(TARDIS)
    plain = next(n for n, d in dist.items() if d == 2 and n >= 10 and n not in board.intrigue)
    state = h.build(phase="move", steps=2, roll=[0, 2])
    after = state.apply(Move(plain))
    assert after.to_move == 1 and after.view(1)["phase"] == "start"


def test_c3_6_landing_on_a_question_square_draws(h: SimpleNamespace) -> None:
    board = standard_board()
    dist = board.distances(TARDIS)
    q = min(board.intrigue, key=lambda n: dist[n])
    state = h.build(phase="move", steps=dist[q] + 1, roll=[0, dist[q] + 1], pile=["sonic-scan"])
    after = state.apply(Move(q))
    assert after.view(0)["kept"] == ["sonic-scan"] and after.to_move == 1


def test_c3_2_a_small_hand_made_board() -> None:
    from timelord.games.clue.board import Board

    grid = """
AAa..?
#....b
Tt##BB
"""
    board = Board(grid, ["A", "B"], [(0, 1, "secret passage")])
    assert board.distances(0)[1] == 4  # out of A's door, three squares, into B's door
    assert board.passages[0] == (1,) and board.secret == frozenset({0, 1})
    assert 1 in board.destinations(0, 4, False) and 1 in board.destinations(0, 9, False)
    assert 1 not in board.destinations(0, 3, False)
    plain, question = board.node_at[(1, 4)], board.node_at[(0, 5)]
    assert plain in board.destinations(0, 3, False) and plain not in board.destinations(0, 4, False)
    assert question in board.destinations(0, 4, True)
    assert question not in board.destinations(0, 4, False)
    assert board.is_room(0) and not board.is_room(plain)
    with pytest.raises(ValueError):
        Board("AAx.\nTt..", ["A"], [])


def test_c2_2_rulebook_example_trenzalore_to_london_then_next_turn_to_the_moon(
    h: SimpleNamespace,
) -> None:
    # RB: "you move from Trenzalore to Victorian London and stop. On your next turn you can
    # move through the Secret Passage to The Moon."
    state = h.build(
        players=2, options={"powers": False, "intrigue": False}, movers=[Z, 9, 9, 9, 9, 9]
    )
    state = h.play(state, UsePassage(V), NameCard(h.AMY), NameCard(h.VORTEX))
    assert state.to_json()["movers"][0] == V  # the passage ended the move in London
    assert state.view(0)["log"][0] == ["rumour", 0, h.AMY, h.VORTEX, h.LONDON]
    while state.to_move != 0 or state.view(0)["phase"] != "start":
        legal = state.legal_actions()  # seat 1 plays, never naming seat 0's mover
        state = state.apply(next(a for a in legal if a != NameCard(h.AMY)))
    assert state.to_json()["movers"][0] == V
    assert UsePassage(M) in state.legal_actions()
    assert UsePassage(S) not in state.legal_actions()


def test_c3_2_a_mover_never_passes_through_the_tardis() -> None:
    # RB: "You cannot pass through one location and into another or into the Center on a
    # single turn". Where a square would be nearer by going into the TARDIS and out again,
    # a roll long enough for that shortcut (but not for the way round) does not reach it.
    board = standard_board()
    through = board.distances(TARDIS)
    found = 0
    for room in range(board.rooms):
        dist = board.distances(room)
        for node, d in dist.items():
            shortcut = dist[TARDIS] + through[node]
            if node >= 10 and d > shortcut and shortcut <= 12:
                found += 1
                assert node not in board.destinations(room, shortcut, True)
    assert found > 0


def test_c3_3_without_intrigue_question_squares_are_plain(h: SimpleNamespace) -> None:
    # RB: "If you're not using the Intrigue Cards, ignore the ? on the die and on the board".
    board = standard_board()
    dist = board.distances(TARDIS)
    q = min(board.intrigue, key=lambda n: dist[n])
    assert q in board.destinations(TARDIS, dist[q] + 1, True)
    assert q not in board.destinations(TARDIS, dist[q] + 1, False)  # exact roll needed
    state = h.build(options={"intrigue": False}, phase="move", steps=dist[q], roll=[0, dist[q]])
    after = state.apply(Move(q))
    assert after.to_move == 1 and after.view(0)["kept"] == []  # no draw: the turn ends


def test_c2_5_several_action_cards_in_one_turn(h: SimpleNamespace) -> None:
    # RB: "You can have and play as many Action Cards as you like in any turn."
    state = h.build(kept=[["timey-wimey", "vortex-jump"], [], [], []])
    state = state.apply(PlayCard("timey-wimey"))
    assert PlayCard("vortex-jump") in state.legal_actions()
    state = state.apply(PlayCard("vortex-jump"))
    assert state.view(0)["phase"] == "teleport"
    assert state.view(1)["discards"][-2:] == ["timey-wimey", "vortex-jump"]
