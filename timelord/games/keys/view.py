"""What leaves the engine: JSON forms of a state, seat views, sampling from a view.

Secrets (K-7.3): each hand is known only to its holder; the order of the draw pile to nobody;
the back of a door that has never been opened to nobody. Everything else is on the table,
including the cards shuffled into the pile at the latest reshuffle; each seat also remembers
its own draws since then (ruling K-R17).
"""

from __future__ import annotations

import json
import math
from collections import Counter
from functools import cache
from itertools import pairwise
from typing import Any

from timelord.core import CorruptRecord, GameError, Rng, View, is_state
from timelord.games.keys.board import (
    BACK_IDS,
    BACK_INDEX,
    CONTROL_KIND,
    DALEK,
    EDGE_IDS,
    EXTRA_TURN,
    OPEN_DOOR,
    SEAT_EDGES,
    TARDIS_KEY,
    Content,
)
from timelord.games.keys.rules import (
    BONUS,
    OVER,
    PANDORICA_TURNS,
    PHASE_IDS,
    KeysRules,
    KeysState,
    bits,
)


def _mask(tiles: list[int]) -> int:
    m = 0
    for t in tiles:
        m |= 1 << t
    return m


def _public(s: KeysState) -> dict[str, Any]:
    content = s.game.content
    cards = content.card_ids
    seen = s.seen_mask
    n = s.game.players
    return {
        "players": n,
        "edges": [EDGE_IDS[e] for e in SEAT_EDGES[n]],
        "round": s.round,
        "round_limit": s.game.round_limit,
        "phase": PHASE_IDS[s.phase],
        "to_move": s.to_move,
        "extra_turn": s.extra,
        "winner": s.winner if s.winner >= 0 else None,
        "colours": [content.colour_ids[c] if c >= 0 else None for c in s.colour],
        "backs": [
            BACK_IDS[k] if (seen >> t & 1 or k == CONTROL_KIND) else None
            for t, k in enumerate(s.back)
        ],
        "open": bits(s.open_mask),
        "barriers": bits(s.barrier_mask),
        "cookies": bits(s.cookie_mask),
        "tunnels": [[a, b] for a, b in s.tunnels],
        "pawns": [p if p >= 0 else None for p in s.pos],
        "pandorica": list(s.stuck),
        "bonus_used": [bits(u) for u in s.used],
        "hand_sizes": [len(h) for h in s.hands],
        "deck_size": len(s.deck),
        "discard": [cards[c] for c in s.discard],
        "reshuffled": [cards[c] for c in s.pool],
    }


def build_view(s: KeysState, seat: int | None) -> View:
    """All that `seat` knows (None: a spectator): the public table plus its own hand."""
    s.game.check_seat(seat)
    view: dict[str, Any] = {"seat": seat}
    view.update(_public(s))
    if seat is not None:
        cards = s.game.content.card_ids
        view["hand"] = [cards[c] for c in s.hands[seat]]
        view["drawn_since_reshuffle"] = [cards[c] for c in s.drawn[seat]]
    return view


def state_to_json(s: KeysState) -> dict[str, Any]:
    """The whole state, secrets included, as canonical JSON."""
    content = s.game.content
    cards = content.card_ids
    data = _public(s)
    data["backs"] = [BACK_IDS[k] for k in s.back]
    data["seen"] = bits(s.seen_mask)
    data["seat"] = s.seat
    data["hands"] = [[cards[c] for c in h] for h in s.hands]
    data["deck"] = [cards[c] for c in s.deck]
    data["drawn"] = [[cards[c] for c in d] for d in s.drawn]
    data["rng"] = s.rng
    for derived in ("players", "edges", "round_limit", "to_move", "hand_sizes", "deck_size"):
        del data[derived]
    return data


# -- reading states back ---------------------------------------------------------------


