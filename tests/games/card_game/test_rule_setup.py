"""Components and set-up: C-1.1, C-1.2, C-2.1 to C-2.5."""

from __future__ import annotations

from collections import Counter

import pytest

import timelord
from timelord.core import ConfigError
from timelord.games.card_game.cards import standard_cards


def test_c_1_1_manifest_counts() -> None:
    """C-1.1: 127 game cards (28 Locations, 36 Defenders, 43 Enemies, 20 Support), 4 starts."""
    cs = standard_cards()
    assert cs.game_cards == 127
    assert len(cs.start_cards) == 4
    kinds = Counter(cs.kind[c] for c in range(cs.game_cards))
    assert kinds == {"location": 28, "defender": 36, "enemy": 43, "support": 20}
    for d in cs.designs:
        assert d.status in ("confirmed", "one-source", "inferred", "reconstruction")


def test_c_1_1_every_explained_card_present() -> None:
    """C-1.1: every card the rulebook explains is in the manifest."""
    keys = set(standard_cards().key)
    expected = [
        "the-doctor",
        "amy-pond",
        "rory",
        "river-song",
        "donna",
        "sonic-screwdriver",
        "psychic-paper",
        "vincent-van-gogh",
        "wilf",
        "ood",
        "the-valiant",
        "ironsides",
        "mr-clever",
        "captain-jack",
        "collecting-on-debts",
        "tardis",
        "crack-in-time",
        "chameleon-arch",
        "bad-wolf",
        "jammy-dodger",
        "k-9",
        "regeneration",
        "papal-mainframe",
        "weeping-angels",
        "silurians",
        "dalek",
        "dalek-flagship",
        "davros",
        "madame-kovarian",
        "cyberking",
        "the-empty-child",
        "impossible-astronaut",
        "the-master",
        "clerics",
    ]
    for k in expected:
        assert k in keys, k


def test_c_1_2_time_points_and_counters() -> None:
    """C-1.2: 30 Time Points in the supply, nobody holds any at the start; 5 counters each."""
    s = timelord.load("card-game", players=4).new_game(3)
    assert s.supply == 30 and s.tp == [0, 0, 0, 0]
    assert standard_cards().constants.counters == 5


@pytest.mark.parametrize("players,aside", [(2, 2), (3, 1), (4, 0)])
def test_c_2_1_starting_locations(players: int, aside: int) -> None:
    """C-2.1: one starting Location each; the rest put aside."""
    s = timelord.load("card-game", players=players).new_game(5)
    assert len(s.aside) == aside
    assert sorted(s.loc_owner) == list(range(players))
    assert all(c in standard_cards().start_cards for c in s.loc_card)


@pytest.mark.parametrize("seed", range(6))
def test_c_2_2_highest_start_goes_first(seed: int) -> None:
    """C-2.2: the highest starting-Location number goes first."""
    s = timelord.load("card-game", players=3).new_game(seed)
    cs = standard_cards()
    best = max(range(3), key=lambda p: cs.order[s.loc_card[p]])
    assert s.first == best == s.active


@pytest.mark.parametrize("players,short", [(2, 3), (3, 2), (4, 2)])
def test_c_2_3_deal(players: int, short: int) -> None:
    """C-2.3: 5 cards each; the player right of the first gets 5 minus the pass count."""
    s = timelord.load("card-game", players=players).new_game(11)
    right = (s.first - 1) % players
    for p in range(players):
        assert len(s.hands[p]) == (short if p == right else 5)


def test_c_2_4_end_card_under_twenty() -> None:
    """C-2.4: the End of the Game card lies on the bottom 20 cards."""
    s = timelord.load("card-game", players=4).new_game(2)
    assert s.end_depth == 20
    assert len(s.deck) == 127 - 5 * 3 - 2


def test_c_2_5_two_player_variant() -> None:
    """C-2.5: with two players Davros, Chameleon Arch and Cyberking are out; pass 2."""
    g = timelord.load("card-game", players=2)
    s = g.new_game(4)
    cs = g.cards
    everywhere = set(s.deck) | {c for h in s.hands for c in h}
    names = {cs.key[c] for c in everywhere}
    assert not names & {"davros", "chameleon-arch", "cyberking"}
    assert len(everywhere) == 124
    assert g.pass_count == 2
    g3 = timelord.load("card-game", players=3)
    s3 = g3.new_game(4)
    assert len(set(s3.deck) | {c for h in s3.hands for c in h}) == 127


def test_options_validated() -> None:
    """Options: players 2-4, max_turns positive."""
    for bad in (1, 5, "3", True):
        with pytest.raises(ConfigError):
            timelord.load("card-game", players=bad)
    with pytest.raises(ConfigError):
        timelord.load("card-game", max_turns=0)
    with pytest.raises(ConfigError):
        timelord.load("card-game", colour="red")
    g = timelord.load("card-game")
    assert g.options == {"players": 4, "max_turns": 200, "cards": None, "rules": 2}
    for bad_cards in ({"card": "x"}, {"start": []}, 7):
        with pytest.raises(ConfigError):
            timelord.load("card-game", cards=bad_cards)


def test_custom_cards_rebuild_from_options() -> None:
    """A game over a custom set (`with_cards`) carries the set in `options`, so a record
    rebuilds the same game (the conformance suite's replay check relies on it)."""
    import json

    from timelord.core.conformance import check_game

    from .conftest import CARDS, make_game

    g = make_game(3)
    opts = g.options
    assert json.loads(json.dumps(opts)) == opts
    again = timelord.load("card-game", **opts)
    assert again.options == opts
    assert again.cards.design == CARDS.design and again.cards.key == CARDS.key
    assert again.cards.effects == CARDS.effects and again.cards.params == CARDS.params
    assert again.cards.constants == CARDS.constants
    assert again.new_game(3).to_json() == g.new_game(3).to_json()
    report = check_game(g, games=3, seed=11, deep_every=5)
    assert report.games == 3


def test_same_seed_same_game() -> None:
    g = timelord.load("card-game", players=3)
    assert g.new_game(9).to_json() == g.new_game(9).to_json()
    assert g.new_game(9).to_json() != g.new_game(10).to_json()
