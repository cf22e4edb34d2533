"""C-8.3 the tiny research variant (data/tiny.toml, docs/variants.md, ruling CL-17): the two-player
rules (C-8.2) over two suspects, two weapons and two locations round the TARDIS, moves of a
fixed two steps, one round unless `max_rounds` or `max_turns` says otherwise."""

from __future__ import annotations

from typing import Any

import pytest

import timelord
from timelord.core import ConfigError, IllegalAction
from timelord.games.clue.actions import (
    Accuse,
    EndTurn,
    LookAtSideCard,
    Move,
    NameCard,
    RollDice,
    ShowCard,
)
from timelord.games.clue.board import TARDIS, standard_board
from timelord.games.clue.doors import read_state
from timelord.games.clue.game import ClueGame
from timelord.games.clue.state import SIDE, ClueState

# Card ints of the tiny set (data/tiny.toml order); rooms 0 and 1, the TARDIS 9.
AMY, VASTRA, SONIC, MOMENT, GALLIFREY, SKARO = range(6)
CORRIDOR = 10  # the one square, between the three doors


def tiny(**options: Any) -> ClueGame:
    game = timelord.load("clue", players=2, variant="tiny", **options)
    assert isinstance(game, ClueGame)
    return game


def position(game: ClueGame, **fields: Any) -> ClueState:
    """A tiny position: envelope (Vastra, The Moment, Skaro), seat 0 holds Sonic, seat 1
    Gallifrey, Amy & Rory aside; seat p plays suspect p; then `fields` (JSON names)."""
    data = game.new_game(1).to_json()
    data.update(
        envelope=[VASTRA, MOMENT, SKARO],
        hands=[[SONIC], [GALLIFREY]],
        side=[AMY],
        leftovers=[],
        characters=[0, 1],
    )
    data.update(fields)
    return read_state(game, data)


def play(state: ClueState, *actions: Any) -> ClueState:
    for a in actions:
        state = state.apply(a)
    return state


def test_c8_3_c1_setup_the_tiny_deck_and_the_two_player_deal() -> None:
    game = tiny()
    assert game.card_names == (
        "Amy & Rory",
        "Madame Vastra",
        "Sonic Screwdriver",
        "The Moment",
        "Gallifrey",
        "Skaro",
    )
    assert game.categories == ((0, 1), (2, 3), (4, 5))
    assert game.power_effect == ("second-answer", "peek")  # each suspect keeps its power
    assert (game.intrigue, game.powers, game.max_rounds, game.max_turns) == (False, True, 1, 2)
    for seed in range(20):
        s = game.new_game(seed)
        # C-1.2: one card of each kind in the envelope; C-8.2: one card aside, one each
        assert [c in cat for c, cat in zip(s.env, game.categories, strict=True)] == [True] * 3
        assert len(s.side) == 1 and [len(h) for h in s.hands] == [1, 1] and s.left == ()
        assert s.pos == (TARDIS, TARDIS) and s.wpos == (TARDIS, TARDIS)  # C-1.1
        assert s.pile == ()  # C-8.2: never the intrigue cards


def test_c8_3_cl17_a_move_is_two_steps_to_any_other_room_never_the_corridor() -> None:
    game = tiny()
    s = position(game)
    assert s.legal_actions() == [RollDice(), Accuse()]  # in the TARDIS: roll or accuse
    moved = s.apply(RollDice())
    assert (moved.roll, moved.steps) == ((2, 0), 2)
    assert moved.legal_actions() == [Move(0), Move(1)]  # both locations; not the square
    # from a location: the other one or the TARDIS, each two steps through the corridor
    s = position(game, movers=[0, TARDIS], phase="move", roll=[2, 0], steps=2)
    assert s.legal_actions() == [Move(1), Move(TARDIS)]
    assert CORRIDOR not in game.board.destinations(0, 2, False)
    assert game.board.places == frozenset({0, 1, TARDIS, CORRIDOR})
    # the numbers between the rooms and the TARDIS are no node of this board
    for node in (2, 8, 11):
        with pytest.raises(IllegalAction, match=f"no board node {node}"):
            moved.apply(Move(node))


