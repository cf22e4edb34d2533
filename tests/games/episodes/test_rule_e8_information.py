"""E-8: what each seat sees and remembers, and sampling states from a view."""

from __future__ import annotations

from collections import Counter

from timelord.core import Rng
from timelord.games.episodes.actions import (
    ChooseOpponent,
    DiscardCard,
    KeepCard,
    PlayEpisode,
    SkipAbility,
    SkipEpisode,
    UseAbility,
)
from timelord.games.episodes.cards import CODE_OF
from timelord.games.episodes.game import EpisodesGame

EP = ["Doctor 9", "Companion 9", "Gadget 9", "Foe 1", "Plot 1", "Special 1"]
DECK = ["Plot 9", "Plot 8", "Plot 7", "Plot 6", "Plot 5", "Plot 4", "Plot 3", "Plot 2", "Plot 1"]


def test_e8_1_hands_and_deck_secret() -> None:
    """E-8.1: a seat sees its own hand and public counts, never another hand or the deck."""
    st = EpisodesGame(players=3).new_game(11)
    for seat in range(3):
        v = st.view(seat)
        assert v["hand"] == [f"{x}" for x in v["hand"]] and len(v["hand"]) == len(st.hands[seat])
        assert all(k == [] for k in v["known_hands"]) and v["deck_top"] == []
        assert v["hand_sizes"] == [9, 7, 7] and v["deck_size"] == len(st.deck)
    spectator = st.view(None)
    assert spectator["seat"] is None and spectator["hand"] == []


def test_e8_2_discard_pile_public_in_order(table) -> None:
    """E-8.2: the whole pile, in discard order, is in every view."""
    st = table([["Doctor 4", *EP], ["Plot 2"], ["Foe 3"]], deck=DECK, discard=["Foe 7"])
    st = st.apply(UseAbility("Doctor", 4))
    for seat in (None, 0, 1, 2):
        assert st.view(seat)["discard"] == ["Foe 7", "Doctor 4"]


def test_e8_3_peeked_cards_are_tracked_into_hands(table) -> None:
    """E-8.3: after a Doctor peek the peeker knows which cards the next drawer took."""
    st = table([["Doctor 4", *EP], ["Gadget 2", "Foe 3"]], deck=DECK)
    st = st.apply(UseAbility("Doctor", 4))
    assert st.view(0)["deck_top"] == DECK[:7]
    st = st.apply(SkipEpisode())  # seat 1 draws Plot 9, Plot 8
    v0 = st.view(0)
    assert v0["known_hands"][1] == ["Plot 8", "Plot 9"]
    assert v0["deck_top"] == DECK[2:7]
    assert st.view(1)["known_hands"][0] == []


def test_e8_3_peek_forgotten_once_drawn(table) -> None:
    """E-8.3 negative: cards below the peek stay unknown; known top shrinks with draws."""
    st = table([["Doctor 4", *EP], ["Gadget 2", "Foe 3"]], deck=DECK)
    st = st.apply(UseAbility("Doctor", 4)).apply(SkipEpisode())
    assert len(st.view(0)["deck_top"]) == 5  # never more than was seen


def test_e8_4_plot_knowledge_crossed_off_and_dropped(table) -> None:
    """E-8.4: a peeked hand loses cards discarded face up, and is dropped after an unseen
    steal by a third player."""
    st = table(
        [["Plot 4", *EP], ["Gadget 2", "Foe 3", "Doctor 1"], ["Foe 5", "Special 2"]],
        deck=DECK,
    )
    st = st.apply(UseAbility("Plot", 4)).apply(ChooseOpponent(1))
    assert st.view(0)["known_hands"][1] == ["Doctor 1", "Gadget 2", "Foe 3"]
    st = st.apply(SkipEpisode())  # seat 1 draws unseen cards
    assert st.view(0)["known_hands"][1] == ["Doctor 1", "Gadget 2", "Foe 3"]
    st = st.apply(UseAbility("Foe", 3))  # seat 1 discards its Foe 3 face up ...
    assert st.view(0)["known_hands"][1] == ["Doctor 1", "Gadget 2"]
    st = st.apply(ChooseOpponent(2))
    while st.to_move == 1:  # pass the episode, discard to the hand limit if needed
        legal = st.legal_actions()
        st = st.apply(SkipEpisode() if SkipEpisode() in legal else legal[0])
    assert st.to_move == 2
    st = st.apply(UseAbility("Foe", 5)).apply(ChooseOpponent(1))  # seat 2 steals unseen
    assert st.view(0)["known_hands"][1] == []


