"""Which build of the rules core runs: compiled with mypyc, or pure Python.

`setup.py` compiles the modules of `COMPILED_MODULES` with mypyc when a C compiler is present
and records a digest of their sources in `_build.json`. At import, `timelord` runs the compiled
modules only when every one of them was built from the sources now on disk; otherwise (the
sources changed since, as in an editable checkout after an edit or a merge, a module was never
compiled, or `TIMELORD_PURE=1` is set) it loads every one of them from its `.py` file. It is all
or nothing: compiled modules call each other natively, so a mix would not work.

This module is never compiled itself (it decides how the others load).
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import ModuleType

#: The hot modules: state, rules, legal moves, sampling and views of every game, the generator
#: and `resume` (core.keyed: every game resumes its generator from its state for each draw).
#: Not the doors that check options, records and views once, nor texts: compiling costs build
#: time. Not the actions, frozen dataclasses on `core.Action`, which a native class cannot be.
#: Not each game's `game.py`: a compiled class loses its `inspect.signature` (the options the
#: CLI, the registry and the adapters read from it) and checks its arguments' declared types
#: before the game can answer a bad option with `ConfigError`.
COMPILED_MODULES: tuple[str, ...] = (
    "timelord.core.rng",
    "timelord.core.keyed",
    "timelord.games.card_game.cards",
    "timelord.games.card_game.state",
    "timelord.games.card_game.rules.intern",
    "timelord.games.card_game.rules.tell",
    "timelord.games.card_game.rules.common",
    "timelord.games.card_game.rules.endgame",
    "timelord.games.card_game.rules.turn",
    "timelord.games.card_game.rules.conflict",
    "timelord.games.card_game.rules.supports",
    "timelord.games.card_game.rules.legal",
    "timelord.games.card_game.rules.apply",
    "timelord.games.card_game.sample",
    "timelord.games.card_game.view",
    "timelord.games.clue.board",
    "timelord.games.clue.state",
    "timelord.games.clue.view",
    "timelord.games.clue.doors",
    "timelord.games.clue.deduction",
    "timelord.games.clue.notebook",
    "timelord.games.clue.sample",
    "timelord.games.episodes.cards",
    "timelord.games.episodes.hands",
    "timelord.games.episodes.state",
    "timelord.games.episodes.view",
    "timelord.games.episodes.doors",
    "timelord.games.episodes.sample",
    "timelord.games.keys.board",
    "timelord.games.keys.state",
    "timelord.games.keys.view",
    "timelord.games.keys.doors",
    "timelord.games.keys.sample",
    # a learner's step: the action index, and the encoders (their parts read the typed state)
    "timelord.adapters.space",
    "timelord.adapters.encode.card_game",
    "timelord.adapters.encode.clue",
    "timelord.adapters.encode.episodes",
    "timelord.adapters.encode.keys",
)


def group_of(module: str) -> str:
    """mypyc's compilation group of a compiled module: one per game and one for `core`, so the
    build compiles them in parallel. Each is a shared library inside its package
    (`timelord/games/keys/_native__mypyc.*`), which every compiled module of it links to."""
    parts = module.split(".")
    package = parts[:3] if parts[1] == "games" else parts[:2]
    return ".".join([*package, "_native"])


#: The groups, in a fixed order.
GROUPS: tuple[str, ...] = tuple(sorted({group_of(m) for m in COMPILED_MODULES}))
#: Set to 1 to run pure Python even where a compiled build is installed.
PURE_ENV = "TIMELORD_PURE"
#: Written by setup.py next to this module when it compiles.
BUILD_FILE = "_build.json"

_ROOT = Path(__file__).resolve().parent


def source_path(module: str, root: Path = _ROOT) -> Path:
    """The `.py` file of a `timelord.*` module under the package directory `root`."""
    return root.joinpath(*module.split(".")[1:]).with_suffix(".py")


def source_digest(modules: Sequence[str] = COMPILED_MODULES, root: Path = _ROOT) -> str:
    """A digest of the sources of `modules`: the build is current while it is unchanged."""
    h = hashlib.sha256()
    for module in modules:
        h.update(module.encode())
        h.update(b"\0")
        h.update(source_path(module, root).read_bytes())
        h.update(b"\0")
    return h.hexdigest()


def _compiled_file(module: str, root: Path) -> Path | None:
    """The extension module built for `module`, if there is one beside its source."""
    source = source_path(module, root)
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = source.with_name(source.stem + suffix)
        if candidate.exists():
            return candidate
    return None


def decide(root: Path = _ROOT, environ: Mapping[str, str] | None = None) -> tuple[bool, str]:
    """(whether the compiled modules may run, the build in words, for `timelord --version`)."""
    env = os.environ if environ is None else environ
    built = [m for m in COMPILED_MODULES if _compiled_file(m, root) is not None]
    if not built:
        return False, "pure Python"
    if env.get(PURE_ENV, "") not in ("", "0"):
        return False, f"pure Python ({PURE_ENV} is set; a compiled build is installed)"
    try:
        info = json.loads((root / BUILD_FILE).read_text())
    except (OSError, ValueError):
        info = {}
    libraries = all(_compiled_file(group + "__mypyc", root) for group in GROUPS)
    if not isinstance(info, dict) or len(built) != len(COMPILED_MODULES) or not libraries:
        return False, "pure Python (the compiled build is incomplete: rebuild it)"
    if info.get("digest") != source_digest(COMPILED_MODULES, root):
        return False, "pure Python (the sources changed since the compiled build: rebuild it)"
    return True, f"compiled with mypyc {info.get('mypyc', '?')}"


class _SourceFirst:
    """A meta path finder that loads the compiled modules from their `.py` files."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.names = frozenset(COMPILED_MODULES)

    def find_spec(
        self, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if name not in self.names:
            return None
        return importlib.util.spec_from_file_location(name, source_path(name, self.root))


def install(root: Path = _ROOT) -> tuple[bool, str]:
    """Decide the build once, and when it is pure while extension files sit beside the
    sources, make the imports below take the sources. Called first by `timelord/__init__`."""
    compiled, words = decide(root)
    if not compiled and any(_compiled_file(m, root) for m in COMPILED_MODULES):
        sys.meta_path.insert(0, _SourceFirst(root))
    return compiled, words
