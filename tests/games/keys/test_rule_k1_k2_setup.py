"""K-1 components and K-2 setup."""

from collections import Counter

import pytest

import timelord
from timelord.core import ConfigError, CorruptRecord, IllegalAction
from timelord.games.keys.actions import DiscardCard, MovePawn, OpenDoor
from timelord.games.keys.board import CONTROL, EDGE_TILES, standard_content
from timelord.games.keys.board import tile_index as T


def test_k1_1_grid_has_control_in_centre_and_48_door_tiles() -> None:
    """K-1.1: 7x7, Control at d4, 28/8/4/4/4 backs behind 48 coloured doors."""
    state = timelord.load("keys").new_game(3)
    data = state.to_json()
    assert len(data["backs"]) == 49
    assert data["backs"][T("d4")] == "control" and data["colours"][T("d4")] is None
    counts = Counter(b for b in data["backs"] if b != "control")
    assert counts == {"open": 28, "dalek": 8, "tardis-key": 4, "extra-turn": 4, "teleport": 4}
    assert all(c is not None for t, c in enumerate(data["colours"]) if t != CONTROL)


def test_k1_1_no_tile_outside_the_grid(make) -> None:
    """K-1.1 negative: a tile index off the 7x7 grid is refused."""
    state = make(hands=[["sonic"] * 3 + ["key-blue"], ["key-blue"] * 3])
    with pytest.raises(IllegalAction) as err:
        state.apply(OpenDoor(49, "sonic"))
    assert err.value.rule == "K-1.1"


def test_k1_2_deck_has_68_cards_of_seven_kinds() -> None:
    """K-1.2: 68 cards; keys of each colour and the six other kinds."""
    content = standard_content()
    assert len(content.deck) == 68
    kinds = {content.card_ids[c] for c in content.deck}
    assert {"sonic", "barrier", "cyberman", "cookie", "pandorica", "tunnel"} <= kinds
    assert {f"key-{c}" for c in content.colour_ids} <= kinds


def test_k1_2_unknown_card_refused(make) -> None:
    """K-1.2 negative: a card that is not in the game is refused, and unreadable in a state."""
    state = make()
    with pytest.raises(IllegalAction) as err:
        state.apply(DiscardCard("banana"))
    assert err.value.rule == "K-1.2"
    data = state.to_json()
    data["hands"][0] = ["banana"]
    with pytest.raises(CorruptRecord):
        state.game.state_from_json(data)


def test_k2_1_all_doors_start_closed_and_unseen() -> None:
    """K-2.1: tiles shuffled closed side up; nobody sees any back."""
    game = timelord.load("keys", players=3)
    state = game.new_game(5)
    for seat in (None, 0, 1, 2):
        view = state.view(seat)
        assert view["open"] == []
        assert [b for b in view["backs"] if b is not None] == ["control"]


def test_k2_1_layout_is_shuffled_per_seed() -> None:
    """K-2.1 negative: the layout is not fixed; two seeds give different boards."""
    game = timelord.load("keys")
    a, b = game.new_game(1).to_json(), game.new_game(2).to_json()
    assert (a["backs"], a["colours"]) != (b["backs"], b["colours"])


@pytest.mark.parametrize(
    ("players", "edges"),
    [
        (2, ["south", "north"]),
        (3, ["south", "west", "north"]),
        (4, ["south", "west", "north", "east"]),
    ],
)
def test_k2_2_one_edge_per_seat_pawns_off_board(players: int, edges: list[str]) -> None:
    """K-2.2 / K-R1: seats take edges in clockwise order; every pawn starts off the board."""
    view = timelord.load("keys", players=players).new_game(0).view(None)
    assert view["edges"] == edges
    assert view["pawns"] == [None] * players


@pytest.mark.parametrize("players", [1, 5, True, "2"])
def test_k2_2_player_count_outside_2_to_4_refused(players: object) -> None:
    """K-2.2 negative: one seat per edge, so 2-4 players only."""
    with pytest.raises(ConfigError):
        timelord.load("keys", players=players)


def test_k2_2_pawn_enters_only_on_own_edge(make) -> None:
    """K-2.2: the north seat's home edge is rank 7; it cannot enter at rank 1."""
    state = make(open_=["a1", "a7"], phase="move", seat=1)
    legal = state.legal_actions()
    assert MovePawn(T("a7")) in legal and MovePawn(T("a1")) not in legal
    assert T("a7") in EDGE_TILES[2]


def test_k2_3_deal_three_seat_zero_first() -> None:
    """K-2.3 / K-R2: three cards each, seat 0 starts (and has drawn its fourth)."""
    for players in (2, 3, 4):
        state = timelord.load("keys", players=players).new_game(9)
        view = state.view(0)
        assert state.to_move == 0
        assert view["hand_sizes"] == [4] + [3] * (players - 1)
        assert view["deck_size"] == 68 - 3 * players - 1


def test_k2_3_others_wait_their_turn(make) -> None:
    """K-2.3 negative: only the seat to move acts; the others have not drawn yet."""
    state = make(hands=[["key-blue"] * 4, ["sonic"] * 3])
    assert state.to_move == 0 and state.view(1)["hand_sizes"] == [4, 3]
    with pytest.raises(IllegalAction) as err:
        state.apply(DiscardCard("sonic"))  # seat 1's card
    assert err.value.rule == "K-3.2"


def test_k2_3_options_validated() -> None:
    """K-2.3: bad options are refused; good ones are stored canonically."""
    with pytest.raises(ConfigError):
        timelord.load("keys", round_limit=0)
    with pytest.raises(ConfigError):
        timelord.load("keys", colours=3)
    game = timelord.load("keys", players=3, round_limit=7)
    assert game.options == {"players": 3, "round_limit": 7, "rules": 2}