def _tiles(data: dict[str, Any], key: str, cells: int) -> list[int]:
    """A canonical tile list: ints 0..cells-1 (48 on the standard grid), ascending, each once
    (as `bits` writes them)."""
    value = data[key]
    if (
        not isinstance(value, list)
        or not all(type(t) is int and 0 <= t < cells for t in value)
        or any(a >= b for a, b in pairwise(value))
    ):
        raise CorruptRecord(
            f"keys state: {key!r} must list tiles 0..{cells - 1} in order, each once"
        )
    return value


def _int(value: Any, lo: int, hi: int, what: str) -> int:
    if type(value) is not int or not lo <= value <= hi:
        raise CorruptRecord(f"keys state: {what} must be an integer from {lo} to {hi}")
    return value


def _cards(game: KeysRules, value: Any, what: str) -> tuple[int, ...]:
    index = game.tables.card_index
    if isinstance(value, list):
        try:  # every key of `index` is a str, so a hit is a card id
            return tuple([index[c] for c in value])
        except (KeyError, TypeError):
            pass
    raise CorruptRecord(f"keys state: {what} must be a list of card ids")


def _fill_common(s: KeysState, data: dict[str, Any], backs: list[int]) -> None:
    """Read the public parts shared by a state's JSON and a view into `s`."""
    game = s.game
    n = game.players
    content = game.content
    geo = game.tables.geo
    cells, control = geo.cells, geo.control
    colour_index = {c: i for i, c in enumerate(content.colour_ids)}
    colours = data["colours"]
    if not isinstance(colours, list) or len(colours) != cells:
        raise CorruptRecord(f"keys state: 'colours' must list {cells} tiles")
    colour = []
    for t, c in enumerate(colours):
        if t == control:
            if c is not None or backs[t] != CONTROL_KIND:
                raise CorruptRecord("keys state: the centre tile must be the TARDIS Control")
            colour.append(-1)
        elif c not in colour_index or backs[t] == CONTROL_KIND:
            raise CorruptRecord(f"keys state: tile {geo.tile_name(t)} has a bad colour or back")
        else:
            colour.append(colour_index[c])
    s.set_board(tuple(backs), tuple(colour))
    s.open_mask = _mask(_tiles(data, "open", cells))
    s.barrier_mask = _mask(_tiles(data, "barriers", cells))
    s.cookie_mask = _mask(_tiles(data, "cookies", cells))
    if (s.open_mask | s.barrier_mask) >> control & 1:
        raise CorruptRecord("keys state: the Control tile is not a door")
    if s.cookie_mask & ~(s.dalek_mask & s.open_mask):
        raise CorruptRecord("keys state: a Jam Cookie lies only on an open Dalek door")
    tunnels = []
    corners = 0
    pairs = data["tunnels"]
    if not isinstance(pairs, list):
        raise CorruptRecord("keys state: 'tunnels' must be a list")
    for pair in pairs:
        if not isinstance(pair, list) or len(pair) != 2:
            raise CorruptRecord("keys state: a tunnel is a pair of tiles")
        a, b = pair
        corner = geo.diagonal_corner(a, b) if type(a) is int and type(b) is int else None
        if corner is None or a >= b or control in (a, b) or corners >> corner & 1:
            raise CorruptRecord(f"keys state: bad tunnel {pair!r}")
        corners |= 1 << corner
        tunnels.append((a, b))
    s.tunnels = tuple(tunnels)
    s.corner_mask = corners
    pawns = data["pawns"]
    if not isinstance(pawns, list) or len(pawns) != n:
        raise CorruptRecord("keys state: 'pawns' must list one tile (or null) per seat")
    pos = []
    # A pawn stands on a face-up door or on Control (K-4.2, K-5.4), one per tile (K-4.5).
    standable = s.open_mask | geo.control_bit
    for p in pawns:
        if p is None:
            pos.append(-1)
        elif type(p) is int and 0 <= p < cells and p not in pos and standable >> p & 1:
            pos.append(p)
        else:
            raise CorruptRecord(f"keys state: bad pawn position {p!r}")
    s.pos = tuple(pos)
    stuck = data["pandorica"]
    used = data["bonus_used"]
    if not (isinstance(stuck, list) and len(stuck) == n and isinstance(used, list)):
        raise CorruptRecord("keys state: 'pandorica' and 'bonus_used' need one entry per seat")
    if len(used) != n:
        raise CorruptRecord("keys state: 'bonus_used' needs one entry per seat")
    for seat, left in enumerate(stuck):
        if _int(left, 0, PANDORICA_TURNS, "a Pandorica count") and pos[seat] < 0:
            raise CorruptRecord("keys state: a Pandorica holds only a pawn on the board")
    s.stuck = tuple(stuck)
    s.used = tuple(_mask(_tiles({"bonus_used": u}, "bonus_used", cells)) for u in used)
    if any(s.used) and any(
        s.back[t] not in (TARDIS_KEY, EXTRA_TURN) for u in s.used for t in bits(u)
    ):
        raise CorruptRecord("keys state: 'bonus_used' names a tile that gives no bonus")
    s.discard = _cards(game, data["discard"], "'discard'")
    s.pool = _cards(game, data["reshuffled"], "'reshuffled'")
    if list(s.pool) != sorted(s.pool):
        raise CorruptRecord("keys state: 'reshuffled' must be sorted")
    phase = data["phase"]
    if phase not in PHASE_IDS:
        raise CorruptRecord(f"keys state: unknown phase {phase!r}")
    s.phase = PHASE_IDS.index(phase)
    extra = data["extra_turn"]
    if not isinstance(extra, bool):
        raise CorruptRecord("keys state: 'extra_turn' must be true or false")
    s.extra = extra
    s.round = _int(data["round"], 0, game.round_limit, "'round'")
    winner = data["winner"]
    s.winner = -1 if winner is None else _int(winner, 0, n - 1, "'winner'")
    if winner is not None and s.phase != OVER:
        raise CorruptRecord("keys state: a winner is named but the game is not over")


