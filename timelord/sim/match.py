"""Matches: many seeded games between bots, seats rotated, run serially, on processes or Dask.

Reproducibility: game `i` of a match with seed `S` is dealt with `game_seed(S, i)`, its seat
arrangement is the spec list rotated by `i` (so every spec sits in every seat equally often
when the number of games is a multiple of the player count), and each seat's agent draws from
a generator derived from the game seed exactly as `timelord play` derives it
(`timelord.core.seating`). Agents are built
afresh for every game. So a game's result depends only on (S, i), and the results of a match
are the same whichever backend runs it and however it is cut into batches.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, TextIO

from timelord.agents import make_agent
from timelord.core import GAMES, CorruptRecord, Game, Record, State, load, register
from timelord.core.record import loads
from timelord.core.seating import arrangement, game_seed, places, seat_rngs


@dataclass(frozen=True)
class MatchSpec:
    """Everything that decides a match's results (plus where to import its game from)."""

    game: str
    options: dict[str, Any]
    seats: tuple[str, ...]
    games: int
    seed: int
    rotate: bool = True
    #: 'module:Class' of the game, so workers can register games added at run time (tests)
    target: str = ""
    #: wall-clock seconds each bot may think per move (`Agent.time_cap`), as at a served
    #: table; None (research runs) keeps a match exactly reproducible from its seed
    time_cap: float | None = None

    @classmethod
    def build(
        cls,
        game_id: str,
        options: dict[str, Any],
        seats: Iterable[str],
        games: int,
        seed: int,
        rotate: bool = True,
        time_cap: float | None = None,
    ) -> MatchSpec:
        game = load(game_id, **options)
        specs = tuple(seats)
        if len(specs) != game.players:
            raise ValueError(f"{game.players} players but {len(specs)} seat specs")
        for spec in set(specs):
            make_agent(spec, game)  # fail early on a bad spec
        target = f"{type(game).__module__}:{type(game).__qualname__}"
        return cls(game.id, dict(game.options), specs, games, seed, rotate, target, time_cap)

    def load_game(self) -> Game:
        if self.game not in GAMES and self.target:
            register(self.game, self.target, self.game)
        return load(self.game, **self.options)


def play_game(
    game: Game, specs: list[str], seed: int, index: int, time_cap: float | None = None
) -> dict[str, Any]:
    """Play one game to the end, each bot thinking at most `time_cap` seconds a move; its
    record as JSON with the result filled in."""
    agents = [make_agent(spec, game) for spec in specs]
    for agent in agents:
        agent.time_cap = time_cap
    rngs = seat_rngs(seed, game.players)
    state: State = game.new_game(seed)
    # the seat that decides first: the first player, whom some games (the Card Game) draw
    first = state.to_move
    record = Record(game.id, game.options, seed, seats=list(specs))
    movers: list[int] = []
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        legal = state.legal_actions()
        action = agents[seat].act_on(partial(state.view, seat), legal, rngs[seat])
        record.actions.append(action.to_json())
        movers.append(seat)
        state = state.apply(action)
    scores = state.scores()
    winners = state.winners()
    record.result = {
        "index": index,
        "scores": scores,
        "winners": winners,
        "places": places(scores, winners),
        "length": len(movers),
        "movers": movers,
        "first": first,
        **game_clock(state),
    }
    if time_cap is not None:
        # each seat's decisions the cap cut short
        record.result["capped"] = [agent.capped for agent in agents]
    return record.to_json()


def game_clock(state: State) -> dict[str, int]:
    """How long the game ran in the game's own units: the `turn` and `round` counters of its
    public view, where it has them (turns and rounds mean different things in each game, so
    the report names them as the game counts them)."""
    view = state.view(None)
    return {
        name: view[key]
        for name, key in (("turns", "turn"), ("rounds", "round"))
        if isinstance(view.get(key), int) and not isinstance(view.get(key), bool)
    }


