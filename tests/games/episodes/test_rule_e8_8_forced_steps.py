"""E-8.8 / E-R13: a step is taken without asking only when every seat can see that it has one
option. Where only the player's hidden cards leave one option (a Gadget draw of equal cards,
a forced hand-limit discard, an episode phase with no episode in hand), the player is asked
as at a table, and the others see and are told exactly what a free choice shows them:
otherwise the step taken by itself tells them what the hidden cards are.

Each test builds two worlds the observers cannot tell apart, one where the player's hidden
cards leave a single option and one where they leave a choice, makes the same public moves in
both, and compares every observer's (view, told events) after each move.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from timelord.core import Action, Rng
from timelord.games.episodes.actions import (
    DiscardCard,
    KeepCard,
    SkipAbility,
    SkipEpisode,
    UseAbility,
)
from timelord.games.episodes.state import EpisodesState

FILL = ["Doctor 8", "Companion 8", "Gadget 8", "Foe 8", "Plot 8", "Special 8"] * 2
OTHERS = [["Foe 2", "Plot 2"], ["Plot 3", "Special 3"]]


def _seen(
    state: EpisodesState, moves: Sequence[Action], observers: Sequence[int]
) -> list[list[tuple[dict[str, Any], list[dict[str, Any]]]]]:
    """For each observer, its (view, told events) after each move."""
    out: list[list[tuple[dict[str, Any], list[dict[str, Any]]]]] = [[] for _ in observers]
    for move in moves:
        state, events = state.apply_with_events(move)
        for i, seat in enumerate(observers):
            out[i].append((state.view(seat), state.game.tell(events, seat)))
    return out


def _texts(seen: list[tuple[dict[str, Any], list[dict[str, Any]]]]) -> list[list[str]]:
    return [[t["text"] for t in told] for _, told in seen]


def test_e8_8_a_gadget_draw_of_equal_cards_is_told_as_a_free_keep(table) -> None:
    hand = ["Gadget 4", "Doctor 1", "Companion 1", "Foe 1", "Plot 1", "Special 1"]
    alike = table([hand, *OTHERS], deck=["Companion 4"] * 3 + FILL + ["Plot 7"])
    free = table([hand, *OTHERS], deck=["Companion 4"] * 2 + ["Plot 7"] + FILL + ["Companion 4"])
    assert [alike.view(s) for s in (1, 2)] == [free.view(s) for s in (1, 2)]
    gadget = UseAbility("Gadget", 4)
    after = alike.apply(gadget)
    assert after.to_move == 0 and after.view(0)["phase"] == "keep"  # asked, one option
    assert after.legal_actions() == [KeepCard("Companion", 4)]
    one = _seen(alike, [gadget, KeepCard("Companion", 4)], [1, 2])
    other = _seen(free, [gadget, KeepCard("Plot", 7)], [1, 2])
    assert one == other
    told = "Seat 0 keeps one drawn card and discards Companion 4, Companion 4"
    assert _texts(one[0])[1] == [told]
    keeper = _seen(alike, [gadget, KeepCard("Companion", 4)], [0])[0]
    assert _texts(keeper)[1] == ["You keep Companion 4 and discard Companion 4, Companion 4"]


def test_e8_8_worlds_sampled_after_an_equal_gadget_draw_agree_with_what_was_told(table) -> None:
    """The finding: the account said the keep had no other choice, so the kept card was the
    discarded one's twin, while the view said nothing of the hand; 115 of 200 worlds dealt
    from the view contradicted the account. Now no account says so, and none does."""
    hand = ["Gadget 4", "Doctor 1", "Companion 1", "Foe 1", "Plot 1", "Special 1"]
    state = table([hand, *OTHERS], deck=["Companion 4"] * 3 + FILL)
    told: list[dict[str, Any]] = []
    while state.to_move == 0 and state.view(0)["phase"] in ("action", "keep"):
        move = state.legal_actions()[0] if told else UseAbility("Gadget", 4)
        state, events = state.apply_with_events(move)
        told += state.game.tell(events, 1)
    keeps = [t for t in told if t["kind"] == "keep"]
    assert keeps and state.view(1)["known_hands"][0] == []  # the view: nothing known of that hand
    forced = any("no other choice" in t["text"] or t["data"].get("forced") for t in keeps)
    contradicting = 0
    for i in range(200):
        world = state.game.sample_state(state.view(1), Rng(i))
        if forced and world.hands[0].count(world.discard[-1]) == 0:
            contradicting += 1  # "no other choice": the keeper holds the discards' twin
    assert contradicting == 0, f"{contradicting} of 200 worlds contradict what seat 1 was told"


def test_e8_8_a_hand_limit_discard_left_without_choice_is_asked_and_told_as_free(table) -> None:
    low = ["Doctor 1", "Doctor 2", "Doctor 3", "Doctor 4", "Doctor 5", "Doctor 6"]
    # After Special 5, Special 6 is the only card left at or above it (E-6.2) in the first
    # world; the second holds Special 7 too. Seat 0 discards Special 5 and Special 6 in both.
    forced = table([[*low, "Doctor 7", "Special 5", "Special 6"], *OTHERS],
                   deck=[*FILL, "Special 7"], phase="discard")  # fmt: skip
    free = table([[*low, "Special 5", "Special 6", "Special 7"], *OTHERS],
                 deck=[*FILL, "Doctor 7"], phase="discard")  # fmt: skip
    assert [forced.view(s) for s in (1, 2)] == [free.view(s) for s in (1, 2)]
    moves = [DiscardCard("Special", 5), DiscardCard("Special", 6)]
    after = forced.apply(moves[0])
    assert after.to_move == 0 and after.legal_actions() == [moves[1]]  # asked, one option
    one, other = _seen(forced, moves, [1, 2]), _seen(free, moves, [1, 2])
    assert one == other
    assert _texts(one[0])[1][0] == "Seat 0 discards Special 6 down to the hand limit"


def test_e8_8_an_episode_phase_without_an_episode_in_hand_is_asked(table) -> None:
    """Six or more cards and no episode among them: the player still says "no episode", so
    nobody learns that the hand could not make one. Under six cards everyone can see it."""
    none = ["Doctor 1", "Companion 1", "Gadget 1", "Foe 9", "Plot 9", "Special 9", "Foe 8"]
    some = ["Doctor 9", "Companion 9", "Gadget 9", "Foe 1", "Plot 1", "Special 1", "Foe 8"]
    deck = [*FILL, *none, *some]
    without = table([none, *OTHERS], deck=_less(deck, none))
    able = table([some, *OTHERS], deck=_less(deck, some))
    assert [without.view(s) for s in (1, 2)] == [able.view(s) for s in (1, 2)]
    after = without.apply(SkipAbility())
    assert after.to_move == 0 and after.legal_actions() == [SkipEpisode()]
    moves = [SkipAbility(), SkipEpisode()]
    assert _seen(without, moves, [1, 2]) == _seen(able, moves, [1, 2])
    short = table([none[:5], *OTHERS], deck=_less(deck, none[:5]))
    assert short.apply(SkipAbility()).to_move == 1  # five cards: no episode, plain to see


def test_e8_8_an_ability_phase_with_only_targeted_cards_and_no_target_is_asked(table) -> None:
    """Nobody else holds a card, so Foe, Plot and Special have no target (E-4.8); a hand of
    only those is still asked, as a hand with a Doctor would be."""
    deck = [*FILL, "Doctor 3", "Foe 3"]
    targeted = table([["Foe 3", "Plot 4"], [], []], deck=_less(deck, ["Foe 3"]))
    doctor = table([["Doctor 3", "Plot 4"], [], []], deck=_less(deck, ["Doctor 3"]))
    assert targeted.to_move == 0 and targeted.legal_actions() == [SkipAbility()]
    assert [targeted.view(s) for s in (1, 2)] == [doctor.view(s) for s in (1, 2)]
    moves = [SkipAbility()]
    assert _seen(targeted, moves, [1, 2]) == _seen(doctor, moves, [1, 2])


def _less(cards: list[str], gone: list[str]) -> list[str]:
    out = cards[:]
    for c in gone:
        out.remove(c)
    return out
