"""Scenario helpers: build a Clue position by editing a new game's JSON form."""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest

import timelord
from timelord.games.clue.doors import read_state
from timelord.games.clue.game import ClueGame
from timelord.games.clue.state import ClueState

# Card ints (data order): suspects 0-5, weapons 6-11, locations 12-20; rooms 0-8, TARDIS 9.
AMY, STRAX, VASTRA, CLARA, JENNY, RIVER = range(6)
LIPSTICK, CYBERGUN, VORTEX, STRAXGUN, SONIC, MOMENT = range(6, 12)
PLATFORM, MOON, GALLIFREY, SKARO, TRENZALORE, LIBRARY, STARSHIP, DEMONS, LONDON = range(12, 21)
TARDIS = 9


def room(card: int) -> int:
    """The board node of a location card."""
    return card - 12


Build = Callable[..., ClueState]


def _build() -> Build:
    """build(players=4, game_options..., field=value...) -> a state with those JSON fields.

    Unless given, hands are dealt in order (seat p gets the p-th slice of the non-envelope
    cards), the envelope is (Amy, Lipstick, Platform One) and characters are seat p = suspect p.
    """

    def make(players: int = 4, options: dict[str, Any] | None = None, **fields: Any) -> ClueState:
        game = timelord.load("clue", players=players, **(options or {}))
        assert isinstance(game, ClueGame)
        data = game.new_game(1).to_json()
        env = [AMY, LIPSTICK, PLATFORM]
        rest = [c for c in range(21) if c not in env]
        side: list[int] = []
        if game.variant == "two-player":
            side, rest = rest[:4], rest[4:]
        each = len(rest) // players
        data["envelope"] = env
        data["side"] = side
        data["hands"] = [rest[p * each : (p + 1) * each] for p in range(players)]
        data["leftovers"] = rest[players * each :]
        data["characters"] = list(range(players))
        data.update(fields)
        # Hand-made positions (a pile of one Pocketwatch, a rumour without its history) are
        # not reachable from a deal, so they skip the door's reachability check.
        return read_state(game, data)

    return make


def play(state: ClueState, *actions: Any) -> ClueState:
    for a in actions:
        state = state.apply(a)
    return state


@pytest.fixture
def h() -> SimpleNamespace:
    """Everything a scenario test needs: h.build(...), h.play(state, *actions), card names."""
    names = {k: v for k, v in globals().items() if k.isupper() and isinstance(v, int)}
    return SimpleNamespace(build=_build(), play=play, room=room, **names)
