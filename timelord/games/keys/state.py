"""The rules engine of Keys to the TARDIS: `KeysState`, its legal moves and their effects.

Clause ids (K-...) refer to timelord/games/keys/RULES.md; rulings (K-R...) to docs/rulings.md.

Speed notes: a state holds only immutable values (ints, bitmasks, tuples), so a successor
shares everything it does not change; actions come from tables built once per game, so
listing 200 legal moves allocates no action objects; the checked `apply` asks `_refusal`,
an O(1) test that mirrors `_generate` clause by clause (a test keeps the two equal).
"""

from __future__ import annotations

import dataclasses
from abc import abstractmethod
from bisect import insort
from collections.abc import Callable
from functools import lru_cache
from typing import Any, Final

from mypy_extensions import mypyc_attr

from timelord.core import (
    NATIVE,
    Action,
    Game,
    GameOver,
    IllegalAction,
    InvalidAction,
    Rng,
    State,
    View,
    resume,
)
from timelord.core.events import Event
from timelord.core.viewcache import ViewCache
from timelord.games.keys.actions import (
    AssaultPawn,
    CloseDoor,
    DiscardCard,
    ForgoBonus,
    MovePawn,
    OpenDoor,
    PlaceBarrier,
    PlaceCookie,
    PlacePandorica,
    PlaceTunnel,
    RemoveBarrier,
    StayPut,
    StepOff,
)
from timelord.games.keys.board import (
    BACK_IDS,
    BACK_NAMES,
    BARRIER,
    BONUS_CARD,
    COOKIE,
    CYBERMAN,
    DALEK,
    EDGE_IDS,
    EXTRA_TURN,
    KEY,
    OPPOSITE,
    PANDORICA,
    SEAT_EDGES,
    SONIC,
    TARDIS_KEY,
    TELEPORT,
    TUNNEL,
    Content,
    geometry,
)

PLAY: Final = 0
MOVE: Final = 1
BONUS: Final = 2
OVER: Final = 3
PHASE_IDS: Final = ("play", "move", "bonus", "over")
PANDORICA_TURNS: Final = 2  # K-6.5


def bits(mask: int) -> list[int]:
    """The set bits of `mask`, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def nth_bit(mask: int, k: int) -> int:
    """The tile of the k-th set bit of `mask` (k = 0: the lowest)."""
    while k:
        mask &= mask - 1
        k -= 1
    return (mask & -mask).bit_length() - 1


class Tables:
    """Every action a game can offer, built once, indexed by card, tile and seat, and the
    grid's geometry (`geo`; its hottest tables copied here)."""

    def __init__(self, content: Content, players: int) -> None:
        geo = self.geo = geometry(content.size)
        cells = geo.cells
        self.control = geo.control
        self.door_mask = geo.door_mask
        self.orthogonal = geo.orthogonal
        self.orthogonal_masks = geo.orthogonal_masks
        self.deal = content.deal
        self.hand_limit = content.hand_limit
        n = len(content.card_ids)
        self.bonus = n  # index of the TARDIS Key bonus in open_/close
        names = (*content.card_ids, BONUS_CARD)
        self.card_index = {name: i for i, name in enumerate(content.card_ids)}
        self.discard = tuple(DiscardCard(c) for c in content.card_ids)
        self.open_ = tuple(tuple(OpenDoor(t, c) for t in range(cells)) for c in names)
        self.close = tuple(tuple(CloseDoor(t, c) for t in range(cells)) for c in names)
        self.remove = tuple(RemoveBarrier(t) for t in range(cells))
        self.barrier = tuple(PlaceBarrier(t) for t in range(cells))
        self.cookie = tuple(PlaceCookie(t) for t in range(cells))
        self.pandorica = tuple(PlacePandorica(s) for s in range(players))
        self.assault = tuple(tuple(AssaultPawn(s, t) for t in range(cells)) for s in range(players))
        self.tunnel = tuple(PlaceTunnel(a, b) for _, a, b in geo.tunnel_slots)
        self.tunnel_by_corner = tuple(
            (corner, self.tunnel[i]) for i, (corner, _, _) in enumerate(geo.tunnel_slots)
        )
        #: per card, its `open_` and `close` actions for `_spread`; `barrier` and `remove`
        self.turns = tuple(ByteRows(o, c) for o, c in zip(self.open_, self.close, strict=True))
        self.barriers = ByteRows(self.barrier, self.remove)
        #: how many tunnel slots cross each corner (a tunnel there closes them all)
        self.corner_slots = [0] * geo.corners
        for corner, _, _ in geo.tunnel_slots:
            self.corner_slots[corner] += 1
        self.move = tuple(MovePawn(t) for t in range(cells))
        self.step_off = StepOff()
        self.stay = StayPut()
        self.forgo = ForgoBonus()
        self.effects = content.card_effects
        self.key_colour = content.card_colours
        self.barrier_card = content.card_of(BARRIER)
        self.pandorica_card = content.card_of(PANDORICA)
        self.cookie_card = content.card_of(COOKIE)
        self.tunnel_card = content.card_of(TUNNEL)
        self.sonic_card = content.card_of(SONIC)
        self.cyberman_card = content.card_of(CYBERMAN)
        # Legal actions are always these objects; knowing them by identity spares apply the
        # field-type check (the tables live as long as the game, so no id is reused).
        every: list[Action] = [*self.discard, *self.remove, *self.barrier, *self.cookie]
        for row in (*self.open_, *self.close, *self.assault):
            every.extend(row)
        every.extend([*self.pandorica, *self.tunnel, *self.move])
        every.extend([self.step_off, self.stay, self.forgo])
        self.ids = frozenset(id(a) for a in every)
        edges = SEAT_EDGES[players]
        #: per seat: the tiles of its own edge, that edge as a mask, the goal edge's mask
        self.home_tiles = tuple(geo.edge_tiles[e] for e in edges)
        self.home_mask = tuple(geo.edge_masks[e] for e in edges)
        self.goal_mask = tuple(geo.edge_masks[OPPOSITE[e]] for e in edges)


class ByteRows:
    """Two tables of actions by tile (a card's opening and closing ones, say) a byte of tiles
    at a time, for `_spread`: the actions of the set bits of byte value `v` at byte position
    `k`, the first table's at positions below `width`, the second's from `width` on. Flat
    (the compiled build's default), an entry is `rows[256 * k + v]`; otherwise (the
    interpreted one's) `lanes[k][v]`, a list per position: each build's walk is fastest on
    its own layout. An entry is filled when first read (`fill`), so a game that is only
    loaded builds none, and one that is played only those its boards need."""

    __slots__ = ("first", "flat", "lanes", "rows", "second", "width")

    def __init__(
        self, first: tuple[Action, ...], second: tuple[Action, ...], flat: bool = NATIVE
    ) -> None:
        self.first = first
        self.second = second
        self.flat = flat
        self.width = width = (len(first) + 7) // 8  # bytes in a mask of either table
        self.rows: list[tuple[Action, ...] | None] = [None] * (512 * width) if flat else []
        self.lanes: list[list[tuple[Action, ...] | None]] = (
            [] if flat else [[None] * 256 for _ in range(2 * width)]
        )

    def fill(self, k: int, v: int) -> tuple[Action, ...]:
        """The entry of byte value `v` at position `k`, filled in."""
        width = self.width
        actions = self.second if k >= width else self.first
        at = (k % width) * 8  # the tile of the byte's bit 0
        found = tuple([actions[at + t] for t in bits(v)])
        if self.flat:
            self.rows[(k << 8) | v] = found
        else:
            self.lanes[k][v] = found
        return found


