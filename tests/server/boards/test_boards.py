"""Boards draw every legal action as a control, say whose turn it is, show the result, refuse
malformed snapshots at the door, and escape whatever text they are given."""

from __future__ import annotations

import json
import random
import re
from html import unescape
from typing import Any

import pytest

import timelord
from timelord.core.events import Event
from timelord.core.game import Game, State
from timelord.server.boards import BoardError, render_board

#: Options that end a random game quickly.
GAMES = {
    "keys": {"round_limit": 12},
    "episodes": {"target": 15},
    "card-game": {"max_turns": 30},
    "clue": {"players": 3, "max_rounds": 6},
}


def _snapshot(game: Game, state: State, seat: int | None, events: list[Event]) -> dict[str, Any]:
    legal = state.legal_actions() if seat is not None and state.to_move == seat else []
    return {
        "version": len(events),
        "over": state.is_over,
        "to_move": state.to_move,
        "view": state.view(seat),
        "legal": [a.to_json() for a in legal],
        "events": game.tell(events, seat),
    }


def _playout(game_id: str, seed: int, steps: int) -> tuple[Game, State, list[Event]]:
    options = dict(GAMES[game_id])
    options.setdefault("players", 2)
    game = timelord.load(game_id, **options)
    state = game.new_game(seed)
    rng = random.Random(seed)
    events: list[Event] = []
    for _ in range(steps):
        if state.is_over:
            break
        state, new = state.apply_with_events(rng.choice(state.legal_actions()))
        events.extend(new)
    return game, state, events


def _offered(html: str) -> list[dict[str, Any]]:
    """Every action the board offers: single controls and the entries of menus."""
    out = [json.loads(unescape(m)) for m in re.findall(r'data-action="([^"]*)"', html)]
    for m in re.findall(r'data-(?:actions|choices)="([^"]*)"', html):
        out.extend(item["action"] for item in json.loads(unescape(m)))
    return out


def _key(action: dict[str, Any]) -> str:
    return json.dumps(action, sort_keys=True)


@pytest.mark.parametrize("game_id", sorted(GAMES))
@pytest.mark.parametrize("steps", [0, 7, 25])
def test_every_legal_action_is_a_control_and_nothing_else_is(game_id: str, steps: int) -> None:
    game, state, events = _playout(game_id, 11 + steps, steps)
    seat = state.to_move
    assert seat is not None
    html = render_board(game, seat, _snapshot(game, state, seat, events))
    offered = {_key(a) for a in _offered(html)}
    legal = {_key(a.to_json()) for a in state.legal_actions()}
    assert offered == legal
    # the fallback panel lists each legal action exactly once
    panel = html[html.index('id="legal"') :]
    assert len(re.findall(r'<button class="act"', panel)) == len(state.legal_actions())
    assert f'data-to-move="{seat}"' in html
    assert "status your-turn" in html


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_waiting_seat_and_spectator_get_no_controls(game_id: str) -> None:
    game, state, events = _playout(game_id, 5, 9)
    assert state.to_move is not None
    other = (state.to_move + 1) % game.players
    for seat in (other, None):
        html = render_board(game, seat, _snapshot(game, state, seat, events))
        assert _offered(html) == []
        assert f'data-to-move="{state.to_move}"' in html
        assert "status your-turn" not in html


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_result_screen_names_the_winners(game_id: str) -> None:
    game, state, events = _playout(game_id, 3, 100_000)
    assert state.is_over
    result = {"scores": state.scores(), "winners": state.winners()}
    html = render_board(game, 0, _snapshot(game, state, 0, events), result)
    found = re.search(r'data-result="([^"]*)"', html)
    assert found is not None
    assert json.loads(unescape(found.group(1))) == result
    assert 'data-to-move=""' in html
    assert _offered(html) == []


def test_text_from_the_snapshot_is_escaped() -> None:
    game, state, _ = _playout("keys", 1, 0)
    snap = _snapshot(game, state, 0, [])
    snap["events"] = [{"kind": "x", "text": "<script>alert(1)</script>", "data": {}}]
    html = render_board(game, 0, snap)
    assert "<script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


@pytest.mark.parametrize(
    "bad",
    [
        None,
        [],
        {"view": "x"},
        {"view": {}, "legal": "nope"},
        {"view": {}, "legal": [{"type": "NoSuchMove"}]},
        {"view": {}, "events": ["not an object"]},
        {"view": {}, "to_move": "0"},
        {"view": {"seat": 0}, "legal": []},
    ],
)
def test_malformed_snapshots_are_refused_with_a_board_error(bad: Any) -> None:
    game = timelord.load("keys")
    with pytest.raises(BoardError):
        render_board(game, 0, bad)


def test_a_seat_that_is_not_at_the_table_is_refused() -> None:
    game, state, _ = _playout("keys", 1, 0)
    with pytest.raises(timelord.GameError):
        render_board(game, 5, _snapshot(game, state, 0, []))


def test_the_keys_board_counts_rounds_as_the_log_does() -> None:
    """Issue 21 item 8: the board said "Round 10" while the log said "Round 11: Your turn".
    The view counts completed rounds; the board names the round being played, as the turn
    events and the terminal do, and at a round-limit end the rounds that were played."""
    game, state, events = _playout("keys", 3, 40)
    assert not state.is_over and state.view(0)["round"] >= 1
    turns = [e for e in game.tell(events, 0) if e["kind"] == "turn"]
    html = render_board(game, 0, _snapshot(game, state, 0, events))
    now = re.search(r"Round (\d+) of", html)
    assert now is not None and f"Round {now.group(1)}:" in turns[-1]["text"]
    limited = timelord.load("keys", players=2, round_limit=2)
    end, log = limited.new_game(5), []
    while not end.is_over:
        end, new = end.apply_with_events(end.legal_actions()[-1])
        log.extend(new)
    assert end.view(0)["winner"] is None  # the round limit ended it
    assert "Round 2 of 2" in render_board(limited, 0, _snapshot(limited, end, 0, log))


def test_the_tiny_clue_board_draws_its_own_rooms_and_offers_every_move() -> None:
    """The Clue board reads the game's board and cards, so the research variant's three
    rooms are drawn where its grid puts them, named from its own set (docs/variants.md)."""
    game = timelord.load("clue", players=2, variant="tiny")
    for seed in range(6):
        state, rng, events = game.new_game(seed), random.Random(seed), []
        while not state.is_over:
            seat = state.to_move
            html = render_board(game, seat, _snapshot(game, state, seat, events))
            legal = {_key(a.to_json()) for a in state.legal_actions()}
            assert {_key(a) for a in _offered(html)} == legal
            assert 'data-tile="R0"' in html and 'data-tile="R1"' in html
            assert 'data-tile="R2"' not in html and "Platform One" not in html
            state, new = state.apply_with_events(rng.choice(state.legal_actions()))
            events.extend(new)
    assert ">Gallifrey</span>" in html and ">Skaro</span>" in html
