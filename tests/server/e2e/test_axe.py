"""axe-core, run in Chromium over every kind of page (lobby, how-to-play, rules, learn,
leaderboard, each game's table as a seat and as a spectator, a replay): no serious or
critical violation (issue 34, "Access for all").

axe-core comes from scripts/fetch_axe.sh into .cache/axe-core (test-only, never served);
scripts/test.sh fetches it. Every violation found, of any impact, is written to
test-artifacts/axe.json so the whole list can be read, not only what fails the test.
"""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.server.e2e.conftest import ROOT

AXE = ROOT / ".cache" / "axe-core" / "axe.min.js"
GAMES = ("card-game", "episodes", "keys", "clue")
#: What fails the test: axe's two highest impacts.
BLOCKING = {"serious", "critical"}
#: Serious or critical violations known and not yet fixed: rule id -> pages (name prefixes)
#: and why. Everything else serious or critical fails. Delete an entry when its fix lands
#: (the boards' nested "i" button and the Keys grid without rows were fixed by `boards`).
KNOWN: dict[str, tuple[tuple[str, ...], str]] = {}

if not AXE.exists():
    pytest.skip("axe-core is not fetched: run scripts/fetch_axe.sh", allow_module_level=True)


def _post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(
        base + path,
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json", "origin": base},
    )
    with urllib.request.urlopen(req, timeout=30) as res:
        out: dict[str, Any] = json.loads(res.read())
        return out


@pytest.fixture(scope="module")
def pages(server: str) -> dict[str, str]:
    """Page name -> URL of every kind of page, made once for this module's tests (tables
    count against the server's creation limits, which the whole e2e session shares)."""
    out = {"lobby": f"{server}/", "leaderboard": f"{server}/leaderboard/keys"}
    for game in GAMES:
        out[f"how-to-play/{game}"] = f"{server}/how-to-play/{game}"
        out[f"rules/{game}"] = f"{server}/rules/{game}"
        out[f"learn/{game}"] = f"{server}/learn/{game}"
        made = _post(server, "/api/tables", {"game": game, "seats": ["human", "random"]})
        out[f"table/{game}"] = made["seats"][0]["url"]
        out[f"watch/{game}"] = made["watch_url"]
    # a short finished game for the replay page
    done = _post(
        server,
        "/api/tables",
        {"game": "episodes", "seats": ["random", "random"], "options": {"target": 5}},
    )
    for _ in range(200):
        with urllib.request.urlopen(f"{server}/api/tables/{done['id']}", timeout=30) as res:
            if json.loads(res.read())["over"]:
                break
        time.sleep(0.1)
    out["replay/episodes"] = f"{server}/tables/{done['id']}/replay"
    return out


def _known(page: str, rule: str) -> bool:
    """Whether a violation is one of the KNOWN ones, on a page where it is known."""
    pages, _why = KNOWN.get(rule, ((), ""))
    return page.startswith(pages)


def _axe(page: Any, url: str) -> list[dict[str, Any]]:
    page.goto(url)
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(500)  # the board is drawn after the page loads
    page.add_script_tag(path=str(AXE))
    result: dict[str, Any] = page.evaluate(
        "async () => await axe.run(document, { resultTypes: ['violations'] })"
    )
    return [
        {
            "id": v["id"],
            "impact": v["impact"],
            "help": v["help"],
            "nodes": [n["target"] for n in v["nodes"]][:5],
            "count": len(v["nodes"]),
        }
        for v in result["violations"]
    ]


def test_every_page_passes_axe(pages: dict[str, str], browser: Any, artifacts: Path) -> None:
    # the pages' strict CSP refuses inline scripts, axe's injected one too: the test's own
    # context lets the test tool in (the pages and their headers are unchanged)
    ctx = browser.new_context(
        reduced_motion="reduce", viewport={"width": 1280, "height": 800}, bypass_csp=True
    )
    page = ctx.new_page()
    found: dict[str, list[dict[str, Any]]] = {}
    try:
        for name, url in pages.items():
            found[name] = _axe(page, url)
    finally:
        ctx.close()
    (artifacts / "axe.json").write_text(json.dumps(found, indent=1))
    blocking = {
        name: [f"{v['id']} ({v['impact']}, {v['count']}x): {v['help']} {v['nodes']}" for v in bad]
        for name, every in found.items()
        if (bad := [v for v in every if v["impact"] in BLOCKING and not _known(name, v["id"])])
    }
    assert not blocking, json.dumps(blocking, indent=1)


def test_the_tables_pass_axe_on_a_phone(pages: dict[str, str], browser: Any) -> None:
    """At 390x844 the tables are laid out otherwise (docked hand, drawers, Clue's map a
    window that pans): they too have no serious or critical violation."""
    ctx = browser.new_context(
        reduced_motion="reduce",
        viewport={"width": 390, "height": 844},
        has_touch=True,
        is_mobile=True,
        bypass_csp=True,
    )
    page = ctx.new_page()
    try:
        found = {name: _axe(page, url) for name, url in pages.items() if name.startswith("table/")}
    finally:
        ctx.close()
    blocking = {
        name: [f"{v['id']} ({v['impact']}): {v['help']} {v['nodes']}" for v in every]
        for name, every in found.items()
        if any(v["impact"] in BLOCKING and not _known(name, v["id"]) for v in every)
    }
    assert not blocking, json.dumps(blocking, indent=1)


def test_no_page_scrolls_sideways_on_a_phone(pages: dict[str, str], browser: Any) -> None:
    """Issue 34, "Phone first-class": at 390x844 no page is wider than the screen."""
    ctx = browser.new_context(
        reduced_motion="reduce", viewport={"width": 390, "height": 844}, has_touch=True
    )
    page = ctx.new_page()
    try:
        wide = {}
        for name, url in pages.items():
            page.goto(url)
            page.wait_for_load_state("networkidle")
            page.wait_for_timeout(300)
            width = page.evaluate("document.documentElement.scrollWidth")
            if width > 390:
                wide[name] = width
        assert not wide
    finally:
        ctx.close()
