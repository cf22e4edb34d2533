"""HTML only from autoescaping templates, and pages a strict CSP can run (issue 30, finding
1): no module of the boards or the player pages writes markup in Python strings, nothing
marks text as safe by hand, and no template carries inline script or inline handlers."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

SERVER = Path(__file__).resolve().parents[2] / "timelord" / "server"
#: Python modules that must not build HTML (a template draws what they compute).
MODULES = sorted(
    [
        *(SERVER / "boards").rglob("*.py"),
        SERVER / "pages.py",
        SERVER / "player_pages.py",
        SERVER / "players_api.py",
        SERVER / "ratings.py",
        SERVER / "accounts.py",
        SERVER / "names.py",
    ]
)
TEMPLATES = sorted([*(SERVER / "templates").rglob("*.html"), *(SERVER / "boards").rglob("*.html")])
#: A tag's start in a string: "<div", "</span", "<svg ", "<br>".
TAG = re.compile(r"</?[a-zA-Z][a-zA-Z0-9-]*[\s/>]")


def _strings(tree: ast.AST) -> list[tuple[int, str]]:
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            out.append((node.lineno, node.value))
    return out


def _docstrings(tree: ast.AST) -> set[int]:
    """Line numbers of docstrings (prose may mention a tag)."""
    found = set()
    kinds = ast.Module | ast.FunctionDef | ast.ClassDef | ast.AsyncFunctionDef
    for node in ast.walk(tree):
        if isinstance(node, kinds) and node.body and isinstance(node.body[0], ast.Expr):
            value = node.body[0].value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                found.add(value.lineno)
    return found


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(SERVER)))
def test_no_module_writes_html_in_python(path: Path) -> None:
    if not path.exists():
        pytest.skip("not in this build")
    tree = ast.parse(path.read_text())
    docs = _docstrings(tree)
    markup = [
        (line, text) for line, text in _strings(tree) if line not in docs and TAG.search(text)
    ]
    assert markup == [], f"{path.name} writes HTML in Python: {markup[:3]}"
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    assert not names & {"Markup", "escape", "esc"}, f"{path.name} escapes or marks by hand"
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module} | {
        a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names
    }
    assert not imported & {"html", "markupsafe"}, f"{path.name} escapes or marks by hand"


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: p.name)
def test_templates_run_under_a_strict_csp(path: Path) -> None:
    text = path.read_text()
    for script in re.findall(r"<script\b[^>]*>", text):
        assert "src=" in script or 'type="application/json"' in script, script
    assert not re.search(r"\son[a-z]+\s*=", text), "inline event handler"
    assert "javascript:" not in text.lower()
    assert not re.search(r"\|\s*safe\b", text), "text marked safe by hand"


def test_the_boards_escape_by_default() -> None:
    from timelord.server.boards.common import TEMPLATES as ENV

    assert ENV.autoescape is True
    drawn = ENV.from_string("<p>{{ x }}</p><p{{ a | xmlattr }}></p>").render(
        x="<img src onerror=alert(1)>", a={"title": '"><script>'}
    )
    assert "<img" not in drawn and "<script>" not in drawn


#: Seat names a guest may choose that must reach every board as text.
HOSTILE = ["<img src onerror=eval(top.name)>", '"><svg onload=alert(1)>', "x' onmouseover='y"]


@pytest.mark.parametrize("game_id", ["keys", "episodes", "card-game", "clue"])
def test_seat_names_reach_every_board_as_text(game_id: str) -> None:
    """The Clue turn line put the name in unescaped (finding 1); every board, every seat
    and the spectator, at several points of a game, and its replay view."""
    from html.parser import HTMLParser

    from tests.server.boards.test_boards import _playout, _snapshot
    from timelord.server.boards import render_board

    class Tags(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.bad: list[str] = []

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            if tag in ("img", "svg", "script") or any(k.startswith("on") for k, _ in attrs):
                self.bad.append(tag)

    for steps in (0, 5, 40):
        game, state, events = _playout(game_id, 3 + steps, steps)
        names = (HOSTILE * 2)[: game.players]
        for seat in [None, *range(game.players)]:
            snap = _snapshot(game, state, seat, events)
            snap["seats"] = [{"name": n} for n in names]
            for replay in (False, True):
                parser = Tags()
                parser.feed(render_board(game, seat, snap, replay=replay))
                assert parser.bad == [], (game_id, steps, seat)


@pytest.mark.parametrize("path", sorted((SERVER / "static").glob("*.js")), ids=lambda p: p.name)
def test_client_scripts_build_elements_not_html_text(path: Path) -> None:
    """Every client script makes DOM nodes (dom.js), so text from the server or a player is
    never parsed as markup: no HTML written as text, no escaping helper to forget. The board
    the server draws from its autoescaping templates comes in through dom.js's one door."""
    text = path.read_text()
    assert not re.search(r"\.(innerHTML|outerHTML)\s*[+]?=", text), path.name
    for way in ("insertAdjacentHTML", "document.write", "createContextualFragment", "&amp;"):
        assert way not in text, (path.name, way)
    if path.name != "dom.js":
        assert "DOMParser" not in text and "setHTMLUnsafe" not in text, path.name
