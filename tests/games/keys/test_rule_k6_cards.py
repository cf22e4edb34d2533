"""K-6: every card, its conditions and its choices."""

import pytest

from timelord.core import IllegalAction
from timelord.games.keys.actions import (
    AssaultPawn,
    CloseDoor,
    DiscardCard,
    MovePawn,
    OpenDoor,
    PlaceBarrier,
    PlaceCookie,
    PlacePandorica,
    PlaceTunnel,
    RemoveBarrier,
    StayPut,
    StepOff,
)
from timelord.games.keys.board import tile_index as T

MIXED = {"a5": ("red", "open"), "f6": ("red", "open"), "g2": ("green", "open")}


def _refused(state, action) -> str:
    with pytest.raises(IllegalAction) as err:
        state.apply(action)
    assert err.value.reason
    return err.value.rule


# K-6.1 Key


def test_k6_1_key_opens_and_closes_its_colour_anywhere(make) -> None:
    """K-6.1: a red Key opens a red door far away, or closes an open red one."""
    state = make(tiles=MIXED, open_=["f6"], hands=[["key-red"] * 4, []])
    legal = state.legal_actions()
    assert OpenDoor(T("a5"), "key-red") in legal and CloseDoor(T("f6"), "key-red") in legal
    keyed = {a.tile for a in legal if isinstance(a, (OpenDoor, CloseDoor))}
    assert keyed == {T("a5"), T("f6")}  # only red doors
    after = state.apply(OpenDoor(T("a5"), "key-red"))
    assert T("a5") in after.view(None)["open"] and after.view(None)["discard"] == ["key-red"]


def test_k6_1_key_limits(make) -> None:
    """K-6.1 negative: wrong colour, already open/closed, or a pawn on the door."""
    state = make(tiles=MIXED, open_=["f6", "a1"], pawns=["a1", None], hands=[["key-red"] * 4, []])
    assert _refused(state, OpenDoor(T("g2"), "key-red")) == "K-6.1"
    assert _refused(state, OpenDoor(T("f6"), "key-red")) == "K-6.1"
    assert _refused(state, CloseDoor(T("a5"), "key-red")) == "K-6.1"
    blue = make(open_=["a1"], pawns=["a1", None], hands=[["key-blue"] * 4, []])
    assert _refused(blue, CloseDoor(T("a1"), "key-blue")) == "K-6.1"
    assert CloseDoor(T("a1"), "key-blue") not in blue.legal_actions()


# K-6.2 Sonic Screwdriver


def test_k6_2_sonic_any_colour_or_barrier(make) -> None:
    """K-6.2: any colour; or remove a barrier, which does not open the door."""
    state = make(tiles=MIXED, barriers=["c3"], hands=[["sonic"] * 4, []])
    legal = state.legal_actions()
    assert OpenDoor(T("g2"), "sonic") in legal and OpenDoor(T("a5"), "sonic") in legal
    assert RemoveBarrier(T("c3")) in legal
    after = state.apply(RemoveBarrier(T("c3")))
    view = after.view(None)
    assert view["barriers"] == [] and T("c3") not in view["open"]
    assert view["discard"] == ["sonic", "barrier"]


def test_k6_2_sonic_limits(make) -> None:
    """K-6.2 negative: no barrier to remove; a barred door is not turned; needs the card."""
    state = make(barriers=["c3"], hands=[["sonic"] * 4, []])
    assert _refused(state, RemoveBarrier(T("c4"))) == "K-6.2"
    assert _refused(state, OpenDoor(T("c3"), "sonic")) == "K-6.3"
    no_sonic = make(barriers=["c3"])
    assert _refused(no_sonic, RemoveBarrier(T("c3"))) == "K-3.2"


# K-6.3 Time Barrier


def test_k6_3_barrier_anywhere_but_control(make) -> None:
    """K-6.3 / K-R12: on closed, open, occupied or cookied doors; blocks entry and keys."""
    tiles = {"e5": ("red", "dalek")}
    state = make(
        tiles=tiles,
        open_=["c1", "c2", "e5"],
        cookies=["e5"],
        pawns=["c1", None],
        hands=[["barrier"] * 4, []],
    )
    legal = state.legal_actions()
    for name in ("a1", "c1", "c2", "e5"):
        assert PlaceBarrier(T(name)) in legal
    assert sum(isinstance(a, PlaceBarrier) for a in legal) == 48
    after = state.apply(PlaceBarrier(T("c2")))
    assert after.legal_actions() == [StepOff(), StayPut()]  # c2 barred: no step onto it
    assert after.view(None)["barriers"] == [T("c2")]
    occupied = state.apply(PlaceBarrier(T("c1")))
    assert occupied.view(None)["pawns"][0] == T("c1")
    assert MovePawn(T("c2")) in occupied.legal_actions()  # may leave the barred tile


