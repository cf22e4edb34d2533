"""Cross-site requests (issue 30, finding 2): every state-changing route that /openapi.json
lists is refused when another site's page sends it, or sends it as a form or text; the same
requests as the server's own page makes them succeed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from timelord.server import create_app

from .test_life import label_of

OWN = "http://testserver"
PAGE = {"Origin": OWN, "Sec-Fetch-Site": "same-origin"}
#: what a browser says of a request another site's page sent
FOREIGN = [
    {"Origin": "http://evil.example"},
    {"Origin": "http://testserver:8081"},  # the same host at another port: same-site
    {"Origin": "https://testserver"},
    {"Origin": "null"},
    {"Sec-Fetch-Site": "same-site"},
    {"Sec-Fetch-Site": "cross-site"},
    {"Origin": OWN, "Sec-Fetch-Site": "cross-site"},
]
#: bodies a page may send to another site without asking first, and a typeless one
NOT_JSON = [
    ("text/plain", b'{"text": "hi"}'),
    ("text/plain;charset=UTF-8", b'{"text": "hi"}'),
    ("application/x-www-form-urlencoded", b"text=hi"),
    ("multipart/form-data; boundary=x", b'--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n'),
    (None, b'{"text": "hi"}'),
]
CHANGING = {"post", "put", "patch", "delete"}


def changing_routes(client: TestClient) -> list[tuple[str, str]]:
    """(METHOD, path) of every state-changing route in /openapi.json."""
    doc = client.get("/openapi.json").json()
    return sorted(
        (method.upper(), path)
        for path, item in doc["paths"].items()
        for method in item
        if method in CHANGING
    )


@pytest.fixture
def web(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_url, bot_delay=0)) as client:
        yield client


@pytest.fixture
def logged_in(web: TestClient) -> dict[str, Any]:
    """A logged-in player (the client holds the cookie) at a table of two people."""
    ann = {"name": "Ann", "password": "a long secret"}
    assert web.post("/api/players", json=ann, headers=PAGE).status_code == 201
    made = web.post(
        "/api/tables", json={"game": "keys", "seats": ["human", "human"]}, headers=PAGE
    ).json()
    return made


def _fill(path: str, table: dict[str, Any]) -> str:
    return (
        path.replace("{table_id}", table["id"]).replace("{seat}", "0").replace("{game_id}", "keys")
    )


def test_every_state_changing_route_refuses_another_sites_page(
    web: TestClient, logged_in: dict[str, Any]
) -> None:
    routes = changing_routes(web)
    assert len(routes) >= 15  # the matrix covers the API, not an empty list
    token, owner = logged_in["seats"][0]["token"], logged_in["owner_token"]
    for method, path in routes:
        url = _fill(path, logged_in)
        for headers in FOREIGN:
            answer = web.request(
                method, url, params={"token": token, "owner": owner}, json={}, headers=headers
            )
            assert answer.status_code == 403, (method, path, headers, answer.text)
            assert answer.json()["code"] == "origin/forbidden"
    assert web.get("/api/session").status_code == 200  # nothing logged the player out


def test_every_state_changing_api_route_refuses_forms_and_text(
    web: TestClient, logged_in: dict[str, Any]
) -> None:
    token, owner = logged_in["seats"][0]["token"], logged_in["owner_token"]
    for method, path in changing_routes(web):
        url = _fill(path, logged_in)
        for kind, raw in NOT_JSON:
            headers = {**PAGE, **({"Content-Type": kind} if kind else {})}
            answer = web.request(
                method,
                url,
                params={"token": token, "owner": owner},
                content=raw,
                headers=headers,
            )
            assert answer.status_code == 415, (method, path, kind, answer.text)
            assert answer.json()["code"] == "request/media_type"
    chat = web.get(f"/api/tables/{logged_in['id']}/chat").json()["messages"]
    assert not [line for line in chat if line["seat"] is not None]


def test_a_foreign_page_cannot_open_a_socket_with_the_cookie(
    web: TestClient, logged_in: dict[str, Any]
) -> None:
    url = f"/api/tables/{logged_in['id']}/ws"
    with web.websocket_connect(url, headers={"Origin": "http://evil.example"}) as ws:
        refusal = ws.receive_json()
        assert refusal["code"] == "origin/forbidden" and refusal["status"] == 403
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403
    with web.websocket_connect(url, headers=PAGE) as ws:
        assert ws.receive_json()["version"] == 0  # the page's own socket opens its seat


def test_behind_a_trusted_proxy_the_forwarded_origin_is_ours(sqlite_url: str) -> None:
    app = create_app(sqlite_url, bot_delay=0, trusted_proxies=["10.0.0.1"])
    forwarded = {"X-Forwarded-Host": "games.example", "X-Forwarded-Proto": "https"}
    with TestClient(app, client=("10.0.0.1", 50000)) as client:
        body = {"game": "keys", "seats": ["human", "human"]}
        ours = {**forwarded, "Origin": "https://games.example"}
        assert client.post("/api/tables", json=body, headers=ours).status_code == 201
        theirs = {**forwarded, "Origin": "http://testserver"}
        assert client.post("/api/tables", json=body, headers=theirs).status_code == 403


def test_the_pages_own_requests_succeed_on_every_route(web: TestClient) -> None:
    """Every state-changing route, as the page sends it (its Origin, JSON), succeeds; the
    list must name every route /openapi.json has, so a new one is added here too."""
    done: set[tuple[str, str]] = set()

    def call(method: str, path: str, url: str, body: Any = None, **params: Any) -> Any:
        answer = web.request(method, url, params=params, json=body, headers=PAGE)
        assert 200 <= answer.status_code < 300, (method, url, answer.text)
        done.add((method, path))
        return answer.json() if answer.content else None

    t = "/api/tables/{table_id}"
    call("POST", "/api/players", "/api/players", {"name": "Ann", "password": "a long secret"})
    call("POST", "/api/session", "/api/session", {"name": "Ann", "password": "a long secret"})
    call("PATCH", "/api/session", "/api/session", {"name": "Anna"})
    clue = {"game": "clue", "options": {"players": 2}, "seats": ["human", "open"], "undo": True}
    made = call("POST", "/api/tables", "/api/tables", clue)
    tid, token, owner = made["id"], made["seats"][0]["token"], made["owner_token"]
    base = f"/api/tables/{tid}"
    call("POST", t + "/seats/{seat}/claim", f"{base}/seats/1/claim", {"name": "Bo"})
    legal = web.get(base, params={"token": token}).json()
    roll = label_of("clue", legal, "roll the dice", players=2)
    call("POST", t + "/explain", f"{base}/explain", {"action": roll}, token=token)
    call("POST", t + "/actions", f"{base}/actions", {"version": 0, "action": roll}, token=token)
    step = label_of("clue", web.get(base, params={"token": token}).json(), "move to", players=2)
    call("POST", t + "/actions", f"{base}/actions", {"version": 1, "action": step}, token=token)
    call("POST", t + "/undo", f"{base}/undo", {"version": 2}, token=token)
    call("POST", t + "/chat", f"{base}/chat", {"text": "hello"}, token=token)
    call("POST", t + "/seats/{seat}/mute", f"{base}/seats/1/mute", {"muted": True}, owner=owner)
    call("POST", t + "/seats/{seat}/stand-in", f"{base}/seats/0/stand-in", token=token)
    call("POST", t + "/seats/{seat}/reclaim", f"{base}/seats/0/reclaim", token=token)
    call("POST", t + "/seats/{seat}/invite", f"{base}/seats/0/invite", owner=owner)
    call("POST", t + "/end", f"{base}/end", owner=owner)
    call("POST", t + "/rematch", f"{base}/rematch")  # the session's cookie opens seat 0
    call("POST", "/api/learn/{game_id}", "/api/learn/keys")
    call("DELETE", "/api/session", "/api/session")
    # a guest's seat takes the name its person gives (a player's seat has the account's)
    pair = call("POST", "/api/tables", "/api/tables", {"game": "keys", "seats": ["human"] * 2})
    rename = f"/api/tables/{pair['id']}/seats/1/name"
    call("POST", t + "/seats/{seat}/name", rename, {"name": "Bea"}, token=pair["seats"][1]["token"])
    assert done == set(changing_routes(web))
