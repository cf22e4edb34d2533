"""The game protocol: a stateless `Game` (rules + options) and immutable `State`s.

Every game implements these two classes. `State.apply` is the checked path (illegal moves
raise `IllegalAction` with a reason and a clause id); `State.apply_unchecked` is the fast
path for search and playouts, for actions taken from `legal_actions()` of that state.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from timelord.core.action import Action, decode_action
from timelord.core.errors import ConfigError, GameOver, IllegalAction, InvalidAction, InvalidSeat
from timelord.core.events import Event
from timelord.core.rng import Rng
from timelord.core.viewcache import snapshot

View = dict[str, Any]


class Game(ABC):
    """Rules and options of one game; holds no position. Build one with `timelord.load`."""

    id: ClassVar[str]
    description: ClassVar[str]
    action_types: ClassVar[tuple[type[Action], ...]]
    #: Each option's meaning, default and allowed range in words, for `timelord games GAME`.
    options_doc: ClassVar[Mapping[str, str]] = {}

    #: The rules versions this game can play, oldest first; the last is the current one. A
    #: rule change that alters what a recorded game does adds a version and keeps the old
    #: behaviour behind it (docs/rulings.md names what each version changed).
    rules_versions: ClassVar[tuple[int, ...]] = (1,)
    #: The versions a record or stored table naming none may have been played under, most
    #: recent first: they were written before versions were kept (see `core.record.rules_of`).
    unversioned: ClassVar[tuple[int, ...]] = (1,)

    #: The game's options in canonical JSON form; a record stores these to rebuild the game.
    #: They always include `rules`, the version played, so a record replays under its rules.
    options: dict[str, Any]
    players: int
    #: the rules version this game plays (option `rules`, default the current one)
    rules: int

    @classmethod
    def check_rules(cls, rules: Any) -> int:
        """`rules` if this game can play that version (None: the current one); ConfigError
        if not."""
        if rules is None:
            return cls.rules_versions[-1]
        if isinstance(rules, bool) or rules not in cls.rules_versions:
            raise ConfigError(
                f"{cls.id}: rules must be one of the versions {list(cls.rules_versions)}, "
                f"not {rules!r}"
            )
        return int(rules)

    @property
    @abstractmethod
    def max_actions(self) -> int:
        """An upper bound on the actions in one game; every game ends within it."""

    @abstractmethod
    def new_game(self, seed: int | Rng) -> State:
        """The opening state; the same seed gives the same game. A generator may stand for
        the seed (a served table's `KeyedRng`): the game draws from it (`generator(seed)`)
        and keeps its state, resuming it with `resume(state.rng)` for every later draw."""

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

    def check_seat(self, seat: Any) -> int | None:
        """`seat` if it is None (a spectator) or a seat at this table; `InvalidSeat` if not."""
        if seat is None:
            return None
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise InvalidSeat(f"no seat {seat!r} at a {self.players}-player table")
        return seat

    def event_text(self, kind: str, data: Mapping[str, Any], seat: int | None) -> str:
        """The sentence telling `seat` of an event, made only from `data` as that seat sees it
        (`Event.seen_by(seat)`), so it cannot leak. Games override this with their own words."""
        actor = data.get("actor")
        who = "You" if actor is not None and actor == seat else self._who(actor)
        return f"{who}: {data.get('text', kind)}"

    def _who(self, seat: Any) -> str:
        return self.seat_name(seat) if isinstance(seat, int) else "The game"

    def tell(self, events: Sequence[Event], seat: int | None) -> list[dict[str, Any]]:
        """Each event as `seat` may know it: `{"kind", "text", "data"}`, JSON-safe."""
        out = []
        for event in events:
            data = event.seen_by(seat)
            out.append(
                {"kind": event.kind, "text": self.event_text(event.kind, data, seat), "data": data}
            )
        return out

    def glossary(self) -> Mapping[str, Mapping[str, str]]:
        """Short texts of what each card, tile, ability, power or action card does, by name:
        `{"text": ..., "source": "confirmed" | "reconstruction" | ...}`, from the game's data."""
        return {}

    def action_label(self, view: View, action: Action) -> str:
        """How a menu names an offered `action` for the seat of `view` (for example a Clue
        move named by where it leads); only from the view, so it cannot leak."""
        return str(action)

    def action_card(self, action: Action) -> str | None:
        """The `glossary` name of the card, tile or power `action` plays or uses, if any,
        so interfaces can show its text beside the move."""
        return None

    def action_space(self) -> Sequence[Action]:
        """Every action this game can ever offer, in a fixed order (index = action id).

        Adapters use it for fixed action indices and interfaces to read moves a player types
        that are not offered now (to say why not)."""
        raise NotImplementedError(f"{self.id} has no fixed action space")

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in sorted(self.options.items()))
        return f"<{type(self).__name__} {self.id} {opts}>"

    # A game is its class and its options (a record rebuilds it from them), so that is what
    # pickling sends, not its caches (a lock, closures), and copying one gives itself.

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_game, (type(self), dict(self.options)))

    def __copy__(self) -> Game:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        return self


