"""Statistics of match results: win shares with Wilson intervals, seat advantage, ratings.

A game's win share for a seat is 1/k if it is one of k tied winners, else 0. Intervals are
Wilson score intervals at 95%, with the summed shares as the success count (exact for games
without ties, a close approximation with them).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

Z95 = 1.959964


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion successes/n (0..1 each end)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def shares(result: dict[str, Any], players: int) -> list[float]:
    winners = result["winners"]
    return [1.0 / len(winners) if i in winners else 0.0 for i in range(players)]


@dataclass
class Tally:
    """Wins of one group (an agent spec, or a seat) over the games it took part in."""

    label: str
    games: int = 0
    wins: float = 0.0
    firsts: int = 0
    score: float = 0.0

    @property
    def share(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    @property
    def mean_score(self) -> float:
        return self.score / self.games if self.games else 0.0


@dataclass
class Summary:
    game: str
    players: int
    games: int
    by_agent: list[Tally]
    by_seat: list[Tally]
    lengths: list[int]

    @property
    def mean_length(self) -> float:
        return sum(self.lengths) / len(self.lengths) if self.lengths else 0.0

    @property
    def fair_share(self) -> float:
        return 1.0 / self.players if self.players else 0.0


def summarise(records: Iterable[dict[str, Any]]) -> Summary:
    """Per-agent and per-seat tallies of a match's records."""
    agents: dict[str, Tally] = {}
    seats: list[Tally] = []
    lengths: list[int] = []
    game, players, count = "", 0, 0
    for record in records:
        result = record["result"]
        specs = record["seats"]
        players = len(specs)
        game = record["game"]
        count += 1
        while len(seats) < players:
            seats.append(Tally(f"seat {len(seats)}"))
        won = shares(result, players)
        lengths.append(result["length"])
        for seat, spec in enumerate(specs):
            for tally in (agents.setdefault(spec, Tally(spec)), seats[seat]):
                tally.games += 1
                tally.wins += won[seat]
                tally.firsts += won[seat] > 0
                tally.score += result["scores"][seat]
    return Summary(game, players, count, list(agents.values()), seats, lengths)


def format_summary(summary: Summary) -> str:
    """The table `timelord simulate` prints."""
    lines = [
        f"{summary.game}: {summary.games} games, {summary.players} players, "
        f"fair share {summary.fair_share:.3f}",
        f"{'':<28}{'games':>7}{'win share':>11}{'95% interval':>18}{'mean score':>12}",
    ]
    for tally in [*summary.by_agent, *summary.by_seat]:
        lo, hi = tally.interval
        lines.append(
            f"{tally.label:<28}{tally.games:>7}{tally.share:>11.3f}"
            f"{f'[{lo:.3f}, {hi:.3f}]':>18}{tally.mean_score:>12.2f}"
        )
    lines.append(f"mean game length: {summary.mean_length:.1f} actions")
    return "\n".join(lines)


def bradley_terry(
    records: Iterable[dict[str, Any]], iterations: int = 200, prior: float = 1.0
) -> dict[str, float]:
    """Ratings on the Elo scale (400 * log10 of strength, mean 0) from finishing orders.

    Each game counts as every pair of seats played against each other: the better place wins
    the pair, equal places count half each. Strengths are the Bradley-Terry maximum-likelihood
    fit by Hunter's MM iteration, with `prior` virtual draws against an average opponent so
    that an agent that never lost still gets a finite rating. The fit does not depend on the
    order of the games, unlike sequential Elo updates.
    """
    wins: dict[str, float] = {}
    pairs: dict[tuple[str, str], float] = {}
    for record in records:
        specs: Sequence[str] = record["seats"]
        place = record["result"]["places"]
        for i in range(len(specs)):
            for j in range(i + 1, len(specs)):
                a, b = specs[i], specs[j]
                if a == b:
                    continue
                score = 1.0 if place[i] < place[j] else 0.5 if place[i] == place[j] else 0.0
                wins[a] = wins.get(a, 0.0) + score
                wins[b] = wins.get(b, 0.0) + 1.0 - score
                key = (a, b) if a < b else (b, a)
                pairs[key] = pairs.get(key, 0.0) + 1.0
    names = sorted(wins)
    if not names:
        return {}
    strength = dict.fromkeys(names, 1.0)
    for _ in range(iterations):
        new = {}
        for name in names:
            denominator = prior / (strength[name] + 1.0)
            for (a, b), n in pairs.items():
                if name in (a, b):
                    other = b if name == a else a
                    denominator += n / (strength[name] + strength[other])
            new[name] = (wins[name] + prior / 2) / denominator
        mean_log = sum(math.log(v) for v in new.values()) / len(new)
        strength = {k: v / math.exp(mean_log) for k, v in new.items()}
    return {k: 400 * math.log10(v) for k, v in strength.items()}