def test_c8_3_c8_2_a_rumour_nobody_answers_shows_the_asker_the_side_card() -> None:
    game = tiny()
    s = play(position(game), RollDice(), Move(1), NameCard(VASTRA), NameCard(MOMENT))
    # seat 1 holds Gallifrey, not Vastra, The Moment or Skaro: it cannot answer
    assert s.phase == SIDE and s.dec == 0
    assert s.legal_actions() == [LookAtSideCard(0)]
    s = s.apply(LookAtSideCard(0))
    assert s.seen_side == ((0,), ()) and s.cur == 1
    assert s.view(0)["side_seen"] == {"0": AMY} and s.view(1)["side_seen"] == {}
    # the rumour moved Madame Vastra, seat 1's mover, into Skaro (C-4.2)
    assert s.pos == (1, 1) and s.moved == (False, True)


def test_c8_3_c4_4_an_answer_shows_the_named_card_to_the_asker_only() -> None:
    game = tiny()
    s = play(position(game), RollDice(), Move(0), NameCard(VASTRA), NameCard(MOMENT))
    assert s.dec == 1 and s.legal_actions() == [ShowCard(GALLIFREY)]
    s = s.apply(ShowCard(GALLIFREY))
    assert ["show", 1, 0, GALLIFREY] in s.view(0)["log"]
    assert ["show", 1, 0, None] in s.view(None)["log"]
    assert s.seen_side == ((), ())  # answered: no side card (C-8.2)


def test_c8_3_c5_an_accusation_from_the_start_in_the_tardis_wins_or_puts_out() -> None:
    game = tiny()
    right = play(position(game), Accuse(), NameCard(VASTRA), NameCard(MOMENT), NameCard(SKARO))
    assert right.is_over and right.winners() == [0]
    wrong = play(position(game), Accuse(), NameCard(AMY), NameCard(MOMENT), NameCard(SKARO))
    assert wrong.out == ("accused", "") and wrong.cur == 1 and not wrong.is_over
    # CL-10: with one round the second player's turn is the last; ending it ends the game
    last = play(wrong, RollDice(), Move(0), NameCard(AMY), NameCard(SONIC), ShowCard(SONIC))
    assert last.is_over and last.winners() == []


def test_c9_2_max_turns_bounds_the_tree_in_turns() -> None:
    game = tiny(max_turns=1)
    assert game.max_turns == 1 and game.options["max_turns"] == 1
    s = play(position(game, movers=[0, TARDIS]), RollDice(), Move(TARDIS))
    assert s.legal_actions() == [Accuse(), EndTurn()]
    assert s.apply(EndTurn()).is_over
    assert tiny(max_rounds=3).max_turns == 6  # an explicit max_rounds replaces the variant's


def test_c8_3_the_tiny_variant_refuses_what_it_cannot_be() -> None:
    for bad, match in (
        ({"players": 3}, "exactly 2"),
        ({"intrigue": True}, "never uses intrigue"),
        ({"max_turns": 3}, "max_turns"),
        ({"max_turns": True}, "max_turns"),
        ({"variant": "huge"}, "variant"),
    ):
        options = {"players": 2, "variant": "tiny", **bad}
        with pytest.raises(ConfigError, match=match):
            timelord.load("clue", **options)


def test_the_standard_game_keeps_its_board_options_and_draws() -> None:
    standard = timelord.load("clue", players=4)
    assert isinstance(standard, ClueGame)
    assert standard.board is standard_board() and standard.board.rooms == 9
    assert (standard.fixed_roll, standard.side_cards, standard.max_turns) == (0, 0, 240)
    assert sorted(standard.options) == [
        "intrigue", "max_rounds", "players", "powers", "rules", "variant",
    ]  # fmt: skip
    two = timelord.load("clue", players=2, variant="two-player")
    assert isinstance(two, ClueGame) and two.side_cards == 4
    assert standard.board.places == frozenset(range(standard.board.nodes))


def test_the_text_picture_draws_the_tiny_board_and_names() -> None:
    game = tiny()
    text = game.render_view(position(game).view(0))
    assert " 1 g.s\n" in text and "G Gallifrey (door a1)" in text
    assert "Your cards: Sonic Screwdriver" in text
    assert "Platform One" not in text and "Clara" not in text


def test_refusals_name_the_tiny_cards_not_the_standard_ones() -> None:
    game = tiny()
    s = position(game)  # the start of a turn: naming a card is out of phase
    with pytest.raises(IllegalAction, match="name The Moment is not allowed now"):
        s.apply(NameCard(MOMENT))
    with pytest.raises(IllegalAction, match="show Gallifrey is not allowed now"):
        s.apply(ShowCard(GALLIFREY))
