"""The moves of Episodes. A card is named by suit and FP: equal cards are interchangeable."""

from __future__ import annotations

from dataclasses import dataclass

from timelord.core import Action
from timelord.games.episodes.cards import SUITS


@dataclass(frozen=True, slots=True)
class UseAbility(Action):
    """Action phase: discard this card to use its suit's ability (E-4)."""

    suit: str
    fp: int

    def __str__(self) -> str:
        return f"discard {self.suit} {self.fp} for its ability"


@dataclass(frozen=True, slots=True)
class SkipAbility(Action):
    """Action phase: use no ability this turn."""

    def __str__(self) -> str:
        return "use no ability"


@dataclass(frozen=True, slots=True)
class ChooseOpponent(Action):
    """Foe, Plot or Special ability: the opponent it targets (E-4.4, E-4.5, E-4.7)."""

    seat: int

    def __str__(self) -> str:
        return f"target seat {self.seat}"


@dataclass(frozen=True, slots=True)
class KeepCard(Action):
    """Gadget ability: the one drawn card to keep; the other drawn cards are discarded."""

    suit: str
    fp: int

    def __str__(self) -> str:
        return f"keep {self.suit} {self.fp}"


@dataclass(frozen=True, slots=True)
class PlayEpisode(Action):
    """Episode phase: play one card of each suit; `fps` lists their FP in suit order
    (Doctor, Companion, Gadget, Foe, Plot, Special)."""

    fps: tuple[int, ...]

    def __str__(self) -> str:
        cards = ", ".join(f"{s} {f}" for s, f in zip(SUITS, self.fps, strict=False) if f)
        return f"play an episode: {cards}"


@dataclass(frozen=True, slots=True)
class SkipEpisode(Action):
    """Episode phase: play no episode this turn."""

    def __str__(self) -> str:
        return "play no episode"


@dataclass(frozen=True, slots=True)
class DiscardCard(Action):
    """End phase: discard one card of the excess over the hand limit (E-6)."""

    suit: str
    fp: int

    def __str__(self) -> str:
        return f"discard {self.suit} {self.fp}"


ACTION_TYPES: tuple[type[Action], ...] = (
    UseAbility,
    SkipAbility,
    ChooseOpponent,
    KeepCard,
    PlayEpisode,
    SkipEpisode,
    DiscardCard,
)
