"""The tiny research variants (docs/variants.md): named options that are never the default,
the full rules over a smaller game, passing the conformance suite, and refusing to mix with
the options they replace."""

from __future__ import annotations

import pytest

import timelord
from timelord.core import ConfigError
from timelord.core.conformance import check_game
from timelord.core.record import Record, replay

TINY = ("card-game", "episodes", "keys")


@pytest.mark.parametrize("game_id", [*TINY, "clue"])
def test_the_tiny_variant_passes_conformance(game_id: str) -> None:
    game = timelord.load(game_id, players=2, variant="tiny")
    report = check_game(game, games=15)
    assert report.games == 15


@pytest.mark.parametrize("game_id", TINY)
def test_the_variant_is_never_the_default_and_records_name_it(game_id: str) -> None:
    standard = timelord.load(game_id, players=2)
    assert "variant" not in standard.options  # records of the real game are as before
    tiny = timelord.load(game_id, players=2, variant="tiny")
    assert tiny.options["variant"] == "tiny"
    state = tiny.new_game(3)
    legal = state.legal_actions()
    record = Record(game_id, tiny.options, 3, [legal[0].to_json()])
    assert replay(record).to_json() == state.apply(legal[0]).to_json()
    with pytest.raises(ConfigError, match="variant"):
        timelord.load(game_id, players=2, variant="huge")


def test_the_tiny_card_game_sizes() -> None:
    game = timelord.load("card-game", players=2, variant="tiny")
    assert len(game.cards.cards_in_play(2)) == 5 and game.cards.constants.hand_size == 2
    assert game.max_turns == 2
    assert timelord.load("card-game", players=2, variant="tiny", max_turns=3).max_turns == 3
    with pytest.raises(ConfigError, match="own cards"):
        timelord.load("card-game", variant="tiny", cards=game.cards.to_data())
    for players in (3, 4):  # five cards deal two hands of two, no more
        with pytest.raises(ConfigError, match="2 players"):
            timelord.load("card-game", players=players, variant="tiny")


def test_the_tiny_episodes_sizes() -> None:
    game = timelord.load("episodes", players=2, variant="tiny")
    state = game.new_game(1)
    assert sorted(len(h) for h in state.hands) == [3, 3]  # the six cards, dealt out (E-2.1)
    assert (game.target, game.max_rounds) == (4, 1)
    assert timelord.load("episodes", players=2, variant="tiny", max_rounds=2).max_rounds == 2
    with pytest.raises(ConfigError, match="own deck"):
        timelord.load("episodes", variant="tiny", deck=[["Doctor", 1, 1]])


def test_the_tiny_clue_is_a_named_variant_that_records_replay() -> None:
    """Clue's options always name the variant ("standard" included, as before); the tiny
    one is never the default and its records replay (rules: tests/games/clue)."""
    assert timelord.load("clue", players=3).options["variant"] == "standard"
    assert timelord.load("clue", players=2).options["variant"] == "two-player"  # CL-18
    tiny = timelord.load("clue", players=2, variant="tiny")
    assert tiny.options == {
        "players": 2,
        "variant": "tiny",
        "intrigue": False,
        "powers": True,
        "max_rounds": 1,
        "rules": 2,
    }
    state = tiny.new_game(3)
    actions = []
    while not state.is_over:
        action = state.legal_actions()[-1]
        actions.append(action.to_json())
        state = state.apply(action)
    assert replay(Record("clue", tiny.options, 3, actions)).to_json() == state.to_json()


def test_the_tiny_keys_sizes() -> None:
    game = timelord.load("keys", players=2, variant="tiny")
    assert game.tables.geo.size == 3 and len(game.content.deck) == 8
    assert (game.content.deal, game.content.hand_limit) == (1, 2)
    assert (game.round_limit, game.turn_limit) == (2, 3)
    assert timelord.load("keys", variant="tiny", turn_limit=4).turn_limit == 4
    for players in (3, 4):  # a 3x3 grid and eight Keys are set out for two
        with pytest.raises(ConfigError, match="2 players"):
            timelord.load("keys", players=players, variant="tiny")
