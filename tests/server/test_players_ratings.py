"""What counts for ratings (issue 30, finding 6; docs/ratings.md): one seat per account per
table, a seat its stand-in played is the stand-in's result, ties do not freeze anyone's
uncertainty, and stored ratings are rebuilt under these rules."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from sqlalchemy import insert, select

from tests.server.helpers import wait_for
from tests.server.test_players import FakeClock, _recorded
from timelord.server import create_app
from timelord.server.migrations import upgrade
from timelord.server.ratings import (
    RatingRow,
    ResultRow,
    apply_game,
    initial,
    recompute,
    update_ratings,
)
from timelord.server.storage import Store, TableRow

RATE = 1e6
NOW = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)


@pytest.fixture
def web(sqlite_url: str) -> Iterator[TestClient]:
    app = create_app(sqlite_url, 0, rate=RATE, burst=RATE)
    app.state.accounts.clock = FakeClock()
    app.state.accounts.hasher = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
    with TestClient(app) as client:
        yield client


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    found = Store(db_url)
    upgrade(found.engine)
    try:
        yield found
    finally:
        found.close()


def _ratings(store: Store, game: str) -> dict[str, tuple[float, float, int]]:
    with store.engine.connect() as conn:
        rows = conn.execute(select(RatingRow.__table__).where(RatingRow.game == game))
        return {r.subject: (r.mu, r.sigma, r.games) for r in rows}


def test_tied_losers_keep_their_uncertainty() -> None:
    """Six equal seats, one winner, five tied losers (Clue at the round limit after one
    solve): the losers' sigma went from 8.33 to the 0.083 floor in one table."""
    after = update_ratings([initial()] * 6, [1, 2, 2, 2, 2, 2])
    assert all(r.sigma > 5.0 for r in after)
    assert after[0].mu > initial().mu > after[1].mu
    strict = update_ratings([initial()] * 6, [1, 2, 3, 4, 5, 6])
    # a tied loser moves like the middle of the strict order, and sigma shrinks alike
    assert strict[2].mu > after[1].mu > strict[4].mu
    assert abs(after[1].sigma - strict[1].sigma) < 1.0


def test_one_account_at_two_seats_makes_the_table_unrated(store: Store) -> None:
    with store.engine.begin() as conn:
        after = apply_game(conn, "clue", ["player:a", "player:a", "bot:random"], [1, 2, 3], NOW)
    assert after == [None, None, None]
    assert _ratings(store, "clue") == {}


def test_a_bot_at_two_seats_is_an_opponent_but_not_rated(store: Store) -> None:
    with store.engine.begin() as conn:
        after = apply_game(conn, "clue", ["player:a", "bot:random", "bot:random"], [1, 2, 3], NOW)
    assert after[0] is not None and after[0].mu > initial().mu
    assert after[1:] == [None, None]
    found = _ratings(store, "clue")
    assert set(found) == {"player:a", "bot:random"}
    assert found["bot:random"][2] == 0  # no rated games: not on the leaderboard


def test_a_seat_its_stand_in_played_is_the_stand_ins_result(web: TestClient) -> None:
    """A table played wholly by the stand-in gave its person a rated result without a move:
    now the stand-in bot is rated for the seat, and the person is not."""
    assert web.post("/api/players", json={"name": "Ace"}).status_code == 201
    body = {"game": "episodes", "seats": ["human", "random"], "stand_in": "heuristic"}
    table = web.post("/api/tables", json=body).json()["id"]
    assert web.post(f"/api/tables/{table}/seats/0/stand-in").status_code == 200
    store = web.app.state.tables.store  # type: ignore[attr-defined]
    wait_for(lambda: _recorded(store, table), timeout=60)
    profile = web.get("/api/players/Ace").json()
    assert profile["ratings"] == [] and profile["games"] == 1
    (entry,) = web.get("/api/players/Ace/games").json()["games"]
    assert entry["rating"] is None
    bots = {e["name"] for e in web.get("/api/leaderboard/episodes").json()["entries"]}
    assert bots == {"heuristic", "random"}


def _stored_table(conn: object, table_id: str, subjects: list[str], places: list[int]) -> None:
    conn.execute(  # type: ignore[attr-defined]
        insert(TableRow).values(
            id=table_id,
            game="clue",
            options={},
            seed=1,
            seats=[{"agent": "human"} for _ in subjects],
            version=1,
            status="over",
            result=None,
            created=NOW,
        )
    )
    for seat, (subject, place) in enumerate(zip(subjects, places, strict=True)):
        conn.execute(  # type: ignore[attr-defined]
            insert(ResultRow).values(
                table_id=table_id,
                seat=seat,
                game="clue",
                subject=subject,
                name=subject,
                place=place,
                score=0.0,
                rated=True,
                mu=None,
                sigma=None,
                finished=NOW + dt.timedelta(minutes=len(table_id)),
            )
        )


def test_recompute_rebuilds_stored_ratings_under_the_rules(store: Store) -> None:
    people = ["player:a", "player:b", "player:c", "bot:random", "player:d", "player:e"]
    with store.engine.begin() as conn:
        _stored_table(conn, "t1", people, [1, 2, 2, 2, 2, 2])
        _stored_table(conn, "t22", ["player:a", "player:a", "bot:random"], [1, 2, 3])
        # what the old rules left behind: a frozen sigma
        conn.execute(
            insert(RatingRow).values(
                game="clue",
                subject="bot:random",
                mu=20.8,
                sigma=0.083,
                games=5,
                wins=0.0,
                updated=NOW,
            )
        )
        assert recompute(conn) == 1
    found = _ratings(store, "clue")
    assert found["bot:random"][1] > 5.0 and found["bot:random"][2] == 1
    assert found["player:a"][2] == 1  # t22 (the same account twice) no longer counts
    with store.engine.connect() as conn:
        rated = dict(
            conn.execute(
                select(ResultRow.table_id, ResultRow.rated).where(ResultRow.seat == 0)
            ).all()
        )
    assert rated == {"t1": True, "t22": False}
