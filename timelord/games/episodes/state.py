"""The position of an Episodes game and the rules that move it on.

Cards are codes (see `cards.py`); hands are sorted lists of codes. The deck is a list whose
*end* is the top; only its top `fixed` cards have a settled order (cards a Doctor looked at,
or a test's stacked deck). The rest is kept sorted and a draw from it takes a card uniformly at
random, which is the same in distribution as drawing the top card of a shuffled deck (E-3.4).
So a reshuffle only hands the pile over, and `sample_state` never has to shuffle a deck.

States are never changed once built: `apply_unchecked` clones, mutates the clone and returns
it. Inner lists are shared between states and replaced, never mutated in place, so a clone
only copies the outer containers.

What each seat knows beyond its own hand (E-8) is stored with the state:
`known[s][o]` is a sorted list of cards seat `s` knows to be in seat `o`'s hand (always a
sub-multiset of that hand); `top[s]` is how many cards from the top of the deck seat `s` has
seen (a Doctor peek); during a Gadget choice `limbo_known[s]` holds the drawn cards `s` knows.
After a reshuffle, `pool[s]` is what seat `s` knows the deck can still hold: the public pile
that became the deck, less the cards `s` saw leave it since (its own draws, peeked cards drawn,
Gadget discards); `pool[players]` is the same for a spectator. The deck is always inside every
pool. Before the first reshuffle the pools are empty and mean nothing (E-8.11).
"""

from __future__ import annotations

from abc import abstractmethod
from bisect import bisect_left, insort
from typing import Any, Final

from mypy_extensions import mypyc_attr

from timelord.core import (
    NATIVE,
    Action,
    Game,
    IllegalAction,
    InvalidAction,
    Rng,
    State,
    View,
    resume,
)
from timelord.core.events import Event
from timelord.core.viewcache import ViewCache
from timelord.games.episodes import hands as H
from timelord.games.episodes.actions import (
    ChooseOpponent,
    DiscardCard,
    KeepCard,
    PlayEpisode,
    SkipAbility,
    SkipEpisode,
    UseAbility,
)
from timelord.games.episodes.cards import (
    COMPANION,
    DOCTOR,
    FOE,
    GADGET,
    LABEL,
    PLOT,
    SPECIAL,
    SUIT_INDEX,
    SUITS,
    Deck,
)
from timelord.games.episodes.hands import (  # bare names: one global load each, interpreted
    ACTION,
    COMPANION_DRAW,
    DISCARD,
    DRAW,
    EPISODE,
    EPISODE_DRAW,
    GADGET_DRAW,
    HAND_LIMIT,
    KEEP,
    OVER,
    PEEK,
    TARGET,
)

# Shared action objects: legal lists reuse them instead of building new ones each time.
_SKIP_ABILITY: Final = SkipAbility()
_SKIP_EPISODE: Final = SkipEpisode()
# Indexed by card code (suit * 16 + FP); the codes of FP 0 name no card and are never read.
_USE: Final = tuple(UseAbility(SUITS[c >> 4], c & 15) for c in range(96))
_KEEP: Final = tuple(KeepCard(SUITS[c >> 4], c & 15) for c in range(96))
_DISCARD: Final = tuple(DiscardCard(SUITS[c >> 4], c & 15) for c in range(96))
_CHOOSE: Final = tuple(ChooseOpponent(s) for s in range(6))
_KINDS: Final = frozenset(
    (UseAbility, SkipAbility, ChooseOpponent, KeepCard, PlayEpisode, SkipEpisode, DiscardCard)
)
_EPISODES: Final[dict[tuple[int, ...], PlayEpisode]] = {}
# The lists a clone shares with its parent until it changes one (`_shared`): the per-seat
# tables, and the deck and discard pile (most moves draw and discard nothing).
_VP: Final = 1
_TOP: Final = 2
_POOL: Final = 4
_LIMBO_KNOWN: Final = 8
_KNOWN: Final = 16
_DECK: Final = 32
_PILE: Final = 64
_SHARED: Final = _VP | _TOP | _POOL | _LIMBO_KNOWN | _KNOWN | _DECK | _PILE


def _episode_action(fps: tuple[int, ...]) -> PlayEpisode:
    a = _EPISODES.get(fps)
    if a is None:
        a = _EPISODES[fps] = PlayEpisode(fps)
    return a


def _card_code(suit: str, fp: int) -> int:
    """Code of a (suit, fp) named by an action; -1 if no such card can exist."""
    s = SUIT_INDEX.get(suit)
    if s is None or not isinstance(fp, int) or not 1 <= fp <= 15:
        return -1
    return s * 16 + fp


