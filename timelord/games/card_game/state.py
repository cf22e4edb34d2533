"""The Card Game position: every zone, the pending decision, and who knows which card.

A state is never changed once built. `apply_unchecked` copies it (outer lists only: every
inner collection is a tuple, so a copy shares them safely) and lets the rule modules mutate
the copy. The copy shares even most outer lists (the locations, the reserves, Time Points,
the cards in play, the passes and the knowledge; not the hands) until a rule is about to
change one (`own_locations`, `own`): copying and freeing them on every move was
most of what a move that changes none of them cost (compiled, a pick-up took 1.2 us before,
0.6 us after, the interpreted rule entry points gone too: `CardGameRules`).

Knowledge: `known[card]` is a bit mask of the seats that know exactly where that card is,
one byte per card (a `bytearray`: at most 4 seats, and a copy is one memory copy where a
list's copy touched 131 integer objects, about 5% of applying a move, and freeing it as much
again). Public cards have every bit set. A seat always knows its own hand, reserve, face-down
Defenders and the face-down Enemies of its attacks; it also knows where a card is after it
passed the card or saw it go somewhere, until the holder moves a card out of sight (then
every card of that hand is uncertain again, so the view never tells which card moved).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, NamedTuple

from mypy_extensions import mypyc_attr

from timelord.core import (
    Action,
    Event,
    Game,
    GameOver,
    IllegalAction,
    InvalidAction,
    Rng,
    State,
    View,
)
from timelord.games.card_game.cards import CardSet

# Phases: what the seat in `to_move` must decide now.
MAIN: Final = "main"
DEFEND: Final = "declare-defenders"
ATTACK: Final = "declare-enemies"
TAKE: Final = "take-time"
CLEVER: Final = "mr-clever"
JACK: Final = "jack-tardis"
REGEN: Final = "regenerate"
IRON: Final = "ironsides"
VALIANT: Final = "valiant"
MATCH: Final = "match"
OVER: Final = "over"
PHASES: Final = (MAIN, DEFEND, ATTACK, TAKE, CLEVER, JACK, REGEN, IRON, VALIANT, MATCH, OVER)


class PhaseWords(NamedTuple):
    """How one phase reads: what the seat to move is doing (terminal), the hint a board shows
    that seat, what is going on (in refusals), and the labels of its Finish and Pass actions
    (empty where the phase has none). The ids above are for programs; these are for people."""

    doing: str
    hint: str
    now: str
    finish: str = ""
    passing: str = ""


#: Every phase's words in one table, in the order of PHASES.
PHASE_WORDS: Final[dict[str, PhaseWords]] = {
    MAIN: PhaseWords(
        "choosing an action",
        "Play cards: Locations, Defenders on your Locations, Enemies against others'.",
        "the player to move is choosing an action",
    ),
    DEFEND: PhaseWords(
        "declaring Defenders",
        "Defenders declared: add more for the same Location, then click"
        " \u201cdone\u201d to place them (nothing is placed until you do).",
        "Defenders are being declared",
        finish="done: place the declared Defenders",
    ),
    ATTACK: PhaseWords(
        "declaring Enemies",
        "Enemies declared: add more that combine with them, then click \u201cdone\u201d"
        " to launch the attack (nothing happens until you do).",
        "Enemies are being declared",
        finish="done: attack with the declared Enemies",
    ),
    TAKE: PhaseWords(
        "taking Time Points from other players",
        "The supply is empty: choose whom to take a Time Point from.",
        "Time Points must be taken from other players",
    ),
    CLEVER: PhaseWords(
        "removing TARDIS counters (Mr Clever)",
        "Remove TARDIS counters (Mr Clever), then click \u201cdone\u201d.",
        "TARDIS counters are being removed (Mr Clever)",
        finish="done removing TARDIS counters",
    ),
    JACK: PhaseWords(
        "deciding whether to place a TARDIS counter (Captain Jack)",
        "Place a TARDIS counter (Captain Jack), or pass.",
        "a TARDIS counter may be placed (Captain Jack)",
        passing="place no TARDIS counter",
    ),
    REGEN: PhaseWords(
        "discarding cards to regenerate",
        "Discard cards to regenerate, then click \u201cdone\u201d to draw.",
        "cards are being discarded for Regeneration",
        finish="done discarding: draw",
    ),
    IRON: PhaseWords(
        "deciding whether to pay for Ironsides",
        "Use Ironsides for this conflict, or pass.",
        "the defender may use Ironsides",
        passing="do not pay for Ironsides",
    ),
    VALIANT: PhaseWords(
        "deciding whether to play The Valiant",
        "Play The Valiant to save this defence, or pass.",
        "the defender may play The Valiant",
        passing="do not play The Valiant",
    ),
    MATCH: PhaseWords(
        "choosing which Enemy cards to discard",
        "Choose which Enemy cards to discard.",
        "the attacker chooses which Enemy cards to discard",
    ),
    OVER: PhaseWords("nothing: the game is over", "The game is over.", "the game is over"),
}

_FIELDS: Final = (
    "hands", "reserve", "upres", "newres", "passed", "tp", "supply",
    "loc_card", "loc_owner", "loc_def", "loc_en", "loc_up", "loc_att", "loc_tardis",
    "deck", "end_depth", "end_now", "discard", "aside", "known",
    "active", "first", "turn", "steps", "endgame", "phase", "p_loc", "p_cards", "p_n",
    "rng", "ended", "shuffled",
)  # fmt: skip
# The outer lists a copy shares with its original until a rule changes them, as bits of
# `CardGameState._own` (see `CardGameState.own`).
RESERVE: Final = 1
TP: Final = 2
UPRES: Final = 4
PASSED: Final = 8
KNOWN: Final = 16
_ALL: Final = RESERVE | TP | UPRES | PASSED | KNOWN
# Fields holding a list of tuples (JSON: list of lists).
_NESTED: Final = ("hands", "reserve", "upres", "passed", "loc_def", "loc_en")


@mypyc_attr(allow_interpreted_subclasses=True)  # subclasses of the game may be interpreted
class CardGameRules(Game):
    """What a state needs of its game: the options the rules read, and the rule entry points.

    The rules, views and texts are built on top of this module, so a state reaches them
    through its game; `CardGame` (game.py, which imports them all) fills these in. They are
    the rule modules' functions themselves, not methods: `CardGame` is interpreted (game.py
    is not compiled), and a method of it entered the interpreter twice on every move of a
    compiled playout (listing and applying), where calling the compiled function stays
    native."""

    cards: CardSet
    max_turns: int
    pass_count: int
    turn_step_cap: int
    #: `Game`'s own two, declared again so that they are native attributes here too: read
    #: from the interpreted base class, each was a look-up in the instance's dict, a few on
    #: every move (the seat to the left, the rules version).
    players: int
    rules: int

    #: Every action allowed in a state (`rules/legal.py`).
    legal_of: Callable[[CardGameState], list[Action]]
    #: How many actions `legal_of(s)` lists, counted without building them all.
    count_of: Callable[[CardGameState], int]
    #: `legal_of(s)[i]`, or with an `Rng` the one at `rng.below(count_of(s))`, built alone.
    pick_of: Callable[[CardGameState, int, Rng | None], Action]
    #: Apply an action to a fresh copy of a state, which the rules may change
    #: (`rules/apply.py`).
    advance: Callable[[CardGameState, Action], None]
    #: Why an action is refused in a state.
    why_illegal_of: Callable[[CardGameState, Action], IllegalAction]
    #: Each seat's victory points in a state.
    points: Callable[[CardGameState], list[int]]
    #: What a seat knows of a state (`view.py`).
    view_of: Callable[[CardGameState, int | None], View]


class CardGameState(State):
    __slots__ = ("_legal", "_lo", "_own", "cs", "fought", "game", *_FIELDS)

    game: CardGameRules
    cs: CardSet
    hands: list[tuple[int, ...]]
    reserve: list[tuple[int, ...]]
    upres: list[tuple[int, ...]]
    newres: tuple[int, ...]
    passed: list[tuple[tuple[int, ...], ...]]
    tp: list[int]
    supply: int
    loc_card: list[int]
    loc_owner: list[int]
    loc_def: list[tuple[int, ...]]
    loc_en: list[tuple[int, ...]]
    loc_up: list[int]
    loc_att: list[int]
    loc_tardis: list[bool]
    deck: tuple[int, ...]
    end_depth: int
    end_now: bool
    discard: tuple[int, ...]
    #: Locations whose defence was lost this turn, sorted: no Defender is declared there
    #: and no Enemy joins the attack there until a later turn (rules 2, ruling C-R33).
    #: Written in the JSON form only when not empty, so rules-1 states read as before.
    fought: tuple[int, ...]
    aside: tuple[int, ...]
    known: bytearray
    active: int
    first: int
    turn: int
    steps: int
    endgame: bool
    phase: str
    p_loc: int
    p_cards: tuple[int, ...]
    p_n: int
    rng: int
    ended: str
    shuffled: tuple[int, ...]

    #: Where the rules append events while `apply_logged` applies an action; None (this
    #: class default, no instance slot) on every other path, so playouts pay one lookup.
    log: list[Event] | None = None

    def __init__(self, game: CardGameRules) -> None:
        self.game = game
        self.cs = game.cards
        self._legal: list[Action] | None = None
        self._lo = True  # this state owns its location lists (see `own_locations`)
        self._own = _ALL  # and its other outer lists (see `own`)

    # ------------------------------------------------------------------ copying, JSON
    def copy(self) -> CardGameState:
        """A copy a caller may change (all but its location lists: `own_locations`)."""
        s = self.fork()
        s.own(_ALL)
        return s

    def fork(self) -> CardGameState:
        """The copy a move is applied to: it shares the outer lists that `own` and
        `own_locations` copy when a rule is about to change them."""
        s = CardGameState(self.game)  # compiled, __new__ would run __init__ without its argument
        s.hands = self.hands[:]
        # Shared until a rule changes them (`own`, `own_locations`).
        s._own = 0
        s._lo = False
        s.reserve = self.reserve
        s.upres = self.upres
        s.newres = self.newres
        s.passed = self.passed
        s.tp = self.tp
        s.supply = self.supply
        s.loc_card = self.loc_card
        s.loc_owner = self.loc_owner
        s.loc_def = self.loc_def
        s.loc_en = self.loc_en
        s.loc_up = self.loc_up
        s.loc_att = self.loc_att
        s.loc_tardis = self.loc_tardis
        s.deck = self.deck
        s.end_depth = self.end_depth
        s.end_now = self.end_now
        s.discard = self.discard
        s.aside = self.aside
        s.known = self.known
        s.active = self.active
        s.first = self.first
        s.turn = self.turn
        s.steps = self.steps
        s.endgame = self.endgame
        s.phase = self.phase
        s.p_loc = self.p_loc
        s.p_cards = self.p_cards
        s.p_n = self.p_n
        s.rng = self.rng
        s.ended = self.ended
        s.shuffled = self.shuffled
        s.fought = self.fought
        return s

    def own_locations(self) -> None:
        """Copy the shared location lists before a rule changes them."""
        if not self._lo:
            self._lo = True
            self.loc_card = self.loc_card[:]
            self.loc_owner = self.loc_owner[:]
            self.loc_def = self.loc_def[:]
            self.loc_en = self.loc_en[:]
            self.loc_up = self.loc_up[:]
            self.loc_att = self.loc_att[:]
            self.loc_tardis = self.loc_tardis[:]

    def own(self, lists: int) -> None:
        """Copy the outer lists named by `lists` (bits: RESERVE, TP, UPRES, PASSED, KNOWN)
        that this state still shares with the one it was copied from, before a rule changes
        them. Every write to one of them goes through here first."""
        shared = lists & ~self._own
        if shared:
            self._own |= shared
            if shared & RESERVE:
                self.reserve = self.reserve[:]
            if shared & TP:
                self.tp = self.tp[:]
            if shared & UPRES:
                self.upres = self.upres[:]
            if shared & PASSED:
                self.passed = self.passed[:]
            if shared & KNOWN:
                # (`copy`: the compiled build calls the `bytearray` type generically, at
                # about twice the cost, and a rule that changes what a seat knows asks this)
                self.known = self.known.copy()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name in _FIELDS:
            v = getattr(self, name)
            if name == "passed":
                v = [[list(p) for p in seat] for seat in v]
            elif name in _NESTED:
                v = [list(x) for x in v]
            elif isinstance(v, (tuple, list, bytearray)):
                v = list(v)
            out[name] = v
        if self.fought:
            out["fought"] = list(self.fought)
        return out

    # ------------------------------------------------------------------ protocol
    @property
    def to_move(self) -> int | None:
        ph = self.phase
        if ph == OVER:
            return None
        if ph in (IRON, VALIANT):
            return self.loc_owner[self.p_loc]
        if ph == MATCH:
            return self.loc_att[self.p_loc]
        return self.active

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def pass_count(self) -> int:
        return self.game.pass_count

    def legal_actions(self) -> list[Action]:
        """A fresh list, kept nowhere: a playout lists a state once and applies one of its
        actions unchecked, and keeping the list for `apply` meant copying it and freeing
        two lists (about 5% of a compiled playout). `apply` lists again and keeps that list
        (its actions are the same shared objects, so the identity check still holds)."""
        legal = self._legal
        if legal is not None:
            return list(legal)
        return self.game.legal_of(self)

    # The counted enumeration: searches and playouts that want one move build only it.
    def legal_count(self) -> int:
        return self.game.count_of(self)

    def legal_at(self, i: int) -> Action:
        return self.game.pick_of(self, i, None)

    def random_legal(self, rng: Rng) -> Action:
        return self.game.pick_of(self, 0, rng)

    def apply(self, action: Action) -> State:
        """The checked path. Listed actions are shared objects, so the check is by identity
        first; an equal action built elsewhere (JSON, a test) is checked by value."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self.game.legal_of(self)
        for listed in legal:
            if listed is action:
                return self.apply_unchecked(action)
        if action not in legal:
            if not isinstance(action, Action):
                raise InvalidAction(f"not an action: {action!r}")
            if self.phase == OVER:
                raise GameOver("the game is over; no more moves", "C-6")
            raise self.why_illegal(action)
        return self.apply_unchecked(action)

    def apply_unchecked(self, action: Action) -> CardGameState:
        s = self.fork()
        s.game.advance(s, action)
        return s

    def apply_logged(self, action: Action, log: list[Event]) -> CardGameState:
        """`apply_unchecked`, the rules appending to `log` what happened (`rules/tell.py`)."""
        s = self.fork()
        s.log = log
        try:
            s.game.advance(s, action)
        finally:
            s.log = None
        return s

    def reveals(self, action: Action) -> bool:
        """Chance is the generator; every secret is a card, and `known` says which seats know
        each (views are made from it, C-7): an action shows a seat something exactly when
        some card becomes known to a seat that did not know it, or when it ends the game."""
        after = self.apply(action)
        assert isinstance(after, CardGameState)
        if after.rng != self.rng or after.phase == OVER:
            return True  # (the end turns every attack up to score it, C-R30)
        return any(a & ~b for a, b in zip(after.known, self.known, strict=True))

    def why_illegal(self, action: Action) -> IllegalAction:
        return self.game.why_illegal_of(self, action)

    def scores(self) -> list[float]:
        return [float(v) for v in self.game.points(self)]

    def winners(self) -> list[int]:
        if self.phase != OVER:
            return []
        sc = self.scores()
        best = max(sc)
        return [i for i, v in enumerate(sc) if v == best]

    def view(self, seat: object) -> View:
        # any object: a bad seat is `InvalidSeat`, not the compiled build's TypeError
        return self.game.view_of(self, self.game.check_seat(seat))

    def __repr__(self) -> str:
        return f"<CardGameState turn={self.turn} active={self.active} phase={self.phase}>"
