"""Hostile strings in every field a person controls reach every page as text (issue 30,
finding 1 and "tests the suite keeps"): account and guest names, chat lines, seat names given
at creation, put through the lobby, each game's table at its start, part-way and (Episodes)
at its end, as a seat and as a spectator, the replay, the player page, the leaderboard, the
learn and rules pages, in Chromium with a CSP violation listener and a canary. Nothing runs
(the canary stays unset, no dialog opens, no policy is violated, no script error), and
nothing widens the page past the window."""

from __future__ import annotations

import json
import random
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

#: What a payload sets if it ever runs.
CANARY = "__pwned"
#: Names a person may choose (1-32 printable characters, no '/' for accounts).
PLAYER_NAME = "<img src=x onerror=__pwned=1>"
GUEST_NAME = '"><svg onload=__pwned=2>x'
SEAT_NAME = "<script>__pwned=3</script>"
CHAT = [
    "<script>window.__pwned=4</script>",
    '<a href="javascript:window.__pwned=5">click</a> javascript:window.__pwned=5',
    "<b onmouseover=__pwned=6>hover</b> <iframe src=javascript:__pwned=7>",
    "\u202eevil right-to-left override\u202c then \u2067isolate\u2069 then normal",
    "W" * 500,  # the longest chat line, without a place to break
    "\u0410ce and \uff21ce and \U0001d400ce",  # look-alikes of "Ace"
]
#: Listens for policy violations and for dialogs before any page script runs.
WATCH = """
window.__csp = [];
document.addEventListener('securitypolicyviolation',
    (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));
"""
GAMES = {
    "episodes": {"players": 3, "target": 15, "max_rounds": 8},
    "keys": {"players": 3},
    "card-game": {"players": 3},
    "clue": {"players": 3},
}


