"""Real `timelord serve` processes: killed mid-game and restarted, two sharing PostgreSQL,
clients that stop reading."""

from __future__ import annotations

import base64
import json
import os
import socket
import threading
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

from timelord.core import Record, replay
from timelord.server.storage import Store, StoredAction

from .helpers import Cluster, Server, shared, wait_for

#: (game, seats, options) of the bots-only tables; a search bot thinks in the process pool
BOT_TABLES: list[tuple[str, list[str], dict[str, Any]]] = [
    ("keys", ["random", "ismcts:easy"], {"round_limit": 6}),
    ("card-game", ["random", "heuristic"], {}),
    ("episodes", ["random", "random", "random"], {}),
    ("clue", ["random", "random", "random"], {}),
]


def start(servers: list[Server], db_url: str, bot_delay: float, log: Path) -> Server:
    server = Server(db_url, bot_delay, log)
    servers.append(server)
    server.wait_ready()
    return server


def create(http: httpx.Client, game: str, seats: list[str], seed: int = 1, **options: Any) -> Any:
    body = {"game": game, "seats": seats, "seed": seed, "options": options}
    answer = http.post("/api/tables", json=body)
    assert answer.status_code == 201, answer.text
    return answer.json()


def snap(http: httpx.Client, table_id: str, token: str | None = None) -> Any:
    answer = http.get(f"/api/tables/{table_id}", params={"token": token} if token else {})
    assert answer.status_code == 200, answer.text
    return answer.json()


def play_human(http: httpx.Client, table: Any, moves: int | None) -> list[tuple[int, Any]]:
    """Seat 0 (a person) takes its first offered action `moves` times (None: to the end),
    waiting for the bot in between; the (version, action) pairs the server acknowledged."""
    token = table["seats"][0]["token"]
    done: list[tuple[int, Any]] = []
    while moves is None or len(done) < moves:
        current = wait_for(lambda: _turn_or_end(http, table["id"], token))
        if current["over"]:
            break
        body = {"version": current["version"], "action": current["legal"][0]}
        answer = http.post(f"/api/tables/{table['id']}/actions", params={"token": token}, json=body)
        assert answer.status_code == 200, answer.text
        done.append((current["version"] + 1, current["legal"][0]))
    return done


def _turn_or_end(http: httpx.Client, table_id: str, token: str) -> Any:
    """The seat's snapshot once it must act or the game is over, else None."""
    current = snap(http, table_id, token)
    return current if current["legal"] or current["over"] else None


def check_replays(http: httpx.Client, table_id: str, stored: list[StoredAction]) -> None:
    """The finished table's record holds exactly the stored actions and replays to the
    final snapshot."""
    final = snap(http, table_id)
    assert final["over"]
    answer = http.get(f"/api/tables/{table_id}/record")
    assert answer.status_code == 200
    record = Record.from_json(answer.json())
    assert record.actions == [row.action for row in stored]
    assert [row.version for row in stored] == list(range(1, final["version"] + 1))
    state = replay(record)
    assert json.loads(json.dumps(state.view(None))) == final["view"]


def test_killed_server_resumes_every_table_at_its_committed_version(
    db_url: str, servers: list[Server], tmp_path: Path
) -> None:
    first = start(servers, db_url, 0.02, tmp_path / "first.log")
    bots = [
        create(first.client, game, seats, seed=i, **options)["id"]
        for i, (game, seats, options) in enumerate(BOT_TABLES)
    ]
    human = create(first.client, "keys", ["human", "random"], seed=5, round_limit=8)
    acknowledged = play_human(first.client, human, 5)
    wait_for(lambda: all(snap(first.client, t)["version"] >= 15 for t in bots), timeout=60)
    seen = {t: snap(first.client, t)["version"] for t in bots}
    first.kill()  # bots are moving: some commit may be cut short mid-way

    store = Store(db_url)
    try:
        committed = {t: store.actions(t) for t in [*bots, human["id"]]}
        for table_id in bots:
            assert len(committed[table_id]) >= seen[table_id]  # nothing anyone was told is lost
        human_rows = {row.version: row.action for row in committed[human["id"]]}
        assert all(human_rows[v] == action for v, action in acknowledged)

        # restarted with slow bots, every table is where its last commit left it
        second = start(servers, db_url, 5.0, tmp_path / "second.log")
        for table_id, rows in committed.items():
            assert snap(second.client, table_id)["version"] == len(rows)
        second.stop()

        third = start(servers, db_url, 0.0, tmp_path / "third.log")
        play_human(third.client, human, None)
        for table_id in bots:
            wait_for(lambda t=table_id: snap(third.client, t)["over"], timeout=120)
        for table_id, before in committed.items():
            after = store.actions(table_id)
            assert after[: len(before)] == before  # nothing rewritten or applied twice
            check_replays(third.client, table_id, after)
    finally:
        store.close()


