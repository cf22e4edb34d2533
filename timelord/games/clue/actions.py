"""The moves of Clue: Doctor Who. Each is a small frozen value with a readable text."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from timelord.core import Action
from timelord.games.clue.board import FIRST_SQUARE, TARDIS, cards_data, standard_board


@lru_cache(maxsize=1)
def _names() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Card names and location names of the standard data, for readable action texts."""
    data = cards_data()
    cards = tuple(x["name"] for key in ("suspect", "weapon", "location") for x in data[key])
    return cards, tuple(loc["name"] for loc in data["location"])


def card_text(card: int) -> str:
    cards = _names()[0]
    return cards[card] if 0 <= card < len(cards) else f"card {card}"


def node_text(node: int) -> str:
    locations = _names()[1]
    if 0 <= node < len(locations):
        return locations[node]
    if node == TARDIS:
        return "the TARDIS"
    board = standard_board()
    if FIRST_SQUARE <= node < board.nodes:
        return board.square_name(node)
    return f"node {node}"


@dataclass(frozen=True, slots=True)
class RollDice(Action):
    """Roll both dice to move (the start of a normal turn)."""

    def __str__(self) -> str:
        return "roll the dice"


@dataclass(frozen=True, slots=True)
class UsePassage(Action):
    """Take a secret passage or joining door to `location` instead of rolling."""

    location: int

    def __str__(self) -> str:
        return f"take the passage to {node_text(self.location)}"


@dataclass(frozen=True, slots=True)
class StayPut(Action):
    """Stay in the location another player's rumour moved you to, and make a rumour there."""

    def __str__(self) -> str:
        return "stay here and make a rumour"


@dataclass(frozen=True, slots=True)
class Move(Action):
    """Move the mover to board node `to` (a location, the TARDIS or a square)."""

    to: int

    def __str__(self) -> str:
        return f"move to {node_text(self.to)}"


@dataclass(frozen=True, slots=True)
class NameCard(Action):
    """Name `card` in the rumour or accusation being made."""

    card: int

    def __str__(self) -> str:
        return f"name {card_text(self.card)}"


@dataclass(frozen=True, slots=True)
class ShowCard(Action):
    """Show `card` from your hand to the player who made the rumour."""

    card: int

    def __str__(self) -> str:
        return f"show {card_text(self.card)}"


@dataclass(frozen=True, slots=True)
class LookAtSideCard(Action):
    """Two-player game: look at the face-down side card at position `index` (0-3)."""

    index: int

    def __str__(self) -> str:
        return f"look at side card {self.index + 1}"


@dataclass(frozen=True, slots=True)
class Accuse(Action):
    """Begin an accusation (only in the TARDIS); the three cards are named next."""

    def __str__(self) -> str:
        return "make an accusation"


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """End the turn in the TARDIS without accusing."""

    def __str__(self) -> str:
        return "end the turn"


@dataclass(frozen=True, slots=True)
class PlayCard(Action):
    """Play a kept intrigue action card (by its id, e.g. 'vortex-jump')."""

    card: str

    def __str__(self) -> str:
        return f"play {self.card}"


@dataclass(frozen=True, slots=True)
class UsePower(Action):
    """Use your character's once-per-game power."""

    def __str__(self) -> str:
        return "use the character power"


@dataclass(frozen=True, slots=True)
class Target(Action):
    """Choose `seat` as the target of a scan."""

    seat: int

    def __str__(self) -> str:
        return f"target seat {self.seat}"


@dataclass(frozen=True, slots=True)
class DrawIntrigue(Action):
    """Draw an intrigue card when another player's rumour moved your mover."""

    def __str__(self) -> str:
        return "draw an intrigue card"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Decline an optional card, power or draw."""

    def __str__(self) -> str:
        return "pass"


ACTION_TYPES: tuple[type[Action], ...] = (
    RollDice,
    UsePassage,
    StayPut,
    Move,
    NameCard,
    ShowCard,
    LookAtSideCard,
    Accuse,
    EndTurn,
    PlayCard,
    UsePower,
    Target,
    DrawIntrigue,
    Pass,
)
