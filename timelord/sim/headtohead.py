"""Head to head: OpenSpiel's own ISMCTS on the adapter against timelord's ISMCTS, fairly.

    python -m timelord.sim.headtohead [--setup NAME] [--players N] [--games N]
                                           [--sims S] [--tl-sims T | --equal-cpu]
                                           [--game ID ...] [--workers K] [--write]

OpenSpiel's side is its `ISMCTSBot` (UCT, final policy = most visits, a fresh world sample
per simulation through `resample_from_infostate`) playing through the pyspiel adapter;
timelord's side is `IsmctsAgent` in its own loop. What each side's simulation does is the
setup's (`SETUPS`):

- `parity`: both on uniformly random rollouts to the end of the game, the same UCT constant
  (`--c`), the same simulations; timelord's agent without its game hooks (no heuristic
  rollout, evaluation, prior or settled move). What is left is the two tree searches.
- `same-rollouts`: both on the hard level's rollout and evaluation (OpenSpiel's through
  `TimelordRollouts`) and its UCT constant, the same simulations; timelord's agent without
  its prior, settled moves, depth cap or paired search. What is left is the two tree
  searches again.
- `evaluator`: timelord's `ismcts:hard` against OpenSpiel's bot handed timelord's rollout
  through an OpenSpiel `Evaluator` (`TimelordRollouts`: the hard level's rollout policy for
  its cutoff, then the game's evaluation) and the hard level's UCT constant. Rollouts are
  the same; what differs is the search (timelord's prior, its settled moves, its flat
  search where the level says depth=1, its paired search where it says paired).
- `hard-vs-random`: the first published setup, timelord's `ismcts:hard` against OpenSpiel's
  bot on random rollouts with c = 2; it measures timelord's game pieces, not the search.

Both sides get `--sims` simulations a move unless `--tl-sims` gives timelord another count;
`--equal-cpu` sets timelord's count per game so its CPU per move matches OpenSpiel's, from
the ratio of the two sides' CPU per move in the file's equal-simulation games of that setup
(run those first). Each side's CPU time per move (`time.process_time`, so other jobs on the
machine do not count) is recorded with every game, so a table shows what each side spent.

Seats alternate OpenSpiel, timelord (two or four players) and rotate every game
(`timelord.core.seating.arrangement`); game `i` is dealt with `game_seed(seed, i)` and every
random choice of both sides flows from it, so game `i` plays out the same on every run.
Each finished game is appended to a results file (JSON lines, `--results`), and a run plays
only the games of its match that the file lacks: runs add up, and a run that is stopped
keeps its games. A side's win share sums the returns of its seats (a tie for first gives
1/k to each of the k), so the fair share is 0.5; intervals are 95% Wilson. `--write` puts
the table into docs/strength.md.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from timelord.adapters.openspiel import TimelordState, short_name
from timelord.agents import make_agent
from timelord.agents.base import Agent
from timelord.agents.hooks import hooks_for
from timelord.agents.ismcts import IsmctsAgent, outcome, parse_settings, play_out
from timelord.core import GAMES, CorruptRecord, Game, Rng
from timelord.core.record import loads
from timelord.core.seating import arrangement, game_seed, seat_rngs
from timelord.sim.stats import wilson
from timelord.sim.strength import write_section as marked

OPENSPIEL, TIMELORD = "openspiel-ismcts", "timelord-ismcts"
SIDES = (OPENSPIEL, TIMELORD)
PLAYER_COUNTS = (2, 4)
BEGIN, END = "<!-- adapters:begin -->", "<!-- adapters:end -->"
RESULTS = Path("results/headtohead.jsonl")
#: the UCT constant of the parity setup (timelord's generic one; `--c` changes it)
PARITY_C = 0.7
#: OpenSpiel's examples' UCT constant, which the first published setup used
LEGACY_C = 2.0


class SeededISMCTSBot(ismcts.ISMCTSBot):
    """OpenSpiel's ISMCTSBot, unchanged but for its world samples: the stock bot hands
    `resample_from_infostate` a sampler seeded from the operating system, so no two runs
    agree; this one draws them from a sampler seeded by the game."""

    def __init__(self, *args: Any, sampler_seed: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._sampler = pyspiel.UniformProbabilitySampler(sampler_seed, 0.0, 1.0)

    def resample_from_infostate(self, state: pyspiel.State) -> pyspiel.State:
        return state.resample_from_infostate(state.current_player(), self._sampler)


class TimelordRollouts(mcts.Evaluator):
    """timelord's rollout as an OpenSpiel evaluator: from the state's timelord position,
    `settings.cutoff` moves of the level's rollout policy, then valued as timelord's search
    values a simulation (`ismcts.outcome`: the game's evaluation, or the win share blended
    with the score at the end). The prior is uniform (UCT does not read it)."""

    def __init__(self, agent: IsmctsAgent, rng: Rng) -> None:
        self.policy = agent.policy
        self.evaluation = agent.hooks.evaluate
        cutoff = agent.settings.cutoff
        self.cutoff = cutoff if cutoff is not None else 1 << 62
        self.rng = rng

    def evaluate(self, state: TimelordState) -> np.ndarray:
        end = play_out(state.timelord_state, self.policy, self.cutoff, self.rng)
        return np.array(outcome(end, self.evaluation))

    def prior(self, state: TimelordState) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


@dataclass(frozen=True)
class Side:
    """How one setup builds each side for a game: timelord's agent, OpenSpiel's bot."""

    describe: str
    timelord: Callable[[Game, int], IsmctsAgent]
    #: (timelord game) -> (OpenSpiel's UCT constant, the agent whose rollout and evaluation
    #: its evaluator lends, or None for OpenSpiel's own random rollouts)
    openspiel: Callable[[Game], tuple[float, IsmctsAgent | None]]


def _parity_agent(c: float) -> Callable[[Game, int], IsmctsAgent]:
    def build(game: Game, sims: int) -> IsmctsAgent:
        hooks = hooks_for(game)
        level = f"sims={sims}/rollout=random/cutoff=none/c={c:g}/prior=0/depth=none"
        bare = replace(hooks, settled=None, evaluate=None, rollout=None)
        return IsmctsAgent(game, parse_settings(level, bare), bare)

    return build


def _searcher(game: Game, sims: int) -> IsmctsAgent:
    """The hard level's rollout, evaluation and c, but a plain tree search: no prior towards
    the policy's move, no settled moves, no depth cap, no paired search (Episodes' hard)."""
    hooks = replace(hooks_for(game), settled=None)
    level = f"hard/sims={sims}/prior=0/depth=none/paired=0"
    return IsmctsAgent(game, parse_settings(level, hooks), hooks)


def _hard(game: Game, sims: int) -> IsmctsAgent:
    agent = make_agent(f"ismcts:hard/sims={sims}", game)
    assert isinstance(agent, IsmctsAgent)
    return agent


def _hard_rollouts(game: Game) -> tuple[float, IsmctsAgent]:
    hard = _hard(game, 1)
    return hard.settings.c, hard


def setups(c: float = PARITY_C) -> dict[str, Side]:
    """The setups by name, the parity one with UCT constant `c`."""
    return {
        "parity": Side(
            f"both random rollouts to the end, c={c:g}, no game hooks on timelord's side",
            _parity_agent(c),
            lambda game: (c, None),
        ),
        "same-rollouts": Side(
            "both on `ismcts:hard`'s rollout and evaluation (OpenSpiel's through an "
            "Evaluator) and its c; timelord without its prior, settled moves, depth cap or "
            "paired search",
            _searcher,
            _hard_rollouts,
        ),
        "evaluator": Side(
            "timelord `ismcts:hard`; OpenSpiel gets hard's rollout and evaluation "
            "through an Evaluator, and hard's c",
            _hard,
            _hard_rollouts,
        ),
        "hard-vs-random": Side(
            "timelord `ismcts:hard`; OpenSpiel on random rollouts, c=2 (the first setup)",
            _hard,
            lambda game: (LEGACY_C, None),
        ),
    }


SETUPS = tuple(setups())


@dataclass(frozen=True)
class Result:
    """One finished game, a line of the results file. `sims` is OpenSpiel's count a move,
    `tl_sims` timelord's; `cpu` and `turns` are each side's CPU seconds and moves."""

    game: str
    seed: int
    setup: str
    players: int
    sims: int
    tl_sims: int
    index: int
    seats: list[str]
    returns: list[float]
    moves: int
    seconds: float
    cpu: dict[str, float] = field(default_factory=dict)
    turns: dict[str, int] = field(default_factory=dict)

    def share(self, side: str) -> float:
        return sum(r for s, r in enumerate(self.returns) if self.seats[s] == side)

    def key(self) -> tuple[str, str, int, int, int, int]:
        return (self.setup, self.game, self.players, self.sims, self.tl_sims, self.seed)

    @classmethod
    def from_json(cls, data: Any) -> Result:
        try:
            result = cls(**data)
        except TypeError as exc:
            raise CorruptRecord(f"not a head-to-head result: {exc}") from None
        counts = (result.sims, result.tl_sims, result.index, result.moves)
        ok = (
            result.game in GAMES
            and result.setup in SETUPS
            and result.players in PLAYER_COUNTS
            and type(result.seed) is int
            and all(type(n) is int and n >= 0 for n in counts)
            and type(result.seconds) in (int, float)
            and isinstance(result.seats, list)
            and isinstance(result.returns, list)
            and len(result.seats) == len(result.returns) == result.players
            and set(result.seats) <= set(SIDES)
            and all(type(r) in (int, float) and 0 <= r <= 1 for r in result.returns)
            and isinstance(result.cpu, dict)
            and isinstance(result.turns, dict)
            and set(result.cpu) == set(result.turns) <= set(SIDES)
        )
        if not ok:
            raise CorruptRecord(f"not a head-to-head result: {str(data)[:200]}")
        return result


@dataclass(frozen=True)
class Match:
    """Everything that decides a game's play but its index."""

    setup: str
    game: str
    players: int
    sims: int
    tl_sims: int
    seed: int
    c: float = PARITY_C


