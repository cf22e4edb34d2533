"""Keys to the TARDIS, so a player learns the game at the table: texts of every card, tile and
piece as data; clear menu
labels named by board squares; a legend for every symbol of the grid."""

from __future__ import annotations

import inspect
import re

from timelord.core import Rng
from timelord.games.keys import KeysGame
from timelord.games.keys.actions import OpenDoor, PlaceBarrier, StepOff
from timelord.games.keys.board import BACK_NAMES

from .conftest import T


def test_every_card_back_and_piece_has_a_sourced_text() -> None:
    game = KeysGame()
    glossary = game.glossary()
    for name in (*game.content.card_names, *BACK_NAMES, "Closed door", "Step off"):
        entry = glossary[name]
        assert entry["text"] and entry["source"] in ("confirmed", "reconstruction"), name
        assert entry["rule"].startswith("K-")
    assert "yellow door" in glossary["Key (yellow)"]["text"]
    assert "Jammy Dodger" in glossary["Jam Cookie"]["text"]


def test_every_offered_action_has_a_label_and_a_known_card() -> None:
    game = KeysGame(players=3)
    glossary = game.glossary()
    longest = 0
    for seed in range(2):
        state = game.new_game(seed)
        rng = Rng(seed)
        while not state.is_over:
            legal = state.legal_actions()
            view = state.view(state.to_move)
            for action in legal:
                card = game.action_card(action)
                assert card is None or card in glossary, action
                label = game.action_label(view, action)
                assert "#" not in label and "None" not in label
                longest = max(longest, len(label))
            state = state.apply(legal[rng.below(len(legal))])
    assert longest < 90


def test_labels_name_tiles_as_on_the_board(make) -> None:
    state = make(
        tiles={"c1": ("yellow", "open"), "e5": ("red", "dalek")},
        seen=["e5"],
        hands=[["key-yellow", "sonic", "barrier"], []],
        pawns=["c2", None],
    )
    game, view = state.game, state.view(0)
    assert game.action_label(view, OpenDoor(T("c1"), "key-yellow")) == "open c1 with yellow key"
    assert game.action_label(view, OpenDoor(T("e5"), "sonic")) == (
        "open e5 (red door, Dalek Door behind) with Sonic Screwdriver"
    )
    assert (
        game.action_label(view, PlaceBarrier(T("c1"))) == "put a Time Barrier on c1 (yellow door)"
    )
    assert game.action_card(OpenDoor(T("c1"), "key-yellow")) == "Key (yellow)"
    assert game.action_card(OpenDoor(T("c1"), "tardis-key")) == "TARDIS Key"
    assert game.action_card(StepOff()) == "Step off"


def test_the_legend_explains_every_symbol_on_the_grid(make) -> None:
    state = make(
        tiles={"c5": ("red", "dalek"), "e2": ("green", "teleport")},
        open_=["c5", "c1"],
        seen=["e2"],
        cookies=["c5"],
        barriers=["a7"],
        tunnels=[("b2", "c1")],
        pawns=["c1", None],
        hands=[["key-blue"], ["sonic"]],
    )
    text = state.game.render_view(state.view(0))
    legend = text[text.index("Legend") :]
    for symbol in ("#", ".", "?", "o ", "D ", "K ", "X ", "T ", "*", "c ", "+", "(CC)", "\\", "/"):
        assert symbol in legend, symbol
    for colour in ("B blue", "R red", "G green", "Y yellow"):
        assert colour in legend
    assert re.search(r"\b1 cards", text) is None and "(west): off the board" not in text
    assert "Seat 1 (north): off the board (north edge); 1 card" in text


def test_every_option_is_documented() -> None:
    options = set(inspect.signature(KeysGame.__init__).parameters) - {"self"}
    assert options == set(KeysGame.options_doc)
