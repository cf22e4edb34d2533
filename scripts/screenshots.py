"""Screenshots of every page for docs/screenshots/: the lobby, each board at the start, in
mid-game and at the end, the replay, rules, how-to-play, learn and leaderboard pages, at a
desktop size (1440x1000) and a phone size (390x844, touch).

Usage: start a server (`python3 -m timelord serve --port 8134`; it creates 17 tables, so
start it with higher per-client limits or a fresh database), then
`python3 scripts/screenshots.py http://127.0.0.1:8134 [docs/screenshots]`.
Mid-game positions come from a fixed sequence of moves (the first legal move, a seeded pick
among the rest), so a rerun gives the same kind of position; bots play the other seats.
"""

from __future__ import annotations

import json
import random
import sys
import time
import urllib.parse
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

GAMES = ("card-game", "episodes", "keys", "clue")
#: What makes a game's "reveal" screenshot: a conflict, an episode or a door opened among the
#: latest events; in Clue, dice rolled and a card shown.
REVEAL: dict[str, Callable[[dict[str, Any]], bool]] = {
    "card-game": lambda s: _latest(s, "conflict"),
    "episodes": lambda s: _latest(s, "episode"),
    "keys": lambda s: _latest(s, "open"),
    "clue": lambda s: bool(s["view"].get("roll")) and _latest(s, "show", 30),
}


def _latest(snap: dict[str, Any], kind: str, last: int = 6) -> bool:
    return any(e["kind"] == kind for e in snap["events"][-last:])


SIZES = {"desktop": (1440, 1000), "phone": (390, 844)}


def api(base: str, method: str, path: str, body: Any = None) -> Any:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(
        base + path,
        data=data,
        method=method,
        headers={"content-type": "application/json", "origin": base},
    )
    with urllib.request.urlopen(req, timeout=60) as res:
        return json.loads(res.read())


def wait_for(base: str, table: str, token: str | None, pred: Any, limit: float = 60) -> Any:
    """The table's snapshot once `pred(snapshot)` holds (bots move on the server)."""
    q = f"?token={token}" if token else ""
    end = time.monotonic() + limit
    while True:
        snap = api(base, "GET", f"/api/tables/{table}{q}")
        if pred(snap) or time.monotonic() > end:
            return snap
        time.sleep(0.2)


def mid_game(
    base: str, game: str, moves: int, seed: int, until: Callable[[Any], bool] | None = None
) -> str:
    """A seat's URL after it made `moves` moves against bots, or fewer once `until` holds of
    the seat's snapshot."""
    made = api(base, "POST", "/api/tables", {"game": game, "seats": ["human", "heuristic"]})
    table, token = made["id"], made["seats"][0]["token"]
    rng = random.Random(seed)
    for _ in range(moves):
        snap = wait_for(base, table, token, lambda s: s["over"] or s["legal"])
        if snap["over"] or not snap["legal"]:
            break
        if until is not None and until(snap):
            break
        action = rng.choice(snap["legal"])
        api(base, "POST", f"/api/tables/{table}/actions?token={token}",
            {"version": snap["version"], "action": action})  # fmt: skip
    wait_for(base, table, token, lambda s: s["over"] or s["legal"])
    return str(made["seats"][0]["url"])


def finished(base: str, game: str) -> tuple[str, str]:
    """A bots-only table played to the end: its watch URL and its replay URL."""
    made = api(base, "POST", "/api/tables", {"game": game, "seats": ["heuristic", "heuristic"]})
    table = made["id"]
    wait_for(base, table, None, lambda s: s["over"], limit=240)
    return f"{base}/tables/{table}", f"{base}/tables/{table}/replay"


