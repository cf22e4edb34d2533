"""K-5: what each tile does."""

import pytest

from timelord.core import IllegalAction
from timelord.games.keys.actions import (
    AssaultPawn,
    CloseDoor,
    DiscardCard,
    ForgoBonus,
    MovePawn,
    OpenDoor,
    PlaceBarrier,
    PlaceCookie,
    PlaceTunnel,
    StayPut,
)
from timelord.games.keys.board import tile_index as T


def _refused(state, action) -> str:
    with pytest.raises(IllegalAction) as err:
        state.apply(action)
    assert err.value.reason
    return err.value.rule


def test_k5_1_closed_door_blocks(make) -> None:
    """K-5.1 negative: a closed door cannot be entered."""
    state = make(pawns=["c1", None], open_=["c1"], phase="move")
    assert _refused(state, MovePawn(T("c2"))) == "K-5.1"


def test_k5_1_opened_door_no_longer_blocks(make) -> None:
    """K-5.1 positive: once opened, the same door can be entered."""
    state = make(pawns=["c1", None], open_=["c1"], hands=[["key-blue"] * 4, []])
    after = state.apply(OpenDoor(T("c2"), "key-blue"))
    assert MovePawn(T("c2")) in after.legal_actions()


def test_k5_2_open_door_entered_freely(make) -> None:
    """K-5.2: a face-up Open Door is entered, and nothing else happens."""
    state = make(pawns=["c1", None], open_=["c1", "c2"], phase="move")
    after = state.apply(MovePawn(T("c2")))
    assert after.view(None)["pawns"][0] == T("c2") and after.to_move == 1


def test_k5_2_closed_again_blocks(make) -> None:
    """K-5.2 negative: an open door closed again cannot be entered."""
    state = make(pawns=["c1", None], open_=["c1", "c2"], hands=[["key-blue"] * 4, []])
    after = state.apply(CloseDoor(T("c2"), "key-blue"))
    assert after.to_move == 0 and MovePawn(T("c2")) not in after.legal_actions()


def test_k5_3_dalek_blocks(make) -> None:
    """K-5.3 negative: an open Dalek door without a cookie cannot be entered, nor pushed onto."""
    tiles = {"c2": ("red", "dalek")}
    state = make(tiles=tiles, pawns=["c1", None], open_=["c1", "c2"], phase="move")
    assert _refused(state, MovePawn(T("c2"))) == "K-5.3"
    push = make(
        tiles=tiles, pawns=["g7", "c1"], open_=["g7", "c1", "c2"], hands=[["cyberman"] * 4, []]
    )
    assert _refused(push, AssaultPawn(1, T("c2"))) == "K-5.3"


def test_k5_3_cookie_lets_pawns_through(make) -> None:
    """K-5.3: once a Jam Cookie is on it, the Dalek door is entered like an open door."""
    tiles = {"c2": ("red", "dalek")}
    state = make(tiles=tiles, pawns=["c1", None], open_=["c1", "c2"], hands=[["cookie"] * 4, []])
    after = state.apply(PlaceCookie(T("c2")))
    assert MovePawn(T("c2")) in after.legal_actions()
    assert after.apply(MovePawn(T("c2"))).view(None)["pawns"][0] == T("c2")


def test_k5_4_control_only_by_teleport(make) -> None:
    """K-5.4 negative: no step onto Control; it is no door to open, bar or tunnel."""
    state = make(pawns=["d3", None], open_=["d3"], phase="move")
    assert _refused(state, MovePawn(T("d4"))) == "K-5.4"
    play = make(hands=[["sonic", "barrier", "tunnel", "key-blue"], []])
    assert _refused(play, OpenDoor(T("d4"), "sonic")) == "K-5.4"
    assert _refused(play, PlaceBarrier(T("d4"))) == "K-6.3"
    assert _refused(play, PlaceTunnel(T("d4"), T("e3"))) == "K-6.7"


def test_k5_4_leave_control_normally(make) -> None:
    """K-5.4 positive: a pawn on Control steps off it to an open orthogonal tile."""
    state = make(pawns=["d4", None], open_=["d5", "c4"], phase="move")
    assert state.legal_actions() == [MovePawn(T("d5")), MovePawn(T("c4")), StayPut()]


