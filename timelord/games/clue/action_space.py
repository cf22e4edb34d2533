"""The fixed action space of Clue: every move the game can ever offer, in a fixed order.

Built from the board and the card data; index = position. Order: RollDice, UsePassage per
location, StayPut, Move per board node (locations, the TARDIS, squares), NameCard and
ShowCard per card, LookAtSideCard per side card (the two-player variant), Accuse, EndTurn,
PlayCard per intrigue action card, UsePower, Target per seat, DrawIntrigue, Pass.
"""

from __future__ import annotations

from weakref import WeakKeyDictionary

from timelord.core import Action
from timelord.games.clue.actions import (
    Accuse,
    DrawIntrigue,
    EndTurn,
    LookAtSideCard,
    Move,
    NameCard,
    Pass,
    PlayCard,
    RollDice,
    ShowCard,
    StayPut,
    Target,
    UsePassage,
    UsePower,
)
from timelord.games.clue.state import SIDE_CARDS, ClueRules

_CACHE: WeakKeyDictionary[ClueRules, tuple[Action, ...]] = WeakKeyDictionary()


def action_space(game: ClueRules) -> tuple[Action, ...]:
    """Every action `game` can offer, built once per game."""
    space = _CACHE.get(game)
    if space is None:
        space = _CACHE[game] = _build(game)
    return space


def _build(game: ClueRules) -> tuple[Action, ...]:
    cards = range(len(game.card_names))
    out: list[Action] = [RollDice()]
    out += [UsePassage(r) for r in range(game.board.rooms)]
    out.append(StayPut())
    out += [Move(n) for n in range(game.board.nodes)]
    out += [NameCard(c) for c in cards]
    out += [ShowCard(c) for c in cards]
    out += [LookAtSideCard(i) for i in range(SIDE_CARDS)]
    out += [Accuse(), EndTurn()]
    out += [PlayCard(k) for k in sorted(game.effect)]
    out.append(UsePower())
    out += [Target(seat) for seat in range(game.players)]
    out += [DrawIntrigue(), Pass()]
    return tuple(out)