def well_formed(action: Action) -> bool:
    """Whether an action of this game has fields of the declared types (actions built in
    Python are not checked the way JSON-decoded ones are)."""
    fields: Any = action  # read untyped: the compiled build would refuse a wrong type on read
    if isinstance(action, UseAbility | KeepCard | DiscardCard):
        return isinstance(fields.suit, str) and _is_int(fields.fp)
    if isinstance(action, ChooseOpponent):
        return _is_int(fields.seat)
    if isinstance(action, PlayEpisode):
        return isinstance(fields.fps, tuple) and all(_is_int(f) for f in fields.fps)
    return True


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _without(cards: list[int], c: int) -> list[int]:
    out = cards[:]
    out.remove(c)
    return out


def _minus(cards: list[int], gone: list[int]) -> list[int]:
    """`cards` less one copy of each of `gone` that it holds (multiset difference). Compiled,
    scanned by index: each comparison is a machine one, where `list.remove` compared objects
    (a tenth of a compiled playout). Interpreted, searched in C, where the loop over indices
    was a tenth of a playout: by bisection, as `cards` is sorted wherever the rules call this
    (the pools, the drawn cards), and by the list's own scan should it not be."""
    out = cards[:]
    if NATIVE:
        n = len(out)
        for c in gone:
            i = 0
            while i < n and out[i] != c:
                i += 1
            if i < n:
                del out[i]
                n -= 1
        return out
    for c in gone:
        i = bisect_left(out, c)
        if i < len(out) and out[i] == c:
            del out[i]
            continue
        try:  # noqa: SIM105 - contextlib.suppress costs a call per card
            out.remove(c)  # not found by bisection: not held (rare), or `cards` unsorted
        except ValueError:
            pass
    return out


@mypyc_attr(allow_interpreted_subclasses=True)  # subclasses of the game may be interpreted
class EpisodesRules(Game):
    """What a state needs of its game: the options the rules read, and the entry point to
    the views, which are built on top of this module; `EpisodesRules` (game.py) fills it in."""

    deck: Deck
    target: int
    max_rounds: int
    #: the suits an episode takes one card of: all six, but fewer in a variant (E-R20)
    episode_suits: tuple[int, ...]
    #: what `sample_state` read and checked from each recent view (`sample.prepare`)
    _views: ViewCache[Any]

    @abstractmethod
    def view_of(self, st: EpisodesState, seat: int | None) -> View:
        """What `seat` knows of `st` (`view.build_view`)."""


