"""Matches: seeds, seat rotation, identical results on every backend, records, the CLI."""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from pathlib import Path

import pytest

import tests.support.toy_tricks  # noqa: F401  (registers toy-tricks and its heuristic)
from timelord.agents.base import Agent
from timelord.cli import simulate
from timelord.cli.main import main
from timelord.cli.play import play_game as play_in_terminal
from timelord.core import Action, Record, Rng, View, load, replay
from timelord.sim.match import (
    MatchSpec,
    Runner,
    arrangement,
    batches,
    game_seed,
    places,
    read_results,
    run_batch,
    write_results,
)

SEATS = ("ismcts:sims=8/cutoff=4", "heuristic", "random")


def _spec(games: int = 9, seed: int = 5) -> MatchSpec:
    return MatchSpec.build("toy-tricks", {"players": 3}, SEATS, games, seed)


def test_game_seeds_are_stable_and_distinct() -> None:
    seeds = [game_seed(5, i) for i in range(200)]
    assert len(set(seeds)) == 200
    assert seeds == [game_seed(5, i) for i in range(200)]
    assert game_seed(6, 0) != seeds[0]
    assert all(0 <= s < 1 << 63 for s in seeds)


def test_rotation_puts_every_spec_in_every_seat() -> None:
    specs = ("a", "b", "c")
    rows = [arrangement(specs, i, True) for i in range(3)]
    assert rows[0] == ["a", "b", "c"]
    for seat in range(3):
        assert sorted(row[seat] for row in rows) == ["a", "b", "c"]
    assert arrangement(specs, 1, False) == ["a", "b", "c"]


def test_batches_cover_each_game_once() -> None:
    assert batches(7, 3) == [(0, 1, 2), (3, 4, 5), (6,)]
    assert Runner(workers=2).batch_size(1000) == 20  # capped: records wait in memory
    assert Runner(workers=2).batch_size(24) == 3
    assert Runner(workers=2, batch=9).batch_size(1000) == 9


def test_places_rank_winners_first_and_share_ties() -> None:
    assert places([3.0, 5.0, 5.0, 1.0], [1, 2]) == [3, 1, 1, 4]
    # a winner by the rules ranks first even with fewer points (e.g. an accusation game)
    assert places([0.0, 2.0], [0]) == [1, 2]


def test_records_replay_and_match_the_terminal_game() -> None:
    spec = _spec(games=3)
    game = load("toy-tricks", players=3)
    for data in run_batch(spec, (0, 1, 2)):
        record = Record.from_json(data)
        final = replay(record)
        assert final.scores() == data["result"]["scores"]
        assert final.winners() == data["result"]["winners"]
        assert data["result"]["length"] == len(record.actions) == len(data["result"]["movers"])
        # the same seats and seed in `timelord play` give the very same game
        from timelord.agents import make_agent

        again = Record(game.id, game.options, record.seed, seats=record.seats)
        agents = [make_agent(s, game) for s in record.seats]
        play_in_terminal(game, agents, record.seed, again, io.StringIO())
        assert again.actions == record.actions


def test_serial_processes_and_batches_agree() -> None:
    spec = _spec()
    serial = Runner(workers=1).run(spec, lambda out: None)
    seen: list[int] = []
    pooled = Runner(workers=2, batch=2).run(spec, lambda out: seen.append(len(out)))
    assert pooled == serial
    assert sum(seen) == 9 and len(seen) == 5
    assert [r["result"]["index"] for r in serial] == list(range(9))


def test_dask_local_cluster_agrees(tmp_path: Path) -> None:
    """Through the command, so the streamed Dask path writes the same file, in game order, as
    a serial run (and the records beside it)."""
    pytest.importorskip("dask.distributed")
    serial = Runner(workers=1).run(_spec(), lambda out: None)
    results, records = tmp_path / "dask.jsonl", tmp_path / "records.jsonl"
    argv = ["simulate", "toy-tricks", "-n", "9", "--seed", "5", "--seats", ",".join(SEATS)]
    options = ["--dask", "local", "-j", "2", "--batch", "2", "-q"]
    assert main([*argv, *options, "-r", str(results), "--record", str(records)]) == 0
    assert list(read_results(results)) == serial
    assert len(records.read_text().splitlines()) == 9


