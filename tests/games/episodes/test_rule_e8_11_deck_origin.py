"""E-8.11: after a reshuffle every seat knows what the new deck can hold (the pile was public)."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from timelord.core import Rng
from timelord.games.episodes.actions import KeepCard, UseAbility
from timelord.games.episodes.cards import LABEL
from timelord.games.episodes.game import EpisodesGame

EP = ["Doctor 9", "Companion 9", "Gadget 9", "Foe 1", "Plot 1", "Special 1"]
PILE = ["Plot 9", "Plot 8", "Plot 7", "Plot 6"]


def _reshuffled(table, ability: str = "Companion 2"):
    """Seat 0 discards `ability` onto PILE with an empty deck; its draw reshuffles."""
    st = table([[ability, *EP], ["Gadget 2", "Foe 3"], ["Special 3"]], discard=PILE)
    suit, fp = ability.split(" ")
    return st.apply(UseAbility(suit, int(fp)))


def test_e8_11_pool_is_the_reshuffled_pile(table) -> None:
    """E-8.11: a seat that did not draw knows the deck holds only cards of the old pile."""
    st = _reshuffled(table)
    assert st.reshuffles == 1
    pile = sorted([*PILE, "Companion 2"], key=lambda x: [LABEL.index(x)])
    for seat in (1, 2, None):
        assert st.view(seat)["deck_pool"] == pile


def test_e8_11_own_draws_leave_own_pool_only(table) -> None:
    """E-8.11: the drawer crosses off the cards it drew; the others cannot."""
    st = _reshuffled(table)
    mine = Counter(st.view(0)["hand"]) - Counter(EP)
    assert sum(mine.values()) == 2
    assert Counter(st.view(0)["deck_pool"]) == Counter([*PILE, "Companion 2"]) - mine
    assert len(st.view(1)["deck_pool"]) == 5


def test_e8_11_no_pool_before_a_reshuffle() -> None:
    """E-8.11 negative: before the first reshuffle the deck is just "everything unseen"."""
    st = EpisodesGame(players=3).new_game(4)
    assert all(st.view(s)["deck_pool"] is None for s in (None, 0, 1, 2))


def test_e8_11_sampled_deck_only_from_the_pile(table) -> None:
    """E-8.11 / E-8.9: a sampled deck never holds a card that was in a hand at the reshuffle."""
    st = _reshuffled(table)
    view = st.view(1)
    rng = Rng(7)
    pile = Counter([*PILE, "Companion 2"])
    for _ in range(200):
        sample = st.game.sample_state(view, rng)
        assert sample.view(1) == view
        assert not Counter(LABEL[c] for c in sample.deck) - pile


def test_e8_11_gadget_discards_leave_every_pool(table) -> None:
    """E-8.11: cards a Gadget draw discards came from the deck, as everyone sees."""
    st = table([["Gadget 2", *EP], ["Gadget 3", "Foe 3"], ["Special 3"]], discard=PILE)
    st = st.apply(UseAbility("Gadget", 2))  # reshuffle first (deck empty), then draw 3
    assert st.view(0)["drawn_old"] == 0
    drawn = st.view(0)["drawn"]
    keep = drawn[0]
    st = st.apply(KeepCard(*keep.split(" ")[:1], int(keep.split(" ")[1])))
    gone = Counter(drawn) - Counter([keep])
    full = Counter([*PILE, "Gadget 2"])
    assert Counter(st.view(1)["deck_pool"]) == full - gone
    assert Counter(st.view(None)["deck_pool"]) == full - gone
    assert Counter(st.view(0)["deck_pool"]) == full - Counter(drawn)


def test_e8_11_gadget_draw_across_a_reshuffle_keeps_pools(table) -> None:
    """E-8.11 negative: when the Gadget draw reshuffles midway, nobody else can tell which
    discarded card came from the new deck, so their pools stay whole."""
    st = table(
        [["Gadget 2", *EP], ["Gadget 3", "Foe 3"], ["Special 3"]], deck=["Doctor 4"], discard=PILE
    )
    st = st.apply(UseAbility("Gadget", 2))
    assert st.view(1)["drawn_old"] == 1 and st.reshuffles == 1
    keep = "Doctor 4" if "Doctor 4" in st.view(0)["drawn"] else st.view(0)["drawn"][0]
    st = st.apply(KeepCard(keep.split(" ")[0], int(keep.split(" ")[1])))
    assert len(st.view(1)["deck_pool"]) == 5


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32),
    choices=st.lists(st.integers(0, 50), min_size=60, max_size=200),
)
def test_e8_11_deck_always_within_every_pool(players: int, seed: int, choices: list[int]) -> None:
    """E-8.11: the real deck, and every sampled deck, lie inside the seat's known origin."""
    game = EpisodesGame(players=players)
    state = game.new_game(seed)
    rng = Rng(seed)
    for pick in choices:
        if state.is_over:
            break
        legal = state.legal_actions()
        state = state.apply(legal[pick % len(legal)])
        if not state.reshuffles:
            continue
        deck = Counter(LABEL[c] for c in state.deck)
        for seat in range(players):
            view = state.view(seat)
            pool = Counter(view["deck_pool"])
            assert not deck - pool
            sample = game.sample_state(view, rng)
            assert not Counter(LABEL[c] for c in sample.deck) - pool
