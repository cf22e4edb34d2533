"""Names do not impersonate (issue 30, finding 5): look-alikes of a taken name are taken,
names the server gives seats and bots are reserved, guests are marked as guests, and the log
never turns a person into another seat."""

from __future__ import annotations

import datetime as dt
import unicodedata
from collections.abc import Iterator
from typing import Any

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from sqlalchemy import column, insert, select, table

from tests.server.boards.test_boards import _playout, _snapshot
from tests.server.test_players import FakeClock
from timelord.server import create_app
from timelord.server.boards import render_board
from timelord.server.migrations import upgrade
from timelord.server.names import name_key
from timelord.server.storage import Store

RATE = 1e6

#: Look-alikes of "Ace" (and of "Zoë") that were accepted as new names.
LOOK_ALIKES = [
    "\u0410ce",  # Cyrillic capital A
    "\u0391ce",  # Greek capital Alpha
    "\uff21ce",  # fullwidth A
    "\U0001d400ce",  # mathematical bold A
    "ACE",
    "\u0430\u0441\u0435",  # all three letters Cyrillic
]
RESERVED = [
    "Bot (heuristic)",
    "Bot (ismcts:hard)",
    "B\u03bft (random)",  # Greek omicron
    "B0t (random)",  # a zero
    "Seat 1",
    "Seat 2",
    "Seat 0 (south)",
    "Open seat",
    "random",
    "ismcts:hard",
    "You",
    "Guest",
]


@pytest.fixture
def web(sqlite_url: str) -> Iterator[TestClient]:
    app = create_app(sqlite_url, 0, rate=RATE, burst=RATE)
    app.state.accounts.clock = FakeClock()
    app.state.accounts.hasher = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
    with TestClient(app) as client:
        yield client


def _fresh(web: TestClient) -> TestClient:
    other = TestClient(web.app)
    other.__enter__()
    return other


def _sign_up(web: TestClient, name: str) -> Any:
    return _fresh(web).post("/api/players", json={"name": name})


@pytest.mark.parametrize("look_alike", LOOK_ALIKES)
def test_a_look_alike_of_a_taken_name_is_taken(web: TestClient, look_alike: str) -> None:
    assert _sign_up(web, "Ace").status_code == 201
    answer = _sign_up(web, look_alike)
    assert answer.status_code == 409 and answer.json()["code"] == "player/taken"


def test_a_decomposed_name_is_the_precomposed_one(web: TestClient) -> None:
    assert _sign_up(web, "Zo\u00eb").status_code == 201
    decomposed = unicodedata.normalize("NFD", "Zo\u00eb")
    assert decomposed != "Zo\u00eb"
    assert _sign_up(web, decomposed).status_code == 409
    # and the player page finds the player by either form
    assert web.get(f"/api/players/{decomposed}").json()["name"] == "Zo\u00eb"


def test_a_rename_to_a_look_alike_is_taken(web: TestClient) -> None:
    _sign_up(web, "Ace")
    bee = _fresh(web)
    bee.post("/api/players", json={"name": "Bee"})
    answer = bee.patch("/api/session", json={"name": "\u0410CE"})
    assert answer.status_code == 409 and answer.json()["code"] == "player/taken"


@pytest.mark.parametrize("name", RESERVED)
def test_reserved_names_are_refused_to_players_and_guests(web: TestClient, name: str) -> None:
    answer = _sign_up(web, name)
    assert answer.status_code == 422 and answer.json()["code"] == "player/invalid"
    owner = _fresh(web)
    table = owner.post("/api/tables", json={"game": "keys", "seats": ["open", "random"]}).json()
    claim = _fresh(web).post(f"/api/tables/{table['id']}/seats/0/claim", json={"name": name})
    assert claim.status_code == 422 and claim.json()["code"] == "name/invalid"


def test_a_guest_is_marked_as_one_wherever_the_table_names_seats(web: TestClient) -> None:
    owner = _fresh(web)
    owner.post("/api/players", json={"name": "Ace"})
    table = owner.post("/api/tables", json={"game": "keys", "seats": ["open", "open"]}).json()
    tid = table["id"]
    assert owner.post(f"/api/tables/{tid}/seats/0/claim", json={"name": "x"}).is_success
    guest = _fresh(web)
    claimed = guest.post(f"/api/tables/{tid}/seats/1/claim", json={"name": "Bee"}).json()
    snap = guest.get(f"/api/tables/{tid}?token={claimed['token']}").json()
    assert [s["guest"] for s in snap["seats"]] == [False, True]
    listed = web.get("/api/tables").json()["tables"][0]["seats"]
    assert [s["guest"] for s in listed] == [False, True]
    board = web.get(f"/tables/{tid}/board").text
    assert "Bee (guest)" in board and "Ace (guest)" not in board


