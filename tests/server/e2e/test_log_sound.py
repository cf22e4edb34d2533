"""static/log.js and static/sound.js in Chromium (issue 34, "A log people read", "Sound"):
the log groups events by turn and player with seat colours and initials, marks what came
since this seat's last move, turns card names into chips with their text on a tap, and
opens as a drawer on a phone; sounds follow the header's switch, remembered, and each
update plays its most telling cue."""

from __future__ import annotations

from typing import Any

EVENTS = [
    {"kind": "turn", "text": "Round 1: Your turn", "data": {"actor": 0, "round": 1}},
    {"kind": "draw", "text": "You draw a Key (red)", "data": {"actor": 0}},
    {"kind": "open", "text": "You open c3 with a Key (red)", "data": {"actor": 0}},
    {"kind": "turn", "text": "Round 1: Amy's turn", "data": {"actor": 1, "round": 1}},
    {"kind": "draw", "text": "Amy draws a card", "data": {"actor": 1}},
    {"kind": "conflict", "text": "Conflict: the attack wins", "data": {"actor": None}},
]
GLOSSARY = {"Key (red)": {"text": "Open or close a red door."}}


def _with(page: Any, base: str, script: str, name: str) -> None:
    page.goto(base + "/")
    page.add_script_tag(url=f"/static/{script}", type="module")
    page.wait_for_function(f"() => !!window.{name}")


def test_the_log_groups_turns_marks_news_and_chips(server: str, page: Any) -> None:
    _with(page, server, "log.js", "timelordLog")
    seen = page.evaluate(
        """([events, glossary]) => {
        const box = document.createElement('div');
        box.id = 'log-test';
        document.querySelector('main').prepend(box);
        const names = ['Rose', 'Amy'];
        box.append(window.timelordLog.render(events, { seat: 0, names, glossary }));
        const turns = [...box.querySelectorAll('.log-turn')];
        return {
          heads: turns.map((t) => t.querySelector('header').textContent),
          classes: turns.map((t) => t.className),
          order: [...box.querySelectorAll('.log-turns > li')].map((li) => li.className),
          chips: [...box.querySelectorAll('[data-chip]')].map((c) => [c.textContent, c.title]),
        };
        }""",
        [EVENTS, GLOSSARY],
    )
    # newest group first: Amy (seat 1, initial A) with the conflict in her turn, then you (★)
    assert seen["heads"] == ["AAmyround 1", "★Youround 1"]
    assert "seat-1" in seen["classes"][0] and "fresh" in seen["classes"][0]
    assert "seat-0" in seen["classes"][1] and "fresh" not in seen["classes"][1]
    # the "since your last move" line sits between the news and your own move
    assert seen["order"] == ["log-turn fresh seat-1", "log-since", "log-turn seat-0"]
    assert seen["chips"] == [["Key (red)", "Open or close a red door."]] * 2
    page.click("#log-test [data-chip] >> nth=0")
    assert page.inner_text("#log-test .chip-tip") == "Key (red): Open or close a red door."
    # text stays text: markup in an event is not HTML
    html = page.evaluate(
        """() => { const el = window.timelordLog.render(
             [{kind: 'x', text: '<img src=x>', data: {actor: 1}}], {seat: 0});
           return el.querySelector('img') === null && el.textContent.includes('<img'); }"""
    )
    assert html
    renamed = page.evaluate(
        "() => window.timelordLog.told('Seat 1 (north) opens c3; Seat 10 waits',"
        " ['Rose', 'Amy', '', '', '', '', '', '', '', '', 'Ten'],"
        " ['Seat 0 (south)', 'Seat 1 (north)', '', '', '', '', '', '', '', '', 'Seat 10'])"
    )
    assert renamed == "Amy opens c3; Ten waits"
    # a number after a name joins its chip (Episodes: the glossary names the suit)
    chips = page.evaluate(
        """() => [...window.timelordLog.render(
             [{kind: 'x', text: 'You discard Doctor 9 and Plot 4.', data: {actor: 0}}],
             {seat: 0, glossary: {Doctor: {text: 'Look ahead'}, Plot: {text: 'Look at a hand'}}})
           .querySelectorAll('[data-chip]')].map((c) => [c.textContent, c.title])"""
    )
    assert chips == [["Doctor 9", "Look ahead"], ["Plot 4", "Look at a hand"]]


def _phone_seat(browser: Any, server: str, game: str, rival: str) -> tuple[Any, Any]:
    """A phone-sized context and its page open at seat 0 of a new table against `rival`."""
    ctx = browser.new_context(
        reduced_motion="reduce", viewport={"width": 390, "height": 844}, has_touch=True
    )
    page = ctx.new_page()
    res = page.request.post(
        f"{server}/api/tables",
        data={"game": game, "seats": ["human", rival]},
        headers={"origin": server},
    )
    page.goto(res.json()["seats"][0]["url"])
    return ctx, page


def test_the_log_is_a_drawer_on_a_phone(server: str, browser: Any) -> None:
    ctx, page = _phone_seat(browser, server, "keys", "random")
    try:
        # the table page makes the drawers itself (table.js)
        page.wait_for_selector(".frame .side", state="attached")
        page.wait_for_selector(".drawer-buttons")
        page.wait_for_timeout(400)  # the drawer slides away
        side = page.locator(".frame .side")
        assert not side.is_visible()  # folded away, not below the hand
        button = page.get_by_role("button", name="Log · moves")
        box = button.bounding_box()
        assert box is not None and box["height"] >= 44
        button.click()
        page.wait_for_timeout(400)
        assert side.is_visible()
        assert button.get_attribute("aria-expanded") == "true"
        page.keyboard.press("Escape")
        page.wait_for_timeout(400)
        assert not side.is_visible()
        # the log's key (l) opens the drawer too, with the focus on the log
        page.keyboard.press("l")
        page.wait_for_timeout(400)
        assert side.is_visible()
        assert button.get_attribute("aria-expanded") == "true"
        assert page.evaluate("document.activeElement.id") == "log"
        page.keyboard.press("Escape")
        page.wait_for_timeout(400)
        assert not side.is_visible()
        # nothing on the page scrolls sideways
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        ctx.close()