def test_k6_3_barrier_limits(make) -> None:
    """K-6.3 negative: no barrier on Control or on another barrier; barred doors stay put."""
    state = make(barriers=["c3", "c4"], open_=["c4"], hands=[["barrier", "key-blue"] * 2, []])
    assert _refused(state, PlaceBarrier(T("d4"))) == "K-6.3"
    assert _refused(state, PlaceBarrier(T("c3"))) == "K-6.3"
    assert _refused(state, OpenDoor(T("c3"), "key-blue")) == "K-6.3"
    assert _refused(state, CloseDoor(T("c4"), "key-blue")) == "K-6.3"
    moving = make(barriers=["c2"], open_=["c1", "c2"], pawns=["c1", None], phase="move")
    assert _refused(moving, MovePawn(T("c2"))) == "K-6.3"


# K-6.4 Jam Cookie

DALEKS = {"c5": ("red", "dalek"), "e5": ("red", "dalek"), "b6": ("red", "dalek")}


def test_k6_4_cookie_on_seen_dalek(make) -> None:
    """K-6.4 / K-R13: face-up or seen-and-closed Dalek doors take a cookie; it opens for good."""
    state = make(
        tiles=DALEKS,
        open_=["c5", "e5", "c2"],
        seen=["b6"],
        barriers=["e5"],
        hands=[["cookie"] * 4, []],
    )
    cookies = [a for a in state.legal_actions() if isinstance(a, PlaceCookie)]
    assert cookies == [PlaceCookie(T("b6")), PlaceCookie(T("c5"))]
    after = state.apply(PlaceCookie(T("c5")))
    assert after.view(None)["cookies"] == [T("c5")]
    assert "cookie" not in after.view(None)["discard"]
    reopened = state.apply(PlaceCookie(T("b6")))
    assert T("b6") in reopened.view(None)["open"] and reopened.view(None)["cookies"] == [T("b6")]


def test_k6_4_cookie_limits(make) -> None:
    """K-6.4 negative: not on a closed/plain/barred/cookied door; a cookied door never closes."""
    state = make(
        tiles=DALEKS,
        open_=["c5", "e5", "c2", "b6"],
        barriers=["e5"],
        cookies=["b6"],
        hands=[["cookie", "key-red", "sonic", "sonic"], []],
    )
    assert _refused(state, PlaceCookie(T("a1"))) == "K-6.4"  # never seen
    assert _refused(state, PlaceCookie(T("c2"))) == "K-6.4"  # open but not a Dalek
    assert _refused(state, PlaceCookie(T("e5"))) == "K-6.4"  # barred
    assert _refused(state, PlaceCookie(T("b6"))) == "K-6.4"  # already cookied
    assert _refused(state, CloseDoor(T("b6"), "key-red")) == "K-6.4"
    assert _refused(state, CloseDoor(T("b6"), "sonic")) == "K-6.4"
    assert CloseDoor(T("c5"), "key-red") in state.legal_actions()  # uncookied Dalek closes


# K-6.5 Pandorica


def test_k6_5_pandorica_holds_for_two_turns(make) -> None:
    """K-6.5 / K-R11: the trapped pawn skips its move on its next two turns, then is free."""
    state = make(
        open_=["c1", "c2", "c7", "c6"],
        pawns=["c1", "c7"],
        hands=[["pandorica"] + ["key-green"] * 3, ["key-green"] * 3],
        deck=["key-green"] * 10,
    )
    assert state.legal_actions().count(PlacePandorica(1)) == 1
    s = state.apply(PlacePandorica(1)).apply(StayPut())
    for turn in range(2):
        assert s.to_move == 1 and s.view(None)["pandorica"] == [0, 2 - turn]
        s = s.apply(DiscardCard("key-green"))  # plays, cannot move: the turn ends at once
        assert s.to_move == 0
        s = s.apply(DiscardCard("key-green")).apply(StayPut())
    assert s.view(None)["pandorica"] == [0, 0]
    assert "pandorica" in s.view(None)["discard"]
    s = s.apply(DiscardCard("key-green"))
    assert s.to_move == 1 and MovePawn(T("c6")) in s.legal_actions()


def test_k6_5_pandorica_limits(make) -> None:
    """K-6.5 negative: not on yourself, on a pawn off the board or already trapped."""
    state = make(
        players=3,
        open_=["c1", "a3"],
        pawns=["c1", None, "a3"],
        pandorica=[0, 0, 1],
        hands=[["pandorica", "cyberman"] * 2, [], []],
    )
    assert [a for a in state.legal_actions() if isinstance(a, PlacePandorica)] == []
    assert _refused(state, PlacePandorica(0)) == "K-6.5"
    assert _refused(state, PlacePandorica(1)) == "K-6.5"
    assert _refused(state, PlacePandorica(2)) == "K-6.5"
    assert _refused(state, PlacePandorica(7)) == "K-6.5"
    trapped = make(open_=["c1", "c2"], pawns=["c1", None], pandorica=[1, 0], phase="move")
    assert trapped.legal_actions() == [StayPut()]
    assert _refused(trapped, MovePawn(T("c2"))) == "K-6.5"
    assert _refused(trapped, StepOff()) == "K-6.5"


