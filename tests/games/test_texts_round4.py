"""Texts that misled players (a door named for a back nobody saw, wrong pronouns, labels that
called named cards reconstructions), each checked where it is made."""

from __future__ import annotations

import timelord
from timelord.core.rulebook import parse_rules, rules_text
from timelord.games.keys.actions import PlaceCookie


def test_keys_a_cookie_on_a_door_not_seen_is_named_by_its_tile_alone() -> None:
    """K-6.4: the menu and refusal label says "the Dalek Door" only where the seat has seen
    a Dalek behind it; any other door is named by its tile, claiming nothing about its back."""
    game = timelord.load("keys")
    state = game.new_game(5)
    view = state.view(0)
    unseen = next(t for t, b in enumerate(view["backs"]) if b is None and view["colours"][t])
    label = game.action_label(view, PlaceCookie(unseen))
    assert "Dalek" not in label and label.startswith("put a Jam Cookie on ")
    seen = dict(view, backs=["dalek" if t == unseen else b for t, b in enumerate(view["backs"])])
    assert "the Dalek Door" in game.action_label(seen, PlaceCookie(unseen))


def test_card_game_one_card_back_from_the_valiant_goes_back() -> None:
    """C-card-the-valiant: "Amy Pond goes back to their hand", not "go"."""
    game = timelord.load("card-game", players=3)
    amy = game.cards.key.index("amy-pond")
    one = game.event_text("valiant", {"actor": 1, "card": 0, "cards": [amy]}, None)
    two = game.event_text("valiant", {"actor": 1, "card": 0, "cards": [amy, amy]}, None)
    assert "Amy Pond goes back" in one and " go back" in two


def test_card_game_sourced_cards_are_not_labelled_reconstruction() -> None:
    """Madame Kovarian and the Chameleon Arch are explained by the rulebook, the Cybermen
    named by it: their glossary entries say so."""
    gloss = timelord.load("card-game").glossary()
    for name in ("Madame Kovarian", "Chameleon Arch", "Cybermen"):
        assert gloss[name]["source"] == "confirmed", name


def test_a_clause_in_an_unnumbered_section_prints_its_heading_alone() -> None:
    """`timelord rules card-game C-card-river-song` printed "( Card effects)"."""
    sections = parse_rules(rules_text("card-game"))
    card_effects = next(s for s in sections if s.title == "Card effects")
    assert card_effects.heading == "Card effects"
    assert next(s for s in sections if s.id == "C-5").heading.startswith("C-5 ")
