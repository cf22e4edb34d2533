"""K-4: stepping, entering, stepping off, one pawn per tile."""

import pytest

from timelord.core import IllegalAction
from timelord.games.keys.actions import DiscardCard, MovePawn, StayPut, StepOff
from timelord.games.keys.board import tile_index as T

AROUND_C3 = ["c4", "b3", "d3", "c2", "b4", "b2", "d2"]


def _refused(state, action) -> str:
    with pytest.raises(IllegalAction) as err:
        state.apply(action)
    assert err.value.reason
    return err.value.rule


def test_k4_1_orthogonal_steps(make) -> None:
    """K-4.1: the four orthogonal neighbours are reachable in one move."""
    state = make(open_=AROUND_C3, pawns=["c3", None], phase="move")
    moves = {a.tile for a in state.legal_actions() if isinstance(a, MovePawn)}
    assert moves == {T("c4"), T("b3"), T("d3"), T("c2")}
    after = state.apply(MovePawn(T("b3")))
    assert after.view(None)["pawns"][0] == T("b3")


def test_k4_1_no_diagonal_or_long_steps(make) -> None:
    """K-4.1 negative: diagonal (without a tunnel) and two-tile moves are refused."""
    state = make(open_=[*AROUND_C3, "c5"], pawns=["c3", None], phase="move")
    assert _refused(state, MovePawn(T("b2"))) == "K-4.1"
    assert _refused(state, MovePawn(T("c5"))) == "K-4.1"


def test_k4_1_diagonal_along_a_tunnel(make) -> None:
    """K-4.1: a Time Tunnel adds its diagonal neighbour."""
    state = make(open_=["b2"], pawns=["c3", None], phase="move", tunnels=[("c3", "b2")])
    assert state.legal_actions() == [MovePawn(T("b2")), StayPut()]


@pytest.mark.parametrize("back", ["open", "tardis-key", "extra-turn", "teleport"])
def test_k4_2_enterable_backs(make, back: str) -> None:
    """K-4.2: face-up Open Door, TARDIS Key, Extra Turn and Teleport tiles can be entered."""
    state = make(tiles={"c4": ("red", back)}, open_=["c4"], pawns=["c3", None], phase="move")
    assert MovePawn(T("c4")) in state.legal_actions()


def test_k4_2_cookied_dalek_enterable(make) -> None:
    """K-4.2: a Dalek door with a Jam Cookie can be entered."""
    state = make(
        tiles={"c4": ("red", "dalek")},
        open_=["c4"],
        cookies=["c4"],
        pawns=["c3", None],
        phase="move",
    )
    assert MovePawn(T("c4")) in state.legal_actions()


def test_k4_2_unenterable_tiles(make) -> None:
    """K-4.2 negative: closed, barred, uncookied Dalek, Control and occupied are refused."""
    state = make(
        tiles={"d3": ("red", "dalek")},
        open_=["d3", "b3", "c2"],
        barriers=["b3"],
        pawns=["c3", "c2"],
        phase="move",
    )
    assert _refused(state, MovePawn(T("c4"))) == "K-5.1"
    assert _refused(state, MovePawn(T("d3"))) == "K-5.3"
    assert _refused(state, MovePawn(T("b3"))) == "K-6.3"
    assert _refused(state, MovePawn(T("c2"))) == "K-4.5"
    assert state.legal_actions() == [StayPut()]
    near = make(open_=["d5"], pawns=["d5", None], phase="move")
    assert _refused(near, MovePawn(T("d4"))) == "K-5.4"


def test_k4_3_enter_from_own_edge(make) -> None:
    """K-4.3: a pawn off the board enters on an open tile of its home edge."""
    state = make(open_=["a1", "e1", "e2"], phase="move")
    assert state.legal_actions() == [MovePawn(T("a1")), MovePawn(T("e1")), StayPut()]
    after = state.apply(MovePawn(T("e1")))
    assert after.view(None)["pawns"][0] == T("e1")


def test_k4_3_cannot_enter_elsewhere(make) -> None:
    """K-4.3 negative: not through another edge, nor straight into the middle."""
    state = make(open_=["a1", "a7", "c3"], phase="move")
    assert _refused(state, MovePawn(T("a7"))) == "K-4.3"
    assert _refused(state, MovePawn(T("c3"))) == "K-4.3"


def test_k4_4_step_off_and_re_enter(make) -> None:
    """K-4.4 / K-R16: step off over the home edge, re-enter through it later (any door)."""
    state = make(open_=["c1", "c2"], pawns=["c1", None], phase="move")
    assert StepOff() in state.legal_actions()
    off = state.apply(StepOff())
    assert off.view(None)["pawns"][0] is None and off.to_move == 1
    back = off.apply(DiscardCard("key-blue"))  # seat 1 cannot move: its turn ends
    back = back.apply(DiscardCard("key-blue"))
    assert back.to_move == 0
    assert back.legal_actions() == [MovePawn(T("c1")), StayPut()]


def test_k4_4_step_off_only_from_home_edge(make) -> None:
    """K-4.4 negative: not from an inner tile, not when already off the board."""
    inner = make(open_=["c2"], pawns=["c2", None], phase="move")
    assert StepOff() not in inner.legal_actions()
    assert _refused(inner, StepOff()) == "K-4.4"
    off = make(open_=["c1"], phase="move")
    assert _refused(off, StepOff()) == "K-4.4"
    far = make(open_=["c7", "c6"], pawns=["c7", None], phase="move")  # seat 0's goal edge
    assert _refused(far, StepOff()) == "K-4.4"


def test_k4_5_one_pawn_per_tile(make) -> None:
    """K-4.5 negative: a pawn cannot step onto (or enter on) a tile another pawn holds."""
    state = make(open_=["c1", "c2"], pawns=[None, "c1"], phase="move")
    assert _refused(state, MovePawn(T("c1"))) == "K-4.5"
    assert state.legal_actions() == [StayPut()]


def test_k4_5_tile_free_once_left(make) -> None:
    """K-4.5 positive: when the blocking pawn leaves, the tile can be entered."""
    state = make(open_=["c1", "c2"], pawns=[None, "c2"], phase="move")
    assert MovePawn(T("c1")) in state.legal_actions()
