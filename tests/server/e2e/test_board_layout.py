"""The Card Game table's layout in Chromium at a desktop's and a phone's size (issue 33,
"hand menus open below the window ... its hand panel covers your own Locations"): scrolled to
the foot of the page, nothing of the hand's panel lies over your own Locations, and a hand
card's menu opens inside the window."""

from __future__ import annotations

import json
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