def _rebuild_game(cls: Callable[..., Game], options: dict[str, Any]) -> Game:
    """The game of class `cls` with `options`, as unpickled."""
    return cls(**options)


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

    def legal_count(self) -> int:
        """How many actions `legal_actions()` lists. Games that can count their moves without
        building them override this and `legal_at` (with `random_legal`)."""
        return len(self.legal_actions())

    def legal_at(self, i: int) -> Action:
        """`legal_actions()[i]` for 0 <= i < `legal_count()`, where a game can build just that
        one (a search expanding a new node wants one move, not the list)."""
        return self.legal_actions()[i]

    def random_legal(self, rng: Rng) -> Action:
        """One legal action drawn uniformly: exactly `legal[rng.below(len(legal))]` of
        `legal = legal_actions()`, with the same draws, so playouts replay bit for bit.
        A game with a counted enumeration overrides it as
        `self.legal_at(rng.below(self.legal_count()))`, never building the list."""
        legal = self.legal_actions()
        return legal[rng.below(len(legal))]

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

    def reveals(self, action: Action) -> bool:
        """Whether taking `action` (legal here) draws chance (a shuffle, a roll, a card from a
        deck) or shows any seat something it did not know (a card, a tile's back, that a
        hand lacks or holds a card). Taking back an action (the server's undo) is safe only
        when this is False, so a game must never answer False for an action that teaches a
        seat anything; the conformance suite checks each game's answer against sampled
        worlds. This default answers True, which is always safe; every game states it from
        its own bookkeeping of who knows what."""
        return True

    @abstractmethod
    def view(self, seat: int | None) -> View:
        """JSON-safe dict of all that `seat` knows; None gives the spectator's view."""

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """Canonical JSON form; `game.state_from_json` reads it back exactly."""

    # Pickling and copying go through the canonical JSON form, the one thing every build of
    # every game reads back exactly (a compiled state has no instance dict to copy).

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_state, (self.game, self.to_json()))

    def __copy__(self) -> State:
        return _rebuild_state(self.game, self.to_json())

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        return _rebuild_state(self.game, self.to_json())

    def check(self, action: Action) -> None:
        """Refuse `action` unless it is legal now: `InvalidAction`, `GameOver` or the
        game's `IllegalAction` with reason and rule."""
        if not isinstance(action, Action):
            raise InvalidAction(f"not an action: {action!r}")
        if self.is_over:
            raise GameOver("the game is over; no more moves", "end")
        if not _offered(action, self.legal_actions()):
            raise self.why_illegal(action)

    def apply(self, action: Action) -> State:
        """The next state after `action`; `IllegalAction` with reason and rule if not allowed."""
        self.check(action)
        return self.apply_unchecked(action)

    def apply_with_events(self, action: Action) -> tuple[State, list[Event]]:
        """The checked path, also returning what happened (the action and every consequence,
        steps the engine resolved by itself included), for `game.tell` to redact per seat."""
        self.check(action)
        log: list[Event] = []
        return self.apply_logged(action, log), log

    def apply_logged(self, action: Action, log: list[Event]) -> State:
        """`apply_unchecked` that also appends the transition's events to `log`.

        Games override this (their rules emit events while they apply). This fallback says
        only that the player to move made a move, which leaks nothing."""
        actor = self.to_move
        log.append(Event("move", {"actor": actor, "text": "made a move"}))
        return self.apply_unchecked(action)

    def why_illegal(self, action: Action) -> IllegalAction:
        """The error explaining why `action` (not in legal_actions) is refused now.

        Games override this to name the rule clause; this fallback only says it is not allowed.
        """
        return IllegalAction(f"{action} is not allowed now", "")

    def describe(self, action: Action, seat: int | None) -> str:
        """What `action` did, told to `seat`: the sentences of its events, hiding what `seat`
        may not see. Only a legal action can be described (it is applied to tell); anything
        else is refused with the error `apply` would raise."""
        self.game.check_seat(seat)
        _, events = self.apply_with_events(action)
        texts = [e["text"] for e in self.game.tell(events, seat)]
        return " ".join(t if t.endswith((".", "!", "?")) else t + "." for t in texts)

    @property
    def players(self) -> int:
        return self.game.players


def _rebuild_state(game: Game, data: dict[str, Any]) -> State:
    """`game`'s state read from its JSON form, sharing no list with the state it came from
    (`to_json` may hand out a state's own lists)."""
    return game.state_from_json(snapshot(data))
