"""No hidden card of another seat reaches a seat's page: after some moves at a table of
people, each seat's page source is searched for the other seat's cards it may not know."""

from __future__ import annotations

import json
import random
import urllib.request
from typing import Any

import pytest

import timelord
from timelord.games.clue.notebook import certain
from timelord.games.episodes.cards import CODE_OF

GAMES = {
    "keys": {"players": 2},
    "episodes": {"players": 2},
    "card-game": {"players": 2},
    "clue": {"players": 3},
}


def _call(method: str, url: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(
        url, data=data, method=method, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=30) as answer:
        return json.load(answer)


def _ints(value: Any) -> set[int]:
    if isinstance(value, bool):
        return set()
    if isinstance(value, int):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_ints(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_ints(v) for v in value)) if value else set()
    return set()


def my_hand(view: dict[str, Any]) -> list[str]:
    """The seat's own hand, as its page marks hand cards (`data-card`)."""
    if "hands" in view:  # the Card Game
        return sorted(str(c) for c in view["hands"][view["seat"]]["known"])
    return sorted(str(c) for c in view["hand"])


def hidden_names(game: Any, mine: dict[str, Any], theirs: dict[str, Any]) -> set[str]:
    """Names of cards in the other seat's hand that nothing in my view shows."""
    if game.id == "episodes":
        text = json.dumps(mine)
        seen = {game.deck.name(CODE_OF[x]) for x in CODE_OF if f'"{x}"' in text}
        return {game.deck.name(CODE_OF[x]) for x in theirs["hand"] if f'"{x}"' not in text} - seen
    if game.id == "card-game":
        visible = _ints(mine)
        names = game.cards.name
        seen = {names[c] for c in visible if 0 <= c < len(names)}
        hand = theirs["hands"][theirs["seat"]]["known"]
        return {names[c] for c in hand if c not in visible} - seen
    raise AssertionError(game.id)


@pytest.mark.parametrize("game_id", list(GAMES))
def test_a_seat_page_holds_no_hidden_card_of_another_seat(
    page: Any, server: str, game_id: str
) -> None:
    options = GAMES[game_id]
    n = options["players"]
    game = timelord.load(game_id, **options)
    table = _call(
        "POST",
        f"{server}/api/tables",
        {"game": game_id, "options": options, "seats": ["human"] * n, "seed": 3},
    )
    tokens = [s["token"] for s in table["seats"]]
    api = f"{server}/api/tables/{table['id']}"
    rng = random.Random(3)
    for _ in range(25):
        snap = _call("GET", f"{api}?token={tokens[0]}")
        if snap["over"]:
            break
        seat = snap["to_move"]
        snap = _call("GET", f"{api}?token={tokens[seat]}")
        _call(
            "POST",
            f"{api}/actions?token={tokens[seat]}",
            {"version": snap["version"], "action": rng.choice(snap["legal"])},
        )
    checked = 0
    for me in range(n):
        other = (me + 1) % n
        mine = _call("GET", f"{api}?token={tokens[me]}")["view"]
        theirs = _call("GET", f"{api}?token={tokens[other]}")["view"]
        page.goto(table["seats"][me]["url"])
        page.wait_for_selector(".frame")
        html = page.content()
        hand = page.eval_on_selector_all(
            "[data-hand] [data-card]", "els => els.map(e => e.dataset.card)"
        )
        assert sorted(hand) == my_hand(mine)
        if game_id == "clue":
            known = certain(mine)
            secret = [c for c in theirs["hand"] if c not in known]
            hand_part = html[html.index("Your cards") : html.index("Notebook")]
            for c in secret:
                assert f'data-known="{other}:{c}"' not in html
                # by id and by the card's own name tag: card texts may name other cards
                assert f'data-card="{c}"' not in hand_part
                assert f'<span class="card-name">{game.card_names[c]}</span>' not in hand_part
            checked += len(secret)
            # and what it does know is marked, so the search above looks in the right place
            for c in mine["hand"]:
                assert f'data-known="{me}:{c}"' in html
            continue
        if game_id == "keys":
            # Keys cards are not unique, so names prove nothing: the hand check above is it
            checked += len(theirs["hand"])
            continue
        for name in hidden_names(game, mine, theirs):
            assert name not in html, f"{name} of seat {other} on seat {me}'s page"
            checked += 1
    assert checked > 0, "nothing hidden to look for; the test would prove nothing"
