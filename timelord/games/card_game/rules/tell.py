"""Events the rules append while they apply, when `apply_logged` asks for them (`s.log` is
a list); on the fast path `s.log` is None and each call returns at once.

A card is named in an event only to the seats that know where it is once the step is done
(the knowledge table, exactly as views use it); spectators are told only face-up cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from timelord.core import Event
from timelord.games.card_game.state import CardGameState


def say(s: CardGameState, kind: str, /, **data: Any) -> None:
    """A public event: every seat and the spectator see all of `data`."""
    log = s.log
    if log is not None:
        log.append(Event(kind, data))


def say_hidden(s: CardGameState, kind: str, cards: Sequence[int], /, **data: Any) -> None:
    """An event about face-down `cards`: everyone is told how many (`count`, `cards` of
    None); each seat that knows a card's place sees that card."""
    log = s.log
    if log is None:
        return
    known = s.known
    data["count"] = len(cards)
    data["cards"] = [None] * len(cards)
    groups: dict[tuple[int | None, ...], set[int]] = {}
    for q in range(s.game.players):
        # Known cards first, then the unknown ones: where an unknown card sat among the
        # others would tell something of its number (its design).
        named = sorted(c for c in cards if known[c] >> q & 1)
        if named:
            seen = (*named, *[None] * (len(cards) - len(named)))
            groups.setdefault(seen, set()).add(q)
    private = tuple((frozenset(qs), {"cards": list(seen)}) for seen, qs in groups.items())
    log.append(Event(kind, data, private))


def place(s: CardGameState, L: int) -> dict[str, int]:
    """How events name Location L: its index and its (public) card."""
    return {"location": L, "place": s.loc_card[L]}