def _backs(value: Any, allow_unknown: bool, cells: int) -> list[int | None]:
    if not isinstance(value, list) or len(value) != cells:
        raise CorruptRecord(f"keys state: 'backs' must list {cells} tiles")
    out: list[int | None] = []
    for b in value:
        if b is None and allow_unknown:
            out.append(None)
        elif b in BACK_INDEX:
            out.append(BACK_INDEX[b])
        else:
            raise CorruptRecord(f"keys state: unknown tile back {b!r}")
    return out


def board_cards(s: KeysState) -> Counter[int]:
    """The cards lying on the board: barriers, cookies, tunnels, Pandoricas in use."""
    tables = s.tables
    return Counter(
        {
            tables.barrier_card: s.barrier_mask.bit_count(),
            tables.cookie_card: s.cookie_mask.bit_count(),
            tables.tunnel_card: len(s.tunnels),
            tables.pandorica_card: sum(1 for x in s.stuck if x),
        }
    )


def state_from_json(game: KeysRules, data: Any, whole_deck: bool = True) -> KeysState:
    """Read back `state_to_json`; `CorruptRecord` if it is not a valid state.

    `whole_deck=False` skips the checks that every card and door tile of the box is in
    exactly one place, for scenario tests that build small decks and layouts of their own.
    """
    if not isinstance(data, dict):
        raise CorruptRecord("a keys state must be a JSON object")
    try:
        s = KeysState.blank(game)
        cells = game.tables.geo.cells
        backs = [b for b in _backs(data["backs"], False, cells) if b is not None]
        _fill_common(s, data, backs)
        s.seen_mask = _mask(_tiles(data, "seen", cells)) | s.open_mask
        hands = data["hands"]
        if not isinstance(hands, list) or len(hands) != game.players:
            raise CorruptRecord("keys state: 'hands' must hold one hand per seat")
        s.hands = tuple(tuple(sorted(_cards(game, h, "a hand"))) for h in hands)
        s.deck = _cards(game, data["deck"], "'deck'")
        drawn = data["drawn"]
        if not isinstance(drawn, list) or len(drawn) != game.players:
            raise CorruptRecord("keys state: 'drawn' must hold one list per seat")
        s.drawn = tuple(_cards(game, d, "'drawn'") for d in drawn)
        if any(list(d) != sorted(d) for d in s.drawn):
            raise CorruptRecord("keys state: each 'drawn' list must be sorted")
        since = Counter(s.deck)
        for d in s.drawn:
            since.update(d)
        # After a reshuffle the pile and every draw since come from the reshuffled cards.
        if (since != Counter(s.pool)) if s.pool else any(s.drawn):
            raise CorruptRecord("keys state: 'drawn' and 'deck' do not match 'reshuffled'")
        s.seat = _int(data["seat"], 0, game.players - 1, "'seat'")
        s.rng = _int(data["rng"], 0, data["rng"], "'rng'")
        if not is_state(s.rng):
            raise CorruptRecord("keys state: 'rng' must be a generator state")
        limit = game.tables.hand_limit
        if any(len(h) > limit for h in s.hands):
            raise CorruptRecord(f"keys state: a hand holds at most {limit} cards")
        if whole_deck:
            where = Counter(s.deck) + Counter(s.discard) + board_cards(s)
            for hand in s.hands:
                where.update(hand)
            if where != Counter(game.content.deck):
                raise CorruptRecord("keys state: the cards do not add up to the box's deck")
            layout = Counter((s.colour[t], s.back[t]) for t in game.tables.geo.door_tiles)
            if layout != Counter(game.content.tiles):
                raise CorruptRecord("keys state: the door tiles are not the box's tiles")
        # A bonus was taken standing on the tile, which was then open, so its back is known.
        if any(u & ~s.seen_mask for u in s.used):
            raise CorruptRecord("keys state: a used bonus tile must have been seen")
        here = s.pos[s.seat]
        if s.phase == BONUS and (here < 0 or s.back[here] != TARDIS_KEY):
            raise CorruptRecord("keys state: a TARDIS Key bonus needs the pawn on such a tile")
    except CorruptRecord:
        raise
    except KeyError as exc:
        raise CorruptRecord(f"keys state lacks {exc.args[0]!r}") from exc
    except RecursionError:
        raise CorruptRecord("keys state: a field is nested too deep") from None
    except (TypeError, ValueError) as exc:
        raise CorruptRecord(f"keys state: {exc}") from exc
    return s


