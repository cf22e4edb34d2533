"""The pages and board routes over a real app (temporary SQLite): the lobby offers every game
and seat kind, a seat's board is its snapshot's, bad tokens and tables are refused, and the
replay draws any step of a finished game for any seat."""

from __future__ import annotations

import random
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import timelord
from timelord.core.record import Record
from timelord.server import create_app
from timelord.server.pages import SEAT_KINDS


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
    for kind in SEAT_KINDS:
        assert f'"{kind}"' in html


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


def _record(game_id: str, steps: int, **options: Any) -> Record:
    game = timelord.load(game_id, **options)
    state = game.new_game(9)
    rng = random.Random(9)
    actions = []
    for _ in range(steps):
        action = rng.choice(state.legal_actions())
        actions.append(action.to_json())
        state = state.apply(action)
    return Record(game_id, game.options, 9, actions, ["random"] * game.players)


def test_the_replay_draws_a_step_for_a_seat(client: TestClient) -> None:
    record = _record("episodes", 12, players=2)
    body = {"record": record.to_json(), "seat": 1, "step": 5}
    answer = client.post("/boards/episodes/replay", json=body)
    assert answer.status_code == 200
    data = answer.json()
    assert (data["step"], data["steps"]) == (5, 12)
    state = timelord.load("episodes", players=2).new_game(9)
    game = state.game
    for a in record.actions[:5]:
        state = state.apply(game.action_from_json(a))
    assert hand_cards(data["html"]) == sorted(state.view(1)["hand"])
    assert "data-action=" not in data["html"]


@pytest.mark.parametrize(
    "body",
    [
        {"record": {"game": "episodes"}, "seat": 0},
        {"record": "x", "seat": 0},
        {"seat": 0, "step": 1},
    ],
)
def test_a_malformed_replay_request_is_refused(client: TestClient, body: Any) -> None:
    answer = client.post("/boards/episodes/replay", json=body)
    assert answer.status_code == 422
    assert answer.json()["code"] == "replay/invalid"


def test_a_tampered_record_or_bad_seat_is_refused(client: TestClient) -> None:
    record = _record("keys", 4, players=2).to_json()
    record["actions"][2] = {"type": "StayPut"}
    for body in (
        {"record": record, "seat": 0, "step": 4},
        {"record": _record("keys", 4, players=2).to_json(), "seat": 7, "step": 1},
        {"record": _record("keys", 4, players=2).to_json(), "seat": 0, "step": "1"},
    ):
        answer = client.post("/boards/keys/replay", json=body)
        assert answer.status_code == 422, body
    assert client.post("/boards/clue/replay", json={"record": record}).status_code == 422