#: each shown move in the log drawer, scrolled into view as a player (or Playwright) does: the
#: text of those whose middle is then under something else (the drawers' buttons)
COVERED = """() => [...document.querySelectorAll('#legal [data-action]')]
  .filter((b) => b.checkVisibility())
  .filter((b) => { b.scrollIntoView({ block: 'nearest' }); const r = b.getBoundingClientRect();
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !(top && b.contains(top)); })
  .map((b) => b.textContent.trim())"""


def test_the_drawer_scrolls_every_move_above_its_buttons(server: str, browser: Any) -> None:
    """The drawers' buttons sit over the drawer's foot: a move scrolled into view in the open
    log drawer landed under "Log · moves" (a Card Game opening lists about 35 moves), where a
    tap hits the button instead (CI's failure of test_a_card_menu_opens_inside_the_window)."""
    ctx, page = _phone_seat(browser, server, "card-game", "heuristic")
    try:
        page.wait_for_selector(".frame[data-my-turn=true]")
        page.click(".drawer-buttons button[aria-controls=log]")
        page.wait_for_selector(".frame .side", state="visible")
        assert page.evaluate("document.querySelectorAll('#legal [data-action]').length") > 20
        assert page.evaluate(COVERED) == []
    finally:
        ctx.close()


def test_sounds_follow_the_switch_and_pick_the_telling_cue(server: str, page: Any) -> None:
    res = page.request.post(
        f"{server}/api/tables",
        data={"game": "card-game", "seats": ["human", "random"]},
        headers={"origin": server},
    )
    url = res.json()["seats"][0]["url"]
    page.goto(url)
    page.add_script_tag(url="/static/sound.js", type="module")
    page.wait_for_function("() => !!window.timelordSound")
    conflict = {"kind": "conflict", "data": {"attacker": 1, "owner": 0, "winner": "defence"}}
    cues = page.evaluate(
        """(conflict) => {
        const s = window.timelordSound;
        const me = { seat: 0 };
        return {
          won: s.soundsFor([conflict], { seat: 0 }),
          lost: s.soundsFor([conflict], { seat: 1 }),
          bystander: s.soundsFor([conflict], { seat: 2 }),
          turn: s.soundsFor([{ kind: 'draw', data: {} }], { seat: 0, myTurn: true }),
          door: s.soundsFor([{ kind: 'open', data: { actor: 1 } }], { seat: 0, myTurn: true }),
          end: s.soundsFor([{ kind: 'play-location', data: {} }], { over: true, wasOver: false }),
          right: s.soundsFor([{ kind: 'accusation', data: { actor: 0, right: true } }], me),
          wrong: s.soundsFor([{ kind: 'accusation', data: { actor: 0, right: false } }], me),
          on: s.play('card'),
        }; }""",
        conflict,
    )
    assert cues["won"] == ["won"] and cues["lost"] == ["lost"] and cues["bystander"] == ["card"]
    assert cues["turn"] == ["your-turn"]
    assert cues["door"] == ["your-turn", "door"]  # your turn matters more than a door
    assert cues["end"] == ["end", "card"]
    assert cues["right"] == ["won"] and cues["wrong"] == ["lost"]
    assert cues["on"] is True
    assert (
        page.request.get(f"{server}/static/sounds/door.wav")
        .headers["content-type"]
        .startswith("audio/")
    )
    # the header's switch turns sounds off, and the browser remembers it
    page.click("#sound")
    page.reload()
    page.add_script_tag(url="/static/sound.js", type="module")
    page.wait_for_function("() => !!window.timelordSound")
    assert page.get_attribute("#sound", "aria-pressed") == "false"
    assert page.evaluate("window.timelordSound.play('card')") is False
    assert page.evaluate("window.timelordSound.cue([{kind: 'open', data: {}}], {})") is None


def test_the_table_draws_the_readable_log_before_the_socket_speaks(server: str, page: Any) -> None:
    """The first board already shows the log grouped by turn, not the plain numbered list
    that waited for the socket's first snapshot: here the socket never connects at all."""
    made = page.request.post(
        f"{server}/api/tables",
        data={"game": "keys", "seats": ["random", "human"]},
        headers={"origin": server},
    ).json()
    table, token = made["id"], made["seats"][1]["token"]
    for _ in range(100):  # the bot's first move is in the log
        if page.request.get(f"{server}/api/tables/{table}?token={token}").json()["events"]:
            break
        page.wait_for_timeout(100)
    page.add_init_script(
        "window.WebSocket = class { static OPEN = 1; constructor() { this.readyState = 0; }"
        " close() {} };"
    )
    page.goto(made["seats"][1]["url"])
    # the board and its log are put in place in one go: the first look at the board sees it
    first = page.wait_for_function(
        "() => document.querySelector('.frame #log') && {"
        " styled: !!document.querySelector('#log .log-turns'),"
        " plain: !!document.querySelector('#log ol.log') }"
    ).json_value()
    assert first == {"styled": True, "plain": False}
    assert page.locator("#log .log-turn").count() >= 1
    assert not page.errors
