"""Ratings of people and bots in one pool per game, and the results they are made from.

The model is openskill's Thurstone-Mosteller with full pairing (Weng & Lin 2011): the
Gaussian model of TrueSkill, with every pair of seats compared and a tie as a draw, in one
closed-form update for any number of seats, with a mean `mu` and an uncertainty `sigma` per
rating (docs/ratings.md says why this one and not Plackett-Luce or TrueSkill itself). The
rating shown is the conservative `mu - 3 sigma`: it rises as a player both wins and becomes
certain. A seat's rating subject is `player:<id>` for a logged-in person and `bot:<spec>` for
a bot, so people and bots share one scale; guests are recorded but never rated.

A finished table's per-seat results and the rating updates they cause are written in one
transaction, once: the results' key (table, seat) lets only the first writer through.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from openskill.models import ThurstoneMostellerFull
from sqlalchemy import (
    Boolean,
    Connection,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    delete,
    insert,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from timelord.core.seating import places
from timelord.server.accounts import PlayerRow
from timelord.server.storage import Base, Store, TableRow

GUEST = "guest"
#: how many standard deviations the shown rating and the intervals take off and add
CONSERVATIVE = 3.0
INTERVAL = 1.0


def _per_opponent(
    c: float, k: float, mu: float, sigma_squared: float, team: Any, rank: Any, weights: Any
) -> float:
    """How much of a seat's variance each comparison may take away: one k-th for k seats.
    openskill's default (sigma over c) lets every pairwise comparison shrink the variance as
    if it were a game of its own, so a loser tied with four others lost all its uncertainty
    in one table (sigma 8.33 to the 0.083 floor) and stayed frozen there."""
    return 1.0 / k


MODEL = ThurstoneMostellerFull(gamma=_per_opponent)


class RatingRow(Base):
    __tablename__ = "ratings"

    game: Mapped[str] = mapped_column(String(64), primary_key=True)
    subject: Mapped[str] = mapped_column(String(200), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    #: a tie for first counts 1/k of a win
    wins: Mapped[float] = mapped_column(Float)
    updated: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class ResultRow(Base):
    __tablename__ = "results"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    subject: Mapped[str] = mapped_column(String(200), index=True)
    #: the seat's name when the table ended
    name: Mapped[str] = mapped_column(String(200))
    place: Mapped[int] = mapped_column(Integer)
    score: Mapped[float] = mapped_column(Float)
    rated: Mapped[bool] = mapped_column(Boolean)
    #: the seat's rating after this table (None when not rated)
    mu: Mapped[float | None] = mapped_column(Float, nullable=True)
    sigma: Mapped[float | None] = mapped_column(Float, nullable=True)
    finished: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), index=True)


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def shown(self) -> float:
        """The conservative rating a leaderboard sorts by."""
        return self.mu - CONSERVATIVE * self.sigma

    @property
    def interval(self) -> tuple[float, float]:
        return (self.mu - INTERVAL * self.sigma, self.mu + INTERVAL * self.sigma)

    def to_json(self) -> dict[str, float]:
        low, high = self.interval
        return {
            "mu": round(self.mu, 3),
            "sigma": round(self.sigma, 3),
            "rating": round(self.shown, 3),
            "low": round(low, 3),
            "high": round(high, 3),
        }


def initial() -> Rating:
    fresh = MODEL.rating()
    return Rating(fresh.mu, fresh.sigma)


def bot_subject(spec: str) -> str:
    return f"bot:{spec}"


def player_subject(player_id: str) -> str:
    return f"player:{player_id}"


def update_ratings(before: Sequence[Rating], finish: Sequence[int]) -> list[Rating]:
    """Each seat's rating after a game finished in places `finish` (1 = first; equal places
    are a tie), every seat its own team."""
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after = MODEL.rate(teams, ranks=[float(p) for p in finish])
    return [Rating(team[0].mu, team[0].sigma) for team in after]


def win_shares(finish: Sequence[int]) -> list[float]:
    """A win for each first place, split among those tied for it."""
    firsts = sum(1 for p in finish if p == 1)
    return [1.0 / firsts if p == 1 else 0.0 for p in finish]


class TableFacts(Protocol):
    """What `is_rated` reads of a table (a `Live`)."""

    players: list[str | None]
    seeded: bool
    undo_used: bool


def is_rated(table: TableFacts, hints: bool = False) -> bool:
    """Whether a finished table changes ratings: at least one seat is a logged-in person,
    the creator did not choose the seed (the deal was known), nobody took a move back and
    nobody could ask the coach (`hints`: the table allowed hints)."""
    if table.undo_used or table.seeded or hints:
        return False
    return any(player is not None for player in table.players)


@dataclass(frozen=True)
class SeatResult:
    """One seat of a finished table: whose seat it is (`subject`, recorded in the history),
    and whose rating its result moves (`rated_as`: None for the same subject; the stand-in
    bot's subject when the stand-in made most of the seat's decisions)."""

    subject: str
    name: str
    score: float
    rated_as: str | None = None


def rated_subject(seat: SeatResult) -> str:
    """The subject whose rating a seat's result moves."""
    return seat.subject if seat.rated_as is None else seat.rated_as


