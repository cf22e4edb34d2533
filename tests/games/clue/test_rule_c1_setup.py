"""C-1 set-up, and the options (C-8 variants) checked when a game is built."""

from __future__ import annotations

import inspect
from collections import Counter

import pytest

import timelord
from timelord.core import ConfigError


@pytest.mark.parametrize(
    ("players", "each", "left"), [(2, 9, 0), (3, 6, 0), (4, 4, 2), (5, 3, 3), (6, 3, 0)]
)
def test_c1_1_c1_2_envelope_and_equal_deal(players: int, each: int, left: int) -> None:
    game = timelord.load("clue", players=players, variant="standard")
    for seed in range(5):
        data = game.new_game(seed).to_json()
        env = data["envelope"]
        assert env[0] in range(6) and env[1] in range(6, 12) and env[2] in range(12, 21)
        assert [len(h) for h in data["hands"]] == [each] * players
        assert len(data["leftovers"]) == left
        every = env + data["leftovers"] + [c for h in data["hands"] for c in h]
        assert sorted(every) == list(range(21))


def test_c1_2_leftovers_are_seen_by_everyone() -> None:
    state = timelord.load("clue", players=4).new_game(3)
    left = state.to_json()["leftovers"]
    assert all(state.view(p)["leftovers"] == left for p in range(4))
    assert state.view(None)["leftovers"] == left


def test_c1_3_movers_and_weapons_start_in_the_tardis() -> None:
    data = timelord.load("clue", players=3).new_game(0).to_json()
    assert data["movers"] == [9] * 6 and data["weapons"] == [9] * 6


def test_c1_4_each_seat_has_its_own_character() -> None:
    for seed in range(10):
        chars = timelord.load("clue", players=6).new_game(seed).to_json()["characters"]
        assert sorted(chars) == list(range(6))


def test_c1_5_seat_zero_starts() -> None:
    state = timelord.load("clue", players=5).new_game(11)
    assert state.to_move == 0


def test_c1_6_intrigue_deck_of_13_actions_and_8_pocketwatches() -> None:
    pile = timelord.load("clue").new_game(2).to_json()["pile"]
    counts = Counter(pile)
    assert len(pile) == 21 and counts["pocketwatch"] == 8


def test_c8_1_original_clue_has_no_intrigue_deck_but_keeps_powers() -> None:
    """C-8.1 (ruling CL-12, rules 2): original Clue puts the intrigue cards away, and only
    them: the characters keep their powers unless `powers=false` says otherwise."""
    game = timelord.load("clue", intrigue=False)
    assert game.new_game(0).to_json()["pile"] == []
    assert game.options["powers"] is True
    assert timelord.load("clue", intrigue=False, powers=False).options["powers"] is False


def test_c8_1_rules_1_dropped_the_powers_with_the_intrigue_deck() -> None:
    """CL-12 as rules 1 read it (kept for its records): no intrigue, no powers."""
    assert timelord.load("clue", intrigue=False, rules=1).options["powers"] is False


def test_c8_2_two_players_play_the_two_player_rules_by_default() -> None:
    """C-8.2 (ruling CL-18): "you can never use the Intrigue Cards in a 2-player or Team
    game": at 2 players the default is the two-player variant (four cards aside, no intrigue
    deck); asking for the intrigue deck gets the standard game, and rules 1 kept the
    standard game unless the variant was named."""
    game = timelord.load("clue", players=2)
    data = game.new_game(4).to_json()
    assert game.options["variant"] == "two-player" and game.options["intrigue"] is False
    assert len(data["side"]) == 4 and data["pile"] == []
    assert timelord.load("clue", players=2, intrigue=True).options["variant"] == "standard"
    assert timelord.load("clue", players=2, rules=1).options["variant"] == "standard"
    assert timelord.load("clue", players=3).options["variant"] == "standard"


def test_c8_2_two_player_variant_sets_four_cards_aside() -> None:
    game = timelord.load("clue", players=2, variant="two-player")
    data = game.new_game(4).to_json()
    assert len(data["side"]) == 4 and [len(h) for h in data["hands"]] == [7, 7]
    assert data["pile"] == [] and game.options["intrigue"] is False


@pytest.mark.parametrize(
    "options",
    [
        {"players": 1},
        {"players": 7},
        {"players": True},
        {"variant": "teams"},
        {"players": 3, "variant": "two-player"},
        {"players": 2, "variant": "two-player", "intrigue": True},
        {"max_rounds": 0},
        {"max_rounds": 10**9},
        {"max_rounds": "60"},
        {"max_rounds": 60.0},
        {"variant": ["standard"]},
        {"players": "4"},
        {"powers": 1},
        {"intrigue": "yes"},
        {"colour": "blue"},
    ],
)
def test_bad_options_are_refused(options: dict[str, object]) -> None:
    with pytest.raises(ConfigError):
        timelord.load("clue", **options)


def test_options_rebuild_the_same_game() -> None:
    game = timelord.load("clue", players=2, variant="two-player", max_rounds=9)
    again = timelord.load("clue", **game.options)
    assert again.options == game.options
    assert again.new_game(5).to_json() == game.new_game(5).to_json()


def test_c8_2_two_player_variant_keeps_character_powers() -> None:
    # RB: "Follow step 4 of set-up as usual" (choose a character and its power card), "but
    # ignore step 5" (the intrigue cards). Ruling CL-12.
    game = timelord.load("clue", players=2, variant="two-player")
    assert game.options["powers"] is True and game.options["intrigue"] is False
    assert timelord.load("clue", players=2, variant="two-player", powers=False).powers is False
    with pytest.raises(ConfigError):
        timelord.load("clue", players=2, variant="two-player", intrigue=True)


def test_every_option_is_documented() -> None:
    game = timelord.load("clue")
    # every parameter; `max_turns` is in a game's options only when given (records of games
    # without it stay as they were)
    assert set(game.options_doc) == set(inspect.signature(type(game)).parameters)
    assert set(game.options) == set(game.options_doc) - {"max_turns"}
    assert "max_turns" in timelord.load("clue", max_turns=5).options
    assert all(text for text in game.options_doc.values())
