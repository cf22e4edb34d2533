"""Every code block of the README runs as written: the Python blocks are executed, and every
line of the shell blocks is run, in a scratch folder, against this checkout.

Two kinds of line cannot run inside the suite as they stand, so they are run as far as they
can be: an install (`pip install '.[EXTRA]'`) is checked to name extras the package declares,
and `bash scripts/test.sh` (the suite itself) to be the script that installs the `test` extra
and runs pytest; `timelord serve` is started for real on a free port and a scratch database,
and must print its address and answer the lobby and `/openapi.json` before it is stopped. A
terminal game with a `human` seat is played to its end by a person who always takes the first
move offered.
"""

from __future__ import annotations

import os
import re
import shlex
import socket
import subprocess
import sys
import tomllib
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
BLOCK = re.compile(r"^```(\w+)\n(.*?)^```", re.MULTILINE | re.DOTALL)


def _blocks(language: str) -> list[str]:
    return [body for lang, body in BLOCK.findall(README.read_text()) if lang == language]


def test_the_readme_has_what_a_newcomer_needs() -> None:
    lines = README.read_text().count("\n")
    assert 100 <= lines <= 150, f"{README.name} has {lines} lines"
    assert _blocks("python") and _blocks("bash")


def test_the_readme_links_lead_to_files() -> None:
    links = re.findall(r"\]\(([^)#:]+)\)", README.read_text())
    assert links
    assert [link for link in links if not (ROOT / link).is_file()] == []


@pytest.mark.parametrize("index", range(len(_blocks("python"))))
def test_a_python_block_runs(index: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code = _blocks("python")[index]
    if "timelord.adapters" in code:
        pytest.importorskip("gymnasium", reason="the rl extra brings Gymnasium")
    monkeypatch.chdir(tmp_path)
    exec(compile(code, f"{README.name} python block {index}", "exec"), {"__name__": "__readme__"})


def _commands(block: str) -> list[list[str]]:
    """The block's commands as words: one a line, `&&` splitting a line into several."""
    found: list[list[str]] = []
    for line in block.splitlines():
        command: list[str] = []
        for word in [*shlex.split(line, comments=True), "&&"]:
            if word != "&&":
                command.append(word)
            elif command:
                found.append(command)
                command = []
    return found


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "100"}


@pytest.mark.parametrize("index", range(len(_blocks("bash"))))
def test_a_shell_block_runs(index: int, tmp_path: Path) -> None:
    for words in _commands(_blocks("bash")[index]):
        if "pip" in words and "install" in words:
            _check_install(words)
        elif words[:2] == ["bash", "scripts/test.sh"]:
            _check_test_script()
        elif words[:2] == ["timelord", "serve"]:
            _serve(words[2:], tmp_path)
        elif words[0] == "timelord":
            _run_timelord(words[1:], tmp_path)
        else:
            pytest.fail(f"{README.name} has a command this test cannot run: {shlex.join(words)}")


def _check_install(words: list[str]) -> None:
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = declared["optional-dependencies"]
    for word in words:
        if word.startswith(".["):
            named = word.removeprefix(".[").removesuffix("]").split(",")
            assert set(named) <= set(extras), f"{word} names an extra pyproject.toml lacks"


def _check_test_script() -> None:
    script = (ROOT / "scripts" / "test.sh").read_text()
    assert "set -euo pipefail" in script
    assert "install --quiet -e '.[test]'" in script
    assert "python3 -m pytest" in script


def _run_timelord(args: list[str], folder: Path) -> None:
    # a person who always takes the first move offered, so the game is played to its end
    person = "1\n" * 5000 if any("human" in a for a in args) else ""
    done = subprocess.run(
        [sys.executable, "-m", "timelord", *args],
        cwd=folder,
        env=_env(),
        input=person,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, f"timelord {shlex.join(args)}:\n{done.stderr[-2000:]}"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _serve(args: list[str], folder: Path) -> None:
    pytest.importorskip("uvicorn", reason="the web extra brings uvicorn")
    port = _free_port()
    db = f"sqlite:///{folder / 'tables.sqlite3'}"
    server = subprocess.Popen(
        [sys.executable, "-m", "timelord", "serve", *args, "--port", str(port), "--db", db],
        cwd=folder,
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert server.stdout is not None
        line = server.stdout.readline()  # blocks until the server says where it serves
        assert f"http://127.0.0.1:{port}/" in line, line
        for path in ("/", "/openapi.json"):
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=30) as page:
                assert page.status == 200
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
