"""Players (issue 20): accounts and sessions, seats tied to players, results and ratings."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient

from tests.server.conftest import RATE
from tests.server.helpers import wait_for
from timelord.server import create_app
from timelord.server.accounts import COOKIE
from timelord.server.ratings import (
    Rating,
    initial,
    is_rated,
    update_ratings,
)


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += dt.timedelta(**delta)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def app_url(sqlite_url: str) -> str:
    return sqlite_url


def _client(url: str, clock: FakeClock) -> TestClient:
    app = create_app(url, 0, rate=RATE, burst=RATE)
    app.state.accounts.clock = clock
    # argon2 at its cheapest: the tests check the flows, not the hashing cost
    app.state.accounts.hasher = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
    return TestClient(app)


@pytest.fixture
def web(sqlite_url: str, clock: FakeClock) -> Iterator[TestClient]:
    with _client(sqlite_url, clock) as test_client:
        yield test_client


def _other(web: TestClient) -> TestClient:
    """A second browser on the same app: its own cookie jar."""
    other = TestClient(web.app)
    other.__enter__()
    return other


def sign_up(web: TestClient, name: str, password: str | None = None) -> Any:
    body: dict[str, Any] = {"name": name}
    if password is not None:
        body["password"] = password
    return web.post("/api/players", json=body)


# -- accounts -------------------------------------------------------------------------------


def test_sign_up_gives_an_httponly_lax_cookie_and_a_session(web: TestClient) -> None:
    answer = sign_up(web, "Ace")
    assert answer.status_code == 201
    assert answer.json()["name"] == "Ace" and answer.json()["has_password"] is False
    header = answer.headers["set-cookie"]
    assert header.startswith(f"{COOKIE}=")
    assert "HttpOnly" in header and "SameSite=lax" in header and "Path=/" in header
    assert web.get("/api/session").json()["name"] == "Ace"
    # the cookie carries no name or player id in the clear, only the signed session id
    assert "Ace" not in web.cookies[COOKIE]


def test_names_are_unique_regardless_of_case_and_checked(web: TestClient) -> None:
    assert sign_up(web, "Ace").status_code == 201
    taken = sign_up(_other(web), "aCE")
    assert taken.status_code == 409 and taken.json()["code"] == "player/taken"
    for bad in ["", "x" * 33, " Ace", "a/b", "tab\there"]:
        answer = sign_up(_other(web), bad)
        assert answer.status_code == 422, bad
        assert answer.json()["code"] == "player/invalid"
    short = sign_up(_other(web), "Bo", "short")
    assert short.status_code == 422 and short.json()["code"] == "player/invalid"
    extra = _other(web).post("/api/players", json={"name": "Cy", "admin": True})
    assert extra.status_code == 400 and extra.json()["code"] == "request/malformed"


def test_log_in_elsewhere_and_wrong_passwords_say_nothing_about_names(web: TestClient) -> None:
    assert sign_up(web, "Ace", "correct horse").status_code == 201
    assert sign_up(_other(web), "Nopass").status_code == 201
    laptop = _other(web)
    assert laptop.get("/api/session").status_code == 401
    wrong = laptop.post("/api/session", json={"name": "Ace", "password": "wrong horse"})
    unknown = laptop.post("/api/session", json={"name": "Nobody", "password": "wrong horse"})
    nopass = laptop.post("/api/session", json={"name": "Nopass", "password": "anything1"})
    for answer in (wrong, unknown, nopass):
        assert answer.status_code == 401
        assert answer.json() == wrong.json()
    assert wrong.json()["code"] == "session/refused"
    right = laptop.post("/api/session", json={"name": "ace", "password": "correct horse"})
    assert right.status_code == 200 and right.json()["name"] == "Ace"
    assert laptop.get("/api/session").json()["name"] == "Ace"


def test_log_out_ends_the_session_on_the_server(web: TestClient) -> None:
    sign_up(web, "Ace")
    stolen = web.cookies[COOKIE]
    assert web.delete("/api/session").status_code == 204
    assert web.get("/api/session").status_code == 401
    replay = _other(web)
    replay.cookies.set(COOKIE, stolen)
    assert replay.get("/api/session").status_code == 401


def test_a_cookie_cannot_be_forged_or_turned_into_another_players(web: TestClient) -> None:
    sign_up(web, "Ace")
    bee = _other(web)
    sign_up(bee, "Bee")
    ace_cookie = web.cookies[COOKIE]
    session_id, _, signature = ace_cookie.rpartition(".")
    forger = _other(web)
    for forged in (
        f"{session_id}x.{signature}",
        f"{session_id}.{signature[:-2]}AA",
        session_id,
        f"{bee.cookies[COOKIE].rpartition('.')[0]}.{signature}",
    ):
        forger.cookies.set(COOKIE, forged)
        assert forger.get("/api/session").status_code == 401, forged
    # Bee's session opens Bee's seat only: at Ace's table it is a spectator's
    table = web.post("/api/tables", json={"game": "keys", "seats": ["human", "human"]}).json()
    assert web.get(f"/api/tables/{table['id']}").json()["legal"]  # Ace, seat 0, to move
    seen = bee.get(f"/api/tables/{table['id']}").json()
    assert seen["legal"] == []
    action = web.get(f"/api/tables/{table['id']}").json()["legal"][0]
    refused = bee.post(f"/api/tables/{table['id']}/actions", json={"version": 0, "action": action})
    assert refused.status_code == 403 and refused.json()["code"] == "seat/forbidden"


def test_sessions_expire(web: TestClient, clock: FakeClock) -> None:
    sign_up(web, "Ace")
    clock.advance(days=29)
    assert web.get("/api/session").status_code == 200
    clock.advance(days=1, seconds=1)
    assert web.get("/api/session").status_code == 401


def test_login_guessing_is_rate_limited_per_name(web: TestClient, clock: FakeClock) -> None:
    sign_up(web, "Ace", "correct horse")
    guesser = _other(web)
    for _ in range(5):
        answer = guesser.post("/api/session", json={"name": "Ace", "password": "guess 123"})
        assert answer.status_code == 401
    blocked = guesser.post("/api/session", json={"name": "Ace", "password": "correct horse"})
    assert blocked.status_code == 429 and blocked.json()["code"] == "rate/limited"
    # an unknown name is limited exactly alike, so the limit tells no names apart
    for _ in range(5):
        guesser.post("/api/session", json={"name": "Ghost", "password": "guess 123"})
    ghost = guesser.post("/api/session", json={"name": "Ghost", "password": "guess 123"})
    assert ghost.status_code == 429
    clock.advance(seconds=61)
    again = guesser.post("/api/session", json={"name": "Ace", "password": "correct horse"})
    assert again.status_code == 200


def test_rename_and_a_new_password_end_the_other_sessions(web: TestClient) -> None:
    sign_up(web, "Ace", "correct horse")
    phone = _other(web)
    phone.post("/api/session", json={"name": "Ace", "password": "correct horse"})
    renamed = web.patch("/api/session", json={"name": "Ace2"})
    assert renamed.status_code == 200 and renamed.json()["name"] == "Ace2"
    assert phone.get("/api/session").json()["name"] == "Ace2"
    new = {"password": "battery staple", "current_password": "correct horse"}
    assert web.patch("/api/session", json=new).status_code == 200
    assert phone.get("/api/session").status_code == 401
    assert web.get("/api/session").status_code == 200
    logged = _other(web).post("/api/session", json={"name": "Ace2", "password": "battery staple"})
    assert logged.status_code == 200
    sign_up(_other(web), "Bee")
    clash = web.patch("/api/session", json={"name": "BEE"})
    assert clash.status_code == 409 and clash.json()["code"] == "player/taken"
    nobody = _other(web).patch("/api/session", json={"name": "Zed"})
    assert nobody.status_code == 401 and nobody.json()["code"] == "session/none"


def test_claiming_an_open_seat_while_logged_in_ties_it_to_the_player(web: TestClient) -> None:
    """The seat takes the player's name (not the one typed) and opens with the session
    cookie alone; a guest's claim stays a guest's."""
    table = web.post("/api/tables", json={"game": "keys", "seats": ["open", "open"]}).json()
    guest = _other(web)
    sign_up(web, "Ace")
    mine = web.post(f"/api/tables/{table['id']}/seats/0/claim", json={"name": "typed"})
    assert mine.status_code == 200 and mine.json()["name"] == "Ace"
    theirs = guest.post(f"/api/tables/{table['id']}/seats/1/claim", json={"name": "Bob"})
    assert theirs.status_code == 200 and theirs.json()["name"] == "Bob"
    by_cookie = web.get(f"/api/tables/{table['id']}").json()
    assert (
        by_cookie["view"]
        == web.get(f"/api/tables/{table['id']}", params={"token": mine.json()["token"]}).json()[
            "view"
        ]
    )
    names = {s["seat"]: s["name"] for s in by_cookie["seats"]}
    assert names == {0: "Ace", 1: "Bob"}
    # the guest's browser has no session: it is a spectator without its token
    spectator = guest.get(f"/api/tables/{table['id']}").json()
    assert spectator["view"] != by_cookie["view"]


def test_a_tied_seat_chats_stands_in_and_reclaims_by_the_session_cookie(web: TestClient) -> None:
    """The seat endpoints of a table's life take the cookie where they take a token; another
    browser without the session is refused."""
    sign_up(web, "Ace")
    body = {"game": "keys", "seats": ["human", "random"], "undo": True}
    table = web.post("/api/tables", json=body).json()["id"]
    assert web.post(f"/api/tables/{table}/chat", json={"text": "hello"}).status_code == 204
    stand_in = web.post(f"/api/tables/{table}/seats/0/stand-in")
    assert stand_in.status_code == 200, stand_in.text
    assert stand_in.json()["seats"][0]["stand_in"] is not None
    assert web.post(f"/api/tables/{table}/seats/0/reclaim").status_code == 200
    stranger = _other(web)
    refused = stranger.post(f"/api/tables/{table}/seats/0/stand-in")
    assert refused.status_code == 403 and refused.json()["code"] == "seat/forbidden"
    assert stranger.post(f"/api/tables/{table}/chat", json={"text": "hi"}).status_code == 403


# -- ratings ---------------------------------------------------------------------------------


def _play_out(web: TestClient, table_id: str, token: str | None = None) -> dict[str, Any]:
    """Play the person's seat (by the session cookie, or by `token` for a guest) with its
    first legal move until the game ends; bots move on their own."""
    query = "" if token is None else f"?token={token}"
    for _ in range(5000):
        snap = web.get(f"/api/tables/{table_id}{query}").json()
        if snap["over"]:
            return snap
        if snap["legal"]:
            web.post(
                f"/api/tables/{table_id}/actions{query}",
                json={"version": snap["version"], "action": snap["legal"][0]},
            )
    raise AssertionError("the game did not end")


def _finished_table(web: TestClient, guest: bool = False, **extra: Any) -> str:
    """A table of the person against a bot, played to the end and its results recorded (a
    bot's last move records them as the snapshot goes out, so wait for the record)."""
    body = {"game": "episodes", "seats": ["human", "random"], **extra}
    table = web.post("/api/tables", json=body).json()
    _play_out(web, table["id"], table["seats"][0]["token"] if guest else None)
    app = web.app
    store = app.state.tables.store  # type: ignore[attr-defined]
    wait_for(lambda: _recorded(store, table["id"]), timeout=30)
    return str(table["id"])


def _recorded(store: Any, table_id: str) -> bool:
    from sqlalchemy import select

    from timelord.server.ratings import ResultRow

    with store.engine.connect() as conn:
        return (
            conn.execute(select(ResultRow.seat).where(ResultRow.table_id == table_id)).first()
            is not None
        )


def test_a_finished_rated_table_updates_the_ratings_of_its_person_and_bot(
    web: TestClient,
) -> None:
    sign_up(web, "Ace")
    table_id = _finished_table(web)
    profile = web.get("/api/players/ace").json()
    assert profile["name"] == "Ace" and profile["games"] == 1
    (rating,) = profile["ratings"]
    assert rating["game"] == "episodes" and rating["games"] == 1
    assert rating["sigma"] < initial().sigma
    assert rating["rating"] == pytest.approx(rating["mu"] - 3 * rating["sigma"], abs=1e-2)
    board = web.get("/api/leaderboard/episodes").json()
    assert {(e["kind"], e["name"]) for e in board["entries"]} == {
        ("player", "Ace"),
        ("bot", "random"),
    }
    people = web.get("/api/leaderboard/episodes?people=true").json()
    assert [e["name"] for e in people["entries"]] == ["Ace"]
    games = web.get("/api/players/Ace/games").json()
    (entry,) = games["games"]
    assert entry["table"] == table_id and entry["rated"] is True
    assert entry["replay"] == f"/tables/{table_id}/replay"
    assert [s["name"] for s in entry["seats"]] == ["Ace", "Bot (beginner)"]
    assert sorted(s["place"] for s in entry["seats"])[0] == 1


def test_unrated_tables_leave_the_ratings_alone(web: TestClient) -> None:
    # guests only: recorded nowhere a player page shows, rated never
    _finished_table(web, guest=True)
    assert web.get("/api/leaderboard/episodes").json()["entries"] == []
    sign_up(web, "Ace")
    _finished_table(web, seed=7)  # the creator chose the deal
    assert web.get("/api/leaderboard/episodes").json()["entries"] == []
    _finished_table(web, hints=True)  # the coach could be asked
    assert web.get("/api/leaderboard/episodes").json()["entries"] == []
    profile = web.get("/api/players/Ace").json()
    assert profile["ratings"] == [] and profile["games"] == 2
    entries = web.get("/api/players/Ace/games").json()["games"]
    assert [(e["rated"], e["rating"]) for e in entries] == [(False, None), (False, None)]


def test_is_rated_needs_a_person_no_undo_no_chosen_seed_and_no_hints() -> None:
    def table(**facts: Any) -> Any:
        return SimpleNamespace(
            **{"players": ["p1", None], "seeded": False, "undo_used": False, **facts}
        )

    assert is_rated(table())
    assert not is_rated(table(), hints=True)
    assert not is_rated(table(players=[None, None]))
    assert not is_rated(table(seeded=True))
    assert not is_rated(table(undo_used=True))


def test_five_players_with_a_tie_move_in_finishing_order() -> None:
    """Equal ratings, places 1, 2, 2, 4, 5: the winner gains most, the two tied seats move
    exactly alike, and each later place gains less (or loses more)."""
    before = [initial()] * 5
    after = update_ratings(before, [1, 2, 2, 4, 5])
    gains = [a.mu - b.mu for a, b in zip(after, before, strict=True)]
    assert gains[1] == pytest.approx(gains[2])
    assert gains[0] > gains[1] > gains[3] > gains[4]
    assert gains[0] > 0 > gains[4]
    assert all(a.sigma < b.sigma for a, b in zip(after, before, strict=True))
    # a tie is not a coin toss: tied seats gain less than a clean second place would
    clean = update_ratings(before, [1, 2, 3, 4, 5])
    assert clean[1].mu - before[1].mu > gains[1] > clean[2].mu - before[2].mu


def test_an_upset_moves_ratings_more_than_an_expected_result() -> None:
    strong, weak = Rating(35.0, 3.0), Rating(15.0, 3.0)
    expected = update_ratings([strong, weak], [1, 2])
    upset = update_ratings([strong, weak], [2, 1])
    assert upset[1].mu - weak.mu > expected[0].mu - strong.mu > 0


# -- privacy and paging --------------------------------------------------------------------


def test_a_player_page_lists_finished_tables_only_and_pages_back(
    web: TestClient, clock: FakeClock
) -> None:
    sign_up(web, "Ace")
    finished = []
    for _ in range(2):
        finished.append(_finished_table(web))
        clock.advance(minutes=1)
    playing = web.post("/api/tables", json={"game": "episodes", "seats": ["human", "random"]})
    playing_id = playing.json()["id"]
    first = web.get("/api/players/Ace/games?limit=1").json()
    assert [g["table"] for g in first["games"]] == finished[1:]
    rest = web.get("/api/players/Ace/games", params={"limit": 1, "before": first["next"]}).json()
    assert [g["table"] for g in rest["games"]] == finished[:1] and rest["next"] is None
    stranger = _other(web)
    page = stranger.get("/players/Ace")
    assert page.status_code == 200
    assert playing_id not in page.text and "token=" not in page.text
    assert all(t in page.text for t in finished)
    assert stranger.get("/api/players/Nobody").json()["code"] == "player/not_found"
    assert stranger.get("/api/leaderboard/chess").status_code == 404
    assert web.get("/api/players/Ace/games?game=keys").json()["games"] == []
    assert web.get("/api/players/Ace/games?before=yesterday").status_code == 400