def test_e8_4_episode_cards_crossed_off_a_peeked_hand(table) -> None:
    """E-8.4 with E-5.3: the six cards of an episode go face up, so a seat that looked at the
    hand crosses off exactly those and still knows the rest; the state before is unchanged."""
    st = table([["Plot 4", "Foe 5"], [*EP, "Doctor 1"], ["Foe 3"]], deck=DECK)
    st = st.apply(UseAbility("Plot", 4)).apply(ChooseOpponent(1))
    st = st.apply(SkipAbility())  # seat 1's turn (seat 0 had no episode to decide)
    before = st.view(0)["known_hands"][1]
    assert before == [
        "Doctor 1",
        "Doctor 9",
        "Companion 9",
        "Gadget 9",
        "Foe 1",
        "Plot 1",
        "Special 1",
    ]
    after = st.apply(PlayEpisode((9, 9, 9, 1, 1, 1)))
    assert after.view(0)["known_hands"][1] == ["Doctor 1"]
    assert after.view(1)["discard"][-6:] == EP
    assert st.view(0)["known_hands"][1] == before


def test_e8_5_steal_known_to_thief_and_victim_only(table) -> None:
    """E-8.5: the victim knows which card the thief now holds; a third seat does not."""
    st = table([["Foe 4", *EP], ["Gadget 2", "Plot 3"], ["Special 3"]], deck=DECK)
    st = st.apply(UseAbility("Foe", 4)).apply(ChooseOpponent(1))
    taken = [c for c in ("Gadget 2", "Plot 3") if c not in st.view(1)["hand"]]
    assert st.view(1)["known_hands"][0] == taken
    assert st.view(2)["known_hands"][0] == []
    assert taken[0] in st.view(0)["hand"]


def test_e8_7_gadget_kept_card_known_to_full_peeker(table) -> None:
    """E-8.7: who saw all three drawn cards knows which one was kept."""
    st = table([["Doctor 4", "Plot 8"], ["Gadget 2", *EP]], deck=DECK, turn=0)
    st = st.apply(UseAbility("Doctor", 4))  # seat 0 sees the top 7, then seat 1's turn
    assert st.to_move == 1  # seat 1 drew Plot 9, Plot 8
    st = st.apply(UseAbility("Gadget", 2))  # draws Plot 7, 6, 5: all seen by seat 0
    assert st.view(0)["drawn"] == ["Plot 5", "Plot 6", "Plot 7"]
    assert st.view(1)["drawn"] == ["Plot 5", "Plot 6", "Plot 7"]
    st = st.apply(KeepCard("Plot", 6))
    assert "Plot 6" in st.view(0)["known_hands"][1]
    assert st.view(0)["discard"][-2:] == ["Plot 5", "Plot 7"]


def test_e8_7_gadget_kept_card_hidden_from_others(table) -> None:
    """E-8.7 negative: without a peek, the others only see the discards."""
    st = table([["Gadget 4", *EP], ["Plot 2"]], deck=DECK)
    st = st.apply(UseAbility("Gadget", 4))
    assert st.view(1)["drawn"] == [] and st.view(1)["drawn_count"] == 3
    st = st.apply(KeepCard("Plot", 8))
    assert st.view(1)["known_hands"][0] == []


