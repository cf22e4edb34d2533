"""`timelord play` driven through scripted input (plain text, as in a pipe): events after
every move, card texts, why-not, odd input, hot-seat hand-over, the Clue notebook."""

from __future__ import annotations

import builtins
import io
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import tests.cli.toys  # noqa: F401  (registers toy and gloss-toy)
from tests.cli.toys import SpacedKeys
from timelord.cli.human import HumanAgent, QuitGame, glossary_line
from timelord.cli.main import main
from timelord.cli.menu import find_in_space, index_space, make_entries, matches, words
from timelord.cli.play import referee
from timelord.cli.terminal import Screen
from timelord.core import Action, Game, IllegalAction, Record, State, load, replay


def _script(monkeypatch: pytest.MonkeyPatch, answers: list[str], echo: bool = False) -> list[str]:
    """Answer prompts in order; EOF when the script ends. `echo` prints each prompt, so the
    output shows where in it each question was asked."""
    prompts: list[str] = []
    it: Iterator[str] = iter(answers)

    def fake_input(prompt: str = "") -> str:
        prompts.append(prompt)
        if echo:
            print(f"<<{prompt.strip()}>>")
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr(builtins, "input", fake_input)
    return prompts


def test_play_to_the_end_with_bad_input_reprompted(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    prompts = _script(monkeypatch, ["", "banana", "0", "9", "?", "²", "1", "1"])
    path = tmp_path / "rec.json"
    code = main(["play", "toy", "--seats", "human,random", "--seed", "3", "--record", str(path)])
    out = capsys.readouterr().out
    assert code == 0
    assert "0 is not on the list" in out and "9 is not on the list" in out
    assert "'²' is not a move" in out and "Type the number of a move" in out
    assert len(prompts) == 8
    assert "Seat 2: play" in out  # the bot's move, as the human is told it
    assert "Game over." in out
    record = Record.load(path)
    assert record.seats == ["human", "random"] and len(record.actions) == 4
    assert replay(record).winners() == record.result["winners"]  # type: ignore[index]


@pytest.mark.parametrize("odd", ["²", "٣", "\uff11", "½", "\u200b", "💥", "9" * 5000])
def test_odd_unicode_at_the_prompt_does_not_crash(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], odd: str
) -> None:
    _script(monkeypatch, [odd, "q"])
    assert main(["play", "gloss-toy", "--seats", "human,random", "--seed", "3"]) == 1
    assert "abandoned" in capsys.readouterr().out


