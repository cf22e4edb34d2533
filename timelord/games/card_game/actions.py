"""The moves of the Card Game. Card fields hold physical card ids; locations are indices.

Multi-card plays are sequences (`PlayDefender`, `PlayDefender`, `Finish`), so each legal
action list stays small. `__str__` names cards as `Name#id` (the id keeps it exact);
`CardGame.action_label` gives a seat's menu line and `describe` what an applied action did.
"""

from __future__ import annotations

from dataclasses import dataclass

from timelord.core import Action
from timelord.games.card_game.cards import standard_cards


def _c(card: int) -> str:
    """A card as `Name#id` (names of the standard card set; ids beyond it stay bare)."""
    names = standard_cards().name
    return f"{names[card]}#{card}" if 0 <= card < len(names) else f"card {card}"


def _cs(cards: tuple[int, ...]) -> str:
    return ", ".join(_c(c) for c in cards)


@dataclass(frozen=True, slots=True)
class PlayLocation(Action):
    card: int

    def __str__(self) -> str:
        return f"play the Location {_c(self.card)}"


@dataclass(frozen=True, slots=True)
class PlayDefender(Action):
    """Declare one Defender for `location` (more may follow; `Finish` places them)."""

    card: int
    location: int

    def __str__(self) -> str:
        return f"declare the Defender {_c(self.card)} for location {self.location}"


@dataclass(frozen=True, slots=True)
class PlayEnemy(Action):
    """Declare one Enemy against `location` (more may follow; `Finish` places them)."""

    card: int
    location: int

    def __str__(self) -> str:
        return f"declare the Enemy {_c(self.card)} against location {self.location}"


@dataclass(frozen=True, slots=True)
class TakeOver(Action):
    """Play a take-over Enemy (Davros, Cyberking) on another player's face-up attack."""

    card: int
    location: int

    def __str__(self) -> str:
        return f"take over the attack on location {self.location} with {_c(self.card)}"


@dataclass(frozen=True, slots=True)
class PlaySupport(Action):
    """Play a Support card. `location`, `target` and `extra` are -1 when the card needs none.

    `target` is the enemy slot (Captain Jack) or the destination location (Chameleon Arch);
    `extra` is the Defender card K-9 costs.
    """

    card: int
    location: int = -1
    target: int = -1
    extra: int = -1

    def __str__(self) -> str:
        parts = [f"play {_c(self.card)}"]
        if self.location >= 0:
            parts.append(f"on location {self.location}")
        if self.target >= 0:
            parts.append(f"target {self.target}")
        if self.extra >= 0:
            parts.append(f"discarding {_c(self.extra)}")
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class PlaceReserve(Action):
    cards: tuple[int, ...]

    def __str__(self) -> str:
        return "put in reserve: " + _cs(self.cards)


@dataclass(frozen=True, slots=True)
class PickUp(Action):
    """Take a card from the reserve into the hand (not an action of the rulebook's kind)."""

    card: int

    def __str__(self) -> str:
        return f"pick up {_c(self.card)} from the reserve"


@dataclass(frozen=True, slots=True)
class BuyCards(Action):
    count: int

    def __str__(self) -> str:
        return f"buy {self.count} card" + ("" if self.count == 1 else "s")


@dataclass(frozen=True, slots=True)
class DiscardForTime(Action):
    cards: tuple[int, ...]

    def __str__(self) -> str:
        return "discard for Time Points: " + _cs(self.cards)


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    def __str__(self) -> str:
        return "end turn (pass hand right, draw)"


@dataclass(frozen=True, slots=True)
class Finish(Action):
    """Close the current sequence (declared cards, Mr Clever, Regeneration)."""

    def __str__(self) -> str:
        return "finish"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Decline an optional choice (Ironsides, The Valiant, a TARDIS counter)."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class TakeTime(Action):
    """Take one Time Point from `seat` (the supply ran out while playing a Location)."""

    seat: int

    def __str__(self) -> str:
        return f"take a Time Point from seat {self.seat}"


@dataclass(frozen=True, slots=True)
class RemoveTardis(Action):
    location: int

    def __str__(self) -> str:
        return f"remove the TARDIS counter from location {self.location}"


@dataclass(frozen=True, slots=True)
class PlaceTardis(Action):
    def __str__(self) -> str:
        return "place a TARDIS counter"


@dataclass(frozen=True, slots=True)
class DiscardToRegenerate(Action):
    card: int

    def __str__(self) -> str:
        return f"discard {_c(self.card)} (Regeneration)"


@dataclass(frozen=True, slots=True)
class UseIronsides(Action):
    def __str__(self) -> str:
        return "pay for Ironsides: +1 defence"


@dataclass(frozen=True, slots=True)
class PlayValiant(Action):
    card: int

    def __str__(self) -> str:
        return f"play {_c(self.card)}: take the Defenders back"


@dataclass(frozen=True, slots=True)
class DiscardEnemies(Action):
    """The winning attacker's choice of Enemy cards to discard (closest to the defence)."""

    cards: tuple[int, ...]

    def __str__(self) -> str:
        return "discard the Enemies " + (_cs(self.cards) or "(none)")


ACTION_TYPES: tuple[type[Action], ...] = (
    PlayLocation,
    PlayDefender,
    PlayEnemy,
    TakeOver,
    PlaySupport,
    PlaceReserve,
    PickUp,
    BuyCards,
    DiscardForTime,
    EndTurn,
    Finish,
    Pass,
    TakeTime,
    RemoveTardis,
    PlaceTardis,
    DiscardToRegenerate,
    UseIronsides,
    PlayValiant,
    DiscardEnemies,
)
