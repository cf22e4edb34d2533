"""The games and player counts every adapter test covers."""

from __future__ import annotations

PLAYERS = {
    "card-game": (2, 3, 4),
    "clue": (2, 3, 4, 5, 6),
    "episodes": (2, 3, 4, 5, 6),
    "keys": (2, 3, 4),
}
CASES = [(g, n) for g, counts in PLAYERS.items() for n in counts]