@cache
def _colour_mix(content: Content) -> tuple[Counter[int], ...]:
    """How many of each back the box has in each colour."""
    mix: tuple[Counter[int], ...] = tuple(Counter() for _ in content.colour_ids)
    for c, k in content.tiles:
        mix[c][k] += 1
    return mix


def _sample_drawn(
    s: KeysState, seat: int | None, own: tuple[int, ...]
) -> tuple[tuple[int, ...], ...]:
    """Draws since the reshuffle for a sampled state: the seat's own as it knows them; the
    reshuffled cards neither in the pile nor drawn by the seat go to the other hands that
    hold them, and those since played again to the other seats in turn (any split fits the
    view: only each seat's own list is ever shown)."""
    n = len(s.hands)
    if not s.pool:
        return ((),) * n
    taken = [0] * len(s.tables.discard)
    for c in s.pool:
        taken[c] += 1
    for c in s.deck:
        taken[c] -= 1
    for c in own:
        taken[c] -= 1
    out: list[list[int]] = []
    for other in range(n):
        if other == seat:
            out.append(list(own))
            continue
        mine = []
        for c in s.hands[other]:
            if taken[c] > 0:
                taken[c] -= 1
                mine.append(c)
        out.append(mine)
    others = [o for o in range(n) if o != seat]
    i = 0
    for c, left in enumerate(taken):
        for _ in range(left):
            out[others[i % len(others)]].append(c)
            i += 1
    return tuple(tuple(sorted(d)) for d in out)


