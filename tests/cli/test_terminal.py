"""A real terminal (a pty, Rich on): for each game a person makes one move and is shown
what that move did, as their seat is told it."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from timelord.cli import readable
from timelord.core import load

pexpect = pytest.importorskip("pexpect")

ROOT = Path(__file__).resolve().parents[2]
PROMPT = r"Your move \(number"
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")
_FRAME = re.compile(r"[│╭╮╰╯─•]")


def _flat(text: str) -> str:
    """Screen text without colours, frames or line breaks, for looking sentences up."""
    return " ".join(_FRAME.sub(" ", _ANSI.sub("", text)).split())


def _seed_where_seat_0_starts(game_id: str) -> int:
    game = load(game_id, players=2)
    return next(s for s in range(100) if game.new_game(s).to_move == 0)


@pytest.mark.parametrize("game_id", ["card-game", "clue", "episodes", "keys"])
def test_your_own_move_is_told_after_you_make_it(game_id: str) -> None:
    seed = _seed_where_seat_0_starts(game_id)
    game = load(game_id, players=2)
    state = game.new_game(seed)
    view = state.view(0)
    action = state.legal_actions()[0]
    label = readable.label(game, view, action)
    _, events = state.apply_with_events(action)
    told = readable.told(game, events, 0)  # as people read it: seats counted from 1
    assert told

    env = dict(os.environ, COLUMNS="160", LINES="60", TERM="xterm-256color", PYTHONPATH=str(ROOT))
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(
        sys.executable,
        ["-m", "timelord", "play", game_id, "--seats", "human,random", "--seed", str(seed)],
        cwd=str(ROOT),
        env=env,
        dimensions=(60, 160),
        encoding="utf-8",
        timeout=60,
    )
    try:
        child.expect(PROMPT)
        assert "\x1b[" in child.before  # a terminal gets Rich's colours
        child.sendline(label)
        child.expect([PROMPT, pexpect.EOF])
        shown = _flat(child.before)
        heading = _flat(f"Your move: {label}")
        assert heading in shown
        after = shown.split(heading, 1)[1]
        for text in told:
            assert _flat(text) in after
        child.sendline("q")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)


def test_hot_seat_clears_the_screen_before_the_next_hand() -> None:
    env = dict(os.environ, COLUMNS="160", LINES="60", TERM="xterm-256color", PYTHONPATH=str(ROOT))
    child = pexpect.spawn(
        sys.executable,
        ["-m", "timelord", "play", "keys", "--seats", "human,human", "--seed", "3"],
        cwd=str(ROOT),
        env=env,
        dimensions=(60, 160),
        encoding="utf-8",
        timeout=60,
    )
    try:
        child.expect("take the seat")  # nobody's hand before the first player sits down
        assert "Your hand" not in _flat(child.before)
        child.sendline("")
        # Seat 0 plays its turn through (the first offered move each time)
        while child.expect([PROMPT, "hide your hand"]) == 0:
            child.sendline("1")
        child.sendline("")
        child.expect("Seat 2 \\(north\\), take the seat")
        assert "\x1b[2J" in child.before  # the screen was cleared before the hand-over
        assert "Your hand" not in _flat(child.before.rsplit("\x1b[2J", 1)[1])
        child.sendline("")
        child.expect(PROMPT)
        seat_1 = _flat(child.before)
        assert "Meanwhile" in seat_1 and "Your hand" in seat_1
        child.sendline("q")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)


def test_board_and_menu_fit_on_one_screen() -> None:
    rows = 45
    env = dict(os.environ, COLUMNS="120", LINES=str(rows), TERM="xterm-256color")
    env["PYTHONPATH"] = str(ROOT)
    child = pexpect.spawn(
        sys.executable,
        ["-m", "timelord", "play", "keys", "--seats", "human,random", "--seed", "3"],
        cwd=str(ROOT),
        env=env,
        dimensions=(rows, 120),
        encoding="utf-8",
        timeout=60,
    )
    try:
        child.expect(PROMPT)
        screen = _ANSI.sub("", child.before)
        board_and_menu = screen[screen.index("╭─ keys") :].splitlines()
        assert len(board_and_menu) + 1 <= rows  # the prompt's line included
        assert "Your moves (76)" in screen  # 76 moves: grouped to fit
        child.sendline("q")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)


def _tmux(socket: str, *args: str) -> str:
    import subprocess

    done = subprocess.run(
        ["tmux", "-L", socket, *args], capture_output=True, text=True, check=True, timeout=30
    )
    return done.stdout


def _wait_for(socket: str, done: Callable[[str], bool], seconds: float = 60.0) -> str:
    """The pane's whole history (scrollback and screen) once `done` holds for it."""
    import time

    deadline = time.monotonic() + seconds
    while True:
        history = _tmux(socket, "capture-pane", "-p", "-J", "-S", "-", "-t", "play")
        if done(history):
            return history
        if time.monotonic() > deadline:
            raise AssertionError(f"the pane never got there; it holds:\n{history}")
        time.sleep(0.2)