def test_own_move_and_the_bots_moves_are_told_as_events(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    game = load("toy", players=2)
    state = game.new_game(3)
    mine = state.legal_actions()[0]
    _script(monkeypatch, ["1", "q"])
    main(["play", "toy", "--seats", "human,random", "--seed", "3"])
    out = capsys.readouterr().out
    after = out.split(f"Your move: {mine}", 1)[1]
    assert after.lstrip().startswith(f"* You: play {mine.card}")  # toy events say what was played
    assert "* Seat 2: play" in after  # the event names the bot: no heading line for it


def test_card_texts_beside_moves_and_labels_from_the_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    game = load("gloss-toy", players=2)
    hand = game.new_game(3).view(0)["hand"]
    _script(monkeypatch, ["q"])
    main(["play", "gloss-toy", "--seats", "human,random", "--seed", "3"])
    out = capsys.readouterr().out
    for card in set(hand):
        assert f"play the {card}  (Card {card}: worth {card} points)" in out


def test_why_not_names_the_engines_reason_and_clause(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    game = load("gloss-toy", players=2)
    hand = set(game.new_game(3).view(0)["hand"])
    missing = min(set(range(1, 7)) - hand)
    _script(monkeypatch, [f"play card {missing}", "q"])
    main(["play", "gloss-toy", "--seats", "human,random", "--seed", "3"])
    out = capsys.readouterr().out
    assert f"Not allowed: play the {missing}: you do not hold that card [T-1]" in out


def test_why_not_without_an_action_space_says_so(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _script(monkeypatch, ["play 99", "q"])
    main(["play", "toy", "--seats", "human,random", "--seed", "3"])
    assert "cannot look up moves it does not offer" in capsys.readouterr().out


def test_typing_words_filters_and_an_exact_move_is_taken(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    game = load("gloss-toy", players=2)
    state = game.new_game(3)
    first = state.legal_actions()[0]
    _script(monkeypatch, [f"card {first.card}", f"play the {first.card}", "q"])
    main(["play", "gloss-toy", "--seats", "human,random", "--seed", "3"])
    out = capsys.readouterr().out
    assert f"Moves matching 'card {first.card}' (1)" in out
    assert f"Your move: play the {first.card}" in out


def test_hot_seat_hides_each_hand_until_its_player_sits_down(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _script(monkeypatch, ["", "1", "", "", "1", "", "", "1", "", "", "1"], echo=True)
    assert main(["play", "toy", "--seats", "human,human", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    seat1_sits = out.index("<<Seat 2, take the seat")
    # Seat 1's hand is printed only after Seat 1 was asked to sit down, and after a clear
    assert "Seat 1: press Enter to hide your hand" in out
    first_hand_1 = re.search(r'"seat": 1', out)
    assert first_hand_1 is not None and first_hand_1.start() > seat1_sits
    assert out.index("-" * 40) < seat1_sits
    # what Seat 0 did waits for Seat 1 and is told on sitting down, in Seat 1's words
    assert "Meanwhile" in out[seat1_sits:]
    assert "Seat 1: play" in out[seat1_sits:]


def test_clue_shows_the_notebook_grid_and_odds_only_when_asked(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The deducer's odds give the game away to a person: off until `odds` turns them on."""
    _script(monkeypatch, ["odds", "q"])
    assert main(["play", "clue", "--seats", "human,random,random", "--seed", "2"]) == 1
    out = capsys.readouterr().out
    first, _, after = out.partition("Notebook odds on.")
    assert re.search(r"^Card\s+You\s+Seat 2\s+Seat 3", first, re.M)
    assert "Notebook" in first and "the deducer's odds" not in first and "%" not in first
    header = re.search(r"^Card\s+You\s+Seat 2\s+Seat 3\s+Envelope$", after, re.M)
    assert header is not None
    assert "%" in after and "the deducer's odds" in after
    assert not re.search(r"\b0%", after)


def test_why_not_quotes_the_clause_of_a_real_game() -> None:
    game = SpacedKeys(players=2)
    state = game.new_game(3)
    out = io.StringIO()
    answers = iter(["open c7 with blue key", "q"])
    screen = Screen(out, read=lambda prompt: next(answers), rich=False)
    with pytest.raises(QuitGame):  # q: the person leaves
        HumanAgent(game, screen).decide(state.view(0), state.legal_actions(), referee(state))
    text = out.getvalue()
    # the move named as the menus name it, from the seat's view, not as its id
    assert "Not allowed: open c7 with blue key" in text and "key-blue" not in text
    assert "you hold no Key (blue) card [K-3.2]" in text
    assert "K-3.2 The player must then play exactly one card from their hand" in text


@pytest.mark.parametrize("game_id", ["card-game", "clue", "episodes", "keys"])
def test_why_not_for_a_move_typed_by_its_text_in_every_game(game_id: str) -> None:
    """Skipped until the game has an action space (the adapters' work adds them)."""
    game = load(game_id, players=2)
    index = index_space(game)
    if index is None:
        pytest.skip(f"{game_id} has no action space yet")
    state = game.new_game(1)
    seat = state.to_move
    view = state.view(seat)
    entries = make_entries(game, view, state.legal_actions())
    legal = state.legal_actions()
    for action, text, _ in index:
        if action in legal or any(matches(words(text), e.words) for e in entries):
            continue
        if find_in_space(index, words(text))[0].action == action:
            break
    else:
        pytest.fail("no move of the space can be typed unambiguously")
    refusal = referee(state)(action)
    assert isinstance(refusal, IllegalAction)
    out = io.StringIO()
    answers = iter([text, "q"])
    screen = Screen(out, read=lambda prompt: next(answers), rich=False)
    with pytest.raises(QuitGame):
        HumanAgent(game, screen).decide(view, legal, referee(state))
    name = game.action_label(view, action)
    assert f"Not allowed: {name}: {refusal.reason}" in out.getvalue()


def test_a_long_meanwhile_keeps_the_latest_events_and_counts_the_rest() -> None:
    from timelord.cli.terminal import News, latest_news

    blocks = [News([f"event {i}" for i in range(6)]), News(["a", "b", "c"], "Your move: x")]
    assert latest_news(blocks, 20) == blocks
    assert latest_news(blocks, 6) == [
        News(["(5 earlier events)"]),
        News(["event 5"]),
        News(["a", "b", "c"], "Your move: x"),
    ]
    assert latest_news(blocks, 5) == [News(["(6 earlier events)"]), blocks[1]]
    assert latest_news(blocks, 3) == [News(["(8 earlier events)"]), News(["c"], "Your move: x")]
    for room in range(1, 12):  # never more lines than the room, once it has one to spare
        assert sum(b.height() for b in latest_news(blocks, room)) <= max(room, 2)


@pytest.mark.parametrize("game_id", ["card-game", "clue", "episodes", "keys"])
def test_any_cards_full_text_can_be_read_in_hand_or_not(game_id: str) -> None:
    """A player must be able to read any card: `help NAME`, `info NAME` and `glossary` show
    whole card texts (a hand or a menu line cuts them short), whether or not the card is in
    the seat's hand."""
    game = load(game_id, players=3)
    glossary = game.glossary()
    state = game.new_game(1)
    seat = state.to_move
    assert seat is not None
    hand = json.dumps(state.view(seat)).lower()
    absent = next(n for n in glossary if n.lower() not in hand)  # a name not in sight
    longest = max(glossary, key=lambda n: len(glossary[n]["text"]))
    out = io.StringIO()
    answers = iter(["?", f"help {absent}", f"info {longest.lower()}", "glossary", "q"])
    screen = Screen(out, read=lambda prompt: next(answers), rich=False)
    with pytest.raises(QuitGame):
        HumanAgent(game, screen).decide(state.view(seat), state.legal_actions(), referee(state))
    text = out.getvalue()
    assert "info NAME (or help NAME)" in text and "ever allows" not in text
    helped = text.split("info NAME", 1)[1]
    assert glossary_line(game_id, absent, glossary[absent]) in helped
    assert glossary_line(game_id, longest, glossary[longest]) in helped  # whole, however long
    # `glossary` printed every entry once more
    shown = {n: helped.count(glossary_line(game_id, n, e)) for n, e in glossary.items()}
    assert all(times >= (2 if n in (absent, longest) else 1) for n, times in shown.items())


def test_info_on_a_name_no_card_has_says_so_and_a_partial_name_finds_the_card() -> None:
    game = load("card-game", players=2)
    state = game.new_game(1)
    seat = state.to_move
    assert seat is not None
    out = io.StringIO()
    answers = iter(["help rory", "info kovar", "info zzz", "q"])
    screen = Screen(out, read=lambda prompt: next(answers), rich=False)
    with pytest.raises(QuitGame):
        HumanAgent(game, screen).decide(state.view(seat), state.legal_actions(), referee(state))
    text = out.getvalue()
    rory = game.glossary()["Rory"]
    assert f"Rory: {rory['text']} [C-card-rory]" in text and f"({rory['source']})" in text
    assert "Madame Kovarian: " in text
    assert "No card, tile or power is called 'zzz'; type glossary for them all." in text


def _clue_before_the_accusation() -> tuple[Game, State, Action]:
    """The Clue lesson's position where the learner may accuse (from the TARDIS)."""
    from timelord.learn import load_lesson, plan

    lesson = load_lesson("clue")
    game = lesson.game()
    state = game.new_game(lesson.seed)
    for ply in plan(lesson):
        if type(ply.action).__name__ == "Accuse":
            return game, state, ply.action
        state = state.apply(ply.action)
    raise AssertionError("the Clue lesson has no accusation")


@pytest.mark.parametrize("how", ["words", "number"])
def test_an_accusation_is_made_only_once_confirmed(how: str) -> None:
    """Issue 33 item 9: an accusation cannot be taken back and a wrong one puts the player
    out (C-5.1, C-5.3), so one keystroke must not make it: the terminal asks first."""
    game, state, accuse = _clue_before_the_accusation()
    view = state.view(0)
    entries = make_entries(game, view, state.legal_actions())
    number = next(i for i, e in enumerate(entries, 1) if e.action == accuse)
    typed = str(number) if how == "number" else "make an accusation"
    answers = iter([typed, "n", typed, "yes"])
    out = io.StringIO()
    screen = Screen(out, read=lambda prompt: print(prompt, file=out) or next(answers), rich=False)
    person = HumanAgent(game, screen)
    assert person.decide(view, state.legal_actions(), referee(state)) == accuse
    text = out.getvalue()
    assert text.count("cannot be taken back") == 2 and text.count("Type yes to confirm") == 2
    assert "Not made." in text  # the first "n" made nothing


def test_other_moves_need_no_confirming() -> None:
    game, state, accuse = _clue_before_the_accusation()
    view = state.view(0)
    other = next(a for a in state.legal_actions() if a != accuse)
    answers = iter([game.action_label(view, other)])
    out = io.StringIO()
    screen = Screen(out, read=lambda prompt: next(answers), rich=False)
    person = HumanAgent(game, screen)
    assert person.decide(view, state.legal_actions(), referee(state)) == other
    assert "confirm" not in out.getvalue()