def test_k5_5_teleport_to_control(make) -> None:
    """K-5.5: moving (or being pushed) onto a Teleport lands the pawn on Control."""
    tiles = {"c2": ("green", "teleport")}
    state = make(tiles=tiles, pawns=["c1", None], open_=["c1", "c2"], phase="move")
    after = state.apply(MovePawn(T("c2")))
    assert after.view(None)["pawns"][0] == T("d4")
    pushed = make(
        tiles=tiles,
        pawns=["g7", "c1"],
        open_=["g7", "c1", "c2"],
        hands=[["cyberman"] * 4, []],
    )
    after = pushed.apply(AssaultPawn(1, T("c2")))
    assert after.view(None)["pawns"][1] == T("d4")


def test_k5_5_a_move_onto_a_teleport_waits_while_control_is_held(make) -> None:
    """K-5.5 / K-R6 (rules 2): with another pawn on Control, a Teleport cannot take the pawn
    anywhere ("if someone is blocking your way, you just have to wait"): the move is not
    offered and is refused with K-5.5; once Control is free the same move teleports."""
    tiles = {"c2": ("green", "teleport")}
    state = make(tiles=tiles, pawns=["c1", "d4"], open_=["c1", "c2"], phase="move")
    assert MovePawn(T("c2")) not in state.legal_actions()
    assert _refused(state, MovePawn(T("c2"))) == "K-5.5"
    free = make(tiles=tiles, pawns=["c1", "g7"], open_=["c1", "c2", "g7"], phase="move")
    assert free.apply(MovePawn(T("c2"))).view(None)["pawns"][0] == T("d4")


def test_k6_6_a_push_onto_a_teleport_is_refused_while_control_is_held(make) -> None:
    """K-6.6 / K-R6 (rules 2): a Cyberman Assault "can't place two pawns on one tile", so it
    cannot push a pawn onto a Teleport while another pawn holds Control (the pusher's own
    pawn included); a pawn pushed off Control onto a Teleport goes back, so that push stays."""
    tiles = {"c2": ("green", "teleport"), "d5": ("red", "teleport")}
    held = make(
        tiles=tiles, pawns=["c1", "d4", "a7"], open_=["c1", "c2", "a7", "d5"], players=3,
        hands=[[], [], ["cyberman"] * 4], seat=2,
    )  # fmt: skip
    assert AssaultPawn(0, T("c2")) not in held.legal_actions()
    assert _refused(held, AssaultPawn(0, T("c2"))) == "K-5.5"
    assert held.apply(AssaultPawn(1, T("d5"))).view(None)["pawns"][1] == T("d4")
    own = make(tiles=tiles, pawns=["d4", "c1"], open_=["c1", "c2"], hands=[["cyberman"] * 4, []])
    assert AssaultPawn(1, T("c2")) not in own.legal_actions()


def test_k5_5_rules_1_left_a_pawn_on_a_teleport_while_control_was_held(make) -> None:
    """K-R6 as rules 1 played it (kept for its records): the pawn stays on the Teleport."""
    tiles = {"c2": ("green", "teleport")}
    state = make(tiles=tiles, pawns=["c1", "d4"], open_=["c1", "c2"], phase="move", rules=1)
    after = state.apply(MovePawn(T("c2")))
    assert after.view(None)["pawns"] == [T("c2"), T("d4")]


def test_k5_5_teleport_from_control_goes_back(make) -> None:
    """K-5.5 / K-R6: a pawn leaving Control onto a Teleport (or pushed there) is sent back,
    since Control is then free; only another pawn on Control stops a Teleport."""
    tiles = {"d5": ("red", "teleport")}
    state = make(tiles=tiles, pawns=["d4", None], open_=["d5"], phase="move")
    assert "moves to d5 and teleports to TARDIS Control" in state.describe(MovePawn(T("d5")), 1)
    assert state.apply(MovePawn(T("d5"))).view(None)["pawns"][0] == T("d4")
    pushed = make(tiles=tiles, pawns=["a1", "d4"], open_=["a1", "d5"], hands=[["cyberman"] * 4, []])
    assert pushed.apply(AssaultPawn(1, T("d5"))).view(None)["pawns"][1] == T("d4")
    other = make(tiles=tiles, pawns=["d6", "d4"], open_=["d5", "d6"], phase="move", rules=1)
    told = other.describe(MovePawn(T("d5")), 1)
    assert "teleports" not in told and "the Teleport there does nothing, as you hold" in told
    assert other.apply(MovePawn(T("d5"))).view(None)["pawns"][0] == T("d5")


