"""What the terminal shows people (issue 33, "People and seats": one numbering, from 1, and
no internal index): seats, move labels, events and pictures pass through cli/readable.py."""

from __future__ import annotations

import random
import re

from timelord import load
from timelord.cli import readable


def test_seats_are_counted_from_1_in_names_labels_and_events() -> None:
    game = load("clue", players=3)
    assert [readable.seat_name(game, s) for s in range(3)] == ["Seat 1", "Seat 2", "Seat 3"]
    state = game.new_game(5)
    rng = random.Random(5)
    said: list[str] = []
    for _ in range(120):
        if state.is_over:
            break
        view = state.view(state.to_move)
        said += [readable.label(game, view, a) for a in state.legal_actions()]
        state, events = state.apply_with_events(rng.choice(state.legal_actions()))
        said += readable.told(game, events, 0)
    text = "\n".join(said)
    assert "Seat 0" not in text and re.search(r"Seat [123]\b", text)
    assert "Seat 0" not in readable.picture(game, game.render_view(state.view(0)))


def test_keys_pawns_are_their_seats_numbers() -> None:
    """A Keys pawn is drawn as its seat's number: from 1, like the seat's name."""
    game = load("keys", players=2)
    state = game.new_game(3)
    rng = random.Random(1)
    while not any(p is not None for p in state.view(0).get("pawns", [None])):
        state = state.apply(rng.choice(state.legal_actions()))
        if state.is_over:
            break
    for ansi in (False, True):
        raw = game.render_view(state.view(0), ansi=ansi)
        shown = readable.picture(game, raw)
        assert "pawn    1-2:" in shown and "Seat 1 (south)" in shown
        raw_pawns = re.findall(r"(?:\(CC\)|[#.][?A-Za-z][ *c+])(?:\x1b\[1m)?(\d)", raw)
        shown_pawns = re.findall(r"(?:\(CC\)|[#.][?A-Za-z][ *c+])(?:\x1b\[1m)?(\d)", shown)
        assert [int(p) + 1 for p in raw_pawns] == [int(p) for p in shown_pawns]


def test_card_game_pictures_show_no_card_ids() -> None:
    """Hand lines ("19: Demons Run"), Enemies ("Sontarans[104]") and Locations ("[3] ...",
    "... at Leadworth [1]") read by name at every step of a few random games."""
    game = load("card-game", players=3)
    ids = re.compile(r"\[\d+\]|^\s+\d+: ", re.M)
    seen_raw = 0
    for seed in range(4):
        state = game.new_game(seed)
        rng = random.Random(seed)
        for _ in range(150):
            if state.is_over:
                break
            raw = game.render_view(state.view(0))
            shown = readable.picture(game, raw)
            seen_raw += bool(ids.search(raw))
            assert not ids.search(shown), shown
            assert "Your hand:" in shown and "VP as it stands" in shown
            state = state.apply(rng.choice(state.legal_actions()))
    assert seen_raw  # the engine's pictures had them


def test_a_seat_the_record_lacks_is_refused_in_both_numberings() -> None:
    """`--seat` counts from 0 as records do while the screen shows Seat 1 and up: a refusal
    says both, so `--seat 2` at a two-player table is not a riddle."""
    import pytest

    from timelord.core import InvalidSeat

    game = load("clue", players=2)
    assert readable.record_seat(game, 1) == 1 and readable.record_seat(game, None) is None
    with pytest.raises(
        InvalidSeat, match=r"counts from 0.*seats 0 to 1 \(shown as Seat 1 to Seat 2\)"
    ):
        readable.record_seat(game, 2)
