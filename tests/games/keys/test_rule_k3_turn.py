"""K-3: draw, play one card, then optionally move; turns pass in seat order."""

import pytest

from timelord.core import IllegalAction
from timelord.games.keys.actions import (
    DiscardCard,
    MovePawn,
    PlaceBarrier,
    StayPut,
)
from timelord.games.keys.board import tile_index as T


def test_k3_1_next_seat_draws_to_four(make) -> None:
    """K-3.1: when the turn passes, the next player draws the top card."""
    state = make(hands=[["key-blue"] * 4, ["sonic"] * 3], deck=["key-green", "key-red"])
    after = state.apply(DiscardCard("key-blue"))
    assert after.to_move == 1
    assert after.view(1)["hand"] == ["key-red", "sonic", "sonic", "sonic"]
    assert after.view(1)["deck_size"] == 1


def test_k3_1_empty_pile_reshuffles_discards(make) -> None:
    """K-3.1: an empty draw pile is rebuilt from the shuffled discards before drawing."""
    state = make(hands=[["key-blue"] * 4, ["key-blue"] * 3], deck=[], discard=["cookie"] * 2)
    after = state.apply(DiscardCard("key-blue"))
    view = after.view(1)
    assert view["discard"] == []
    assert view["hand_sizes"] == [3, 4]
    assert view["deck_size"] == 2  # 2 cookies + the discarded key, one drawn


def test_k3_1_no_draw_when_both_piles_empty(make) -> None:
    """K-3.1 negative / K-R9: with both piles empty nothing is drawn."""
    state = make(hands=[["barrier"] * 4, ["key-blue"] * 3], deck=[], discard=[])
    after = state.apply(PlaceBarrier(T("c3")))  # the card stays on the board
    assert after.to_move == 1
    assert after.view(1)["hand_sizes"] == [3, 3]
    assert after.view(1)["deck_size"] == 0


def test_k3_2_must_play_before_moving(make) -> None:
    """K-3.2 negative: no move (or stay) before a card is played."""
    state = make(open_=["a1"])
    for action in (MovePawn(T("a1")), StayPut()):
        with pytest.raises(IllegalAction) as err:
            state.apply(action)
        assert err.value.rule == "K-3.2"


def test_k3_2_a_move_no_card_could_allow_names_its_own_rule(make) -> None:
    """K-3.2 with K-5.4, K-4.1, K-4.3, K-6.5: a move asked for before the card is played,
    which no card could make legal this turn, is refused by the rule that forbids it (typing
    `move to d4` is answered "Control is entered only by Teleport", not "play a card")."""
    on_board = make(pawns=["c2", None], open_=["c2"])
    assert _refused(on_board, MovePawn(T("d4"))) == "K-5.4"  # Control
    assert _refused(on_board, MovePawn(T("f2"))) == "K-4.1"  # not adjacent
    assert _refused(make(pawns=[None, None]), MovePawn(T("c3"))) == "K-4.3"  # not the edge
    stuck = make(pawns=["c2", "e6"], open_=["c2", "e6", "c3"], pandorica=[2, 0])
    assert _refused(stuck, MovePawn(T("c3"))) == "K-6.5"


def test_k3_2_a_move_a_card_could_allow_still_waits_for_the_card(make) -> None:
    """K-3.2: a closed door (a Key opens it), a diagonal (a Time Tunnel joins it) and a tile
    held by another pawn (a Cyberman pushes it) are refused with "play a card first": the
    answer never turns on a door's unseen back."""
    state = make(pawns=["c2", "c3"], open_=["c2", "c3"])
    for tile in ("b2", "b3", "c3"):  # closed, diagonal, occupied
        assert _refused(state, MovePawn(T(tile))) == "K-3.2", tile


def _refused(state, action) -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(IllegalAction) as err:
        state.apply(action)
    return err.value.rule


def test_k3_2_play_exactly_one_card(make) -> None:
    """K-3.2: the play step offers each distinct card once and takes exactly one."""
    state = make(hands=[["key-blue", "key-blue", "key-red", "sonic"], ["key-blue"] * 3])
    discards = [a for a in state.legal_actions() if isinstance(a, DiscardCard)]
    assert discards == [DiscardCard("key-blue"), DiscardCard("key-red"), DiscardCard("sonic")]
    after = state.apply(DiscardCard("key-red"))
    assert after.view(0)["hand"] == ["key-blue", "key-blue", "sonic"]


def test_k3_2_card_not_held_refused(make) -> None:
    """K-3.2 negative: you can play only a card you hold."""
    state = make(hands=[["key-blue"] * 4, ["key-blue"] * 3])
    with pytest.raises(IllegalAction) as err:
        state.apply(DiscardCard("sonic"))
    assert err.value.rule == "K-3.2"


def test_k3_2_empty_hand_skips_play(make) -> None:
    """K-3.2 / K-R9: a player without cards goes straight to moving."""
    state = make(hands=[[], ["key-blue"] * 3], deck=[], open_=["c1"], phase="move", seat=1)
    after = state.apply(StayPut())
    assert after.to_move == 0
    assert after.legal_actions() == [MovePawn(T("c1")), StayPut()]


def test_k3_3_move_is_optional(make) -> None:
    """K-3.3: after the card, move or stay put; staying ends the turn."""
    state = make(open_=["c1"])
    after = state.apply(DiscardCard("key-blue"))
    assert after.to_move == 0 and after.view(0)["phase"] == "move"
    assert after.legal_actions() == [MovePawn(T("c1")), StayPut()]
    stayed = after.apply(StayPut())
    assert stayed.to_move == 1 and stayed.view(0)["pawns"][0] is None


def test_k3_3_no_second_card(make) -> None:
    """K-3.3 negative: once the card is played only moving or staying is allowed."""
    state = make(open_=["c1"]).apply(DiscardCard("key-blue"))
    with pytest.raises(IllegalAction) as err:
        state.apply(DiscardCard("key-blue"))
    assert err.value.rule == "K-3.3"


def test_k3_3_no_possible_move_ends_turn(make) -> None:
    """K-3.3 / K-R3: with nothing to move onto, the turn ends after the card."""
    state = make()  # every door closed
    after = state.apply(DiscardCard("key-blue"))
    assert after.to_move == 1 and after.view(None)["phase"] == "play"


def test_k3_4_turns_pass_in_order_and_rounds_count(make) -> None:
    """K-3.4: seat order, and a round ends when play returns to seat 0."""
    state = make(players=3, hands=[["key-blue"] * 4] + [["key-blue"] * 3] * 2)
    seen = []
    for _ in range(3):
        seen.append((state.to_move, state.view(None)["round"]))
        state = state.apply(DiscardCard("key-blue"))
    assert seen == [(0, 0), (1, 0), (2, 0)]
    assert (state.to_move, state.view(None)["round"]) == (0, 1)


def test_k3_4_no_round_before_everyone_played(make) -> None:
    """K-3.4 negative: seat 0's turn alone does not finish a round."""
    state = make(players=3, hands=[["key-blue"] * 4] + [["key-blue"] * 3] * 2)
    after = state.apply(DiscardCard("key-blue"))
    assert after.view(None)["round"] == 0


def test_k3_2_turns_without_decisions_pass_until_the_limit(make) -> None:
    """K-3.2 / K-R9 / K-7.2: with no cards anywhere and no moves, turns pass by themselves."""
    state = make(hands=[[], []], deck=[], phase="move", round_limit=5000)
    after = state.apply(StayPut())
    assert after.is_over and after.winners() == [] and after.view(None)["round"] == 5000
