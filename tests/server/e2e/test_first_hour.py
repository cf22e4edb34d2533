"""A newcomer's first hour in headless Chromium at a desktop's and a phone's size (issue 33):
every lesson walked to its end with the board at its full width and the instruction in view
at each step, and no page that scrolls sideways on a phone."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest

import timelord
from timelord.learn import has_lesson

DESKTOP = {"width": 1440, "height": 1000}
PHONE = {"width": 390, "height": 844}
#: the games the server serves (the package's four)
SERVED = ("card-game", "episodes", "keys", "clue")
LESSONS = [g for g in SERVED if has_lesson(g)]

#: the instruction's box, and whether the element at its middle is the panel's own
IN_VIEW = """() => {
  const say = document.querySelector('#lesson .lesson-say') ?? document.querySelector('#lesson h2');
  if (!say) return null;
  const r = say.getBoundingClientRect();
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + Math.min(r.height, 20) / 2);
  return { top: r.top, bottom: r.bottom, h: innerHeight, mine: !!top?.closest('#lesson') };
}"""
WIDTHS = """() => ({ page: document.documentElement.scrollWidth,
  board: document.getElementById('board').getBoundingClientRect().width })"""


def _post(base: str, path: str, body: Any) -> Any:
    req = urllib.request.Request(
        base + path,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(req, timeout=30) as answer:
        return json.load(answer)


def _context(browser: Any, size: dict[str, int]) -> Any:
    return browser.new_context(reduced_motion="reduce", viewport=size)


def _walk_lesson(page: Any, server: str, game: str, size: dict[str, int]) -> int:
    """Walk `game`'s lesson from its page to the end as a learner does (clicking what
    glows); checks the layout at each learner step and returns the number of steps."""
    page.goto(f"{server}/learn/{game}")
    page.click("#start-lesson")
    page.wait_for_selector("#lesson")
    for steps in range(200):
        page.wait_for_function(
            "() => !!document.querySelector('#lesson .lesson-do, #normal-game')", timeout=30_000
        )
        seen = page.evaluate(IN_VIEW)
        where = f"{game} at {size['width']}px, step {steps + 1}"
        assert seen is not None, where
        assert seen["top"] >= 0 and seen["bottom"] <= seen["h"], (where, seen)
        assert seen["mine"], f"{where}: something covers the instruction"
        widths = page.evaluate(WIDTHS)
        assert widths["page"] <= size["width"], (where, widths)
        if size["width"] > 800:
            # the board's row keeps the board at full width beside the chat (about 18rem)
            assert widths["board"] >= size["width"] - 400, (where, widths)
        if page.query_selector("#normal-game"):
            return steps
        version = page.get_attribute(".frame", "data-version")
        point = page.query_selector(".board-area .lesson-point") or page.query_selector(
            "#legal .lesson-point"
        )
        assert point is not None, page.inner_text("#lesson")
        is_menu = point.get_attribute("data-actions") is not None
        point.click()
        if is_menu:
            page.click("#menu .lesson-point")
        if page.is_visible("#confirm"):  # an accusation is confirmed first
            page.click("[data-confirm-yes]")
        page.wait_for_function(
            "v => document.querySelector('.frame')?.dataset.version !== v", arg=version
        )
    raise AssertionError(f"the {game} lesson did not end")


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
@pytest.mark.parametrize("game", LESSONS)
def test_every_lesson_keeps_the_board_wide_and_the_instruction_in_view(
    browser: Any, server: str, artifacts: Path, game: str, size: dict[str, int]
) -> None:
    """A lesson panel used to sit inside the board's row (the board squeezed to 0-146 px at
    1440 px) and, on a phone, to scroll out of view before most steps began."""
    context = _context(browser, size)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        steps = _walk_lesson(page, server, game, size)
        assert steps >= 3
        assert page.query_selector("#seeded") is None  # a lesson's deal is public by design
        # a stand-in bot would play moves the lesson does not expect: not offered here
        assert page.query_selector("#stand-in") is None
        page.screenshot(path=str(artifacts / f"first-hour-lesson-{game}-{size['width']}.png"))
        assert not errors
    finally:
        context.close()


def _pages(server: str) -> list[str]:
    """Every kind of page a newcomer meets: the lobby, each game's lesson and rules, a
    seat's table of each game, a spectator's, a finished game's replay and a leaderboard."""
    urls = [f"{server}/", f"{server}/leaderboard/keys", f"{server}/no-such-page"]
    # the server's own games: this process's registry also holds the toy games other test
    # modules register, which the server (another process) does not know
    for game in SERVED:
        urls += [f"{server}/rules/{game}"]
        if has_lesson(game):
            urls.append(f"{server}/learn/{game}")
        players = 3 if game == "clue" else 2
        seats = ["human", *["heuristic"] * (players - 1)]
        table = _post(server, "/api/tables", {"game": game, "seats": seats, "undo": True})
        urls += [table["seats"][0]["url"], table["watch_url"]]
    bots = _post(server, "/api/tables", {"game": "keys", "seats": ["random", "random"]})
    urls.append(f"{server}/tables/{bots['id']}/replay")
    return urls


