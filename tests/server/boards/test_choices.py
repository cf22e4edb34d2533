"""Board affordances beyond the list of moves: an element that cannot act now names the move
a click would mean (so the client can ask the engine why), and Clue's accusation starts from
the TARDIS at the centre of the map."""

from __future__ import annotations

import json
import random
import re
from html import unescape
from typing import Any

import pytest

import timelord
from timelord.server.boards import BoardError, render_board

from .test_boards import _playout, _snapshot


def _attr_values(html: str, attr: str) -> list[Any]:
    return [json.loads(unescape(m)) for m in re.findall(rf'{attr}="([^"]*)"', html)]


def test_probes_are_moves_the_engine_refuses_now() -> None:
    """Every `data-explain` is a move the seat to move is not offered, and the engine has a
    reason for refusing it; spectators are never offered a question."""
    for game_id in ("keys", "card-game", "clue", "episodes"):
        game, state, _ = _playout(game_id, 3, 0)
        rng = random.Random(3)
        asked = 0
        for _step in range(120):
            if state.is_over or asked >= 5:
                break
            seat = state.to_move
            html = render_board(game, seat, _snapshot(game, state, seat, []))
            probes = _attr_values(html, "data-explain")
            asked += len(probes)
            offered = [a.to_json() for a in state.legal_actions()]
            for probe in probes:
                assert probe not in offered
                assert state.why_illegal(game.action_from_json(probe)).reason
            spectator = render_board(game, None, _snapshot(game, state, None, []))
            assert "data-explain" not in spectator
            state = state.apply(rng.choice(state.legal_actions()))
        assert asked, f"{game_id}: no element can be asked why"


def test_clicking_the_tardis_starts_the_accusation() -> None:
    """Where an accusation is legal (everyone starts in the TARDIS), the TARDIS on the map
    offers it; elsewhere on the board it is only in the list of moves."""
    game = timelord.load("clue", players=3)
    state = game.new_game(1)
    accuse = {"type": "Accuse"}
    assert accuse in [a.to_json() for a in state.legal_actions()]
    seat = state.to_move
    html = render_board(game, seat, _snapshot(game, state, seat, []))
    tardis = re.search(r'<div class="room tardis[^"]*" data-tile="R\d+"[^>]*>', html)
    assert tardis is not None
    tag = tardis.group(0)
    offered = _attr_values(tag, "data-action") + [
        item["action"] for menu in _attr_values(tag, "data-actions") for item in menu
    ]
    assert accuse in offered
    assert "click the TARDIS to accuse" in html
    board = html.split('<div class="legal"')[0]
    assert unescape(board).count('{"type":"Accuse"}') == 1


def test_card_game_result_comes_from_the_servers_result_not_a_recount() -> None:
    """The board shows the scores and winners it is given (the engine's, computed on the
    server), so it can never disagree with the record; without them it names no winner."""
    game, state, events = _playout("card-game", 3, 100_000)
    assert state.is_over
    snapshot = _snapshot(game, state, 0, events)
    told = {"scores": [3.0, 11.0], "winners": [1]}
    html = render_board(game, 0, snapshot, told)
    data = re.search(r'data-result="([^"]*)"', html)
    assert data is not None and json.loads(unescape(data.group(1))) == told
    assert "<td>11</td>" in html
    bare = render_board(game, 0, snapshot)
    data = re.search(r'data-result="([^"]*)"', bare)
    assert data is not None and json.loads(unescape(data.group(1))) == {
        "winners": [],
        "scores": None,
    }


def test_a_malformed_result_is_refused() -> None:
    game, state, events = _playout("card-game", 3, 100_000)
    snapshot = _snapshot(game, state, 0, events)
    for bad in ({"scores": [1], "winners": []}, {"scores": [1, 2], "winners": [5]}, {}):
        with pytest.raises(BoardError):
            render_board(game, 0, snapshot, bad)


def test_card_game_shows_the_latest_conflict_step_by_step() -> None:
    """Reveal (cards and strengths), strengths, result: from the conflict's own events, the
    same for every seat and the spectator (a conflict's cards are face-up)."""
    game = timelord.load("card-game", players=2)
    for seed in range(20):
        state = game.new_game(seed)
        rng = random.Random(seed)
        events: list[Any] = []
        while not state.is_over:
            state, new = state.apply_with_events(rng.choice(state.legal_actions()))
            events.extend(new)
            conflict = [e for e in new if e.kind == "conflict"]
            if conflict:
                break
        else:
            continue
        data = conflict[-1].data
        reveal = [e for e in events if e.kind == "reveal"][-1].data
        cs = game.cards
        for seat in (0, 1, None):
            html = render_board(game, seat, _snapshot(game, state, seat, events))
            panel = re.search(r'<section class="conflict".*?</section>', html)
            assert panel is not None
            text = unescape(re.sub(r"<[^>]+>", " ", panel.group(0)))
            text = " ".join(text.split())
            assert f"Latest conflict: {cs.name[data['place']]}" in text
            for c in reveal["defenders"] + reveal["enemies"]:
                assert f"{cs.name[c]} ({cs.strength[c]})" in text
            assert f"attack {data['attack']} against defence {data['defence']}" in text
            won = data["attacker"] if data["winner"] == "attack" else data["owner"]
            name = "You" if won == seat else game.seat_name(won)
            assert f"Result : the {data['winner']} ({name}) wins" in text
            steps = [m for m in ("Reveal", "Strengths", "Result") if m in text]
            assert steps == ["Reveal", "Strengths", "Result"]
        return
    raise AssertionError("no random Card Game reached a conflict")


def test_no_conflict_panel_before_the_first_conflict() -> None:
    game = timelord.load("card-game", players=2)
    state = game.new_game(1)
    assert 'class="conflict"' not in render_board(game, 0, _snapshot(game, state, 0, []))


def test_card_game_copies_of_one_design_play_alike() -> None:
    """C-R24 offers the first copy of a design; on the board every copy in hand plays that
    copy's moves, and no card asks the engine a question whose answer is 'choose the first
    copy'."""
    game = timelord.load("card-game", players=2)
    design = game.cards.design
    rng = random.Random(5)
    seen = 0
    for seed in range(40):
        state = game.new_game(seed)
        for _step in range(60):
            if state.is_over:
                break
            seat = state.to_move
            html = render_board(game, seat, _snapshot(game, state, seat, []))
            for probe in _attr_values(html, "data-explain"):
                reason = state.why_illegal(game.action_from_json(probe)).reason
                assert "first copy" not in reason, probe
            hand = re.search(r"<div class=\"hand\" data-hand>(.*?)</div>\s*(?:<h3|$)", html, re.S)
            mine = state.view(seat)["hands"][seat]["known"]
            twins = [c for c in mine if any(x != c and design[x] == design[c] for x in mine)]
            if (
                hand
                and twins
                and any(getattr(a, "card", None) in twins for a in state.legal_actions())
            ):
                cards = re.findall(r'<div class="card [^"]*"[^>]*>', hand.group(1))
                by_card = {int(re.search(r'data-card="(\d+)"', t).group(1)): t for t in cards}
                for c in twins:
                    twin = min(x for x in twins if design[x] == design[c])
                    acts = re.search(r'data-actions?="([^"]*)"', by_card[c])
                    first = re.search(r'data-actions?="([^"]*)"', by_card[twin])
                    assert (acts and acts.group(1)) == (first and first.group(1)), c
                seen += 1
            state = state.apply(rng.choice(state.legal_actions()))
        if seen >= 3:
            break
    assert seen, "no hand held two playable copies of one design"
