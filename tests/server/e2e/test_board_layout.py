"""The Card Game table's layout in Chromium at a desktop's and a phone's size (issue 33,
"hand menus open below the window ... its hand panel covers your own Locations"): scrolled to
the foot of the page, nothing of the hand's panel lies over your own Locations, and a hand
card's menu opens inside the window."""

from __future__ import annotations

import json
import time
import urllib.request
from typing import Any

import pytest

DESKTOP = {"width": 1440, "height": 1000}
PHONE = {"width": 390, "height": 844}

#: your own Locations' boxes and the hand panel's, in the window's coordinates
BOXES = """() => {
  const box = (el) => { const r = el.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, left: r.left, right: r.right }; };
  const me = document.querySelector('.frame .line[data-seat="0"]');
  const dock = document.querySelector('.hand-dock');
  return { mine: me ? [...me.querySelectorAll('.location')].map(box) : null,
           dock: dock ? box(dock) : null, h: innerHeight, w: innerWidth };
}"""
MENU = """() => { const m = document.getElementById('menu'); if (!m || m.hidden) return null;
  const r = m.getBoundingClientRect();
  return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, h: innerHeight,
           w: document.documentElement.clientWidth }; }"""


def _table(server: str) -> str:
    req = urllib.request.Request(
        server + "/api/tables",
        data=json.dumps({"game": "card-game", "seats": ["human", "random"], "seed": 3}).encode(),
        headers={"content-type": "application/json", "origin": server},
    )
    with urllib.request.urlopen(req, timeout=30) as res:
        url: str = json.loads(res.read())["seats"][0]["url"]
        return url


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return a["top"] < b["bottom"] and b["top"] < a["bottom"] and a["left"] < b["right"]


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["1440x1000", "390x844"])
def test_card_game_hand_covers_no_own_location_and_menus_fit(
    server: str, browser: Any, size: dict[str, int]
) -> None:
    ctx = browser.new_context(reduced_motion="reduce", viewport=size)
    page = ctx.new_page()
    try:
        page.goto(_table(server))
        page.wait_for_selector('.frame[data-my-turn="true"]', timeout=30_000)
        page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
        page.wait_for_timeout(200)
        seen = page.evaluate(BOXES)
        assert seen["mine"], "your own line shows your Locations (the starting one at least)"
        if seen["dock"] is not None:
            for loc in seen["mine"]:
                assert not _overlap(loc, seen["dock"]), (size, loc, seen["dock"])
        opener = page.query_selector(".hand-dock [data-actions]")
        if opener is not None:
            opener.scroll_into_view_if_needed()
            opener.click()
            menu = page.evaluate(MENU)
            assert menu is not None
            assert menu["top"] >= 0 and menu["bottom"] <= menu["h"], (size, menu)
            assert menu["left"] >= 0 and menu["right"] <= menu["w"], (size, menu)
    finally:
        ctx.close()


#: Every square or place of the Clue map the seat may move to now: its size, and whether a
#: tap at its centre reaches it once it is panned (and the page scrolled) into view.
REACH = """() => {
  const map = document.querySelector('.clue-map');
  const out = [];
  for (const el of map.querySelectorAll('[data-action], [data-actions]')) {
    el.scrollIntoView({ block: 'center', inline: 'center' });
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    out.push({ w: r.width, h: r.height, reached: !!hit && el.contains(hit),
               tile: el.dataset.tile });
  }
  return { places: out, pans: map.scrollWidth > map.clientWidth,
           pageWidth: document.documentElement.scrollWidth };
}"""
#: Whether one of the places the seat may move to shows inside the map's window.
SHOWN = """() => {
  const map = document.querySelector('.clue-map');
  const m = map.getBoundingClientRect();
  return [...map.querySelectorAll('.can-act')].some((el) => {
    const r = el.getBoundingClientRect();
    return r.left >= m.left - 1 && r.right <= m.right + 1
      && r.top >= m.top - 1 && r.bottom <= m.bottom + 1;
  });
}"""


def _clue_rolled(server: str) -> str:
    """A Clue seat's URL after it rolled the dice (squares to move to glow)."""

    def call(path: str, body: Any = None) -> Any:
        req = urllib.request.Request(
            server + path,
            data=None if body is None else json.dumps(body).encode(),
            method="GET" if body is None else "POST",
            headers={"content-type": "application/json", "origin": server},
        )
        with urllib.request.urlopen(req, timeout=30) as res:
            return json.loads(res.read())

    made = call("/api/tables", {"game": "clue", "seats": ["human", "random"]})
    table, token = made["id"], made["seats"][0]["token"]
    for _ in range(300):
        snap = call(f"/api/tables/{table}?token={token}")
        roll = [a for a in snap["legal"] if a["type"] == "RollDice"]
        if roll:
            call(
                f"/api/tables/{table}/actions?token={token}",
                {"version": snap["version"], "action": roll[0]},
            )
            url: str = made["seats"][0]["url"]
            return url
        time.sleep(0.1)
    raise AssertionError("the seat never came to roll")


def test_clue_map_pans_on_a_phone_with_squares_a_finger_can_tap(server: str, browser: Any) -> None:
    """At 390x844 the map keeps 44 px squares and pans inside its own window: every place the
    seat may move to is at least 44 px and reachable by a tap, the page never scrolls
    sideways, and a redraw brings the places to go back into view."""
    ctx = browser.new_context(
        reduced_motion="reduce", viewport=PHONE, has_touch=True, is_mobile=True
    )
    page = ctx.new_page()
    try:
        page.goto(_clue_rolled(server))
        page.wait_for_selector(".clue-map .can-act")
        assert page.evaluate(SHOWN), "the places to move to are in view when the page opens"
        seen = page.evaluate(REACH)
        assert seen["pans"], "the map is wider than the window: it pans"
        assert seen["pageWidth"] <= PHONE["width"]
        assert seen["places"], "after a roll there are places to move to"
        for place in seen["places"]:
            assert place["w"] >= 44 and place["h"] >= 44, place
            assert place["reached"], place
        # panned far away, the next redraw brings the places to go back into view
        page.evaluate(
            "() => { const m = document.querySelector('.clue-map');"
            " m.scrollLeft = m.scrollLeft > 200 ? 0 : m.scrollWidth;"
            " document.dispatchEvent(new Event('table-changed')); }"
        )
        page.wait_for_function(SHOWN)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        ctx.close()