def test_hot_seat_clears_the_scrollback_too() -> None:
    """Hot-seat keeps hands secret: after the hand-over the next player cannot scroll back up
    to the last player's hand. tmux keeps a pane's scrollback and honours ESC[3J, so its
    history is what the next player could read by scrolling."""
    import shutil

    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed")
    socket = f"timelord-test-{os.getpid()}"
    command = (
        f"cd {ROOT} && PYTHONPATH={ROOT} TERM=xterm-256color {sys.executable} -m timelord "
        "play keys --seats human,human --seed 3; sleep 30"
    )
    prompt = "Your move (number"
    _tmux(socket, "new-session", "-d", "-s", "play", "-x", "110", "-y", "45", command)
    try:
        _wait_for(socket, lambda h: "take the seat" in h)
        _tmux(socket, "send-keys", "-t", "play", "Enter")
        history = _wait_for(socket, lambda h: prompt in h)
        assert "Your hand" in history  # Seat 0's hand is on the screen
        while "hide your hand" not in history:  # Seat 0 plays its turn through
            asked = history.count(prompt)
            _tmux(socket, "send-keys", "-t", "play", "1", "Enter")
            history = _wait_for(socket, lambda h, n=asked: h.count(prompt) > n or "hide your" in h)
        _tmux(socket, "send-keys", "-t", "play", "Enter")
        history = _wait_for(socket, lambda h: "Seat 2 (north), take the seat" in h)
        assert "Your hand" not in history, "the last player's hand is still in the scrollback"
        assert prompt not in history
    finally:
        _tmux(socket, "kill-server")


#: a line of each game's table that a compact table keeps
BOARD_MARK = {
    "card-game": "Your hand:",
    "clue": "Your cards:",
    "episodes": "Your hand",
    "keys": "Your hand:",
}


#: the first and last lines of a game's map, where the terminal draws one
MAP_EDGES = {
    "clue": ("   abcdefghijklmnopqrstuvwxy", "12 PPPPPP"),
    "keys": ("     a     b     c     d     e     f     g",),
}


def _tmux_start(socket: str, cols: int, rows: int, argv: str) -> None:
    import shutil

    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed")
    # the pane's own size, not a COLUMNS or LINES this process may carry
    command = (
        f"cd {ROOT} && env -u COLUMNS -u LINES PYTHONPATH={ROOT} TERM=xterm-256color "
        f"{sys.executable} -m timelord {argv}; sleep 30"
    )
    _tmux(socket, "new-session", "-d", "-s", "play", "-x", str(cols), "-y", str(rows), command)


def _screen(socket: str) -> str:
    """What the terminal shows now (no scrollback)."""
    return _tmux(socket, "capture-pane", "-p", "-t", "play")


def _wait_screen(socket: str, done: Callable[[str], bool], seconds: float = 60.0) -> str:
    import time

    deadline = time.monotonic() + seconds
    while True:
        shown = _screen(socket)
        if done(shown):
            return shown
        if time.monotonic() > deadline:
            raise AssertionError(f"the screen never got there; it shows:\n{shown}")
        time.sleep(0.2)


