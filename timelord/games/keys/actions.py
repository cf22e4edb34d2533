"""The moves of Keys to the TARDIS.

Playing a card is one action naming the card and its target; the move that follows is a
second action (or `StayPut`). Cards are named by their id in data/cards.toml ("key-blue",
"sonic", ...); the TARDIS Key tile's bonus names the pseudo-card "tardis-key". Tiles are
indices 0..48, written in text as chess-like squares (a7 = north-west, d4 = Control).
"""

from __future__ import annotations

from dataclasses import dataclass

from timelord.core import Action
from timelord.games.keys.board import tile_name


@dataclass(frozen=True, slots=True)
class DiscardCard(Action):
    """Play a card onto the discard pile without using it (K-6.8)."""

    card: str

    def __str__(self) -> str:
        return f"discard {self.card}"


@dataclass(frozen=True, slots=True)
class OpenDoor(Action):
    """Open a closed door with a Key, a Sonic Screwdriver or the TARDIS Key bonus."""

    tile: int
    card: str

    def __str__(self) -> str:
        return f"open {tile_name(self.tile)} with {self.card}"


@dataclass(frozen=True, slots=True)
class CloseDoor(Action):
    """Close an open, empty door with a Key, a Sonic Screwdriver or the TARDIS Key bonus."""

    tile: int
    card: str

    def __str__(self) -> str:
        return f"close {tile_name(self.tile)} with {self.card}"


@dataclass(frozen=True, slots=True)
class RemoveBarrier(Action):
    """Take a Time Barrier off a tile with a Sonic Screwdriver (K-6.2)."""

    tile: int

    def __str__(self) -> str:
        return f"remove the barrier on {tile_name(self.tile)} with sonic"


@dataclass(frozen=True, slots=True)
class PlaceBarrier(Action):
    """Put a Time Barrier on a tile (K-6.3)."""

    tile: int

    def __str__(self) -> str:
        return f"place a barrier on {tile_name(self.tile)}"


@dataclass(frozen=True, slots=True)
class PlaceCookie(Action):
    """Put a Jam Cookie on a Dalek door whose back has been seen, opening it for good (K-6.4)."""

    tile: int

    def __str__(self) -> str:
        return f"place a jam cookie on {tile_name(self.tile)}"


@dataclass(frozen=True, slots=True)
class PlacePandorica(Action):
    """Put the Pandorica under an opponent's pawn (K-6.5)."""

    seat: int

    def __str__(self) -> str:
        return f"place the pandorica under seat {self.seat}"


@dataclass(frozen=True, slots=True)
class AssaultPawn(Action):
    """Cyberman Assault: move an opponent's pawn one step to `tile` (K-6.6)."""

    seat: int
    tile: int

    def __str__(self) -> str:
        return f"cyberman assault: push seat {self.seat} to {tile_name(self.tile)}"


@dataclass(frozen=True, slots=True)
class PlaceTunnel(Action):
    """Lay a Time Tunnel between two diagonally adjacent tiles, `tile` < `other` (K-6.7)."""

    tile: int
    other: int

    def __str__(self) -> str:
        return f"place a time tunnel {tile_name(self.tile)}-{tile_name(self.other)}"


@dataclass(frozen=True, slots=True)
class MovePawn(Action):
    """Move your pawn onto `tile`, or enter the TARDIS there from off the board (K-4)."""

    tile: int

    def __str__(self) -> str:
        return f"move to {tile_name(self.tile)}"


@dataclass(frozen=True, slots=True)
class StepOff(Action):
    """Step off the board over your own edge, to re-enter later (K-4.4)."""

    def __str__(self) -> str:
        return "step off the board"


@dataclass(frozen=True, slots=True)
class StayPut(Action):
    """End the turn without moving (K-3.3)."""

    def __str__(self) -> str:
        return "stay put"


@dataclass(frozen=True, slots=True)
class ForgoBonus(Action):
    """Give up the TARDIS Key tile's bonus open-or-close (K-5.6)."""

    def __str__(self) -> str:
        return "forgo the tardis key bonus"


ACTION_TYPES: tuple[type[Action], ...] = (
    DiscardCard,
    OpenDoor,
    CloseDoor,
    RemoveBarrier,
    PlaceBarrier,
    PlaceCookie,
    PlacePandorica,
    AssaultPawn,
    PlaceTunnel,
    MovePawn,
    StepOff,
    StayPut,
    ForgoBonus,
)
