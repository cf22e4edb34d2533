"""The position of a Clue: Doctor Who game and the rules that move it on.

Every field is immutable (ints, strs, tuples), so `apply_unchecked` copies the slots into a
new object and replaces only what changes. The table's history is a cons list of event tuples
(`("show", shower, asker, card)`, ...) so appending is O(1); `view` filters it per seat.

`apply_logged` also tells what happened as `Event`s: at every step a seat can see, the rules
call `_tell` when the transient `_events` list is there; on the fast path `_events` is the
class default None, so all it costs is that test.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Any, Final

from mypy_extensions import mypyc_attr

from timelord.core import Action, Game, GameOver, IllegalAction, Rng, State, View, resume
from timelord.core.events import Event
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
from timelord.games.clue.board import TARDIS, Board

#: Face-down side cards of the two-player variant (C-8.2).
SIDE_CARDS: Final = 4

# Phases: who decides what now.
START: Final = 0
MOVE: Final = 1
TELEPORT: Final = 2
SCAN: Final = 3
SLIP: Final = 4
NAME: Final = 5
OFFER: Final = 6
ANSWER: Final = 7
PEEK: Final = 8
SECOND: Final = 9
SIDE: Final = 10
CENTRE: Final = 11
OVER: Final = 12
BELL: Final = 13
PHASES: Final = (
    "start",
    "move",
    "teleport",
    "scan",
    "slip",
    "name",
    "offer",
    "answer",
    "peek",
    "second",
    "side",
    "centre",
    "over",
    "bell",
)
# What happens after an intrigue draw or a Time Slip move.
CTX_NONE: Final = 0
CTX_DIE: Final = 1
CTX_SQUARE: Final = 2
CTX_RUMOUR: Final = 3
CTX_NAMES: Final = ("none", "die", "square", "rumour")
# Effects a kept card or power may have at the start of a turn.
START_EFFECTS: Final = frozenset({"teleport", "remote-rumour", "extra-turn", "scan"})
WATCH: Final = "pocketwatch"
#: History entries that only record a public choice (`ClueState.reveals`).
_PUBLIC_ENTRIES: Final = frozenset({"rumour", "power", "bell"})

ROLL: Final = RollDice()
STAY: Final = StayPut()
ACCUSE: Final = Accuse()
END: Final = EndTurn()
POWER: Final = UsePower()
DRAW: Final = DrawIntrigue()
PASS: Final = Pass()
_MOVES: Final = [Move(n) for n in range(512)]
_NAMES: Final = [NameCard(c) for c in range(64)]
_SHOWS: Final = [ShowCard(c) for c in range(64)]
_PASSAGES: Final = [UsePassage(n) for n in range(16)]

Log = Any  # None, or (event tuple, older Log): a cons list

#: Start-of-turn actions by (board, place, may stay, kept cards, start power); the card
#: effects come from the one data file, so they are the same for every game.
_START_CACHE: Final[dict[tuple[Any, ...], tuple[Action, ...]]] = {}

_SLOTS: Final = (
    "game",
    "rng",
    "hands",
    "env",
    "left",
    "side",
    "chars",
    "pos",
    "wpos",
    "cur",
    "phase",
    "dec",
    "roll",
    "steps",
    "moved",
    "out",
    "saw",
    "seen_side",
    "pile",
    "kept",
    "discards",
    "watches",
    "used",
    "extra",
    "turn",
    "naming",
    "purpose",
    "nloc",
    "rum",
    "ask",
    "shows",
    "peekq",
    "bellq",
    "second",
    "ctx",
    "winner",
    "log",
)


def name_actions(categories: tuple[tuple[int, ...], ...]) -> tuple[tuple[Action, ...], ...]:
    return tuple(tuple(_NAMES[c] for c in cat) for cat in categories)


def _set(t: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    return (*t[:i], v, *t[i + 1 :])


@mypyc_attr(allow_interpreted_subclasses=True)  # subclasses of the game may be interpreted
class ClueRules(Game):
    """What a state needs of its game: the options and the content the rules read, and the
    entry points to the refusals and views, which are built on top of this module;
    `ClueRules` (game.py) sets the content up and fills these in."""

    variant: str
    intrigue: bool
    powers: bool
    max_rounds: int
    max_turns: int
    board: Board
    #: face-down side cards of the two-player rules (C-8.2); 0 in the standard game
    side_cards: int
    #: steps of every move in a research variant that rolls no dice (data/tiny.toml); 0
    #: rolls the two dice
    fixed_roll: int
    suspects: tuple[str, ...]
    weapons: tuple[str, ...]
    locations: tuple[str, ...]
    card_names: tuple[str, ...]
    first_weapon: int
    first_location: int
    #: the cards of each category: suspects, weapons, locations
    categories: tuple[tuple[int, ...], ...]
    #: the power effect of each suspect's character
    power_effect: tuple[str, ...]
    #: intrigue card id -> its effect, whether it is kept, its name
    effect: dict[str, str]
    keep: dict[str, bool]
    intrigue_names: dict[str, str]
    watches: int
    intrigue_deck: tuple[str, ...]
    #: the NameCard actions of each category, in card order (legal while naming)
    name_actions: tuple[tuple[Action, ...], ...]

    @abstractmethod
    def view_of(self, s: ClueState, seat: int | None) -> View:
        """What `seat` knows of `s` (`view.build_view`)."""

    @abstractmethod
    def json_of(self, s: ClueState) -> dict[str, Any]:
        """The canonical JSON form of `s` (`view.state_to_json`)."""

    def card_name(self, card: int) -> str:
        return self.card_names[card] if 0 <= card < len(self.card_names) else f"card {card}"

    def node_name(self, node: int) -> str:
        if 0 <= node < len(self.locations):
            return self.locations[node]
        if node == TARDIS:
            return "the TARDIS"
        return self.board.square_name(node)


class ClueState(State):
    """One position. Build the first with `ClueGame.new_game`; never mutate one."""

    __slots__ = (*_SLOTS, "_legal")

    game: ClueRules
    rng: int
    hands: tuple[tuple[int, ...], ...]
    env: tuple[int, ...]
    left: tuple[int, ...]
    side: tuple[int, ...]
    chars: tuple[int, ...]
    pos: tuple[int, ...]
    wpos: tuple[int, ...]
    cur: int
    phase: int
    dec: int
    roll: tuple[int, ...]
    steps: int
    moved: tuple[bool, ...]
    out: tuple[str, ...]
    saw: tuple[bool, ...]
    seen_side: tuple[tuple[int, ...], ...]
    pile: tuple[str, ...]
    kept: tuple[tuple[str, ...], ...]
    discards: tuple[str, ...]
    watches: int
    used: tuple[bool, ...]
    extra: tuple[int, ...]
    turn: int
    naming: tuple[int, ...]
    purpose: str
    nloc: int
    rum: tuple[int, ...]
    ask: int
    shows: int
    peekq: tuple[int, ...]
    bellq: tuple[int, ...]
    second: bool
    ctx: int
    winner: int
    log: Log
    _legal: list[Action] | None
    #: Where `_tell` appends events: a list only inside `apply_logged` (an instance value that
    #: shadows this class default for that one call).
    _events: list[Event] | None = None

    def __init__(self, game: ClueRules) -> None:
        """A state with only its game set; `_copy` and `view.make_state` fill in the rest."""
        self.game = game
        self._legal = None

    def _copy(self) -> ClueState:
        # Spelled out: a loop over getattr/setattr costs three times as much on the hot path.
        new = ClueState(self.game)
        new.rng = self.rng
        new.hands = self.hands
        new.env = self.env
        new.left = self.left
        new.side = self.side
        new.chars = self.chars
        new.pos = self.pos
        new.wpos = self.wpos
        new.cur = self.cur
        new.phase = self.phase
        new.dec = self.dec
        new.roll = self.roll
        new.steps = self.steps
        new.moved = self.moved
        new.out = self.out
        new.saw = self.saw
        new.seen_side = self.seen_side
        new.pile = self.pile
        new.kept = self.kept
        new.discards = self.discards
        new.watches = self.watches
        new.used = self.used
        new.extra = self.extra
        new.turn = self.turn
        new.naming = self.naming
        new.purpose = self.purpose
        new.nloc = self.nloc
        new.rum = self.rum
        new.ask = self.ask
        new.shows = self.shows
        new.peekq = self.peekq
        new.bellq = self.bellq
        new.second = self.second
        new.ctx = self.ctx
        new.winner = self.winner
        new.log = self.log
        return new

    # ----- protocol -------------------------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        return None if self.phase == OVER else self.dec

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def scores(self) -> list[float]:
        return [1.0 if p == self.winner else 0.0 for p in range(self.game.players)]

    def winners(self) -> list[int]:
        return [self.winner] if self.phase == OVER and self.winner >= 0 else []

    def legal_actions(self) -> list[Action]:
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    # The counted enumeration reads the list the state keeps (most steps take theirs from
    # per-board caches), so one move costs no copy of it.

    def legal_count(self) -> int:
        if self._legal is None:
            self._legal = self._compute_legal()
        return len(self._legal)

    def legal_at(self, i: int) -> Action:
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal[i]

    def random_legal(self, rng: Rng) -> Action:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal[rng.below(len(legal))]

    def _compute_legal(self) -> list[Action]:
        g = self.game
        ph = self.phase
        if ph == OVER:
            return []
        seat = self.dec
        if ph == START:
            here = self.pos[self.chars[seat]]
            kept = self.kept[seat]
            power = self._can_power(seat) and g.power_effect[self.chars[seat]] in START_EFFECTS
            moved = self.moved[seat]
            got = _START_CACHE.get((g.board, here, moved, kept, power))
            if got is None:
                got = tuple(self._start_actions(here, moved, kept, power))
                _START_CACHE[(g.board, here, moved, kept, power)] = got
            return list(got)
        if ph == MOVE:
            here = self.pos[self.chars[seat]]
            key = (here, self.steps, g.intrigue)
            moves = g.board.actions.get(key)
            if moves is None:
                dests = g.board.destinations(here, self.steps, g.intrigue)
                moves = g.board.actions[key] = tuple(_MOVES[n] for n in dests)
            out = list(moves)
            for kind in sorted(set(self.kept[seat])):
                if g.effect[kind] == "plus-six":
                    out.append(PlayCard(kind))
            return out
        if ph == NAME:
            return list(g.name_actions[len(self.naming)])
        if ph == ANSWER:
            hand = self.hands[seat]
            return [_SHOWS[c] for c in self.rum[1:] if c in hand]
        if ph == CENTRE:
            return [ACCUSE, END]
        if ph == OFFER:
            return [DRAW, PASS]
        if ph == PEEK:
            out = [PlayCard(k) for k in sorted(set(self.kept[seat])) if g.effect[k] == "peek"]
            if self._can_power(seat) and g.power_effect[self.chars[seat]] == "peek":
                out.append(POWER)
            out.append(PASS)
            return out
        if ph == SECOND:
            return [POWER, PASS]
        if ph == SIDE:
            seen = self.seen_side[seat]
            return [LookAtSideCard(i) for i in range(len(self.side)) if i not in seen]
        if ph == TELEPORT:
            here = self.pos[self.chars[seat]]
            return [_MOVES[r] for r in range(g.board.rooms) if r != here]
        if ph == SLIP:
            return [_MOVES[r] for r in g.board.nearest_secret(self.pos[self.chars[seat]])]
        if ph == SCAN:
            return [Target(q) for q in range(g.players) if q != seat and self.hands[q]]
        if ph == BELL:
            return [_MOVES[r] for r in g.board.closer_locations(self.pos[self.chars[seat]])]
        raise AssertionError(f"unknown phase {ph}")

    def _start_actions(
        self, here: int, moved: bool, kept: tuple[str, ...], power: bool
    ) -> list[Action]:
        g = self.game
        out: list[Action] = [ROLL]
        if here < TARDIS:
            out.extend(_PASSAGES[r] for r in g.board.passages[here])
            if moved:
                out.append(STAY)
        elif here == TARDIS:
            out.append(ACCUSE)
        for kind in sorted(set(kept)):
            if g.effect[kind] in START_EFFECTS:
                out.append(PlayCard(kind))
        if power:
            out.append(POWER)
        return out

    def _can_power(self, seat: int) -> bool:
        return self.game.powers and not self.used[seat] and not self.out[seat]

    # ----- applying moves -------------------------------------------------------------------

    def apply_unchecked(self, action: Action) -> ClueState:
        s = self._copy()
        s._step(action)
        return s

    def apply_logged(self, action: Action, log: list[Event]) -> ClueState:
        s = self._copy()
        s._events = log
        try:
            s._step(action)
        finally:
            s._events = None
        return s

    def _tell(
        self,
        kind: str,
        actor: int | None,
        private: tuple[tuple[frozenset[int], dict[str, Any]], ...] = (),
        **data: Any,
    ) -> None:
        """An event for `apply_logged`: `data` everyone sees, `private` only those seats.
        Callers test `self._events is not None` first, so the fast path builds no arguments."""
        assert self._events is not None
        self._events.append(Event(kind, {"actor": actor, **data}, private))

    def _step(self, a: Action) -> None:
        ph = self.phase
        seat = self.dec
        g = self.game
        if ph == START:
            if a is ROLL or type(a) is RollDice:
                self._roll()
            elif type(a) is UsePassage:
                if self._events is not None:
                    self._tell(
                        "move", seat, by="passage", frm=self.pos[self.chars[seat]], to=a.location
                    )
                self._place(seat, a.location)
                self._begin_naming("rumour", a.location)
            elif type(a) is StayPut:
                if self._events is not None:
                    self._tell("stay", seat, location=self.pos[self.chars[seat]])
                self._begin_naming("rumour", self.pos[self.chars[seat]])
            elif type(a) is Accuse:
                if self._events is not None:
                    self._tell("accuse", seat)
                self._begin_naming("accuse", -1)
            elif type(a) is PlayCard:
                self._discard_kept(seat, a.card)
                self._log(("play", seat, a.card))
                if self._events is not None:
                    self._tell("play", seat, card=a.card)
                self._start_effect(seat, g.effect[a.card])
            elif type(a) is UsePower:
                self._use_power(seat)
                self._start_effect(seat, g.power_effect[self.chars[seat]])
            else:
                raise AssertionError(a)
        elif ph == MOVE:
            if type(a) is PlayCard:
                self._discard_kept(seat, a.card)
                self._log(("play", seat, a.card))
                self.steps += 6
                if self._events is not None:
                    self._tell("play", seat, card=a.card, steps=self.steps)
            else:
                assert type(a) is Move
                if self._events is not None:
                    self._tell("move", seat, by="dice", frm=self.pos[self.chars[seat]], to=a.to)
                self._arrive(seat, a.to)
        elif ph == NAME:
            assert type(a) is NameCard
            if self._events is not None:
                self._tell("name", seat, card=a.card, purpose=self.purpose)
            self.naming = (*self.naming, a.card)
            self._after_name()
        elif ph == ANSWER:
            assert type(a) is ShowCard
            self._show(seat, a.card)
        elif ph == CENTRE:
            if type(a) is Accuse:
                if self._events is not None:
                    self._tell("accuse", seat)
                self._begin_naming("accuse", -1)
            else:
                if self._events is not None:
                    self._tell("end-turn", seat)
                self._end_turn()
        elif ph == OFFER:
            if type(a) is DrawIntrigue:
                self._draw(seat, CTX_RUMOUR)
            else:
                if self._events is not None:
                    self._tell("decline", seat, what="draw")
                self._answers()
        elif ph == PEEK:
            if type(a) is PlayCard:
                self._discard_kept(seat, a.card)
                self._log(("play", seat, a.card))
                if self._events is not None:
                    self._tell("play", seat, card=a.card)
                self._peek(seat)
            elif type(a) is UsePower:
                self._use_power(seat)
                self._peek(seat)
            else:
                if self._events is not None:
                    self._tell("decline", seat, what="peek")
            self._next_peek()
        elif ph == SECOND:
            if type(a) is UsePower:
                self._use_power(seat)
                self.second = True
                self._answers()
            else:
                if self._events is not None:
                    self._tell("decline", seat, what="second-answer")
                self._end_rumour()
        elif ph == SIDE:
            assert type(a) is LookAtSideCard
            self.seen_side = _set(
                self.seen_side, seat, tuple(sorted((*self.seen_side[seat], a.index)))
            )
            self._log(("side", seat, a.index, self.side[a.index]))
            card = self.side[a.index]
            if self._events is not None:
                self._tell(
                    "side", seat, ((frozenset({seat}), {"card": card}),), index=a.index, card=None
                )
            self._end_rumour()
        elif ph == TELEPORT:
            assert type(a) is Move
            if self._events is not None:
                self._tell("move", seat, by="teleport", frm=self.pos[self.chars[seat]], to=a.to)
            self._place(seat, a.to)
            self._begin_naming("rumour", a.to)
        elif ph == SLIP:
            assert type(a) is Move
            self._slip_to(seat, a.to)
        elif ph == SCAN:
            assert type(a) is Target
            rng = resume(self.rng)
            hand = self.hands[a.seat]
            card = hand[rng.below(len(hand))]
            self.rng = rng.state
            self._log(("scan", seat, a.seat, card))
            both = frozenset({seat, a.seat})
            if self._events is not None:
                self._tell("scan", seat, ((both, {"card": card}),), target=a.seat, card=None)
            self._set_phase(START, seat)
        elif ph == BELL:
            assert type(a) is Move
            self._bell_move(seat, a.to)
            self._next_bell()
        else:
            raise AssertionError(f"no moves in phase {PHASES[ph]}")

    def _log(self, event: tuple[Any, ...]) -> None:
        self.log = (event, self.log)

    def _set_phase(self, phase: int, seat: int) -> None:
        self.phase = phase
        self.dec = seat

    def _place(self, seat: int, node: int) -> None:
        """The seat's own mover goes to `node` by its own doing."""
        self.pos = _set(self.pos, self.chars[seat], node)
        if self.moved[seat]:
            self.moved = _set(self.moved, seat, False)

    def _discard_kept(self, seat: int, kind: str) -> None:
        kept = list(self.kept[seat])
        kept.remove(kind)
        self.kept = _set(self.kept, seat, tuple(kept))
        self.discards = (*self.discards, kind)

    def _use_power(self, seat: int) -> None:
        self.used = _set(self.used, seat, True)
        effect = self.game.power_effect[self.chars[seat]]
        self._log(("power", seat, effect))
        if self._events is not None:
            self._tell("power", seat, character=self.chars[seat], power=effect)

    def _start_effect(self, seat: int, effect: str) -> None:
        if effect == "teleport":
            self._set_phase(TELEPORT, seat)
        elif effect == "remote-rumour":
            self._begin_naming("rumour", -1)
        elif effect == "extra-turn":
            self.extra = _set(self.extra, seat, self.extra[seat] + 1)
            if self._events is not None:
                self._tell("extra-turn", seat, extra=self.extra[seat])
        elif effect == "scan":
            self._set_phase(SCAN, seat)
        else:
            raise AssertionError(effect)

    def _roll(self) -> None:
        g = self.game
        if g.fixed_roll:
            # A research variant's move without dice: its fixed steps, shown as the first
            # die's (docs/variants.md).
            face, b = g.fixed_roll, 0
        else:
            rng = resume(self.rng)
            a = rng.randint(1, 6)
            b = rng.randint(1, 6)
            self.rng = rng.state
            # The "?" replaces the 1 on the first die (ruling CL-3); it never counts as steps.
            face = 0 if a == 1 else a
        self.roll = (face, b)
        self.steps = face + b
        if self._events is not None:
            self._tell("roll", self.cur, dice=[face, b], steps=self.steps)
        self._set_phase(MOVE, self.cur)
        if face == 0 and g.intrigue:
            self._draw(self.cur, CTX_DIE)

    def _arrive(self, seat: int, node: int) -> None:
        self._place(seat, node)
        g = self.game
        if node < TARDIS:
            self._begin_naming("rumour", node)
        elif node == TARDIS:
            self._set_phase(CENTRE, seat)
        elif g.intrigue and node in g.board.intrigue:
            self._draw(seat, CTX_SQUARE)
        else:
            self._end_turn()

    def _begin_naming(self, purpose: str, location: int) -> None:
        self.purpose = purpose
        self.nloc = location
        self.naming = ()
        self._set_phase(NAME, self.cur)

    def _after_name(self) -> None:
        g = self.game
        need = 3 if (self.purpose == "accuse" or self.nloc < 0) else 2
        if len(self.naming) < need:
            return
        seat = self.cur
        if self.purpose == "accuse":
            s, w, loc = self.naming
            right = (s, w, loc) == self.env
            self._log(("accuse", seat, s, w, loc, right))
            # A wrong accuser looks in the envelope (C-5.3); a right one opens it for all.
            seen = ((frozenset({seat}), {"envelope": list(self.env)}),)
            if self._events is not None:
                self._tell(
                    "accusation",
                    seat,
                    () if right else seen,
                    cards=[s, w, loc],
                    right=right,
                    envelope=list(self.env) if right else None,
                )
            self.naming = ()
            if right:
                self.winner = seat
                self._game_over()
                return
            self.saw = _set(self.saw, seat, True)
            self._eliminate(seat, "accused")
            self._end_turn()
            return
        s, w = self.naming[0], self.naming[1]
        room = self.naming[2] - g.first_location if self.nloc < 0 else self.nloc
        loc = g.first_location + room
        self.naming = ()
        self.rum = (seat, s, w, loc)
        self.shows = 0
        self.second = False
        self._log(("rumour", seat, s, w, loc))
        if self._events is not None:
            self._tell(
                "rumour",
                seat,
                cards=[s, w, loc],
                location=room,
                mover_from=self.pos[s],
                weapon_from=self.wpos[w - g.first_weapon],
            )
        self.wpos = _set(self.wpos, w - g.first_weapon, room)
        self.ask = (seat + 1) % g.players
        mover_was = self.pos[s]
        self.pos = _set(self.pos, s, room)
        owner = self.chars.index(s) if s in self.chars else -1
        if owner >= 0 and owner != seat and mover_was != room:
            self.moved = _set(self.moved, owner, True)
            if g.intrigue and not self.out[owner] and self.pile:
                self._set_phase(OFFER, owner)
                return
        self._answers()

    def _answers(self) -> None:
        """Ask the players in turn from the asker's left; stop at the first who can answer."""
        g = self.game
        asker = self.rum[0]
        triple = self.rum[1:]
        p = self.ask
        while p != asker:
            if self._gone(p):  # out by the 8th Pocketwatch: no longer asked (CL-7)
                p = (p + 1) % g.players
                continue
            hand = self.hands[p]
            if triple[0] in hand or triple[1] in hand or triple[2] in hand:
                self.ask = p
                self._set_phase(ANSWER, p)
                return
            self._log(("pass", p))
            if self._events is not None:
                self._tell("cannot-answer", p, asker=asker)
            p = (p + 1) % g.players
        self.ask = asker
        if self.shows == 0 and self._events is not None:
            self._tell("unanswered", asker)
        if self.shows == 0 and len(self.seen_side[asker]) < len(self.side):
            self._set_phase(SIDE, asker)
            return
        self._end_rumour()

    def _show(self, shower: int, card: int) -> None:
        g = self.game
        asker = self.rum[0]
        self._log(("show", shower, asker, card))
        both = frozenset({shower, asker})
        if self._events is not None:
            self._tell("show", shower, ((both, {"card": card}),), asker=asker, card=None)
        self.shows += 1
        self.ask = (shower + 1) % g.players
        queue = []
        p = (asker + 1) % g.players
        while p != asker:
            if p != shower and not self.out[p] and self._may_peek(p):
                queue.append(p)
            p = (p + 1) % g.players
        self.peekq = tuple(queue)
        self._next_peek()

    def _may_peek(self, seat: int) -> bool:
        """Offered to anyone holding kept cards (their number is public) or a peek power."""
        if self.kept[seat]:
            return True
        return self._can_power(seat) and self.game.power_effect[self.chars[seat]] == "peek"

    def _peek(self, seat: int) -> None:
        last = self.log
        while last is not None and last[0][0] != "show":
            last = last[1]
        assert last is not None
        _, shower, _, card = last[0]
        self._log(("peek", seat, shower, card))
        both = frozenset({seat, shower})
        if self._events is not None:
            self._tell("peek", seat, ((both, {"card": card}),), shower=shower, card=None)

    def _next_peek(self) -> None:
        if self.peekq:
            seat = self.peekq[0]
            self.peekq = self.peekq[1:]
            self._set_phase(PEEK, seat)
            return
        asker = self.rum[0]
        if (
            self.shows == 1
            and not self.second
            and self._left_to_ask(asker)  # someone is left to ask (C-7.1, CL-16)
            and self._can_power(asker)
            and self.game.power_effect[self.chars[asker]] == "second-answer"
        ):
            self._set_phase(SECOND, asker)
            return
        self._end_rumour()

    def _gone(self, seat: int) -> bool:
        """Whether `seat` is out by the 8th Pocketwatch and so "no longer play[s] in the
        game": it answers no rumour (C-6.3, ruling CL-7; rules 1 kept it answering)."""
        return self.game.rules >= 2 and self.out[seat] == WATCH

    def _left_to_ask(self, asker: int) -> bool:
        """Whether a player who answers rumours sits between `self.ask` and the asker."""
        p = self.ask
        while p != asker:
            if not self._gone(p):
                return True
            p = (p + 1) % self.game.players
        return False

    def _end_rumour(self) -> None:
        self.rum = ()
        self.shows = 0
        self.second = False
        self.peekq = ()
        self._end_turn()

    def _draw(self, seat: int, ctx: int) -> None:
        g = self.game
        if not self.pile:
            if self._events is not None:
                self._tell("draw", seat, card=None, empty=True)
            self._after_draw(seat, ctx)
            return
        kind = self.pile[-1]
        self.pile = self.pile[:-1]
        if kind == WATCH:
            self.watches += 1
            self._log(("draw", seat, WATCH))
            if self._events is not None:
                self._tell("draw", seat, card=WATCH, watches=self.watches)
            if self.watches >= g.watches:
                rng = resume(self.rng)
                at = rng.below(len(self.pile) + 1)
                self.rng = rng.state
                self.pile = (*self.pile[:at], WATCH, *self.pile[at:])
                self._eliminate(seat, WATCH)
            self._after_draw(seat, ctx)
            return
        effect = g.effect[kind]
        if g.keep[kind]:
            self._log(("draw", seat, ""))
            if self._events is not None:
                self._tell(
                    "draw", seat, ((frozenset({seat}), {"card": kind}),), card=None, kept=True
                )
            self.kept = _set(self.kept, seat, tuple(sorted((*self.kept[seat], kind))))
            self._after_draw(seat, ctx)
            return
        self._log(("draw", seat, kind))
        if self._events is not None:
            self._tell("draw", seat, card=kind)
        self.discards = (*self.discards, kind)
        if effect == "to-centre":
            if self._events is not None:
                self._tell("move", seat, by=kind, frm=self.pos[self.chars[seat]], to=TARDIS)
            self._place(seat, TARDIS)
            if ctx == CTX_RUMOUR:
                self._answers()
            else:
                self._set_phase(CENTRE, seat)
        elif effect == "to-passage":
            options = g.board.nearest_secret(self.pos[self.chars[seat]])
            self.ctx = ctx
            if len(options) == 1:
                self._slip_to(seat, options[0])
            else:
                self._set_phase(SLIP, seat)
        elif effect == "closer-to-centre":
            # Every other player still in, from the drawer's left, moves one location
            # closer to the centre (ruling CL-11); then the drawer's turn goes on.
            self.ctx = ctx
            order = [(seat + i) % g.players for i in range(1, g.players)]
            self.bellq = tuple(q for q in order if not self.out[q])
            self._next_bell()
        else:
            raise AssertionError(effect)

    def _next_bell(self) -> None:
        """The next Cloister Bell move: a choice only where locations tie (C-6.5)."""
        board = self.game.board
        while self.bellq:
            q = self.bellq[0]
            self.bellq = self.bellq[1:]
            options = board.closer_locations(self.pos[self.chars[q]])
            if len(options) > 1:
                self._set_phase(BELL, q)
                return
            if options:
                self._bell_move(q, options[0])
        ctx = self.ctx
        self.ctx = CTX_NONE
        self._after_draw(self.cur, ctx)

    def _bell_move(self, seat: int, room: int) -> None:
        """Another player's card moved this mover: it may stay and make a rumour (C-2.3)."""
        if self._events is not None:
            self._tell("move", seat, by="cloister-bell", frm=self.pos[self.chars[seat]], to=room)
        self.pos = _set(self.pos, self.chars[seat], room)
        self.moved = _set(self.moved, seat, True)
        self._log(("bell", seat, room))

    def _after_draw(self, seat: int, ctx: int) -> None:
        if ctx == CTX_RUMOUR:
            self._answers()
        elif self.out[seat]:
            self._end_turn()
        elif ctx == CTX_DIE:
            self._set_phase(MOVE, seat)
        else:
            self._end_turn()

    def _slip_to(self, seat: int, room: int) -> None:
        ctx = self.ctx
        self.ctx = CTX_NONE
        if self._events is not None:
            self._tell("move", seat, by="time-slip", frm=self.pos[self.chars[seat]], to=room)
        self._place(seat, room)
        if ctx == CTX_RUMOUR:
            self._answers()
        else:
            self._begin_naming("rumour", room)

    def _eliminate(self, seat: int, reason: str) -> None:
        self.out = _set(self.out, seat, reason)
        self._log(("out", seat, reason))
        # The eighth Pocketwatch turns the hand face up (C-6.3); a wrong accuser's stays hidden.
        shown = list(self.hands[seat]) if reason == WATCH else None
        if self._events is not None:
            self._tell("out", seat, reason=reason, hand=shown)
        if reason == WATCH and self.kept[seat]:
            self.discards = (*self.discards, *self.kept[seat])
            self.kept = _set(self.kept, seat, ())

    def _end_turn(self) -> None:
        g = self.game
        if self.phase == OVER:
            return
        cur = self.cur
        if self.moved[cur]:
            self.moved = _set(self.moved, cur, False)
        if all(self.out):
            self._game_over()
            return
        if self.turn >= g.max_turns:
            self._game_over()
            return
        if not self.out[cur] and self.extra[cur] > 0:
            self.extra = _set(self.extra, cur, self.extra[cur] - 1)
            nxt = cur
        else:
            nxt = (cur + 1) % g.players
            while self.out[nxt]:
                nxt = (nxt + 1) % g.players
        self.turn += 1
        self.cur = nxt
        self.roll = ()
        self.steps = 0
        if self._events is not None:
            self._tell("turn", nxt, turn=self.turn, extra=nxt == cur)
        self._set_phase(START, nxt)

    def _game_over(self) -> None:
        winner = self.winner if self.winner >= 0 else None
        if self._events is not None:
            self._tell("game-over", None, winner=winner, envelope=list(self.env))
        self.phase = OVER
        self.dec = -1
        self.naming = ()
        self.rum = ()
        self.peekq = ()

    # ----- errors and text ------------------------------------------------------------------

    def why_illegal(self, action: Action) -> IllegalAction:
        return why_illegal(self, action)

    def reveals(self, action: Action) -> bool:
        """Clue's secrets are the hands, the envelope, the side cards, kept intrigue cards and
        the pile's order: an action reveals when it moves the generator (a roll) or the pile
        (a draw), changes a hand, or adds to the history an entry that teaches something (a
        pass, a card shown, peeked, scanned or looked at, an accusation's verdict, a kept
        card played, a player put out), or makes a seat answer a rumour (it holds one of
        the cards). Naming cards, powers' choices and Cloister Bell moves are public
        choices."""
        after = self.apply(action)
        assert isinstance(after, ClueState)
        if after.rng != self.rng or after.pile != self.pile or after.hands != self.hands:
            return True
        if after.phase == ANSWER and (self.phase != ANSWER or after.ask != self.ask):
            return True  # the seat now asked to show holds one of the three (C-4.3)
        node = after.log
        while node is not None and node is not self.log:
            if node[0][0] not in _PUBLIC_ENTRIES:
                return True
            node = node[1]
        return False

    # ----- views and JSON -------------------------------------------------------------------

    def events(self) -> list[tuple[Any, ...]]:
        """The table's history, oldest first, with every secret in it."""
        out = []
        node = self.log
        while node is not None:
            out.append(node[0])
            node = node[1]
        out.reverse()
        return out

    def view(self, seat: object) -> dict[str, Any]:
        # any object: a bad seat is `InvalidSeat`, not the compiled build's TypeError
        return self.game.view_of(self, self.game.check_seat(seat))

    def to_json(self) -> dict[str, Any]:
        return self.game.json_of(self)


