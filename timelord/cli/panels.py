"""Extra things a game shows a person at the terminal besides its view (Clue's notebook)."""

from __future__ import annotations

from collections.abc import Callable

from timelord.core import Game, View

#: game id -> panel(game, view, with_odds) -> text
Panel = Callable[[Game, View, bool], str]


def _clue_odds(game: Game, view: View, with_odds: bool) -> str:
    """The deducer's envelope odds beside the notebook that Clue's view already draws."""
    from timelord.games.clue.game import ClueGame
    from timelord.games.clue.notebook import certain, envelope_odds

    if not with_odds or view.get("seat") is None:
        return ""
    odds = envelope_odds(view)
    if odds is None:
        return ""
    assert isinstance(game, ClueGame)
    names = [*game.suspects, *game.weapons, *game.locations]
    settled = certain(view)
    lines = ["Deducer's odds that each open card is in the envelope ('n' turns this off):"]
    for title, category in zip(("Who?", "What?", "Where?"), view["categories"], strict=True):
        open_cards = sorted((c for c in category if c not in settled), key=lambda c: -odds[c])
        shown = ", ".join(f"{names[c]} {100 * odds[c]:.0f}%" for c in open_cards)
        lines.append(f"  {title:<7} {shown or 'solved'}")
    return "\n".join(lines)


_PANELS: dict[str, Panel] = {"clue": _clue_odds}


def panel_for(game: Game) -> Panel | None:
    """The game's extra panel, or None; `with_odds` turns deduced probabilities on or off."""
    return _PANELS.get(game.id)
