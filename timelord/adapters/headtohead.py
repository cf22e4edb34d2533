"""Head to head: OpenSpiel's own ISMCTS on the adapter against timelord's `ismcts:hard`.

    python -m timelord.adapters.headtohead [--games N] [--sims S] [--game ID ...]
                                           [--workers K] [--write]

Four players, two seats each, seats rotated every game (`timelord.sim.match.arrangement`);
game `i` is dealt with `game_seed(seed, i)`. Both bots get the same number of simulations per
move: timelord's hard level with `sims` set to S (default: the hard level's own), and
OpenSpiel's `ISMCTSBot` (UCT, c = 2, final policy = most visits, a fresh world sample per
simulation through `resample_from_infostate`, random-rollout evaluator with one rollout: the
setup of OpenSpiel's examples). Every random choice of both bots flows from the game's seed,
so game `i` plays out the same on every run and machine.

Each finished game is appended to a results file (JSON lines, `--results`), and a run plays
only the games of its match (game, seed, sims) that the file lacks: runs add up, and a run
that is stopped keeps its games. The table is made from the file. A side's win share sums the
returns of its two seats (a tie for first gives 1/k to each of the k), so the fair share is
0.5; intervals are 95% Wilson. `--write` puts the table into docs/strength.md.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from timelord.adapters.openspiel import TimelordState, short_name
from timelord.agents import make_agent
from timelord.agents.ismcts import IsmctsAgent
from timelord.core import GAMES, CorruptRecord, load
from timelord.core.record import loads
from timelord.sim.match import arrangement, game_seed, seat_rngs
from timelord.sim.stats import wilson
from timelord.sim.strength import write_section as marked

PLAYERS = 4
OPENSPIEL, TIMELORD = "openspiel-ismcts", "timelord-ismcts"
BEGIN, END = "<!-- adapters:begin -->", "<!-- adapters:end -->"
RESULTS = Path("docs/headtohead.jsonl")


class SeededISMCTSBot(ismcts.ISMCTSBot):
    """OpenSpiel's ISMCTSBot, unchanged but for its world samples: the stock bot hands
    `resample_from_infostate` a sampler seeded from the operating system, so no two runs
    agree; this one draws them from a sampler seeded by the game."""

    def __init__(self, *args: Any, sampler_seed: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._sampler = pyspiel.UniformProbabilitySampler(sampler_seed, 0.0, 1.0)

    def resample_from_infostate(self, state: pyspiel.State) -> pyspiel.State:
        return state.resample_from_infostate(state.current_player(), self._sampler)


@dataclass(frozen=True)
class Result:
    """One finished game, a line of the results file."""

    game: str
    seed: int
    sims: int
    index: int
    seats: list[str]
    returns: list[float]
    moves: int
    seconds: float

    def share(self, side: str) -> float:
        return sum(r for s, r in enumerate(self.returns) if self.seats[s] == side)

    @classmethod
    def from_json(cls, data: Any) -> Result:
        try:
            result = cls(**data)
        except TypeError as exc:
            raise CorruptRecord(f"not a head-to-head result: {exc}") from None
        counts = (result.sims, result.index, result.moves)
        ok = (
            result.game in GAMES
            and type(result.seed) is int
            and all(type(n) is int and n >= 0 for n in counts)
            and type(result.seconds) in (int, float)
            and isinstance(result.seats, list)
            and isinstance(result.returns, list)
            and len(result.seats) == len(result.returns) == PLAYERS
            and set(result.seats) <= {OPENSPIEL, TIMELORD}
            and all(type(r) in (int, float) and 0 <= r <= 1 for r in result.returns)
        )
        if not ok:
            raise CorruptRecord(f"not a head-to-head result: {str(data)[:200]}")
        return result


def hard_sims(game_id: str) -> int:
    agent = make_agent("ismcts:hard", load(game_id, players=PLAYERS))
    assert isinstance(agent, IsmctsAgent)
    return agent.settings.sims


def play(game_id: str, index: int, sims: int, seed: int) -> Result:
    """Game `index` of the match: the same result on every run."""
    t0 = time.perf_counter()
    os_game = pyspiel.load_game(short_name(game_id), {"players": PLAYERS})
    state: TimelordState = os_game.new_initial_state()
    gseed = game_seed(seed, index)
    state.reseed(gseed)
    seats = arrangement((OPENSPIEL, TIMELORD, OPENSPIEL, TIMELORD), index, True)
    tl_game = os_game.tl_game
    rngs = seat_rngs(gseed, PLAYERS)
    rs = np.random.RandomState(gseed % (1 << 32))
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    bots = {
        s: SeededISMCTSBot(
            os_game, evaluator, 2.0, sims, random_state=rs, sampler_seed=rngs[s].next64() >> 33
        )
        for s in range(PLAYERS)
        if seats[s] == OPENSPIEL
    }
    agents = {
        s: make_agent(f"ismcts:hard/sims={sims}", tl_game)
        for s in range(PLAYERS)
        if seats[s] == TIMELORD
    }
    moves = 0
    while not state.is_terminal():
        seat = state.current_player()
        if seat in bots:
            state.apply_action(int(bots[seat].step(state)))
        else:
            tl = state.timelord_state
            action = agents[seat].act(tl.view(seat), tl.legal_actions(), rngs[seat])
            state.apply_action(os_game.index.index(action))
        moves += 1
    returns = [float(r) for r in state.returns()]
    return Result(game_id, seed, sims, index, seats, returns, moves, time.perf_counter() - t0)


def read_results(path: Path) -> list[Result]:
    """The results in `path` (none if it does not exist); `CorruptRecord` names a bad line."""
    if not path.exists():
        return []
    out = []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if line.strip():
            try:
                out.append(Result.from_json(loads(line)))
            except CorruptRecord as exc:
                raise CorruptRecord(f"{path}:{n}: {exc}") from None
    return out


def missing(results: list[Result], game_id: str, games: int, sims: int, seed: int) -> list[int]:
    have = {r.index for r in results if (r.game, r.sims, r.seed) == (game_id, sims, seed)}
    return [i for i in range(games) if i not in have]


def play_all(jobs: list[tuple[str, int, int, int]], workers: int) -> Iterator[Result]:
    """Each job's result as it finishes, on `workers` processes (1: in this one)."""
    if workers <= 1:
        for job in jobs:
            yield play(*job)
        return
    with ProcessPoolExecutor(workers) as pool:
        futures = [pool.submit(play, *job) for job in jobs]
        for future in as_completed(futures):
            yield future.result()


