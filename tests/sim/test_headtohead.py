"""The head-to-head runner: a game replays exactly from its seed, results add up across runs
through the results file, a bad results file is refused with its line, the table counts each
side's seats and CPU, equal-CPU simulations come from the measured ratio, and the Evaluator
OpenSpiel's search is lent values positions with timelord's own rollout."""

from __future__ import annotations

import json
from dataclasses import asdict, replace
from pathlib import Path

import pyspiel
import pytest

from timelord.adapters.openspiel import TimelordState, short_name
from timelord.core import CorruptRecord, Rng
from timelord.sim import headtohead as h2h

OS, TL = h2h.OPENSPIEL, h2h.TIMELORD


def result(index: int, seats: list[str], returns: list[float], **kw: object) -> h2h.Result:
    base = h2h.Result("keys", 1, "parity", len(seats), 5, 5, index, seats, returns, 100, 60.0)
    return replace(base, **kw)  # type: ignore[arg-type]


def test_a_game_replays_exactly_from_its_seed() -> None:
    """OpenSpiel's stock ISMCTSBot samples worlds with an OS-seeded sampler; ours does not."""
    match = h2h.Match("parity", "clue", 2, 3, 4, 2026)  # game 2 is over in a few moves
    first, again = h2h.play(match, 2), h2h.play(match, 2)
    assert (first.returns, first.moves, first.seats) == (again.returns, again.moves, again.seats)
    assert first.seats == [OS, TL]  # game 2: the line-up rotated twice
    assert h2h.play(match, 1).seats == [TL, OS]
    assert sum(first.returns) in (0.0, 1.0)
    assert first.turns[OS] + first.turns[TL] == first.moves and min(first.turns.values()) > 0
    assert all(t > 0 for t in first.cpu.values())


def test_runs_add_up_through_the_results_file(tmp_path: Path) -> None:
    results, doc = tmp_path / "h2h.jsonl", tmp_path / "strength.md"
    doc.write_text("# Bot strength\n\nkept text\n")
    argv = ["--game", "episodes", "--setup", "evaluator", "--sims", "2", "--seed", "3"]
    argv += ["--quiet", "--write", "--results", str(results), "--doc", str(doc)]
    assert h2h.main([*argv, "--games", "1"]) == 0
    assert len(h2h.read_results(results)) == 1
    assert h2h.main([*argv, "--games", "2"]) == 0  # plays game 1 only
    got = h2h.read_results(results)
    assert sorted(r.index for r in got) == [0, 1]
    assert h2h.main([*argv, "--games", "2"]) == 0  # nothing left to play
    assert len(h2h.read_results(results)) == 2
    text = doc.read_text()
    assert text.startswith("# Bot strength\n\nkept text\n")
    assert text.count(h2h.BEGIN) == 1
    assert "| `evaluator` | episodes | 2 | 2 | 2 / 2 |" in text
    # equal CPU: timelord's simulations scaled by the measured ratio of the two games
    os_ms, tl_ms = h2h.ms_per_move(got, OS), h2h.ms_per_move(got, TL)
    assert os_ms is not None and tl_ms is not None
    assert h2h.main([*argv, "--games", "1", "--equal-cpu"]) == 0
    (scaled,) = [r for r in h2h.read_results(results) if r.tl_sims != r.sims]
    assert scaled.tl_sims == max(1, round(2 * os_ms / tl_ms))
    with pytest.raises(SystemExit):
        h2h.main(["--sims", "1", "--results", str(results)])


def test_equal_cpu_needs_timed_equal_simulation_games() -> None:
    timed = [
        result(0, [OS, TL], [1.0, 0.0], cpu={OS: 3.0, TL: 0.5}, turns={OS: 100, TL: 50}),
        result(1, [TL, OS], [1.0, 0.0], cpu={OS: 0.0, TL: 0.5}, turns={OS: 0, TL: 50}),
    ]
    assert h2h.ms_per_move(timed, OS) == 30.0 and h2h.ms_per_move(timed, TL) == 10.0
    match = h2h.Match("parity", "keys", 2, 5, 5, 1)
    assert h2h.equal_cpu_sims(timed, match) == 15
    with pytest.raises(ValueError, match="run them before"):
        h2h.equal_cpu_sims(timed, replace(match, sims=6))
    untimed = [replace(r, cpu={}, turns={}) for r in timed]
    assert h2h.ms_per_move(untimed, OS) is None
    with pytest.raises(ValueError):
        h2h.equal_cpu_sims(untimed, match)


