"""The server's part of a newcomer's first hour (issue 33): a page asks whether an undo would
be accepted before offering it, an accusation is never taken back, a friend invited by a link
names their seat, and seats are called by people's names, bots by their level's name and
numbers from 1."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from timelord.server import create_app

from .helpers import FakeClock
from .test_api import snap
from .test_life import act, call, code, label_of, make, token

RATE = 1e6


@pytest.fixture
def app(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_url, 0, rate=RATE, burst=RATE, clock=FakeClock())) as client:
        yield client


def offer(client: TestClient, table: Any, seat: int | None) -> Any:
    params = {} if seat is None else {"token": token(table, seat)}
    answer = client.get(f"/api/tables/{table['id']}/undo", params=params)
    assert answer.status_code == 200, answer.text
    return answer.json()


def undo(client: TestClient, table: Any, seat: int) -> Any:
    version = snap(client, table, seat)["version"]
    return call(client, table, "undo", {"version": version}, token=token(table, seat))


def test_the_undo_offer_agrees_with_the_undo_and_changes_nothing(app: TestClient) -> None:
    """Undo was offered everywhere and accepted 0 of 25 times in two games: the page now
    asks the undo route's own rule first."""
    options = {"players": 2}
    table = make(app, "clue", ["human", "human"], seed=5, options=options, undo=True)
    assert offer(app, table, 0) == {"allowed": False, "reason": "nothing has been played yet"}
    assert offer(app, table, None)["allowed"] is False
    bad = app.get(f"/api/tables/{table['id']}/undo", params={"token": "nope"})
    assert code(bad) == (403, "seat/forbidden")
    act(app, table, 0, label_of("clue", snap(app, table, 0), "roll the dice", **options))
    said = offer(app, table, 0)
    assert said["allowed"] is False and "random" in said["reason"]
    assert code(undo(app, table, 0)) == (409, "undo/forbidden")
    act(app, table, 0, label_of("clue", snap(app, table, 0), "move to", **options))
    version = snap(app, table, None)["version"]
    # seat 1 did not make that move; seat 0 did, and nothing hidden was shown by it
    assert offer(app, table, 1) == {
        "allowed": False,
        "reason": "another seat has acted since your last move",
    }
    assert offer(app, table, 0) == {"allowed": True, "reason": ""}
    assert snap(app, table, None)["version"] == version  # asking took nothing back
    assert undo(app, table, 0).status_code == 200
    plain = make(app, "keys", ["human", "human"], seed=5)
    assert offer(app, plain, 0)["reason"] == "this table was created without undo"


def test_an_accusation_is_never_taken_back(app: TestClient) -> None:
    """C-5.1: once begun an accusation cannot be withdrawn; the undo took it back although
    it shows nothing, while the confirm dialog called it irreversible."""
    table = make(app, "clue", ["human", "human"], seed=5, options={"players": 2}, undo=True)
    accuse = label_of("clue", snap(app, table, 0), "make an accusation", players=2)
    assert act(app, table, 0, accuse).status_code == 200
    said = offer(app, table, 0)
    assert said["allowed"] is False and "accusation" in said["reason"]
    refused = undo(app, table, 0)
    assert code(refused) == (409, "undo/forbidden") and "C-5.1" in refused.json()["reason"]


def test_a_friend_invited_by_link_names_their_seat_and_keeps_it_in_the_rematch(
    app: TestClient,
) -> None:
    """A friend came as "Blue", then "Green" after a rematch, with no way to give a name."""
    table = make(
        app, "keys", ["human", "human"], seed=3, options={"round_limit": 1}, names=["Ann", None]
    )
    seats = snap(app, table, 1)["seats"]
    assert seats[0]["named"] is True and seats[1]["named"] is False
    name = f"/api/tables/{table['id']}/seats/1/name"
    assert code(app.post(name, json={"name": "Cleo"}, params={"token": token(table, 0)})) == (
        403,
        "seat/forbidden",
    )
    assert code(app.post(name, json={"name": " "}, params={"token": token(table, 1)})) == (
        422,
        "name/invalid",
    )
    answer = app.post(name, json={"name": "Cleo"}, params={"token": token(table, 1)})
    assert answer.status_code == 200, answer.text
    mine = answer.json()["seats"][1]
    assert mine["name"] == "Cleo" and mine["named"] is True
    chat = app.get(f"/api/tables/{table['id']}/chat").json()["messages"]
    assert any(m["seat"] is None and "is now called Cleo" in m["text"] for m in chat)
    while not (now := snap(app, table, None))["over"]:
        mover = now["to_move"]
        act(app, table, mover, snap(app, table, mover)["legal"][0])
    made = call(app, table, "rematch", token=token(table, 1)).json()
    fresh = app.get(f"/api/tables/{made['table']}").json()
    assert [s["name"] for s in fresh["seats"]] == ["Cleo", "Ann"]
    bots = make(app, "keys", ["human", "random"])
    to_bot = f"/api/tables/{bots['id']}/seats/1/name"
    owner_as_bot = app.post(to_bot, json={"name": "X"}, params={"token": token(bots, 0)})
    assert code(owner_as_bot) == (403, "seat/forbidden")


def test_bots_go_by_their_level_and_seats_by_numbers_from_one(app: TestClient) -> None:
    """Bots were shown by spec ("Bot (ismcts:easy)") and seats numbered from 0 in places."""
    table = make(app, "clue", ["human", "heuristic", "heuristic", "open"], options={"players": 4})
    names = [s["name"] for s in snap(app, table, None)["seats"]]
    assert names[1:3] == ["Bot (casual) #2", "Bot (casual) #3"]
    claimed = call(app, table, "seats/3/claim", {"name": "Dee"})
    assert claimed.status_code == 200, claimed.text
    chat = app.get(f"/api/tables/{table['id']}/chat").json()["messages"]
    assert any(m["text"] == "Dee took seat 4." for m in chat)
    keys = make(app, "keys", ["human", "random"], stand_in="ismcts:easy")
    stood = call(app, keys, "seats/0/stand-in", token=token(keys, 0)).json()["seats"][0]
    assert stood["stand_in"] == "ismcts:easy" and stood["stand_in_name"] == "Bot (thinker)"


def test_the_rematch_is_among_its_players_tables(app: TestClient) -> None:
    """The creator's "Your tables" (the lobby's account list) lacked the rematch: its seats
    were not tied to their players."""
    assert app.post("/api/players", json={"name": "Ace"}).status_code == 201
    table = make(app, "keys", ["human", "random"], seed=3, options={"round_limit": 1})
    while not (now := snap(app, table, 0))["over"]:
        if now["legal"]:
            act(app, table, 0, now["legal"][0])
    made = call(app, table, "rematch", token=token(table, 0)).json()
    lobby = app.get("/").text
    mine = lobby.split('id="account-tables"')[1].split("</ul>")[0]
    assert f'data-table="{table["id"]}"' in mine and f'data-table="{made["table"]}"' in mine
    # the player's session opens the new seat without a token, as it opened the old one
    assert app.get(f"/api/tables/{made['table']}").json()["seats"][1]["name"] == "Ace"
