"""The deal walk behind `sample_state` memoises each step's choices per state: it must draw
exactly what the plain walk (scan every move, weigh, pick) draws from the same generator, and
what it deals must still fit the seat's knowledge and follow the uniform measure."""

from __future__ import annotations

import pytest

import timelord
from tests.games.clue.test_deduction_helpers import deals, fits, random_knowledge
from timelord.core import Rng
from timelord.games.clue.check import check_state
from timelord.games.clue.deduction import DealSampler, _draw, _pick, _Tables, shuffle


def _plain_draw(tb: _Tables, rng: Rng) -> dict[int, int]:
    """The walk without memo: every step scans its moves and picks by weight (`_pick`)."""
    out: dict[int, int] = {}
    if not tb.classes:
        return out
    rest: list[list[int]] = []
    for cl in tb.classes:
        cards = list(cl.cards)
        shuffle(rng, cards)
        for h, m in cl.pre:
            for _ in range(m):
                out[cards.pop()] = h
        rest.append(cards)
    guard, s = tb.guard, tb.start
    for i, (moves, end) in enumerate(tb.steps):
        options: list[tuple[int, int]] = []
        weights: list[int] = []
        for delta, sat in moves:
            t = (s | guard) - delta
            if t & guard != guard:
                continue
            t = (t ^ guard) | sat
            if end:
                if t & end != end:
                    continue
                t ^= end
            if tb.backs[i + 1].get(t):
                options.append((delta, t))
                weights.append(tb.backs[i + 1][t])
        delta, s = options[_pick(rng, weights)]
        out[rest[tb.step_class[i]].pop()] = tb.holder_at[delta]
    dmask = (1 << (tb.width - 1)) - 1
    pool = [c for x in tb.tail for c in rest[x]]
    for e in tb.slots:
        if (s >> tb.pos[e]) & dmask:
            out[rng.choice([c for x in tb.slot_classes[e] for c in rest[x] if c not in out])] = e
    pool = [c for c in pool if c not in out]
    shuffle(rng, pool)
    for h in tb.hands:
        for _ in range((s >> tb.pos[h]) & dmask):
            out[pool.pop()] = h
    return out


def _views(players: int, games: int) -> list[dict]:
    """A view a third of the way into each of a few seeded random games."""
    game = timelord.load("clue", players=players)
    rng = Rng(players)
    found = []
    for g in range(games):
        state = game.new_game(g)
        trail = [state]
        while not state.is_over:
            legal = state.legal_actions()
            state = state.apply(legal[rng.below(len(legal))])
            trail.append(state)
        mid = trail[len(trail) // 3]
        if mid.to_move is not None:
            found.append(mid.view(mid.to_move))
    return found


@pytest.mark.parametrize("players", [3, 6])
def test_memoised_walk_draws_what_the_plain_walk_draws(players: int) -> None:
    game = timelord.load("clue", players=players)
    steps = 0
    for view in _views(players, 6):
        tables = game.prepared_view(view).sampler._tables
        steps += len(tables.steps)
        rng = Rng(len(view["log"]))
        for _ in range(60):  # later draws reuse the memo the earlier ones filled
            ours, theirs = rng.copy(), rng.copy()
            assert _draw(tables, ours) == _plain_draw(tables, theirs)
            assert ours.state == theirs.state
            rng.next64()
    assert steps > 0  # the walk had steps to memoise, not only the closed-form tail


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
