"""The game protocol: a stateless `Game` (rules + options) and immutable `State`s.

Every game implements these two classes. `State.apply` is the checked path (illegal moves
raise `IllegalAction` with a reason and a clause id); `State.apply_unchecked` is the fast
path for search and playouts, for actions taken from `legal_actions()` of that state.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar

from timelord.core.action import Action, decode_action
from timelord.core.errors import GameOver, IllegalAction, InvalidAction
from timelord.core.rng import Rng

View = dict[str, Any]


class Game(ABC):
    """Rules and options of one game; holds no position. Build one with `timelord.load`."""

    id: ClassVar[str]
    description: ClassVar[str]
    action_types: ClassVar[tuple[type[Action], ...]]

    #: The game's options in canonical JSON form; a record stores these to rebuild the game.
    options: dict[str, Any]
    players: int

    @property
    @abstractmethod
    def max_actions(self) -> int:
        """An upper bound on the actions in one game; every game ends within it."""

    @abstractmethod
    def new_game(self, seed: int) -> State:
        """The opening state; the same seed gives the same game."""

    @abstractmethod
    def state_from_json(self, data: Mapping[str, Any]) -> State:
        """Read back `State.to_json()`; `CorruptRecord` if it is not a valid state."""

    @abstractmethod
    def sample_state(self, view: View, rng: Rng) -> State:
        """A full state whose view for `view['seat']` equals `view`, hidden parts dealt at random.

        Search agents build every state they look at through this, so they never see what
        their seat may not know.
        """

    def action_from_json(self, data: Any) -> Action:
        """Read back `Action.to_json()`; `InvalidAction` if malformed."""
        return decode_action(data, self.action_types)

    def render_view(self, view: View) -> str:
        """Plain-text picture of what a seat knows, for terminals and logs."""
        import json

        return json.dumps(view, indent=1, sort_keys=True)

    def seat_name(self, seat: int) -> str:
        """How the table calls a seat in text."""
        return f"Seat {seat}"

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in sorted(self.options.items()))
        return f"<{type(self).__name__} {self.id} {opts}>"


def _offered(action: Action, legal: list[Action]) -> bool:
    """Whether `action` is among `legal`; identity first, since callers mostly pass back one
    of the listed objects and dataclass equality across many actions costs more than a move."""
    for candidate in legal:
        if candidate is action:
            return True
    return action in legal


class State(ABC):
    """One position of one game. Never changed after it is built: `apply` returns a new one."""

    game: Game

    @property
    @abstractmethod
    def to_move(self) -> int | None:
        """The seat that must decide now; None once the game is over."""

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """Every action allowed now, in a stable order; empty only when the game is over."""

    @abstractmethod
    def apply_unchecked(self, action: Action) -> State:
        """The next state, trusting that `action` came from `legal_actions()`."""

    @property
    @abstractmethod
    def is_over(self) -> bool:
        """Whether the game has ended."""

    @abstractmethod
    def scores(self) -> list[float]:
        """Each seat's score (the game's own points; winners hold the highest)."""

    @abstractmethod
    def winners(self) -> list[int]:
        """Seats that won (several share a tie; empty if nobody won or not over)."""

    @abstractmethod
    def view(self, seat: int | None) -> View:
        """JSON-safe dict of all that `seat` knows; None gives the spectator's view."""

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """Canonical JSON form; `game.state_from_json` reads it back exactly."""

    def apply(self, action: Action) -> State:
        """The next state after `action`; `IllegalAction` with reason and rule if not allowed."""
        if not isinstance(action, Action):
            raise InvalidAction(f"not an action: {action!r}")
        if self.is_over:
            raise GameOver("the game is over; no more moves", "end")
        if not _offered(action, self.legal_actions()):
            raise self.why_illegal(action)
        return self.apply_unchecked(action)

    def why_illegal(self, action: Action) -> IllegalAction:
        """The error explaining why `action` (not in legal_actions) is refused now.

        Games override this to name the rule clause; this fallback only says it is not allowed.
        """
        return IllegalAction(f"{action} is not allowed now", "")

    def describe(self, action: Action, seat: int | None) -> str:
        """One sentence telling `seat` what the player to move did, hiding what `seat` may not
        see. It names the actor ("You ..." to the actor itself), so interfaces print it as is.
        This fallback prints the actor and the action's text."""
        actor = self.to_move
        who = "You" if seat == actor else "?" if actor is None else self.game.seat_name(actor)
        return f"{who}: {action}"

    @property
    def players(self) -> int:
        return self.game.players
