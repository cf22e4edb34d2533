"""`sample_state` checks the view it is given at the door (agents and clients hand it views
they built), and its per-view cache (`ViewCache`) is safe under the server's threads."""

from __future__ import annotations

import copy
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

import timelord
from timelord.core import CorruptRecord, GameError, InvalidSeat, Rng
from timelord.games.clue.actions import Accuse
from timelord.games.clue.game import ClueGame

from .test_hardening_states import _mutate


def _position(players: int = 4, seed: int = 4, steps: int = 80, **options: Any) -> Any:
    game = timelord.load("clue", players=players, **options)
    assert isinstance(game, ClueGame)
    state, rng = game.new_game(seed), Rng(seed)
    for _ in range(steps):
        legal = [a for a in state.legal_actions() if not isinstance(a, Accuse)]
        state = state.apply(legal[rng.below(len(legal))])
    return game, state


def _doctored(view: dict[str, Any]) -> list[tuple[str, Any]]:
    def edit(**changes: Any) -> dict[str, Any]:
        out = copy.deepcopy(view)
        out.update(changes)
        return out

    n = view["players"]
    return [
        ("empty", {}),
        ("not an object", [view]),
        ("huge hand sizes", edit(hand_sizes=[10**20] * n)),
        ("hand size off by one", edit(hand_sizes=[view["hand_sizes"][0] + 1] * n)),
        ("pile off by one", edit(pile_size=view["pile_size"] + 1)),
        ("kept count off by one", edit(kept_counts=[c + 1 for c in view["kept_counts"]])),
        ("huge kept counts", edit(kept_counts=[10**20] * n)),
        ("a card of the hand changed", edit(hand=[*view["hand"][:-1], view["leftovers"][0]])),
        ("other options", edit(players=n + 1)),
        ("string steps", edit(steps="3")),
        ("history not a list", edit(log="rumour")),
        ("history entry of a list", edit(log=[[["rumour"]]])),
        ("movers missing", {k: v for k, v in view.items() if k != "movers"}),
        ("a mover off the board", edit(movers=[10**6] * 6)),
        ("one seat too many out", edit(out=[*view["out"], ""])),
    ]


@pytest.mark.parametrize("index", range(15))
def test_a_doctored_view_is_refused_at_the_door(index: int) -> None:
    game, state = _position()
    seat = state.to_move
    name, bad = _doctored(state.view(seat))[index]
    start = time.process_time()
    with pytest.raises(CorruptRecord):
        game.sample_state(bad, Rng(1))
    assert time.process_time() - start < 2.0, name


def test_a_spectator_view_or_a_seat_off_the_table_is_refused() -> None:
    game, state = _position()
    with pytest.raises(CorruptRecord, match="spectator"):
        game.sample_state(state.view(None), Rng(1))
    view = state.view(0)
    for seat in (-1, 4, "0"):
        with pytest.raises(InvalidSeat):
            game.sample_state({**view, "seat": seat}, Rng(1))


def test_mutated_views_are_refused_or_sampled_faithfully() -> None:
    rng = Rng(77)
    refused = 0
    for players, options in ((4, {}), (2, {"variant": "two-player"}), (5, {})):
        game, state = _position(players, 2, 70, **options)
        for seat in range(players):
            view = state.view(seat)
            for _ in range(12):
                mutant = _mutate(view, rng)
                try:
                    sampled = game.sample_state(mutant, rng)
                except GameError:
                    refused += 1
                    continue
                assert sampled.view(mutant["seat"]) == mutant
    assert refused > 0


def test_sampling_from_eight_threads_at_once_stays_right() -> None:
    game, state = _position(6, 9, 0)
    views = []
    rng = Rng(9)
    for _ in range(48):  # more views than the cache keeps, so entries are evicted meanwhile
        legal = [a for a in state.legal_actions() if not isinstance(a, Accuse)]
        state = state.apply(legal[rng.below(len(legal))])
        seat = state.to_move
        if seat is not None:
            views.append((seat, state.view(seat)))

    def work(k: int) -> int:
        r = Rng(k)
        ok = 0
        for i in range(40):
            seat, view = views[(k * 7 + i) % len(views)]
            assert game.sample_state(view, r).view(seat) == view
            ok += 1
        return ok

    with ThreadPoolExecutor(max_workers=8) as pool:
        assert sum(pool.map(work, range(8))) == 320


def _after(kind: str, players: int, seeds: range) -> Any:
    """A state of a random game just after a history entry of `kind`, and the entry."""
    game = timelord.load("clue", players=players)
    for seed in seeds:
        state, rng = game.new_game(seed), Rng(seed)
        while not state.is_over:
            legal = [a for a in state.legal_actions() if not isinstance(a, Accuse)]
            state = state.apply(legal[rng.below(len(legal))])
            if state.events() and state.events()[-1][0] == kind and not state.is_over:
                yield game, state, state.events()[-1]


def test_c4_4_a_sampled_answerer_shows_any_card_it_could_not_always_the_first() -> None:
    for game, state, (_, shower, asker, _card) in _after("show", 4, range(40)):
        rumour = next(e for e in reversed(state.events()) if e[0] == "rumour")
        seat = next(p for p in range(4) if p not in (shower, asker))
        view = state.view(seat)
        shown: dict[bool, int] = {True: 0, False: 0}
        rng = Rng(5)
        for _ in range(300):
            sampled = game.sample_state(view, rng)
            hand = sampled.hands[shower]
            could = [c for c in rumour[2:5] if c in hand]
            if len(could) > 1:
                told = [e for e in sampled.events() if e[0] == "show"][-1][3]
                shown[told == could[0]] += 1
        if shown[True] + shown[False] >= 60:
            assert shown[False] > 0.25 * (shown[True] + shown[False]), shown
            return
    pytest.fail("no rumour answered by a player holding several of the three")


def test_c6_4_a_peekers_sample_shows_the_card_it_peeked_at() -> None:
    peeks = _after("peek", 6, range(200))
    for found, (game, state, (_, peeker, _shower, card)) in enumerate(peeks, 1):
        view = state.view(peeker)
        for i in range(5):
            sampled = game.sample_state(view, Rng(i))
            assert sampled.view(peeker) == view
            assert [e for e in sampled.events() if e[0] == "show"][-1][3] == card
        if found == 12:
            return
    pytest.fail("no peek in these games")


def test_a_view_with_a_float_for_a_card_number_is_refused() -> None:
    """Found by the long fuzz run: `19.0 == 19` let a doctored view through the door, and the
    renderer then indexed a list with a float."""
    state = ClueGame(players=4).new_game(5)
    view = state.view(0)
    view["categories"][2][0] = float(view["categories"][2][0])
    with pytest.raises(CorruptRecord):
        state.game.sample_state(view, Rng(1))
