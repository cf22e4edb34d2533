"""Moves a person confirms at the terminal before they are made: those that cannot be taken
back and may cost the game, as the browser confirms them (`server/boards`)."""

from __future__ import annotations

from timelord.core import Action, Game

#: (game id, action type) -> the question asked before the move is made
CONFIRM: dict[tuple[str, str], str] = {
    ("clue", "Accuse"): (
        "Accuse now? You will name a suspect, a weapon and a location, and look in the "
        "envelope. Once begun it cannot be taken back (C-5.1). If any of the three is wrong, "
        "you are out of the game: no more turns, only answering rumours (C-5.3)."
    ),
}


def confirm_text(game: Game, action: Action) -> str:
    """What to ask before `action` is made, or '' when it needs no confirming."""
    return CONFIRM.get((game.id, type(action).__name__), "")