# ----- why a move is refused (with the RULES.md clause) ---------------------------------

_WAITING: Final = {
    START: ("start a turn: roll, take a passage, stay, accuse or play a card", "C-2"),
    MOVE: ("move the number rolled", "C-3.2"),
    TELEPORT: ("choose the location to move to", "C-6.4"),
    SCAN: ("choose whose hand to scan", "C-6.4"),
    SLIP: ("choose the nearest secret-passage location", "C-6.5"),
    NAME: ("name the next card", "C-4.1"),
    OFFER: ("decide whether to draw an intrigue card", "C-6.1"),
    ANSWER: ("show a card that answers the rumour", "C-4.3"),
    PEEK: ("decide whether to see the card just shown", "C-6.4"),
    SECOND: ("decide whether to ask for a second answer", "C-7.1"),
    SIDE: ("look at one side card not seen yet", "C-8.2"),
    CENTRE: ("accuse or end the turn", "C-5.1"),
    BELL: ("choose the location one closer to the centre (Cloister Bell)", "C-6.5"),
}


def _no_such(state: ClueState, action: Action) -> IllegalAction | None:
    """The refusal of an action naming a node, card, side card, seat or intrigue card that
    does not exist (actions built outside the legal list: API clients, edited records)."""
    g = state.game
    # the fields as given, read untyped: an edited action may hold text where a number is due
    # (the compiled build would refuse a typed read of it with a TypeError)
    raw: Any = action

    def bad(value: object, size: int) -> bool:
        return isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < size

    if isinstance(action, Move) and (bad(raw.to, g.board.nodes) or raw.to not in g.board.places):
        return IllegalAction(f"there is no board node {raw.to!r}", "C-3.2")
    if isinstance(action, UsePassage) and bad(raw.location, g.board.rooms):
        return IllegalAction(f"there is no location {raw.location!r}", "C-2.2")
    if isinstance(action, NameCard | ShowCard) and bad(raw.card, len(g.card_names)):
        return IllegalAction(f"there is no card {raw.card!r}", "C-4.1")
    if isinstance(action, LookAtSideCard) and bad(raw.index, len(state.side)):
        if not state.side:
            return IllegalAction("side cards are only in the two-player variant", "C-8.2")
        return IllegalAction(f"there is no side card {raw.index!r}", "C-8.2")
    if isinstance(action, Target) and bad(raw.seat, g.players):
        return IllegalAction(f"there is no seat {raw.seat!r} at this table", "C-6.4")
    if isinstance(action, PlayCard) and (not isinstance(raw.card, str) or raw.card not in g.effect):
        return IllegalAction(f"there is no intrigue action card {raw.card!r}", "C-6.4")
    return None