def _spread_word(table: ByteRows, k: int, mask: int, out: list[Action]) -> None:
    """Append the actions of `mask`'s set bits from byte position `k` on, shifting the mask
    a byte at a time (in a machine word compiled: `_spread` on flat rows, once per mask)."""
    rows = table.rows
    base = k << 8
    while mask:
        v = mask & 255
        if v:
            found = rows[base + v]
            out.extend(table.fill(base >> 8, v) if found is None else found)
        mask >>= 8
        base += 256


def _spread(table: ByteRows, first: int, second: int, out: list[Action]) -> None:
    """Append `table`'s first actions of the set bits of the mask `first`, then its second
    ones of `second`, each lowest first, a byte of tiles at a time (a bit at a time,
    appending was most of listing Keys' moves in pure Python). Compiled, each mask is
    shifted a byte at a time in a machine word; interpreted, the two masks are joined into
    one integer whose bytes come from one `int.to_bytes` (faster there than shifting a
    Python integer or two `to_bytes` walks, and slower compiled). Each walk reads its own
    layout of the rows (`ByteRows.flat`)."""
    if table.flat:
        _spread_word(table, 0, first, out)
        _spread_word(table, table.width, second, out)
        return
    width = table.width
    lanes = table.lanes
    for k, v in enumerate((first | second << (width << 3)).to_bytes(width << 1, "little")):
        if v:
            found = lanes[k][v]
            out.extend(table.fill(k, v) if found is None else found)


@lru_cache(maxsize=256)
def _colour_masks(colour: tuple[int, ...], colours: int) -> tuple[int, ...]:
    """The door tiles of each colour as masks (the Control tile has colour -1); cached
    because search re-samples a layout."""
    return tuple(sum(1 << t for t, of in enumerate(colour) if of == c) for c in range(colours))


# The successor's tuples are built through one list: slicing and splicing would allocate
# two slices and a list on top of the tuple.


