"""Doctor Who: Keys to the TARDIS."""

from timelord.games.keys.game import KeysGame
from timelord.games.keys.state import KeysState

__all__ = ["KeysGame", "KeysState"]