def sample_state(game: KeysRules, view: Any, rng: Rng) -> KeysState:
    """A state matching `view`: unseen door backs and unseen cards dealt at random.

    Unseen backs are re-dealt within each colour (the colour of a closed door is public, and
    the box holds the same backs in every colour); unseen cards (other hands, the draw pile)
    come from the deck less the seat's hand, the discard pile and the cards on the board.
    After a reshuffle the draw pile is dealt only from the reshuffled cards the seat has not
    drawn back itself, and the other unseen cards go to other hands (ruling K-R17).

    Search asks for many samples of one view in a row, so reading and checking the view is
    done once (`prepare`, kept in the game's `ViewCache`); each call then only deals.
    """
    try:
        plan = game._views.get(view)
    except RecursionError:  # the cache copies the view before `prepare` can look at it
        raise CorruptRecord("not a view of this Keys game: nested too deep") from None
    return plan.deal(rng)


def prepare(game: KeysRules, view: Any) -> _Plan:
    """Read and check a view at the door, once per view: `CorruptRecord` unless it is a view
    this game could show (a doctored one can then neither hang nor crash a deal). Beyond the
    fields' types, one trial deal must give the view back exactly: the cheapest complete test
    that its counts agree, paid once per view and not per sample."""
    if not isinstance(view, dict):
        raise CorruptRecord("a Keys view must be a JSON object")
    try:
        seat = game.check_seat(view["seat"])
        game.check_seat(view["to_move"])  # copied into the deal as it stands
        sizes = view["hand_sizes"]
        if not (
            isinstance(sizes, list)
            and len(sizes) == game.players
            and all(type(n) is int and 0 <= n <= game.tables.hand_limit for n in sizes)
            and type(view["deck_size"]) is int
        ):
            raise CorruptRecord("view: hand and pile sizes must be small whole numbers")
        plan = _Plan(game, view)
        # as JSON text, so a false where the game writes 0 (equal in Python) is caught too
        same = json.dumps(build_view(plan.deal(Rng(0)), seat), sort_keys=True) == json.dumps(
            view, sort_keys=True
        )
    except GameError as exc:
        raise CorruptRecord(f"not a view of this Keys game: {exc}") from exc
    except RecursionError:
        raise CorruptRecord("not a view of this Keys game: nested too deep") from None
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise CorruptRecord(f"not a view of this Keys game: {exc!r}") from exc
    if not same:
        raise CorruptRecord("the view does not add up: no deal of this game shows it")
    return plan