def _upsert_missing(conn: Connection, game: str, subjects: Iterable[str], now: dt.datetime) -> None:
    fresh = initial()
    rows = [
        {
            "game": game,
            "subject": s,
            "mu": fresh.mu,
            "sigma": fresh.sigma,
            "games": 0,
            "wins": 0.0,
            "updated": now,
        }
        for s in sorted(set(subjects))
    ]
    if not rows:
        return
    maker = postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert
    conn.execute(maker(RatingRow).values(rows).on_conflict_do_nothing())


def _locked(conn: Connection, game: str, subjects: Iterable[str]) -> dict[str, Any]:
    """The ratings rows of `subjects`, locked until the transaction ends (PostgreSQL; SQLite
    has one writer at a time anyway)."""
    query = select(RatingRow.__table__).where(
        RatingRow.game == game, RatingRow.subject.in_(sorted(set(subjects)))
    )
    if conn.dialect.name == "postgresql":
        query = query.order_by(RatingRow.subject).with_for_update()
    return {row.subject: row for row in conn.execute(query)}


def apply_game(
    conn: Connection, game: str, subjects: Sequence[str], finish: Sequence[int], now: dt.datetime
) -> list[Rating | None]:
    """Update the ratings of one game's seats within `conn`'s transaction; each seat's
    rating after it (None where not rated). What counts (docs/ratings.md): guests are left
    out; a person at two seats makes the table unrated for everyone (one seat per account
    per table); a bot spec at several seats is an opponent at each, at its rating, but is
    not updated from a table it played against itself."""
    seats = [i for i, s in enumerate(subjects) if s != GUEST]
    count: dict[str, int] = {}
    for i in seats:
        count[subjects[i]] = count.get(subjects[i], 0) + 1
    people_twice = any(n > 1 and _kind(s) == "player" for s, n in count.items())
    if people_twice or len(count) < 2 or not any(n == 1 for n in count.values()):
        return [None] * len(subjects)
    _upsert_missing(conn, game, count, now)
    rows = _locked(conn, game, count)
    before = [Rating(rows[subjects[i]].mu, rows[subjects[i]].sigma) for i in seats]
    ranks = [finish[i] for i in seats]
    after = update_ratings(before, ranks)
    shares = win_shares(ranks)
    out: list[Rating | None] = [None] * len(subjects)
    for i, new, share in zip(seats, after, shares, strict=True):
        subject = subjects[i]
        if count[subject] > 1:
            continue
        row = rows[subject]
        conn.execute(
            update(RatingRow)
            .where(RatingRow.game == game, RatingRow.subject == subject)
            .values(
                mu=new.mu,
                sigma=new.sigma,
                games=row.games + 1,
                wins=row.wins + share,
                updated=now,
            )
        )
        out[i] = new
    return out


def record_finish(
    store: Store,
    table_id: str,
    game: str,
    seats: Sequence[SeatResult],
    winners: Sequence[int],
    rated: bool,
    now: dt.datetime,
) -> bool:
    """Write a finished table's results and, if it is rated, its rating updates, in one
    transaction; False (and nothing written) if they were already written."""
    scores = [s.score for s in seats]
    finish = places(list(scores), list(winners))
    try:
        with store._writing(), store.engine.begin() as conn:
            after: list[Rating | None] = [None] * len(seats)
            # the results go in first: a second writer stops here, before touching ratings
            conn.execute(
                insert(ResultRow),
                [
                    {
                        "table_id": table_id,
                        "seat": i,
                        "game": game,
                        "subject": s.subject,
                        "name": s.name,
                        "place": finish[i],
                        "score": s.score,
                        "rated": False,
                        "mu": None,
                        "sigma": None,
                        "finished": now,
                    }
                    for i, s in enumerate(seats)
                ],
            )
            if rated:
                after = apply_game(conn, game, [rated_subject(s) for s in seats], finish, now)
                for i, new in enumerate(after):
                    if new is not None and rated_subject(seats[i]) == seats[i].subject:
                        conn.execute(
                            update(ResultRow)
                            .where(ResultRow.table_id == table_id, ResultRow.seat == i)
                            .values(rated=True, mu=new.mu, sigma=new.sigma)
                        )
    except IntegrityError:
        return False
    return True


