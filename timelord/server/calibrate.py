"""Calibrating the bot levels: bot-against-bot tables played into the rating pool people
are rated in (`timelord rate`), so a person's rating reads against known levels.

The tables are spent where they tell most. A warm-up gives each window of neighbours in the
order the bots are named (as many as the game's players, weakest first) one rotation of the
seats; then each round plays one window of bots adjacent in the pool's current order (mu),
the window with an overlapping pair closest to coming apart: the pair whose mu gap is the
largest share of its summed sigmas while still below it (mu +/- sigma intervals that
touch). A game between levels far apart moves the model almost nowhere (the stronger always
wins, which it already expects); one between neighbours whose intervals overlap is the game
whose result it cannot predict. Pairs that are apart are left alone; levels that may be
equal get the tables last, so a budget is not sunk into a pair that will never separate
while another is one round from it. With `until_separated` the run stops once every
adjacent pair is apart (an optional stop: the last round is the one that happened to part
them, so the margin it reports is slightly optimistic; the head-to-head counts are printed
with it).

Determinism: a round's tables are one seeded match (`timelord.sim.match`), its seed taken
from the run's seed, the combination and the round; the rounds' ratings decide the next
round. So the same seed and pool give the same ratings however the games were run, on one
core, all of them or Dask, unless `time_cap` bounds the bots' thinking by the wall clock as
on the server (then the machine's speed decides how far each search gets).
"""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select

from timelord.core.seating import game_seed
from timelord.server.ratings import Rating, RatingRow, apply_game, bot_subject, initial
from timelord.server.storage import Store
from timelord.sim.match import MatchSpec, Runner
from timelord.sim.stats import wilson

DEFAULT_BOTS = ("random", "heuristic", "ismcts:hard")
#: tables a round plays at least (rounded up to whole rotations of the seats)
ROUND = 8


@dataclass(frozen=True)
class BotRating:
    spec: str
    rating: Rating
    games: int
    wins: float


@dataclass
class Matchup:
    """One combination's tables in this run: how many, each bot's summed share of first
    places, its decisions and how many of them the time cap cut short."""

    bots: tuple[str, ...]
    tables: int = 0
    wins: dict[str, float] = field(default_factory=dict)
    decisions: dict[str, int] = field(default_factory=dict)
    capped: dict[str, int] = field(default_factory=dict)


@dataclass
class Calibration:
    """What a run played and the bots' ratings afterwards (best shown rating first)."""

    ratings: list[BotRating]
    matchups: list[Matchup]
    rounds: int
    tables: int
    separated: bool


