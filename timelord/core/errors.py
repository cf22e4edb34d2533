"""The error hierarchy shared by every game and interface.

Interfaces (CLI, server) turn these into stable codes; rules raise them with a readable
reason and, for illegal moves, the id of the rule clause that forbids the move.
"""

from __future__ import annotations


class GameError(Exception):
    """Root of every error the package raises on purpose."""

    code = "game/error"


class ConfigError(GameError, ValueError):
    """Unknown game id, or options a game does not accept."""

    code = "config/invalid"


class InvalidAction(GameError, ValueError):
    """An action that is malformed: unknown type, missing or ill-typed fields."""

    code = "action/invalid"


class IllegalAction(GameError, ValueError):
    """A well-formed action that the rules do not allow now.

    `reason` says why in words a player understands; `rule` names the clause of the game's
    RULES.md that forbids it (empty when no single clause does).
    """

    code = "action/illegal"

    def __init__(self, reason: str, rule: str = "") -> None:
        super().__init__(f"{reason} [{rule}]" if rule else reason)
        self.reason = reason
        self.rule = rule


class NotYourTurn(IllegalAction):
    """An action offered by a seat that does not have to decide now."""

    code = "action/not_your_turn"


class GameOver(IllegalAction):
    """An action offered after the game has ended."""

    code = "action/game_over"


class StaleState(GameError):
    """An action made against a state version that is no longer current (web layer)."""

    code = "action/stale"


class CorruptRecord(GameError, ValueError):
    """A saved state or record that cannot be read back."""

    code = "record/corrupt"


class InvalidSeat(GameError, ValueError):
    """A seat number that is not at this table (only None and 0..players-1 are)."""

    code = "seat/invalid"
