"""Calibrating the bot levels: bot-against-bot tables played into the rating pool people
are rated in (`timelord rate`), so a person's rating reads against known levels.

Every combination of the bots (as many as the game's players) plays its share of the games
with seats rotated, on all local cores or Dask (`timelord.sim.match.Runner`); the results
are then rated in one transaction, in an order that interleaves the combinations game by
game, so the same seed gives the same ratings however the games were run.
"""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from timelord.server.ratings import Rating, RatingRow, apply_game, bot_subject
from timelord.server.storage import Store
from timelord.sim.match import MatchSpec, Runner

DEFAULT_BOTS = ("random", "heuristic", "ismcts:hard")


@dataclass(frozen=True)
class BotRating:
    spec: str
    rating: Rating
    games: int
    wins: float


def pairings(bots: Sequence[str], players: int, games: int) -> list[tuple[tuple[str, ...], int]]:
    """Each combination of `players` distinct bots and its number of games (the games
    split as evenly as they go; every combination plays at least once)."""
    if len(set(bots)) != len(bots):
        raise ValueError("each bot spec may be named once")
    if players > len(bots):
        raise ValueError(f"{players} players need at least {players} bots, not {len(bots)}")
    combos = list(itertools.combinations(bots, players))
    share, extra = divmod(max(games, len(combos)), len(combos))
    return [(combo, share + (1 if i < extra else 0)) for i, combo in enumerate(combos)]


def calibrate(
    store: Store,
    game: str,
    options: dict[str, Any],
    bots: Sequence[str],
    games: int,
    seed: int,
    runner: Runner,
) -> list[BotRating]:
    """Play `games` bot tables of `game` and rate them into the pool of `store`; the bots'
    ratings afterwards, best first."""
    plan = pairings(bots, int(options.get("players", 2)), games)
    finishes: list[list[tuple[list[str], list[int]]]] = []
    for index, (combo, count) in enumerate(plan):
        spec = MatchSpec.build(game, options, combo, count, seed + index)
        played = []
        for batch in runner.stream(spec):
            played += [(r["seats"], r["result"]["places"]) for r in batch]
        finishes.append(played)
    now = dt.datetime.now(dt.UTC)
    with store._writing(), store.engine.begin() as conn:
        for round_ in itertools.zip_longest(*finishes):
            for entry in round_:
                if entry is not None:
                    seats, finish = entry
                    apply_game(conn, game, [bot_subject(s) for s in seats], finish, now)
    return bot_ratings(store, game, bots)


def bot_ratings(store: Store, game: str, bots: Sequence[str]) -> list[BotRating]:
    from sqlalchemy import select

    subjects = {bot_subject(b): b for b in bots}
    query = select(RatingRow.__table__).where(
        RatingRow.game == game, RatingRow.subject.in_(sorted(subjects))
    )
    with store.engine.connect() as conn:
        rows = list(conn.execute(query))
    out = [BotRating(subjects[r.subject], Rating(r.mu, r.sigma), r.games, r.wins) for r in rows]
    return sorted(out, key=lambda b: -b.rating.shown)


def format_table(game: str, ratings: Sequence[BotRating]) -> str:
    """The bots' ratings as a Markdown table: mu, sigma, shown rating and mu +/- sigma."""
    lines = [
        "| game | bot | mu | sigma | rating (mu-3s) | interval (mu+-s) | games | wins |",
        "|---|---|---:|---:|---:|---|---:|---:|",
    ]
    for b in ratings:
        low, high = b.rating.interval
        lines.append(
            f"| {game} | `{b.spec}` | {b.rating.mu:.2f} | {b.rating.sigma:.2f} | "
            f"{b.rating.shown:.2f} | [{low:.2f}, {high:.2f}] | {b.games} | {b.wins:.1f} |"
        )
    return "\n".join(lines)