def combinations(bots: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """Every set of `players` distinct bots, in the order the bots are named."""
    if len(set(bots)) != len(bots):
        raise ValueError("each bot spec may be named once")
    if players > len(bots):
        raise ValueError(f"{players} players need at least {players} bots, not {len(bots)}")
    return list(itertools.combinations(bots, players))


def warm_up(bots: Sequence[str], players: int, games: int) -> list[tuple[tuple[str, ...], int]]:
    """The first round: each window of `players` bots neighbours in the order named
    (weakest first, as a caller expects them) one rotation of the seats, or as near as the
    budget allows (every window plays at least once). Bots far apart in that order never
    meet: their game would tell the model little, and it is the costliest (a search bot
    against a random one plays long games)."""
    windows = [tuple(bots[i : i + players]) for i in range(len(bots) - players + 1)]
    share, extra = divmod(min(games, players * len(windows)), len(windows))
    return [(w, max(1, share + (1 if i < extra else 0))) for i, w in enumerate(windows)]


def closeness(upper: Rating, lower: Rating) -> float:
    """How near two ratings are to apart: the mu gap over the summed sigmas (1 or more: the
    intervals mu +/- sigma no longer overlap)."""
    return (upper.mu - lower.mu) / (upper.sigma + lower.sigma)


def _ranked(ratings: Mapping[str, Rating], bots: Sequence[str]) -> tuple[list[str], list[float]]:
    """The bots by mu, best first, and the closeness of each adjacent pair."""
    ranked = sorted(bots, key=lambda b: (-ratings[b].mu, bots.index(b)))
    return ranked, [closeness(ratings[a], ratings[b]) for a, b in itertools.pairwise(ranked)]


def _window(ranked: list[str], start: int, players: int, bots: Sequence[str]) -> tuple[str, ...]:
    inside = set(ranked[start : start + players])
    return tuple(b for b in bots if b in inside)


def next_window(
    ratings: Mapping[str, Rating], bots: Sequence[str], players: int, margin: float = 1.0
) -> tuple[str, ...] | None:
    """The `players` bots, adjacent in the order of mu, whose table is most worth playing
    next (see the module docstring), named in `bots`' order; None once every adjacent pair
    is apart (closeness at least `margin`)."""
    ranked, near = _ranked(ratings, bots)
    best: tuple[float, int, int] | None = None
    for start in range(len(ranked) - players + 1):
        inside = [c for c in near[start : start + players - 1] if c < margin]
        # the closest overlapping pair decides; between windows sharing it, the one with
        # more pairs still overlapping
        key = (max(inside), len(inside), -start) if inside else None
        if key is not None and (best is None or key > best):
            best = key
    return None if best is None else _window(ranked, -best[2], players, bots)


def closest_window(
    ratings: Mapping[str, Rating], bots: Sequence[str], players: int
) -> tuple[str, ...]:
    """The window of adjacent bots whose closest pair is nearest to overlapping (where a
    budget is still to be spent once every pair is apart)."""
    ranked, near = _ranked(ratings, bots)
    starts = range(len(ranked) - players + 1)
    return _window(ranked, min(starts, key=lambda s: min(near[s : s + players - 1])), players, bots)


def calibrate(
    store: Store,
    game: str,
    options: dict[str, Any],
    bots: Sequence[str],
    games: int,
    seed: int,
    runner: Runner,
    *,
    time_cap: float | None = None,
    until_separated: bool = False,
    margin: float = 1.0,
    round_tables: int = ROUND,
    on_tables: Callable[[int], None] | None = None,
    on_round: Callable[[int, tuple[str, ...], list[BotRating]], None] | None = None,
) -> Calibration:
    """Play up to `games` bot tables of `game` into the pool of `store`, a warm-up and then
    rounds of the most informative window (module docstring), each bot thinking at most
    `time_cap` seconds a move (a pair counts as apart at closeness `margin`: 1 when the
    intervals mu +/- sigma part, more for a stricter stop); `on_tables` hears of every
    batch played, `on_round` of every round's window and the ratings after it."""
    players = int(options.get("players", 2))
    combos = combinations(bots, players)
    per_round = -(-max(1, round_tables) // players) * players
    matchups = {c: Matchup(c) for c in combos}
    plan = warm_up(bots, players, games)
    played = rounds = 0
    separated = False
    with runner.kept():
        while plan:
            finishes = []
            for combo, count in plan:
                spec = MatchSpec.build(
                    game,
                    options,
                    combo,
                    count,
                    game_seed(game_seed(seed, combos.index(combo)), rounds),
                    time_cap=time_cap,
                )
                finishes.append(_play(runner, spec, matchups[combo], on_tables))
            _rate(store, game, finishes)
            played += sum(count for _, count in plan)
            rounds += 1
            current = bot_ratings(store, game, bots)
            if on_round is not None:
                on_round(rounds, plan[0][0] if len(plan) == 1 else (), current)
            now = {b.spec: b.rating for b in current}
            window = next_window(now, bots, players, margin)
            separated = window is None
            if played >= games or (separated and until_separated):
                break
            if window is None:  # all apart, but the budget is to be spent
                window = closest_window(now, bots, players)
            plan = [(window, min(per_round, games - played))]
    return Calibration(
        bot_ratings(store, game, bots), list(matchups.values()), rounds, played, separated
    )


def _play(
    runner: Runner, spec: MatchSpec, matchup: Matchup, on_tables: Callable[[int], None] | None
) -> list[tuple[list[str], list[int]]]:
    played = []
    for batch in runner.stream(spec):
        for record in batch:
            seats, finish = record["seats"], record["result"]["places"]
            played.append((seats, finish))
            firsts = finish.count(1)
            matchup.tables += 1
            movers = record["result"]["movers"]
            capped = record["result"].get("capped", [0] * len(seats))
            for seat, (spec_at, place) in enumerate(zip(seats, finish, strict=True)):
                share = 1.0 / firsts if place == 1 else 0.0
                matchup.wins[spec_at] = matchup.wins.get(spec_at, 0.0) + share
                moved = movers.count(seat)
                matchup.decisions[spec_at] = matchup.decisions.get(spec_at, 0) + moved
                matchup.capped[spec_at] = matchup.capped.get(spec_at, 0) + capped[seat]
        if on_tables is not None:
            on_tables(len(batch))
    return played


def _rate(store: Store, game: str, finishes: list[list[tuple[list[str], list[int]]]]) -> None:
    """Rate a round's games in one transaction, the combinations interleaved game by game."""
    now = dt.datetime.now(dt.UTC)
    with store._writing(), store.engine.begin() as conn:
        for round_ in itertools.zip_longest(*finishes):
            for entry in round_:
                if entry is not None:
                    seats, finish = entry
                    apply_game(conn, game, [bot_subject(s) for s in seats], finish, now)


def bot_ratings(store: Store, game: str, bots: Sequence[str]) -> list[BotRating]:
    """The bots' ratings in the pool (a bot not yet rated at its initial rating), best
    shown rating first."""
    subjects = {bot_subject(b): b for b in bots}
    query = select(RatingRow.__table__).where(
        RatingRow.game == game, RatingRow.subject.in_(sorted(subjects))
    )
    with store.engine.connect() as conn:
        rows = {r.subject: r for r in conn.execute(query)}
    fresh = initial()
    out = [
        BotRating(b, Rating(rows[s].mu, rows[s].sigma), rows[s].games, rows[s].wins)
        if s in rows
        else BotRating(b, fresh, 0, 0.0)
        for s, b in subjects.items()
    ]
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


def format_capped(matchups: Sequence[Matchup]) -> str:
    """Per bot, the share of its decisions (those with a choice or not) the time cap cut
    short in this run; empty when it cut none."""
    decisions: dict[str, int] = {}
    capped: dict[str, int] = {}
    for m in matchups:
        for b in m.bots:
            decisions[b] = decisions.get(b, 0) + m.decisions.get(b, 0)
            capped[b] = capped.get(b, 0) + m.capped.get(b, 0)
    cut = [f"`{b}` {capped[b]} of {decisions[b]}" for b in decisions if capped[b]]
    return f"decisions the time cap cut short: {', '.join(cut)}" if cut else ""


def format_matchups(matchups: Sequence[Matchup]) -> str:
    """This run's tables per combination with each bot's share of first places (ties
    split) and its 95% Wilson interval."""
    lines = ["| bots | tables | first-place shares [95% interval] |", "|---|---:|---|"]
    for m in matchups:
        if not m.tables:
            continue
        parts = []
        for b in m.bots:
            won = m.wins.get(b, 0.0)
            low, high = wilson(won, m.tables)
            parts.append(f"`{b}` {won / m.tables:.3f} [{low:.3f}, {high:.3f}]")
        shares = ", ".join(parts)
        lines.append(f"| {' v '.join(m.bots)} | {m.tables} | {shares} |")
    return "\n".join(lines)