def why_illegal(state: ClueState, action: Action) -> IllegalAction:
    g = state.game
    ph = state.phase
    if ph == OVER:
        return GameOver("the game is over", "C-5.2")
    missing = _no_such(state, action)
    if missing is not None:
        return missing
    seat = state.dec
    wanted, rule = _WAITING[ph]
    here = state.pos[state.chars[seat]]
    kind = type(action)
    if ph in (TELEPORT, SLIP, BELL) and isinstance(action, Move):
        where = {
            TELEPORT: "any other location",
            SLIP: "a nearest secret-passage location",
            BELL: "one of the locations one closer to the centre",
        }[ph]
        return IllegalAction(f"{g.node_name(action.to)} is not {where}", rule)
    if ph == START:
        if kind is UsePassage:
            if here >= TARDIS:
                return IllegalAction("passages lead only from one location to another", "C-2.2")
            return IllegalAction(
                f"no secret passage or joining door leads from {g.node_name(here)} there",
                "C-2.2",
            )
        if kind is StayPut:
            return IllegalAction(
                "only a player whose mover another player's rumour moved into a location "
                "since their last turn may stay there and make a rumour",
                "C-4.2",
            )
        if kind is Accuse:
            return IllegalAction("accusations are made only from the TARDIS in the centre", "C-5.1")
        if kind is Move:
            return IllegalAction("roll the dice before moving", "C-3.1")
    if isinstance(action, PlayCard | UsePower) and state.out[seat]:
        what = "cards" if isinstance(action, PlayCard) else "powers"
        return IllegalAction(f"a player who is out plays no {what}", "C-5.3")
    if isinstance(action, PlayCard):
        card = action.card
        if card not in state.kept[seat]:
            return IllegalAction(f"you do not hold {g.intrigue_names[card]}", "C-6.4")
        return IllegalAction(
            f"{g.intrigue_names[card]} cannot be played now: {_timing(g.effect[card])}", "C-6.4"
        )
    if kind is UsePower:
        if not g.powers:
            return IllegalAction("character powers are not in this game", "C-8.1")
        if state.used[seat]:
            return IllegalAction("each character power is used once per game", "C-7.1")
        return IllegalAction(
            f"your power cannot be used now: {_timing(g.power_effect[state.chars[seat]])}", "C-7.1"
        )
    if ph == MOVE and isinstance(action, Move):
        return IllegalAction(
            f"{g.node_name(action.to)} cannot be reached with {state.steps} steps from "
            f"{g.node_name(here)} (orthogonal steps through doors; exact count to a plain square)",
            "C-3.2",
        )
    if ph == NAME and kind is NameCard:
        cat = ("suspect", "weapon", "location")[len(state.naming)]
        return IllegalAction(f"name a {cat} now", "C-4.1")
    if ph == ANSWER and kind is ShowCard:
        return IllegalAction("show one of your own cards that the rumour names", "C-4.4")
    if ph == SIDE and kind is LookAtSideCard:
        return IllegalAction("look at a side card you have not seen yet", "C-8.2")
    if ph == SCAN and kind is Target:
        return IllegalAction("scan another player who holds cards", "C-6.4")
    return IllegalAction(f"{_said(g, action)} is not allowed now: {wanted}", rule)


def _said(g: ClueRules, action: Action) -> str:
    """`str(action)` with this game's names (an action's own text uses the standard set's)."""
    if isinstance(action, NameCard | ShowCard):
        return f"{'name' if isinstance(action, NameCard) else 'show'} {g.card_name(action.card)}"
    if isinstance(action, Move):
        return f"move to {g.node_name(action.to)}"
    if isinstance(action, UsePassage):
        return f"take the passage to {g.node_name(action.location)}"
    return str(action)


def _timing(effect: str) -> str:
    if effect in START_EFFECTS:
        return "it is played at the start of your turn, before rolling"
    if effect == "plus-six":
        return "it is played after rolling, before moving"
    if effect == "peek":
        return "it is played when another player's rumour is answered"
    if effect == "second-answer":
        return "it is used when your own rumour has been answered"
    return "not now"
