"""The agent interface: a bot sees only its seat's view and the legal actions.

Agents never receive a state. Search agents rebuild states through `game.sample_state`, so
they can use nothing their seat could not see at the table.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence

from timelord.core import Action, Game, Rng, View


class Agent(ABC):
    """Chooses actions for one seat of one game."""

    #: Short name used in seat specs and reports ("random", "ismcts:hard").
    name: str = "agent"
    #: Wall-clock seconds one decision may take (None: no cap). Searching agents stop at it
    #: with what they have found; the server sets it so no bot stalls a table, research runs
    #: leave it unset so a seed replays exactly.
    time_cap: float | None = None
    #: Decisions so far that the clock (the time cap, or a level's own time budget) cut
    #: short: a calibration reports how often the cap, not the level, set a bot's strength.
    capped: int = 0

    def __init__(self, game: Game) -> None:
        self.game = game

    @abstractmethod
    def act(self, view: View, legal: Sequence[Action], rng: Rng) -> Action:
        """One of `legal`, chosen from what `view` shows; all randomness drawn from `rng`."""

    def act_on(self, view_of: Callable[[], View], legal: Sequence[Action], rng: Rng) -> Action:
        """`act` on the view `view_of()` builds, which an agent that never reads the view
        (the random agent) does not call: building every seat's view at every move was half
        of a simulation's time. Same choice, same draws as `act`."""
        return self.act(view_of(), legal, rng)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"