def test_a_person_named_like_another_seat_is_never_shown_as_that_seat() -> None:
    """'Seat 2' was every move of a person at seat 0 shown as the bot's at seat 2 (the log
    replaced seat names one after another); names in the log are replaced in one pass."""
    game, state, events = _playout("episodes", 4, 30)
    snap = _snapshot(game, state, None, events)
    # a name as a stored table may still hold it (from before names were reserved)
    snap["seats"] = [{"name": "Seat 1"}, {"name": "Bot (random)"}]
    html = render_board(game, None, snap)
    log = html.split('id="log"')[1].split("</ol>")[0]
    told = [e["text"] for e in snap["events"]]
    by_seat_0 = sum(t.startswith("Seat 0 ") for t in told)
    by_seat_1 = sum(t.startswith("Seat 1 ") for t in told)
    assert by_seat_0 and by_seat_1
    assert log.count(">Seat 1 ") == by_seat_0 and log.count(">Bot (random) ") == by_seat_1


PLAYERS = table(
    "players",
    column("id"),
    column("name"),
    column("name_key"),
    column("password_hash"),
    column("created"),
)


def test_stored_name_keys_become_skeletons_and_look_alikes_stay_apart(db_url: str) -> None:
    store = Store(db_url)
    upgrade(store.engine, "0005")
    at = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)
    with store.engine.begin() as conn:
        for i, name in enumerate(["Ace", "\u0410ce", "Bee"]):
            conn.execute(
                insert(PLAYERS).values(
                    id=f"p{i}",
                    name=name,
                    name_key=name.casefold(),
                    password_hash=None,
                    created=at + dt.timedelta(minutes=i),
                )
            )
    upgrade(store.engine)
    with store.engine.connect() as conn:
        keys = dict(conn.execute(select(PLAYERS.c.id, PLAYERS.c.name_key)).all())
    store.close()
    assert keys["p0"] == name_key("Ace") == "ace" and keys["p2"] == name_key("Bee")
    assert keys["p1"] == f"{name_key('Ace')}#p1"  # the later look-alike stays, apart


def test_a_replay_marks_its_guests(web: TestClient) -> None:
    from tests.server.test_players import _play_out

    body = {
        "game": "episodes",
        "options": {"players": 2, "target": 15, "max_rounds": 8},
        "seats": ["open", "random"],
    }
    table = _fresh(web).post("/api/tables", json=body).json()
    tid = table["id"]
    claimed = web.post(f"/api/tables/{tid}/seats/0/claim", json={"name": "Bee"}).json()
    _play_out(web, tid, claimed["token"])
    board = web.get(f"/tables/{tid}/replay/board?step=1").json()["html"]
    assert "Bee (guest)" in board


@pytest.mark.parametrize("name", ["Ace", "\u0410ce", "ACE"])
def test_a_guest_cannot_rename_their_seat_to_a_players_name(web: TestClient, name: str) -> None:
    """Finding 5: a guest could not claim a seat under a player's name, but could rename the
    seat to it afterwards through the seat-name route."""
    assert _sign_up(web, "Ace").status_code == 201
    guest = _fresh(web)
    made = guest.post("/api/tables", json={"game": "keys", "seats": ["human", "human"]}).json()
    token = made["seats"][1]["token"]
    renamed = guest.post(
        f"/api/tables/{made['id']}/seats/1/name?token={token}", json={"name": name}
    )
    assert renamed.status_code == 409 and renamed.json()["code"] == "name/taken"
    assert guest.post(
        f"/api/tables/{made['id']}/seats/1/name?token={token}", json={"name": "Bee"}
    ).is_success


@pytest.mark.parametrize("name", ["Ace", "\u0410ce", "ACE"])
def test_names_a_creator_gives_friends_seats_are_not_players_names(
    web: TestClient, name: str
) -> None:
    """A creator naming a friend's seat at creation passes through the same door as a
    claim or a rename: a player's name (or a look-alike) is 409 name/taken, for a guest
    creator and a logged-in one alike; reserved names stay 422 name/invalid."""
    assert _sign_up(web, "Ace").status_code == 201
    guest = _fresh(web)
    bee = _fresh(web)
    assert bee.post("/api/players", json={"name": "Bee"}).status_code == 201
    for creator in (guest, bee):
        body = {"game": "keys", "seats": ["human", "human"], "names": [None, name]}
        made = creator.post("/api/tables", json=body)
        assert made.status_code == 409 and made.json()["code"] == "name/taken", made.json()
    body = {"game": "keys", "seats": ["human", "human"], "names": [None, "Seat 1"]}
    made = guest.post("/api/tables", json=body)
    assert made.status_code == 422 and made.json()["code"] == "name/invalid"
    # the logged-in creator's own seat takes the player's name whatever was given for it
    body = {"game": "keys", "seats": ["human", "human"], "names": ["Bee", "Cat"]}
    made = bee.post("/api/tables", json=body)
    assert made.status_code == 201