def test_k5_6_tardis_key_bonus(make) -> None:
    """K-5.6: moving onto a TARDIS Key tile grants one open-or-close of any colour."""
    tiles = {"c2": ("green", "tardis-key"), "f6": ("yellow", "open")}
    state = make(tiles=tiles, pawns=["c1", None], open_=["c1", "c2"], phase="move")
    bonus = state.apply(MovePawn(T("c2")))
    assert bonus.to_move == 0 and bonus.view(0)["phase"] == "bonus"
    legal = bonus.legal_actions()
    assert OpenDoor(T("f6"), "tardis-key") in legal and CloseDoor(T("c1"), "tardis-key") in legal
    assert ForgoBonus() in legal and not any(isinstance(a, MovePawn) for a in legal)
    after = bonus.apply(OpenDoor(T("f6"), "tardis-key"))
    assert T("f6") in after.view(None)["open"] and after.to_move == 1
    assert after.view(None)["bonus_used"][0] == [T("c2")]


def test_k5_6_tardis_key_once_per_player(make) -> None:
    """K-5.6 negative / K-R8: used once per player; other players may still use it."""
    tiles = {"c2": ("green", "tardis-key")}
    state = make(
        tiles=tiles, pawns=["c1", "c3"], open_=["c1", "c2"], phase="move", used=[["c2"], []]
    )
    after = state.apply(MovePawn(T("c2")))
    assert after.to_move == 1  # no bonus the second time
    other = make(
        tiles=tiles, pawns=["c1", "c3"], open_=["c2", "c3"], phase="move", seat=1, used=[["c2"], []]
    )
    assert other.apply(MovePawn(T("c2"))).view(None)["phase"] == "bonus"


def test_k5_6_forgo_keeps_the_tile(make) -> None:
    """K-5.6 / K-R8: only a bonus taken uses the tile up; forgone, it waits for a return."""
    tiles = {"c2": ("green", "tardis-key")}
    state = make(tiles=tiles, pawns=["c1", None], open_=["c1", "c2"], phase="move")
    after = state.apply(MovePawn(T("c2"))).apply(ForgoBonus())
    assert after.to_move == 1 and after.view(None)["bonus_used"][0] == []
    back = make(
        tiles=tiles, pawns=["c1", None], open_=["c1", "c2"], phase="move", used=[[], []]
    ).apply(MovePawn(T("c2")))
    assert back.view(None)["phase"] == "bonus"
    taken = back.apply(CloseDoor(T("c1"), "tardis-key"))
    assert taken.view(None)["bonus_used"][0] == [T("c2")]


def test_k5_6_bonus_not_from_a_card_or_a_push(make) -> None:
    """K-5.6 negative: no bonus card in the play step; a pushed pawn gets no bonus."""
    state = make(hands=[["key-blue"] * 4, []])
    assert _refused(state, OpenDoor(T("a1"), "tardis-key")) == "K-5.6"
    assert _refused(state, ForgoBonus()) == "K-5.6"
    tiles = {"c2": ("green", "tardis-key")}
    pushed = make(
        tiles=tiles, pawns=["g7", "c1"], open_=["g7", "c1", "c2"], hands=[["cyberman"] * 4, []]
    )
    after = pushed.apply(AssaultPawn(1, T("c2")))
    assert after.view(None)["bonus_used"] == [[], []]


def test_k5_6_bonus_phase_refuses_other_moves(make) -> None:
    """K-5.6 negative: during the bonus only the bonus (or forgoing it) is allowed."""
    tiles = {"c2": ("green", "tardis-key")}
    state = make(
        tiles=tiles,
        pawns=["c1", None],
        open_=["c1", "c2", "c3"],
        phase="move",
        hands=[["key-blue"] * 3, []],
    )
    bonus = state.apply(MovePawn(T("c2")))
    assert _refused(bonus, MovePawn(T("c3"))) == "K-5.6"
    assert _refused(bonus, OpenDoor(T("a3"), "key-blue")) == "K-5.6"
    assert _refused(bonus, DiscardCard("key-blue")) == "K-5.6"


def test_k5_7_extra_turn(make) -> None:
    """K-5.7: moving onto an Extra Turn tile gives a whole extra turn, with its draw."""
    tiles = {"c2": ("green", "extra-turn")}
    state = make(tiles=tiles, pawns=["c1", None], open_=["c1", "c2"], phase="move", deck=["sonic"])
    after = state.apply(MovePawn(T("c2")))
    assert after.to_move == 0 and after.view(0)["phase"] == "play"
    assert after.view(0)["hand"] == ["key-blue", "key-blue", "key-blue", "sonic"]
    assert after.view(None)["round"] == 0
    again = after.apply(DiscardCard("sonic"))  # the extra turn ends like any other
    assert again.to_move == 0 and again.view(0)["phase"] == "move"
    assert again.apply(StayPut()).to_move == 1