def player(base: str, name: str = "Rose Tyler") -> str:
    """A player's page after they signed up and played a short rated Episodes game to the
    end against a bot (their rating, its chart and the game in their history)."""
    jar = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())

    def call(method: str, path: str, body: Any = None) -> Any:
        req = urllib.request.Request(
            base + path,
            data=None if body is None else json.dumps(body).encode(),
            method=method,
            headers={"content-type": "application/json", "origin": base},
        )
        with jar.open(req, timeout=60) as res:
            return json.loads(res.read())

    call("POST", "/api/players", {"name": name, "password": "bad wolf bay"})
    options = {"players": 2, "target": 15, "max_rounds": 8}
    made = call("POST", "/api/tables", {"game": "episodes", "options": options,
                                        "seats": ["human", "random"]})  # fmt: skip
    table, token = made["id"], made["seats"][0]["token"]
    rng = random.Random(4)
    while True:
        snap = wait_for(base, table, token, lambda s: s["over"] or s["legal"])
        if snap["over"]:
            break
        call("POST", f"/api/tables/{table}/actions?token={token}",
             {"version": snap["version"], "action": rng.choice(snap["legal"])})  # fmt: skip
    time.sleep(1)  # the results are recorded just after the last move
    return f"{base}/players/{urllib.parse.quote(name)}"


def pages(base: str, games: tuple[str, ...] = GAMES) -> dict[str, str]:
    """Page name -> URL for every page the screenshots show."""
    out = {
        "lobby": f"{base}/",
        "player": player(base),
        "leaderboard": f"{base}/leaderboard/episodes",  # where the player rated one
        "rules": f"{base}/rules/keys",
        "learn": f"{base}/learn/episodes",
    }
    for game in games:
        out[f"{game}-start"] = mid_game(base, game, 0, 1)
        out[f"{game}-mid"] = mid_game(base, game, 14, 2)
        out[f"{game}-reveal"] = mid_game(base, game, 200, 3, REVEAL[game])
        out[f"{game}-end"], out[f"{game}-replay"] = finished(base, game)
        out[f"{game}-howto"] = f"{base}/how-to-play/{game}"
    return out


def shrink(path: Path) -> None:
    """A 256-colour PNG (about a third of the size; the pages use few colours)."""
    from PIL import Image

    image = Image.open(path).convert("RGB")
    image.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(
        path, optimize=True
    )


def main() -> None:
    from playwright.sync_api import sync_playwright

    base = sys.argv[1].rstrip("/")
    out = Path(sys.argv[2] if len(sys.argv) > 2 else "docs/screenshots")
    games = tuple(sys.argv[3].split(",")) if len(sys.argv) > 3 else GAMES
    out.mkdir(parents=True, exist_ok=True)
    urls = pages(base, games)
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--headless", "--no-sandbox"]
        )
        for size, (w, h) in SIZES.items():
            phone = size == "phone"
            ctx = browser.new_context(
                viewport={"width": w, "height": h}, has_touch=phone, is_mobile=phone
            )
            page = ctx.new_page()
            for name, url in urls.items():
                page.goto(url)
                page.wait_for_load_state("networkidle")
                page.wait_for_timeout(800)
                page.screenshot(path=str(out / f"{name}-{size}.png"))
                if name == "clue-mid" and phone:
                    # the map is a window that pans on a phone: the page scrolled to it
                    page.evaluate(
                        "() => document.querySelector('.clue-map')"
                        ".scrollIntoView({ block: 'start' })"
                    )
                    page.wait_for_timeout(200)
                    page.screenshot(path=str(out / f"{name}-map-{size}.png"))
                    page.evaluate("() => window.scrollTo(0, 0)")
                if name.endswith("-mid") and phone:
                    # the log and the moves are a drawer on a phone: the same table with it open
                    page.get_by_role("button", name="Log · moves").click()
                    page.wait_for_timeout(400)
                    page.screenshot(path=str(out / f"{name}-log-{size}.png"))
            ctx.close()
        browser.close()
    for path in out.glob("*.png"):
        shrink(path)


if __name__ == "__main__":
    main()
