"""C-7 character powers, C-8.2 the two-player variant, C-9 the round bound."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from timelord.core import IllegalAction
from timelord.games.clue.actions import (
    EndTurn,
    LookAtSideCard,
    Move,
    NameCard,
    Pass,
    ShowCard,
    Target,
    UsePower,
)

G = 2


def _asking(h: SimpleNamespace, **fields: object) -> object:
    base = {
        "phase": "name",
        "purpose": "rumour",
        "naming_location": G,
        "movers": [G, 9, 9, 9, 9, 9],
        "pile": [],
    }
    base.update(fields)
    return h.build(**base)


def test_c7_1_amy_and_rory_get_a_second_answer(h: SimpleNamespace) -> None:
    state = h.play(_asking(h), NameCard(h.RIVER), NameCard(h.SONIC), ShowCard(h.RIVER))
    # Vastra (seat 2) may peek first; she passes.
    assert state.to_move == 2 and state.legal_actions() == [UsePower(), Pass()]
    state = state.apply(Pass())
    assert state.to_move == 0 and state.legal_actions() == [UsePower(), Pass()]
    state = state.apply(UsePower())
    assert state.to_move == 2 and state.legal_actions() == [
        ShowCard(h.SONIC),
        ShowCard(h.GALLIFREY),
    ]
    state = state.apply(ShowCard(h.SONIC))
    shows = [e for e in state.view(0)["log"] if e[0] == "show"]
    assert shows == [["show", 1, 0, h.RIVER], ["show", 2, 0, h.SONIC]]


def test_c7_1_amy_and_rory_are_not_offered_a_second_answer_with_nobody_left_to_ask(
    h: SimpleNamespace,
) -> None:
    # Seats 1 and 2 hold none of the three; seat 3, the last before the asker, answers.
    state = _asking(h, naming_location=h.room(h.SKARO), movers=[h.room(h.SKARO), 9, 9, 9, 9, 9])
    state = h.play(state, NameCard(h.AMY), NameCard(h.LIPSTICK), ShowCard(h.SKARO))
    assert state.to_move == 2  # Vastra may peek first
    state = state.apply(Pass())
    assert state.to_move == 1 and state.view(1)["phase"] == "start"
    assert state.view(0)["powers_used"] == [False, False, False, False]


def test_c7_1_a_power_is_used_once_per_game(h: SimpleNamespace) -> None:
    state = h.build(characters=[3, 1, 2, 0], powers_used=[True, False, False, False])
    assert UsePower() not in state.legal_actions()
    with pytest.raises(IllegalAction) as err:
        state.apply(UsePower())
    assert err.value.rule == "C-7.1"


def test_c7_1_vastra_sees_the_card_shown_to_another(h: SimpleNamespace) -> None:
    state = h.play(_asking(h), NameCard(h.RIVER), NameCard(h.SONIC), ShowCard(h.RIVER))
    state = state.apply(UsePower())
    assert ["peek", 2, 1, h.RIVER] in state.view(2)["log"]
    assert state.view(2)["powers_used"][2] is True


def test_c7_1_clara_scans_strax_names_any_location(h: SimpleNamespace) -> None:
    state = h.build(characters=[3, 1, 2, 0])
    assert UsePower() in state.legal_actions()
    state = h.play(state, UsePower(), Target(3))
    assert state.view(0)["log"][-1][:3] == ["scan", 0, 3]
    strax = h.build(characters=[1, 0, 2, 3])
    strax = h.play(strax, UsePower(), NameCard(h.JENNY), NameCard(h.SONIC))
    assert strax.legal_actions() == [NameCard(c) for c in range(12, 21)]


def test_c7_1_river_moves_anywhere_and_jenny_plays_again(h: SimpleNamespace) -> None:
    river = h.play(h.build(characters=[5, 1, 2, 3]), UsePower())
    assert river.legal_actions() == [Move(r) for r in range(9)]
    jenny = h.play(h.build(characters=[4, 1, 2, 3]), UsePower())
    assert jenny.view(1)["extra_turns"][0] == 1


def test_c8_2_nobody_answers_so_the_asker_sees_a_side_card(h: SimpleNamespace) -> None:
    state = h.build(
        players=2,
        options={"variant": "two-player"},
        phase="name",
        purpose="rumour",
        naming_location=0,
        movers=[0, 9, 9, 9, 9, 9],
    )
    state = h.play(state, NameCard(h.AMY), NameCard(h.LIPSTICK))
    assert state.legal_actions() == [LookAtSideCard(i) for i in range(4)]
    state = state.apply(LookAtSideCard(2))
    assert state.view(0)["side_seen"] == {"2": 3} and state.view(1)["side_seen"] == {}
    assert state.view(1)["log"][-1] == ["side", 0, 2, None]
    assert state.to_move == 1


def test_c8_2_a_side_card_already_seen_is_not_offered(h: SimpleNamespace) -> None:
    state = h.build(
        players=2,
        options={"variant": "two-player"},
        phase="side",
        rumour=[0, 0, 6, 12],
        side_seen=[[0, 2], []],
    )
    assert state.legal_actions() == [LookAtSideCard(1), LookAtSideCard(3)]
    with pytest.raises(IllegalAction) as err:
        state.apply(LookAtSideCard(0))
    assert err.value.rule == "C-8.2"


def test_c9_1_the_round_bound_ends_the_game_unsolved(h: SimpleNamespace) -> None:
    state = h.build(options={"max_rounds": 2}, turn=8, current=3, decider=3, phase="centre")
    state = state.apply(EndTurn())
    assert state.is_over and state.winners() == [] and state.legal_actions() == []
    assert state.view(0)["envelope"] is not None


def test_c9_1_max_actions_holds_in_random_games() -> None:
    import timelord
    from timelord.core import Rng

    for players in (2, 6):
        game = timelord.load("clue", players=players, max_rounds=5)
        for seed in range(5):
            state, rng, n = game.new_game(seed), Rng(seed), 0
            while not state.is_over:
                legal = state.legal_actions()
                state = state.apply_unchecked(legal[rng.below(len(legal))])
                n += 1
            assert n <= game.max_actions and state.view(0)["turn"] <= 5 * players
