"""Statistics of match results: win shares with Wilson intervals, seat advantage, ratings.

A game's win share for a seat is 1/k if it is one of k tied winners, else 0. Intervals are
Wilson score intervals at 95%, with the summed shares as the success count (exact for games
without ties, a close approximation with them).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

Z95 = 1.959964


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion successes/n (0..1 each end)."""
    if n <= 0:
        return (0.0, 1.0)
    p = min(1.0, max(0.0, successes / n))
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    # rounding can put a bound a hair on the wrong side of p (0.9999999 for 10 wins in 10):
    # the interval always holds p, within [0, 1]
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


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
    #: the seat that moved first in each game (drawn in some games), whichever seat it was
    first: Tally = field(default_factory=lambda: Tally("first player"))
    #: games nobody won (a round limit, everyone out) and games several seats won together
    no_winner: int = 0
    shared: int = 0
    #: game lengths in the game's own turns and rounds, where its view counts them
    turns: list[int] = field(default_factory=list)
    rounds: list[int] = field(default_factory=list)
    #: every seat's final score, and per decided game the best winner's score less the best
    #: other seat's score
    scores: list[float] = field(default_factory=list)
    margins: list[float] = field(default_factory=list)
    #: games each agent spec played in each seat
    placements: dict[tuple[str, int], int] = field(default_factory=dict)

    @property
    def mean_length(self) -> float:
        return mean(self.lengths)

    @property
    def fair_share(self) -> float:
        """What any seat would win if none had an edge: an even part of the games that had a
        winner (games nobody won count as a loss for everyone, so 1/players would make every
        seat and the first player look weak)."""
        if not self.players or not self.games:
            return 0.0
        return (self.games - self.no_winner) / self.games / self.players

    @property
    def mixed(self) -> bool:
        """Whether different agents played, so seat figures also measure the agents."""
        return len(self.by_agent) > 1

    @property
    def balanced(self) -> bool:
        """Whether every agent sat in every seat equally often (rotation over a multiple of
        the player count), so agent strength at least cancels out of the seat figures."""
        counts = {
            self.placements.get((t.label, seat), 0)
            for t in self.by_agent
            for seat in range(self.players)
        }
        return len(counts) == 1

    def seat_note(self) -> str:
        """A warning when a mixed-agent match can hide (or fake) seat effects; '' if none."""
        if not self.mixed:
            return ""
        names = ", ".join(t.label for t in self.by_agent)
        how = (
            "every agent sat in every seat equally often, so agent strength cancels out of "
            "the seat figures on average, but a strong agent's wins still blur a seat effect"
            if self.balanced
            else "the agents did not sit in every seat equally often, so the seat figures "
            "partly measure which agent sat there"
        )
        return (
            f"Mixed agents ({names}): {how}. To measure seat and first-player effects, play "
            "the same agent in every seat."
        )


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def spread(values: Sequence[float]) -> tuple[float, float, float, float]:
    """(mean, standard deviation, least, greatest) of `values`; zeros when empty."""
    if not values:
        return (0.0, 0.0, 0.0, 0.0)
    centre = mean(values)
    sd = math.sqrt(sum((v - centre) ** 2 for v in values) / len(values))
    return (centre, sd, min(values), max(values))


def margin(scores: Sequence[float], winners: Sequence[int]) -> float | None:
    """The best winner's score less the best other seat's; None without a winner or a loser."""
    won = set(winners)
    losers = [s for i, s in enumerate(scores) if i not in won]
    if not won or not losers:
        return None
    return max(scores[i] for i in won) - max(losers)


def summarise(records: Iterable[dict[str, Any]]) -> Summary:
    """Per-agent and per-seat tallies of a match's records (read once, in one pass)."""
    agents: dict[str, Tally] = {}
    seats: list[Tally] = []
    summary = Summary("", 0, 0, [], seats, [])
    for record in records:
        result = record["result"]
        specs = record["seats"]
        players = len(specs)
        summary.players = players
        summary.game = record["game"]
        summary.games += 1
        while len(seats) < players:
            seats.append(Tally(f"seat {len(seats)}"))
        won = shares(result, players)
        winners = result["winners"]
        summary.lengths.append(result["length"])
        for name in ("turns", "rounds"):
            if isinstance(result.get(name), int):
                getattr(summary, name).append(result[name])
        summary.no_winner += not winners
        summary.shared += len(winners) > 1
        scores = result["scores"]
        summary.scores.extend(scores)
        gap = margin(scores, winners)
        if gap is not None:
            summary.margins.append(gap)
        first = result.get("first")
        if first is None and result.get("movers"):
            first = result["movers"][0]  # results written before "first" was recorded
        if isinstance(first, int) and 0 <= first < players:
            summary.first.games += 1
            summary.first.wins += won[first]
            summary.first.firsts += won[first] > 0
            summary.first.score += scores[first]
        for seat, spec in enumerate(specs):
            summary.placements[spec, seat] = summary.placements.get((spec, seat), 0) + 1
            for tally in (agents.setdefault(spec, Tally(spec)), seats[seat]):
                tally.games += 1
                tally.wins += won[seat]
                tally.firsts += won[seat] > 0
                tally.score += scores[seat]
    summary.by_agent = list(agents.values())
    return summary