@pytest.mark.parametrize("game_id", sorted(BOARD_MARK))
def test_at_80x24_the_table_the_lesson_and_what_just_happened_are_in_sight(
    game_id: str,
) -> None:
    """Issue 33 item 10: on an 80x24 terminal the table (in its compact form), the lesson's
    instruction and what just happened are on the screen with the prompt, not only the
    menu; the legend that does not fit is left out (v shows the whole table)."""
    from timelord.learn import LEARNER, load_lesson, plan

    lesson = load_lesson(game_id)
    plies = plan(lesson)
    labels = [p.label for p in plies if p.seat == LEARNER]
    # the last thing the learner is told before step 2 (a bot's move, where bots move)
    game = lesson.game()
    state = game.new_game(lesson.seed)
    latest = ""
    for ply in plies[: [p.seat for p in plies].index(LEARNER, 1)]:
        state, events = state.apply_with_events(ply.action)
        latest = next(iter(reversed(readable.told(game, events, LEARNER))), latest)
    socket = f"timelord-small-{game_id}-{os.getpid()}"
    _tmux_start(socket, 80, 24, f"learn {game_id}")
    prompt = "Your move (number"
    try:
        intro = _wait_screen(socket, lambda s: "Press Enter to begin" in s)
        assert lesson.intro.split()[-1] in intro  # the intro is read before the table
        _tmux(socket, "send-keys", "-t", "play", "Enter")
        first = _wait_screen(socket, lambda s: prompt in s)
        assert BOARD_MARK[game_id] in first
        assert "Lesson, step 1 of" in first and f"Do: {labels[0]}" in first
        assert "Your moves (" in first  # the menu, shortened to fit
        _tmux(socket, "send-keys", "-t", "play", labels[0], "Enter")
        second = _wait_screen(socket, lambda s: "Lesson, step 2 of" in s and prompt in s)
        assert BOARD_MARK[game_id] in second and f"Do: {labels[1]}" in second
        assert f"Your move: {labels[0]}" in second or "earlier event" in second
        assert f"• {latest}"[:80] in second.replace("\n", "")  # what just happened, last
        assert "Legend" not in second
        for shown in (first, second):
            assert len(shown.rstrip("\n").splitlines()) <= 24
            for line in MAP_EDGES.get(game_id, ()):  # the whole map, its top not cut off
                assert any(row.startswith(line) for row in shown.splitlines()), shown
    finally:
        _tmux(socket, "kill-server")


def test_the_keys_legend_is_shown_once() -> None:
    """Issue 33 item 10: the 8 lines of Keys legend came with every turn."""
    socket = f"timelord-legend-{os.getpid()}"
    _tmux_start(socket, 110, 45, "play keys --seats human,random --seed 5")
    prompt = "Your move (number"
    try:
        history = _wait_for(socket, lambda h: prompt in h)
        for _ in range(3):
            asked = history.count(prompt)
            _tmux(socket, "send-keys", "-t", "play", "stay put", "Enter")
            _tmux(socket, "send-keys", "-t", "play", "1", "Enter")
            history = _wait_for(socket, lambda h, n=asked: h.count(prompt) > n + 1)
        assert history.count("Legend: a tile reads") == 1
        assert history.count("Round ") > 3  # several turns were shown
    finally:
        _tmux(socket, "kill-server")


def test_a_clue_step_at_110x45_fits_the_screen() -> None:
    """Issue 33 item 10: the notebook beside the map, not under a 110-wide panel: each step
    of the Clue lesson, table, news, instruction and menu, fits on 45 lines."""
    from timelord.learn import LEARNER, load_lesson, plan

    labels = [p.label for p in plan(load_lesson("clue")) if p.seat == LEARNER]
    socket = f"timelord-clue-{os.getpid()}"
    _tmux_start(socket, 110, 45, "learn clue")
    prompt = "Your move (number"
    try:
        _wait_screen(socket, lambda s: "Press Enter to begin" in s)
        _tmux(socket, "send-keys", "-t", "play", "Enter")
        for n, label in enumerate(labels[:4], 1):
            shown = _wait_screen(socket, lambda s, n=n: f"Lesson, step {n} of" in s and prompt in s)
            assert "Your cards:" in shown and "Notebook" in shown, shown
            assert "…" not in shown, shown  # nothing cut short beside the notebook
            for edge in MAP_EDGES["clue"]:
                assert any(edge in row for row in shown.splitlines()), shown
            assert shown.index("clue: Seat 1 (you)") < shown.index(f"Lesson, step {n} of")
            _tmux(socket, "send-keys", "-t", "play", label, "Enter")
    finally:
        _tmux(socket, "kill-server")


def test_clue_steps_at_80x24_keep_the_whole_map_in_sight() -> None:
    """Issue 33 item 10: at 80x24 the Clue map's top scrolled away under the lines of its
    key; the compact table sets those lines beside the map, so each early lesson step shows
    the map whole with the instruction and the menu."""
    from timelord.learn import LEARNER, load_lesson, plan

    labels = [p.label for p in plan(load_lesson("clue")) if p.seat == LEARNER]
    socket = f"timelord-clue-small-{os.getpid()}"
    _tmux_start(socket, 80, 24, "learn clue")
    prompt = "Your move (number"
    try:
        _wait_screen(socket, lambda s: "Press Enter to begin" in s)
        _tmux(socket, "send-keys", "-t", "play", "Enter")
        for n, label in enumerate(labels[:6], 1):
            shown = _wait_screen(
                socket,
                lambda s, n=n: (
                    f"Lesson, step {n} of" in s and s.rstrip().splitlines()[-1].startswith(prompt)
                ),
            )
            rows = shown.splitlines()
            for edge in MAP_EDGES["clue"]:
                assert any(row.startswith(edge) for row in rows), shown
            assert f"Do: {label}" in shown and "Your moves (" in shown
            assert "Your cards:" in shown  # beside the map
            _tmux(socket, "send-keys", "-t", "play", label, "Enter")
    finally:
        _tmux(socket, "kill-server")


