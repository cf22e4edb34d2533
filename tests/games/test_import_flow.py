"""Inside a game, imports flow one way, and a game imports only `timelord.core` from outside.

Every import counts, wherever it stands: at the top, inside a function (a "lazy" import that
dodges a cycle is still a cycle) or under `TYPE_CHECKING`. The modules are read with `ast`, so
nothing is imported to check them.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

GAMES_DIR = Path(__file__).resolve().parents[2] / "timelord" / "games"
GAMES = ("card_game", "clue", "episodes", "keys")


def _modules(root: Path, package: str) -> dict[str, Path]:
    """Every module of the package under `root`, by dotted name (a package by its own name)."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join((package, *parts))] = path
    return out


def _imported(name: str, path: Path, modules: dict[str, Path]) -> list[tuple[str, int]]:
    """Each module `name` (at `path`) imports, with the line. `from P import x` names P.x
    when that is a module (the import then needs P's `__init__` only as a package, which
    Python has already begun), else P itself."""
    tree = ast.parse(path.read_text(), str(path))
    here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                sub = f"{source}.{alias.name}"
                out.append((sub if sub in modules else source, node.lineno))
    return out


def import_graph(root: Path, package: str) -> tuple[dict[str, set[str]], list[str]]:
    """The package's own import edges, and every import of `timelord` outside the package and
    `timelord.core` (as "module:line imports name")."""
    modules = _modules(root, package)
    edges: dict[str, set[str]] = {m: set() for m in modules}
    outside = []
    for name, path in modules.items():
        for target, line in _imported(name, path, modules):
            if target in modules:
                if target != name:
                    edges[name].add(target)
            elif target == package or target.startswith(package + "."):
                raise AssertionError(f"{name}:{line} imports {target}, not a module here")
            elif (target == "timelord" or target.startswith("timelord.")) and not (
                target == "timelord.core" or target.startswith("timelord.core.")
            ):
                outside.append(f"{name}:{line} imports {target}")
    return edges, outside


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a list of modules (first repeated at the end), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


@pytest.mark.parametrize("game", GAMES)
def test_game_imports_flow_one_way(game: str) -> None:
    edges, _ = import_graph(GAMES_DIR / game, f"timelord.games.{game}")
    assert len(edges) > 5
    assert find_cycle(edges) is None, " -> ".join(find_cycle(edges) or [])


@pytest.mark.parametrize("game", GAMES)
def test_game_imports_only_core_from_outside(game: str) -> None:
    _, outside = import_graph(GAMES_DIR / game, f"timelord.games.{game}")
    assert outside == []


def test_checker_sees_lazy_and_type_checking_cycles_and_outside_imports(tmp_path: Path) -> None:
    pkg = tmp_path / "toy"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from timelord.games.toy.game import Game\n")
    (pkg / "state.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from timelord.games.toy.game import Game\n"
    )
    (pkg / "rules.py").write_text(
        "from timelord.games.toy.state import X\n"
        "def f():\n    from timelord.games.toy import view\n"
    )
    (pkg / "view.py").write_text("from . import rules\nimport timelord.agents\n")
    (pkg / "game.py").write_text("from timelord.core import Game\nfrom .state import S\n")
    edges, outside = import_graph(pkg, "timelord.games.toy")
    assert edges["timelord.games.toy.rules"] == {
        "timelord.games.toy.state",
        "timelord.games.toy.view",
    }
    assert find_cycle(edges) in (
        ["timelord.games.toy.game", "timelord.games.toy.state", "timelord.games.toy.game"],
        ["timelord.games.toy.rules", "timelord.games.toy.view", "timelord.games.toy.rules"],
    )
    assert outside == ["timelord.games.toy.view:2 imports timelord.agents"]
    # without the lazy and the TYPE_CHECKING imports the toy flows one way
    (pkg / "state.py").write_text("X = S = 1\n")
    (pkg / "rules.py").write_text("from timelord.games.toy.state import X\n")
    assert find_cycle(import_graph(pkg, "timelord.games.toy")[0]) is None
