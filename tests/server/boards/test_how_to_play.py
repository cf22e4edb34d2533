"""The rules-for-people pages (issue 34, "Rules for people"): one per game with its five parts,
every clause it cites is an anchor on that game's rules page, the drawings it uses exist in
the sprite, and the glossary route gives the log's chips the game's own card texts."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import timelord
from timelord.server import create_app
from timelord.server.pages import HOW_TO_PLAY

SPRITE = Path(timelord.__file__).parent / "server" / "static" / "art" / "sprite.svg"
PARTS = ("The goal", "A turn", "example", "How to win", "What is hidden from whom")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 'howto.db'}", 0.0)
    with TestClient(app) as c:
        yield c


@pytest.mark.parametrize("game", HOW_TO_PLAY)
def test_each_game_has_a_page_whose_rule_links_land(client: TestClient, game: str) -> None:
    page = client.get(f"/how-to-play/{game}")
    assert page.status_code == 200
    for part in PARTS:
        assert part in page.text, part
    rules = client.get(f"/rules/{game}").text
    anchors = set(re.findall(r'id="([^"]+)"', rules))
    cited = re.findall(rf'href="/rules/{re.escape(game)}#([^"]+)"', page.text)
    assert cited, "the page cites no clause"
    assert [c for c in cited if c not in anchors] == []
    symbols = set(re.findall(r'<symbol id="([^"]+)"', SPRITE.read_text()))
    used = re.findall(r'sprite\.svg#([^"]+)"', page.text)
    assert [u for u in used if u not in symbols] == []


def test_the_lobby_and_rules_pages_link_here(client: TestClient) -> None:
    assert 'href="/how-to-play/keys"' in client.get("/").text
    assert 'href="/how-to-play/clue"' in client.get("/rules/clue").text


def test_unknown_games_are_refused(client: TestClient) -> None:
    assert client.get("/how-to-play/chess").status_code == 404
    assert client.get("/how-to-play/chess/glossary.json").status_code == 404


def test_the_glossary_is_the_games_own(client: TestClient) -> None:
    words = client.get("/how-to-play/keys/glossary.json").json()
    assert words == {k: dict(v) for k, v in timelord.load("keys").glossary().items()}
    assert "Key (red)" in words and words["Key (red)"]["text"]
