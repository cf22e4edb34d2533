"""E-1: the deck, its suits and FP values, and the card data file."""

from __future__ import annotations

from collections import Counter

import pytest

from timelord.core import ConfigError
from timelord.games.episodes.actions import UseAbility
from timelord.games.episodes.cards import SUITS, card_entries, standard_deck
from timelord.games.episodes.game import EpisodesGame


def test_e1_1_ninety_cards_fifteen_per_suit() -> None:
    """E-1.1: 90 cards, 15 in each of the six suits."""
    deck = standard_deck()
    assert deck.size == 90
    per_suit = Counter(SUITS[c >> 4] for c in deck.cards())
    assert per_suit == dict.fromkeys(SUITS, 15)


def test_e1_2_fp_within_range() -> None:
    """E-1.2: every card's FP is 1..15."""
    assert all(1 <= e.fp <= 15 for e in card_entries())


@pytest.mark.parametrize("fp", [0, 16, -1])
def test_e1_2_fp_out_of_range_refused(fp: int) -> None:
    """E-1.2 negative: a deck row with FP outside 1..15 is a configuration error."""
    with pytest.raises(ConfigError):
        EpisodesGame(deck=[["Foe", fp, 1]])


def test_e1_2_unknown_suit_refused() -> None:
    """E-1.2 negative: only the six suits exist."""
    with pytest.raises(ConfigError):
        EpisodesGame(deck=[["Dalek", 3, 1]])


def test_e1_2_equal_cards_are_one_choice(table) -> None:
    """E-1.2: two cards of equal suit and FP are interchangeable, so listed once."""
    st = table([["Foe 6", "Foe 6", "Doctor 5"], ["Plot 2"]])
    uses = [a for a in st.legal_actions() if isinstance(a, UseAbility)]
    assert uses == [UseAbility("Doctor", 5), UseAbility("Foe", 6)]


def test_e1_3_records_say_where_they_come_from() -> None:
    """E-1.3: Doctors are sourced, the other suits a labelled reconstruction."""
    entries = card_entries()
    assert sum(e.copies for e in entries) == 90
    for e in entries:
        assert e.sources, e.name
        if SUITS[e.suit] == "Doctor":
            assert e.status in ("one-source", "inferred", "confirmed")
        else:
            assert e.status == "reconstruction"
    doctors = {e.name: (e.fp, e.copies) for e in entries if SUITS[e.suit] == "Doctor"}
    assert doctors == {"Ninth Doctor": (5, 4), "Tenth Doctor": (7, 5), "Eleventh Doctor": (9, 6)}