def test_results_file_round_trips(tmp_path: Path) -> None:
    records = run_batch(_spec(), (0, 1))
    path = tmp_path / "r.jsonl"
    with path.open("w") as f:
        write_results(records, f)
    assert list(read_results(path)) == records
    assert len(path.read_text().splitlines()) == 2


def test_simulate_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    results = tmp_path / "out.jsonl"
    code = main(
        [
            "simulate",
            "toy-tricks",
            "--games",
            "6",
            "--seats",
            "heuristic,random,random",
            "--seed",
            "2",
            "--serial",
            "--results",
            str(results),
            "--record",
            str(tmp_path / "records"),
        ]
    )
    assert code == 0
    out, err = capsys.readouterr()
    assert "heuristic" in out and "95% interval" in out and "mean game length" in out
    assert "6/6 games" in err
    lines = [json.loads(line) for line in results.read_text().splitlines()]
    assert [r["result"]["index"] for r in lines] == list(range(6))
    assert lines[1]["seats"] == ["random", "heuristic", "random"]
    saved = sorted((tmp_path / "records").iterdir())
    assert len(saved) == 6
    assert Record.load(saved[0]).actions == lines[0]["actions"]
    # a .jsonl path gets every record in one file instead
    one = tmp_path / "records.jsonl"
    assert (
        main(
            [
                "simulate",
                "toy-tricks",
                "-n",
                "3",
                "--serial",
                "-q",
                "--seats",
                "random,random,random",
                "-r",
                str(tmp_path / "b.jsonl"),
                "--record",
                str(one),
            ]
        )
        == 0
    )
    rows = [Record.from_json(json.loads(line)) for line in one.read_text().splitlines()]
    assert len(rows) == 3 and all(r.result is not None for r in rows)


def test_simulate_refuses_a_seat_count_mismatch(capsys: pytest.CaptureFixture[str]) -> None:
    parser = __import__("argparse").ArgumentParser()
    simulate.add_arguments(parser)
    args = parser.parse_args(["toy-tricks", "--seats", "random,random", "-o", "players=3"])
    with pytest.raises(SystemExit) as stop:
        simulate.run(args)
    assert stop.value.code == 2
    assert "timelord: error: 3 players but 2 seat specs" in capsys.readouterr().err


class CapReader(Agent):
    """Plays the last legal action, or the first once a time cap is set (and counts the
    decision as cut short): shows whether the match handed its cap to the seat."""

    def act(self, view: View, legal: Sequence[Action], rng: Rng) -> Action:
        if self.time_cap is None:
            return legal[-1]
        self.capped += 1
        return legal[0]


def test_a_match_hands_its_time_cap_to_every_seat() -> None:
    seats = (f"{__name__}:CapReader", "random", "random")
    capped = MatchSpec.build("toy-tricks", {"players": 3}, seats, 3, 5, time_cap=0.8)
    free = MatchSpec.build("toy-tricks", {"players": 3}, seats, 3, 5)
    runner = Runner(workers=1)
    for spec, pick in ((capped, 0), (free, -1)):
        game = spec.load_game()
        for record in runner.run(spec, lambda out: None):
            state = game.new_game(record["seed"])
            reader = record["seats"].index(seats[0])
            cut = record["result"].get("capped")
            mine = record["result"]["movers"].count(reader)
            assert cut == ([mine if s == reader else 0 for s in range(3)] if pick == 0 else None)
            for action in record["actions"]:
                legal = state.legal_actions()
                if state.to_move == reader:
                    assert action == legal[pick].to_json()
                state = state.apply(game.action_from_json(action))


def test_a_kept_pool_serves_many_matches_alike() -> None:
    """Within `Runner.kept` the matches share one pool (started once) and give what each
    gives on its own."""
    runner = Runner(workers=2, batch=2)
    with runner.kept():
        pool = runner._pool
        assert pool is not None
        first = runner.run(_spec(games=5, seed=1), lambda out: None)
        second = runner.run(_spec(games=4, seed=2), lambda out: None)
        assert runner._pool is pool
    assert runner._pool is None
    assert first == Runner(workers=1).run(_spec(games=5, seed=1), lambda out: None)
    assert second == Runner(workers=1).run(_spec(games=4, seed=2), lambda out: None)