def recompute(conn: Connection) -> int:
    """Rebuild every rating from the stored results, oldest table first, under the rules
    `apply_game` applies now; the number of tables that rated anyone. A table is rated
    again if it was rated when it ended (is_rated's checks are not repeatable from the
    results). Every rating starts afresh, so bot ratings made by `timelord rate` alone,
    without results, are gone: rerun the calibration. Stand-ins are not known for stored
    tables: each seat is rated as its own subject."""
    rows = conn.execute(
        select(ResultRow.__table__).order_by(ResultRow.finished, ResultRow.table_id, ResultRow.seat)
    ).all()
    tables: dict[str, list[Any]] = {}
    for row in rows:
        tables.setdefault(row.table_id, []).append(row)
    conn.execute(delete(RatingRow))
    conn.execute(update(ResultRow).values(rated=False, mu=None, sigma=None))
    rated = 0
    for table_id, seats in tables.items():
        if not any(r.rated for r in seats):
            continue
        subjects = [r.subject for r in seats]
        finish = [r.place for r in seats]
        after = apply_game(conn, seats[0].game, subjects, finish, _utc(seats[0].finished))
        for row, new in zip(seats, after, strict=True):
            if new is not None:
                conn.execute(
                    update(ResultRow)
                    .where(ResultRow.table_id == table_id, ResultRow.seat == row.seat)
                    .values(rated=True, mu=new.mu, sigma=new.sigma)
                )
        rated += any(new is not None for new in after)
    return rated


# -- reading ----------------------------------------------------------------------------


def ratings_of(store: Store, subject: str) -> list[dict[str, Any]]:
    """Every game's rating of one subject, by game id."""
    query = select(RatingRow.__table__).where(RatingRow.subject == subject).order_by(RatingRow.game)
    with store.engine.connect() as conn:
        return [
            {
                "game": row.game,
                **Rating(row.mu, row.sigma).to_json(),
                "games": row.games,
                "wins": row.wins,
            }
            for row in conn.execute(query)
        ]


def totals(store: Store, subject: str) -> tuple[int, float]:
    """Finished tables played and won (ties for first split), rated or not."""
    query = select(ResultRow.table_id, ResultRow.place).where(ResultRow.subject == subject)
    played: dict[str, int] = {}
    with store.engine.connect() as conn:
        for table_id, place in conn.execute(query):
            played[table_id] = min(place, played.get(table_id, place))
        if not played:
            return 0, 0.0
        firsts: dict[str, int] = {}
        for (table_id,) in conn.execute(
            select(ResultRow.table_id).where(
                ResultRow.table_id.in_(sorted(played)), ResultRow.place == 1
            )
        ):
            firsts[table_id] = firsts.get(table_id, 0) + 1
    wins = sum(1.0 / firsts[t] for t, p in played.items() if p == 1 and firsts.get(t))
    return len(played), wins


def history(
    store: Store, subject: str, game: str | None, before: dt.datetime | None, limit: int
) -> list[dict[str, Any]]:
    """The subject's finished tables, newest first, each with every seat's name, place and
    score: only finished tables have results, so nothing in play is ever listed."""
    query = select(ResultRow.table_id, ResultRow.finished).where(ResultRow.subject == subject)
    if game is not None:
        query = query.where(ResultRow.game == game)
    if before is not None:
        query = query.where(ResultRow.finished < before)
    query = query.distinct().order_by(ResultRow.finished.desc()).limit(limit)
    with store.engine.connect() as conn:
        found = [(t, f) for t, f in conn.execute(query)]
        if not found:
            return []
        ids = [t for t, _ in found]
        rows = conn.execute(
            select(ResultRow.__table__, TableRow.created)
            .join(TableRow, TableRow.id == ResultRow.table_id)
            .where(ResultRow.table_id.in_(ids))
            .order_by(ResultRow.seat)
        ).all()
    by_table: dict[str, list[Any]] = {}
    for row in rows:
        by_table.setdefault(row.table_id, []).append(row)
    out = []
    for table_id, finished in found:
        seats = by_table[table_id]
        mine = [r for r in seats if r.subject == subject]
        me = min(mine, key=lambda r: r.place)
        out.append(
            {
                "table": table_id,
                "game": seats[0].game,
                "date": _utc(finished).isoformat().replace("+00:00", "Z"),
                "rated": any(r.rated for r in seats),
                "place": me.place,
                "rating": None if me.mu is None else Rating(me.mu, me.sigma).to_json(),
                "seats": [
                    {
                        "seat": r.seat,
                        "name": r.name,
                        "kind": _kind(r.subject),
                        "place": r.place,
                        "score": r.score,
                        "you": r.subject == subject,
                    }
                    for r in seats
                ],
                "replay": f"/tables/{table_id}/replay",
            }
        )
    return out


