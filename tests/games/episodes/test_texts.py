"""Episodes: card and step texts as data, option docs, menu labels, so a player learns the
cards and steps at the table."""

from __future__ import annotations

import inspect

from timelord.core import Rng
from timelord.games.episodes.actions import ChooseOpponent, UseAbility
from timelord.games.episodes.cards import SUITS
from timelord.games.episodes.game import EpisodesGame


def test_every_suit_and_step_has_a_sourced_text() -> None:
    glossary = EpisodesGame().glossary()
    for suit in SUITS:
        assert suit in glossary
    for name, entry in glossary.items():
        assert entry["text"] and entry["source"] in ("confirmed", "reconstruction"), name
        assert entry["rule"].startswith("E-")


def test_every_action_names_a_glossary_entry_or_none() -> None:
    game = EpisodesGame(players=3, target=30)
    glossary = game.glossary()
    named = set()
    for seed in range(3):
        st = game.new_game(seed)
        rng = Rng(seed)
        while not st.is_over:
            legal = st.legal_actions()
            for action in legal:
                card = game.action_card(action)
                assert card is None or card in glossary
                named.add(card)
            st = st.apply(legal[rng.below(len(legal))])
    assert {"Doctor", "Foe", "Episode", "Hand limit", "Gadget"} <= named


def test_every_option_is_documented() -> None:
    options = set(inspect.signature(EpisodesGame.__init__).parameters) - {"self"}
    assert options == set(EpisodesGame.options_doc)
    assert "1000" in EpisodesGame.options_doc["deck"]


def test_menu_labels_say_what_a_move_does(table) -> None:
    st = table([["Foe 4", "Plot 2"], ["Gadget 2", "Plot 3"], ["Special 3"]], deck=["Plot 9"])
    view = st.view(0)
    game = st.game
    assert game.action_label(view, UseAbility("Foe", 4)) == (
        "discard Foe 4 to steal a random card from an opponent"
    )
    st = st.apply(UseAbility("Foe", 4))
    view = st.view(0)
    assert game.action_label(view, ChooseOpponent(1)) == "target Seat 1 (2 cards in hand)"
    assert game.action_label(view, ChooseOpponent(2)) == "target Seat 2 (1 card in hand)"


def test_render_counts_agree_in_number(table) -> None:
    st = table([["Foe 4"], ["Gadget 2", "Plot 3"]], deck=["Plot 9"])
    text = st.game.render_view(st.view(0))
    assert "1 cards" not in text and "1 card in hand" in text and "Deck: 1 card " in text