@dataclass(frozen=True)
class Row:
    game: str
    sims: int
    games: int
    share: dict[str, float]
    length: float
    minutes: float

    def cells(self) -> list[str]:
        out = [self.game, str(self.games), str(self.sims)]
        for side in (OPENSPIEL, TIMELORD):
            lo, hi = wilson(self.share[side], self.games)
            out += [f"{self.share[side] / self.games:.3f}", f"[{lo:.3f}, {hi:.3f}]"]
        out += [f"{self.length:.0f}", f"{self.minutes:.2f} min"]
        return out


def rows(results: list[Result], seed: int) -> list[Row]:
    """One row per (game, sims) of the match seeded `seed`, in the registry's order."""
    out = []
    for game_id in GAMES:
        for sims in sorted({r.sims for r in results if r.game == game_id and r.seed == seed}):
            mine = [r for r in results if (r.game, r.sims, r.seed) == (game_id, sims, seed)]
            n = len(mine)
            share = {side: sum(r.share(side) for r in mine) for side in (OPENSPIEL, TIMELORD)}
            length = sum(r.moves for r in mine) / n
            minutes = sum(r.seconds for r in mine) / n / 60
            out.append(Row(game_id, sims, n, share, length, minutes))
    return out


def table(results: list[Result], seed: int, results_path: Path) -> str:
    head = [
        "game", "games", "sims/move", "OpenSpiel ISMCTS", "95% interval",
        "timelord ismcts:hard", "95% interval", "mean length", "time per game",
    ]  # fmt: skip
    lines = [
        "## Adapters: OpenSpiel's ISMCTS against timelord's",
        "",
        "Written by `python -m timelord.adapters.headtohead --write` from the games in "
        f"`{results_path.as_posix()}` (one line per game; a run adds the games its match "
        "lacks). Four players, two seats each, seats rotated every game, match seed "
        f"{seed}; both bots get the same simulations per move (timelord's hard level with its "
        "`sims` set to that number; OpenSpiel's `ISMCTSBot` with UCT c=2, one random rollout "
        "per simulation, a fresh world per simulation from `resample_from_infostate`). Every "
        "random choice flows from the game's seed, so each game replays exactly. A side's "
        "win share sums its two seats' returns (ties split), so the fair share is 0.5 and the "
        "two shares add up to less than 1 by the games nobody won; intervals are 95% Wilson. "
        "Time per game is one core's. Both searches are ISMCTS; what differs is what a "
        "simulation does: OpenSpiel's plays a uniformly random game to its end, timelord's "
        "follows the game's heuristic for a few moves and then evaluates the position (and "
        "a Clue seat certain of the envelope goes to accuse without searching), so the gap "
        "measures those game-specific pieces, not the tree search itself.",
        "",
        "| " + " | ".join(head) + " |",
        "|" + "---|" * len(head),
    ]
    lines += ["| " + " | ".join(r.cells()) + " |" for r in rows(results, seed)]
    return "\n".join(lines) + "\n"