def play(match: Match, index: int) -> Result:
    """Game `index` of `match`: the same result on every run."""
    t0 = time.perf_counter()
    side = setups(match.c)[match.setup]
    players = match.players
    os_game = pyspiel.load_game(short_name(match.game), {"players": players})
    state: TimelordState = os_game.new_initial_state()
    gseed = game_seed(match.seed, index)
    state.reseed(gseed)
    seats = arrangement((OPENSPIEL, TIMELORD) * (players // 2), index, True)
    tl_game = os_game.tl_game
    rngs = seat_rngs(gseed, players)
    rs = np.random.RandomState(gseed % (1 << 32))
    uct_c, rollout_agent = side.openspiel(tl_game)
    bots = {}
    for s in range(players):
        if seats[s] == OPENSPIEL:
            evaluator = (
                mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
                if rollout_agent is None
                else TimelordRollouts(rollout_agent, rngs[s].spawn())
            )
            sampler_seed = rngs[s].next64() >> 33
            bots[s] = SeededISMCTSBot(
                os_game, evaluator, uct_c, match.sims, random_state=rs, sampler_seed=sampler_seed
            )
    agents: dict[int, Agent] = {
        s: side.timelord(tl_game, match.tl_sims) for s in range(players) if seats[s] == TIMELORD
    }
    cpu = dict.fromkeys(SIDES, 0.0)
    turns = dict.fromkeys(SIDES, 0)
    moves = 0
    while not state.is_terminal():
        seat = state.current_player()
        start = time.process_time()
        if seat in bots:
            action = int(bots[seat].step(state))
        else:
            tl = state.timelord_state
            action = os_game.index.index(
                agents[seat].act(tl.view(seat), tl.legal_actions(), rngs[seat])
            )
        cpu[seats[seat]] += time.process_time() - start
        turns[seats[seat]] += 1
        state.apply_action(action)
        moves += 1
    returns = [float(r) for r in state.returns()]
    return Result(
        match.game,
        match.seed,
        match.setup,
        players,
        match.sims,
        match.tl_sims,
        index,
        seats,
        returns,
        moves,
        time.perf_counter() - t0,
        cpu,
        turns,
    )


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


def missing(results: list[Result], match: Match, games: int) -> list[int]:
    key = (match.setup, match.game, match.players, match.sims, match.tl_sims, match.seed)
    have = {r.index for r in results if r.key() == key}
    return [i for i in range(games) if i not in have]


def ms_per_move(results: list[Result], side: str) -> float | None:
    """`side`'s CPU milliseconds per move over `results` (None: not measured)."""
    timed = [r for r in results if side in r.turns]
    moves = sum(r.turns[side] for r in timed)
    return 1000 * sum(r.cpu[side] for r in timed) / moves if moves else None


def equal_cpu_sims(results: list[Result], match: Match) -> int:
    """Timelord's simulations for CPU per move equal to OpenSpiel's: `match.sims` scaled by
    the sides' CPU ratio in the file's equal-simulation games of the match's setup."""
    key = (match.setup, match.game, match.players, match.sims, match.sims, match.seed)
    base = [r for r in results if r.key() == key]
    os_ms, tl_ms = ms_per_move(base, OPENSPIEL), ms_per_move(base, TIMELORD)
    if os_ms is None or tl_ms is None or tl_ms <= 0:
        raise ValueError(
            f"no timed {match.setup} games of {match.game} at {match.players} players and "
            f"{match.sims} simulations for both sides: run them before --equal-cpu"
        )
    return max(1, round(match.sims * os_ms / tl_ms))


def play_all(jobs: list[tuple[Match, int]], workers: int) -> Iterator[Result]:
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
    setup: str
    game: str
    players: int
    sims: int
    tl_sims: int
    games: int
    share: dict[str, float]
    ms: dict[str, float | None]
    length: float

    def cells(self) -> list[str]:
        out = [f"`{self.setup}`", self.game, str(self.players), str(self.games)]
        out.append(f"{self.sims} / {self.tl_sims}")
        for side in SIDES:
            lo, hi = wilson(self.share[side], self.games)
            out.append(f"{self.share[side] / self.games:.3f} [{lo:.3f}, {hi:.3f}]")
        for side in SIDES:
            ms = self.ms[side]
            out.append("-" if ms is None else f"{ms:.1f}")
        out.append(f"{self.length:.0f}")
        return out


def rows(results: list[Result], seed: int) -> list[Row]:
    """One row per setup, game, player count and simulations of the match seeded `seed`."""
    keys = sorted(
        {r.key() for r in results if r.seed == seed},
        key=lambda k: (SETUPS.index(k[0]), list(GAMES).index(k[1]), k[2], k[3], k[4]),
    )
    out = []
    for key in keys:
        mine = [r for r in results if r.key() == key]
        n = len(mine)
        share = {side: sum(r.share(side) for r in mine) for side in SIDES}
        ms = {side: ms_per_move(mine, side) for side in SIDES}
        length = sum(r.moves for r in mine) / n
        out.append(Row(*key[:5], n, share, ms, length))
    return out


def table(results: list[Result], seed: int, results_path: Path) -> str:
    head = [
        "setup", "game", "players", "games", "sims OpenSpiel / timelord",
        "OpenSpiel ISMCTS [95%]", "timelord ISMCTS [95%]",
        "OpenSpiel ms/move", "timelord ms/move", "mean length",
    ]  # fmt: skip
    described = "\n".join(f"- `{name}`: {side.describe}." for name, side in setups().items())
    lines = [
        "## Adapters: OpenSpiel's ISMCTS against timelord's",
        "",
        "Written by `python -m timelord.sim.headtohead --write` from the games in "
        f"`{results_path.as_posix()}` (one line per game; a run adds the games its match "
        "lacks); match seed "
        f"{seed}. OpenSpiel's side is its `ISMCTSBot` (UCT, most visits, a fresh world per "
        "simulation from `resample_from_infostate`) through the pyspiel adapter; timelord's "
        "is its own ISMCTS. Seats alternate the two sides and rotate every game; every "
        "random choice flows from the game's seed, so each game replays exactly. A side's "
        "win share sums its seats' returns (ties split), so the fair share is 0.5 and the "
        "two shares add up to less than 1 by the games nobody won; intervals are 95% Wilson. "
        "ms/move is each side's CPU time (`process_time`) per move of its own, over the "
        "row's games (not recorded for the first setup's games). The setups:",
        "",
        described,
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
    ap.add_argument("--setup", choices=SETUPS, default="parity", help="what the sides run")
    ap.add_argument("--players", type=int, choices=PLAYER_COUNTS, default=2)
    ap.add_argument("--games", type=int, default=40, help="games per game id (40)")
    ap.add_argument("--sims", type=int, default=20, help="OpenSpiel's simulations a move")
    ap.add_argument("--tl-sims", type=int, default=0, help="timelord's (default: --sims)")
    ap.add_argument("--equal-cpu", action="store_true", help="timelord's for equal CPU")
    ap.add_argument("--c", type=float, default=PARITY_C, help="the parity setup's UCT c")
    ap.add_argument("--game", action="append", choices=list(GAMES), help="only these games")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--workers", type=int, default=1, help="processes playing games (1)")
    ap.add_argument("--results", type=Path, default=RESULTS, help=f"results file ({RESULTS})")
    ap.add_argument("--write", action="store_true", help="write docs/strength.md's section")
    ap.add_argument("--doc", type=Path, default=Path("docs/strength.md"))
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    if args.games < 0 or args.workers < 1 or args.sims < 0 or args.tl_sims < 0:
        ap.error("--games, --sims and --tl-sims must be at least 0, --workers at least 1")
    if args.sims < 2:  # its first simulation only makes the root, which it then reads
        ap.error("OpenSpiel's ISMCTSBot needs --sims of at least 2")
    if args.equal_cpu and args.tl_sims:
        ap.error("--equal-cpu sets timelord's simulations; leave out --tl-sims")
    try:
        results = read_results(args.results)
    except CorruptRecord as exc:
        ap.exit(2, f"headtohead: {exc}\n")
    jobs = []
    for game_id in args.game or list(GAMES):
        match = Match(args.setup, game_id, args.players, args.sims, args.tl_sims or args.sims,
                      args.seed, args.c)  # fmt: skip
        if args.equal_cpu:
            try:
                match = replace(match, tl_sims=equal_cpu_sims(results, match))
            except ValueError as exc:
                ap.exit(2, f"headtohead: {exc}\n")
        jobs += [(match, i) for i in missing(results, match, args.games)]
    jobs.sort(key=lambda job: job[1])  # game 0 of every game id first: a stopped run is even
    args.results.parent.mkdir(parents=True, exist_ok=True)
    with args.results.open("a") as out:
        for result in play_all(jobs, args.workers):
            out.write(json.dumps(asdict(result), separators=(",", ":")) + "\n")
            out.flush()
            results.append(result)
            if not args.quiet:
                got = {side: result.share(side) for side in SIDES}
                ms = {s: round(1000 * result.cpu[s] / max(1, result.turns[s])) for s in SIDES}
                print(
                    f"  {result.setup} {result.game} {result.players}p {result.sims}/"
                    f"{result.tl_sims} game {result.index}: {got} in {result.moves} moves, "
                    f"ms/move {ms}, {result.seconds:.0f} s",
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
