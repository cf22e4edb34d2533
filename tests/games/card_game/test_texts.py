"""Card texts, option docs and menu labels, so a player learns the cards at the table: every
design and counter explained from data, the card each move uses, every option documented."""

from __future__ import annotations

from pathlib import Path

import timelord
from timelord.core import Rng
from timelord.games.card_game.actions import DiscardToRegenerate
from timelord.games.card_game.game import CardGame


def test_every_card_design_has_a_glossary_text() -> None:
    """C-1.1: every design of the shipped set (and each counter) has a text and a source;
    every card with an ability (effects or a combining rule) has its ability text, with the
    RULES.md clause it is played by."""
    game = timelord.load("card-game", players=4)
    cs = game.cards
    gloss = game.glossary()
    rules = (Path(timelord.__file__).parent / "games/card_game/RULES.md").read_text()
    for c in range(len(cs.design)):
        entry = gloss[cs.name[c]]
        assert entry["text"].endswith(".") and entry["source"] in (
            "confirmed", "one-source", "inferred", "reconstruction",
        )  # fmt: skip
        if cs.effects[c] or cs.designs[cs.design[c]].combines:
            assert entry["clause"] and f"**{entry['clause']}**" in rules, cs.key[c]
            assert len(entry["text"]) > len("Enemy, strength 9."), cs.key[c]
    for counter in ("TARDIS counter", "Dalek counter", "Time Points", "End of the Game card"):
        assert gloss[counter]["text"]


def test_action_card_names_a_glossary_entry_for_card_moves() -> None:
    """Every offered move that plays or uses a card names it, and the name has a text."""
    game = timelord.load("card-game", players=3)
    gloss = game.glossary()
    rng = Rng(2)
    s = game.new_game(2)
    named = 0
    while not s.is_over:
        legal = s.legal_actions()
        view = s.view(s.to_move)
        for a in legal:
            name = game.action_card(a)
            if isinstance(a, DiscardToRegenerate):  # names the card played, not the discard
                assert name == "Regeneration"
            elif getattr(a, "card", None) is not None:
                assert name == game.cards.name[a.card]
            if name is not None:
                assert name in gloss
                named += 1
            label = game.action_label(view, a)
            assert label and "#" not in label and "location -" not in label
        s = s.apply(legal[rng.below(len(legal))])
    assert named > 100


def test_options_doc_covers_every_option() -> None:
    """`timelord games card-game` can list every option with its meaning, default and range."""
    game = timelord.load("card-game", players=3)
    tiny = timelord.load("card-game", players=2, variant="tiny")
    # the variant is named in a record only when it is not the standard game
    assert set(CardGame.options_doc) == set(tiny.options) == set(game.options) | {"variant"}
    assert "10000" in CardGame.options_doc["max_turns"].replace(",", "")
    assert "default 4" in CardGame.options_doc["players"]


def test_the_table_shows_no_internal_ids() -> None:
    """The rendered table names the pending decision and the end in words: no phase ids
    ("declare-defenders") and no ending ids ("end-game") on screen."""
    from timelord.games.card_game.doors import ENDINGS
    from timelord.games.card_game.state import PHASES

    game = timelord.load("card-game", players=3)
    ids = [p for p in PHASES if "-" in p] + [e for e in ENDINGS if e]
    rng = Rng(8)
    phases = set()
    for seed in range(3):
        s = game.new_game(seed)
        while True:
            for seat in (None, s.to_move):
                text = game.render_view(s.view(seat))
                assert not any(i in text for i in ids), text
            phases.add(s.phase)
            if s.is_over:
                break
            legal = s.legal_actions()
            s = s.apply(legal[rng.below(len(legal))])
    assert {"declare-defenders", "declare-enemies", "over"} <= phases