def test_a_corrupt_results_line_is_refused_with_its_number(tmp_path: Path) -> None:
    good = result(0, [OS, TL], [0.0, 1.0], cpu={OS: 1.0, TL: 0.5}, turns={OS: 40, TL: 40})
    path = tmp_path / "r.jsonl"
    bad_lines = [
        "{not json",
        json.dumps({**asdict(good), "returns": [1.0]}),
        json.dumps({**asdict(good), "game": "chess"}),
        json.dumps({**asdict(good), "setup": "cheat"}),
        json.dumps({**asdict(good), "players": 3}),
        json.dumps({**asdict(good), "extra": 1}),
        json.dumps([1, 2]),
        json.dumps({**asdict(good), "index": -1}),
        json.dumps({**asdict(good), "seats": "ab"}),
        json.dumps({**asdict(good), "returns": [0.0, 2.0]}),
        json.dumps({**asdict(good), "turns": {OS: 40}}),
    ]
    for bad in bad_lines:
        path.write_text(json.dumps(asdict(good)) + "\n" + bad + "\n")
        with pytest.raises(CorruptRecord, match=":2:"):
            h2h.read_results(path)
    with pytest.raises(SystemExit) as stop:
        h2h.main(["--results", str(path), "--games", "0"])
    assert stop.value.code == 2


def test_the_table_sums_each_sides_seats_and_splits_ties() -> None:
    four = [OS, TL, OS, TL]
    games = [
        result(0, four, [0.0, 1.0, 0.0, 0.0], moves=100),
        result(1, four[::-1], [0.5, 0.5, 0.0, 0.0], moves=200),
        result(2, four, [0.0, 0.0, 0.0, 0.0], moves=300),
        result(0, four, [1.0, 0.0, 0.0, 0.0], seed=2),
        result(0, [OS, TL], [1.0, 0.0], setup="evaluator"),
    ]
    parity, evaluator = h2h.rows(games, seed=1)
    assert (parity.setup, parity.game, parity.players, parity.games) == ("parity", "keys", 4, 3)
    assert parity.share == {OS: 0.5, TL: 1.5} and parity.length == 200
    cells = parity.cells()
    assert cells[5].startswith("0.167 [") and cells[6].startswith("0.500 [")
    assert cells[7] == cells[8] == "-"  # no CPU recorded
    assert (evaluator.setup, evaluator.players, evaluator.share[OS]) == ("evaluator", 2, 1.0)
    assert h2h.missing(games, h2h.Match("parity", "keys", 4, 5, 5, 1), 5) == [3, 4]


def test_the_evaluator_values_a_position_with_timelords_rollout() -> None:
    """OpenSpiel's search gets the hard level's rollout policy for its cutoff, then the
    game's evaluation: the same numbers as playing those moves by hand."""
    game = pyspiel.load_game(short_name("card-game"), {"players": 2})
    state: TimelordState = game.new_initial_state()
    state.reseed(7)
    c, hard = h2h.setups()["evaluator"].openspiel(game.tl_game)
    assert hard is not None and c == hard.settings.c
    hooks, cutoff = hard.hooks, hard.settings.cutoff
    assert hooks.rollout is not None and hooks.evaluate is not None and cutoff
    evaluator = h2h.TimelordRollouts(hard, Rng(5))
    got = evaluator.evaluate(state)
    rng, position = Rng(5), state.timelord_state
    for _ in range(cutoff):
        position = position.apply_unchecked(hooks.rollout(position, position.legal_actions(), rng))
    assert not position.is_over
    assert list(got) == hooks.evaluate(position)
    prior = evaluator.prior(state)
    assert [a for a, _ in prior] == state.legal_actions()
    assert sum(p for _, p in prior) == pytest.approx(1.0)


def test_the_parity_agent_has_no_game_pieces() -> None:
    game = pyspiel.load_game(short_name("clue"), {"players": 2}).tl_game
    agent = h2h.setups(c=1.5)["parity"].timelord(game, 9)
    settings = agent.settings
    assert (settings.sims, settings.rollout, settings.cutoff, settings.c) == (
        9,
        "random",
        None,
        1.5,
    )
    assert settings.depth is None
    assert agent.hooks.settled is None and agent.hooks.evaluate is None
    assert h2h.setups(c=1.5)["parity"].openspiel(game) == (1.5, None)


def test_the_same_rollouts_agent_keeps_the_rollout_but_not_the_rest() -> None:
    game = pyspiel.load_game(short_name("episodes"), {"players": 2}).tl_game
    setup = h2h.setups()["same-rollouts"]
    agent, hard = setup.timelord(game, 7), h2h.setups()["evaluator"].timelord(game, 7)
    # what this setup takes away (Episodes' hard is a paired flat search, no tree)
    assert hard.settings.paired and not agent.settings.paired
    assert agent.settings == replace(hard.settings, prior=0.0, depth=None, paired=0.0)
    assert agent.hooks.rollout is hard.hooks.rollout and agent.hooks.settled is None
    assert setup.openspiel(game)[0] == hard.settings.c
