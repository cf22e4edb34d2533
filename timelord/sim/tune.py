"""`python -m timelord.sim.tune`: choose ismcts settings by successive halving on our own
match harness, instead of by hand.

    python -m timelord.sim.tune card-game --base hard --set c=0.2,0.3,0.5 --set cutoff=5,10 \\
        --games 8 --players 4 --seed 1 -j 1

Every candidate is a level text (`hard/c=0.3/cutoff=10`, see `ismcts.parse_settings`): the
product of the `--set` values over `--base`. A round plays each surviving candidate in one
seat against the same opposition (`--opponent`, the table's `heuristic` in every other seat
by default), seats rotated every game, and every candidate of a round plays the *same* games
(the same match seed, so the same deals and seat order: common random numbers make the
comparison sharper than independent matches). The better half by win share over all the
games a candidate has played so far goes on; the next round doubles the games; the last one
left is the choice. Work is counted in simulations (the candidates name `sims`), never in
seconds, so a loaded machine tunes slower, not differently, and a run is reproducible from its
seed. The shares in each round's table carry the winner's curse (the best of several noisy
estimates): confirm the choice in its own match (`sim/strength.py`).
"""

from __future__ import annotations

import argparse
import itertools
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from timelord.agents.hooks import hooks_for
from timelord.agents.ismcts import parse_settings
from timelord.core import ConfigError, load
from timelord.core.options import parse_options
from timelord.sim.match import MatchSpec, Runner
from timelord.sim.stats import wilson

#: plays `games` games of one candidate from a match seed; its summed win share and the games
Play = Callable[[str, int, int], tuple[float, int]]


@dataclass
class Standing:
    """A candidate's summed win share over every game it has played in the tuning."""

    candidate: str
    wins: float = 0.0
    games: int = 0

    @property
    def share(self) -> float:
        return self.wins / self.games if self.games else 0.0


def candidates(base: str, space: Mapping[str, Sequence[str]]) -> list[str]:
    """Every level text of the product of `space`'s values over `base`, in a stable order."""
    keys = list(space)
    out = []
    for values in itertools.product(*(space[k] for k in keys)):
        out.append("/".join([base, *(f"{k}={v}" for k, v in zip(keys, values, strict=True))]))
    return out


def successive_halving(
    names: Sequence[str],
    play: Play,
    games: int,
    seed: int,
    on_round: Callable[[int, list[Standing]], None] | None = None,
) -> list[list[Standing]]:
    """Each round's standings (best first); the first of the last round is the choice.

    Round r plays `games * 2**r` games of every survivor from match seed `seed + r`, the
    same seed for all of them, and keeps the better half (rounded up) by its share over all
    its games so far, until one is left (the last entry, not played again); ties keep the
    earlier candidate, so a run is reproducible."""
    if not names:
        raise ValueError("no candidates to tune")
    if games < 1:
        raise ValueError("games must be at least 1")
    standings = {name: Standing(name) for name in dict.fromkeys(names)}
    alive = list(standings)
    rounds: list[list[Standing]] = []
    r = 0
    while True:
        for name in alive:
            wins, played = play(name, games << r, seed + r)
            standings[name].wins += wins
            standings[name].games += played
        order = sorted(alive, key=lambda n: -standings[n].share)  # stable: ties keep order
        rounds.append([Standing(n, standings[n].wins, standings[n].games) for n in order])
        if on_round is not None:
            on_round(r, rounds[-1])
        if len(order) == 1:
            return rounds
        alive = order[: (len(order) + 1) // 2]
        if len(alive) == 1:  # the choice is made: no more games for it alone
            rounds.append([Standing(alive[0], standings[alive[0]].wins, standings[alive[0]].games)])
            return rounds
        r += 1


def match_play(
    game_id: str, players: int, opponent: str, runner: Runner, options: dict[str, Any]
) -> Play:
    """A `Play` on the match harness: the candidate (as `ismcts:<level>`) in one seat,
    `opponent` in the others, seats rotated every game."""

    def play(candidate: str, games: int, seed: int) -> tuple[float, int]:
        spec = f"ismcts:{candidate}"
        if spec == opponent:
            raise ConfigError(f"the candidate {spec} is also the opposition")
        seats = [spec] + [opponent] * (players - 1)
        match = MatchSpec.build(game_id, {**options, "players": players}, seats, games, seed)
        wins = 0.0
        records = runner.run(match, lambda out: None)
        for record in records:
            winners = record["result"]["winners"]
            wins += sum(1.0 / len(winners) for i in winners if record["seats"][i] == spec)
        return wins, len(records)

    return play


def render(r: int, standings: list[Standing], keep: int) -> str:
    """One round's table: each candidate's share with its 95% interval; `keep` go on."""
    lines = [f"round {r + 1}: {len(standings)} candidates, {keep} go on"]
    for i, s in enumerate(standings):
        lo, hi = wilson(s.wins, s.games)
        mark = "*" if i < keep else " "
        lines.append(
            f" {mark} {s.candidate:<48} {s.share:6.3f} [{lo:.3f}, {hi:.3f}] over {s.games} games"
        )
    return "\n".join(lines)


def _space(items: list[str]) -> dict[str, list[str]]:
    space: dict[str, list[str]] = {}
    for item in items:
        key, sep, values = item.partition("=")
        if not sep or not values:
            raise ConfigError(f"--set wants NAME=V1,V2,...: {item!r}")
        space[key] = values.split(",")
    return space


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--base", default="hard", help="level the settings adjust (hard)")
    parser.add_argument(
        "--set", action="append", default=[], metavar="NAME=V1,V2", help="values to try"
    )
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--opponent", default="heuristic", help="every other seat (heuristic)")
    parser.add_argument("--games", type=int, default=8, help="games a candidate, first round")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--workers", "-j", type=int, default=1)
    args = parser.parse_args(argv)
    try:
        options = parse_options(args.option)
        game = load(args.game, **options, players=args.players)
        names = candidates(args.base, _space(args.set))
        for name in names:  # every candidate is a valid level before any game is played
            parse_settings(name, hooks_for(game))
    except (ConfigError, ValueError) as exc:
        print(f"tune: {exc}", file=sys.stderr)
        return 2
    runner = Runner(workers=args.workers)
    play = match_play(args.game, args.players, args.opponent, runner, options)

    def report(r: int, standings: list[Standing]) -> None:
        print(render(r, standings, (len(standings) + 1) // 2), flush=True)

    rounds = successive_halving(names, play, args.games, args.seed, report)
    print(f"chosen: ismcts:{rounds[-1][0].candidate}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
