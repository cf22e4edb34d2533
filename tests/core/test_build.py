"""Which build runs: the compiled rules core only when it was built from the sources on disk.

A fake build (a copy of the sources, with empty files standing for the extension modules) is
enough to test the decision; nothing is compiled here. CI runs the whole suite on the
compiled build and the engine tests with TIMELORD_PURE=1 (scripts/test.sh).
"""

from __future__ import annotations

import importlib
import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import timelord
from timelord import build

PACKAGE = Path(timelord.__file__).resolve().parent
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


def _fake_build(tmp_path: Path, modules: tuple[str, ...] = build.COMPILED_MODULES) -> Path:
    """A package tree holding the compiled modules' sources, an empty "extension" beside each
    of `modules`, and the build record of setup.py."""
    root = tmp_path / "timelord"
    for module in build.COMPILED_MODULES:
        source = build.source_path(module, PACKAGE)
        target = build.source_path(module, root)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
    for module in modules:
        path = build.source_path(module, root)
        path.with_name(path.stem + SUFFIX).write_bytes(b"")
    for group in build.GROUPS:
        library = build.source_path(group + "__mypyc", root)
        library.with_name(library.stem + SUFFIX).write_bytes(b"")
    digest = build.source_digest(build.COMPILED_MODULES, root)
    (root / build.BUILD_FILE).write_text(json.dumps({"digest": digest, "mypyc": "9.9"}))
    return root


def test_no_extension_modules_is_the_pure_build(tmp_path: Path) -> None:
    assert build.decide(tmp_path, {}) == (False, "pure Python")


def test_a_current_build_runs_compiled(tmp_path: Path) -> None:
    root = _fake_build(tmp_path)
    assert build.decide(root, {}) == (True, "compiled with mypyc 9.9")
    assert build.decide(root, {build.PURE_ENV: "0"})[0] is True


def test_the_environment_forces_pure_python(tmp_path: Path) -> None:
    compiled, words = build.decide(_fake_build(tmp_path), {build.PURE_ENV: "1"})
    assert not compiled
    assert build.PURE_ENV in words


def test_an_edited_source_makes_the_build_pure(tmp_path: Path) -> None:
    root = _fake_build(tmp_path)
    rules = build.source_path("timelord.games.keys.state", root)
    rules.write_text(rules.read_text() + "\n# edited after the build\n")
    compiled, words = build.decide(root, {})
    assert not compiled
    assert "sources changed" in words


def test_a_partial_or_unrecorded_build_is_pure(tmp_path: Path) -> None:
    root = _fake_build(tmp_path / "a", build.COMPILED_MODULES[:-1])
    assert build.decide(root, {}) == (
        False,
        "pure Python (the compiled build is incomplete: rebuild it)",
    )
    root = _fake_build(tmp_path / "b")
    (root / build.BUILD_FILE).unlink()
    assert build.decide(root, {})[0] is False
    root = _fake_build(tmp_path / "c")
    next((root / "games" / "clue").glob("_native__mypyc*")).unlink()  # a group's library
    assert build.decide(root, {})[0] is False


def test_a_pure_decision_loads_the_sources_beside_extensions(tmp_path: Path) -> None:
    root = _fake_build(tmp_path)
    finder = build._SourceFirst(root)
    spec = finder.find_spec("timelord.games.keys.state")
    assert spec is not None and spec.origin == str(
        build.source_path("timelord.games.keys.state", root)
    )
    assert finder.find_spec("timelord.games.keys.text") is None  # never compiled: normal import


def test_the_pure_environment_variable_in_a_fresh_process() -> None:
    env = {**os.environ, build.PURE_ENV: "1", "PYTHONPATH": str(PACKAGE.parent)}
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            "import timelord, timelord.games.keys.state as r; "
            "print(timelord.COMPILED, r.__file__.endswith('.py'))",
        ],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert out == ["False", "True"]


def test_the_flag_says_which_modules_run() -> None:
    """`timelord.COMPILED` is true exactly when every module of the rules core was loaded
    from an extension module, on either build (CI runs this on both)."""
    loaded = [importlib.import_module(name) for name in build.COMPILED_MODULES]
    native = [isinstance(m.__loader__, importlib.machinery.ExtensionFileLoader) for m in loaded]
    assert native == [timelord.COMPILED] * len(loaded)
    assert ("compiled with mypyc" in timelord.BUILD) is timelord.COMPILED