def test_k5_7_extra_turn_once_per_player(make) -> None:
    """K-5.7 negative / K-R8: a second visit gives no extra turn; nor does a push."""
    tiles = {"c2": ("green", "extra-turn")}
    state = make(
        tiles=tiles, pawns=["c1", None], open_=["c1", "c2"], phase="move", used=[["c2"], []]
    )
    assert state.apply(MovePawn(T("c2"))).to_move == 1
    pushed = make(
        tiles=tiles, pawns=["g7", "c1"], open_=["g7", "c1", "c2"], hands=[["cyberman"] * 4, []]
    )
    after = pushed.apply(AssaultPawn(1, T("c2")))
    assert after.to_move == 1 and after.view(None)["bonus_used"] == [[], []]


def test_k5_8_backs_stay_known(make) -> None:
    """K-5.8: an opened back is public, and stays known after the door is closed again."""
    tiles = {"c5": ("red", "dalek")}
    state = make(tiles=tiles, hands=[["sonic"] * 4, ["sonic"] * 3])
    opened = state.apply(OpenDoor(T("c5"), "sonic"))
    for seat in (None, 0, 1):
        assert opened.view(seat)["backs"][T("c5")] == "dalek"
    closed = opened.apply(CloseDoor(T("c5"), "sonic"))
    assert T("c5") not in closed.view(1)["open"]
    assert closed.view(0)["backs"][T("c5")] == "dalek"


def test_k5_8_unopened_backs_unknown(make) -> None:
    """K-5.8 negative: a door never opened shows no back to anyone."""
    tiles = {"c5": ("red", "dalek")}
    state = make(tiles=tiles)
    for seat in (None, 0, 1):
        assert state.view(seat)["backs"][T("c5")] is None


def test_k5_6_bonus_lapses_when_no_door_can_turn(make) -> None:
    """K-5.6 / K-R3 / K-R8: with every other door barred the bonus lapses, unused."""
    tiles = {"c2": ("green", "tardis-key")}
    names = [f"{f}{r}" for f in "abcdefg" for r in "1234567" if f"{f}{r}" not in ("d4", "c2")]
    state = make(tiles=tiles, pawns=["c1", None], open_=["c1", "c2"], barriers=names, phase="move")
    after = state.apply(MovePawn(T("c2")))
    assert after.to_move == 1 and after.view(None)["bonus_used"][0] == []


def test_k5_5_a_teleport_blocked_by_an_occupied_control_is_told(make) -> None:
    """K-5.5 / K-R6 (issue 18 item 11; rules 1): everyone is told that the Teleport did nothing and
    why, in the text and in the event data; the seat holding Control is named."""
    tiles = {"c2": ("green", "teleport")}
    state = make(tiles=tiles, pawns=["c1", "d4"], open_=["c1", "c2"], phase="move", rules=1)
    _, events = state.apply_with_events(MovePawn(T("c2")))
    move = next(e for e in events if e.kind == "move")
    assert move.data["teleported"] is False and move.data["teleport_blocked_by"] == 1
    told = {seat: state.describe(MovePawn(T("c2")), seat) for seat in (0, 1, None)}
    assert told[None].startswith(
        "Seat 0 (south) moves to c2: the Teleport there does nothing, as Seat 1 (north) holds "
        "TARDIS Control (K-R6)"
    )
    assert told[0].startswith("You move to c2: the Teleport there does nothing, as Seat 1")
    assert "as you hold TARDIS Control (K-R6)" in told[1]
    pushed = make(
        tiles=tiles, pawns=["c1", "d4", "a7"], open_=["c1", "c2", "a7"], players=3,
        hands=[[], [], ["cyberman"] * 4], seat=2, rules=1,
    )  # fmt: skip
    _, events = pushed.apply_with_events(AssaultPawn(0, T("c2")))
    assault = next(e for e in events if e.kind == "assault")
    assert assault.data["teleport_blocked_by"] == 1
    assert "the Teleport there does nothing, as Seat 1 (west) holds TARDIS Control (K-R6)" in (
        pushed.describe(AssaultPawn(0, T("c2")), None)
    )
    free = make(tiles=tiles, pawns=["c1", None], open_=["c1", "c2"], phase="move")
    _, events = free.apply_with_events(MovePawn(T("c2")))
    assert next(e for e in events if e.kind == "move").data["teleport_blocked_by"] is None
