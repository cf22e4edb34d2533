"""Keys to Time observation, in this order (T = the tiles of the grid, 49 on the standard one,
N seats relative to the observer, K = card kinds of the deck, colours as in the tile data):

- `phase` one-hot over play/move/bonus/over; `to_move` one-hot over N; `extra_turn` flag;
  `round` / round_limit; `edge` the observer's board edge (one-hot over 4).
- `colours`: per tile a one-hot over the colours (+ none); `backs`: per tile a one-hot over
  the known backs (+ unknown); then `open`, `barriers`, `cookies` (T flags each), `tunnels`
  (per tile, how many Time Tunnels end there).
- `pawns`: each seat's tile (T one-hot per seat); `pandorica` turns left per seat / 2;
  `bonus_used` per seat, the TARDIS Key tiles it has used (T flags per seat).
- `hand`: own cards (copies per kind / 4); `discard` copies per kind / 10;
  `hand_sizes` per seat / 4; `deck` cards left / deck size.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, cast

from timelord.adapters.encode import Flags, Memo, Parts, Writer, f32, onehot_table, rel, rotate
from timelord.core import Game
from timelord.games.keys.board import BACK_IDS, CONTROL_KIND, EDGE_IDS, SEAT_EDGES
from timelord.games.keys.game import KeysGame
from timelord.games.keys.state import PHASE_IDS, KeysState

_BACK = {b: i for i, b in enumerate(BACK_IDS)}


def write(game: Game, w: Writer, view: dict[str, Any]) -> None:
    assert isinstance(game, KeysGame)
    N = game.players
    seat = view["seat"]
    content = game.content
    colours = content.colour_ids
    cards = {c: i for i, c in enumerate(content.card_ids)}
    most = _most(game)
    cells = game.tables.geo.cells
    w.onehot("phase", len(PHASE_IDS), PHASE_IDS.index(view["phase"]))
    w.onehot("to_move", N, rel(seat, view["to_move"], N))
    w.values("extra_turn", [view["extra_turn"]], 1)
    w.values("round", [view["round"]], 1, game.round_limit)
    w.onehot("edge", len(EDGE_IDS), EDGE_IDS.index(view["edges"][seat]))
    colour_of = {c: i for i, c in enumerate(colours)}
    w.onehots(
        "colours", len(colours) + 1, [colour_of.get(c, len(colours)) for c in view["colours"]]
    )
    w.onehots("backs", len(BACK_IDS) + 1, [_BACK.get(b, len(BACK_IDS)) for b in view["backs"]])
    w.counts("open", cells, view["open"])
    w.counts("barriers", cells, view["barriers"])
    w.counts("cookies", cells, view["cookies"])
    w.counts("tunnels", cells, (t for pair in view["tunnels"] for t in pair), most=_tunnels(game))
    w.onehots("pawns", cells, rotate(view["pawns"], seat))
    w.values("pandorica", rotate(view["pandorica"], seat), N, 2)
    for k, used in enumerate(rotate(view["bonus_used"], seat)):
        w.counts(f"bonus_used{k}", cells, used)
    w.counts("hand", len(cards), (cards[c] for c in view["hand"]), 0.25, most)
    w.counts("discard", len(cards), (cards[c] for c in view["discard"]), 0.1, most)
    w.values("hand_sizes", rotate(view["hand_sizes"], seat), N, 4)
    w.values("deck", [view["deck_size"]], 1, len(content.deck))


@lru_cache(maxsize=16)
def _tunnels(game: KeysGame) -> int:
    """The most Time Tunnels one tile can end (one per Tunnel card of the deck)."""
    return max(1, game.content.deck.count(game.content.card_ids.index("tunnel")))


@lru_cache(maxsize=16)
def _most(game: KeysGame) -> int:
    deck = game.content.deck
    return max(deck.count(k) for k in range(len(game.content.card_ids)))


def _sums(scale: float, most: int) -> list[bytes]:
    """k -> the float32 bytes of `scale` added k times in double, in order (what
    `Writer.counts` gives an index met k times), for k = 0..most."""
    out, total = [], 0.0
    for _ in range(most + 1):
        out.append(f32([total]))
        total += scale
    return out


def _by_kind(
    memo: dict[tuple[int, ...], bytes], cards: tuple[int, ...], kinds: int, sums: list[bytes]
) -> bytes:
    """The bytes of `cards` counted by kind (`sums[k]`: k copies), kept in `memo`: the
    copies counted as ints, no float arithmetic per card of a long pile."""
    copies = [0] * kinds
    for c in cards:
        if 0 <= c < kinds:
            copies[c] += 1
    if len(memo) >= 4096:  # memory stays bounded
        memo.clear()
    got = memo[cards] = b"".join([sums[k] for k in copies])
    return got


def state_parts(game: Game) -> Parts:
    """`write` of `s.view(seat)` as parts read from the state without building the view
    (the view's secrets, K-7.3, in `timelord.games.keys.view`)."""
    assert isinstance(game, KeysGame)
    N = game.players
    content = game.content
    cells = game.tables.geo.cells
    nc = len(content.colour_ids)
    nk = len(content.card_ids)
    unknown = len(BACK_IDS)
    backs = onehot_table(unknown + 1)
    edges = [onehot_table(len(EDGE_IDS))[e] for e in SEAT_EDGES[N]]

    def head(w: Writer, key: tuple[int, int | None, bool, int]) -> None:
        phase, to_move, extra, seat = key
        w.onehot("phase", len(PHASE_IDS), phase)
        w.onehot("to_move", N, rel(seat, to_move, N))
        w.values("extra_turn", [extra], 1)

    def round_(w: Writer, value: int) -> None:
        w.values("round", [value], 1, game.round_limit)

    def colour(w: Writer, colour: tuple[int, ...]) -> None:
        w.onehots("colours", nc + 1, [c if c >= 0 else nc for c in colour])

    def tunnels(w: Writer, pairs: tuple[tuple[int, int], ...]) -> None:
        w.counts("tunnels", cells, [t for pair in pairs for t in pair], most=_tunnels(game))

    def pandorica(w: Writer, key: tuple[tuple[int, ...], int]) -> None:
        stuck, seat = key
        w.values("pandorica", rotate(list(stuck), seat), N, 2)

    def sizes(w: Writer, key: tuple[tuple[int, ...], int]) -> None:
        counts, seat = key
        w.values("hand_sizes", rotate(list(counts), seat), N, 4)

    def deck(w: Writer, value: int) -> None:
        w.values("deck", [value], 1, len(content.deck))

    heads, rounds, colour_of = Memo(head), Memo(round_), Memo(colour)
    tunnels_of, stuck_of, sizes_of, decks = Memo(tunnels), Memo(pandorica), Memo(sizes), Memo(deck)
    tiles = Flags(cells)
    #: cards by kind, as `Writer.counts` writes them, by the tuple of cards
    hands: dict[tuple[int, ...], bytes] = {}
    discards: dict[tuple[int, ...], bytes] = {}
    quarters, tenths = _sums(0.25, len(content.deck)), _sums(0.1, len(content.deck))
    #: (backs, seen doors) -> bytes; a miss joins one one-hot per tile
    back_of: dict[tuple[tuple[int, ...], int], bytes] = {}
    pawn = onehot_table(cells)  # pawn[-1]: off the board

    def known_backs(back: tuple[int, ...], seen: int) -> bytes:
        if len(back_of) >= 1024:
            back_of.clear()
        got = back_of[back, seen] = b"".join(
            [
                backs[k if (seen >> t & 1 or k == CONTROL_KIND) else unknown]
                for t, k in enumerate(back)
            ]
        )
        return got

    get_pawn, get_tiles = pawn.__getitem__, tiles.__getitem__
    #: the last board read, as [(colours, their bytes), (backs, seen doors, their bytes)]: a
    #: game's colours and backs never change, so an identity test spares hashing 49 tiles
    #: (each entry replaced whole, so a reader in another thread sees a matching pair)
    board: list[Any] = [(None, b""), (None, -1, b"")]

    def parts(s: KeysState, seat: int) -> list[bytes]:
        # per-seat parts by `map` over the seats rotated to the observer: looked up in C
        pos, used = s.pos, s.used
        colour, back, seen = s.colour, s.back, s.seen_mask
        hand, pile = s.hands[seat], s.discard
        colours = board[0]
        if colour is not colours[0]:
            colours = board[0] = (colour, colour_of[colour])
        backs_now = board[1]
        if back is not backs_now[0] or seen != backs_now[1]:
            got = back_of.get((back, seen)) or known_backs(back, seen)
            backs_now = board[1] = (back, seen, got)
        return [
            heads[s.phase, s.to_move, s.extra, seat],
            rounds[s.round],
            edges[seat],
            colours[1],
            backs_now[2],
            get_tiles(s.open_mask),
            get_tiles(s.barrier_mask),
            get_tiles(s.cookie_mask),
            tunnels_of[s.tunnels],
            *map(get_pawn, pos[seat:] + pos[:seat]),
            stuck_of[s.stuck, seat],
            *map(get_tiles, used[seat:] + used[:seat]),
            hands.get(hand) or _by_kind(hands, hand, nk, quarters),
            discards.get(pile) or _by_kind(discards, pile, nk, tenths),
            sizes_of[tuple(map(len, s.hands)), seat],
            decks[len(s.deck)],
        ]

    # the encoder hands it only this game's states
    return cast(Parts, parts)
