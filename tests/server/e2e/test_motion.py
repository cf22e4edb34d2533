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


#: A Card Game board whose latest conflict changes: the new one's steps (reveal, strengths,
#: result) are sampled 60 ms and 300 ms in.
CONFLICT = """(same) => {
  const box = document.createElement('div');
  box.id = 'conflict-test';
  const conflict = (where, a, d, after) => `<section class="conflict" data-tile="conflict">
    <h3>Latest conflict: ${where}</h3><ol>
    <li class="step"><strong>Reveal</strong>: Defenders Rory (1)</li>
    <li class="step"><strong>Strengths</strong>: attack <span class="num">${a}</span> against
      defence <span class="num">${d}</span></li>
    <li class="step"><strong>Result</strong>: the attack wins${after}</li></ol></section>`;
  box.innerHTML = conflict('Skaro', 2, 1, '');
  document.querySelector('main').prepend(box);
  const before = window.timelordMotion.capture(box);
  // the same conflict grows a line (a discard chosen after it); another one is new
  box.innerHTML = same ? conflict('Skaro', 2, 1, '<br>Amy discards Rory')
    : conflict('Gallifrey', 4, 3, '');
  const anims = window.timelordMotion.play(box, before);
  const steps = [...box.querySelectorAll('.step')];
  const opacity = () => steps.map((el) => Number(getComputedStyle(el).opacity));
  for (const a of anims) { a.pause(); a.currentTime = 60; }
  const early = opacity();
  for (const a of anims) a.currentTime = 300;
  const late = opacity();
  const durations = anims.map((a) => a.effect.getTiming().duration);
  window.conflictAnims = anims;
  return { count: anims.length, early, late, durations };
}"""


def test_a_conflict_shows_its_sums_before_its_result(server: str, moving_page: Any) -> None:
    page = moving_page
    _load(page, server)
    seen = page.evaluate(CONFLICT, False)
    reveal, sums, result = seen["early"]
    # 60 ms in: the reveal and the strengths are coming in, the result is not shown yet
    assert reveal > 0 and sums > 0 and result == 0
    # 300 ms in: the result is coming in too
    assert seen["late"][2] > 0 and seen["late"][1] == 1
    assert all(150 <= d <= 400 for d in seen["durations"])
    # the result's step is in the page and takes a click while it is still invisible
    page.evaluate(
        "() => { window.conflictAnims.forEach((a) => { a.currentTime = 60; });"
        " window.hits = 0; document.querySelector('#conflict-test .step:last-child')"
        ".addEventListener('click', () => { window.hits++; }); }"
    )
    page.click("#conflict-test .step:last-child", force=True)
    assert page.evaluate("window.hits") == 1
    # the same conflict drawn again, grown by a discard after its result, plays nothing
    page.evaluate("() => document.getElementById('conflict-test').remove()")
    assert page.evaluate(CONFLICT, True)["count"] == 0
    assert not page.errors


def test_a_conflict_appears_at_once_under_reduced_motion(server: str, reduced_page: Any) -> None:
    _load(reduced_page, server)
    seen = reduced_page.evaluate(CONFLICT, False)
    assert seen["count"] == 0
    assert seen["early"] == [1, 1, 1]
