"""A person signs up in the lobby, plays a rated table against a bot to the end in headless
Chromium, and finds the rating and the game on their player page, the leaderboard and the
lobby (issue 20)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from tests.server.e2e.test_play import play_to_the_end


def _reload_until(page: Any, url: str, selector: str, tries: int = 20) -> Any:
    """The page at `url` once it shows `selector` (a bot's last move records the table's
    results just after the result screen shows)."""
    for _ in range(tries):
        page.goto(url)
        found = page.query_selector(selector)
        if found is not None:
            return found
        page.wait_for_timeout(250)
    raise AssertionError(f"{url} never showed {selector}")


def test_sign_up_play_a_rated_game_and_see_it_on_the_player_page(
    page: Any, server: str, artifacts: Path
) -> None:
    name = f"Ace {random.Random().randrange(10**6)}"
    page.goto(f"{server}/")
    page.fill("#sign-up input[name=name]", name)
    page.click("#sign-up button[type=submit]")
    page.wait_for_selector(f'#account[data-name="{name}"]')
    assert page.text_content("#me") == name
    # nothing secret for scripts: the session cookie is HttpOnly
    assert page.evaluate("document.cookie") == ""
    page.screenshot(path=str(artifacts / "players-lobby-signed-in.png"))

    page.check('input[name=game][value="episodes"]')
    page.click("#more summary")  # the table set-up, below "Play against bots"
    page.select_option("#players", "2")
    page.fill('input[data-option="target"]', "15")
    page.fill('input[data-option="max_rounds"]', "8")
    page.select_option('select[data-seat="1"]', "random")
    page.click("#create")
    link = page.wait_for_selector("#seat-links a.seat-link")
    href = link.get_attribute("href")
    table_id = href.split("/tables/")[1].split("?")[0]
    # the seat is tied to the player: its page opens without the token too
    page.goto(f"{server}/tables/{table_id}")
    shots = {k: artifacts / f"players-{k}.png" for k in ("start", "mid", "result")}
    play_to_the_end(page, random.Random(3), shots)

    row = _reload_until(page, f"{server}/players/{name}", "table.ratings tr[data-game=episodes]")
    assert row.query_selector(".rating") is not None
    assert page.query_selector("svg.rating-chart") is not None
    history = page.query_selector(f'#history li[data-table="{table_id}"]')
    assert history is not None
    assert history.query_selector(f'a[href="/tables/{table_id}/replay"]') is not None
    page.screenshot(path=str(artifacts / "players-player-page.png"), full_page=True)
    # with a rating, its chart and a history, the page still fits a phone (issue 33)
    for url in (f"{server}/players/{name}", f"{server}/leaderboard/episodes"):
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto(url)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, url
        page.set_viewport_size({"width": 1280, "height": 800})

    page.goto(f"{server}/leaderboard/episodes")
    names = page.locator("#leaderboard tbody td:nth-child(2)").all_text_contents()
    assert name in names and "Bot (beginner)" in names  # a bot by its level's name, not its spec
    assert "Thurstone-Mosteller" in page.text_content("#leaderboard")
    page.goto(f"{server}/leaderboard/episodes?people=true")
    assert "Bot (beginner)" not in page.locator("#leaderboard tbody").text_content()
    page.screenshot(path=str(artifacts / "players-leaderboard.png"))

    page.goto(f"{server}/")
    assert page.query_selector(f'#account-tables li[data-table="{table_id}"]') is not None
    assert "episodes" in page.text_content("#my-ratings")
    page.click("#log-out")
    page.wait_for_selector("#sign-up")
    assert page.errors == []
