"""static/motion.js in Chromium: a card redrawn elsewhere travels from its old place, a door
that opens turns over, input is never blocked, and under prefers-reduced-motion nothing
moves (issue 34, "Motion that explains")."""

from __future__ import annotations

from typing import Any

import pytest

#: A board before and after a move: card 7 leaves the hand for the table, tile 3 opens.
SETUP = """() => {
  const box = document.createElement('div');
  box.id = 'motion-test';
  box.innerHTML = `<div class="hand"><div class="card" data-card="7">Seven</div></div>
    <div class="table"></div><div data-tile="3" class="tile door-red closed">R</div>`;
  document.querySelector('main').prepend(box);
}"""
MOVE = """() => {
  const box = document.getElementById('motion-test');
  const before = window.timelordMotion.capture(box);
  box.innerHTML = `<div class="hand"></div>
    <div class="table"><div class="card" data-card="7">Seven</div></div>
    <div data-tile="3" class="tile door-red open">R</div>`;
  box.querySelector('.table').style.marginLeft = '300px';
  window.clicked = 0;
  box.querySelector('[data-card="7"]').addEventListener('click', () => { window.clicked++; });
  window.anims = window.timelordMotion.play(box, before);
  const card = box.querySelector('[data-card="7"]');
  for (const a of window.anims) a.pause();
  for (const a of window.anims) a.currentTime = 60;
  const tile = box.querySelector('[data-tile="3"]');
  const seen = { count: window.anims.length, left: card.getBoundingClientRect().left,
           tile: getComputedStyle(tile).transform,
           durations: window.anims.map((a) => a.effect.getTiming().duration) };
  for (const a of window.anims) a.cancel();
  seen.finalLeft = card.getBoundingClientRect().left;
  return seen;
}"""


def _load(page: Any, base: str) -> None:
    page.goto(base + "/")
    page.add_script_tag(url="/static/motion.js", type="module")
    page.wait_for_function("() => !!window.timelordMotion")
    page.evaluate(SETUP)


def test_a_moved_card_travels_and_a_door_flips(server: str, moving_page: Any) -> None:
    page = moving_page
    _load(page, server)
    seen = page.evaluate(MOVE)
    assert seen["count"] == 2  # the card and the door
    # paused 60 ms in, the card is still well left of where it now lives
    assert seen["left"] < seen["finalLeft"] - 100
    assert seen["tile"] != "none"
    assert all(150 <= d <= 400 for d in seen["durations"])
    # input is not blocked while it moves: held mid-flight (so the click's target stands still),
    # the card takes a click
    page.evaluate(
        "() => { const box = document.getElementById('motion-test');"
        " const b = window.timelordMotion.capture(box);"
        " box.querySelector('.table').style.marginLeft = '0px';"
        " window.anims = window.timelordMotion.play(box, b);"
        " for (const a of window.anims) { a.pause(); a.currentTime = 100; } }"
    )
    assert page.evaluate("window.anims.length") == 1
    page.click('#motion-test [data-card="7"]', force=True)
    assert page.evaluate("window.clicked") == 1
    assert not page.errors


@pytest.fixture
def reduced_page(browser: Any) -> Any:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, reduced_motion="reduce")
    pg = context.new_page()
    yield pg
    context.close()


def test_nothing_moves_under_reduced_motion(server: str, reduced_page: Any) -> None:
    _load(reduced_page, server)
    seen = reduced_page.evaluate(MOVE)
    assert seen["count"] == 0
    assert abs(seen["left"] - seen["finalLeft"]) < 1
    assert seen["tile"] == "none"
    assert reduced_page.evaluate("document.getAnimations().length") == 0
