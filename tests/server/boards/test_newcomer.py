"""What a new player tripped over (issue 21), held by the boards: an accusation asks to be
confirmed, the spectator has no empty notebook, the odds start hidden for people, the Card
Game says how it ends and how far the End card is, a seat is marked "to move" once, a Sonic
does not light every Keys tile, narrow screens keep a short mark for each back, the Episodes
pile is whole, counts read "1 card", the log counts from the game's start, provenance stays
out of the glance text, a replay names the winner, and the rules page anchors every clause."""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Iterator
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import timelord
from tests.server.boards.test_boards import _snapshot
from timelord.core.events import Event
from timelord.core.game import Game, State
from timelord.core.rulebook import game_rulings, parse_rules, rules_text
from timelord.games.clue.actions import Accuse
from timelord.server import create_app
from timelord.server.boards import render_board

#: The shipped games (other tests register toy games in the same registry).
GAME_IDS = ("card-game", "episodes", "keys", "clue")


def _result(state: State) -> dict[str, Any] | None:
    return {"scores": state.scores(), "winners": state.winners()} if state.is_over else None


def _play(game: Game, seed: int, until: Any, limit: int = 3000) -> tuple[State, list[Event]]:
    """Random moves from the deal until `until(state)` holds (or the game ends)."""
    state = game.new_game(seed)
    rng = random.Random(seed)
    events: list[Event] = []
    for _ in range(limit):
        if until(state) or state.is_over:
            break
        state, new = state.apply_with_events(rng.choice(state.legal_actions()))
        events.extend(new)
    return state, events


def _draw(game: Game, state: State, seat: int | None, events: list[Event], **kw: Any) -> str:
    return render_board(game, seat, _snapshot(game, state, seat, events), _result(state), **kw)