def write_section(path: Path, text: str) -> None:
    """Replace (or append) the adapters section of `path`, between its markers."""
    marked(path, text, BEGIN, END)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="games per game id (200)")
    ap.add_argument("--sims", type=int, default=0, help="simulations per move (hard level's)")
    ap.add_argument("--game", action="append", choices=list(GAMES), help="only these games")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--workers", type=int, default=1, help="processes playing games (1)")
    ap.add_argument("--results", type=Path, default=RESULTS, help=f"results file ({RESULTS})")
    ap.add_argument("--write", action="store_true", help="write docs/strength.md's section")
    ap.add_argument("--doc", type=Path, default=Path("docs/strength.md"))
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    if args.games < 0 or args.workers < 1 or args.sims < 0:
        ap.error("--games and --sims must be at least 0, --workers at least 1")
    if args.sims == 1:  # its first simulation only makes the root, which it then reads
        ap.error("OpenSpiel's ISMCTSBot needs --sims of at least 2")
    try:
        results = read_results(args.results)
    except CorruptRecord as exc:
        ap.exit(2, f"headtohead: {exc}\n")
    jobs = []
    for game_id in args.game or list(GAMES):
        sims = args.sims or hard_sims(game_id)
        jobs += [
            (game_id, i, sims, args.seed)
            for i in missing(results, game_id, args.games, sims, args.seed)
        ]
    jobs.sort(key=lambda job: job[1])  # game 0 of every game id first: a stopped run is even
    args.results.parent.mkdir(parents=True, exist_ok=True)
    with args.results.open("a") as out:
        for result in play_all(jobs, args.workers):
            out.write(json.dumps(asdict(result), separators=(",", ":")) + "\n")
            out.flush()
            results.append(result)
            if not args.quiet:
                got = {side: result.share(side) for side in (OPENSPIEL, TIMELORD)}
                print(
                    f"  {result.game} game {result.index}: {got} in {result.moves} moves, "
                    f"{result.seconds:.0f} s",
                    flush=True,
                )
            if args.write:  # after every game, so the doc is never behind the file
                write_section(args.doc, table(results, args.seed, args.results))
    text = table(results, args.seed, args.results)
    if args.write:
        write_section(args.doc, text)
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
