"""timelord: four Doctor Who tabletop games as rules engines, with bots and tools to play them.

>>> import timelord
>>> "episodes" in timelord.GAMES
True
"""

import timelord.games  # noqa: F401  (registers the games)
from timelord.core import (
    GAMES,
    Action,
    ConfigError,
    CorruptRecord,
    Game,
    GameError,
    GameOver,
    IllegalAction,
    InvalidAction,
    NotYourTurn,
    Record,
    Rng,
    StaleState,
    State,
    load,
    replay,
)

__version__ = "0.1.0"

__all__ = [
    "GAMES",
    "Action",
    "ConfigError",
    "CorruptRecord",
    "Game",
    "GameError",
    "GameOver",
    "IllegalAction",
    "InvalidAction",
    "NotYourTurn",
    "Record",
    "Rng",
    "StaleState",
    "State",
    "load",
    "replay",
]
