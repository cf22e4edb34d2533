"""Episodes: every transition tells each seat what happened (the log it follows the game
by), redacted as views are, with steps the engine resolved by itself; nothing a seat is told
depends on its secrets."""

from __future__ import annotations

from collections import Counter

from timelord.core import Rng
from timelord.games.episodes.actions import ChooseOpponent, KeepCard, UseAbility
from timelord.games.episodes.game import EpisodesGame
from timelord.games.episodes.state import EpisodesState

EP = ["Doctor 9", "Companion 9", "Gadget 9", "Foe 1", "Plot 1", "Special 1"]
DECK = ["Plot 9", "Plot 8", "Plot 7", "Plot 6", "Plot 5", "Plot 4", "Plot 3", "Plot 2", "Plot 1"]


def _told(st: EpisodesState, action: object, seat: int | None) -> list[str]:
    _, events = st.apply_with_events(action)  # type: ignore[arg-type]
    return [t["text"] for t in st.game.tell(events, seat)]


def test_a_steal_names_the_card_to_thief_and_victim_only(table) -> None:
    st = table([["Foe 4", *EP], ["Gadget 2", "Plot 3"], ["Special 3"]], deck=DECK)
    st = st.apply(UseAbility("Foe", 4))
    after, events = st.apply_with_events(ChooseOpponent(1))
    taken = next(c for c in ("Gadget 2", "Plot 3") if c not in after.view(1)["hand"])
    steal = next(e for e in events if e.kind == "steal")
    assert steal.seen_by(0)["card"] == steal.seen_by(1)["card"] == taken
    assert "card" not in steal.seen_by(2) and "card" not in steal.seen_by(None)
    game = st.game
    assert f"You steal {taken} from Seat 1" in _told(st, ChooseOpponent(1), 0)
    assert f"Seat 0 steals {taken} from you" in _told(st, ChooseOpponent(1), 1)
    assert "Seat 0 steals a random card from Seat 1" in _told(st, ChooseOpponent(1), 2)
    assert all(taken not in t["text"] for t in game.tell(events, None))


def test_a_plot_shows_the_hand_to_the_looker_only(table) -> None:
    st = table([["Plot 4", *EP], ["Gadget 2", "Foe 3"], ["Special 3"]], deck=DECK)
    st = st.apply(UseAbility("Plot", 4))
    assert "You look at Seat 1's hand: Gadget 2, Foe 3" in _told(st, ChooseOpponent(1), 0)
    assert "Seat 0 looks at your hand" in _told(st, ChooseOpponent(1), 1)
    assert "Seat 0 looks at Seat 1's hand" in _told(st, ChooseOpponent(1), 2)


def test_draws_and_peeks_are_private_to_the_seat_that_sees_them(table) -> None:
    st = table([["Doctor 4", "Companion 2", *EP], ["Plot 2"], ["Foe 3"]], deck=DECK)
    peek = _told(st, UseAbility("Doctor", 4), 0)
    assert any("You look at the next 7 cards of the deck: Plot 9, Plot 8" in t for t in peek)
    assert "Seat 0 looks at the next 7 cards of the deck" in _told(st, UseAbility("Doctor", 4), 1)
    drawn = _told(st, UseAbility("Companion", 2), 0)
    assert "You draw 2 cards (Companion): Plot 8, Plot 9" in drawn
    assert "Seat 0 draws 2 cards (Companion)" in _told(st, UseAbility("Companion", 2), 2)


def test_a_gadget_draw_of_equal_cards_is_still_a_keep_the_player_makes(table) -> None:
    """E-8.8: three equal cards leave one option, but only the player sees that; the player is
    asked, and the others are told what any keep tells them (issue 18 item 10)."""
    st = table([["Gadget 4", *EP], ["Plot 2"]], deck=["Plot 9"] * 3)
    st = st.apply(UseAbility("Gadget", 4))
    assert st.legal_actions() == [KeepCard("Plot", 9)]
    assert _told(st, KeepCard("Plot", 9), 0)[0] == "You keep Plot 9 and discard Plot 9, Plot 9"
    assert _told(st, KeepCard("Plot", 9), 1)[0] == (
        "Seat 0 keeps one drawn card and discards Plot 9, Plot 9"
    )


def test_a_keep_names_the_kept_card_to_the_keeper_only(table) -> None:
    st = table([["Gadget 4", *EP], ["Plot 2"]], deck=DECK)
    st = st.apply(UseAbility("Gadget", 4))
    assert _told(st, KeepCard("Plot", 8), 0)[0] == "You keep Plot 8 and discard Plot 7, Plot 9"
    assert _told(st, KeepCard("Plot", 8), 1)[0] == (
        "Seat 0 keeps one drawn card and discards Plot 7, Plot 9"
    )


def _playouts(games: int, players: int, **options: object):  # type: ignore[no-untyped-def]
    game = EpisodesGame(players=players, **options)  # type: ignore[arg-type]
    for g in range(games):
        st = game.new_game(g)
        rng = Rng(g + 100)
        while not st.is_over:
            legal = st.legal_actions()
            action = legal[rng.below(len(legal))]
            after, events = st.apply_with_events(action)
            yield game, st, action, after, events
            st = after


def test_every_kind_of_event_occurs_and_reads_well() -> None:
    kinds: Counter[str] = Counter()
    forced: Counter[str] = Counter()
    for game, _, _, _, events in _playouts(6, 3, target=30, max_rounds=40):
        for e in events:
            kinds[e.kind] += 1
            if e.data.get("forced"):
                forced[e.kind] += 1
            for seat in (None, 0, 1, 2):
                text = game.tell([e], seat)[0]["text"]
                assert "None" not in text and "you's" not in text and " 1 cards" not in text
                assert text[0].isupper()
    expected = {
        "ability", "skip_ability", "peek", "draw", "reshuffle", "look", "steal",
        "random_discard", "keep", "episode", "skip_episode", "hand_limit_discard", "turn", "end",
    }  # fmt: skip
    assert expected <= set(kinds), expected - set(kinds)
    # only steps every seat can see are forced (E-8.8): a target, a one-card Gadget draw
    assert set(forced) <= {"look", "steal", "random_discard", "keep"}, forced


def test_events_never_depend_on_what_the_seat_cannot_see() -> None:
    """Leak test: deal the seat's hidden cards again (same view); where the action is legal
    in both and the seat's view after is the same, the seat is told exactly the same."""
    compared = 0
    for game, st, action, after, events in _playouts(3, 3, max_rounds=15):
        for seat in range(3):
            twin = game.sample_state(st.view(seat), Rng(compared))
            twin.rng = st.rng  # the same random choices, on other hidden cards
            if action not in twin.legal_actions():
                continue
            twin_after, twin_events = twin.apply_with_events(action)
            if twin_after.view(seat) != after.view(seat):
                continue
            assert game.tell(twin_events, seat) == game.tell(events, seat), action
            compared += 1
    assert compared > 200


def test_a_draw_from_nothing_is_told(table) -> None:
    """E-3.3: with the deck and the discard pile empty the draw is lost, and said so."""
    from timelord.games.episodes.actions import SkipAbility

    st = table([["Doctor 1"], ["Foe 2"]], deck=[])
    assert _told(st, SkipAbility(), 0)[-1] == (
        "Seat 1 draws nothing: the deck and the discard pile are empty (E-3.3)"
    )
