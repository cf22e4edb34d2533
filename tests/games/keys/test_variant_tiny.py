"""The tiny research variant (docs/variants.md, ruling K-R23): the same rules on a 3x3 grid
with one colour of door, a Teleport, a deck of Keys, hands dealt 1 and drawn up to 2, and a
three-turn limit; and the board geometry it rests on. Each test names the clause it checks."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

import timelord
from timelord.adapters.openspiel_chance import step_outcomes
from timelord.core import ConfigError, IllegalAction
from timelord.games.keys import KeysGame, KeysState
from timelord.games.keys.actions import MovePawn, OpenDoor, StayPut
from timelord.games.keys.board import (
    CONTROL,
    DOOR_TILES,
    EDGE_TILES,
    ORTHOGONAL,
    STANDARD,
    TELEPORT,
    TUNNEL_SLOTS,
    geometry,
)
from timelord.games.keys.doors import state_from_json
from timelord.games.keys.game import spread


def tiny(**options: Any) -> KeysGame:
    game = timelord.load("keys", players=2, variant="tiny", **options)
    assert isinstance(game, KeysGame)
    return game


def with_teleport_at(game: KeysGame, name: str) -> KeysState:
    """A fresh tiny game whose Teleport lies under `name` (the layout stays the box's)."""
    data = game.new_game(1).to_json()
    backs = ["open"] * 9
    backs[game.tables.control] = "control"
    backs[game.tables.geo.tile_index(name)] = "teleport"
    data["backs"] = backs
    state = state_from_json(game, data)
    assert isinstance(state, KeysState)
    return state


def test_geometry_of_the_standard_grid_is_the_one_the_rules_always_had() -> None:
    """K-1.1: the 7x7 tables are built by the same Geometry as any other size."""
    assert geometry(7) is STANDARD
    assert (STANDARD.cells, CONTROL, STANDARD.tile_name(CONTROL)) == (49, 24, "d4")
    assert len(DOOR_TILES) == 48 and len(TUNNEL_SLOTS) == 68  # 36 corners x 2, less 4 at d4
    assert EDGE_TILES[0] == tuple(range(42, 49)) and ORTHOGONAL[0] == (1, 7)
    with pytest.raises(ValueError, match="odd-sized"):
        geometry(4)


def test_k1_1_the_tiny_grid_is_3x3_round_the_control_tile() -> None:
    game = tiny()
    geo = game.tables.geo
    assert (geo.size, geo.cells, geo.control, geo.tile_name(geo.control)) == (3, 9, 4, "b2")
    assert geo.edge_tiles[0] == (6, 7, 8) and geo.edge_tiles[2] == (0, 1, 2)  # south, north
    assert geo.orthogonal[geo.control] == (1, 3, 5, 7)
    # four corners, one diagonal each (the other crosses Control): a1-b2 is no slot
    assert [(a, b) for _, a, b in geo.tunnel_slots] == [(1, 3), (1, 5), (3, 7), (5, 7)]
    assert sorted(game.content.tiles) == [(0, 0)] * 7 + [(0, TELEPORT)]
    assert geo.tile_index("c3") == 2
    with pytest.raises(ValueError):
        geo.tile_index("d4")  # the standard Control is off this grid


def test_k2_3_and_k3_1_tiny_hands_are_dealt_one_and_drawn_to_two() -> None:
    state = tiny().new_game(5)
    view = state.view(0)
    assert len(view["hand"]) == 2 and view["hand_sizes"] == [2, 1]  # seat 0 has drawn
    assert view["deck_size"] == 8 - 3
    assert set(view["hand"]) == {"key-blue"}


def test_k2_1_the_tiny_deal_puts_the_teleport_under_each_door_alike() -> None:
    """K-2.1 (ruling K-R23): every layout of the tiles is as likely as under a shuffle; here
    the deal's exact chance outcomes, every draw sequence enumerated, are the 8 places of the
    Teleport, 1/8 each."""
    outcomes = step_outcomes(tiny(), None, None)
    places = sorted(s.back.index(TELEPORT) for s, _ in outcomes)  # type: ignore[attr-defined]
    assert places == [0, 1, 2, 3, 5, 6, 7, 8]
    assert all(p == pytest.approx(1 / 8) for _, p in outcomes)


def test_spread_gives_every_distinct_order_once_over_all_draws() -> None:
    """Ruling K-R23: `spread` of a multiset reaches each distinct order by exactly as many
    draw sequences (here 2, the orders of placing the two 2s), so each is equally likely."""
    from timelord.core.scripted import ChanceNeeded, ScriptedRng

    items = [0, 0, 1, 2, 2]
    seen: list[tuple[int, ...]] = []

    def walk(drawn: list[int]) -> None:
        try:
            seen.append(tuple(spread(items, ScriptedRng(drawn))))
        except ChanceNeeded as need:
            for k in range(need.n):
                walk([*drawn, k])

    walk([])
    counts = Counter(seen)
    assert len(counts) == 30  # 5! / (2! 1! 2!): every distinct order
    assert set(counts.values()) == {2}
    assert all(sorted(order) == items for order in seen)


def test_k5_5_and_k7_1_a_teleport_on_the_home_edge_wins_on_the_second_turn() -> None:
    """K-5.5: entering the Teleport at b1 sends the pawn to Control (b2); K-7.1: from there
    b3 is one step onto the goal edge, so seat 0 wins on its second turn (the third)."""
    game = tiny()
    name = game.tables.geo.tile_index
    s = with_teleport_at(game, "b1")
    s = s.apply(OpenDoor(name("b1"), "key-blue"))
    s = s.apply(MovePawn(name("b1")))
    assert s.pos[0] == game.tables.control  # type: ignore[attr-defined]
    s = s.apply(s.legal_actions()[0])  # seat 1 discards; it cannot move (K-R3)
    assert s.to_move == 0
    s = s.apply(OpenDoor(name("b3"), "key-blue"))
    s = s.apply(MovePawn(name("b3")))
    assert s.is_over and s.winners() == [0] and s.scores() == [1.0, 0.0]


def test_k4_5_seat_1_blocks_the_way_out_of_control() -> None:
    """K-4.5: seat 1 can stand on b3, the one goal tile next to Control, and seat 0 cannot
    move there; then the third turn ends the game (K-7.2), a win shared by both seats in the
    tiny variant (K-R23), so blocking is worth half a game to seat 1."""
    game = tiny()
    name = game.tables.geo.tile_index
    s = with_teleport_at(game, "b1")
    s = s.apply(OpenDoor(name("b1"), "key-blue")).apply(MovePawn(name("b1")))
    s = s.apply(OpenDoor(name("b3"), "key-blue")).apply(MovePawn(name("b3")))
    s = s.apply(s.legal_actions()[0])  # seat 0 discards, then may move
    assert MovePawn(name("b3")) not in s.legal_actions()
    with pytest.raises(IllegalAction, match="another pawn") as refused:
        s.check(MovePawn(name("b3")))
    assert refused.value.rule == "K-4.5"
    assert "b3" in str(refused.value)  # refusals name tiles on the tiny grid
    s = s.apply(StayPut())
    assert s.is_over and s.winners() == [0, 1] and s.scores() == [1.0, 1.0] and s.round == 1


def test_k7_2_the_turn_limit_ends_the_tiny_game_after_three_turns() -> None:
    game = tiny()
    assert (game.round_limit, game.turn_limit) == (2, 3)
    assert game.options == {
        "players": 2, "round_limit": 2, "turn_limit": 3, "variant": "tiny", "rules": 2,
    }  # fmt: skip
    s = game.new_game(2)
    seats = []
    while not s.is_over:  # each turn a discard, and no door open to move to (K-R3)
        seats.append(s.to_move)
        s = s.apply(s.legal_actions()[0])
    assert seats == [0, 1, 0] and s.winners() == [0, 1]  # the tiny stall is shared (K-R23)
    longer = tiny(turn_limit=4, round_limit=5)
    assert (longer.turn_limit, longer.round_limit) == (4, 5)


def test_k7_2_the_standard_game_has_no_turn_limit_unless_given() -> None:
    standard = timelord.load("keys", players=2)
    assert standard.options == {"players": 2, "round_limit": 100, "rules": 2}
    limited = timelord.load("keys", players=3, turn_limit=4)
    assert limited.options["turn_limit"] == 4
    s = limited.new_game(1)
    while not s.is_over:
        s = s.apply(s.legal_actions()[0])
    assert s.round == 1 and s.winners() == []  # seat 0's second turn never starts
    with pytest.raises(ConfigError, match="turn_limit"):
        timelord.load("keys", turn_limit=-1)


def test_the_tiny_variant_is_for_two_players() -> None:
    with pytest.raises(ConfigError, match="2 players"):
        timelord.load("keys", players=3, variant="tiny")


def test_texts_and_picture_name_the_tiny_grid() -> None:
    game = tiny()
    state = with_teleport_at(game, "b1")
    view = state.view(0)
    labels = [game.action_label(view, a) for a in state.legal_actions()]
    assert "open c1 with blue key" in labels and len(labels) == 1 + 8
    picture = game.render_view(view)
    assert picture.splitlines()[0].split() == ["a", "b", "c"]
    assert "TARDIS Control (b2)" in picture
    events: list[Any] = []
    state.apply_logged(OpenDoor(game.tables.geo.tile_index("a1"), "key-blue"), events)
    said = [game.event_text(e.kind, e.data, 0) for e in events]
    assert any("a1" in line for line in said)
