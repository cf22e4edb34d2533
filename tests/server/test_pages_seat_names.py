"""The lobby's lists name a seat as its table does (issue 33 item 4: "one name for a seat on
every surface"): a table not in memory is listed from its stored row alone."""

from __future__ import annotations

import datetime as dt

import timelord
from timelord.server.storage import StoredTable
from timelord.server.table.live import seat_name, stored_summary


def _stored(game_id: str, seats: list[dict[str, object]]) -> StoredTable:
    return StoredTable(
        id="t1",
        game=game_id,
        options={"players": len(seats)},
        seed=1,
        seats=seats,
        version=0,
        status="finished",
        result=None,
        created=dt.datetime(2026, 1, 1, tzinfo=dt.UTC),
    )


def test_a_stored_card_game_seat_is_listed_by_the_colour_the_table_calls_it() -> None:
    seats: list[dict[str, object]] = [
        {"agent": "human", "token_hash": "x"},
        {"agent": "human", "token_hash": "y", "name": "Cleo"},
        {"agent": "heuristic", "token_hash": None},
    ]
    listed = [s["name"] for s in stored_summary(_stored("card-game", seats))["seats"]]
    game = timelord.load("card-game", players=3)
    assert listed == [seat_name(game, i, s) for i, s in enumerate(seats)]
    assert listed == ["Red", "Cleo", "Bot (casual)"]


def test_a_stored_seat_of_a_game_without_colours_is_numbered_from_1() -> None:
    seats: list[dict[str, object]] = [{"agent": "human"}, {"agent": "human"}]
    listed = [s["name"] for s in stored_summary(_stored("keys", seats))["seats"]]
    assert listed == ["Seat 1 (south)", "Seat 2 (north)"]
    unknown = [s["name"] for s in stored_summary(_stored("no-such-game", seats))["seats"]]
    assert unknown == ["Seat 1", "Seat 2"]  # a game this server lacks: still listed
