"""The settings tuner: successive halving keeps the better half each round on common games,
doubles the games, and on the real match harness picks a search over a crippled one."""

from __future__ import annotations

import pytest

from timelord.sim.match import Runner
from timelord.sim.tune import candidates, main, match_play, successive_halving


def test_candidates_are_the_product_of_the_values_over_the_base() -> None:
    assert candidates("hard", {"c": ["0.3", "0.5"], "cutoff": ["5", "none"]}) == [
        "hard/c=0.3/cutoff=5",
        "hard/c=0.3/cutoff=none",
        "hard/c=0.5/cutoff=5",
        "hard/c=0.5/cutoff=none",
    ]
    assert candidates("hard", {}) == ["hard"]


def test_halving_keeps_the_better_half_doubles_the_games_and_shares_each_rounds_seed() -> None:
    true_share = {"a": 0.2, "b": 0.6, "c": 0.4, "d": 0.3, "e": 0.5}
    calls: list[tuple[str, int, int]] = []

    def play(name: str, games: int, seed: int) -> tuple[float, int]:
        calls.append((name, games, seed))
        return true_share[name] * games, games

    rounds = successive_halving(list(true_share), play, games=4, seed=10)
    assert [len(r) for r in rounds] == [5, 3, 2, 1]
    assert [s.candidate for s in rounds[0]] == ["b", "e", "c", "d", "a"]
    assert [s.candidate for s in rounds[1]] == ["b", "e", "c"]
    assert rounds[-1][0].candidate == "b"
    assert rounds[-1][0].games == 4 + 8 + 16  # the choice alone plays no more
    # every candidate of a round plays the same games: one seed, one count a round
    for r, (games, seed) in enumerate(((4, 10), (8, 11), (16, 12))):
        played = {(g, s) for name, g, s in calls if s == seed}
        assert played == {(games, seed)}, r


def test_a_late_run_of_luck_cannot_erase_the_earlier_games() -> None:
    """The standing is the share over all games so far, not the last round's alone."""
    script = {("x", 10): (4.0, 4), ("y", 10): (0.0, 4), ("x", 11): (0.0, 8), ("y", 11): (8.0, 8)}

    def play(name: str, games: int, seed: int) -> tuple[float, int]:
        return script[(name, seed)]

    # x: 4 of 4 then 0 of 8 = 4/12; y: 0 of 4 then 8 of 8 = 8/12; only x and y are kept to
    # round 2 if there are 3 or 4 of them, so add two hopeless ones
    script |= {(n, 10): (0.0, 4) for n in ("z", "w")}
    rounds = successive_halving(["x", "y", "z", "w"], play, games=4, seed=10)
    assert [s.candidate for s in rounds[1]] == ["y", "x"]
    assert rounds[1][0].share == pytest.approx(8 / 12)
    assert [s.candidate for s in rounds[-1]] == ["y"]


def test_no_candidates_or_no_games_is_an_error() -> None:
    with pytest.raises(ValueError):
        successive_halving([], lambda n, g, s: (0.0, g), 4, 1)
    with pytest.raises(ValueError):
        successive_halving(["a"], lambda n, g, s: (0.0, g), 0, 1)


def test_on_the_match_harness_the_search_beats_a_one_simulation_random_player() -> None:
    """Episodes, 2 players, short games: `hard` against a one-simulation random rollout and
    a two-simulation one, each in one seat against the table's heuristic."""
    options = {"target": 15, "max_rounds": 8}
    play = match_play("episodes", 2, "heuristic", Runner(workers=1), options)
    names = ["sims=1/rollout=random/cutoff=1", "hard", "sims=2/rollout=random/cutoff=1"]
    rounds = successive_halving(names, play, games=4, seed=1)
    assert rounds[-1][0].candidate == "hard"
    assert all(s.games >= 4 for s in rounds[0])


def test_the_command_refuses_a_bad_setting_before_playing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["episodes", "--set", "c=x", "--players", "2"]) == 2
    assert "tune:" in capsys.readouterr().err
