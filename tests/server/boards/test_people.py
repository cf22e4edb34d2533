"""People on the boards (issue 33, "People and seats"; issue 34, "Access for all"): one seat
numbering from 1, names replaced in one pass, the right person ("You" only for a seat its
person plays) and grammar, marks that tell seats and Clue characters apart without colour or
hover, phases and door backs in words, and the board markup the motion and axe checks need."""

from __future__ import annotations

import json
import random
import re
from html import unescape
from typing import Any

import pytest

import timelord
from tests.server.boards.test_boards import _playout, _snapshot
from timelord.core.events import Event
from timelord.core.game import Game, State
from timelord.games.card_game.state import PHASE_WORDS, PHASES
from timelord.server.boards import read_snapshot, render_board
from timelord.server.boards.clue import character_mark
from timelord.server.boards.common import seat_initial


def _seats(*names: str, stand_in: int | None = None) -> list[dict[str, Any]]:
    return [
        {
            "name": n,
            "guest": False,
            "stand_in": "heuristic" if s == stand_in else None,
            "stand_in_name": "Bot (casual)" if s == stand_in else None,
        }
        for s, n in enumerate(names)
    ]


def _snap(game: Game, state: State, seat: int | None, events: list[Event], **extra: Any) -> Any:
    return _snapshot(game, state, seat, events) | extra


def _play_until(game_id: str, pred: Any, seeds: range = range(40), steps: int = 400) -> Any:
    """A game, state and events of a random playout, stopped when `pred(state, events)`."""
    for seed in seeds:
        game, state, events = _playout(game_id, seed, 0)
        rng = random.Random(seed)
        for _ in range(steps):
            if pred(state, events):
                return game, state, events
            if state.is_over:
                break
            state, new = state.apply_with_events(rng.choice(state.legal_actions()))
            events.extend(new)
    raise AssertionError(f"no {game_id} playout reached the position")


def test_seats_are_numbered_from_1_in_one_pass() -> None:
    """The game's "Seat 0" reads "Seat 1" and "Seat 1" reads "Seat 2": replacing one name
    after another would have turned the first into "Seat 2"."""
    game = timelord.load("keys", players=2)
    state = game.new_game(1)
    snap = read_snapshot(game, None, _snapshot(game, state, None, []))
    zero, one = game.seat_name(0), game.seat_name(1)
    assert snap.told(f"{zero} passes to {one}.") == (
        f"{zero.replace('Seat 0', 'Seat 1')} passes to {one.replace('Seat 1', 'Seat 2')}."
    )
    assert snap.table_name(0).startswith("Seat 1") and snap.table_name(1).startswith("Seat 2")
    # a table's names go in once: a person called like another seat stays themselves
    named = read_snapshot(game, 0, _snap(game, state, 0, [], seats=_seats("Seat 1", "Cleo")))
    assert named.told(f"{zero} and {one}") == "Seat 1 and Cleo"


def test_the_clue_notebook_heads_count_from_1() -> None:
    game, state, events = _playout("clue", 3, 5)
    html = render_board(game, 0, _snapshot(game, state, 0, events))
    assert ">S2<" in html and ">S1<" not in html and ">S0<" not in html


def test_initials_count_from_1_and_tell_alike_names_apart() -> None:
    game = timelord.load("clue", players=3)
    state = game.new_game(2)
    bots = read_snapshot(game, 0, _snapshot(game, state, 0, []))
    assert [seat_initial(bots, s) for s in range(3)] == ["★", "2", "3"]
    alike = read_snapshot(game, 0, _snap(game, state, 0, [], seats=_seats("Me", "Ann", "Abe")))
    assert [seat_initial(alike, s) for s in range(3)] == ["★", "A2", "A3"]
    apart = read_snapshot(game, 0, _snap(game, state, 0, [], seats=_seats("Me", "Ann", "Bo")))
    assert [seat_initial(apart, s) for s in range(3)] == ["★", "A", "B"]
    # an open seat is marked by its number, not "O" (the name is nobody's)
    waiting = read_snapshot(
        game, 0, _snap(game, state, 0, [], seats=_seats("Me", "Open seat", "Bo"))
    )
    assert [seat_initial(waiting, s) for s in range(3)] == ["★", "2", "B"]


