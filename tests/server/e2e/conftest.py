"""A real server (uvicorn in a subprocess, a temporary SQLite database, bots without delay)
and headless Debian Chromium driven by Playwright, for the end-to-end tests."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ROOT = Path(__file__).resolve().parents[3]
#: Screenshots land here (git-ignored), one folder per run is not needed: names say the game.
ARTIFACTS = Path(os.environ.get("TIMELORD_ARTIFACTS", ROOT / "test-artifacts"))

if not Path(CHROMIUM).exists():
    pytest.skip(f"end-to-end tests need Debian's chromium at {CHROMIUM}", allow_module_level=True)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a fresh `timelord` server on a free loopback port."""
    db = tmp_path_factory.mktemp("e2e") / "tables.db"
    port = _free_port()
    # every page of the suite comes from this one loopback address: the per-client table,
    # creation and socket limits (tested on their own in tests/server) would refuse the
    # suite's later tables, so this server counts none of them
    code = (
        "import uvicorn; from timelord.server import create_app; "
        "from timelord.server.limits import Limits; "
        "free = Limits(tables_per_client=0, bot_tables_per_client=0, creations_per_minute=0, "
        "sockets_per_client=0); "
        f"uvicorn.run(create_app({f'sqlite:///{db}'!r}, 0.0, limits=free), host='127.0.0.1', "
        f"port={port}, log_level='warning')"
    )
    # short coach reviews (the review chart's test); an override gives better screenshots
    env = {"TIMELORD_REVIEW_SECONDS": "0.05", **os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{base}/api/tables", timeout=2):
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the server did not start") from None
                time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


def _page(browser: Any, motion: str) -> Iterator[Any]:
    """A fresh context's page that records its JavaScript errors in `page.errors`."""
    context = browser.new_context(reduced_motion=motion, viewport={"width": 1280, "height": 800})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.errors = errors
    try:
        yield pg
    finally:
        context.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A page that prefers reduced motion: boards redraw without animating, so Playwright's
    wait for a still element never races a card in flight (motion has its own tests)."""
    yield from _page(browser, "reduce")


@pytest.fixture
def moving_page(browser: Any) -> Iterator[Any]:
    """A page with motion on, for the tests whose subject is the animation."""
    yield from _page(browser, "no-preference")


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