def run_batch(spec: MatchSpec, indices: tuple[int, ...]) -> list[dict[str, Any]]:
    """Play the games `indices` of a match; the unit of work shipped to processes and Dask."""
    game = spec.load_game()
    return [
        play_game(
            game,
            arrangement(spec.seats, i, spec.rotate),
            game_seed(spec.seed, i),
            i,
            spec.time_cap,
        )
        for i in indices
    ]


def batches(games: int, size: int) -> list[tuple[int, ...]]:
    return [tuple(range(lo, min(lo + size, games))) for lo in range(0, games, size)]


#: games per batch at most: a batch's records (about 80 KB a game) are held until written
MAX_BATCH = 20


@dataclass
class Runner:
    """Where batches run: `serial`, `processes` (local cores) or a Dask scheduler address.

    `dask` is "local" for a LocalCluster on 127.0.0.1 with `workers` processes, or an address
    like "tcp://host:8786". Results stream out in game order while at most `2 * workers`
    batches are in flight, so a match of any length runs in constant memory. Inside
    `with runner.kept():` every `stream` shares one pool (or Dask client), so many short
    matches (the rounds of a calibration) start their workers once.
    """

    workers: int = field(default_factory=lambda: os.cpu_count() or 1)
    dask: str | None = None
    batch: int | None = None
    _pool: Any = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.workers < 1 or (self.batch is not None and self.batch < 1):
            # a batch of -1 used to make an empty list of batches: nothing played, no error
            raise ValueError(f"workers and batch must be at least 1: {self.workers}, {self.batch}")

    def batch_size(self, games: int) -> int:
        if self.batch:
            return self.batch
        # about four batches per worker, so the slowest batch does not leave the other
        # workers idle for long, and small enough that few records wait in memory
        return max(1, min(MAX_BATCH, -(-games // (4 * max(1, self.workers)))))

    def run(
        self, spec: MatchSpec, on_batch: Callable[[list[dict[str, Any]]], None]
    ) -> list[dict[str, Any]]:
        """Play the whole match and keep every record; `on_batch` sees each batch. For
        long matches use `stream`, which holds only the batches in flight."""
        done: list[dict[str, Any]] = []
        for out in self.stream(spec):
            on_batch(out)
            done.extend(out)
        return done

    def stream(self, spec: MatchSpec) -> Iterator[list[dict[str, Any]]]:
        """Each batch's records, in game order, as soon as it and the batches before it are
        played."""
        work = batches(spec.games, self.batch_size(spec.games))
        if self.dask:
            yield from self._stream_dask(spec, work)
        elif self.workers > 1 and len(work) > 1:
            yield from self._stream_processes(spec, work)
        else:
            for indices in work:
                yield run_batch(spec, indices)

    @contextmanager
    def kept(self) -> Iterator[Runner]:
        """This runner with its pool (processes or a Dask client) kept open until the block
        ends, for every `stream` inside it."""
        if self._pool is not None:
            yield self
            return
        with ExitStack() as stack:
            if self.dask:
                self._pool = stack.enter_context(self._dask_client())
            elif self.workers > 1:
                self._pool = stack.enter_context(self._process_pool())
            try:
                yield self
            finally:
                self._pool = None

    def _stream_processes(
        self, spec: MatchSpec, work: list[tuple[int, ...]]
    ) -> Iterator[list[dict[str, Any]]]:
        from concurrent.futures import FIRST_COMPLETED, wait

        with ExitStack() as stack:
            pool = (
                self._pool if self._pool is not None else stack.enter_context(self._process_pool())
            )
            yield from _in_order(
                work,
                lambda indices: pool.submit(run_batch, spec, indices),
                lambda pending: wait(pending, return_when=FIRST_COMPLETED).done,
                2 * self.workers,
            )

    def _stream_dask(
        self, spec: MatchSpec, work: list[tuple[int, ...]]
    ) -> Iterator[list[dict[str, Any]]]:
        from dask.distributed import wait

        with ExitStack() as stack:
            client = (
                self._pool if self._pool is not None else stack.enter_context(self._dask_client())
            )
            workers = len(client.scheduler_info().get("workers", {})) or self.workers
            yield from _in_order(
                work,
                lambda indices: client.submit(run_batch, spec, indices, pure=False),
                lambda pending: wait(pending, return_when="FIRST_COMPLETED").done,
                2 * workers,
            )

    @contextmanager
    def _process_pool(self) -> Iterator[Any]:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        context = multiprocessing.get_context("spawn")
        pool = ProcessPoolExecutor(self.workers, mp_context=context)
        try:
            yield pool
        finally:
            # a stopped run (Ctrl-C, a failed batch) does not wait for the queued batches
            pool.shutdown(wait=True, cancel_futures=True)

    @contextmanager
    def _dask_client(self) -> Iterator[Any]:
        from dask.distributed import Client, LocalCluster

        cluster = None
        if self.dask == "local":
            cluster = LocalCluster(
                n_workers=self.workers,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address=None,
            )
            client = Client(cluster)
        else:
            client = Client(self.dask)
        try:
            yield client
        finally:
            client.close()
            if cluster is not None:
                cluster.close()


def _in_order(
    work: list[tuple[int, ...]],
    submit: Callable[[tuple[int, ...]], Any],
    wait_first: Callable[[list[Any]], Iterable[Any]],
    window: int,
) -> Iterator[list[dict[str, Any]]]:
    """Run `work` through a pool (`submit` gives a future, `wait_first` the finished ones of
    a list) with at most `window` batches submitted and not yet handed on, and hand batches
    on in order. Finished futures are dropped at once, so their results do not pile up."""
    pending: dict[Any, int] = {}
    ready: dict[int, list[dict[str, Any]]] = {}
    submitted = handed = 0
    try:
        while handed < len(work):
            while submitted < len(work) and submitted - handed < window:
                pending[submit(work[submitted])] = submitted
                submitted += 1
            while handed not in ready:
                for future in wait_first(list(pending)):
                    ready[pending.pop(future)] = future.result()
            while handed in ready:
                yield ready.pop(handed)
                handed += 1
    finally:
        # a stopped match leaves nothing queued in a pool that outlives it (`Runner.kept`)
        for future in pending:
            future.cancel()


def write_results(records: Iterable[dict[str, Any]], out: TextIO) -> None:
    """JSON lines: one game record (with its result) per line."""
    for record in records:
        out.write(json.dumps(record, separators=(",", ":")) + "\n")


def read_results(path: str | Path, skipped: list[str] | None = None) -> Iterator[dict[str, Any]]:
    """The game records of a results file, each checked: a readable record with a result
    whose scores, winners and places fit its seats, and of the same game as the first.

    A bad line raises `CorruptRecord` naming it; given a `skipped` list, it is instead left
    out and described there (the report counts them)."""
    first: tuple[str, int] | None = None
    with open(path, encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                data = check_result(loads(line))
                kind = (data["game"], len(data["seats"]))
                first = first or kind
                if kind != first:
                    raise CorruptRecord(
                        f"a {kind[1]}-player {kind[0]} game among {first[1]}-player {first[0]} "
                        "games"
                    )
            except CorruptRecord as exc:
                if skipped is None:
                    raise CorruptRecord(f"{path} line {number}: {exc}") from exc
                skipped.append(f"line {number}: {exc}")
                continue
            yield data


def check_result(data: Any) -> dict[str, Any]:
    """`data` if it is a record with a result that fits its seats; `CorruptRecord` if not."""
    record = Record.from_json(data)
    result, players = record.result, len(record.seats)
    if result is None or not players:
        raise CorruptRecord("a game without its seats or result")
    for name in ("scores", "places"):
        if len(result.get(name, [])) != players:
            raise CorruptRecord(f"result {name!r} does not have one entry per seat")
    if "winners" not in result or any(w >= players for w in result["winners"]):
        raise CorruptRecord("result 'winners' missing or naming a seat not at the table")
    if not isinstance(result.get("length"), int):
        raise CorruptRecord("result 'length' missing")
    for name in ("first", "turns", "rounds"):
        value = result.get(name)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise CorruptRecord(f"result {name!r} must be a whole number")
    if result.get("first") is not None and not 0 <= result["first"] < players:
        raise CorruptRecord("result 'first' is not a seat at the table")
    return record.to_json()
