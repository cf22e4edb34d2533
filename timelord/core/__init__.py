"""The game protocol, errors, generator, records and the conformance suite.

`core` imports nothing else of the package; every game builds on it.
"""

from timelord.core.action import Action, decode_action
from timelord.core.door import door
from timelord.core.errors import (
    ConfigError,
    CorruptRecord,
    GameError,
    GameOver,
    IllegalAction,
    InvalidAction,
    InvalidSeat,
)
from timelord.core.events import Event, emit
from timelord.core.game import Game, State, View
from timelord.core.keyed import KeyedRng, generator, is_state, resume
from timelord.core.record import Record, replay, replay_steps
from timelord.core.registry import GAMES, game_class, load, register
from timelord.core.rng import NATIVE, Rng

__all__ = [
    "GAMES",
    "NATIVE",
    "Action",
    "ConfigError",
    "CorruptRecord",
    "Event",
    "Game",
    "GameError",
    "GameOver",
    "IllegalAction",
    "InvalidAction",
    "InvalidSeat",
    "KeyedRng",
    "Record",
    "Rng",
    "State",
    "View",
    "decode_action",
    "door",
    "emit",
    "game_class",
    "generator",
    "is_state",
    "load",
    "register",
    "replay",
    "replay_steps",
    "resume",
]
