"""Accounts against an attacker (issue 30, findings 1 and 4): security headers on every
answer, a password replaced only with the current one, a new session id at every login and
password change, and login limiting that keys on the real client and cannot be turned into
locking an owner out."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient

from tests.server.test_players import FakeClock
from timelord.server import create_app
from timelord.server.accounts import COOKIE

RATE = 1e6
#: the test client's own address; the app trusts it as a proxy
PROXY = ("10.0.0.1", 4000)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def web(sqlite_url: str, clock: FakeClock) -> Iterator[TestClient]:
    app = create_app(sqlite_url, 0, rate=RATE, burst=RATE, trusted_proxies=[PROXY[0]])
    app.state.accounts.clock = clock
    app.state.accounts.hasher = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
    with TestClient(app, client=PROXY) as client:
        yield client


def _other(web: TestClient) -> TestClient:
    other = TestClient(web.app, client=PROXY)
    other.__enter__()
    return other


def _login(client: TestClient, name: str, password: str, via: str = "198.51.100.1") -> Any:
    body = {"name": name, "password": password}
    return client.post("/api/session", json=body, headers={"X-Forwarded-For": via})


# -- finding 1: headers, current password, session renewal --------------------------------


@pytest.mark.parametrize("path", ["/", "/api/tables", "/api/session", "/static/table.js", "/nope"])
def test_every_answer_carries_a_strict_policy(web: TestClient, path: str) -> None:
    headers = web.get(path).headers
    csp = headers["content-security-policy"]
    directives = {d.split()[0]: d.split()[1:] for d in csp.split("; ")}
    assert directives["script-src"] == ["'self'"]  # no 'unsafe-inline', no 'unsafe-eval'
    assert directives["frame-ancestors"] == ["'none'"]
    assert directives["object-src"] == ["'none'"]
    assert headers["referrer-policy"] == "no-referrer"
    assert headers["x-content-type-options"] == "nosniff"


def test_replacing_a_password_needs_the_current_one(web: TestClient) -> None:
    assert web.post("/api/players", json={"name": "Ace", "password": "correct horse"}).is_success
    bare = web.patch("/api/session", json={"password": "attacker set"})
    assert bare.status_code == 401 and bare.json()["code"] == "session/refused"
    wrong = {"password": "attacker set", "current_password": "not it at all"}
    assert web.patch("/api/session", json=wrong).status_code == 401
    assert _login(_other(web), "Ace", "attacker set").status_code == 401
    right = {"password": "battery staple", "current_password": "correct horse"}
    assert web.patch("/api/session", json=right).status_code == 200
    assert _login(_other(web), "Ace", "battery staple").status_code == 200


def test_guessing_the_current_password_is_limited(web: TestClient) -> None:
    web.post("/api/players", json={"name": "Ace", "password": "correct horse"})
    for _ in range(5):
        body = {"password": "attacker set", "current_password": "guess 1234"}
        assert web.patch("/api/session", json=body).status_code == 401
    body = {"password": "attacker set", "current_password": "correct horse"}
    assert web.patch("/api/session", json=body).status_code == 429


def test_a_first_password_needs_no_current_one(web: TestClient) -> None:
    web.post("/api/players", json={"name": "Ace"})
    assert web.patch("/api/session", json={"password": "correct horse"}).status_code == 200


def test_a_password_change_renews_the_session(web: TestClient) -> None:
    web.post("/api/players", json={"name": "Ace", "password": "correct horse"})
    before = web.cookies[COOKIE]
    body = {"password": "battery staple", "current_password": "correct horse"}
    assert web.patch("/api/session", json=body).status_code == 200
    assert web.cookies[COOKIE] != before
    assert web.get("/api/session").json()["name"] == "Ace"
    stale = _other(web)
    stale.cookies.set(COOKIE, before)
    assert stale.get("/api/session").status_code == 401


def test_a_login_renews_the_session_and_ends_the_one_held_before(web: TestClient) -> None:
    web.post("/api/players", json={"name": "Ace", "password": "correct horse"})
    before = web.cookies[COOKIE]
    assert _login(web, "Ace", "correct horse").status_code == 200
    assert web.cookies[COOKIE] != before
    stale = _other(web)
    stale.cookies.set(COOKIE, before)
    assert stale.get("/api/session").status_code == 401
    assert web.get("/api/session").json()["name"] == "Ace"


# -- finding 4: login limiting keys on the real client, and locks no owner out -------------


def test_behind_a_trusted_proxy_one_clients_failures_do_not_limit_another(
    web: TestClient,
) -> None:
    web.post("/api/players", json={"name": "Ace", "password": "correct horse"})
    guesser = _other(web)
    for i in range(25):
        _login(guesser, f"Name{i}", "guess 1234", via="203.0.113.9")
    assert _login(guesser, "Other", "guess 1234", via="203.0.113.9").status_code == 429
    assert _login(_other(web), "Ace", "correct horse", via="198.51.100.7").status_code == 200


def test_strangers_cannot_lock_the_owner_out_of_a_browser_they_logged_in_from(
    web: TestClient, clock: FakeClock
) -> None:
    web.post("/api/players", json={"name": "Ace", "password": "correct horse"})
    phone = _other(web)
    assert _login(phone, "Ace", "correct horse", via="198.51.100.7").status_code == 200
    # a crowd of addresses guesses Ace's password, each a few times
    crowd = _other(web)
    answers = [
        _login(crowd, "Ace", "guess 1234", via=f"203.0.113.{i // 3}").status_code for i in range(60)
    ]
    assert answers.count(401) <= 20 and 429 in answers  # the guessing is slowed
    # a new device is slowed with the crowd, even with the right password ...
    assert _login(_other(web), "Ace", "correct horse", via="192.0.2.5").status_code == 429
    # ... but the owner's phone, which has logged in as Ace before, is not locked out
    assert _login(phone, "Ace", "correct horse", via="198.51.100.7").status_code == 200
    # and the guessing goes on at one try a minute for the whole crowd
    clock.advance(seconds=61)
    tries = [_login(crowd, "Ace", "guess 1234", via=f"203.0.113.{50 + i}") for i in range(5)]
    assert [t.status_code for t in tries].count(401) == 1


# -- finding 10: the creator's address is stored keyed ---------------------------------------


def test_the_stored_creator_digest_is_keyed_with_a_server_secret(web: TestClient) -> None:
    """An unsalted SHA-256 of the address could be reversed by trying every address."""
    import hashlib
    import hmac

    from sqlalchemy import select

    from timelord.server.accounts import server_key
    from timelord.server.storage import TableRow

    made = web.post(
        "/api/tables",
        json={"game": "keys", "seats": ["human", "random"]},
        headers={"X-Forwarded-For": "203.0.113.5"},
    )
    assert made.status_code == 201
    store = web.app.state.tables.store  # type: ignore[attr-defined]
    with store.engine.connect() as conn:
        stored = conn.execute(select(TableRow.creator)).scalar_one()
    text = b"timelord-client:203.0.113.5"
    assert stored != hashlib.sha256(text).hexdigest()[:32]
    secret = server_key(store, "client")
    assert stored == hmac.new(secret, text, hashlib.sha256).hexdigest()[:32]
    assert secret != server_key(store, "cookie")


def test_signing_up_ends_the_session_the_browser_held(web: TestClient) -> None:
    web.post("/api/players", json={"name": "Ace"})
    before = web.cookies[COOKIE]
    assert web.post("/api/players", json={"name": "Bee"}).status_code == 201
    stale = _other(web)
    stale.cookies.set(COOKIE, before)
    assert stale.get("/api/session").status_code == 401
    assert web.get("/api/session").json()["name"] == "Bee"


def test_the_api_viewer_gets_the_headers_but_not_the_script_policy(web: TestClient) -> None:
    """FastAPI's /docs loads its viewer from a CDN with an inline script, and shows no
    player's text: it keeps working, with the other headers."""
    answer = web.get("/docs")
    assert answer.status_code == 200
    assert "content-security-policy" not in answer.headers
    assert answer.headers["referrer-policy"] == "no-referrer"
    assert answer.headers["x-content-type-options"] == "nosniff"
