"""Two `timelord serve` processes on one PostgreSQL: exactly one thinks for each bot move,
and when it dies the other takes over within seconds (issue 18, item 4)."""

from __future__ import annotations

import collections
import textwrap
import time
from pathlib import Path

import pytest

from .helpers import Cluster, Server, wait_for
from .test_processes import create, snap

#: an agent of the operator's that writes down every decision it is asked for, and takes a
#: while over each, so that two processes thinking at once would be seen
SOURCE = textwrap.dedent(
    """
    import os, time
    from timelord.agents.base import Agent

    class Counted(Agent):
        def act(self, view, legal, rng):
            with open(os.environ["DECISIONS"], "a") as out:
                out.write(f"{os.getpid()}\\n")
            time.sleep(0.3)
            return legal[0]
    """
)


def _start(servers: list[Server], url: str, log: Path, spec: str) -> Server:
    server = Server(url, 0.0, log, extra=("--agent", spec))
    servers.append(server)
    server.wait_ready()
    return server


def test_one_process_thinks_per_bot_move_and_another_takes_over(
    postgres: Cluster, servers: list[Server], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    decisions = tmp_path / "decisions"
    decisions.touch()
    monkeypatch.setenv("DECISIONS", str(decisions))  # the servers inherit it
    agent = tmp_path / "counted.py"
    agent.write_text(SOURCE)
    spec = f"{agent}:Counted"
    url = postgres.new_database()
    a = _start(servers, url, tmp_path / "a.log", spec)
    b = _start(servers, url, tmp_path / "b.log", spec)
    table = create(a.client, "keys", [spec, spec], seed=5)
    snap(b.client, table["id"])  # b serves the table too (a spectator there is enough)
    wait_for(lambda: snap(b.client, table["id"])["version"] >= 8, timeout=60)
    # each move was thought about once, by one process or the other, never by both (one
    # decision may be under way, and a move may land between the reads)
    first = snap(a.client, table["id"])["version"]
    pids = decisions.read_text().split()
    last = snap(a.client, table["id"])["version"]
    assert first <= len(pids) <= last + 1, (first, last, pids)
    # kill the process that is thinking now; the other takes the table over
    thinking = int(pids[-1])
    killed, alive = (a, b) if a.process.pid == thinking else (b, a)
    killed.kill()
    before = snap(alive.client, table["id"])["version"]
    started = time.monotonic()
    wait_for(lambda: snap(alive.client, table["id"])["version"] >= before + 2, timeout=30)
    assert time.monotonic() - started < 10
    counts = collections.Counter(decisions.read_text().split())
    assert counts[str(alive.process.pid)] >= 2
