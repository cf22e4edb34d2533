"""A small test deck with its own numbers, so scenario tests never depend on the real data."""

from __future__ import annotations

import pytest

from timelord.games.card_game.cards import card_set_from_toml
from timelord.games.card_game.game import CardGame

TEST_CARDS = """
[game]
time_points = 30
counters = 5
hand_size = 5
pass_cards = 3
pass_cards_two_player = 2
end_depth = 4
buy_cost = 5
reserve_limit = 2

[[start]]
key = "s1"
name = "Start One"
order = 1
vp = 2
[[start]]
key = "s2"
name = "Start Two"
order = 2
vp = 2
[[start]]
key = "s3"
name = "Start Three"
order = 3
vp = 2
[[start]]
key = "s4"
name = "Start Four"
order = 4
vp = 2

[[card]]
key = "small-place"
name = "Small Place"
kind = "location"
copies = 4
vp = 1
tp = 3
[[card]]
key = "big-place"
name = "Big Place"
kind = "location"
copies = 2
vp = 4
tp = 1

[[card]]
key = "the-doctor"
name = "The Doctor"
kind = "defender"
type = "the-doctor"
strength = 3
copies = 3
[[card]]
key = "amy-pond"
name = "Amy Pond"
kind = "defender"
type = "amy-pond"
strength = 2
copies = 2
[[card]]
key = "rory"
name = "Rory"
kind = "defender"
type = "rory"
strength = 1
copies = 4
effects = ["returns-to-hand"]
[[card]]
key = "river-song"
name = "River Song"
kind = "defender"
type = "river-song"
strength = 2
copies = 2
effects = ["reveal-gain"]
reveal_tp = 1
[[card]]
key = "donna"
name = "Donna"
kind = "defender"
type = "donna"
strength = 2
effects = ["reveal-gain"]
reveal_tp = 1
[[card]]
key = "clara"
name = "Clara"
kind = "defender"
type = "clara"
strength = 2
copies = 3

[[card]]
key = "dalek"
name = "Dalek"
kind = "enemy"
type = "dalek"
strength = 2
copies = 4
[[card]]
key = "dalek-flagship"
name = "Dalek Flagship"
kind = "enemy"
type = "dalek"
strength = 4
[[card]]
key = "davros"
name = "Davros"
kind = "enemy"
type = "dalek"
strength = 3
effects = ["takeover"]
two_player = false
[[card]]
key = "cybermen"
name = "Cybermen"
kind = "enemy"
type = "cybermen"
strength = 2
copies = 2
[[card]]
key = "cyberking"
name = "Cyberking"
kind = "enemy"
type = "cybermen"
strength = 4
effects = ["takeover"]
two_player = false
[[card]]
key = "weeping-angels"
name = "Weeping Angels"
kind = "enemy"
type = "weeping-angels"
strength = 1
copies = 2
effects = ["reveal-gain"]
reveal_tp = 1
[[card]]
key = "silurians"
name = "Silurians"
kind = "enemy"
type = "silurians"
strength = 2
copies = 2
effects = ["beaten-by"]
beaten_by = "amy-pond"
[[card]]
key = "the-silence"
name = "The Silence"
kind = "enemy"
type = "the-silence"
strength = 2
copies = 2
[[card]]
key = "headless-monks"
name = "Headless Monks"
kind = "enemy"
type = "headless-monks"
strength = 2
[[card]]
key = "clerics"
name = "Clerics"
kind = "enemy"
type = "clerics"
combines = ["the-silence", "headless-monks", "madame-kovarian"]
strength = 1
[[card]]
key = "madame-kovarian"
name = "Madame Kovarian"
kind = "enemy"
type = "madame-kovarian"
combines = ["the-silence", "headless-monks", "clerics"]
strength = 2
effects = ["turns-defender"]
turns = "river-song"
[[card]]
key = "the-master"
name = "The Master"
kind = "enemy"
type = "the-master"
combines = ["any"]
strength = 3
[[card]]
key = "impossible-astronaut"
name = "The Impossible Astronaut"
kind = "enemy"
type = "impossible-astronaut"
combines = ["any"]
strength = 0
effects = ["astronaut"]
stopped_by = "river-song"
removes = "the-doctor"
[[card]]
key = "the-empty-child"
name = "The Empty Child"
kind = "enemy"
type = "the-empty-child"
strength = 1
effects = ["reveal-steal"]
reveal_tp = 1
[[card]]
key = "papal-mainframe"
name = "Papal Mainframe"
kind = "enemy"
type = "papal-mainframe"
strength = 1
effects = ["voids-location"]
[[card]]
key = "sontarans"
name = "Sontarans"
kind = "enemy"
type = "sontarans"
strength = 3
copies = 2

[[card]]
key = "sonic-screwdriver"
name = "Sonic Screwdriver"
kind = "support"
effects = ["reveal-attack"]
tp = 1
[[card]]
key = "psychic-paper"
name = "Psychic Paper"
kind = "support"
effects = ["reveal-attack"]
tp = 1
[[card]]
key = "vincent-van-gogh"
name = "Vincent Van Gogh"
kind = "support"
effects = ["reveal-attack"]
tp = 1
[[card]]
key = "wilf"
name = "Wilf"
kind = "support"
effects = ["reserve-slot"]
slots = 1
stays = true
[[card]]
key = "ood"
name = "Ood"
kind = "support"
effects = ["reserve-slot"]
slots = 1
stays = true
[[card]]
key = "the-valiant"
name = "The Valiant"
kind = "support"
effects = ["valiant"]
[[card]]
key = "ironsides"
name = "Ironsides"
kind = "support"
effects = ["ironsides"]
cost = 1
boost = 1
stays = true
[[card]]
key = "mr-clever"
name = "Mr Clever"
kind = "support"
effects = ["remove-tardis"]
count = 3
tp = 2
[[card]]
key = "captain-jack"
name = "Captain Jack"
kind = "support"
effects = ["discard-enemy"]
[[card]]
key = "collecting-on-debts"
name = "Collecting on Debts"
kind = "support"
effects = ["discard-enemy"]
[[card]]
key = "tardis"
name = "TARDIS"
kind = "support"
effects = ["count-tardis"]
bonus = 2
[[card]]
key = "crack-in-time"
name = "Crack in Time"
kind = "support"
effects = ["count-daleks"]
bonus = 2
[[card]]
key = "chameleon-arch"
name = "Chameleon Arch"
kind = "support"
effects = ["redirect"]
two_player = false
[[card]]
key = "bad-wolf"
name = "Bad Wolf"
kind = "support"
effects = ["defeat-attack"]
needs_type = "dalek"
needs_face_up = true
[[card]]
key = "jammy-dodger"
name = "Jammy Dodger"
kind = "support"
effects = ["defeat-attack"]
copies = 2
[[card]]
key = "k-9"
name = "K-9"
kind = "support"
effects = ["defeat-attack"]
discard_defender = true
[[card]]
key = "regeneration"
name = "Regeneration"
kind = "support"
effects = ["regenerate"]
"""

CARDS = card_set_from_toml(TEST_CARDS)


def make_game(players: int = 3, max_turns: int = 400, rules: int | None = None) -> CardGame:
    return CardGame.with_cards(CARDS, players=players, max_turns=max_turns, rules=rules)


@pytest.fixture
def game3() -> CardGame:
    return make_game(3)


@pytest.fixture
def game2() -> CardGame:
    return make_game(2)


@pytest.fixture
def game4() -> CardGame:
    return make_game(4)