#: 64-bit draws that make a number far above n! (2**32 times at least), for `_shuffle`, for
#: up to as many items as the standard grid has tiles
_TABLED = 49
_DRAWS = [(math.lgamma(n + 1) / math.log(2) + 32) // 64 + 1 for n in range(_TABLED + 1)]


def _shuffle(seq: list[int], rng: Rng) -> None:
    """Fisher-Yates whose indices are the mixed-radix digits of one random number made of a
    few 64-bit draws (its bias, under 2**-32, is nothing next to the sampling noise), so a
    shuffle costs a few generator calls instead of one per item."""
    n = len(seq)
    x = 0
    for _ in range(int(_DRAWS[n]) if n <= _TABLED else n):
        x = x << 64 | rng.next64()
    for i in range(n - 1, 0, -1):
        x, j = divmod(x, i + 1)
        seq[i], seq[j] = seq[j], seq[i]


class _Plan:
    """What `sample_state` reads from a view once: the public state and what is to deal."""

    __slots__ = (
        "backs",
        "base",
        "cards",
        "counts",
        "dalek",
        "fits",
        "hand_sizes",
        "hidden",
        "own",
        "own_drawn",
        "seat",
        "size",
    )

    def __init__(self, game: KeysRules, view: View) -> None:
        content = game.content
        seat = view["seat"]
        s = KeysState.blank(game)
        geo = game.tables.geo
        known = _backs(view["backs"], True, geo.cells)
        colour_index = {c: i for i, c in enumerate(content.colour_ids)}
        colours = view["colours"]
        pools = [Counter(mix) for mix in _colour_mix(content)]
        hidden: dict[int, list[int]] = {}
        for t, k in enumerate(known):
            if t == geo.control:
                continue
            c = colour_index[colours[t]]
            if k is None:
                hidden.setdefault(c, []).append(t)
            else:
                pools[c][k] -= 1
        self.hidden: list[tuple[list[int], list[int]]] = []
        for c, tiles in hidden.items():
            left = sorted(pools[c].elements())
            if len(left) != len(tiles):
                raise CorruptRecord("view: unseen backs do not fit the box's tiles of that colour")
            self.hidden.append((tiles, left))
        # Any back fits a hidden tile while the view is read: the colour checks need one.
        backs = [b if b is not None else OPEN_DOOR for b in known]
        _fill_common(s, view, backs)
        self.backs = [b if b is not None else OPEN_DOOR for b in known]
        self.dalek = sum(1 << t for t in geo.door_tiles if known[t] == DALEK)
        s.seen_mask = _mask([t for t, k in enumerate(known) if k is not None and t != geo.control])
        unseen = Counter(content.deck)
        unseen.subtract(s.discard)
        own: tuple[int, ...] = ()
        own_drawn: tuple[int, ...] = ()
        if seat is not None:
            own = tuple(sorted(_cards(game, view["hand"], "'hand'")))
            own_drawn = tuple(sorted(_cards(game, view["drawn_since_reshuffle"], "'drawn'")))
            unseen.subtract(own)
        unseen.subtract(board_cards(s))
        if any(v < 0 for v in unseen.values()):
            raise CorruptRecord("view: more cards are in sight than the deck holds")
        size = view["deck_size"]
        hand_sizes = view["hand_sizes"]
        self.fits: list[int] | None = None
        if s.pool:
            # K-R17: the pile holds only reshuffled cards this seat did not draw back since;
            # the rest of the unseen cards are in other hands.
            remaining = Counter(s.pool)
            remaining.subtract(own_drawn)
            fits = [c for c, n in sorted(remaining.items()) for _ in range(min(n, unseen[c]))]
            if len(fits) < size:
                raise CorruptRecord("view: the draw pile cannot come from the reshuffled cards")
            self.fits = fits
        total = sum(n for other, n in enumerate(hand_sizes) if other != seat)
        if sum(unseen.values()) != total + size:
            raise CorruptRecord("view: hands and draw pile do not add up to the deck")
        self.cards = sorted(unseen.elements())
        self.counts = [unseen[c] for c in range(len(content.card_ids))]
        self.size = size
        self.hand_sizes = list(hand_sizes)
        self.seat = seat
        self.own = own
        self.own_drawn = own_drawn
        to_move = view["to_move"]
        s.seat = to_move if to_move is not None else 0
        s.hands = ()
        s.deck = ()
        s.drawn = ()
        s.rng = 0
        self.base = s

    def deal(self, rng: Rng) -> KeysState:
        s = self.base._copy()
        backs = self.backs.copy()
        dalek = self.dalek
        for tiles, left in self.hidden:
            left = left.copy()
            _shuffle(left, rng)
            for t, k in zip(tiles, left, strict=True):
                backs[t] = k
                if k == DALEK:
                    dalek |= 1 << t
        s.back = tuple(backs)
        s.dalek_mask = dalek
        size = self.size
        seat = self.seat
        if self.fits is None:
            pool = self.cards.copy()
            _shuffle(pool, rng)
            deck = pool[:size]
            del pool[:size]
        else:
            fits = self.fits.copy()
            _shuffle(fits, rng)
            deck = fits[:size]
            counts = self.counts.copy()
            for c in deck:
                counts[c] -= 1
            pool = [c for c, k in enumerate(counts) for _ in range(k)]
            _shuffle(pool, rng)
        hands: list[tuple[int, ...]] = []
        for other, n in enumerate(self.hand_sizes):
            if other == seat:
                hands.append(self.own)
            else:
                hands.append(tuple(sorted(pool[:n])))
                del pool[:n]
        s.hands = tuple(hands)
        s.deck = tuple(deck)
        s.drawn = _sample_drawn(s, seat, self.own_drawn)
        s.rng = rng.next64()
        return s


__all__ = ["build_view", "prepare", "sample_state", "state_from_json", "state_to_json"]