def test_e8_8_two_player_target_is_automatic(table) -> None:
    """E-8.8 / E-R13: with one possible target the engine does not ask."""
    st = table([["Foe 4", *EP], ["Gadget 2"]], deck=DECK)
    st = st.apply(UseAbility("Foe", 4))
    assert st.view(0)["phase"] == "episode"
    assert "Gadget 2" in st.view(0)["hand"] and st.hands[1] == []


def test_e8_8_only_the_player_can_see_that_a_waiting_decision_has_one_option(table) -> None:
    """E-8.8: a decision the engine waits for with a single option is one whose reason is
    hidden: cards in hand but no ability to use, six cards or more but no episode, equal
    cards drawn by a Gadget, a hand-limit discard. Steps every seat can see are forced pass."""
    game = EpisodesGame(players=4)
    rng = Rng(2)
    st = game.new_game(8)
    single: set[str] = set()
    for _ in range(600):
        if st.is_over:
            break
        legal = st.legal_actions()
        if len(legal) == 1:
            view = st.view(st.seat)
            phase = view["phase"]
            single.add(phase)
            assert phase in ("action", "episode", "keep", "discard"), phase
            if phase == "action":
                others = [n for o, n in enumerate(view["hand_sizes"]) if o != st.seat]
                assert view["hand"] and not any(others)
            if phase == "episode":
                assert len(view["hand"]) >= 6
            if phase == "keep":
                assert st.limbo and len(st.limbo) > 1 and len(set(st.limbo)) == 1
        st = st.apply(legal[rng.below(len(legal))])
    assert "episode" in single and "discard" in single


def test_e8_9_sample_keeps_known_and_spreads_unknown() -> None:
    """E-8.9: sampled states rebuild the view; unknown cards land in varied places."""
    game = EpisodesGame(players=3)
    st = game.new_game(21)
    st = st.apply(SkipAbility()) if SkipAbility() in st.legal_actions() else st
    view = st.view(0)
    rng = Rng(5)
    hands = Counter()
    found_in_hand = Counter()
    for _ in range(300):
        sample = game.sample_state(view, rng)
        assert sample.view(0) == view
        assert sample.hands[0] == st.hands[0]
        hands[tuple(sample.hands[1])] += 1
        found_in_hand[sample.deck.count(CODE_OF["Doctor 9"]) < 6] += 1
    assert len(hands) > 250  # opponents' hands are dealt afresh each time
    # A card the seat cannot place is sometimes in a hand, sometimes not.
    assert found_in_hand[True] > 20 and found_in_hand[False] > 20


def test_e8_9_sample_keeps_peeked_deck_top(table) -> None:
    """E-8.9: peeked cards stay on top of a sampled deck, in order."""
    st = table([["Doctor 4", *EP], ["Gadget 2", "Foe 3"]], deck=DECK)
    st = st.apply(UseAbility("Doctor", 4))
    rng = Rng(1)
    for _ in range(20):
        sample = st.game.sample_state(st.view(0), rng)
        assert [x for x in reversed(sample.deck)][:7] == [CODE_OF[x] for x in DECK[:7]]


def test_e8_hand_limit_discards_are_public(table) -> None:
    """E-8.6: hand-limit discards are seen by all."""
    hand = [*EP, "Doctor 2", "Doctor 3"]
    st = table([hand, ["Plot 2"]], deck=DECK, phase="episode", settle=False)
    st = st.apply(SkipEpisode()).apply(DiscardCard("Doctor", 2))
    st = st.apply(st.legal_actions()[0]) if st.to_move == 0 else st
    assert "Doctor 2" in st.view(1)["discard"]


def test_e8_5_describe_hides_stolen_card_from_third_seat(table) -> None:
    """E-8.5: the move text names the stolen card only to thief and victim."""
    st = table([["Foe 4", *EP], ["Gadget 2", "Plot 3"], ["Special 3"]], deck=DECK)
    st = st.apply(UseAbility("Foe", 4))
    action = ChooseOpponent(1)
    after = st.apply(action)
    taken = next(c for c in ("Gadget 2", "Plot 3") if c not in after.view(1)["hand"])
    assert st.describe(action, 0) == f"You steal {taken} from Seat 1."
    assert st.describe(action, 1) == f"Seat 0 steals {taken} from you."
    assert st.describe(action, 2) == "Seat 0 steals a random card from Seat 1."
    assert taken not in st.describe(action, None)