def _ws(server: Server, table: Any, seat: int | None) -> Any:
    token = "" if seat is None else f"?token={table['seats'][seat]['token']}"
    return connect(server.ws_url(f"/api/tables/{table['id']}/ws{token}"), max_size=2**24)


def _next(ws: Any) -> Any:
    return json.loads(ws.recv(timeout=30))


def test_two_servers_on_one_postgres_stay_in_step(
    postgres: Cluster, servers: list[Server], tmp_path: Path
) -> None:
    url = postgres.new_database()
    a = start(servers, url, 0.0, tmp_path / "a.log")
    b = start(servers, url, 0.0, tmp_path / "b.log")
    table = create(a.client, "keys", ["human", "human"], seed=3)
    with _ws(a, table, 0) as seat0, _ws(b, table, 1) as seat1, _ws(b, table, None) as watcher:
        sockets = {0: seat0, 1: seat1, None: watcher}
        views = {seat: _next(ws) for seat, ws in sockets.items()}
        for version in range(12):
            mover = views[None]["to_move"]
            sockets[mover].send(
                json.dumps({"version": version, "action": views[mover]["legal"][-1]})
            )
            views = {seat: _next(ws) for seat, ws in sockets.items()}
            assert {v["version"] for v in views.values()} == {version + 1}
            for seat in (0, 1):
                token = table["seats"][seat]["token"]
                assert shared(snap(a.client, table["id"], token)) == shared(
                    snap(b.client, table["id"], token)
                )
            assert shared(views[None]) == shared(snap(a.client, table["id"]))

    # the same move offered through both servers at once: exactly one is applied
    current = snap(a.client, table["id"])
    mover = current["to_move"]
    token = table["seats"][mover]["token"]
    legal = snap(a.client, table["id"], token)["legal"]
    body = {"version": current["version"], "action": legal[0]}
    codes: list[int] = []
    barrier = threading.Barrier(2)

    def offer(server: Server) -> None:
        barrier.wait()
        path = f"/api/tables/{table['id']}/actions"
        codes.append(server.client.post(path, params={"token": token}, json=body).status_code)

    threads = [threading.Thread(target=offer, args=(s,)) for s in (a, b)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(codes) == [200, 409]
    wait_for(lambda: snap(b.client, table["id"])["version"] == current["version"] + 1)

    # a table of bots that both servers serve (both run its bots) ends the same on both
    bots = create(a.client, "episodes", ["random", "heuristic", "random"], seed=8, target=20)
    with _ws(b, bots, None) as watcher:
        while not (last := _next(watcher))["over"]:
            pass
    # server a learns of b's last moves by a notice, which may lag under load
    wait_for(lambda: snap(a.client, bots["id"])["version"] == last["version"])
    assert last == snap(a.client, bots["id"]) == snap(b.client, bots["id"])
    store = Store(url)
    try:
        check_replays(b.client, bots["id"], store.actions(bots["id"]))
    finally:
        store.close()


def test_a_client_that_stops_reading_holds_up_nothing(
    sqlite_url: str, servers: list[Server], tmp_path: Path
) -> None:
    server = start(servers, sqlite_url, 0.0, tmp_path / "server.log")
    table = create(server.client, "clue", ["random", "random", "random"], seed=2)
    stuck = socket.create_connection(("127.0.0.1", server.port))
    stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    key = base64.b64encode(os.urandom(16)).decode()
    stuck.sendall(
        (
            f"GET /api/tables/{table['id']}/ws HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    vanished = socket.create_connection(("127.0.0.1", server.port))
    vanished.sendall(
        (
            f"GET /api/tables/{table['id']}/ws HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    vanished.close()
    try:
        wait_for(lambda: snap(server.client, table["id"])["over"], timeout=120)
        other = create(server.client, "keys", ["random", "random"], seed=4)
        wait_for(lambda: snap(server.client, other["id"])["over"], timeout=120)
    finally:
        stuck.close()