def _call(method: str, url: str, body: Any = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(
        url, data=data, method=method, headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(req, timeout=30) as answer:
            text = answer.read()
            return answer.status, json.loads(text) if text else None
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null")


@pytest.fixture(scope="module")
def person(browser: Any, server: str) -> Iterator[Any]:
    """A browser context logged in as the player with the hostile name."""
    context = browser.new_context(reduced_motion="reduce", viewport={"width": 1280, "height": 800})
    context.add_init_script(WATCH)
    name = PLAYER_NAME
    answer = context.request.post(f"{server}/api/players", data={"name": name})
    assert answer.status == 201, answer.text()
    try:
        yield context
    finally:
        context.close()


def _table(context: Any, server: str, game: str) -> dict[str, Any]:
    """A table of the player (seat 0), a guest who claimed the open seat 1 by a hostile name,
    and a bot; its chat holds every hostile line."""
    body = {
        "game": game,
        "options": GAMES[game],
        "seats": ["human", "open", "random"],
        "names": [SEAT_NAME, None, None],
    }
    made = context.request.post(f"{server}/api/tables", data=body)
    assert made.status == 201, made.text()
    table = made.json()
    tid = table["id"]
    claim = f"{server}/api/tables/{tid}/seats/1/claim"
    status, claimed = _call("POST", claim, {"name": GUEST_NAME})
    assert status == 200, claimed
    table["guest"] = claimed["token"]
    table["game"] = game
    # half the lines from the player, half from the guest (a seat's chat is rate-limited)
    for line in CHAT[::2]:
        sent = context.request.post(f"{server}/api/tables/{tid}/chat", data={"text": line})
        assert sent.status == 204, (line, sent.text())
    for line in CHAT[1::2]:
        url = f"{server}/api/tables/{tid}/chat?token={table['guest']}"
        status, answer = _call("POST", url, {"text": line})
        assert status == 204, (line, answer)
    too_long = context.request.post(f"{server}/api/tables/{tid}/chat", data={"text": "x" * 10_000})
    assert too_long.status in (400, 422)
    return table


def _move(context: Any, server: str, table: dict[str, Any], rng: random.Random) -> bool:
    """One move by whichever person is to move (a random legal one); False once over."""
    tid = table["id"]
    for _ in range(200):
        snap = context.request.get(f"{server}/api/tables/{tid}").json()
        if snap["over"]:
            return False
        if snap["to_move"] == 0 and snap["legal"]:
            body = {"version": snap["version"], "action": rng.choice(snap["legal"])}
            context.request.post(f"{server}/api/tables/{tid}/actions", data=body)
            return True
        if snap["to_move"] == 1:
            query = f"?token={table['guest']}"
            _, guest = _call("GET", f"{server}/api/tables/{tid}{query}")
            if guest["legal"]:
                body = {"version": guest["version"], "action": rng.choice(guest["legal"])}
                _call("POST", f"{server}/api/tables/{tid}/actions{query}", body)
                return True
        context.request.get(f"{server}/api/tables/{tid}")  # the bot is thinking
    return True


def _check(page: Any, what: str, artifacts: Path) -> None:
    """Nothing ran on the page and nothing widened it."""
    page.wait_for_timeout(300)
    ran = page.evaluate(f"typeof window.{CANARY}")
    violations = page.evaluate("window.__csp")
    width = page.evaluate("document.documentElement.scrollWidth")
    inner = page.evaluate("window.innerWidth")
    if ran != "undefined" or violations or page.errors or page.dialogs or width > inner + 1:
        page.screenshot(path=str(artifacts / f"hostile-{what}.png"), full_page=True)
    assert ran == "undefined", f"{what}: a payload ran"
    assert page.dialogs == [], f"{what}: a dialog opened"
    assert violations == [], f"{what}: {violations}"
    assert page.errors == [], f"{what}: {page.errors}"
    assert width <= inner + 1, f"{what}: the page is {width}px wide in a {inner}px window"


def _open(context: Any, url: str) -> Any:
    page = context.new_page()
    page.errors = []
    page.dialogs = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.on("dialog", lambda d: (page.dialogs.append(d.message), d.dismiss()))
    page.goto(url)
    return page


def _table_pages(
    context: Any, spectator: Any, server: str, table: dict[str, Any], when: str, artifacts: Path
) -> None:
    tid = table["id"]
    for who, ctx, url in (
        ("seat", context, f"{server}/tables/{tid}"),
        ("guest", spectator, f"{server}/tables/{tid}?token={table['guest']}"),
        ("spectator", spectator, f"{server}/tables/{tid}"),
    ):
        page = _open(ctx, url)
        page.wait_for_selector("#board .frame")
        page.wait_for_selector("#chat-log li")
        text = page.inner_text("body")
        assert GUEST_NAME in text and CHAT[0] in text, f"{when} {who}: not shown as text"
        _check(page, f"{table['game']}-{when}-{who}", artifacts)
        page.close()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_hostile_strings_run_nowhere_on_a_table(
    person: Any, browser: Any, server: str, artifacts: Path, game: str
) -> None:
    spectator = browser.new_context(
        reduced_motion="reduce", viewport={"width": 1280, "height": 800}
    )
    spectator.add_init_script(WATCH)
    try:
        table = _table(person, server, game)
        rng = random.Random(7)
        _table_pages(person, spectator, server, table, "start", artifacts)
        for _ in range(12):
            _move(person, server, table, rng)
        _table_pages(person, spectator, server, table, "mid", artifacts)
        if game == "episodes":
            while _move(person, server, table, rng):
                pass
            _table_pages(person, spectator, server, table, "end", artifacts)
            page = _open(spectator, f"{server}/tables/{table['id']}/replay")
            page.wait_for_selector("#board .frame")
            _check(page, "replay", artifacts)
            page.close()
    finally:
        spectator.close()


def test_hostile_strings_run_nowhere_on_the_other_pages(
    person: Any, server: str, artifacts: Path
) -> None:
    name = urllib.parse.quote(PLAYER_NAME, safe="")
    pages = {
        "lobby": f"{server}/",
        "player": f"{server}/players/{name}",
        "leaderboard": f"{server}/leaderboard/episodes",
        "learn": f"{server}/learn/keys",
        "rules": f"{server}/rules/clue",
    }
    for what, url in pages.items():
        page = _open(person, url)
        page.wait_for_load_state("networkidle")
        if what in ("lobby", "player"):
            assert PLAYER_NAME in page.inner_text("body"), what
        _check(page, what, artifacts)
        page.close()
