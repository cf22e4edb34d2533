"""The error hierarchy shared by every game and interface.

Rules raise them with a readable reason and, for illegal moves, the id of the rule clause
that forbids the move; each interface maps the classes to its own words (the server's stable
codes are `timelord.server.errors.Code`, chosen by the class caught, so the errors carry none).
"""

from __future__ import annotations


class GameError(Exception):
    """Root of every error the package raises on purpose."""


class ConfigError(GameError, ValueError):
    """Unknown game id, or options a game does not accept."""


class InvalidAction(GameError, ValueError):
    """An action that is malformed: unknown type, missing or ill-typed fields."""


class IllegalAction(GameError, ValueError):
    """A well-formed action that the rules do not allow now.

    `reason` says why in words a player understands; `rule` names the clause of the game's
    RULES.md that forbids it (empty when no single clause does).
    """

    def __init__(self, reason: str, rule: str = "") -> None:
        super().__init__(f"{reason} [{rule}]" if rule else reason)
        self.reason = reason
        self.rule = rule


class GameOver(IllegalAction):
    """An action offered after the game has ended."""


class CorruptRecord(GameError, ValueError):
    """A saved state or record that cannot be read back."""


class InvalidSeat(GameError, ValueError):
    """A seat number that is not at this table (only None and 0..players-1 are)."""