def chart_points(store: Store, subject: str, game: str) -> list[tuple[dt.datetime, Rating]]:
    """The subject's rating after each of its rated tables of `game`, oldest first."""
    query = (
        select(ResultRow.finished, ResultRow.mu, ResultRow.sigma)
        .where(
            ResultRow.subject == subject,
            ResultRow.game == game,
            ResultRow.rated.is_(True),
            ResultRow.mu.is_not(None),
        )
        .order_by(ResultRow.finished)
    )
    with store.engine.connect() as conn:
        rows = list(conn.execute(query))
    return [
        (_utc(f), Rating(mu, sigma))
        for f, mu, sigma in rows
        if mu is not None and sigma is not None
    ]


def leaderboard(store: Store, game: str, limit: int, people_only: bool) -> list[dict[str, Any]]:
    """The game's ratings, best shown rating first; people and bots together unless
    `people_only`."""
    shown = RatingRow.mu - CONSERVATIVE * RatingRow.sigma
    query = (
        select(RatingRow.__table__, PlayerRow.name)
        .outerjoin(PlayerRow, RatingRow.subject == "player:" + PlayerRow.id)
        .where(RatingRow.game == game, RatingRow.games > 0)
        .order_by(shown.desc(), RatingRow.subject)
        .limit(limit)
    )
    if people_only:
        query = query.where(RatingRow.subject.startswith("player:"))
    out: list[dict[str, Any]] = []
    with store.engine.connect() as conn:
        for row in conn.execute(query):
            kind = _kind(row.subject)
            if kind == "player" and row.name is None:
                continue  # a player removed from the database
            name = row.name if kind == "player" else row.subject.removeprefix("bot:")
            out.append(
                {
                    "rank": len(out) + 1,
                    "name": name,
                    "kind": kind,
                    **Rating(row.mu, row.sigma).to_json(),
                    "games": row.games,
                    "wins": row.wins,
                }
            )
    return out


def _kind(subject: str) -> str:
    return subject.partition(":")[0]


def _utc(value: dt.datetime) -> dt.datetime:
    return value if value.tzinfo is not None else value.replace(tzinfo=dt.UTC)


# -- the chart --------------------------------------------------------------------------


def chart(points: Sequence[tuple[dt.datetime, Rating]], title: str) -> dict[str, Any] | None:
    """What the player page draws as a small SVG line chart (templates/chart.html): the
    shown rating after each rated game, with the band mu +/- sigma behind it; computed on
    the server, so the page needs no chart script. None without points."""
    width, height, pad = 480, 160, 28
    if not points:
        return None
    values = [r.shown for _, r in points]
    lows = [r.interval[0] for _, r in points]
    highs = [r.interval[1] for _, r in points]
    top = max(highs)
    bottom = min(min(lows), min(values))
    span = (top - bottom) or 1.0
    n = len(points)

    def x(i: int) -> float:
        return pad + (width - 2 * pad) * (i / (n - 1) if n > 1 else 0.5)

    def y(v: float) -> float:
        return height - pad - (height - 2 * pad) * (v - bottom) / span

    band = [f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(highs)]
    band += [f"{x(i):.1f},{y(v):.1f}" for i, v in reversed(list(enumerate(lows)))]
    return {
        "title": title,
        "width": width,
        "height": height,
        "pad": pad,
        "line": " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values)),
        "band": " ".join(band),
        "dots": [
            {
                "x": f"{x(i):.1f}",
                "y": f"{y(v):.1f}",
                "text": f"{points[i][0]:%Y-%m-%d %H:%M}: {v:.1f}",
            }
            for i, v in enumerate(values)
        ],
        "top": f"{top:.1f}",
        "bottom": f"{bottom:.1f}",
        "count": n,
    }
