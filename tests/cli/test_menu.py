"""The move menu: words that find moves, groups and pages that fit the screen."""

from __future__ import annotations

import io

import pytest

import tests.cli.toys  # noqa: F401  (registers gloss-toy)
from timelord.cli.human import HumanAgent, QuitGame, glossary_line
from timelord.cli.menu import (
    Group,
    Menu,
    find_in_space,
    group_entries,
    index_space,
    make_entries,
    matches,
    words,
)
from timelord.cli.play import referee
from timelord.cli.terminal import Screen
from timelord.core import Game, State, load


def test_typed_words_find_a_move_in_any_order_with_little_words_left_out() -> None:
    target = frozenset(words("open c1 with key-yellow"))
    assert matches(words("open c1 with yellow key"), target)
    assert matches(words("Open C1, yel"), target)  # a start of three letters or more
    assert not matches(words("open c12"), target)  # squares match whole
    assert not matches(words("open c"), target)  # one letter starts nothing
    assert not matches(words("close c1"), target)


def _keys_menu(size: int) -> Menu:
    game = load("keys", players=2)
    state = game.new_game(3)
    view = state.view(state.to_move)
    return Menu(make_entries(game, view, state.legal_actions()), size)


@pytest.mark.parametrize("size", [3, 8, 18, 40])
def test_no_page_is_longer_than_the_screen_allows_and_every_move_is_reachable(size: int) -> None:
    menu = _keys_menu(size)
    assert len(menu.entries) > 40  # the case the issue names: 70+ moves at the start
    reached = set()

    def walk() -> None:
        for page in range(menu.pages):
            menu.page = page
            assert len(menu.lines(100)) <= size
        items = list(menu.items)
        for number, item in enumerate(items, 1):
            if isinstance(item, Group):
                saved = (menu.title, menu.groups, menu.shown, menu.page)
                assert menu.pick(number) is None
                walk()
                menu.title, menu.groups, menu.shown, menu.page = saved
            else:
                reached.add(id(item))

    walk()
    assert reached == {id(e) for e in menu.entries}


def test_small_menus_are_not_grouped_and_groups_are_named_by_kind() -> None:
    menu = _keys_menu(200)
    assert menu.groups is None and len(menu.lines(100)) == len(menu.entries)
    groups = group_entries(menu.entries, 10)
    assert groups is not None and 2 <= len(groups) <= 10
    titles = {g.title for g in groups if isinstance(g, Group)}
    # the biggest kinds stay groups (by kind and card); small ones open in place
    assert any(t.startswith("Open door") for t in titles)
    assert sum(len(g.entries) if isinstance(g, Group) else 1 for g in groups) == len(menu.entries)


def test_a_square_filters_to_the_moves_that_name_it() -> None:
    menu = _keys_menu(18)
    found = menu.filter(["c1"])
    assert found and all("c1" in e.label.split() for e in found)
    assert all(e in found for e in menu.entries if "c1" in e.label.split())
    menu.top()
    assert menu.filter(["zz9"]) == [] and len(menu.shown) == len(menu.entries)


def test_a_page_number_past_the_list_is_refused() -> None:
    menu = _keys_menu(5)
    with pytest.raises(IndexError):
        menu.pick(len(menu.items) + 1)
    with pytest.raises(IndexError):
        menu.pick(0)
    assert not menu.turn(-1)


def test_card_texts_sit_beside_moves_or_once_above_a_list_of_one_card() -> None:
    game = load("gloss-toy", players=2)
    state = game.new_game(3)
    menu = Menu(make_entries(game, state.view(0), state.legal_actions()), 10)
    hand = sorted(set(state.view(0)["hand"]))
    assert menu.lines(200) == [
        f"  {i}. play the {c}  (Card {c}: worth {c} points)" for i, c in enumerate(hand, 1)
    ]
    menu.filter([str(hand[0])])
    assert menu.header(200).endswith(f"Card {hand[0]}: worth {hand[0]} points")
    assert menu.lines(200) == [f"  1. play the {hand[0]}"]
    assert all(len(line) <= 20 for line in Menu(menu.entries, 10).lines(20))


