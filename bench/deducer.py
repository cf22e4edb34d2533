"""Time per update of the Clue deducer, on knowledge from simulated games.

Each game deals the real Clue deck (6 suspects, 6 weapons, 9 locations) at random, then plays
rumours in turn order: the asker names one suspect, weapon and location, mostly among cards it
has not yet crossed off, and the players after it answer as the rules say (the first who holds
one shows one). After every rumour, seat 0's knowledge grows by what seat 0 saw, and one
`deduce` call is timed. Prints p50 / p95 / max per player count; the target is p95 <= 10 ms
for 6 players.

A second table times the first call a search pays per view: building the exact uniform
`DealSampler` for that knowledge (what `sample_state` does once per view; every later
sample of the same view only draws, timed in the last columns). The very first `deduce` of
the process is reported on its own line (it includes nothing but a cold interpreter).

    python bench/deducer.py [--games N] [--rumours R] [--players 6] [--seed S]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from timelord.core import Rng
from timelord.games.clue import deduction
from timelord.games.clue.deduction import (
    Knowledge,
    NoneOf,
    NotEnvelope,
    OneOf,
    deduce,
)

CATEGORIES = (tuple(range(6)), tuple(range(6, 12)), tuple(range(12, 21)))


def deal(rng: Rng, players: int) -> tuple[tuple[int, ...], dict[int, int], frozenset[int], int]:
    """Envelope, holder of each dealt card (players = aside), public cards, aside size."""
    env = tuple(rng.choice(cat) for cat in CATEGORIES)
    rest = [c for cat in CATEGORIES for c in cat if c not in env]
    rng.shuffle(rest)
    where: dict[int, int] = {}
    if players == 2:
        aside, rest = rest[:4], rest[4:]
        where.update(dict.fromkeys(aside, players))
    per = len(rest) // players
    public = frozenset(rest[per * players :])
    for i, c in enumerate(rest[: per * players]):
        where[c] = i // per
    return env, where, public, per


def play(rng: Rng, players: int, rumours: int, seat: int = 0) -> list[Knowledge]:
    """Seat `seat`'s knowledge after each rumour of one simulated game."""
    env, where, public, per = deal(rng, players)
    seen: list[set[int]] = [
        {c for c, h in where.items() if h == p} | set(public) for p in range(players)
    ]
    known: dict[int, int] = {}
    events: list[NoneOf | OneOf | NotEnvelope] = []
    out = []
    for r in range(rumours):
        asker = r % players
        triple = []
        for cat in CATEGORIES:
            open_ = [c for c in cat if c not in seen[asker]]
            triple.append(rng.choice(open_) if open_ and rng.below(5) else rng.choice(cat))
        t = tuple(triple)
        shown = None
        for step in range(1, players):
            p = (asker + step) % players
            held = [c for c in t if where.get(c) == p]
            if not held:
                events.append(NoneOf(p, t))
                continue
            shown = rng.choice(held)
            seen[asker].add(shown)
            if asker == seat:
                known[shown] = p
            elif p != seat:
                events.append(OneOf(p, t))
            break
        if shown is None and players == 2:
            aside = [c for c, h in where.items() if h == players and c not in seen[asker]]
            if aside:
                c = rng.choice(aside)
                seen[asker].add(c)
                if asker == seat:
                    known[c] = players
        if shown is None and rng.below(3) == 0 and sorted(t) != sorted(env):
            events.append(NotEnvelope(t))  # a hasty, wrong accusation
        out.append(
            Knowledge(
                categories=CATEGORIES,
                players=players,
                seat=seat,
                hand_sizes=(per,) * players,
                own_hand=frozenset(c for c, h in where.items() if h == seat),
                public=public,
                known=dict(known),
                events=tuple(events),
            )
        )
    return out


def measure(players: int, games: int, rumours: int, seed: int) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU seconds of each `deduce` call over simulated games."""
    rng = Rng(seed)
    wall: list[float] = []
    cpu: list[float] = []
    for _ in range(games):
        for k in play(rng, players, rumours):
            deduction._CACHE.clear()  # time the work, not the cache of repeated questions
            w0, c0 = time.perf_counter(), time.process_time()
            d = deduce(k)
            cpu.append(time.process_time() - c0)
            wall.append(time.perf_counter() - w0)
            assert d.worlds
    return wall, cpu


def measure_sampler(
    players: int, games: int, rumours: int, seed: int
) -> tuple[list[float], list[float]]:
    """CPU seconds to build a `DealSampler` for each update's knowledge, and of one draw."""
    rng = Rng(seed)
    build: list[float] = []
    draw: list[float] = []
    for _ in range(games):
        for k in play(rng, players, rumours):
            deduction._CACHE.clear()
            c0 = time.process_time()
            sampler = deduction.DealSampler(k)
            c1 = time.process_time()
            sampler.draw(rng)
            c2 = time.process_time()
            build.append(c1 - c0)
            draw.append(c2 - c1)
    return build, draw


def _stats(ts: list[float]) -> tuple[float, float, float]:
    s = sorted(ts)
    return statistics.median(s) * 1e3, s[min(len(s) - 1, int(0.95 * len(s)))] * 1e3, s[-1] * 1e3


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--rumours", type=int, default=40)
    ap.add_argument("--players", type=int, nargs="*", default=[6, 5, 4, 3, 2])
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    target = 10.0
    cold = play(Rng(args.seed + 999), max(args.players), args.rumours)[-1]
    c0 = time.process_time()
    deduce(cold)
    print(f"first deduce() of this process: {(time.process_time() - c0) * 1e3:.2f} ms cpu")
    print(f"deduce() per update, ms; target p95 <= {target:g} ms at 6 players")
    print("players  calls | wall p50   p95    max | cpu p50   p95    max | p95/target")
    for players in args.players:
        wall, cpu = measure(players, args.games, args.rumours, args.seed)
        w50, w95, wmax = _stats(wall)
        c50, c95, cmax = _stats(cpu)
        print(
            f"{players:7d} {len(wall):6d} | {w50:8.2f} {w95:6.2f} {wmax:6.2f} |"
            f" {c50:7.2f} {c95:6.2f} {cmax:6.2f} | {w95 / target:5.2f}"
        )
    print("(wall includes time lost to other processes; cpu is this process's own time)")
    print()
    print("first call per view (search): DealSampler set-up, then one draw; cpu ms")
    print("players  calls | set-up p50   p95    max | draw p50   p95")
    for players in args.players:
        build, draw = measure_sampler(players, args.games, args.rumours, args.seed)
        b50, b95, bmax = _stats(build)
        d50, d95, _ = _stats(draw)
        print(
            f"{players:7d} {len(build):6d} | {b50:10.2f} {b95:6.2f} {bmax:6.2f} |"
            f" {d50:8.3f} {d95:6.3f}"
        )


if __name__ == "__main__":
    main()
