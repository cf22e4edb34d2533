"""Keys to the TARDIS: each transition tells every seat what happened, the log it follows the
game by (opened
backs, moves, teleports, earned Extra Turns, draws to the drawer only, the end), and nothing a
seat is told depends on what it cannot see."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

from timelord.core import Rng
from timelord.games.keys import KeysGame
from timelord.games.keys.actions import ForgoBonus, MovePawn, OpenDoor, StayPut

from .conftest import T


def _told(state: Any, action: Any, seat: int | None) -> list[str]:
    _, events = state.apply_with_events(action)
    return [t["text"] for t in state.game.tell(events, seat)]


def test_an_opening_names_the_back_to_everyone(make) -> None:
    state = make(tiles={"c3": ("red", "dalek")}, hands=[["key-red"] * 4, []])
    for seat, who in ((0, "You open"), (1, "Seat 0 (south) opens"), (None, "Seat 0 (south) opens")):
        told = _told(state, OpenDoor(T("c3"), "key-red"), seat)
        assert told[0] == f"{who} c3 (red door) with a Key (red): behind it is a Dalek Door"


def test_an_extra_turn_and_the_next_draw_are_told(make) -> None:
    """K-5.7: stepping onto an unused Extra Turn gives another turn; the new card is named
    to its drawer only."""
    state = make(
        tiles={"c2": ("blue", "extra-turn")},
        pawns=["c1", None],
        open_=["c1", "c2"],
        seen=["c2"],
        phase="move",
        deck=["key-red"],
        hands=[[], ["key-blue"]],
    )
    mine = _told(state, MovePawn(T("c2")), 0)
    assert mine[:3] == [
        "You move to c2",
        "You earn an Extra Turn on c2",
        "Round 1: Your turn (Extra Turn)",
    ]
    assert "You draw a Key (red)" in mine
    theirs = _told(state, MovePawn(T("c2")), 1)
    assert "Seat 0 (south) earns an Extra Turn on c2" in theirs
    assert "Seat 0 (south) draws a card" in theirs and "Key (red)" not in " ".join(theirs)


def test_a_tardis_key_bonus_taken_or_given_up_is_told(make) -> None:
    """K-5.6: landing on a TARDIS Key offers one free open or close."""
    state = make(
        tiles={"c2": ("blue", "tardis-key"), "e5": ("green", "teleport")},
        pawns=["c1", None],
        open_=["c1", "c2"],
        seen=["c2"],
        phase="move",
    )
    assert _told(state, MovePawn(T("c2")), 1)[1] == (
        "Seat 0 (south) lands on a TARDIS Key (c2): they may open or close any one door"
    )
    bonus = state.apply(MovePawn(T("c2")))
    assert _told(bonus, ForgoBonus(), 0)[0] == "You give up the TARDIS Key bonus"
    assert _told(bonus, OpenDoor(T("e5"), "tardis-key"), 1)[0] == (
        "Seat 0 (south) opens e5 (green door) with the TARDIS Key bonus: behind it is a Teleport"
    )


def test_reaching_the_far_edge_ends_the_game(make) -> None:
    # seat 0 starts south, so the north edge (rank 7) is its goal
    state = make(pawns=["c6", None], open_=["c6", "c7"], phase="move")
    told = _told(state, MovePawn(T("c7")), 1)
    assert told == [
        "Seat 0 (south) moves to c7",
        "Game over: Seat 0 (south) reaches the far edge at c7 and escapes the TARDIS",
    ]


def test_the_round_limit_is_told(make) -> None:
    state = make(pawns=["c1", None], open_=["c1"], phase="move", seat=1, round_=2, round_limit=3)
    assert _told(state, StayPut(), 0)[-1] == (
        "Game over: the round limit is reached after 3 rounds; nobody wins"
    )


def _playouts(games: int, players: int) -> Iterator[tuple[KeysGame, Any, Any, Any, list]]:
    game = KeysGame(players=players)
    for g in range(games):
        state = game.new_game(g)
        rng = Rng(g + 50)
        while not state.is_over:
            legal = state.legal_actions()
            action = legal[rng.below(len(legal))]
            after, events = state.apply_with_events(action)
            yield game, state, action, after, events
            state = after


def test_every_kind_of_event_occurs_and_reads_well() -> None:
    kinds: Counter[str] = Counter()
    for game, _, _, _, events in _playouts(4, 3):
        for e in events:
            kinds[e.kind] += 1
            for seat in (None, 0, 1, 2):
                text = game.tell([e], seat)[0]["text"]
                assert "None" not in text and "you's" not in text and " 1 cards" not in text
                assert " a Open" not in text and " a Extra" not in text and text[0].isupper()
    expected = {
        "discard", "open", "close", "remove_barrier", "barrier", "cookie", "pandorica",
        "assault", "tunnel", "move", "step_off", "stay", "bonus", "extra_turn",
        "freed", "turn", "draw", "reshuffle", "end",
    }  # fmt: skip
    assert expected <= set(kinds), expected - set(kinds)


def test_events_never_depend_on_what_the_seat_cannot_see() -> None:
    """Leak test: re-deal the seat's hidden cards and door backs (same view); where the action
    is legal in both and the seat's view after is the same, the seat is told the same."""
    compared = 0
    for game, state, action, after, events in _playouts(2, 3):
        if compared > 1500:
            break
        for seat in range(3):
            twin = game.sample_state(state.view(seat), Rng(compared))
            twin.rng = state.rng
            if action not in twin.legal_actions():
                continue
            twin_after, twin_events = twin.apply_with_events(action)
            if twin_after.view(seat) != after.view(seat):
                continue
            assert game.tell(twin_events, seat) == game.tell(events, seat), action
            compared += 1
    assert compared > 200


def test_a_turn_with_nothing_to_do_is_told(make) -> None:
    """K-R9 / K-R3: a seat with no card and no move passes by itself, and everyone hears it."""
    state = make(pawns=["c1", None], open_=["c1"], phase="move", hands=[[], []], deck=[])
    assert _told(state, StayPut(), 0) == [
        "You stay put",
        "Round 1: Seat 1 (north)'s turn",
        "Seat 1 (north) has no card to play and cannot move: the turn passes",
        "Round 2: Your turn",
    ]