def test_the_action_space_is_searched_for_moves_not_offered() -> None:
    game = load("gloss-toy", players=2)
    index = index_space(game)
    assert index is not None
    (found,) = find_in_space(index, words("play card 4"))
    assert found.text == "play 4"
    assert len(find_in_space(index, words("play"))) == 5  # limited, equally close
    assert index_space(load("toy", players=2)) is None  # the plain toy has no space


def _episodes_after_the_first_lesson_move() -> tuple[Game, State]:
    from timelord.learn import load_lesson, plan

    lesson = load_lesson("episodes")
    game = lesson.game()
    return game, game.new_game(lesson.seed).apply(plan(lesson)[0].action)


def test_an_episode_typed_in_full_in_any_order_finds_that_episode_only() -> None:
    """Issue 33 item 13: a card is a suit and a number together; matching by a set of words
    found every episode holding a Foe, an 8, a Plot and a 3 in any pairing."""
    game, state = _episodes_after_the_first_lesson_move()
    menu = Menu(make_entries(game, state.view(0), state.legal_actions()), 20)
    found = menu.filter(
        words("play an episode: Foe 8, Doctor 9, Companion 3, Gadget 3, Plot 3, Special 3")
    )
    assert [e.label for e in found] == [
        "play an episode: Doctor 9, Companion 3, Gadget 3, Foe 8, Plot 3, Special 3"
    ]
    assert len(menu.filter(words("foe 3"))) == 0  # no episode of these uses a Foe 3
    assert len(menu.filter(words("fo 8"))) == 0  # a two-letter start matches nothing
    assert len(menu.filter(words("compan 3 foe 8"))) == 1  # a start of three letters does


def test_a_move_never_allowed_is_told_with_the_rule_that_forbids_it() -> None:
    game, state = _episodes_after_the_first_lesson_move()
    # Defenders 9 + 3 + 3 do not exceed the Threat 8 + 4 + 3: no such episode exists (E-5.1)
    typed = "play an episode: Doctor 9, Companion 3, Gadget 3, Foe 8, Plot 4, Special 3"
    answers = iter([typed, "q"])
    out = io.StringIO()
    screen = Screen(out, read=lambda prompt: next(answers), rich=False)
    with pytest.raises(QuitGame):
        HumanAgent(game, screen).decide(state.view(0), state.legal_actions(), referee(state))
    told = out.getvalue().split("help\n", 1)[1]
    assert "is no move this game ever allows" in told
    assert "Episode: Play one card of each suit" in told and "[E-5.1]" in told
    assert "Special: " not in told  # "Special 3" names a card, not the rule


def test_a_glossary_line_says_each_name_once_and_cites_the_cards_own_clause() -> None:
    keys = load("keys").glossary()
    assert glossary_line("keys", "Teleport", keys["Teleport"]).startswith(
        "Teleport: a pawn arriving here"
    )
    debts = load("card-game").glossary()["Collecting on Debts"]
    assert debts["clause"] == "C-card-captain-jack"  # the id another card shares the rule by
    assert glossary_line("card-game", "Collecting on Debts", debts).endswith(
        "[C-card-collecting-on-debts]"
    )
    for game_id in ("keys", "episodes", "clue", "card-game"):
        for name, entry in load(game_id).glossary().items():
            line = glossary_line(game_id, name, entry)
            assert not line.lower().startswith(f"{name.lower()}: {name.lower()}:"), line


@pytest.mark.parametrize("width", [80, 120])
def test_episode_lines_say_what_each_scores_and_stay_apart(width: int) -> None:
    """Issue 33 item 13: an episode scores its Threat's total (E-5.2); the menu says so on
    each line, and on an 80-column terminal the lines still differ where the episodes do."""
    game, state = _episodes_after_the_first_lesson_move()
    view = state.view(0)
    menu = Menu(make_entries(game, view, state.legal_actions()), 20)
    lines = menu.lines(width)
    assert all(len(line) <= width for line in lines)
    episodes = [line for line in lines if "Doctor 9" in line]
    assert len(episodes) == 5 and len(set(episodes)) == 5
    assert episodes[-1].endswith("Foe 8, Plot 3, Special 3  (14 VP)")  # 8 + 3 + 3
    assert episodes[0].endswith("Foe 5, Plot 3, Special 3  (11 VP)")
