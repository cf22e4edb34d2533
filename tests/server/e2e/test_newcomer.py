"""A new player's first hour in headless Chromium (issue 21): an accusation is confirmed
first and can be called off; a page whose socket stalled catches up before a click and by
its heartbeat, in a player's words; a server that cannot be reached is said so; the help
overlay lists the keys that jump between regions, and they do; a card's "i" shows it whole;
a lesson is walked from the lobby's "Learn to play" to the normal game after it."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import timelord

MY_TURN = "() => !!document.querySelector('.frame[data-my-turn=true]')"

#: Wraps WebSocket so a test can make an open socket fall silent (a stalled connection).
STALL = """
(() => {
  const Real = window.WebSocket;
  window.__stall = false;
  class Stalling extends Real {
    set onmessage(fn) { super.onmessage = (m) => { if (!window.__stall) fn(m); }; }
    get onmessage() { return super.onmessage; }
  }
  window.WebSocket = Stalling;
})();
"""


def _post(base: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(
        base + path, data=data, headers={"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(req, timeout=30) as answer:
        return json.load(answer)


def _get(base: str, path: str) -> Any:
    with urllib.request.urlopen(base + path, timeout=30) as answer:
        return json.load(answer)


def _create(base: str, game: str, seats: list[str], seed: int, **options: Any) -> Any:
    return _post(
        base, "/api/tables", {"game": game, "options": options, "seats": seats, "seed": seed}
    )


def test_an_accusation_is_confirmed_first_and_can_be_called_off(
    page: Any, server: str, artifacts: Path
) -> None:
    """C-5.1, C-5.3: the TARDIS glows from turn 1; one click used to start an accusation."""
    table = _create(server, "clue", ["human", "heuristic", "heuristic"], 1, players=3)
    page.goto(table["seats"][0]["url"])
    page.wait_for_function(MY_TURN, timeout=30_000)
    version = page.get_attribute(".frame", "data-version")
    page.click("#legal button[data-confirm]")  # "make an accusation"
    dialog = page.wait_for_selector("#confirm:not([hidden])")
    assert "out of the game" in dialog.inner_text()
    page.screenshot(path=str(artifacts / "newcomer-clue-accuse-confirm.png"))
    page.click("[data-confirm-no]")
    assert page.is_hidden("#confirm")
    page.wait_for_timeout(400)
    assert page.get_attribute(".frame", "data-version") == version  # nothing was sent
    # the TARDIS asks too, Escape calls it off, and "yes" goes ahead
    page.click(".room.tardis")
    if page.is_visible("#menu"):
        page.click("#menu [data-confirm]")
    page.wait_for_selector("#confirm:not([hidden])")
    page.keyboard.press("Escape")
    assert page.is_hidden("#confirm")
    page.click("#legal button[data-confirm]")
    page.click("[data-confirm-yes]")
    page.wait_for_function(
        "v => document.querySelector('.frame')?.dataset.version !== v", arg=version
    )
    assert "naming for an accusation" in page.inner_text(".phase-hint")
    assert not page.errors


def _staying_move(game_id: str, seed: int, players: int) -> tuple[int, list[dict[str, Any]]]:
    """The seat to move at the deal and two moves it can make in a row, still to move."""
    game = timelord.load(game_id, players=players)
    state = game.new_game(seed)
    seat = state.to_move
    moves = []
    for _ in range(2):
        for action in state.legal_actions():
            after = state.apply(action)
            if after.to_move == seat and after.legal_actions():
                moves.append(action.to_json())
                state = after
                break
    assert seat is not None and len(moves) == 2
    return seat, moves


def test_a_stalled_socket_is_caught_before_a_click_and_by_the_heartbeat(
    page: Any, server: str
) -> None:
    """The stale tab said "live" and refused its click with "version 33, not 31; reload"."""
    seat, moves = _staying_move("card-game", 3, 2)
    table = _create(server, "card-game", ["human", "human"], 3, players=2)
    token = table["seats"][seat]["token"]
    page.clock.install()
    page.add_init_script(STALL)
    page.goto(table["seats"][seat]["url"])
    page.wait_for_function(MY_TURN, timeout=30_000)
    page.wait_for_function("() => document.getElementById('conn').textContent === 'live'")
    page.evaluate("window.__stall = true")
    path = f"/api/tables/{table['id']}/actions?token={token}"
    _post(server, path, {"version": 0, "action": moves[0]})  # the same seat, another tab
    assert page.get_attribute(".frame", "data-version") == "0"  # the page did not hear
    page.clock.fast_forward(6000)  # quiet long enough that a click checks first
    page.click("#legal button.act")
    page.wait_for_function("() => document.querySelector('.frame')?.dataset.version === '1'")
    toast = page.inner_text("#toast")
    assert "moved on" in toast and "version" not in toast
    # nothing was sent: the move made elsewhere is the only one
    assert _get(server, f"/api/tables/{table['id']}")["version"] == 1
    # the heartbeat alone catches a socket that stalled again, without a click
    page.evaluate("window.__stall = true")
    _post(server, path, {"version": 1, "action": moves[1]})
    page.clock.fast_forward(12_000)
    page.wait_for_function("() => document.querySelector('.frame')?.dataset.version === '2'")
    assert not page.errors


def test_a_server_that_cannot_be_reached_is_said_in_words(page: Any, server: str) -> None:
    table = _create(server, "episodes", ["human", "random"], 2, players=2)
    page.goto(table["seats"][0]["url"])
    page.wait_for_function(MY_TURN, timeout=30_000)
    page.route("**/api/**", lambda route: route.abort())
    page.route("**/board*", lambda route: route.abort())
    page.click("#legal button.act")
    page.wait_for_selector("#toast:not([hidden])")
    toast = page.inner_text("#toast")
    assert "server cannot be reached" in toast and "reconnect" in toast
    assert "TypeError" not in toast and "Failed to fetch" not in toast
    assert "cannot reach the server" in page.inner_text("#conn")


def test_help_lists_the_region_keys_and_they_jump(page: Any, server: str, artifacts: Path) -> None:
    table = _create(server, "card-game", ["human", "heuristic"], 1, players=2)
    page.goto(table["seats"][0]["url"])
    page.wait_for_function(MY_TURN, timeout=30_000)
    page.keyboard.press("?")
    help_text = page.inner_text("#help")
    for key in ("hand", "board", "moves", "log"):
        assert key in help_text
    page.screenshot(path=str(artifacts / "newcomer-help.png"))
    page.keyboard.press("Escape")
    assert page.is_hidden("#help")
    inside = "sel => !!document.activeElement?.closest(sel)"
    for key, region in (("h", "[data-hand]"), ("m", "#legal"), ("l", "#log"), ("b", ".board-area")):
        page.keyboard.press(key)
        assert page.evaluate(inside, region), key
    # "h" lands on a card that acts (it took up to 21 Tabs before)
    page.keyboard.press("h")
    acts = "() => !!document.activeElement?.matches('[data-action],[data-actions],[data-explain]')"
    assert page.evaluate(acts)
    assert not page.errors


def test_a_card_is_shown_whole_with_its_provenance_on_a_tap(page: Any, server: str) -> None:
    table = _create(server, "card-game", ["human", "heuristic"], 1, players=2)
    page.goto(table["seats"][0]["url"])
    page.wait_for_selector("[data-hand] .card")
    card = page.query_selector("[data-hand] .card")
    info = json.loads(card.get_attribute("data-info"))
    version = page.get_attribute(".frame", "data-version")
    card.query_selector("[data-card-info]").click()
    page.wait_for_selector("#card-zoom:not([hidden])")
    assert page.inner_text(".zoom-name") == info["name"]
    assert info["source"] in page.inner_text(".zoom-source")
    assert page.get_attribute(".frame", "data-version") == version  # the tap played nothing
    page.keyboard.press("Escape")
    assert page.is_hidden("#card-zoom")


def test_learn_to_play_from_the_lobby_to_a_normal_game(
    page: Any, server: str, artifacts: Path
) -> None:
    page.goto(f"{server}/")
    page.click('[data-learn="keys"]')
    page.click("#start-lesson")
    page.wait_for_selector("#lesson")
    page.screenshot(path=str(artifacts / "newcomer-lesson-keys-start.png"))
    wrong_tried = False
    for _ in range(80):
        page.wait_for_function(
            "() => !!document.querySelector('#lesson .lesson-do, #normal-game')", timeout=30_000
        )
        if page.query_selector("#normal-game"):
            break
        version = page.get_attribute(".frame", "data-version")
        if not wrong_tried:
            # a move the lesson does not ask for is not made, and the player is told
            other = page.query_selector("#legal button.act:not(.lesson-point)")
            if other is not None:
                other.click()
                assert "Not this time" in page.inner_text("#lesson .lesson-note")
                assert page.get_attribute(".frame", "data-version") == version
                wrong_tried = True
        point = page.query_selector(".board-area .lesson-point") or page.query_selector(
            "#legal .lesson-point"
        )
        assert point is not None, page.inner_text("#lesson")
        point.scroll_into_view_if_needed()
        is_menu = point.get_attribute("data-actions") is not None
        point.click()
        if is_menu:
            page.click("#menu .lesson-point")
        page.wait_for_function(
            "v => document.querySelector('.frame')?.dataset.version !== v", arg=version
        )
    else:
        raise AssertionError("the lesson did not end")
    assert wrong_tried
    page.screenshot(path=str(artifacts / "newcomer-lesson-keys-end.png"))
    page.click("#normal-game")
    page.wait_for_selector(".frame")
    assert "lesson=" not in page.url and page.query_selector("#lesson") is None
    assert not page.errors


def test_keyboard_focus_stays_on_the_board_after_a_move(page: Any, server: str) -> None:
    """A move picked from a tile's menu used to drop the focus to the page's start."""
    table = _create(server, "keys", ["human", "heuristic"], 4, players=2)
    page.goto(table["seats"][0]["url"])
    page.wait_for_function(MY_TURN, timeout=30_000)
    version = page.get_attribute(".frame", "data-version")
    tile = page.query_selector(".keys-grid .tile[data-actions]")
    assert tile is not None
    where = tile.get_attribute("data-tile")
    tile.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#menu:not([hidden])")
    page.keyboard.press("1")
    page.wait_for_function(
        "v => document.querySelector('.frame')?.dataset.version !== v", arg=version
    )
    focused = page.evaluate(
        "() => { const el = document.activeElement;"
        " return el && el.closest('.board-area') ? (el.dataset.tile ?? 'board') : null; }"
    )
    assert focused == where
    assert not page.errors