def test_e8_5_describe_forced_target_two_players(table) -> None:
    """E-8.5 / E-8.8: a two-player steal names the card to both players."""
    st = table([["Foe 4", *EP], ["Gadget 2", "Plot 3"]], deck=DECK)
    action = UseAbility("Foe", 4)
    after = st.apply(action)
    taken = next(c for c in ("Gadget 2", "Plot 3") if c not in after.view(1)["hand"])
    assert f"Seat 0 steals {taken} from you (the only opponent holding cards)" in st.describe(
        action, 1
    )
    assert taken not in st.describe(action, None)


def test_e8_7_describe_gadget_keep(table) -> None:
    """E-8.7: others read which cards were discarded, not which was kept."""
    st = table([["Gadget 4", *EP], ["Plot 2"]], deck=DECK)
    st = st.apply(UseAbility("Gadget", 4))
    keep = KeepCard("Plot", 8)
    assert st.describe(keep, 0) == "You keep Plot 8 and discard Plot 7, Plot 9."
    assert st.describe(keep, 1) == "Seat 0 keeps one drawn card and discards Plot 7, Plot 9."


def test_e8_10_seat_knows_what_others_know_of_its_hand(table) -> None:
    """E-8.10: a peeked seat sees that the peeker knows its hand, minus later discards."""
    st = table(
        [["Plot 4", *EP], ["Gadget 2", "Foe 3", "Doctor 1"], ["Foe 5", "Special 2"]],
        deck=DECK,
    )
    st = st.apply(UseAbility("Plot", 4)).apply(ChooseOpponent(1))
    assert st.view(1)["known_by"][0] == ["Doctor 1", "Gadget 2", "Foe 3"]
    assert st.view(2)["known_by"] == [[], [], []]  # seat 2 was not looked at
    st = st.apply(SkipEpisode())
    st = st.apply(UseAbility("Foe", 3))  # seat 1 discards Foe 3 face up
    assert st.view(1)["known_by"][0] == ["Doctor 1", "Gadget 2"]


def test_e8_10_peek_counts_public_and_drawer_knows_it_was_seen(table) -> None:
    """E-8.10: everyone sees how many cards a Doctor showed; a drawer knows its draw was seen."""
    st = table([["Doctor 4", *EP], ["Gadget 2", "Foe 3"]], deck=DECK)
    st = st.apply(UseAbility("Doctor", 4))
    assert st.view(1)["peeked"] == [7, 0] and st.view(None)["peeked"] == [7, 0]
    st = st.apply(SkipEpisode())  # seat 1 draws two cards seat 0 saw
    assert sorted(st.view(1)["known_by"][0]) == ["Plot 8", "Plot 9"]
    rng = Rng(3)
    for _ in range(10):
        sample = st.game.sample_state(st.view(1), rng)
        assert sample.view(1) == st.view(1)
        assert sample.top == [5, 0] and sample.fixed >= 5


def test_e8_10_negative_unseen_steal_clears_others_knowledge(table) -> None:
    """E-8.10 negative: after a third seat steals from a peeked hand, the peeker's knowledge
    is gone, and the robbed seat knows that."""
    st = table(
        [["Plot 4", *EP], ["Gadget 2", "Foe 3", "Foe 6"], ["Foe 5", "Special 2"]],
        deck=DECK,
    )
    st = st.apply(UseAbility("Plot", 4)).apply(ChooseOpponent(1)).apply(SkipEpisode())
    st = st.apply(SkipAbility())
    while st.to_move == 1:
        st = st.apply(st.legal_actions()[0])
    st = st.apply(UseAbility("Foe", 5)).apply(ChooseOpponent(1))
    assert st.view(1)["known_by"][0] == []
    assert len(st.view(1)["known_by"][2]) == 0  # the thief knows its loot, not the rest