# K-6.6 Cyberman Assault


def test_k6_6_push_an_opponent_one_step(make) -> None:
    """K-6.6: push an opponent onto any tile it could enter, tunnels included."""
    state = make(
        open_=["c5", "c6", "b5", "d6", "b6"],
        pawns=[None, "c5"],
        tunnels=[("c5", "b6")],
        hands=[["cyberman"] * 4, []],
    )
    pushes = {a.tile for a in state.legal_actions() if isinstance(a, AssaultPawn)}
    assert pushes == {T("c6"), T("b5"), T("b6")}
    after = state.apply(AssaultPawn(1, T("b6")))
    assert after.view(None)["pawns"][1] == T("b6") and "cyberman" in after.view(None)["discard"]


def test_k6_6_push_limits(make) -> None:
    """K-6.6 negative: not onto closed, occupied or Control tiles; not an off-board pawn."""
    state = make(
        open_=["d5", "c5", "e5"],
        pawns=["c5", "d5"],
        hands=[["cyberman"] * 4, []],
    )
    assert _refused(state, AssaultPawn(1, T("d6"))) == "K-5.1"  # closed
    assert _refused(state, AssaultPawn(1, T("c5"))) == "K-4.5"  # occupied
    assert _refused(state, AssaultPawn(1, T("d4"))) == "K-5.4"  # Control
    assert _refused(state, AssaultPawn(1, T("f5"))) == "K-6.6"  # not adjacent
    assert _refused(state, AssaultPawn(0, T("c6"))) == "K-6.6"  # yourself
    off = make(open_=["c7"], hands=[["cyberman"] * 4, []])
    assert _refused(off, AssaultPawn(1, T("c7"))) == "K-6.6"


def test_k6_6_push_never_wins(make) -> None:
    """K-6.6 / K-R5: a push onto the pushed pawn's goal edge does not win."""
    state = make(open_=["c2", "c1"], pawns=[None, "c2"], hands=[["cyberman"] * 4, []])
    after = state.apply(AssaultPawn(1, T("c1")))  # seat 1 (north) has rank 1 as goal
    assert not after.is_over and after.view(None)["pawns"][1] == T("c1")


# K-6.7 Time Tunnel


def test_k6_7_tunnel_between_diagonals(make) -> None:
    """K-6.7: any free corner not touching Control; ends may be closed; stays for good."""
    state = make(hands=[["tunnel"] * 4, []])
    tunnels = [a for a in state.legal_actions() if isinstance(a, PlaceTunnel)]
    assert len(tunnels) == 6 * 6 * 2 - 4
    assert T("b2") < T("c1")
    after = state.apply(PlaceTunnel(T("b2"), T("c1")))
    assert after.view(None)["tunnels"] == [[T("b2"), T("c1")]]
    assert "tunnel" not in after.view(None)["discard"]


def test_k6_7_tunnel_limits(make) -> None:
    """K-6.7 negative: not orthogonal, not Control, not crossing; far end must be enterable."""
    state = make(tunnels=[("b2", "c1")], hands=[["tunnel"] * 4, []])
    assert _refused(state, PlaceTunnel(T("b2"), T("b1"))) == "K-6.7"
    assert _refused(state, PlaceTunnel(T("c5"), T("d4"))) == "K-6.7"
    assert _refused(state, PlaceTunnel(T("b1"), T("c2"))) == "K-6.7"  # crosses b2-c1
    assert _refused(state, PlaceTunnel(T("c1"), T("b2"))) == "K-6.7"  # order
    moving = make(tunnels=[("b2", "c1")], open_=["c1"], pawns=["c1", None], phase="move")
    assert _refused(moving, MovePawn(T("b2"))) == "K-5.1"


# K-6.8 Discard


def test_k6_8_any_card_may_be_discarded(make) -> None:
    """K-6.8 / K-R19: even a usable card may go straight to the discard pile."""
    state = make(hands=[["sonic", "tunnel", "barrier", "key-blue"], []])
    after = state.apply(DiscardCard("tunnel"))
    assert after.view(None)["discard"] == ["tunnel"]
    assert after.view(None)["tunnels"] == []


def test_k6_8_discard_only_held_cards(make) -> None:
    """K-6.8 negative: a card not in hand cannot be discarded."""
    state = make(hands=[["sonic"] * 4, []])
    assert _refused(state, DiscardCard("tunnel")) == "K-3.2"
