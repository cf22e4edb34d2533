"""The deal walk behind `sample_state` memoises each step's choices per state: they must be
the plain scan's (every move, weighed by the completions after it), picked as `_pick` picks
from the same draw, and what it deals must still fit the seat's knowledge and follow the
uniform measure."""

from __future__ import annotations

from bisect import bisect_right

import pytest

import timelord
from tests.games.clue.test_deduction_helpers import deals, fits, random_knowledge
from tests.support.positions import mid_game
from timelord.core import Rng
from timelord.games.clue.deduction import DealSampler, _draw, _pick, _Tables
from timelord.games.clue.doors import check_state


def _plain_choices(tb: _Tables, i: int, s: int) -> tuple[list[int], list[int], list[int]]:
    """Step i from state s as the walk scanned it before the memo: every move that keeps
    each room non-negative and closes what it must, weighed by the completions after it."""
    weights, states, holders = [], [], []
    moves, end = tb.steps[i]
    for delta, sat in moves:
        t = (s | tb.guard) - delta
        if t & tb.guard != tb.guard:
            continue
        t = (t ^ tb.guard) | sat
        if end:
            if t & end != end:
                continue
            t ^= end
        if tb.backs[i + 1].get(t):
            weights.append(tb.backs[i + 1][t])
            states.append(t)
            holders.append(tb.holder_at[delta])
    return weights, states, holders


def _views(players: int, games: int) -> list[dict]:
    """A view a third of the way into each of a few seeded random games."""
    game = timelord.load("clue", players=players)
    states = (mid_game(game, g) for g in range(games))
    return [s.view(s.to_move) for s in states if s.to_move is not None]


@pytest.mark.parametrize("players", [3, 6])
def test_memoised_steps_pick_what_the_plain_scan_picks(players: int) -> None:
    """Every memoised (step, state) holds the plain scan's choices, and the running-sum
    search picks what `_pick` picks over their weights for every draw below the total."""
    game = timelord.load("clue", players=players)
    memoised = 0
    for view in _views(players, 6):
        tables = game.prepared_view(view).sampler._tables
        rng = Rng(len(view["log"]))
        for _ in range(40):
            _draw(tables, rng)  # fills the memo along the walks taken
        for i, memo in enumerate(tables.walk):
            for s, (total, bounds, states, holders) in memo.items():
                weights, plain_states, plain_holders = _plain_choices(tables, i, s)
                assert (total, states, holders) == (sum(weights), plain_states, plain_holders)
                probe = Rng(s)
                for x in {0, total - 1, *(probe.below(total) for _ in range(8))}:
                    assert bisect_right(bounds, x) == _pick(_Fixed(x), weights)
                memoised += 1
    assert memoised > 0  # the walks had steps, not only the closed-form tail


class _Fixed(Rng):
    """A generator whose next draw below n is a given x (to drive `_pick`)."""

    def __init__(self, x: int) -> None:
        super().__init__(0)
        self.x = x

    def below(self, n: int) -> int:
        assert 0 <= self.x < n
        return self.x


def test_every_sample_fits_the_seat_and_shows_it_its_view() -> None:
    game = timelord.load("clue", players=6)
    for view in _views(6, 4):
        seat = view["seat"]
        rng = Rng(seat)
        for _ in range(50):
            sampled = game.sample_state(view, rng)
            check_state(sampled)
            assert sampled.view(seat) == view


@pytest.mark.parametrize("seed", range(3))
def test_warm_draws_pass_a_chi_square_test_against_every_consistent_deal(seed: int) -> None:
    """On a deck small enough to list every deal the knowledge allows, the draws after the
    memo is warm are uniform over them: Pearson's statistic stays under df + 6 sqrt(2 df)."""
    rng = Rng(40 + seed)
    worlds: list[tuple[int, ...]] = []
    while not 6 <= len(worlds) <= 400:  # a case with some deals to tell apart, few to list
        k, _env, _where = random_knowledge(rng, (2, 3, 3), 3, rng.below(4))
        worlds = [
            tuple(sorted(where.items())) + tuple(sorted(env))
            for env, where in deals(k.categories, k.hand_sizes, k.public)
            if fits(k, env, where)
        ]
    sampler = DealSampler(k)
    for _ in range(50):
        sampler.draw_holders(rng)  # fill the memo first
    each = 60
    counts = dict.fromkeys(worlds, 0)
    for _ in range(each * len(worlds)):
        where = sampler.draw_holders(rng)
        first = k.players + 1
        env = tuple(sorted(c for c, h in where.items() if h >= first))
        key = tuple(sorted((c, h) for c, h in where.items() if h < first)) + env
        assert key in counts  # consistent with the knowledge
        counts[key] += 1
    chi2 = sum((n - each) ** 2 / each for n in counts.values())
    df = len(worlds) - 1
    assert chi2 < df + 6 * (2 * df) ** 0.5, (chi2, df)
