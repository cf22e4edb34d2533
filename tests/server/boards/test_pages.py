"""The pages and board routes over a real app (temporary SQLite): the lobby offers every game
and seat kind, a seat's board is its snapshot's, bad tokens and tables are refused, and the
replay draws any step of a finished game for any seat."""

from __future__ import annotations

import time
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import timelord
from timelord.core.record import Record
from timelord.server import create_app
from timelord.server.pages import GAME_TITLES, SEAT_KINDS


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 'pages.db'}", 0.0)
    with TestClient(app) as c:
        yield c


class _HandCards(HTMLParser):
    """The `data-card` values inside the element marked `data-hand` (the seat's hand)."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0  # open elements inside the hand; 0 when outside
        self.cards: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag in ("br", "hr", "img", "input", "wbr"):
            return  # void elements never close
        if self.depth:
            self.depth += 1
            if found.get("data-card") is not None:
                self.cards.append(str(found["data-card"]))
        elif "data-hand" in found:
            self.depth = 1

    def handle_endtag(self, tag: str) -> None:
        if self.depth:
            self.depth -= 1


def hand_cards(html: str) -> list[str]:
    parser = _HandCards()
    parser.feed(html)
    return sorted(parser.cards)


def _table(client: TestClient, game: str, seats: list[str], **options: Any) -> dict[str, Any]:
    answer = client.post(
        "/api/tables", json={"game": game, "options": options, "seats": seats, "seed": 5}
    )
    assert answer.status_code == 201, answer.text
    table: dict[str, Any] = answer.json()
    return table


def test_the_lobby_offers_every_game_and_every_seat_kind(client: TestClient) -> None:
    html = client.get("/").text
    for game in timelord.GAMES:
        assert f'value="{game}"' in html
    for kind, words in SEAT_KINDS:
        assert f'"{kind}"' in html and words in html
    assert "Play against bots" in html
    assert "K-7.2" not in html and "simulation" not in html  # options in the rules' words
    for title in GAME_TITLES.values():
        assert title in html
        # the chooser names a game once, then says what it is (not the name twice)
        assert f'<strong>{title}</strong> <span class="muted">{title}' not in html


def test_a_seat_page_and_its_board(client: TestClient) -> None:
    table = _table(client, "keys", ["human", "human"])
    token = table["seats"][1]["token"]
    page = client.get(f"/tables/{table['id']}?token={token}")
    assert page.status_code == 200
    assert 'data-seat="1"' in page.text and 'data-game="keys"' in page.text
    board = client.get(f"/tables/{table['id']}/board?token={token}").text
    snap = client.get(f"/api/tables/{table['id']}?token={token}").json()
    assert hand_cards(board) == sorted(snap["view"]["hand"])
    assert f'data-version="{snap["version"]}"' in board
    # the spectator's board has no hand and no controls
    watch = client.get(f"/tables/{table['id']}/board").text
    assert "data-card=" not in watch and "data-action=" not in watch


def test_unknown_tables_and_wrong_tokens_are_refused(client: TestClient) -> None:
    table = _table(client, "keys", ["human", "random"])
    assert client.get("/tables/nosuchtable1").status_code == 404
    assert client.get("/tables/nosuchtable1/board").status_code == 404
    assert client.get(f"/tables/{table['id']}?token=wrong").status_code == 403
    answer = client.get(f"/tables/{table['id']}/board?token=wrong")
    assert answer.status_code == 403
    assert answer.json()["code"] == "seat/forbidden"


def _finish(client: TestClient, table: dict[str, Any]) -> None:
    """Wait for a table of bots to end (they play without delay)."""
    for _ in range(600):
        if client.get(f"/api/tables/{table['id']}").json()["over"]:
            return
        time.sleep(0.05)
    raise AssertionError("the bots did not finish")


def test_the_replay_draws_any_step_for_any_seat(client: TestClient) -> None:
    table = _table(client, "keys", ["random", "random"], round_limit=6)
    _finish(client, table)
    record = Record.from_json(client.get(f"/api/tables/{table['id']}/record").json())
    game = timelord.load("keys", **record.options)
    state = game.new_game(record.seed)
    for a in record.actions[:5]:
        state = state.apply(game.action_from_json(a))
    answer = client.get(f"/tables/{table['id']}/replay/board?step=5&seat=1")
    assert answer.status_code == 200
    data = answer.json()
    assert (data["step"], data["steps"], data["players"]) == (5, len(record.actions), 2)
    assert hand_cards(data["html"]) == sorted(state.view(1)["hand"])
    assert "data-action=" not in data["html"]
    # out-of-range steps are held to the game; the last one shows the result
    last = client.get(f"/tables/{table['id']}/replay/board?step=99999").json()
    assert last["step"] == len(record.actions)
    assert "data-result=" in last["html"]
    assert hand_cards(last["html"]) == []  # the spectator holds no hand
    page = client.get(f"/tables/{table['id']}/replay")
    assert page.status_code == 200 and 'data-mode="replay"' in page.text


def test_a_replay_is_refused_before_the_end_and_for_a_bad_seat(client: TestClient) -> None:
    table = _table(client, "keys", ["human", "human"])
    answer = client.get(f"/tables/{table['id']}/replay/board")
    assert answer.status_code == 403
    assert answer.json()["code"] == "table/not_over"
    assert client.get("/tables/nosuchtable1/replay/board").status_code == 404
    done = _table(client, "keys", ["random", "random"], round_limit=3)
    _finish(client, done)
    for seat in ("7", "-1", "x"):
        answer = client.get(f"/tables/{done['id']}/replay/board?seat={seat}")
        assert answer.status_code in (400, 422), seat
