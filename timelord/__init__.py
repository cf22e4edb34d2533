"""timelord: four Doctor Who tabletop games as rules engines, with bots and tools to play them.

>>> import timelord
>>> "episodes" in timelord.GAMES
True
"""

from timelord.build import install as _install_build

#: Whether the mypyc-compiled rules core runs (see timelord/build.py), and that in words.
COMPILED, BUILD = _install_build()

import timelord.games  # noqa: E402, F401  (registers the games)
from timelord.core import (  # noqa: E402
    GAMES,
    Action,
    ConfigError,
    CorruptRecord,
    Game,
    GameError,
    GameOver,
    IllegalAction,
    InvalidAction,
    InvalidSeat,
    Record,
    Rng,
    State,
    load,
    replay,
)

__version__ = "0.1.0"

__all__ = [
    "BUILD",
    "COMPILED",
    "GAMES",
    "Action",
    "ConfigError",
    "CorruptRecord",
    "Game",
    "GameError",
    "GameOver",
    "IllegalAction",
    "InvalidAction",
    "InvalidSeat",
    "Record",
    "Rng",
    "State",
    "load",
    "replay",
]
