"""Actions built outside the legal list (API clients, edited records) are refused
with the real reason and clause, never with an IndexError or a wrapped-round index."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

import timelord
from timelord.core import CorruptRecord, IllegalAction, InvalidSeat
from timelord.core.record import Record, replay
from timelord.games.clue.actions import (
    LookAtSideCard,
    Move,
    NameCard,
    PlayCard,
    RollDice,
    ShowCard,
    Target,
    UsePassage,
)


def _moving(h: SimpleNamespace) -> object:
    state = h.build()
    while True:  # roll until the mover must move (no "?" draw in between)
        nxt = state.apply(RollDice())
        if nxt.phase == 1:
            return nxt
        state = h.build(rng=state.rng + 1)


@pytest.mark.parametrize("to", [999, 10**6, -1, -30])
def test_c3_2_a_move_to_a_node_that_does_not_exist_is_refused(h: SimpleNamespace, to: int) -> None:
    state = _moving(h)
    with pytest.raises(IllegalAction) as err:
        state.apply(Move(to))  # type: ignore[attr-defined]
    assert err.value.rule == "C-3.2"
    assert f"no board node {to}" in err.value.reason
    assert "London" not in err.value.reason  # -1 used to wrap round to the last location


@pytest.mark.parametrize(
    ("action", "rule", "words"),
    [
        (UsePassage(-1), "C-2.2", "no location -1"),
        (UsePassage(9), "C-2.2", "no location 9"),
        (NameCard(21), "C-4.1", "no card 21"),
        (ShowCard(-2), "C-4.1", "no card -2"),
        (LookAtSideCard(0), "C-8.2", "two-player variant"),
        (Target(4), "C-6.4", "no seat 4"),
        (Target(-1), "C-6.4", "no seat -1"),
        (PlayCard("jammie"), "C-6.4", "no intrigue action card"),
        (PlayCard("pocketwatch"), "C-6.4", "no intrigue action card"),
    ],
)
def test_fields_out_of_range_name_the_real_reason(
    h: SimpleNamespace, action: object, rule: str, words: str
) -> None:
    state = h.build()
    with pytest.raises(IllegalAction) as err:
        state.apply(action)  # type: ignore[attr-defined]
    assert err.value.rule == rule and words in err.value.reason


def test_a_side_card_past_the_four_is_refused_in_the_two_player_game(h: SimpleNamespace) -> None:
    state = h.build(2, {"variant": "two-player"}, phase="side", decider=0, rumour=[0, 1, 7, 13])
    for index in (4, -1):
        with pytest.raises(IllegalAction) as err:
            state.apply(LookAtSideCard(index))
        assert err.value.rule == "C-8.2" and f"no side card {index}" in err.value.reason


def test_an_edited_record_with_an_impossible_move_is_a_corrupt_record() -> None:
    game = timelord.load("clue", players=3)
    state = game.new_game(5)
    actions = []
    while state.phase != 1:  # play to the first move
        legal = state.legal_actions()
        actions.append(legal[0].to_json())
        state = state.apply(legal[0])
    for to in (999, -1):
        record = Record("clue", game.options, 5, [*actions, {"type": "Move", "to": to}])
        with pytest.raises(CorruptRecord, match="no board node"):
            replay(record)


@pytest.mark.parametrize("seat", [-1, 4, 10**9, True, "0", 1.0])
def test_a_view_for_a_seat_not_at_the_table_is_refused(seat: object) -> None:
    state = timelord.load("clue", players=4).new_game(2)
    with pytest.raises(InvalidSeat):
        state.view(seat)  # type: ignore[arg-type]


def test_any_action_with_any_field_is_applied_or_refused_with_a_library_error() -> None:
    """A fuzzer over actions: every kind with odd field values (negative, past the end, huge,
    of the wrong type), built in Python and read from JSON, at many positions."""
    import contextlib
    import dataclasses

    from timelord.core import GameError, Rng
    from timelord.games.clue.actions import ACTION_TYPES

    odd: list[object] = [-1, 0, 1, 3, 9, 20, 21, 63, 64, 511, 512, 10**20, "x", True, None, []]
    odd += ["vortex-jump", "pocketwatch"]
    for players, options in ((4, {}), (2, {"variant": "two-player"})):
        game = timelord.load("clue", players=players, **options)
        state, rng = game.new_game(9), Rng(9)
        for step in range(240):
            if state.is_over:
                break
            if step % 4 == 0:
                for cls in ACTION_TYPES:
                    fields = dataclasses.fields(cls)
                    for value in odd if fields else [None]:
                        values = {f.name: value for f in fields}
                        try:
                            action = game.action_from_json({"type": cls.__name__, **values})
                        except GameError:
                            action = cls(**values)  # type: ignore[arg-type]
                        with contextlib.suppress(GameError):
                            state.apply(action)
            legal = state.legal_actions()
            state = state.apply(legal[rng.below(len(legal))])