def test_split_map_finds_the_grid_and_keeps_the_rest_in_order() -> None:
    from timelord.cli.terminal import split_map

    picture = "Title line\n   abcde\n 1 MM..S\n 2 MM..S\n10 ..++.\nPlayers: a; b\n  more"
    found = split_map(picture)
    assert found is not None
    grid, rest = found
    assert grid == ["   abcde", " 1 MM..S", " 2 MM..S", "10 ..++."]
    assert rest == ["Title line", "Players: a; b", "  more"]
    assert split_map("no map here\njust words") is None


def test_a_compact_card_game_table_takes_fewer_lines() -> None:
    """Issue 33 item 10: at 80x24 the Card Game's table pushed its own top (whose turn, your
    Locations) off the screen; compact, each seat's line fits 80 columns and the hand is one
    paragraph."""
    from timelord.cli.terminal import shortened

    game = load("card-game", players=3)
    picture = readable.picture(game, game.render_view(game.new_game(19).view(0)))
    short = shortened("card-game", picture)
    assert len(short.splitlines()) <= len(picture.splitlines()) - 4
    assert all(len(line) <= 80 for line in short.splitlines() if line.startswith("-- "))
    hand = next(line for line in short.splitlines() if line.startswith("Your hand:"))
    names = [line.strip() for line in picture.split("Your hand:\n", 1)[1].splitlines()]
    assert hand == "Your hand: " + "; ".join(n for n in names if n)


def test_a_three_player_card_game_keeps_its_turn_heading_in_sight_at_80x24() -> None:
    """Issue 33 item 10: mid-game with three players the Card Game's turn heading and title
    scrolled off the top of an 80x24 screen; each seat's Locations now share a line and the
    title ends the heading's line, so every fresh turn shows the whole table and the menu."""
    socket = f"timelord-cg3-{os.getpid()}"
    _tmux_start(socket, 80, 24, "play card-game --seats human,random,random --seed 19")
    prompt = "Your move (number"
    prompt_end = "? for help):"
    seen = 0
    try:
        for _ in range(30):
            shown = _wait_screen(socket, lambda s: s.rstrip().endswith(prompt_end))
            menu = shown.rsplit("Your moves (", 1)
            fresh = len(menu) == 2 and menu[1].count(prompt) == 1  # not a group opened
            if fresh:
                seen += 1
                assert "== Turn" in shown and "card-game: Red (you)" in shown, shown
                assert "Your hand:" in shown and "-- Green" in shown, shown
            _tmux(socket, "send-keys", "-t", "play", "1", "Enter")
            _wait_screen(socket, lambda s, t=shown: s != t)
        assert seen >= 10
    finally:
        _tmux(socket, "kill-server")


def test_a_compact_episodes_table_takes_fewer_lines() -> None:
    """Issue 33 item 10: at 80x24 the Episodes lesson's table lost its top lines; compact, the
    title's words leave its first line, the seats go two a line and the pile joins the deck."""
    from timelord.cli.terminal import shortened

    game = load("episodes", players=4)
    state = game.new_game(3)
    picture = readable.picture(game, game.render_view(state.view(0)))
    short = shortened("episodes", picture)
    assert short.splitlines()[0].startswith("round 1/100")  # the title says "episodes: Seat 1"
    seats = [line for line in short.splitlines() if line.startswith("  Seat ")]
    assert len(seats) == 2 and all(line.count("cards in hand") == 2 for line in seats)
    assert len(short.splitlines()) == len(picture.splitlines()) - 2


def test_latest_news_counts_the_lines_a_long_event_wraps_to() -> None:
    """Issue 33 item 10: an event wider than the terminal took two lines where the layout
    counted one, and pushed the table's top off an 80x24 screen."""
    from timelord.cli.terminal import News, latest_news

    blocks = [News(["a" * 100, "b" * 100], "Your move: x")]

    def tall(text: str) -> int:
        return 1 + len(text) // 80  # a line of 100 wraps to 2

    kept = latest_news(blocks, 4, tall)
    assert kept == [News(["(1 earlier event)"]), News(["b" * 100], "Your move: x")]
    assert sum(tall(line) for b in kept for line in b.lines) + 1 <= 4
    assert latest_news(blocks, 4) == blocks  # counted one line each, all of it "fitted"
