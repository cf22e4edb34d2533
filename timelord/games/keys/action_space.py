"""The fixed action space of The Keys to Time: every move the game can ever offer.

The rules already build every action once (`rules.Tables`, by card, tile and seat); the space
lists those tables in a fixed order, index = position: DiscardCard per card, OpenDoor and
CloseDoor per card (and the TARDIS Key bonus) and tile, RemoveBarrier, PlaceBarrier and
PlaceCookie per tile, PlacePandorica per seat, AssaultPawn per seat and tile, PlaceTunnel per
tunnel slot, MovePawn per tile, StepOff, StayPut, ForgoBonus.
"""

from __future__ import annotations

from weakref import WeakKeyDictionary

from timelord.core import Action
from timelord.games.keys.state import KeysRules

_CACHE: WeakKeyDictionary[KeysRules, tuple[Action, ...]] = WeakKeyDictionary()


def action_space(game: KeysRules) -> tuple[Action, ...]:
    """Every action `game` can offer (the shared objects of its tables), listed once."""
    space = _CACHE.get(game)
    if space is None:
        space = _CACHE[game] = _build(game)
    return space


def _build(game: KeysRules) -> tuple[Action, ...]:
    t = game.tables
    out: list[Action] = list(t.discard)
    for row in (*t.open_, *t.close):
        out += row
    out += [*t.remove, *t.barrier, *t.cookie, *t.pandorica]
    for row in t.assault:
        out += row
    out += [*t.tunnel, *t.move, t.step_off, t.stay, t.forgo]
    return tuple(out)