def test_the_stand_in_is_never_you() -> None:
    """While the stand-in bot plays your seat, the chips do not say "You" for that seat, and
    the log says "You ..." only for the moves you made: each move the stand-in made (the
    server marks its events `"standin": true`) is told in the third person and says the
    stand-in played it for you (the log told "You play ..." for the bot's moves)."""
    game, state, events = _play_until(
        "keys",
        lambda s, ev: s.to_move == 0 and sum(1 for e in ev if e.data.get("actor") == 0) >= 2,
    )
    plain = render_board(game, 0, _snap(game, state, 0, events, seats=_seats("Ann", "Bob")))
    assert re.search(r"<li[^>]*>You ", plain)  # the person plays: "You ..." as before
    stood = _snap(game, state, 0, events, seats=_seats("Ann", "Bob", stand_in=0))
    mine = [i for i, e in enumerate(stood["events"]) if e.get("data", {}).get("actor") == 0]
    bots = mine[len(mine) // 2 :]  # the later half of the seat's events: the stand-in's
    for i in bots:
        stood["events"][i] = {**stood["events"][i], "standin": True}
    html = render_board(game, 0, stood)
    log = unescape(html.split('id="log"', 1)[1])
    lines = re.findall(r"<li[^>]*>([^<]*)</li>", log)
    by_bot = [t for t in lines if t.endswith(" — the stand-in played this for you")]
    shown = [i for i in bots if i >= len(stood["events"]) - 60]
    assert len(by_bot) == len([i for i in shown if stood["events"][i]["kind"] != "turn"])
    assert all(t.startswith("Ann ") for t in by_bot), by_bot
    assert not any(t.startswith("You ") and "stand-in" in t for t in lines)
    assert any(t.startswith("You ") for t in lines)  # what the person made stays theirs
    snap = read_snapshot(game, 0, stood)
    assert snap.seat_name(0) == "Ann" and not snap.is_you(0)
    status = html.split('id="log"', 1)[0]
    assert "Bot (casual) plays your turn" in status and "Your turn" not in status
    assert 'data-my-turn="false"' in html
    assert "data-action=" not in html and "data-actions=" not in html
    assert "Bot (casual) is playing your seat" in html
    # another seat's page names whose stand-in it was
    other = _snap(game, state, 1, events, seats=_seats("Ann", "Bob", stand_in=0))
    told = game.tell(events, 1)
    other["events"] = [{**t, "standin": True} if i in bots else t for i, t in enumerate(told)]
    theirs = unescape(render_board(game, 1, other))
    assert " — the stand-in played this for Ann<" in theirs


def test_the_replay_says_alice_is_active() -> None:
    game, state, events = _playout("card-game", 4, 3)
    active = state.view(0)["active"]
    names = ["Alice", "Bob"]
    snap = _snap(game, state, active, events, seats=_seats(*names))
    replay = render_board(game, active, snap, replay=True)
    assert f"{names[active]} is active" in replay and "are active" not in replay
    live = render_board(game, active, snap)
    assert "You are active" in live


def test_card_game_conflict_and_labels_use_names_not_colours_or_indexes() -> None:
    game, state, events = _play_until(
        "card-game", lambda s, ev: any(e.kind == "conflict" for e in ev), steps=1500
    )
    colours = [game.seat_name(s) for s in range(game.players)]
    html = render_board(game, 0, _snap(game, state, 0, events, seats=_seats("Ann", "Bob")))
    box = html.split('class="conflict"', 1)[1].split("</section>", 1)[0]
    assert "Ann" in box or "Bob" in box or "You" in box
    for colour in colours:
        assert not re.search(rf"\b{colour}\b", unescape(box)), colour
    assert "location 0" not in html


def test_no_move_label_shows_an_internal_index() -> None:
    """Across Card Game playouts, no menu label says "Akhaten [2]" or "location 0"."""
    for seed in range(6):
        game, state, events = _playout("card-game", seed, 60)
        if state.is_over:
            continue
        seat = state.to_move
        html = render_board(game, seat, _snapshot(game, state, seat, events))
        labels = re.findall(r'aria-label="([^"]*)"', html) + [
            item["label"]
            for m in re.findall(r'data-actions="([^"]*)"', html)
            for item in json.loads(unescape(m))
        ]
        for label in labels:
            assert not re.search(r"\[\d+\]|location \d", label), label


def test_every_card_game_phase_has_words() -> None:
    assert set(PHASES) <= set(PHASE_WORDS)
    assert all(PHASE_WORDS[p].hint for p in PHASES)


def test_clue_character_marks_are_unique_and_keyed() -> None:
    game, state, events = _playout("clue", 1, 3)
    marks = [character_mark(game, ch) for ch in range(len(game.suspects))]
    assert len(set(marks)) == len(marks)
    assert "C" not in marks  # Commander Strax and Clara Oswald both start with C
    html = render_board(game, 0, _snapshot(game, state, 0, events))
    for mark, name in zip(marks, game.suspects, strict=True):
        assert f"<strong>{mark}</strong> {unescape(name)}" in unescape(html)


def test_clue_turn_line_agrees_with_the_status_when_another_seat_answers() -> None:
    game, state, events = _play_until(
        "clue", lambda s, ev: s.to_move is not None and s.to_move != s.view(None)["current"]
    )
    seat = state.to_move
    html = render_board(game, seat, _snapshot(game, state, seat, events))
    assert "Your turn" in html and "you answer" in html
    current = state.view(None)["current"]
    other = render_board(game, current, _snapshot(game, state, current, events))
    assert "your turn" in other and f"Seat {seat + 1} answers" in other


def test_keys_phase_and_door_backs_in_words() -> None:
    game, state, events = _playout("keys", 2, 4)
    html = render_board(game, 0, _snapshot(game, state, 0, events))
    assert re.search(r"phase: (play a card|move your pawn|bonus move)", html)
    for mark, label in (("D", "Dalek"), ("K", "TARDIS Key"), ("T", "Teleport")):
        assert f"<strong>{mark}</strong> {label}" in html


@pytest.mark.parametrize("game_id", ["card-game", "episodes", "keys", "clue"])
def test_board_markup_for_motion_and_axe(game_id: str) -> None:
    game, state, events = _playout(game_id, 5, 12)
    seat = state.to_move if state.to_move is not None else 0
    html = render_board(game, seat, _snapshot(game, state, seat, events))
    assert html.count("<h1") == 1
    if game_id != "clue":
        assert "data-deck" in html
    if game_id in ("card-game", "keys", "episodes"):
        assert "data-discard" in html
    assert 'role="grid"' not in html  # a grid needs rows and cells the boards do not have
    # no control inside a control: the card's "i" is a mark, not a button
    for card in re.findall(r'<div class="card[^"]*"[^>]*role="button".*?</div>', html):
        assert "<button" not in card
    assert "card-info" not in html or 'class="card-info" data-card-info aria-hidden="true"' in html


def test_the_keys_key_speaks_of_your_pawn_only_to_its_player() -> None:
    """A spectator (and a replay) was told "★ your pawn" and to click glowing tiles, though
    it has no pawn and no move; its key says how pawns are marked."""
    game, state, events = _playout("keys", 3, 10)
    mine = render_board(game, 0, _snap(game, state, 0, events))
    watching = render_board(game, None, _snap(game, state, None, events))
    assert "★ your pawn" in mine and "Glowing tiles" in mine
    assert "★ your pawn" not in watching and "Glowing tiles" not in watching
    assert "Each pawn shows its seat's mark" in watching
