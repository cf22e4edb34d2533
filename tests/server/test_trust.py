"""Trust at the table (issue 18): seeds only where allowed, limits per client address, sockets
capped, `since` held to one rule, idle tables archived and others read on first use."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.support import aio
from timelord.server import create_app
from timelord.server.limits import Limits
from timelord.server.proxy import Proxies
from timelord.server.storage import Store
from timelord.server.table import Tables

RATE = 1e6


#: the test client's own address; the apps below trust it as a proxy, so a request can speak
#: for another client address with X-Forwarded-For
PROXY = ("10.0.0.1", 4000)


def _app(url: str, **kwargs: Any) -> TestClient:
    kwargs.setdefault("trusted_proxies", [PROXY[0]])
    return TestClient(create_app(url, 0, rate=RATE, burst=RATE, **kwargs), client=PROXY)


def _as(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}


def _create(client: TestClient, seats: list[str], via: str | None = None, **body: Any) -> Any:
    headers = _as(via) if via else None
    return client.post(
        "/api/tables", json={"game": "keys", "seats": seats, **body}, headers=headers
    )


# -- item 2: a seed only where the operator allows it, and then the table says so -------------


def test_a_seed_is_refused_unless_the_operator_allows_it(sqlite_url: str) -> None:
    with _app(sqlite_url, allow_seed=False) as client:
        refused = _create(client, ["human", "random"], seed=7)
        assert refused.status_code == 422
        assert refused.json()["code"] == "config/invalid"
        assert "--allow-seed" in refused.json()["reason"]
        dealt = _create(client, ["human", "random"])
        assert dealt.status_code == 201
        table = dealt.json()["id"]
        assert client.get(f"/api/tables/{table}").json()["seeded"] is False
        assert client.get("/api/tables").json()["tables"][0]["seeded"] is False


def test_a_seeded_table_is_marked_in_the_list_every_snapshot_and_the_page(db_url: str) -> None:
    with _app(db_url, allow_seed=True) as client:
        made = _create(client, ["human", "human"], seed=7).json()
        table, token = made["id"], made["seats"][0]["token"]
        assert client.get("/api/tables").json()["tables"][0]["seeded"] is True
        assert client.get(f"/api/tables/{table}").json()["seeded"] is True
        snapshot = client.get(f"/api/tables/{table}?token={token}").json()
        assert snapshot["seeded"] is True
        with client.websocket_connect(f"/api/tables/{table}/ws?token={token}") as ws:
            assert ws.receive_json()["seeded"] is True
        page = client.get(f"/tables/{table}?token={token}").text
        assert "seeded" in page.lower()


def test_serve_refuses_seeds_by_default() -> None:
    from timelord.cli.main import build_parser

    args = build_parser().parse_args(["serve"])
    assert args.allow_seed is False
    assert build_parser().parse_args(["serve", "--allow-seed"]).allow_seed is True


# -- item 3: limits per client address, whatever the connection -------------------------------


def test_tables_in_play_per_client_address_are_capped(sqlite_url: str) -> None:
    limits = Limits(tables_per_client=3, bot_tables_per_client=2)
    with _app(sqlite_url, limits=limits) as client:
        assert _create(client, ["human", "random"]).status_code == 201
        assert _create(client, ["human", "random"]).status_code == 201
        third_bot = _create(client, ["human", "random"])
        assert third_bot.status_code == 429
        assert third_bot.json()["code"] == "rate/limited"
        assert _create(client, ["human", "human"]).status_code == 201
        fourth = _create(client, ["human", "human"])
        assert fourth.status_code == 429
        # another address has its own allowance
        assert _create(client, ["human", "human"], via="198.51.100.4").status_code == 201


def test_creations_per_minute_per_client_follow_the_clock(sqlite_url: str) -> None:
    now = [dt.datetime(2030, 1, 1, tzinfo=dt.UTC)]
    app = create_app(sqlite_url, 0, rate=RATE, burst=RATE, limits=Limits(creations_per_minute=2))
    app.state.tables.clock = lambda: now[0]
    with TestClient(app) as client:
        assert _create(client, ["human", "human"]).status_code == 201
        assert _create(client, ["human", "human"]).status_code == 201
        assert _create(client, ["human", "human"]).status_code == 429
        now[0] += dt.timedelta(seconds=61)
        assert _create(client, ["human", "human"]).status_code == 201


def test_bot_tables_left_alone_for_a_day_stop_counting_against_the_allowance(
    sqlite_url: str,
) -> None:
    """An abandoned bot game used to hold its place in the allowance until archived (30
    days); one nobody moved at for a day (`BOT_TABLE_IDLE`) no longer counts (issue 33)."""
    now = [dt.datetime(2030, 1, 1, tzinfo=dt.UTC)]
    limits = Limits(bot_tables_per_client=2, bot_tables_total=3)
    app = create_app(sqlite_url, 0, rate=RATE, burst=RATE, limits=limits)
    app.state.tables.clock = lambda: now[0]
    with TestClient(app) as client:
        assert _create(client, ["human", "random"]).status_code == 201
        assert _create(client, ["human", "random"]).status_code == 201
        assert _create(client, ["human", "random"]).status_code == 429
        now[0] += dt.timedelta(hours=23)
        assert _create(client, ["human", "random"]).status_code == 429
        now[0] += dt.timedelta(hours=2)
        assert _create(client, ["human", "random"]).status_code == 201
        # tables without bots count as before
        assert _create(client, ["human", "human"]).status_code == 201


def test_tables_in_play_overall_are_capped(sqlite_url: str) -> None:
    with _app(sqlite_url, limits=Limits(tables_total=2, bot_tables_total=1)) as client:
        assert _create(client, ["human", "random"]).status_code == 201
        assert _create(client, ["human", "random"]).status_code == 429
        assert _create(client, ["human", "human"]).status_code == 201
        assert _create(client, ["human", "human"], via="198.51.100.4").status_code == 429


def test_the_request_rate_is_per_address_not_per_connection() -> None:
    from timelord.server.admission import Admission, Admit

    async def ok(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    limiter = Admit(ok, Admission(Proxies(), rate=0.001, burst=3))

    async def status(peer: tuple[str, int]) -> int:
        sent: list[Any] = []

        async def send(message: Any) -> None:
            sent.append(message)

        scope = {"type": "http", "client": peer, "headers": []}
        await limiter(scope, None, send)  # type: ignore[arg-type]
        return int(sent[0]["status"])

    async def scenario() -> list[int]:
        first = [await status(("10.0.0.5", 1000 + n)) for n in range(4)]  # a new port each
        return [*first, await status(("10.0.0.6", 1000))]

    assert aio.run(scenario()) == [200, 200, 200, 429, 200]


# -- forwarded addresses (docs/deploy.md) -------------------------------------------------------


def _scope(peer: str, forwarded: str | None) -> dict[str, Any]:
    headers = [] if forwarded is None else [(b"x-forwarded-for", forwarded.encode())]
    return {"client": (peer, 5000), "headers": headers}


def test_a_forwarded_address_is_believed_only_from_a_trusted_proxy() -> None:
    proxies = Proxies(["10.1.0.0/16", "127.0.0.1"])
    assert proxies.client_address(_scope("203.0.113.5", "198.51.100.1")) == "203.0.113.5"
    assert proxies.client_address(_scope("10.1.2.3", "198.51.100.1")) == "198.51.100.1"
    # a client that writes its own header in front of the proxy's entry gains nothing
    spoofed = "1.1.1.1, 198.51.100.1"
    assert proxies.client_address(_scope("10.1.2.3", spoofed)) == "198.51.100.1"
    # proxies in a chain are skipped; a proxy with no header is itself the client
    assert proxies.client_address(_scope("127.0.0.1", "198.51.100.1, 10.1.9.9")) == ("198.51.100.1")
    assert proxies.client_address(_scope("10.1.2.3", None)) == "10.1.2.3"
    assert proxies.client_address(_scope("10.1.2.3", "not an address")) == "10.1.2.3"
    assert Proxies().client_address(_scope("127.0.0.1", "198.51.100.1")) == "127.0.0.1"


def test_limits_count_by_the_forwarded_address_only_behind_a_trusted_proxy(
    sqlite_url: str,
) -> None:
    limits = Limits(tables_per_client=1)
    with _app(sqlite_url, limits=limits) as proxy:
        for n in range(3):  # three people behind the proxy: one table each
            assert _create(proxy, ["human", "human"], via=f"198.51.100.{n}").status_code == 201
    with _app(sqlite_url, limits=limits, trusted_proxies=["10.9.9.9"]) as stranger:
        # a peer that is not the proxy: its headers are ignored, it is one client
        statuses = [
            _create(stranger, ["human"] * 2, via=f"192.0.2.{n}").status_code for n in (1, 2)
        ]
        assert statuses == [201, 429]


def test_links_name_https_only_when_a_trusted_proxy_says_so(sqlite_url: str) -> None:
    tls = {"X-Forwarded-Proto": "https"}
    with _app(sqlite_url) as proxy:
        made = proxy.post("/api/tables", json={"game": "keys", "seats": ["human"] * 2}, headers=tls)
        assert made.json()["watch_url"].startswith("https://")
        assert made.json()["seats"][0]["url"].startswith("https://")
    with _app(sqlite_url, trusted_proxies=["10.9.9.9"]) as stranger:
        made = stranger.post(
            "/api/tables", json={"game": "keys", "seats": ["human"] * 2}, headers=tls
        )
        assert made.json()["watch_url"].startswith("http://")


# -- item 5: sockets per client address and per table -----------------------------------------


def _refusal(
    client: TestClient, path: str, headers: dict[str, str] | None = None
) -> tuple[dict[str, Any], int]:
    with client.websocket_connect(path, headers=dict(headers or {})) as ws:
        message = ws.receive_json()
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    return message, closed.value.code


def test_sockets_per_client_and_per_table_are_capped(sqlite_url: str) -> None:
    limits = Limits(sockets_per_client=2, sockets_per_table=3)
    with _app(sqlite_url, limits=limits) as client:
        first = _create(client, ["human", "human"]).json()["id"]
        second = _create(client, ["human", "human"]).json()["id"]
        path = f"/api/tables/{first}/ws"
        with client.websocket_connect(path) as a, client.websocket_connect(path) as b:
            a.receive_json()
            b.receive_json()
            message, code = _refusal(client, f"/api/tables/{second}/ws")
            assert (message["code"], message["status"], code) == ("rate/limited", 429, 4429)
            other = _as("198.51.100.9")
            with client.websocket_connect(path, headers=other) as c:
                assert c.receive_json()["version"] == 0
                message, code = _refusal(client, path, other)  # the table is full
                assert code == 4429
        # closed sockets are given back
        with client.websocket_connect(path) as again:
            assert again.receive_json()["version"] == 0


# -- item 8: `since` has one rule on both routes ------------------------------------------------


@pytest.mark.parametrize("since", ["9" * 5000, "-1", "2147483648", "1e3", "\u0661"])
def test_a_bad_since_gets_the_same_coded_answer_on_http_and_websocket(
    local: TestClient, since: str
) -> None:
    table = _create(local, ["human", "human"]).json()["id"]
    answer = local.get(f"/api/tables/{table}", params={"since": since})
    assert answer.status_code == 400
    assert answer.json()["code"] == "request/malformed"
    message, code = _refusal(local, f"/api/tables/{table}/ws?since={since}")
    assert (message["code"], message["status"], code) == ("request/malformed", 400, 4400)


def test_the_largest_since_is_taken_on_both_routes(local: TestClient) -> None:
    table = _create(local, ["human", "human"]).json()["id"]
    top = str(2**31 - 1)
    assert local.get(f"/api/tables/{table}?since={top}").json()["events"] == []
    with local.websocket_connect(f"/api/tables/{table}/ws?since=000{top}") as ws:
        assert ws.receive_json()["events"] == []
    padded = "0" * 5000 + "1"  # leading zeros are no digits of the number, on either route
    assert local.get(f"/api/tables/{table}?since={padded}").status_code == 200
    with local.websocket_connect(f"/api/tables/{table}/ws?since={padded}") as ws:
        assert ws.receive_json()["version"] == 0


# -- item 7: tables read on first use, idle ones archived ---------------------------------------


@pytest.fixture
def clocked(sqlite_url: str) -> Iterator[tuple[TestClient, list[dt.datetime]]]:
    now = [dt.datetime.now(dt.UTC)]
    app = create_app(sqlite_url, 0, rate=RATE, burst=RATE, limits=Limits(archive_after=3600))
    app.state.tables.clock = lambda: now[0]
    with TestClient(app) as client:
        yield client, now


def test_an_idle_table_is_archived_readable_but_out_of_memory_and_play(
    clocked: tuple[TestClient, list[dt.datetime]],
) -> None:
    client, now = clocked
    tables: Tables = client.app.state.tables  # type: ignore[attr-defined]
    made = _create(client, ["human", "human"]).json()
    idle, token = made["id"], made["seats"][0]["token"]
    busy = _create(client, ["human", "human"]).json()["id"]
    now[0] += dt.timedelta(minutes=59)
    assert client.portal.call(tables.loader.archive) == []  # type: ignore[union-attr]
    assert client.get(f"/api/tables/{busy}").json()["version"] == 0  # a look is no move
    now[0] += dt.timedelta(minutes=2)
    archived = client.portal.call(tables.loader.archive)  # type: ignore[union-attr]
    assert set(archived) == {idle, busy}
    assert idle not in tables.loader.cache
    playing = client.get("/api/tables?status=playing").json()["tables"]
    assert playing == []
    listed = client.get("/api/tables?status=archived").json()["tables"]
    assert {t["id"] for t in listed} == {idle, busy}
    view = client.get(f"/api/tables/{idle}?token={token}").json()
    assert view["version"] == 0 and view["legal"]
    refused = client.post(
        f"/api/tables/{idle}/actions?token={token}",
        json={"version": 0, "action": view["legal"][0]},
    )
    assert refused.status_code == 409
    assert refused.json()["code"] == "table/archived"


def test_a_table_that_moves_is_not_archived(
    clocked: tuple[TestClient, list[dt.datetime]],
) -> None:
    client, now = clocked
    tables: Tables = client.app.state.tables  # type: ignore[attr-defined]
    made = _create(client, ["human", "human"], seed=1).json()
    table, token = made["id"], made["seats"][0]["token"]
    now[0] += dt.timedelta(hours=2)
    snapshot = client.get(f"/api/tables/{table}?token={token}").json()
    client.post(
        f"/api/tables/{table}/actions?token={token}",
        json={"version": 0, "action": snapshot["legal"][0]},
    )
    # the move was stamped with the real time, which is before the fake clock's hour
    tables.clock = lambda: dt.datetime.now(dt.UTC) + dt.timedelta(minutes=30)
    assert client.portal.call(tables.loader.archive) == []  # type: ignore[union-attr]


def test_start_reads_only_tables_whose_bots_are_to_move_or_clocks_run(
    sqlite_url: str, tmp_path: Path
) -> None:
    with _app(sqlite_url) as client:
        waiting = [_create(client, ["human", "human"]).json()["id"] for _ in range(3)]
        # the bot plays first here (seat 0), yet slowly enough to still be thinking
    store = Store(sqlite_url)
    store.migrate()
    bot_first = store.create_table(
        "botfirst",
        "keys",
        {"players": 2},
        1,
        [{"agent": "random"}, {"agent": "human"}],
        key=None,
        to_move=0,
    )
    store.close()
    app = create_app(sqlite_url, 600, rate=RATE, burst=RATE)
    with TestClient(app) as client:
        tables: Tables = client.app.state.tables  # type: ignore[attr-defined]
        assert set(tables.loader.cache) == {bot_first.id}
        assert client.get(f"/api/tables/{waiting[0]}").json()["version"] == 0
        assert set(tables.loader.cache) == {bot_first.id, waiting[0]}


# -- item 3: bot time shared fairly ---------------------------------------------------------


def test_search_workers_go_round_the_tables() -> None:
    from timelord.server.fairness import FairQueue

    async def scenario() -> list[str]:
        queue = FairQueue(1)
        served: list[str] = []
        gate = asyncio.Event()

        async def think(table: str) -> None:
            async with queue.turn(table):
                served.append(table)
                await gate.wait()

        # table A asks for ten searches first, then B and C one each
        tasks = [asyncio.create_task(think("A")) for _ in range(10)]
        await asyncio.sleep(0)
        tasks += [asyncio.create_task(think(t)) for t in ("B", "C")]
        for _ in range(40):
            await asyncio.sleep(0)
            gate.set()
            gate = asyncio.Event()
        gate.set()
        await asyncio.gather(*tasks)
        return served

    served = aio.run(scenario())
    assert served.index("B") <= 2 and served.index("C") <= 3, served
    assert sorted(served) == ["A"] * 10 + ["B", "C"]


def test_a_cancelled_waiter_gives_its_place_back() -> None:
    from timelord.server.fairness import FairQueue

    async def scenario() -> int:
        queue = FairQueue(1)
        release = asyncio.Event()

        async def hold() -> None:
            async with queue.turn("A"):
                await release.wait()

        holder = asyncio.create_task(hold())
        await asyncio.sleep(0)
        waiter = asyncio.create_task(hold())
        await asyncio.sleep(0)
        waiter.cancel()
        await asyncio.gather(waiter, return_exceptions=True)
        release.set()
        await holder
        return queue.busy

    assert aio.run(scenario()) == 0


def test_a_search_is_bounded_in_wall_time() -> None:
    from timelord.agents import make_agent
    from timelord.core import load
    from timelord.server.bots import timed

    game = load("keys", players=2)
    for spec in ("ismcts", "ismcts:hard", "ismcts:easy"):
        agent = make_agent(timed(spec, 2.5), game)
        assert agent.settings.time == 2.5  # type: ignore[attr-defined]
    assert timed("ismcts:hard", 0) == "ismcts:hard"


# -- item 1: a served table is dealt from a secret key, given out only at the end -------------


def test_a_table_without_a_seed_is_dealt_from_a_key_given_out_once_it_is_over(
    client: TestClient,
) -> None:
    import time

    from timelord.core import KeyedRng, Record, load, replay

    made = client.post("/api/tables", json={"game": "clue", "seats": ["random"] * 3}).json()
    table = made["id"]
    first = client.get(f"/api/tables/{table}/record")
    if not client.get(f"/api/tables/{table}").json()["over"]:
        assert first.status_code == 403
    deadline = time.monotonic() + 60
    while not (final := client.get(f"/api/tables/{table}").json())["over"]:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    data = client.get(f"/api/tables/{table}/record").json()
    assert len(bytes.fromhex(data["key"])) == 32
    record = Record.from_json(data)
    assert replay(record).view(None) == final["view"]
    # the seed in the record deals another game: the deal is the key's alone
    game = load("clue", players=3)
    dealt = game.new_game(KeyedRng(bytes.fromhex(data["key"])))
    assert game.new_game(record.seed).to_json() != dealt.to_json()
    for seed in range(200):  # what an attacker tried before: no small seed gives the deal
        assert game.new_game(seed).view(0) != dealt.view(0)
    assert final["seeded"] is False