def test_no_page_scrolls_sideways_on_a_phone(browser: Any, server: str, artifacts: Path) -> None:
    """The lobby was 619 px wide at 390 (two Learn links cut off), the leaderboard 554 and
    the player page 599 (those two with ratings: tests/server/e2e/test_players.py)."""
    context = _context(browser, PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    wide = {}
    try:
        for n, url in enumerate(_pages(server)):
            page.goto(url)
            page.wait_for_load_state("networkidle")
            if "/tables/" in url:
                page.wait_for_selector(".frame", timeout=30_000)
            width = page.evaluate("document.documentElement.scrollWidth")
            if width > PHONE["width"]:
                wide[url] = width
                page.screenshot(path=str(artifacts / f"first-hour-wide-{n}.png"), full_page=True)
        page.goto(f"{server}/")
        page.click("#more summary")  # the table set-up opened, its long seat choices
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert wide == {}
        assert not errors
    finally:
        context.close()


def _label_of(server: str, table: Any, seat: int, want: str) -> Any:
    """A legal action of `seat` whose label starts with `want`, asked of the API."""
    url = f"{server}/api/tables/{table['id']}?token={table['seats'][seat]['token']}"
    with urllib.request.urlopen(url, timeout=30) as answer:
        snapshot = json.load(answer)
    engine = timelord.load(table["game"], **table["options"])
    for data in snapshot["legal"]:
        label = engine.action_label(snapshot["view"], engine.action_from_json(data))
        if label.startswith(want):
            return data
    raise AssertionError(f"no {want!r} among the legal actions")


#: whether the reason given beside the disabled undo button mentions a word
WHY_NOT = "w => !!document.querySelector('#undo-why')?.textContent.includes(w)"


def test_undo_is_offered_only_when_it_would_be_accepted(page: Any, server: str) -> None:
    """Undo was offered everywhere, accepted 0 of 25 times, and took back an accusation."""
    body = {"game": "clue", "options": {"players": 2}, "seats": ["human", "human"], "undo": True}
    table = _post(server, "/api/tables", body) | {"game": "clue", "options": {"players": 2}}
    page.goto(table["seats"][0]["url"])
    page.wait_for_selector(".frame[data-my-turn=true]", timeout=30_000)
    page.wait_for_selector("#undo[disabled]")
    assert "nothing has been played yet" in page.inner_text("#undo-why")
    page.click("#legal button:has-text('roll the dice')")
    page.wait_for_function(WHY_NOT, arg="random")
    assert page.is_disabled("#undo")
    page.click("#legal button:has-text('move to')")
    page.wait_for_selector("#undo:not([disabled])")
    assert page.query_selector("#undo-why") is None
    version = page.get_attribute(".frame", "data-version")
    page.click("#undo")
    page.wait_for_function(
        "v => document.querySelector('.frame')?.dataset.version !== v", arg=version
    )
    # an accusation, once begun, is never taken back (C-5.1)
    accusing = _post(server, "/api/tables", body) | {"game": "clue", "options": {"players": 2}}
    page.goto(accusing["seats"][0]["url"])
    page.wait_for_selector(".frame[data-my-turn=true]", timeout=30_000)
    page.click("#legal button[data-confirm]")
    page.click("[data-confirm-yes]")
    page.wait_for_function(WHY_NOT, arg="accusation")
    assert page.is_disabled("#undo")
    assert not page.errors


def test_the_lobby_makes_a_table_with_hints(page: Any, server: str) -> None:
    """Hints existed only through the API."""
    page.goto(server)
    page.check('input[name="game"][value="keys"]')
    page.check("#hints")
    page.click("#play-bots")
    page.wait_for_selector("#hint", timeout=30_000)
    page.goto(server)
    page.click("#play-bots")  # without the box: no hints
    page.wait_for_selector(".frame", timeout=30_000)
    assert page.query_selector("#hint") is None
    assert not page.errors


def test_a_friend_invited_by_link_sets_a_name(browser: Any, server: str, artifacts: Path) -> None:
    """A friend was shown as "Blue", then "Green" after a rematch, with no way to say who."""
    body = {"game": "card-game", "seats": ["human", "human"], "names": ["Ann", None]}
    table = _post(server, "/api/tables", body)
    context = _context(browser, PHONE)
    page = context.new_page()
    try:
        page.goto(table["seats"][1]["url"])
        form = page.wait_for_selector("#name-seat:not([hidden])", timeout=30_000)
        assert "Others see you as Blue" in form.inner_text()
        page.fill("#seat-name", "Cleo")
        page.click("#name-seat button[type=submit]")
        page.wait_for_function(
            "() => document.querySelector('.seat-info[data-seat=\"1\"] .seat-name')"
            "?.textContent === 'Cleo (guest) (you)'"
        )
        assert page.is_hidden("#name-seat")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        page.screenshot(path=str(artifacts / "first-hour-friend-named.png"))
        page.goto(table["seats"][0]["url"])  # the name others see, on their board too
        page.wait_for_function("() => document.getElementById('board').innerText.includes('Cleo')")
        assert page.is_hidden("#name-seat")  # Ann named herself when she made the table
    finally:
        context.close()


#: the open menu's box against the window's
MENU_BOX = """() => { const r = document.getElementById('menu').getBoundingClientRect();
  return { top: r.top, bottom: r.bottom, left: r.left, right: r.right,
    w: document.documentElement.clientWidth, h: innerHeight }; }"""


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_card_menu_opens_inside_the_window(browser: Any, server: str, size: Any) -> None:
    """The Card Game's hand menus opened below the window (1 of 5 buttons visible at
    1440x1000): a menu for a card at the window's foot opens above it, and never past the
    right edge on a phone."""
    table = _post(server, "/api/tables", {"game": "card-game", "seats": ["human", "heuristic"]})
    context = _context(browser, size)
    page = context.new_page()
    try:
        page.goto(table["seats"][0]["url"])
        for _ in range(40):  # the first moves from the list, until a hand card has a menu
            page.wait_for_selector(".frame[data-my-turn=true]", timeout=30_000)
            cards = page.query_selector_all("[data-hand] [data-actions]")
            if cards:
                break
            version = page.get_attribute(".frame", "data-version")
            if page.is_visible(".drawer-buttons"):  # a phone: the moves are in the drawer
                page.click(".drawer-buttons button[aria-controls=log]")
            page.click("#legal [data-action]")
            page.wait_for_function(
                "v => document.querySelector('.frame')?.dataset.version !== v", arg=version
            )
        assert cards, "the hand offers a card with a menu"
        for card in (cards[0], cards[-1]):
            # the card at the foot of the window, as a player scrolling down meets it
            card.evaluate("el => el.scrollIntoView({block: 'end'})")
            card.click()
            page.wait_for_selector("#menu:not([hidden]) [data-action]")
            box = page.evaluate(MENU_BOX)
            assert box["top"] >= 0 and box["bottom"] <= box["h"], box
            assert box["left"] >= 0 and box["right"] <= box["w"], box
            assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
            page.keyboard.press("Escape")
            page.wait_for_selector("#menu", state="hidden")
    finally:
        context.close()


def test_the_stand_in_plays_for_you_on_your_own_seat(page: Any, server: str) -> None:
    """On a player's own seat the stand-in "plays for them", named by its spec."""
    body = {"game": "keys", "seats": ["human", "human"], "stand_in": "ismcts:easy"}
    table = _post(server, "/api/tables", body)
    page.goto(table["seats"][0]["url"])
    page.wait_for_selector(".frame")
    page.click("#stand-in")
    page.wait_for_selector("#reclaim")
    mine = page.inner_text('.seat-info[data-seat="0"] .stand-in')
    assert mine == " · Bot (thinker) plays for you", mine
    page.goto(table["seats"][1]["url"])  # the other person reads who plays for whom
    page.wait_for_selector('.seat-info[data-seat="0"] .stand-in')
    assert page.inner_text('.seat-info[data-seat="0"] .stand-in').endswith("plays for them")
    assert not page.errors


#: a person's turn in which they moved, then the stand-in moved for them, then another seat
STOOD_IN = [
    {"kind": "turn", "text": "Round 1: Your turn", "data": {"actor": 0, "round": 1}},
    {"kind": "open", "text": "You open c3", "data": {"actor": 0}},
    {"kind": "turn", "text": "Round 2: Your turn", "data": {"actor": 0, "round": 2}},
    {
        "kind": "draw",
        "text": "Ann draws a card — the stand-in played this for you",
        "data": {"actor": 0},
        "standin": True,
    },
    {
        "kind": "open",
        "text": "Ann opens d4 — the stand-in played this for you",
        "data": {"actor": 0},
        "standin": True,
    },
    {"kind": "turn", "text": "Round 2: Bob's turn", "data": {"actor": 1, "round": 2}},
    {"kind": "move", "text": "Bob moves to e5", "data": {"actor": 1}},
]


def test_the_log_heads_the_stand_ins_moves_and_keeps_yours(page: Any, server: str) -> None:
    """Issue 33, "People and seats": on your own seat the log said "You" for the stand-in's
    moves; now the moves the stand-in made (marked `standin` by the server) are a group
    headed by the stand-in, and your own moves stay "You". Seats without a name are
    numbered from 1 in the log's marks, as on the board."""
    page.goto(server + "/")
    page.add_script_tag(url="/static/log.js", type="module")
    page.wait_for_function("() => !!window.timelordLog")
    heads = page.evaluate(
        """(events) => [...window.timelordLog.render(events, { seat: 0, names: ['Ann', 'Bob'] })
             .querySelectorAll('.log-turn header .seat-name')].map((h) => h.textContent)""",
        STOOD_IN,
    )
    assert heads == ["Bob", "The stand-in, for you", "You"]
    marks = page.evaluate(
        """() => [0, 1, 2].map((s) => window.timelordLog.initial(
             s, ['Seat 1', 'Bot (casual)', 'Seat 3'], null))"""
    )
    assert marks == ["1", "2", "3"]
    renamed = page.evaluate(
        "() => window.timelordLog.told('Seat 0 passes to Seat 1', ['Seat 1', 'Seat 2'],"
        " ['Seat 0', 'Seat 1'])"
    )
    assert renamed == "Seat 1 passes to Seat 2"  # one pass: not "Seat 2 passes to Seat 2"
