"""Clicking a board element that offers no move now shows the engine's reason (asked of the
explain route, which changes nothing), and the Card Game's choices of several cards are made
as a selection with a confirm button."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path
from typing import Any

import timelord
from tests.server.e2e.test_play import MY_TURN_OR_OVER
from timelord.core import Record


def _create(base: str, game: str, seats: list[str], seed: int, **options: Any) -> Any:
    body = json.dumps({"game": game, "options": options, "seats": seats, "seed": seed})
    request = urllib.request.Request(
        f"{base}/api/tables", body.encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)


def test_a_click_that_cannot_act_shows_the_reason(page: Any, server: str, artifacts: Path) -> None:
    table = _create(server, "keys", ["human", "heuristic"], 11, players=2)
    page.goto(table["seats"][0]["url"])
    page.wait_for_function(MY_TURN_OR_OVER, timeout=30_000)
    version = page.get_attribute(".frame", "data-version")
    assert page.is_hidden("#why")
    tile = page.query_selector(".board-area [data-explain]")
    assert tile is not None, "no tile without a move to ask about"
    tile.click()
    page.wait_for_selector("#why:not([hidden])")
    text = page.inner_text("#why")
    assert text.startswith("Not now: ") and len(text) > len("Not now: ") + 5, text
    page.screenshot(path=str(artifacts / "keys-why-not.png"))
    # the keyboard can ask as well: the tile is in the tab order and Enter asks
    page.evaluate("document.getElementById('why').hidden = true")
    assert tile.get_attribute("tabindex") == "0"
    assert tile.get_attribute("role") == "button"
    tile.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#why:not([hidden])")
    assert page.inner_text("#why") == text
    # asking changed nothing: same version, still this seat's turn
    assert page.get_attribute(".frame", "data-version") == version
    assert page.get_attribute(".frame", "data-my-turn") == "true"
    assert not page.errors


def test_card_game_choice_of_cards_is_a_selection_with_a_confirm_button(
    page: Any, server: str, artifacts: Path
) -> None:
    table = _create(server, "card-game", ["human", "heuristic"], 1, players=2, max_turns=12)
    page.goto(table["seats"][0]["url"])
    page.wait_for_function(MY_TURN_OR_OVER, timeout=30_000)
    version = page.get_attribute(".frame", "data-version")
    box = page.query_selector(".chooser[data-choices]")
    assert box is not None, "no choice of several cards on the first turn"
    page.click(".chooser-box summary")  # folded under the hand until asked for
    choices = json.loads(box.get_attribute("data-choices"))
    confirm = box.query_selector(".confirm")
    assert confirm.is_disabled() and confirm.get_attribute("data-action") is None
    toggles = {int(t.get_attribute("data-pick")): t for t in box.query_selector_all("[data-pick]")}
    legal = {tuple(sorted(c["action"]["cards"])) for c in choices}
    # every card at once is not a legal choice here, so it cannot be confirmed
    assert tuple(sorted(toggles)) not in legal
    for t in toggles.values():
        t.click()
    assert confirm.is_disabled() and confirm.get_attribute("data-action") is None
    for t in toggles.values():
        t.click()
    # the largest legal choice, picked card by card, can be confirmed as that action
    choice = max(choices, key=lambda c: len(c["action"]["cards"]))
    for c in choice["action"]["cards"]:
        toggles[c].click()
    assert not confirm.is_disabled()
    assert json.loads(confirm.get_attribute("data-action")) == choice["action"]
    assert page.inner_text(".chooser .choice-label") == choice["label"]
    page.screenshot(path=str(artifacts / "card-game-chooser.png"))
    confirm.click()
    page.wait_for_function(
        "v => document.querySelector('.frame')?.dataset.version !== v", arg=version
    )
    assert not page.errors


def test_card_game_conflict_is_shown_step_by_step(page: Any, server: str, artifacts: Path) -> None:
    """A bots' game, replayed: at the step of a conflict the board shows the conflict panel
    (reveal, strengths, result), and stepping onto it highlights it so the steps play in."""
    table = _create(server, "card-game", ["heuristic", "heuristic"], 3, players=2, max_turns=12)
    deadline = time.monotonic() + 120
    while True:
        with urllib.request.urlopen(f"{server}/api/tables/{table['id']}", timeout=30) as r:
            if json.load(r)["over"]:
                break
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.5)
    with urllib.request.urlopen(f"{server}/api/tables/{table['id']}/record", timeout=30) as r:
        record = Record.from_json(json.load(r))
    game = timelord.load("card-game", **record.options)
    state = game.new_game(record.seed)
    conflicts = []
    for done, data in enumerate(record.actions, 1):
        state, events = state.apply_with_events(game.action_from_json(data))
        conflicts += [done] * any(e.kind == "conflict" for e in events)
    assert conflicts, "the bots' game had no conflict"
    step = conflicts[0]
    page.goto(f"{server}/tables/{table['id']}/replay")
    page.wait_for_selector("#step-label:has-text('step 0 of')")
    page.eval_on_selector(
        "#step", "(el, v) => { el.value = v; el.dispatchEvent(new Event('input')); }", step - 1
    )
    page.wait_for_selector(f"#step-label:has-text('step {step - 1} of')")
    page.keyboard.press("ArrowRight")
    panel = page.wait_for_selector(".conflict.changed")
    text = panel.inner_text()
    assert "Reveal" in text and "Strengths" in text and "Result" in text
    page.wait_for_timeout(2500)  # let the three steps play in before the screenshot
    page.screenshot(path=str(artifacts / "card-game-conflict.png"))
    assert not page.errors