def _replace(values: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    out = list(values)
    out[i] = value
    return tuple(out)


def _remove_one(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    out = list(hand)
    out.remove(card)
    return tuple(out)


def _insert_sorted(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    """`hand` with `card` after any equal card: found by `bisect` interpreted, by a native
    loop compiled (a hand is a few cards; a call into `bisect` costs more there)."""
    out = list(hand)
    if NATIVE:
        i = 0
        while i < len(hand) and hand[i] <= card:
            i += 1
        out.insert(i, card)
    else:
        insort(out, card)
    return tuple(out)


@mypyc_attr(allow_interpreted_subclasses=True)  # subclasses of the game may be interpreted
class KeysRules(Game):
    """What a state needs of its game: the options and tables the rules read, and the
    entry points to the views, which are built on top of this module; `KeysRules`
    (game.py) fills these in."""

    content: Content
    tables: Tables
    round_limit: int
    #: seat turns (extra turns not counted) after which the game ends, 0: no such limit
    turn_limit: int
    #: whether a game the limit ends is a win shared by every seat (the tiny variant, K-R23)
    #: rather than a game nobody wins (K-7.2)
    stall_shared: bool
    #: what `sample_state` read and checked from each recent view (`sample.prepare`)
    _views: ViewCache[Any]

    @abstractmethod
    def view_of(self, s: KeysState, seat: int | None) -> View:
        """What `seat` knows of `s` (`view.build_view`)."""

    @abstractmethod
    def json_of(self, s: KeysState) -> dict[str, Any]:
        """The canonical JSON form of `s` (`view.state_to_json`)."""


class KeysState(State):
    """One position of Keys to the TARDIS. Immutable: `apply` returns a new state."""

    __slots__ = (
        "_legal",
        "_log",
        "_occ",
        "_teleport_of",
        "_teleport_tiles",
        "back",
        "barrier_mask",
        "colour",
        "colour_masks",
        "cookie_mask",
        "corner_mask",
        "dalek_mask",
        "deck",
        "discard",
        "drawn",
        "extra",
        "game",
        "hands",
        "open_mask",
        "phase",
        "pool",
        "pos",
        "rng",
        "round",
        "seat",
        "seen_mask",
        "stuck",
        "tables",
        "tunnels",
        "used",
        "winner",
    )

    game: KeysRules
    tables: Tables
    #: back kind of each tile (CONTROL_KIND at the centre); hidden while a door is unseen
    back: tuple[int, ...]
    #: colour index of each tile (-1 at the centre); public
    colour: tuple[int, ...]
    colour_masks: tuple[int, ...]  # the door tiles of each colour
    dalek_mask: int
    open_mask: int  # doors now face up (never the Control tile)
    seen_mask: int  # doors whose back everyone has seen (K-5.8)
    barrier_mask: int
    cookie_mask: int
    corner_mask: int  # corners holding a Time Tunnel
    tunnels: tuple[tuple[int, int], ...]
    pos: tuple[int, ...]  # tile of each pawn, -1 off the board
    hands: tuple[tuple[int, ...], ...]  # sorted card indices
    deck: tuple[int, ...]  # the draw pile, top card last
    discard: tuple[int, ...]  # oldest first
    #: the discards shuffled into the draw pile at the latest reshuffle (sorted; () before
    #: any): public, and the draw pile holds only cards from it (K-3.1, ruling K-R17)
    pool: tuple[int, ...]
    #: per seat, sorted: cards drawn since the latest reshuffle (each seat knows its own)
    drawn: tuple[tuple[int, ...], ...]
    stuck: tuple[int, ...]  # turns each pawn still spends in the Pandorica
    used: tuple[int, ...]  # per seat: bonus tiles (TARDIS Key, Extra Turn) already used
    phase: int
    seat: int
    extra: bool  # the current turn earned an Extra Turn
    round: int  # completed rounds
    winner: int  # -1: none
    rng: int
    _legal: list[Action] | None
    _occ: int  # occupied tiles as a mask, -1 until computed
    #: the Teleport tiles as a mask, and the `back` it was read from (a sampler installs
    #: backs of its own, so the mask is checked against the tuple it came from)
    _teleport_tiles: int
    _teleport_of: tuple[int, ...] | None
    #: where the rules append events while `apply_logged` runs; None on the fast path
    _log: list[Event] | None

    # -- construction ------------------------------------------------------------------

    def __init__(self, game: KeysRules) -> None:
        """A state with only its game set; `blank` and `_copy` fill in the rest."""
        self.game = game
        self.tables = game.tables
        self._legal = None
        self._occ = -1
        self._log = None
        self._teleport_tiles = 0
        self._teleport_of = None

    @classmethod
    def blank(cls, game: KeysRules) -> KeysState:
        return KeysState(game)

    def set_board(self, back: tuple[int, ...], colour: tuple[int, ...]) -> None:
        """Install a tile layout (used when building a state, never after)."""
        self.back = back
        self.colour = colour
        self.colour_masks = _colour_masks(colour, len(self.game.content.colour_ids))
        self.dalek_mask = sum(1 << t for t, k in enumerate(back) if k == DALEK)

    def _copy(self) -> KeysState:
        if NATIVE:  # a compiled class's `__new__` runs `__init__`, which needs the game
            s = KeysState(self.game)
        else:  # the fields set here: `__init__` would be a Python call of its own
            s = KeysState.__new__(KeysState)
            s.game = self.game
            s.tables = self.tables
            s._legal = None
            s._log = None
        s.back = self.back
        s.colour = self.colour
        s.colour_masks = self.colour_masks
        s.dalek_mask = self.dalek_mask
        s.open_mask = self.open_mask
        s.seen_mask = self.seen_mask
        s.barrier_mask = self.barrier_mask
        s.cookie_mask = self.cookie_mask
        s.corner_mask = self.corner_mask
        s.tunnels = self.tunnels
        s.pos = self.pos
        s.hands = self.hands
        s.deck = self.deck
        s.discard = self.discard
        s.pool = self.pool
        s.drawn = self.drawn
        s.stuck = self.stuck
        s.used = self.used
        s.phase = self.phase
        s.seat = self.seat
        s.extra = self.extra
        s.round = self.round
        s.winner = self.winner
        s.rng = self.rng
        s._occ = self._occ
        s._teleport_tiles = self._teleport_tiles
        s._teleport_of = self._teleport_of
        return s

    # -- protocol ----------------------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        return None if self.phase == OVER else self.seat

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def scores(self) -> list[float]:
        won = self.winners()
        return [1.0 if s in won else 0.0 for s in range(self.game.players)]

    def winners(self) -> list[int]:
        if self.phase != OVER:
            return []
        if self.winner >= 0:
            return [self.winner]
        return list(range(self.game.players)) if self.game.stall_shared else []

    def legal_actions(self) -> list[Action]:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        return legal[:]

    # The counted enumeration: the play step (the long list, built anew for every turn) is
    # counted card by card from the masks, and one action is built from its index; the move
    # and bonus steps come listed already by the rules that led to them.

    def legal_count(self) -> int:
        legal = self._legal
        if legal is not None:
            return len(legal)
        if self.phase != PLAY:
            return len(self._listed())
        return sum(self._play_counts())

    def legal_at(self, i: int) -> Action:
        legal = self._legal
        if legal is not None:
            return legal[i]
        if self.phase != PLAY or i < 0:
            return self._listed()[i]
        return self._play_at(self._play_counts(), i)

    def random_legal(self, rng: Rng) -> Action:
        legal = self._legal
        if legal is not None:
            return legal[rng.below(len(legal))]
        if self.phase != PLAY:
            legal = self._listed()
            return legal[rng.below(len(legal))]
        counts = self._play_counts()
        return self._play_at(counts, rng.below(sum(counts)))

    def _listed(self) -> list[Action]:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        return legal

    def _play_counts(self) -> list[int]:
        """How many actions `_play_options` lists for each card of the hand, in hand order
        (0 for a repeated card; its discard included)."""
        tables = self.tables
        effects = tables.effects
        openm = self.open_mask
        barrier = self.barrier_mask
        shut = ~(openm | barrier)
        closing = openm & ~(barrier | self.cookie_mask | self.occupied_mask())
        doors = tables.door_mask
        out: list[int] = []
        previous = -1
        for card in self.hands[self.seat]:
            if card == previous:
                out.append(0)
                continue
            previous = card
            effect = effects[card]
            if effect == KEY:
                tiles = self.colour_masks[tables.key_colour[card]]
                out.append(1 + (tiles & shut).bit_count() + (tiles & closing).bit_count())
            elif effect == SONIC:
                n = (doors & shut).bit_count() + (doors & closing).bit_count()
                out.append(1 + n + barrier.bit_count())
            elif effect == BARRIER:
                out.append(1 + (doors & ~barrier).bit_count())
            elif effect == COOKIE:
                out.append(1 + self._cookie_tiles().bit_count())
            elif effect == TUNNEL:
                n = 1 + len(tables.tunnel)
                corners = self.corner_mask
                while corners:
                    low = corners & -corners
                    n -= tables.corner_slots[low.bit_length() - 1]
                    corners ^= low
                out.append(n)
            else:
                out.append(1 + self._target_count(effect))
        return out

    def _target_count(self, effect: int) -> int:
        """How many actions `_target_options` lists, without listing them."""
        seat = self.seat
        near = self.tables.orthogonal_masks
        n = 0
        for other, p in enumerate(self.pos):
            if other != seat and p >= 0 and not self.stuck[other]:
                if effect == PANDORICA:
                    n += 1
                    continue
                free = self.free_mask(other)
                n += (free & near[p]).bit_count()
                for a, b in self.tunnels:
                    if a == p:
                        n += free >> b & 1
                    elif b == p:
                        n += free >> a & 1
        return n

    def _play_at(self, counts: list[int], i: int) -> Action:
        """The i-th action of `_play_options`, from the hand's `_play_counts`."""
        for card, n in zip(self.hands[self.seat], counts, strict=True):
            if i < n:
                return self._card_at(card, i)
            i -= n
        raise IndexError("legal action index out of range")

    def _card_at(self, card: int, k: int) -> Action:
        """`_play_options`'s k-th action for `card` (0: its discard)."""
        tables = self.tables
        if k == 0:
            return tables.discard[card]
        k -= 1
        effect = tables.effects[card]
        if effect in (KEY, SONIC):
            tiles = self._door_tiles(card, effect)
            openm = self.open_mask
            barrier = self.barrier_mask
            shut = tiles & ~(openm | barrier)
            n = shut.bit_count()
            if k < n:
                return tables.open_[card][nth_bit(shut, k)]
            k -= n
            closing = tiles & openm & ~(barrier | self.cookie_mask | self.occupied_mask())
            n = closing.bit_count()
            if k < n:
                return tables.close[card][nth_bit(closing, k)]
            return tables.remove[nth_bit(barrier, k - n)]
        if effect == BARRIER:
            return tables.barrier[nth_bit(tables.door_mask & ~self.barrier_mask, k)]
        if effect == COOKIE:
            return tables.cookie[nth_bit(self._cookie_tiles(), k)]
        if effect == TUNNEL:
            corners = self.corner_mask
            return [a for c, a in tables.tunnel_by_corner if not corners >> c & 1][k]
        return self._target_options(effect)[k]

    def _door_tiles(self, card: int, effect: int) -> int:
        """The doors `card` may turn: its colour's for a Key, every door for the Sonic."""
        if effect == SONIC:
            return self.tables.door_mask
        return self.colour_masks[self.tables.key_colour[card]]

    def _cookie_tiles(self) -> int:
        """Seen Dalek doors a Jam Cookie may go on (K-6.4)."""
        return self.seen_mask & self.dalek_mask & ~self.cookie_mask & ~self.barrier_mask

    def _target_options(self, effect: int) -> list[Action]:
        """The Pandorica's or Cyberman Assault's actions, as `_play_options` lists them."""
        tables = self.tables
        seat = self.seat
        out: list[Action] = []
        if effect == PANDORICA:
            for other, p in enumerate(self.pos):
                if other != seat and p >= 0 and not self.stuck[other]:
                    out.append(tables.pandorica[other])
            return out
        near = tables.orthogonal_masks
        for other, p in enumerate(self.pos):
            if other != seat and p >= 0 and not self.stuck[other]:
                free = self.free_mask(other)
                push = tables.assault[other]
                # `neighbours(p)` that are free: the orthogonal ones lowest first, then
                # along the tunnels
                m = free & near[p]
                while m:
                    low = m & -m
                    out.append(push[low.bit_length() - 1])
                    m ^= low
                for a, b in self.tunnels:
                    if a == p:
                        if free >> b & 1:
                            out.append(push[b])
                    elif b == p and free >> a & 1:
                        out.append(push[a])
        return out

    def apply(self, action: Action) -> State:
        # Same contract as State.apply; `_refusal` replaces the O(n) list search (module doc).
        if id(action) not in self.tables.ids:
            malformed = _malformed(action)
            if malformed is not None:
                raise InvalidAction(malformed)
        if self.phase == OVER:
            raise GameOver("the game is over; no more moves", "K-7.1")
        refusal = self._refusal(action)
        if refusal is not None:
            raise refusal
        return self.apply_unchecked(action)

    def apply_logged(self, action: Action, log: list[Event]) -> State:
        s = self._copy()
        s._log = log
        _EFFECTS[type(action)](s, action)
        s._log = None
        return s

    def _tell(self, kind: str, /, **data: Any) -> None:
        """Append a public event by the seat to move (callers check `_log` first)."""
        assert self._log is not None
        self._log.append(Event(kind, {"actor": self.seat, **data}))

    def check(self, action: Action) -> None:
        # A malformed or foreign action breaks no rule: it is no move at all (InvalidAction).
        malformed = _malformed(action)
        if malformed is not None:
            raise InvalidAction(malformed)
        super().check(action)

    def reveals(self, action: Action) -> bool:
        """Keys' secrets are the hands, the draw pile's order and the backs of doors never
        opened (K-7.3): an action reveals when it moves the generator or the draw pile (a
        draw), changes a hand (a card played from a hidden hand is shown to the table; a
        card drawn is seen by its drawer), or turns up a back not seen before."""
        after = self.apply(action)
        assert isinstance(after, KeysState)
        return (
            after.rng != self.rng
            or after.deck != self.deck
            or after.hands != self.hands
            or bool(after.seen_mask & ~self.seen_mask)
        )

    def why_illegal(self, action: Action) -> IllegalAction:
        malformed = _malformed(action)
        if malformed is not None:
            return IllegalAction(malformed, "K-3")
        if self.phase == OVER:
            return GameOver("the game is over; no more moves", "K-7.1")
        refusal = self._refusal(action)
        if refusal is None:  # pragma: no cover - callers ask only about refused actions
            return IllegalAction(f"{action} is allowed now", "")
        return refusal

    def view(self, seat: object) -> View:
        # any object: a bad seat is `InvalidSeat`, not the compiled build's TypeError
        return self.game.view_of(self, self.game.check_seat(seat))

    def to_json(self) -> dict[str, Any]:
        return self.game.json_of(self)

    # -- derived facts -----------------------------------------------------------------

    def _name(self, tile: int) -> str:
        """A tile's name on this game's grid, for refusals."""
        return self.tables.geo.tile_name(tile)

    def home_edge(self, seat: int) -> int:
        return SEAT_EDGES[self.game.players][seat]

    def goal_mask(self, seat: int) -> int:
        return self.tables.goal_mask[seat]

    def occupied_mask(self) -> int:
        m = self._occ
        if m < 0:
            m = 0
            for p in self.pos:
                if p >= 0:
                    m |= 1 << p
            self._occ = m
        return m

    def walkable_mask(self) -> int:
        """Tiles a pawn may stand on after a move, ignoring other pawns (K-4.2)."""
        return self.open_mask & ~self.barrier_mask & ~(self.dalek_mask & ~self.cookie_mask)

    def free_mask(self, seat: int) -> int:
        """Tiles `seat`'s pawn may end a step on, by its own move or pushed: walkable and
        empty (K-4.2, K-4.5), and no Teleport while another pawn holds Control, since a
        Teleport there would put two pawns on one tile: the pawn waits (K-5.5, ruling K-R6;
        rules 1 let it stop on the Teleport instead). A pawn leaving Control may take one."""
        occupied = self.occupied_mask()
        # walkable_mask() and not occupied, in one expression (this runs for every pawn)
        free = self.open_mask & ~(
            self.barrier_mask | occupied | (self.dalek_mask & ~self.cookie_mask)
        )
        control = self.tables.control
        if occupied >> control & 1 and self.pos[seat] != control and self.game.rules >= 2:
            free &= ~self._teleports()
        return free

    def _teleports(self) -> int:
        """The open Teleport tiles (their backs are face up, so everyone knows them)."""
        back = self.back
        if self._teleport_of is not back:
            m = 0
            for t, kind in enumerate(back):
                if kind == TELEPORT:
                    m |= 1 << t
            self._teleport_tiles = m
            self._teleport_of = back
        return self.open_mask & self._teleport_tiles

    def neighbours(self, tile: int) -> list[int]:
        """Tiles one step from `tile`: orthogonal, then along Time Tunnels (K-4.1)."""
        out = list(self.tables.orthogonal[tile])
        for a, b in self.tunnels:
            if a == tile:
                out.append(b)
            elif b == tile:
                out.append(a)
        return out

    # -- legal moves -------------------------------------------------------------------

    def _generate(self) -> list[Action]:
        phase = self.phase
        if phase == PLAY:
            return self._play_options()
        if phase == MOVE:
            moves = self._move_options()
            moves.append(self.tables.stay)
            return moves
        if phase == BONUS:
            out: list[Action] = []
            self._toggles(self.tables.bonus, self.tables.door_mask, out)
            out.append(self.tables.forgo)
            return out
        return []

    def _move_options(self) -> list[Action]:
        seat = self.seat
        out: list[Action] = []
        if self.stuck[seat]:
            return out
        free = self.free_mask(seat)
        tables = self.tables
        move = tables.move
        p = self.pos[seat]
        if p < 0:
            for t in tables.home_tiles[seat]:
                if free >> t & 1:
                    out.append(move[t])
            return out
        for t in tables.orthogonal[p]:
            if free >> t & 1:
                out.append(move[t])
        for a, b in self.tunnels:
            if a == p:
                if free >> b & 1:
                    out.append(move[b])
            elif b == p and free >> a & 1:
                out.append(move[a])
        if tables.home_mask[seat] >> p & 1:
            out.append(tables.step_off)
        return out

    def _toggles(self, card: int, tiles: int, out: list[Action]) -> None:
        """Open or close each door of `tiles` (a mask) that card `card` may turn (K-6.1,
        K-6.2): opening first, each in tile order. (A memo of whole lists by card and masks
        missed more often than it hit, every deal having its own colours, and its thousands
        of tracked tuples kept the cyclic GC busy: the byte tables are bounded.)"""
        openm = self.open_mask
        barrier = self.barrier_mask
        closing = openm & ~(barrier | self.cookie_mask | self.occupied_mask())
        _spread(self.tables.turns[card], tiles & ~(openm | barrier), tiles & closing, out)

    def _play_options(self) -> list[Action]:
        tables = self.tables
        effects = tables.effects
        # the tables every card reads, looked up once for the hand
        discard = tables.discard
        turns = tables.turns
        key_colour = tables.key_colour
        colour_masks = self.colour_masks
        out: list[Action] = []
        previous = -1
        # `_toggles` for each Key and the Sonic, its masks worked out once for the hand
        openm = self.open_mask
        barrier = self.barrier_mask
        shut = ~(openm | barrier)
        closing = openm & ~(barrier | self.cookie_mask | self.occupied_mask())
        for card in self.hands[self.seat]:
            if card == previous:
                continue
            previous = card
            out.append(discard[card])
            effect = effects[card]
            if effect == KEY:
                tiles = colour_masks[key_colour[card]]
                _spread(turns[card], tiles & shut, tiles & closing, out)
            elif effect == SONIC:
                doors = tables.door_mask
                _spread(turns[card], doors & shut, doors & closing, out)
                if barrier:
                    _spread(tables.barriers, 0, barrier, out)
            elif effect == BARRIER:
                _spread(tables.barriers, tables.door_mask & ~barrier, 0, out)
            elif effect == COOKIE:
                cookie = tables.cookie
                out.extend(cookie[t] for t in bits(self._cookie_tiles()))
            elif effect in (PANDORICA, CYBERMAN):
                out.extend(self._target_options(effect))
            elif effect == TUNNEL:
                corners = self.corner_mask
                if corners:
                    out.extend([a for c, a in tables.tunnel_by_corner if not corners >> c & 1])
                else:
                    out.extend(tables.tunnel)
        return out

    # -- why a move is refused ---------------------------------------------------------

    def _refusal(self, action: Action) -> IllegalAction | None:
        """None if `action` is legal now, else the error naming the clause that forbids it."""
        cls = type(action)
        if cls not in _EFFECTS:
            return IllegalAction(f"{action} is not a Keys to the TARDIS move", "K-3")
        phase = self.phase
        if phase == PLAY:
            check = _PLAY_CHECKS.get(cls)
            if check is None:
                if cls is ForgoBonus:
                    return IllegalAction("there is no TARDIS Key bonus to forgo", "K-5.6")
                return self._early_move_refusal(action) or IllegalAction(
                    "play one card before you move", "K-3.2"
                )
            return check(self, action)
        if phase == MOVE:
            if cls is MovePawn:
                return self._move_refusal(action.tile)  # type: ignore[attr-defined]
            if cls is StepOff:
                return self._step_off_refusal()
            if cls is StayPut:
                return None
            return IllegalAction(
                "one card a turn, played before the move; now move or stay put", "K-3.3"
            )
        if phase == BONUS:
            if cls is ForgoBonus:
                return None
            if cls is OpenDoor or cls is CloseDoor:
                if action.card != BONUS_CARD:  # type: ignore[attr-defined]
                    return IllegalAction(
                        f"use the TARDIS Key bonus (card {BONUS_CARD!r}) or forgo it", "K-5.6"
                    )
                return self._door_refusal(action.tile, cls is OpenDoor)  # type: ignore[attr-defined]
            return IllegalAction(
                "take the TARDIS Key bonus (open or close any door) or forgo it", "K-5.6"
            )
        return GameOver("the game is over; no more moves", "K-7.1")

    def _card_refusal(self, card_id: str, effects: tuple[int, ...]) -> IllegalAction | int:
        """The card index if the player holds `card_id` and it has one of `effects`."""
        index = self.tables.card_index.get(card_id)
        if index is None:
            if card_id == BONUS_CARD:
                return IllegalAction(
                    "the TARDIS Key bonus comes only from moving onto a TARDIS Key tile", "K-5.6"
                )
            return IllegalAction(f"there is no card {card_id!r} in this game", "K-1.2")
        if self.tables.effects[index] not in effects:  # only door turning limits the card
            name = self.game.content.card_names[index]
            return IllegalAction(
                f"a {name} cannot open or close doors; only Keys and the Sonic Screwdriver do",
                "K-6.1",
            )
        if index not in self.hands[self.seat]:
            name = self.game.content.card_names[index]
            return IllegalAction(f"you hold no {name} card", "K-3.2")
        return index

    def _holds(self, effect: int) -> IllegalAction | None:
        card = self.game.content.card_of(effect)
        if card not in self.hands[self.seat]:
            name = self.game.content.card_names[card]
            return IllegalAction(f"you hold no {name} card", "K-3.2")
        return None

    def _door_refusal(self, tile: Any, opening: bool) -> IllegalAction | None:
        """Whether a door may be opened (or closed), whatever the card (K-6.1 to K-6.4)."""
        if not isinstance(tile, int) or not 0 <= tile < self.tables.geo.cells:
            return IllegalAction(f"there is no tile {tile!r}", "K-1.1")
        if tile == self.tables.control:
            return IllegalAction("the TARDIS Control tile is not a door", "K-5.4")
        if self.barrier_mask >> tile & 1:
            return IllegalAction(
                f"{self._name(tile)} is under a Time Barrier and cannot be opened or closed",
                "K-6.3",
            )
        is_open = self.open_mask >> tile & 1
        if opening:
            if is_open:
                return IllegalAction(f"{self._name(tile)} is already open", "K-6.1")
            return None
        if not is_open:
            return IllegalAction(f"{self._name(tile)} is already closed", "K-6.1")
        if self.cookie_mask >> tile & 1:
            return IllegalAction(f"{self._name(tile)} is held open by a Jam Cookie", "K-6.4")
        if self.occupied_mask() >> tile & 1:
            return IllegalAction(f"a pawn stands on {self._name(tile)}: it cannot close", "K-6.1")
        return None

    def _toggle_refusal(self, action: Any) -> IllegalAction | None:
        card = self._card_refusal(action.card, (KEY, SONIC))
        if isinstance(card, IllegalAction):
            return card
        refusal = self._door_refusal(action.tile, type(action) is OpenDoor)
        if refusal is not None:
            return refusal
        colour = self.tables.key_colour[card]
        if colour >= 0 and self.colour[action.tile] != colour:
            ids = self.game.content.colour_ids
            return IllegalAction(
                f"a {ids[colour]} Key turns only {ids[colour]} doors; "
                f"{self._name(action.tile)} is {ids[self.colour[action.tile]]}",
                "K-6.1",
            )
        return None

    def _discard_refusal(self, action: Any) -> IllegalAction | None:
        card = self._card_refusal(action.card, tuple(range(TUNNEL + 1)))
        return card if isinstance(card, IllegalAction) else None

    def _remove_refusal(self, action: Any) -> IllegalAction | None:
        refusal = self._holds(SONIC)
        if refusal is not None:
            return refusal
        tile = action.tile
        if not 0 <= tile < self.tables.geo.cells or not self.barrier_mask >> tile & 1:
            return IllegalAction(f"there is no Time Barrier on {self._name(tile)}", "K-6.2")
        return None

    def _barrier_refusal(self, action: Any) -> IllegalAction | None:
        refusal = self._holds(BARRIER)
        if refusal is not None:
            return refusal
        tile = action.tile
        if not 0 <= tile < self.tables.geo.cells:
            return IllegalAction(f"there is no tile {tile!r}", "K-1.1")
        if tile == self.tables.control:
            return IllegalAction("a Time Barrier cannot go on the TARDIS Control tile", "K-6.3")
        if self.barrier_mask >> tile & 1:
            return IllegalAction(
                f"{self._name(tile)} already has a Time Barrier; they do not stack", "K-6.3"
            )
        return None

    def _cookie_refusal(self, action: Any) -> IllegalAction | None:
        refusal = self._holds(COOKIE)
        if refusal is not None:
            return refusal
        tile = action.tile
        if not 0 <= tile < self.tables.geo.cells:
            return IllegalAction(f"there is no tile {tile!r}", "K-1.1")
        name = self._name(tile)
        if not self.seen_mask >> tile & 1 or not self.dalek_mask >> tile & 1:
            return IllegalAction(f"{name} is not a Dalek door anyone has seen", "K-6.4")
        if self.cookie_mask >> tile & 1:
            return IllegalAction(f"{name} already has a Jam Cookie", "K-6.4")
        if self.barrier_mask >> tile & 1:
            return IllegalAction(f"{name} is under a Time Barrier", "K-6.4")
        return None

    def _target_refusal(self, target: int, rule: str) -> IllegalAction | None:
        """Whether `target` is an opponent's pawn that a card may act on (K-6.5, K-6.6)."""
        if not 0 <= target < self.game.players or target == self.seat:
            return IllegalAction(f"seat {target} is not an opponent", rule)
        if self.pos[target] < 0:
            return IllegalAction(f"seat {target}'s pawn is not on the board", rule)
        if self.stuck[target]:
            return IllegalAction(f"seat {target}'s pawn is in the Pandorica", "K-6.5")
        return None

    def _pandorica_refusal(self, action: Any) -> IllegalAction | None:
        return self._holds(PANDORICA) or self._target_refusal(action.seat, "K-6.5")

    def _assault_refusal(self, action: Any) -> IllegalAction | None:
        refusal = self._holds(CYBERMAN) or self._target_refusal(action.seat, "K-6.6")
        if refusal is not None:
            return refusal
        tile = action.tile
        if tile not in self.neighbours(self.pos[action.seat]):
            return IllegalAction(
                f"{self._name(tile)} is not one step from seat {action.seat}'s pawn", "K-6.6"
            )
        return self._entry_refusal(tile, action.seat)

    def _tunnel_refusal(self, action: Any) -> IllegalAction | None:
        refusal = self._holds(TUNNEL)
        if refusal is not None:
            return refusal
        a, b = action.tile, action.other
        if not (0 <= a < self.tables.geo.cells and 0 <= b < self.tables.geo.cells) or a >= b:
            return IllegalAction("name the two tiles of a tunnel lower index first", "K-6.7")
        corner = self.tables.geo.diagonal_corner(a, b)
        if corner is None:
            return IllegalAction(
                f"{self._name(a)} and {self._name(b)} are not diagonally adjacent", "K-6.7"
            )
        if self.tables.control in (a, b):
            return IllegalAction("a Time Tunnel cannot touch the TARDIS Control tile", "K-6.7")
        if self.corner_mask >> corner & 1:
            return IllegalAction("a Time Tunnel already crosses that corner", "K-6.7")
        return None

    def _entry_refusal(self, tile: int, seat: int) -> IllegalAction | None:
        """Why `seat`'s pawn may not end a step on `tile` (K-4.2), or None."""
        if not 0 <= tile < self.tables.geo.cells:
            return IllegalAction(f"there is no tile {tile!r}", "K-1.1")
        bit = 1 << tile
        if self.free_mask(seat) & bit:
            return None
        name = self._name(tile)
        if self.walkable_mask() & ~self.occupied_mask() & bit:  # a Teleport, Control held
            return IllegalAction(
                f"another pawn holds the TARDIS Control tile, so the Teleport on {name} is "
                "blocked: wait until it moves",
                "K-5.5",
            )
        if tile == self.tables.control:
            return IllegalAction("the TARDIS Control tile is entered only by Teleport", "K-5.4")
        if not self.open_mask & bit:
            return IllegalAction(f"{name} is a closed door", "K-5.1")
        if self.barrier_mask & bit:
            return IllegalAction(f"{name} is blocked by a Time Barrier", "K-6.3")
        if self.dalek_mask & bit and not self.cookie_mask & bit:
            return IllegalAction(f"{name} is a Dalek door without a Jam Cookie", "K-5.3")
        return IllegalAction(f"another pawn stands on {name}", "K-4.5")

    def _move_refusal(self, tile: int) -> IllegalAction | None:
        seat = self.seat
        if self.stuck[seat]:
            return IllegalAction("your pawn is in the Pandorica and cannot move", "K-6.5")
        p = self.pos[seat]
        if p < 0:
            if tile not in self.tables.home_tiles[seat]:
                edge = EDGE_IDS[self.home_edge(seat)]
                return IllegalAction(
                    f"enter the TARDIS through a door on your own ({edge}) edge", "K-4.3"
                )
        elif tile not in self.tables.orthogonal[p] and tile not in self.neighbours(p):
            return IllegalAction(
                f"{self._name(tile)} is not one step (or one Time Tunnel) away", "K-4.1"
            )
        return self._entry_refusal(tile, seat)

    def _early_move_refusal(self, action: Action) -> IllegalAction | None:
        """A move asked for before the card is played, refused by a rule no card can change:
        that rule is the useful answer, not "play a card first" (K-3.2). Whatever a card could
        change (a closed door, a barrier, a pawn in the way, a diagonal a Time Tunnel could
        join) is left to K-3.2, so the answer never depends on an unseen door's back."""
        seat = self.seat
        if type(action) is StepOff:
            return self._step_off_refusal()
        if type(action) is not MovePawn:
            return None
        tile = action.tile
        if self.stuck[seat]:
            return IllegalAction("your pawn is in the Pandorica and cannot move", "K-6.5")
        if not isinstance(tile, int) or not 0 <= tile < self.tables.geo.cells:
            return IllegalAction(f"there is no tile {tile!r}", "K-1.1")
        if tile == self.tables.control:
            return IllegalAction("the TARDIS Control tile is entered only by Teleport", "K-5.4")
        p = self.pos[seat]
        if p < 0:
            return self._move_refusal(tile) if tile not in self.tables.home_tiles[seat] else None
        if tile in self.neighbours(p):
            return None
        corner = self.tables.geo.diagonal_corner(p, tile)
        if corner is not None and p != self.tables.control and not self.corner_mask >> corner & 1:
            return None  # a Time Tunnel played now could join them (K-6.7)
        return IllegalAction(
            f"{self._name(tile)} is not one step (or one Time Tunnel) away", "K-4.1"
        )

    def _step_off_refusal(self) -> IllegalAction | None:
        seat = self.seat
        if self.stuck[seat]:
            return IllegalAction("your pawn is in the Pandorica and cannot move", "K-6.5")
        p = self.pos[seat]
        if p < 0:
            return IllegalAction("your pawn is already off the board", "K-4.4")
        if not self.tables.home_mask[seat] >> p & 1:
            return IllegalAction("you can step off only from a tile on your own edge", "K-4.4")
        return None

    # -- effects -----------------------------------------------------------------------

    def apply_unchecked(self, action: Action) -> KeysState:
        s = self._copy()
        _EFFECTS[type(action)](s, action)
        return s

    def _play(self, card: int, to_discard: bool = True) -> None:
        seat = self.seat
        self.hands = _replace(self.hands, seat, _remove_one(self.hands[seat], card))
        if to_discard:
            # one copy (a starred tuple is built as a list first): this runs every play
            self.discard = self.discard + (card,)  # noqa: RUF005

    def _after_play(self) -> None:
        moves = self._move_options()
        if moves:
            self.phase = MOVE
            moves.append(self.tables.stay)
            self._legal = moves
        else:
            self._end_turn()

    def _toggle(self, tile: int, opening: bool) -> None:
        bit = 1 << tile
        if opening:
            self.open_mask |= bit
            self.seen_mask |= bit
        else:
            self.open_mask &= ~bit

    def _arrive(self, seat: int, tile: int) -> None:
        """Put a pawn on `tile`; a Teleport sends it on to Control unless another pawn holds
        Control (K-5.5): a pawn stepping (or pushed) off Control onto a Teleport goes back."""
        control = self.tables.control
        if self.back[tile] == TELEPORT and (
            not self.occupied_mask() >> control & 1 or self.pos[seat] == control
        ):
            tile = control
        self.pos = _replace(self.pos, seat, tile)
        self._occ = -1

    def _teleport_blocked_by(self, seat: int, tile: int) -> int | None:
        """The seat whose pawn on Control kept `seat`'s pawn on the Teleport `tile` it just
        reached (K-R6), or None when no Teleport was stopped."""
        if self.back[tile] != TELEPORT or self.pos[seat] != tile:
            return None
        control = self.tables.control
        return next((s for s, p in enumerate(self.pos) if p == control), None)

    def _end_turn(self) -> None:
        """Finish the current turn and start the next one that has a decision in it."""
        while True:
            seat = self.seat
            left = self.stuck[seat]
            if left:
                self.stuck = _replace(self.stuck, seat, left - 1)
                if left == 1:
                    self.discard = (*self.discard, self.tables.pandorica_card)
                    if self._log is not None:
                        self._tell("freed")
            extra = self.extra
            if extra:
                self.extra = False
            else:
                game = self.game
                seat = (seat + 1) % game.players
                self.seat = seat
                if seat == 0:
                    self.round += 1
                    if self.round >= game.round_limit:
                        self._stall()
                        return
                limit = game.turn_limit
                if limit and self.round * game.players + seat >= limit:
                    self._stall()
                    return
            if self._log is not None:
                self._tell("turn", round=self.round + 1, extra=extra)
            if self.start_turn():
                return
            if self._log is not None:
                self._tell("no_move")

    def _stall(self) -> None:
        """End the game with no winner: the round (or turn) limit is reached (K-7.2)."""
        self.phase = OVER
        self._legal = []
        if self._log is not None:
            self._log.append(Event("end", {"winner": None, "rounds": self.round}))

    def start_turn(self) -> bool:
        """Draw (K-3.1) and enter the play step; False if the turn has nothing to decide."""
        seat = self.seat
        hand = self.hands[seat]
        if len(hand) < self.tables.hand_limit:
            if not self.deck and self.discard:
                rng = resume(self.rng)
                pile = list(self.discard)
                self.pool = tuple(sorted(pile))
                self.drawn = ((),) * len(self.hands)
                rng.shuffle(pile)
                self.deck = tuple(pile)
                self.discard = ()
                self.rng = rng.state
                if self._log is not None:
                    self._tell("reshuffle", count=len(pile))
            if self.deck:
                card = self.deck[-1]
                self.hands = _replace(self.hands, seat, _insert_sorted(hand, card))
                self.deck = self.deck[:-1]
                if self.pool:
                    drawn = self.drawn
                    self.drawn = _replace(drawn, seat, _insert_sorted(drawn[seat], card))
                if self._log is not None:
                    mine = {"card": self.game.content.card_ids[card]}
                    self._log.append(Event("draw", {"actor": seat}, ((frozenset({seat}), mine),)))
        self.phase = PLAY
        if self.hands[seat]:
            return True
        moves = self._move_options()  # nothing to play (ruling K-R9): straight to moving
        if not moves:
            return False
        self.phase = MOVE
        moves.append(self.tables.stay)
        self._legal = moves
        return True


def _apply_discard(s: KeysState, a: Any) -> None:
    s._play(s.tables.card_index[a.card])
    if s._log is not None:
        s._tell("discard", card=a.card)
    s._after_play()


def _apply_toggle(s: KeysState, a: Any) -> None:
    opening = type(a) is OpenDoor
    if s._log is not None:
        # Opening shows the back to everyone (K-5.8): the event may name it.
        back = {"back": BACK_IDS[s.back[a.tile]]} if opening else {}
        colour = s.game.content.colour_ids[s.colour[a.tile]]
        kind = "open" if opening else "close"
        s._tell(kind, tile=a.tile, colour=colour, card=a.card, **back)
    if s.phase == BONUS:
        seat = s.seat  # taking the bonus uses this TARDIS Key tile up for the seat (K-R8)
        s.used = _replace(s.used, seat, s.used[seat] | 1 << s.pos[seat])
        s._toggle(a.tile, opening)
        s._end_turn()
        return
    s._play(s.tables.card_index[a.card])
    s._toggle(a.tile, opening)
    s._after_play()


def _apply_remove(s: KeysState, a: Any) -> None:
    s._play(s.tables.sonic_card)
    s.barrier_mask &= ~(1 << a.tile)
    s.discard = (*s.discard, s.tables.barrier_card)
    if s._log is not None:
        s._tell("remove_barrier", tile=a.tile)
    s._after_play()


def _apply_barrier(s: KeysState, a: Any) -> None:
    s._play(s.tables.barrier_card, to_discard=False)
    s.barrier_mask |= 1 << a.tile
    if s._log is not None:
        s._tell("barrier", tile=a.tile)
    s._after_play()


def _apply_cookie(s: KeysState, a: Any) -> None:
    s._play(s.tables.cookie_card, to_discard=False)
    s.cookie_mask |= 1 << a.tile
    s.open_mask |= 1 << a.tile  # the cookie opens a Dalek door closed again (K-6.4)
    if s._log is not None:
        s._tell("cookie", tile=a.tile)
    s._after_play()


def _apply_pandorica(s: KeysState, a: Any) -> None:
    s._play(s.tables.pandorica_card, to_discard=False)
    s.stuck = _replace(s.stuck, a.seat, PANDORICA_TURNS)
    if s._log is not None:
        s._tell("pandorica", target=a.seat, turns=PANDORICA_TURNS)
    s._after_play()


def _apply_assault(s: KeysState, a: Any) -> None:
    s._play(s.tables.cyberman_card)
    s._arrive(a.seat, a.tile)
    if s._log is not None:
        s._tell(
            "assault",
            target=a.seat,
            tile=a.tile,
            teleported=s.pos[a.seat] != a.tile,
            teleport_blocked_by=s._teleport_blocked_by(a.seat, a.tile),
        )
    s._after_play()


def _apply_tunnel(s: KeysState, a: Any) -> None:
    s._play(s.tables.tunnel_card, to_discard=False)
    s.tunnels = (*s.tunnels, (a.tile, a.other))
    corner = s.tables.geo.diagonal_corner(a.tile, a.other)
    assert corner is not None
    s.corner_mask |= 1 << corner
    if s._log is not None:
        s._tell("tunnel", tiles=[a.tile, a.other])
    s._after_play()


def _apply_move(s: KeysState, a: Any) -> None:
    seat = s.seat
    tile = a.tile
    log = s._log
    entered = s.pos[seat] < 0
    s._arrive(seat, tile)
    if log is not None:
        s._tell(
            "move",
            tile=a.tile,
            entered=entered,
            teleported=s.pos[seat] != tile,
            teleport_blocked_by=s._teleport_blocked_by(seat, tile),
        )
    kind = s.back[tile]
    if kind != TELEPORT and s.goal_mask(seat) >> tile & 1:
        s.phase = OVER  # K-7.1
        s.winner = seat
        s._legal = []
        if log is not None:
            log.append(Event("end", {"winner": seat, "tile": tile, "rounds": s.round}))
        return
    if kind in (TARDIS_KEY, EXTRA_TURN):
        used = s.used[seat]
        if not used >> tile & 1:
            if kind == EXTRA_TURN:
                s.used = _replace(s.used, seat, used | 1 << tile)
                s.extra = True
                if log is not None:
                    s._tell("extra_turn", tile=tile)
            else:
                # Used up only when taken (K-R8): forgone or lapsed, it waits for a return.
                bonus: list[Action] = []
                s._toggles(s.tables.bonus, s.tables.door_mask, bonus)
                if bonus:
                    s.phase = BONUS
                    bonus.append(s.tables.forgo)
                    s._legal = bonus
                    if log is not None:
                        s._tell("bonus", tile=tile)
                    return
    s._end_turn()


def _apply_step_off(s: KeysState, a: Any) -> None:
    s.pos = _replace(s.pos, s.seat, -1)
    s._occ = -1
    if s._log is not None:
        s._tell("step_off")
    s._end_turn()


def _apply_stay(s: KeysState, a: Any) -> None:
    if s._log is not None:
        s._tell("stay")
    s._end_turn()


def _apply_forgo(s: KeysState, a: Any) -> None:
    if s._log is not None:
        s._tell("forgo")
    s._end_turn()


def _field_types(cls: type[Action]) -> tuple[tuple[str, type], ...]:
    kinds = {"int": int, "str": str}
    return tuple((f.name, kinds[str(f.type)]) for f in dataclasses.fields(cls))


def _malformed(action: Any) -> str | None:
    """Why `action` is no well-formed Keys move (foreign type, a bool or str where a tile or
    seat number is due, ...), or None. Dataclass equality would take MovePawn(True) for
    MovePawn(1), so the types are checked exactly."""
    fields = _FIELDS.get(type(action))
    if fields is None:
        if isinstance(action, Action):
            return f"{action} is not a Keys to the TARDIS move"
        return f"not an action: {action!r}"
    for name, kind in fields:
        value = getattr(action, name)
        if type(value) is not kind:
            return f"{type(action).__name__}.{name} must be {kind.__name__}, not {value!r}"
    return None


_EFFECTS: Final[dict[type[Action], Any]] = {
    DiscardCard: _apply_discard,
    OpenDoor: _apply_toggle,
    CloseDoor: _apply_toggle,
    RemoveBarrier: _apply_remove,
    PlaceBarrier: _apply_barrier,
    PlaceCookie: _apply_cookie,
    PlacePandorica: _apply_pandorica,
    AssaultPawn: _apply_assault,
    PlaceTunnel: _apply_tunnel,
    MovePawn: _apply_move,
    StepOff: _apply_step_off,
    StayPut: _apply_stay,
    ForgoBonus: _apply_forgo,
}

_FIELDS: Final = {cls: _field_types(cls) for cls in _EFFECTS}

_PLAY_CHECKS: Final[dict[type[Action], Callable[[KeysState, Any], IllegalAction | None]]] = {
    DiscardCard: KeysState._discard_refusal,
    OpenDoor: KeysState._toggle_refusal,
    CloseDoor: KeysState._toggle_refusal,
    RemoveBarrier: KeysState._remove_refusal,
    PlaceBarrier: KeysState._barrier_refusal,
    PlaceCookie: KeysState._cookie_refusal,
    PlacePandorica: KeysState._pandorica_refusal,
    AssaultPawn: KeysState._assault_refusal,
    PlaceTunnel: KeysState._tunnel_refusal,
}

__all__ = ["BACK_NAMES", "PHASE_IDS", "KeysState", "Tables", "bits"]