def _menus(html: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for m in re.findall(r'data-actions="([^"]*)"', html):
        out.extend(json.loads(unescape(m)))
    return out


# --- Clue -------------------------------------------------------------------------------


def test_clue_accusation_asks_for_confirmation_everywhere_it_is_offered() -> None:
    """C-5.1, C-5.3: the TARDIS menu's Accuse and the list's button carry the warning."""
    game = timelord.load("clue", players=3)
    state = game.new_game(1)
    seat = state.to_move
    assert any(isinstance(a, Accuse) for a in state.legal_actions())
    html = _draw(game, state, seat, [])
    # the TARDIS (the one place an accusation starts) and the list of moves both ask
    room = re.search(r'<div class="room tardis[^"]*"([^>]*)>', html)
    assert room is not None
    single = re.search(r'data-action="([^"]*)"[^>]*data-confirm="([^"]*)"', room[1])
    menu = [it for it in _menus(room[0]) if it["action"]["type"] == "Accuse"]
    if single:
        assert json.loads(unescape(single[1]))["type"] == "Accuse"
        assert "out of the game" in unescape(single[2])
    else:
        assert menu and all("out of the game" in it["confirm"] for it in menu)
    listed = re.findall(r'<button class="act"[^>]*data-confirm="([^"]*)"', html)
    assert len(listed) == 1 and "cannot be taken back" in unescape(listed[0])
    # nothing else asks
    confirms = re.findall(r'data-action="([^"]*)"[^>]*data-confirm=', html)
    assert all(json.loads(unescape(a))["type"] == "Accuse" for a in confirms)
    assert all("confirm" not in it for it in _menus(html) if it["action"]["type"] != "Accuse")


def test_clue_spectator_has_no_notebook_until_the_end_then_odds() -> None:
    game = timelord.load("clue", players=3, max_rounds=2)
    state, events = _play(game, 3, lambda s: False)
    mid, mid_events = _play(game, 3, lambda s: len(s.view(None).get("roll") or []) > 0)
    watching = _draw(game, mid, None, mid_events)
    assert 'class="notebook"' not in watching and "data-toggle=" not in watching
    assert state.is_over
    over = _draw(game, state, None, events)
    assert 'class="notebook"' in over and 'data-odds-default="on"' in over
    # a person's notebook starts with the odds hidden (the page shows them on request)
    person = _draw(game, mid, 0, mid_events)
    assert 'data-odds-default="off"' in person and "show the deducer" in person


def test_clue_doors_are_edge_bars_not_marks_over_names() -> None:
    game = timelord.load("clue", players=3)
    html = _draw(game, game.new_game(0), 0, [])
    assert "▾" not in html
    sides = re.findall(r'class="door door-([nswe])"', html)
    assert len(sides) == sum(ch.islower() for line in game.board.lines for ch in line)  # type: ignore[attr-defined]


# --- The Card Game ----------------------------------------------------------------------


def test_card_game_says_how_it_ends_and_counts_down_to_the_end_card() -> None:
    game = timelord.load("card-game", players=2)
    state = game.new_game(2)
    later, events = _play(game, 2, lambda s: s.view(0)["deck"]["count"] < 90)
    seen = []
    for st, ev in ((state, []), (later, events)):
        deck = st.view(0)["deck"]
        html = _draw(game, st, 0, ev)
        above = deck["count"] - deck["below_end"]
        assert f'data-end-above="{above}"' in html
        assert f"{above} cards above it" in html
        assert 'href="/rules/card-game#C-6.1"' in html and 'href="/rules/card-game#C-6.2"' in html
        assert "TARDIS 0/5" in html or "TARDIS 1/5" in html
        seen.append(above)
    assert seen[1] < seen[0]  # the count falls as the deck does (it stood still before)


def test_card_game_marks_the_seat_to_move_once() -> None:
    game = timelord.load("card-game", players=2)
    state, events = _play(
        game, 4, lambda s: any(loc["attacker"] >= 0 for loc in s.view(0)["locations"])
    )
    html = _draw(game, state, 0, events)
    assert 'class="attack"' in html
    assert html.count('class="seat-chip to-move"') == 1


def test_card_game_declaring_says_done_is_needed_and_done_stands_out() -> None:
    game = timelord.load("card-game", players=2)
    state, events = _play(game, 6, lambda s: s.view(s.to_move)["phase"].startswith("declare"))
    html = _draw(game, state, state.to_move, events)
    assert "then click “done”" in html and "nothing" in html
    assert re.search(r'<button class="primary"[^>]*data-action="[^"]*Finish', html)


# --- Keys ---------------------------------------------------------------------------------


def test_keys_tiles_glow_only_for_the_pawn_and_cards_outline_on_demand() -> None:
    game = timelord.load("keys", players=2)

    def has_sonic(s: State) -> bool:
        return s.to_move is not None and "sonic" in s.view(s.to_move)["hand"]

    state, events = _play(game, 1, has_sonic)
    assert has_sonic(state)
    html = _draw(game, state, state.to_move, events)
    glowing = len(re.findall(r'class="tile[^"]*can-act', html))
    outlined = len(re.findall(r'class="tile[^"]*card-target', html))
    assert outlined > glowing  # the Sonic's doors wait for the card to be pointed at
    assert re.search(r'data-targets="[^"]+"', html)  # ...which the card's outline gives
    # every tile a card can act on still offers its moves when clicked
    assert outlined + glowing == len(re.findall(r'class="tile[^"]*"[^>]*data-actions?=', html))


def test_keys_backs_keep_a_short_mark_for_narrow_screens() -> None:
    game = timelord.load("keys", players=2)
    state, events = _play(
        game, 2, lambda s: any(b not in (None, "control") for b in s.view(0)["backs"])
    )
    html = _draw(game, state, 0, events)
    assert re.search(r'<span class="short">[·DK+T]</span>', html)


# --- Episodes -----------------------------------------------------------------------------


def test_episodes_pile_is_shown_whole_and_counts_read_well() -> None:
    game = timelord.load("episodes", players=2)
    state, events = _play(game, 3, lambda s: len(s.view(0)["discard"]) > 12)
    pile = state.view(0)["discard"]
    html = _draw(game, state, 0, events)
    box = html.split('class="row pile">', 1)[1].split('class="side"', 1)[0]
    assert len(re.findall(r'class="card suit-\w+ mini"', box)) == len(pile) > 8
    one, one_events = _play(game, 3, lambda s: len(s.view(0)["discard"]) == 1)
    assert "1 card)" in _draw(game, one, 0, one_events)
    assert "1 cards" not in _draw(game, one, 0, one_events)


# --- Every board --------------------------------------------------------------------------


def test_log_numbers_entries_from_the_start_of_the_game() -> None:
    game = timelord.load("episodes", players=2)
    state, events = _play(game, 5, lambda s: len(s.view(0)["discard"]) > 30)
    told = game.tell(events, 0)
    assert len(told) > 60
    html = _draw(game, state, 0, events)
    assert f'<ol class="log" reversed start="{len(told)}">' in html
    assert f"({len(told) - 60} earlier events)" in html


def test_card_text_at_a_glance_leaves_provenance_to_the_enlarged_card() -> None:
    game = timelord.load("card-game", players=2)
    state = game.new_game(0)
    html = _draw(game, state, state.to_move, [])
    texts = re.findall(r'<span class="card-text">([^<]*)</span>', html)
    assert texts and not any(re.search(r"\((reconstruction|confirmed)", t) for t in texts)
    infos = [json.loads(unescape(m)) for m in re.findall(r'data-info="([^"]*)"', html)]
    assert infos and all(set(i) == {"name", "kind", "text", "source"} for i in infos)
    assert any(i["source"] for i in infos)
    assert html.count("data-card-info") == len(infos)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'n.db'}", 0.0)) as c:
        yield c


def test_a_replay_names_the_winner_instead_of_saying_you_win(client: TestClient) -> None:
    body = {"game": "keys", "options": {"round_limit": 40}, "seats": ["heuristic"] * 2, "seed": 3}
    table = client.post("/api/tables", json=body).json()
    for _ in range(600):
        if client.get(f"/api/tables/{table['id']}").json()["over"]:
            break
        time.sleep(0.05)
    record = client.get(f"/api/tables/{table['id']}/record").json()
    winners = record["result"]["winners"]
    assert winners, "this seed should produce a winner"
    html = client.get(f"/tables/{table['id']}/replay/board?step=99999&seat={winners[0]}").json()
    assert "you win" not in html["html"]
    name = client.get(f"/api/tables/{table['id']}").json()["seats"][winners[0]]["name"]
    assert name == f"Bot (casual) #{winners[0] + 1}"  # two seats of one level, told apart
    assert name in html["html"] and "wins" in html["html"]


def test_rules_pages_anchor_every_clause_and_the_icon_is_served(client: TestClient) -> None:
    for game_id in GAME_IDS:
        page = client.get(f"/rules/{game_id}")
        assert page.status_code == 200
        for section in parse_rules(rules_text(game_id)):
            for clause in section.clauses:
                for cid in clause.ids:
                    assert f'id="{cid}"' in page.text, (game_id, cid)
        for ruling in game_rulings(game_id):  # refusals cite rulings too ("[K-R19]")
            assert f'id="{ruling.ids[0]}"' in page.text, (game_id, ruling.ids)
    assert game_rulings("keys"), "docs/rulings.md has Keys rulings"
    assert client.get("/rules/no-such-game").status_code == 404
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg")
    assert 'rel="icon"' in client.get("/").text
