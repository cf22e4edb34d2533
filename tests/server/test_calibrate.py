"""Calibrating the bot levels (issue 20): where the tables go, that a run is the same on
every backend, and that the levels come out in order with intervals apart."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

import tests.support.toy_tricks  # noqa: F401  (registers toy-tricks and its heuristic)
from timelord.cli.main import main
from timelord.server.calibrate import (
    bot_ratings,
    calibrate,
    closest_window,
    next_window,
    warm_up,
)
from timelord.server.ratings import Rating
from timelord.server.storage import Store
from timelord.sim.match import Runner

BOTS = ["a", "b", "c", "d"]


def test_the_next_round_plays_the_overlapping_neighbours_closest_to_apart() -> None:
    # a-b apart (gap 5 over sigmas 4); b-c overlap (2 over 5); c-d overlap less apart (1 over 4)
    ratings = {
        "a": Rating(40, 2),
        "b": Rating(35, 2),
        "c": Rating(33, 3),
        "d": Rating(32, 1),
    }
    assert next_window(ratings, BOTS, 2) == ("b", "c")
    # the order comes from mu, not from the names: the same ratings under shuffled names
    shuffled = {"d": ratings["a"], "c": ratings["b"], "a": ratings["c"], "b": ratings["d"]}
    assert next_window(shuffled, BOTS, 2) == ("a", "c")
    # three seats: the window of three neighbours holding that pair, the best of b-c-d
    assert next_window(ratings, BOTS, 3) == ("b", "c", "d")
    # a stricter margin (gap over summed sigmas) counts a-b as not yet apart: it is the
    # closest to it of the three
    assert next_window(ratings, BOTS, 2, margin=1.5) == ("a", "b")


def test_levels_all_apart_end_the_schedule() -> None:
    ratings = {"a": Rating(40, 1), "b": Rating(30, 1), "c": Rating(25, 2), "d": Rating(10, 3)}
    assert next_window(ratings, BOTS, 2) is None
    # a budget still to spend goes to the closest pair (b-c: 5 over 3)
    assert closest_window(ratings, BOTS, 2) == ("b", "c")


def test_the_warm_up_rotates_each_window_of_neighbours_within_the_budget() -> None:
    assert warm_up(BOTS, 2, 100) == [(("a", "b"), 2), (("b", "c"), 2), (("c", "d"), 2)]
    assert warm_up(BOTS, 3, 100) == [(("a", "b", "c"), 3), (("b", "c", "d"), 3)]
    assert warm_up(BOTS, 2, 4) == [(("a", "b"), 2), (("b", "c"), 1), (("c", "d"), 1)]
    assert warm_up(BOTS, 2, 1) == [(w, 1) for w in (("a", "b"), ("b", "c"), ("c", "d"))]


def test_a_calibration_is_the_same_on_one_core_or_two(tmp_path: Path) -> None:
    bots = ["random", "heuristic", "ismcts:sims=8/cutoff=4"]
    results = []
    for name, runner in (("serial", Runner(workers=1)), ("pool", Runner(workers=2, batch=3))):
        store = Store(f"sqlite:///{tmp_path / name}.db")
        try:
            store.migrate()
            done = calibrate(store, "toy-tricks", {"players": 2}, bots, 30, 7, runner)
        finally:
            store.close()
        results.append(done)
    serial, pooled = results
    assert serial.tables == pooled.tables == 30
    assert serial.ratings == pooled.ratings
    assert [(m.bots, m.tables, m.wins) for m in serial.matchups] == [
        (m.bots, m.tables, m.wins) for m in pooled.matchups
    ]
    # the warm-up rotated the two pairs of neighbours once; every later round went to one
    # pair adjacent by mu
    assert sum(m.tables for m in serial.matchups) == 30
    assert serial.rounds == 1 + (30 - 4 + 7) // 8


def test_the_rate_command_prints_ratings_matchups_and_costs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'pool.db'}"
    argv = ["rate", "toy-tricks", "--db", url, "-n", "10", "--bots", "random,heuristic"]
    assert main([*argv, "--serial", "--time-cap", "0"]) == 0
    out = capsys.readouterr()
    assert "| toy-tricks | `heuristic` |" in out.out and "| toy-tricks | `random` |" in out.out
    assert "| random v heuristic | 10 |" in out.out
    assert "10 tables of toy-tricks (2 players) in 2 rounds" in out.out
    assert "s CPU, on 1 workers; load average" in out.out
    assert "round 2 (random v heuristic)" in out.err  # progress, one line a round
    # a second run adds to the same pool
    assert main([*argv, "--serial", "--time-cap", "0", "-q"]) == 0
    assert "| toy-tricks | `heuristic` |" in capsys.readouterr().out
    store = Store(url)
    try:
        assert sum(b.games for b in bot_ratings(store, "toy-tricks", ["random"])) == 20
    finally:
        store.close()


def test_calibration_puts_random_heuristic_and_ismcts_hard_in_order_apart(
    tmp_path: Path,
) -> None:
    """Clue at two players, where `ismcts:hard` beats the heuristic most clearly and a
    random seat never solves the case: the schedule plays until every adjacent pair's
    intervals (mu +/- sigma) are apart, within a small budget, and the head-to-head counts
    agree with the order. No time cap, so the seed decides every game."""
    store = Store(f"sqlite:///{tmp_path / 'pool.db'}")
    try:
        store.migrate()
        bots = ["random", "heuristic", "ismcts:hard"]
        done = calibrate(
            store,
            "clue",
            {"players": 2},
            bots,
            40,
            0,
            Runner(workers=1),
            until_separated=True,
            round_tables=2,
        )
    finally:
        store.close()
    assert done.separated and done.tables < 40
    assert [b.spec for b in done.ratings] == ["ismcts:hard", "heuristic", "random"]
    for better, worse in itertools.pairwise(done.ratings):
        assert better.rating.interval[0] > worse.rating.interval[1], (better, worse)
    for m in done.matchups:
        if m.tables:  # random and hard never meet: they are not neighbours
            weaker, stronger = sorted(m.bots, key=bots.index)
            assert m.wins[stronger] > m.wins[weaker], m