def format_summary(summary: Summary) -> str:
    """The table `timelord simulate` prints."""
    lines = [
        f"{summary.game}: {summary.games} games, {summary.players} players, "
        f"fair share {summary.fair_share:.3f}",
        f"{'':<28}{'games':>7}{'win share':>11}{'95% interval':>18}{'mean score':>12}",
    ]
    for tally in [*summary.by_agent, *summary.by_seat, summary.first]:
        lo, hi = tally.interval
        lines.append(
            f"{tally.label:<28}{tally.games:>7}{tally.share:>11.3f}"
            f"{f'[{lo:.3f}, {hi:.3f}]':>18}{tally.mean_score:>12.2f}"
        )
    lines.append(
        f"games without a winner: {summary.no_winner}; won by several seats together: "
        f"{summary.shared}"
    )
    lines.append(f"mean game length: {length_text(summary)}")
    note = summary.seat_note()
    if note:
        lines.append(f"note: {note}")
    return "\n".join(lines)


def length_text(summary: Summary) -> str:
    """Mean length in actions, and in the game's turns and rounds where it counts them."""
    parts = [f"{summary.mean_length:.1f} actions"]
    for name in ("turns", "rounds"):
        values = getattr(summary, name)
        if values:
            parts.append(f"{mean(values):.1f} {name}")
    return ", ".join(parts)


@dataclass
class CardTally:
    """One card design (all its copies) over a match: how often it was played, and how the
    seats that played it fared."""

    card: str
    plays: int = 0
    #: games in which anyone played it, and (game, seat) pairs that played it
    games: int = 0
    seat_games: int = 0
    wins: float = 0.0
    score: float = 0.0
    #: sum of squared scores of those seats, for their spread
    score2: float = 0.0
    #: margins of the games those seats won (see `margin`), summed, and how many
    margin: float = 0.0
    won_games: int = 0

    @property
    def share(self) -> float:
        """Win share of the seats that played it at least once in a game."""
        return self.wins / self.seat_games if self.seat_games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.seat_games)

    @property
    def mean_score(self) -> float:
        return self.score / self.seat_games if self.seat_games else 0.0

    @property
    def score_sd(self) -> float:
        """Standard deviation of the final scores of the seats that played it."""
        if not self.seat_games:
            return 0.0
        return math.sqrt(max(0.0, self.score2 / self.seat_games - self.mean_score**2))

    @property
    def mean_margin(self) -> float | None:
        """Mean winning margin of the games its players won; None if they won none."""
        return self.margin / self.won_games if self.won_games else None


def card_stats(
    records: Iterable[dict[str, Any]], card_of: Callable[[dict[str, Any]], str | None]
) -> list[CardTally]:
    """Per card design, most played first. `card_of(action JSON)` names the card an action
    plays (the game's `action_card`), None for moves that play none ("end turn", "finish"),
    which are not counted. Who made each action comes from the result's `movers`."""
    cards: dict[str, CardTally] = {}
    names: dict[str, str | None] = {}
    for record in records:
        result = record["result"]
        players = len(record["seats"])
        won = shares(result, players)
        scores = result["scores"]
        gap = margin(scores, result["winners"])
        played: dict[str, set[int]] = {}
        for data, mover in zip(record["actions"], result.get("movers", []), strict=False):
            key = json.dumps(data, sort_keys=True)
            if key not in names:
                names[key] = card_of(data)
            name = names[key]
            if name is None:
                continue
            cards.setdefault(name, CardTally(name)).plays += 1
            played.setdefault(name, set()).add(mover)
        for name, movers in played.items():
            tally = cards[name]
            tally.games += 1
            for seat in movers:
                if 0 <= seat < players:
                    tally.seat_games += 1
                    tally.wins += won[seat]
                    tally.score += scores[seat]
                    tally.score2 += scores[seat] ** 2
                    if won[seat] and gap is not None:
                        tally.margin += gap
                        tally.won_games += 1
    return sorted(cards.values(), key=lambda c: (-c.plays, c.card))


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
