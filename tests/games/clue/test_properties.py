"""Properties over random games: conservation, no leaks, and sampling that fits the view."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import timelord
from timelord.core import Rng
from timelord.games.clue.notebook import knowledge_fields
from timelord.games.clue.state import ClueState

CARD_AT = {"show": 3, "peek": 3, "side": 3, "scan": 3}
PARTIES = {"show": (1, 2), "peek": (1, 2), "side": (1,), "scan": (1, 2)}


def _play(players: int, seed: int, steps: int, **options: object) -> list:
    game = timelord.load("clue", players=players, **options)
    state, rng, out = game.new_game(seed), Rng(seed), []
    while not state.is_over and len(out) < steps:
        out.append(state)
        legal = state.legal_actions()
        state = state.apply(legal[rng.below(len(legal))])
    out.append(state)
    return out


@settings(max_examples=15, deadline=None)
@given(st.integers(2, 6), st.integers(0, 10_000))
def test_every_card_is_in_exactly_one_place(players: int, seed: int) -> None:
    for state in _play(players, seed, 150)[::10]:
        data = state.to_json()
        places = data["envelope"] + data["leftovers"] + data["side"]
        places += [c for hand in data["hands"] for c in hand]
        assert sorted(places) == list(range(21))


@settings(max_examples=15, deadline=None)
@given(st.integers(2, 6), st.integers(0, 10_000), st.booleans())
def test_no_view_shows_another_seats_secret(players: int, seed: int, intrigue: bool) -> None:
    for state in _play(players, seed, 200, intrigue=intrigue)[::5]:
        data = state.to_json()
        for seat in range(players):
            view = state.view(seat)
            assert view["hand"] == data["hands"][seat]
            assert view["kept"] == data["kept"][seat]
            assert "pile" not in view and "hands" not in view and "side" not in view
            if view["envelope"] is not None:
                assert state.is_over or data["saw_envelope"][seat]
            for ev in view["log"]:
                if ev[0] in CARD_AT and ev[CARD_AT[ev[0]]] is not None:
                    assert seat in [ev[i] for i in PARTIES[ev[0]]]
                if ev[0] == "draw" and ev[1] != seat:
                    assert ev[2] in ("", "pocketwatch") or not game_keeps(state, ev[2])


def game_keeps(state: ClueState, kind: str) -> bool:
    return state.game.keep[kind]


@settings(max_examples=10, deadline=None)
@given(st.integers(3, 6), st.integers(0, 10_000))
def test_sampled_deals_agree_with_everything_the_seat_knows(players: int, seed: int) -> None:
    game = timelord.load("clue", players=players)
    rng = Rng(seed)
    for state in _play(players, seed, 250)[::25]:
        for seat in range(players):
            view = state.view(seat)
            sampled = game.sample_state(view, rng)
            assert sampled.view(seat) == view
            data = sampled.to_json()
            hands = [set(h) for h in data["hands"]]
            facts = knowledge_fields(view)
            for card, holder in facts["known"].items():
                assert card in hands[holder]
            for ev in facts["events"]:
                if ev[0] == "none":
                    assert not hands[ev[1]] & set(ev[2])
                elif ev[0] == "one":
                    assert hands[ev[1]] & set(ev[2])
                else:
                    assert set(ev[1]) != set(data["envelope"])


def test_sampling_deals_the_hidden_cards_differently() -> None:
    game = timelord.load("clue", players=4)
    view = game.new_game(5).view(0)
    rng = Rng(1)
    envelopes = {tuple(game.sample_state(view, rng).to_json()["envelope"]) for _ in range(30)}
    assert len(envelopes) > 5
