"""Throw-away PostgreSQL clusters and real `timelord serve` processes for the server tests."""

from __future__ import annotations

import contextlib
import glob
import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def postgres_bin() -> Path | None:
    """Debian's PostgreSQL programs (the newest installed), or None if there are none."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent if found else None


class Cluster:
    """A PostgreSQL cluster in a temporary directory on a free loopback port, trusting local
    connections; as root it runs as the `postgres` system user (initdb refuses root)."""

    def __init__(self, bin_dir: Path, root: Path) -> None:
        self.bin_dir = bin_dir
        self.root = root
        self.data = root / "data"
        self.port = free_port()
        self._user = "postgres" if os.geteuid() == 0 else None
        self._databases = 0

    def _run(self, *argv: str) -> None:
        command = [str(self.bin_dir / argv[0]), *argv[1:]]
        if self._user is not None:
            command = ["runuser", "-u", self._user, "--", *command]
        subprocess.run(command, check=True, capture_output=True, timeout=120)

    def start(self) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        if self._user is not None:
            entry = pwd.getpwnam(self._user)
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8")
        options = f"-p {self.port} -h 127.0.0.1 -k {self.root} -F -c max_connections=200"
        log = str(self.root / "log")
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", log, "-w", "start")

    def stop(self) -> None:
        with contextlib.suppress(subprocess.SubprocessError):
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def new_database(self) -> str:
        """A fresh empty database's SQLAlchemy URL."""
        import psycopg

        self._databases += 1
        name = f"t{self._databases}"
        with psycopg.connect(self.admin_url("postgres"), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{name}"

    def admin_url(self, database: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"


@contextlib.contextmanager
def cluster() -> Iterator[Cluster]:
    """A running cluster, removed afterwards. Its directory is made directly under the
    system's temporary folder: pytest's own are private to root, which `postgres` cannot
    enter."""
    bin_dir = postgres_bin()
    assert bin_dir is not None
    root = Path(tempfile.mkdtemp(prefix="timelord-pg-"))
    found = Cluster(bin_dir, root)
    try:
        found.start()
        yield found
    finally:
        found.stop()
        shutil.rmtree(root, ignore_errors=True)


class Server:
    """A real `timelord serve` process on a free loopback port."""

    def __init__(
        self,
        db_url: str,
        bot_delay: float = 0.0,
        log: Path | None = None,
        extra: tuple[str, ...] = (),
        root: Path = ROOT,
    ) -> None:
        """`root`: the checkout whose code serves (a benchmark compares two)."""
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.db_url = db_url
        command = [sys.executable, "-m", "timelord", "serve", "--port", str(self.port)]
        command += ["--db", db_url, "--bot-delay", str(bot_delay), "--allow-seed", *extra]
        env = {**os.environ, "PYTHONPATH": str(root)}
        self._log = open(log or os.devnull, "ab")  # noqa: SIM115  (closed in stop)
        self.process = subprocess.Popen(
            command, cwd=root, env=env, stdout=subprocess.PIPE, stderr=self._log
        )
        self.client = httpx.Client(base_url=self.url, timeout=30)

    def wait_ready(self, timeout: float = 60) -> None:
        """Until the server prints its address (it has migrated and resumed its tables)."""
        assert self.process.stdout is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            line = self.process.stdout.readline().decode()
            if "serving at" in line:
                return
            if not line and self.process.poll() is not None:
                raise RuntimeError(f"timelord serve exited with {self.process.returncode}")
        raise TimeoutError("timelord serve did not start")

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush, as a crash would."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
        self.client.close()
        self._log.close()

    def ws_url(self, path: str) -> str:
        return f"ws://127.0.0.1:{self.port}{path}"


def wait_for(check: Any, timeout: float = 60, step: float = 0.02) -> Any:
    """Poll `check()` until it returns something true; its value."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"condition not met within {timeout}s")
        time.sleep(step)


def shared(snapshot: Any) -> Any:
    """A snapshot less what changes with who has the table open (which seats have a socket
    on this process), for comparing snapshots taken at different moments or processes."""
    seats = [{k: v for k, v in s.items() if k != "connected"} for s in snapshot["seats"]]
    return {**snapshot, "seats": seats}


class FakeClock:
    """A server clock the test moves by hand (`advance`), from any thread: sleepers whose
    time has come are woken in their own event loop. No test ever waits for real time to
    pass on a table clock."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        import threading

        self._now = start
        self._lock = threading.Lock()
        self._sleepers: list[tuple[float, Any, Any]] = []

    def now(self) -> float:
        return self._now

    async def sleep(self, seconds: float) -> None:
        import asyncio

        if seconds <= 0:
            await asyncio.sleep(0)
            return
        loop = asyncio.get_running_loop()
        woken = loop.create_future()
        entry = (self._now + seconds, loop, woken)
        with self._lock:
            self._sleepers.append(entry)
        try:
            await woken
        finally:
            with self._lock:
                if entry in self._sleepers:
                    self._sleepers.remove(entry)

    def advance(self, seconds: float) -> None:
        with self._lock:
            self._now += seconds
            due = [s for s in self._sleepers if s[0] <= self._now]
        for _, loop, woken in due:
            loop.call_soon_threadsafe(_wake, woken)


def _wake(woken: Any) -> None:
    if not woken.done():
        woken.set_result(None)


def call(base: str, path: str, body: Any = None) -> Any:
    """A request to a served app as its page sends one (a JSON body, the server's own
    Origin): a POST with `body`, else a GET; JSON answers (the API's, and every POST's)
    decoded, pages and board fragments as text."""
    request = urllib.request.Request(
        f"{base}{path}",
        data=None if body is None else json.dumps(body).encode(),
        method="GET" if body is None else "POST",
        headers={"Content-Type": "application/json", "Origin": base},
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        text = answer.read().decode()
    return json.loads(text) if body is not None or path.startswith("/api/") else text