class EpisodesState(State):
    __slots__ = (
        "_legal",
        "_log",
        "_shared",
        "deck",
        "discard",
        "ended",
        "fixed",
        "floor",
        "game",
        "hands",
        "known",
        "limbo",
        "limbo_known",
        "limbo_old",
        "pending",
        "phase",
        "pool",
        "reshuffles",
        "rng",
        "top",
        "turn",
        "vp",
    )

    game: EpisodesRules
    hands: list[list[int]]
    deck: list[int]
    fixed: int
    discard: list[int]
    vp: list[int]
    turn: int
    phase: int
    pending: int
    limbo: list[int]
    known: list[list[list[int]]]
    top: list[int]
    limbo_known: list[list[int]]
    limbo_old: int
    pool: list[list[int]]
    floor: int
    rng: int
    reshuffles: int
    ended: str
    _legal: list[Action] | None
    #: where the rules append events while `apply_logged` runs; None on the fast path
    _log: list[Event] | None
    #: which of `vp`, `top`, `pool`, `limbo_known`, `known`, `deck` and `discard` (bits `_VP`
    #: ... `_PILE`) are still the lists of the state this one was cloned from (most moves
    #: change few of them): `_own` copies one before it changes
    _shared: int

    # ------------------------------------------------------------------ construction

    def __init__(self, game: EpisodesRules) -> None:
        """A state with only its game set; `blank` and `_clone` fill in the rest."""
        self.game = game
        self._legal = None
        self._log = None
        self._shared = 0

    @classmethod
    def blank(cls, game: EpisodesRules) -> EpisodesState:
        """An empty table for `game` (all zones empty); callers fill it in."""
        n = game.players
        st = EpisodesState(game)
        st.hands = [[] for _ in range(n)]
        st.deck = []
        st.fixed = 0
        st.discard = []
        st.vp = [0] * n
        st.turn = 0
        st.phase = ACTION
        st.pending = -1
        st.limbo = []
        st.known = [[[] for _ in range(n)] for _ in range(n)]
        st.top = [0] * n
        st.limbo_known = [[] for _ in range(n)]
        st.limbo_old = 0
        st.pool = [[] for _ in range(n + 1)]
        st.floor = 0
        st.rng = 0
        st.reshuffles = 0
        st.ended = ""
        return st

    def _clone(self) -> EpisodesState:
        if NATIVE:  # a compiled class's `__new__` runs `__init__`, which needs the game
            st = EpisodesState(self.game)
        else:  # the fields set here: `__init__` would be a Python call of its own
            st = EpisodesState.__new__(EpisodesState)
            st.game = self.game
            st._legal = None
            st._log = None
        st.hands = self.hands[:]
        st.deck = self.deck
        st.fixed = self.fixed
        st.discard = self.discard
        st.vp = self.vp
        st.turn = self.turn
        st.phase = self.phase
        st.pending = self.pending
        st.limbo = self.limbo
        st.known = self.known
        st.top = self.top
        st.limbo_known = self.limbo_known
        st.limbo_old = self.limbo_old
        st.pool = self.pool
        st._shared = _SHARED
        st.floor = self.floor
        st.rng = self.rng
        st.reshuffles = self.reshuffles
        st.ended = self.ended
        return st

    def _own(self, tables: int) -> None:
        """Copy those of `tables` (`_VP` | ...) still shared with the state this one was
        cloned from, so that changing them leaves that state as it was."""
        mine = self._shared & tables
        if mine & _VP:
            self.vp = self.vp[:]
        if mine & _TOP:
            self.top = self.top[:]
        if mine & _POOL:
            self.pool = self.pool[:]
        if mine & _LIMBO_KNOWN:
            self.limbo_known = self.limbo_known[:]
        if mine & _KNOWN:
            self.known = [row[:] for row in self.known]
        if mine & _DECK:
            self.deck = self.deck[:]
        if mine & _PILE:
            self.discard = self.discard[:]
        self._shared &= ~tables

    def _known_row(self, s: int) -> list[list[int]]:
        """Row `s` of `known`, this state's own to change. While the table is shared only the
        outer list and this row are copied, and the table stays marked shared, so a change to
        another row copies it first (most changes touch one row: a peeked draw, a look)."""
        known = self.known
        if self._shared & _KNOWN:
            known = self.known = known[:]
            row = known[s] = known[s][:]
            return row
        return known[s]

    # ------------------------------------------------------------------ protocol

    @property
    def to_move(self) -> int | None:
        if self.phase == OVER:
            return None
        return self.turn % self.game.players

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def seat(self) -> int:
        """Seat whose turn it is (also after the game ended)."""
        return self.turn % self.game.players

    def legal_actions(self) -> list[Action]:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal[:]

    # The counted enumeration reads the list without copying it: Episodes' lists are short
    # (the episode combinations are rare and few), so counting them would not pay.
    def legal_count(self) -> int:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return len(legal)

    def legal_at(self, i: int) -> Action:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal[i]

    def random_legal(self, rng: Rng) -> Action:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal[rng.below(len(legal))]

    def scores(self) -> list[float]:
        return [float(v) for v in self.vp]

    def winners(self) -> list[int]:
        if self.phase != OVER:
            return []
        best = max(self.vp)
        return [s for s, v in enumerate(self.vp) if v == best]

    def apply_unchecked(self, action: Action) -> State:
        st = self._clone()
        st._do(action)
        st._settle()
        return st

    def apply_logged(self, action: Action, log: list[Event]) -> State:
        st = self._clone()
        st._log = log
        st._do(action)
        st._settle()
        st._log = None
        return st

    def _tell(
        self, kind: str, data: dict[str, Any], private: tuple[tuple[frozenset[int], Any], ...] = ()
    ) -> None:
        """Append an event (callers check `_log is not None` first, so the fast path pays
        nothing for building its data)."""
        assert self._log is not None
        self._log.append(Event(kind, data, private))

    def apply(self, action: Action) -> State:
        # State.apply's contract, checked against the cached list without copying it.
        if self.phase != OVER and isinstance(action, Action):
            legal = self._legal
            if legal is None:
                legal = self._legal = self._compute_legal()
            if action in legal:
                return self.apply_unchecked(action)
        return super().apply(action)

    def check(self, action: Action) -> None:
        # A malformed or foreign action breaks no rule: it is no move at all (InvalidAction).
        if isinstance(action, Action) and (type(action) not in _KINDS or not well_formed(action)):
            raise InvalidAction(f"{action!r} is not a well-formed Episodes move")
        super().check(action)

    # ------------------------------------------------------------------ legal moves

    def _compute_legal(self) -> list[Action]:
        ph = self.phase
        if ph == OVER:
            return []
        n = self.game.players
        seat = self.turn % n
        hands = self.hands
        hand = hands[seat]
        out: list[Action] = []
        if ph == DISCARD:  # most frequent first: a random game discards most
            # E-6.2: the excess is discarded in non-decreasing code order, and a code is
            # offered only if the rest of the excess fits at or above it, so every set of
            # excess cards is reached once. That puts it among the first HAND_LIMIT + 1 cards;
            # at or above the floor is a suffix of the sorted hand.
            floor = self.floor
            prev = -1
            for c in hand[bisect_left(hand, floor) if floor else 0 : HAND_LIMIT + 1]:
                if c != prev:
                    out.append(_DISCARD[c])
                    prev = c
            return out
        if ph == ACTION:
            # an opponent holds a card unless every other hand is empty (with `hand` empty
            # the loop below adds nothing either way)
            targets = hands.count([]) < n - 1
            prev = -1
            for c in hand:
                if c != prev and (targets or (c >> 4) < 3):
                    out.append(_USE[c])
                prev = c
            out.append(_SKIP_ABILITY)
            return out
        if ph == EPISODE:
            for fps in H.episodes(hand, self.game.episode_suits):
                out.append(_episode_action(fps))
            out.append(_SKIP_EPISODE)
            return out
        if ph == TARGET:
            return [_CHOOSE[o] for o in range(n) if o != seat and hands[o]]
        assert ph == KEEP
        return [_KEEP[c] for c in sorted(set(self.limbo))]

    def reveals(self, action: Action) -> bool:
        """Episodes' secrets are the hands, the deck and the Gadget's drawn cards (E-8): an
        action reveals when it moves the generator, the deck or limbo, changes a hand (a
        card leaves a hidden hand face up, or is drawn, stolen or kept), or teaches a seat
        a card (the knowledge tables: `known`, `top`, `limbo_known`)."""
        after = self.apply(action)
        assert isinstance(after, EpisodesState)
        return (
            after.rng != self.rng
            or after.deck != self.deck
            or after.limbo != self.limbo
            or after.hands != self.hands
            or after.known != self.known
            or after.top != self.top
            or after.limbo_known != self.limbo_known
        )

    def why_illegal(self, action: Action) -> IllegalAction:
        if self.phase == OVER:
            return IllegalAction("the game is over", "E-7.1")
        if not well_formed(action):
            return IllegalAction(f"malformed {type(action).__name__}: {action!r}", "")
        if action in self.legal_actions():
            return IllegalAction(f"{action} is allowed now", "")
        seat = self.seat
        hand = self.hands[seat]
        phase = H.PHASES[self.phase]
        if isinstance(action, UseAbility | SkipAbility):
            if self.phase != ACTION:
                return IllegalAction(
                    f"abilities are used in the action phase, not {phase}", "E-4.1"
                )
            assert isinstance(action, UseAbility)
            c = _card_code(action.suit, action.fp)
            if c < 0 or c not in hand:
                return IllegalAction(f"you hold no {action.suit} {action.fp}", "E-4.1")
            return IllegalAction(
                f"no opponent holds a card, so a {action.suit} ability has no target", "E-4.8"
            )
        if isinstance(action, ChooseOpponent):
            if self.phase != TARGET:
                return IllegalAction("no ability is waiting for a target", "E-4.8")
            if action.seat == seat:
                return IllegalAction("the target must be an opponent, not yourself", "E-4.8")
            if not 0 <= action.seat < self.game.players:
                return IllegalAction(f"there is no seat {action.seat}", "E-4.8")
            return IllegalAction(f"seat {action.seat} holds no cards to target", "E-4.8")
        if isinstance(action, KeepCard):
            if self.phase != KEEP:
                return IllegalAction("no Gadget draw is waiting for a choice", "E-4.6")
            return IllegalAction(
                f"{action.suit} {action.fp} is not among the cards the Gadget drew", "E-4.6"
            )
        if isinstance(action, PlayEpisode | SkipEpisode):
            if self.phase != EPISODE:
                return IllegalAction(
                    f"episodes are played in the episode phase, not {phase}", "E-5.1"
                )
            assert isinstance(action, PlayEpisode)
            suits = self.game.episode_suits
            if len(action.fps) != 6:
                return IllegalAction("an episode is one card of each of the six suits", "E-5.1")
            for s, fp in enumerate(action.fps):
                if s not in suits:
                    if fp:
                        return IllegalAction(f"this game's episodes take no {SUITS[s]}", "E-R20")
                    continue
                c = _card_code(SUITS[s], fp)
                if c < 0 or c not in hand:
                    return IllegalAction(f"you hold no {SUITS[s]} {fp}", "E-5.1")
            d, t = H.defence(action.fps), H.threat(action.fps)
            return IllegalAction(f"the Defenders' {d} FP must exceed the Threat's {t} FP", "E-5.2")
        if isinstance(action, DiscardCard):
            if self.phase != DISCARD:
                return IllegalAction(
                    f"cards are discarded to the hand limit only in the end phase over "
                    f"{HAND_LIMIT} cards (now: {phase})",
                    "E-6.1",
                )
            c = _card_code(action.suit, action.fp)
            if c < 0 or c not in hand:
                return IllegalAction(f"you hold no {action.suit} {action.fp}", "E-6.1")
            return IllegalAction(
                f"excess cards are discarded in ascending (suit, FP) order; after "
                f"{LABEL[self.floor]} the next must come later in that order and leave "
                f"enough cards to finish",
                "E-6.2",
            )
        return IllegalAction(f"{action} is not a move of this game", "")

    # ------------------------------------------------------------------ moving on

    def _do(self, action: Action, forced: bool = False) -> None:
        """Apply one decision; `forced`: the engine took it as the only choice (E-R13)."""
        kind = type(action)
        seat = self.turn % self.game.players
        log = self._log
        # most frequent first (a random game: discards, skipped episodes, abilities, targets)
        if kind is DiscardCard:
            assert isinstance(action, DiscardCard)
            c = SUIT_INDEX[action.suit] * 16 + action.fp
            if log is not None:
                self._tell("hand_limit_discard", {"actor": seat, "card": LABEL[c]})
            self._discard_from_hand(seat, c)
            self.floor = c
            self._end_phase(seat)
        elif kind is SkipEpisode:
            if log is not None:
                self._tell("skip_episode", {"actor": seat})
            self._end_phase(seat)
        elif kind is UseAbility:
            assert isinstance(action, UseAbility)
            c = SUIT_INDEX[action.suit] * 16 + action.fp
            if log is not None:
                self._tell("ability", {"actor": seat, "card": LABEL[c], "suit": action.suit})
            self._use_ability(seat, c)
        elif kind is ChooseOpponent:
            assert isinstance(action, ChooseOpponent)
            self._hit(seat, action.seat, forced)
        elif kind is KeepCard:
            assert isinstance(action, KeepCard)
            self._keep(seat, SUIT_INDEX[action.suit] * 16 + action.fp, forced)
        elif kind is SkipAbility:
            if log is not None:
                self._tell("skip_ability", {"actor": seat})
            self.phase = EPISODE
        else:
            assert isinstance(action, PlayEpisode)
            self._episode(seat, action.fps)

    def _settle(self) -> None:
        """Resolve steps that need no choice until a real decision. A step with one option is
        taken without asking only when every seat can see that it has one (E-8.8, E-R13):
        otherwise asking, or not, would tell the table about the player's hidden cards."""
        while True:
            ph = self.phase
            if ph == OVER:
                self._legal = []
                return
            legal = self._compute_legal()
            # rules 1 took every one-option step without asking (before E-R13 narrowed)
            if len(legal) == 1 and (self.game.rules < 2 or self._plainly_forced(ph)):
                if ph == ACTION:
                    self.phase = EPISODE
                elif ph == EPISODE:
                    self._end_phase(self.turn % self.game.players)
                else:
                    self._do(legal[0], True)  # a target or a one-card Gadget draw (E-R13)
                continue
            self._legal = legal
            return

    def _plainly_forced(self, ph: int) -> bool:
        """Whether a step with one option has it for reasons every seat sees: no card in hand
        for an ability, fewer cards than an episode takes (E-5.1), one opponent holding
        cards for a target, one card drawn by a Gadget. Equal drawn cards, a hand-limit
        discard or a hand that holds no episode are seen by the player alone."""
        hand = self.hands[self.turn % self.game.players]
        if ph == ACTION:
            return not hand
        if ph == EPISODE:
            return len(hand) < len(self.game.episode_suits)
        if ph == KEEP:
            return len(self.limbo) == 1
        return ph == TARGET

    def _use_ability(self, seat: int, c: int) -> None:
        self._discard_from_hand(seat, c)  # E-4.9: the card goes face up first
        suit = c >> 4
        if suit == DOCTOR:
            seen = min(PEEK, len(self.deck))
            self._fix(seen)
            if self._shared & _TOP:
                self._own(_TOP)
            self.top[seat] = seen
            if self._log is not None:
                cards = [LABEL[c] for c in self.deck[-1 : -seen - 1 : -1]] if seen else []
                self._tell(
                    "peek", {"actor": seat, "count": seen}, ((frozenset({seat}), {"cards": cards}),)
                )
            self.phase = EPISODE
        elif suit == COMPANION:
            self._draw(seat, COMPANION_DRAW, False, "companion")
            self.phase = EPISODE
        elif suit == GADGET:
            self._draw(seat, GADGET_DRAW, True, "gadget")
            self.phase = KEEP if self.limbo else EPISODE
        else:
            self.pending = suit
            self.phase = TARGET

    def _hit(self, seat: int, victim: int, forced: bool = False) -> None:
        suit = self.pending
        self.pending = -1
        self.phase = EPISODE
        hand = self.hands[victim]
        log = self._log
        if suit == PLOT:
            self._known_row(seat)[victim] = hand[:]
            if log is not None:
                data: dict[str, Any] = {"actor": seat, "victim": victim, "forced": forced}
                seen = {"cards": [LABEL[c] for c in hand]}
                self._tell("look", data, ((frozenset({seat}), seen),))
            return
        state = resume(self.rng)
        c = hand[state.below(len(hand))]
        self.rng = state.state
        if suit == SPECIAL:
            if log is not None:
                data = {"actor": seat, "victim": victim, "forced": forced, "card": LABEL[c]}
                self._tell("random_discard", data)
            self._discard_from_hand(victim, c)
            return
        if log is not None:
            data = {"actor": seat, "victim": victim, "forced": forced}
            self._tell("steal", data, ((frozenset({seat, victim}), {"card": LABEL[c]}),))
        assert suit == FOE
        if self._shared & _KNOWN:  # not before: a random discard copies only what it changes
            self._own(_KNOWN)
        known = self.known
        self.hands[victim] = _without(hand, c)
        mine = self.hands[seat][:]
        insort(mine, c)
        self.hands[seat] = mine
        for s in range(self.game.players):
            if s == seat:
                if c in known[s][victim]:
                    known[s][victim] = _without(known[s][victim], c)
            elif s == victim:
                k = known[s][seat][:]
                insort(k, c)
                known[s][seat] = k
            elif known[s][victim]:
                known[s][victim] = []  # E-8.4: the card taken unseen may be a known one

    def _keep(self, seat: int, c: int, forced: bool = False) -> None:
        rest = _without(self.limbo, c)  # sorted, so the pile order is canonical
        if self._log is not None:
            # Seats that saw the whole draw in a peek know the kept card too (E-8.7).
            knowing = {seat}
            for s, lk in enumerate(self.limbo_known):
                if lk and len(lk) == len(self.limbo):
                    knowing.add(s)
            data = {"actor": seat, "discarded": [LABEL[d] for d in rest], "forced": forced}
            self._tell("keep", data, ((frozenset(knowing), {"card": LABEL[c]}),))
        mine = self.hands[seat][:]
        insort(mine, c)
        self.hands[seat] = mine
        # each table copied only when this keep changes it: most keeps change no pool or row
        if self._shared & _PILE:
            self._own(_PILE)
        self.discard.extend(rest)
        n = self.game.players
        if self.reshuffles and not self.limbo_old:
            # The discarded cards are public and came from the deck (E-8.11). After a draw that
            # reshuffled midway nobody else can tell which drawn cards were from the new deck.
            if self._shared & _POOL:
                self._own(_POOL)
            for s in range(n + 1):
                if s != seat:
                    seen = self.limbo_known[s] if s < n else []
                    self.pool[s] = _minus(self.pool[s], _minus(rest, seen))
        for s in range(n):
            lk = self.limbo_known[s]
            if not lk:
                continue
            lk = lk[:]
            for d in rest:
                if d in lk:
                    lk.remove(d)
            if lk:  # what is left of a fully seen draw is the kept card (E-8.7)
                if self._shared & _KNOWN:
                    self._own(_KNOWN)
                known = self.known
                k = known[s][seat][:]
                insort(k, lk[0])
                known[s][seat] = k
        self.limbo = []
        self.limbo_old = 0
        self.limbo_known = [[] for _ in range(n)]
        self.phase = EPISODE

    def _episode(self, seat: int, fps: tuple[int, ...]) -> None:
        # `_discard_from_hand` for the whole episode at once (suit order onto the pile): one
        # copy of the hand, the pile and each knowledge row the cards leave, not one a card
        played = [s * 16 + fp for s, fp in enumerate(fps) if fp]  # 0: a suit left out (E-R20)
        hands = self.hands
        hand = hands[seat][:]
        for c in played:
            hand.remove(c)
        hands[seat] = hand
        if self._shared & _PILE:
            self.discard = [*self.discard, *played]
            self._shared &= ~_PILE
        else:
            self.discard.extend(played)
        for s, row in enumerate(self.known):
            k = row[seat]
            if k and any(c in k for c in played):
                self._known_row(s)[seat] = _minus(k, played)
        if self._shared & _VP:
            self._own(_VP)
        vp = H.threat(fps)
        self.vp[seat] += vp
        if self._log is not None:
            cards = [LABEL[c] for c in played]
            data = {"actor": seat, "cards": cards, "vp": vp, "total": self.vp[seat]}
            self._tell("episode", data)
        if self.vp[seat] >= self.game.target:
            self.phase = OVER  # E-7.1, E-R5: at once, no draw, no end phase
            self.ended = "target"
            if self._log is not None:
                self._tell_end()
            return
        self._draw(seat, EPISODE_DRAW, False, "episode")
        self._end_phase(seat)

    def _end_phase(self, seat: int) -> None:
        """End `seat`'s turn (the seat to move, which the caller has at hand)."""
        if len(self.hands[seat]) > HAND_LIMIT:
            if self.phase != DISCARD:
                self.phase = DISCARD
                self.floor = 0
            return
        self._next_turn()

    def _next_turn(self) -> None:
        game = self.game
        n = game.players
        turn = self.turn = self.turn + 1
        self.floor = 0
        if turn >= game.max_rounds * n:
            self.phase = OVER  # E-7.2
            self.ended = "rounds"
            if self._log is not None:
                self._tell_end()
            return
        if self._log is not None:
            self._tell("turn", {"actor": turn % n, "round": turn // n + 1})
        self._draw(turn % n, DRAW, False, "turn")
        self.phase = ACTION

    def _tell_end(self) -> None:
        data = {"reason": self.ended, "winners": self.winners(), "vp": self.vp[:]}
        self._tell("end", data)

    # ------------------------------------------------------------------ card movements

    def _discard_from_hand(self, seat: int, c: int) -> None:
        """Move one `c` from `seat`'s hand face up onto the discard pile (E-8.2)."""
        hands = self.hands
        hand = hands[seat][:]  # `_without` written out: most moves discard
        hand.remove(c)
        hands[seat] = hand
        shared = self._shared
        if shared & _PILE:  # `_own(_PILE)` written out: most moves discard
            self.discard = [*self.discard, c]  # one list of the final size (a copy grew)
            self._shared = shared = shared & ~_PILE
        else:
            self.discard.append(c)
        known = self.known
        for s, row in enumerate(known):
            k = row[seat]
            if k and c in k:
                if shared & _KNOWN:
                    # A hot spot: only the outer list and this row are copied, and the table
                    # stays marked shared, so a change to another row copies them all first.
                    known = self.known = known[:]
                    known[s] = known[s][:]
                known[s][seat] = _without(k, c)

    def _draw(self, seat: int, count: int, to_limbo: bool = False, reason: str = "") -> None:
        """Draw `count` cards for `seat` (E-3.2 reshuffle, E-3.3 short draw); `reason` names
        the rule that draws, for the event."""
        shared = self._shared
        if shared & _DECK:  # `_own(_DECK)` written out: a turn draws at least once
            deck = self.deck = self.deck[:]
            self._shared = shared & ~_DECK
        else:
            deck = self.deck
        drawn: list[int] = []
        rng: Rng | None = None
        cut = 0  # drawn[cut:] come from the deck made at the last reshuffle
        fixed = self.fixed  # kept here and stored once: every turn draws
        for _ in range(count):
            if not deck:
                if not self.discard:
                    break  # E-3.3
                if self._log is not None:
                    self._tell("reshuffle", {"count": len(self.discard)})
                deck = self.deck = sorted(self.discard)  # E-3.2: unordered, see E-3.4
                # E-8.11: the pile was face up, so everyone knows what the new deck holds.
                self.pool = [deck[:]] * (self.game.players + 1)
                self.discard = []
                self._shared &= ~(_POOL | _PILE)
                fixed = 0
                self.reshuffles += 1
                cut = len(drawn)
            if fixed:
                drawn.append(deck.pop())
                fixed -= 1
            else:
                if rng is None:
                    rng = resume(self.rng)
                drawn.append(deck.pop(rng.below(len(deck))))
        self.fixed = fixed
        if rng is not None:
            self.rng = rng.state
        if to_limbo:
            self.limbo_old = cut
        if self._log is not None:
            self._tell_draw(seat, count, drawn, reason)
        if not drawn:
            if to_limbo:
                self.limbo = []
            return
        pooled = self.reshuffles > 0 and cut < len(drawn)
        if pooled:
            shared = self._shared
            if shared & _POOL:  # `_own(_POOL)` written out: after a reshuffle, each draw
                pool = self.pool = self.pool[:]
                self._shared = shared & ~_POOL
            else:
                pool = self.pool
            pool[seat] = _minus(pool[seat], drawn[cut:] if cut else drawn)
        if any(self.top):
            # the tables the peeks below change: `top`, and `limbo_known` or rows of `known`
            # (`_known_row`); the pools are this state's own already if they change
            changed = (_TOP | _LIMBO_KNOWN) if to_limbo else _TOP
            if self._shared & changed:
                self._own(changed)
            top = self.top
            n = len(drawn)
            for s, seen in enumerate(top):
                if not seen:
                    continue
                m = min(seen, n)
                top[s] = seen - m
                if s == seat:
                    continue
                if pooled and m > cut:
                    self.pool[s] = _minus(self.pool[s], drawn[cut:m])
                if to_limbo:
                    self.limbo_known[s] = sorted(drawn[:m])
                else:
                    row = self._known_row(s)
                    k = row[seat] + drawn[:m]
                    k.sort()
                    row[seat] = k
        if to_limbo:
            drawn.sort()
            self.limbo = drawn
        else:
            hands = self.hands
            mine = hands[seat] + drawn
            mine.sort()
            hands[seat] = mine

    def _tell_draw(self, seat: int, asked: int, drawn: list[int], reason: str) -> None:
        """The drawer sees its cards; a seat that peeked sees those it saw on top (E-8.3)."""
        private: list[tuple[frozenset[int], Any]] = [
            (frozenset({seat}), {"cards": sorted(LABEL[c] for c in drawn)})
        ]
        for s, seen in enumerate(self.top):
            if seen and s != seat:
                private.append((frozenset({s}), {"seen": [LABEL[c] for c in drawn[:seen]]}))
        data = {"actor": seat, "count": len(drawn), "asked": asked, "reason": reason}
        self._tell("draw", data, tuple(private))

    def _fix(self, count: int) -> None:
        """Settle the order of the top `count` cards: each new one is a random unfixed card,
        placed just below those already fixed (E-3.4)."""
        if self.fixed >= count:
            return
        if self._shared & _DECK:
            self._own(_DECK)
        deck = self.deck
        rng = resume(self.rng)
        while self.fixed < count:
            free = len(deck) - self.fixed
            c = deck.pop(rng.below(free))
            deck.insert(free - 1, c)
            self.fixed += 1
        self.rng = rng.state

    # ------------------------------------------------------------------ JSON and views

    def to_json(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "phase": H.PHASES[self.phase],
            "pending": SUITS[self.pending] if self.pending >= 0 else None,
            "vp": self.vp[:],
            "hands": [h[:] for h in self.hands],
            "deck": self.deck[:],
            "fixed": self.fixed,
            "discard": self.discard[:],
            "limbo": self.limbo[:],
            "known": [[k[:] for k in row] for row in self.known],
            "top": self.top[:],
            "limbo_known": [k[:] for k in self.limbo_known],
            "limbo_old": self.limbo_old,
            "pool": [p[:] for p in self.pool],
            "floor": self.floor,
            "reshuffles": self.reshuffles,
            "ended": self.ended,
            "rng": self.rng,
        }

    def _settle_cache(self) -> None:
        self._legal = self._compute_legal()

    def view(self, seat: object) -> View:
        # any object: a bad seat is `InvalidSeat`, not the compiled build's TypeError
        return self.game.view_of(self, self.game.check_seat(seat))

    def __repr__(self) -> str:
        return f"<EpisodesState turn={self.turn} phase={H.PHASES[self.phase]} vp={self.vp}>"
