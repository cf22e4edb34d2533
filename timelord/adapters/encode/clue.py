"""Clue observation, in this order (K = cards, S = suspects, N seats relative to the observer,
R = locations; a place is one of the R locations, the TARDIS, or "on a square"):

- `phase` one-hot over the engine's phases; `to_move`, `current` one-hot over N.
- `characters`: each seat's suspect, one-hot over S per seat; `movers`: each suspect's place
  (R + 2 per suspect); `weapons`: each weapon token's place (R + 2 per weapon).
- `steps` left / 12; `out` per seat; `hand_sizes` per seat / 10; `kept_counts` per seat / 4.
- `hand`: own cards (K flags); `seen`: cards shown to this seat, by whom (K flags per
  other seat); `public`: leftovers, revealed hands, side cards seen (K flags);
  `envelope` when this seat has seen it (K flags).
- `rumour`: cards of the rumour or accusation under way (K flags); `naming`: cards named so far.
- `kept`: own intrigue action cards (copies per card kind / 2).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, cast

from timelord.adapters.encode import Counts, Memo, Parts, Writer, onehot_table, rel, rotate, segment
from timelord.core import Game
from timelord.games.clue.board import TARDIS
from timelord.games.clue.game import ClueGame
from timelord.games.clue.state import PHASES, WATCH, ClueState

_OVER = PHASES.index("over")


def write(game: Game, w: Writer, view: dict[str, Any]) -> None:
    assert isinstance(game, ClueGame)
    N = game.players
    K = len(game.card_names)
    S = len(game.suspects)
    R = game.board.rooms
    seat = view["seat"]

    def place(node: int) -> int:
        return node if node < R else (R if node == TARDIS else R + 1)

    w.onehot("phase", len(PHASES), PHASES.index(view["phase"]))
    w.onehot("to_move", N, rel(seat, view["to_move"], N))
    w.onehot("current", N, rel(seat, view["current"], N))
    for k, c in enumerate(rotate(view["characters"], seat)):
        w.onehot(f"character{k}", S, c)
    for i, node in enumerate(view["movers"]):
        w.onehot(f"mover{i}", R + 2, place(node))
    for i, node in enumerate(view["weapons"]):
        w.onehot(f"weapon{i}", R + 2, place(node))
    w.values("steps", [view["steps"]], 1, 12)
    w.values("out", [1.0 if o else 0.0 for o in rotate(view["out"], seat)], N)
    w.values("hand_sizes", rotate(view["hand_sizes"], seat), N, 10)
    w.values("kept_counts", rotate(view["kept_counts"], seat), N, 4)
    w.counts("hand", K, view["hand"])
    shown: list[list[int]] = [[] for _ in range(N)]
    for entry in view["log"]:
        if entry[0] == "show" and entry[2] == seat and entry[3] is not None:
            shower = rel(seat, entry[1], N)
            if shower is not None:
                shown[shower].append(entry[3])
    for k in range(1, N):
        w.counts(f"seen{k}", K, set(shown[k]))
    public = [*view["leftovers"], *view["side_seen"].values()]
    public += [c for hand in view["revealed"].values() for c in hand]
    w.counts("public", K, set(public))
    w.counts("envelope", K, view["envelope"] or ())
    w.counts("rumour", K, set(view["rumour"][1:]))
    w.counts("naming", K, view["naming"])
    kinds = sorted(game.effect)
    most = max(game.intrigue_deck.count(k) for k in kinds)
    kept = (kinds.index(k) for k in view["kept"] if k in kinds)
    w.counts("kept", len(kinds), kept, 0.5, most)


#: log node id -> (the node, its history's cards shown: (shower, asker, card), oldest first);
#: the node is kept so its id cannot be reused while it is a key
_SHOWS: dict[int, tuple[Any, tuple[tuple[int, int, int], ...]]] = {}


def _shows(log: Any) -> tuple[tuple[int, int, int], ...]:
    """The cards shown in the history ending at `log` (a linked list: (event, older)),
    walked back only to the newest node already known."""
    newer: list[tuple[Any, ...]] = []
    node = log
    known: tuple[tuple[int, int, int], ...] = ()
    while node is not None:
        hit = _SHOWS.get(id(node))
        if hit is not None and hit[0] is node:
            known = hit[1]
            break
        newer.append(node[0])
        node = node[1]
    shown = [(e[1], e[2], e[3]) for e in newer if e[0] == "show" and e[3] is not None]
    shown.reverse()  # oldest first
    got = known + tuple(shown)
    if log is not None:
        if len(_SHOWS) >= 4096:
            _SHOWS.clear()
        _SHOWS[id(log)] = (log, got)
    return got


@lru_cache(maxsize=16)
def _kinds(game: ClueGame) -> tuple[dict[str, int], int]:
    """The kept-card kinds by index, and the most copies of one in the intrigue deck."""
    kinds = sorted(game.effect)
    return {k: i for i, k in enumerate(kinds)}, max(game.intrigue_deck.count(k) for k in kinds)


#: (why each seat is out, hand sizes, kept-card counts, the observer)
_SeatsKey = tuple[tuple[str, ...], tuple[int, ...], tuple[int, ...], int]


def state_parts(game: Game) -> Parts:
    """`write` of `s.view(seat)` as parts read from the state without building the view
    (who sees which card of the history: `timelord.games.clue.view`)."""
    assert isinstance(game, ClueGame)
    N = game.players
    K = len(game.card_names)
    S = len(game.suspects)
    R = game.board.rooms
    index, most = _kinds(game)
    place = onehot_table(R + 2)
    places = [
        place[node if node < R else (R if node == TARDIS else R + 1)]
        for node in range(game.board.nodes)
    ]

    def head(w: Writer, key: tuple[int, int | None, int, int]) -> None:
        phase, to_move, current, seat = key
        w.onehot("phase", len(PHASES), phase)
        w.onehot("to_move", N, rel(seat, to_move, N))
        w.onehot("current", N, rel(seat, current, N))

    def characters(w: Writer, key: tuple[tuple[int, ...], int]) -> None:
        chars, seat = key
        for k, c in enumerate(rotate(list(chars), seat)):
            w.onehot(f"character{k}", S, c)

    def steps(w: Writer, value: int) -> None:
        w.values("steps", [value], 1, 12)

    def seats(w: Writer, key: _SeatsKey) -> None:
        out, sizes, kept, seat = key
        w.values("out", [1.0 if o else 0.0 for o in rotate(list(out), seat)], N)
        w.values("hand_sizes", rotate(list(sizes), seat), N, 10)
        w.values("kept_counts", rotate(list(kept), seat), N, 4)

    def kept(w: Writer, cards: tuple[str, ...]) -> None:
        w.counts("kept", len(index), [index[k] for k in cards if k in index], 0.5, most)

    heads, chars_of, steps_of, seats_of, kept_of = (
        Memo(head),
        Memo(characters),
        Memo(steps),
        Memo(seats),
        Memo(kept),
    )
    cards = Counts(K)
    #: id of a history node -> (the node, each seat's `seen` bytes once written)
    seen_of: dict[int, tuple[Any, list[bytes | None]]] = {}

    def seen(log: Any, seat: int) -> bytes:
        hit = seen_of.get(id(log))
        if hit is None or hit[0] is not log:
            if len(seen_of) >= 1024:
                seen_of.clear()
            hit = seen_of[id(log)] = (log, [None] * N)
        got = hit[1][seat]
        if got is None:
            shown: list[set[int]] = [set() for _ in range(N)]
            for shower, asker, card in _shows(log):
                if asker == seat:
                    who = rel(seat, shower, N)
                    if who is not None:
                        shown[who].add(card)
            w = Writer()
            for k in range(1, N):
                w.counts(f"seen{k}", K, shown[k])
            got = hit[1][seat] = segment(w)
        return got

    def parts(s: ClueState, seat: int) -> list[bytes]:
        # `s` typed, so the compiled build reads its fields natively
        hands, out_why = s.hands, s.out
        public = set(s.left)
        side = s.side
        for i in s.seen_side[seat]:
            public.add(side[i])
        if WATCH in out_why:
            for p in range(N):
                if out_why[p] == WATCH:
                    public.update(hands[p])
        out = [heads[s.phase, s.to_move, s.cur, seat], chars_of[s.chars, seat]]
        for node in s.pos:
            out.append(places[node])
        for node in s.wpos:
            out.append(places[node])
        sizes, kept_sizes = tuple([len(h) for h in hands]), tuple([len(k) for k in s.kept])
        out += [
            steps_of[s.steps],
            seats_of[out_why, sizes, kept_sizes, seat],
            cards[hands[seat]],
            seen(s.log, seat),
            cards[tuple(sorted(public))],
            cards[s.env if s.phase == _OVER or s.saw[seat] else ()],
            cards[tuple(sorted(set(s.rum[1:])))],
            cards[s.naming],
            kept_of[s.kept[seat]],
        ]
        return out

    # the encoder hands it only this game's states
    return cast(Parts, parts)


#: how many history entries the perfect-recall observation holds (random 6-player games
#: run to about 180; a longer history keeps its first HISTORY entries and its length)
HISTORY = 512
#: the arguments after the kind, per kind of history entry (`timelord.games.clue.doors`)
_ENTRY_KINDS = (
    "rumour", "pass", "show", "peek", "side", "scan", "accuse", "play", "power", "draw",
    "bell", "out",
)  # fmt: skip
_ARGS = 5
_KIND = {k: i for i, k in enumerate(_ENTRY_KINDS)}


@lru_cache(maxsize=16)
def _words(game: ClueGame) -> dict[str, int]:
    """Every word a history entry may hold (card kinds, power effects, reasons), numbered."""
    words = {*game.effect, *game.power_effect, WATCH, "", "accused"}
    return {word: i for i, word in enumerate(sorted(words))}


def _token(value: Any, words: dict[str, int]) -> float:
    """One argument of a history entry as one number in [0, 1]; each argument position of
    a kind holds one type, so the number and the kind give the argument back."""
    if value is None:
        return 0.0
    if isinstance(value, bool):
        return 1.0 if value else 0.5
    if isinstance(value, int):
        return (value + 1) / 256
    return (words.get(value, len(words)) + 1) / (len(words) + 1)


def write_recall(game: Game, w: Writer, view: dict[str, Any]) -> None:
    """The rest of the view, for the perfect-recall observation: the turn, exact positions,
    the dice, the intrigue pile and discards, the powers used, extra turns, who is asked,
    and the history entry by entry as the seat saw it (kind one-hot, then its arguments)."""
    assert isinstance(game, ClueGame)
    N = game.players
    seat = view["seat"]
    nodes = game.board.nodes
    w.values("turn", [view["turn"]], 1, game.max_turns, high=2.0)
    w.onehots("mover_nodes", nodes, view["movers"])
    w.onehots("weapon_nodes", nodes, view["weapons"])
    w.values("roll", view["roll"], 2, 6)
    pile = max(1, len(game.intrigue_deck))
    w.values("pile_size", [view["pile_size"]], 1, pile)
    w.values("watches", [view["watches"]], 1, pile)
    w.values("extra_turns", rotate(view["extra_turns"], seat), N, 4, high=4.0)
    w.values("powers_used", [1.0 if u else 0.0 for u in rotate(view["powers_used"], seat)], N)
    index, most = _kinds(game)
    discards = [index[k] for k in view["discards"] if k in index]
    w.counts("discards", len(index), discards, 1 / most, most)
    w.onehot("ask", N, rel(seat, view["ask"], N))
    log = view["log"]
    w.values("history_length", [len(log)], 1, HISTORY, high=8.0)
    width = len(_ENTRY_KINDS) + _ARGS
    at = w.skip_named("history", HISTORY * width)
    written = _written(game)
    for i, entry in enumerate(log[:HISTORY]):
        base = at + i * width
        # the entry's values and their types: True and 1 are one dict key, not one token
        key = (*entry, *map(type, entry))
        got = written.get(key)
        if got is None:
            if len(written) >= 65536:  # memory stays bounded
                written.clear()
            got = written[key] = _entry(game, entry)
        offsets, values = got
        w.idx += [base + k for k in offsets]
        w.val += values


@lru_cache(maxsize=16)
def _written(game: ClueGame) -> dict[tuple[Any, ...], tuple[list[int], list[float]]]:
    """History entry -> what `_entry` writes for it: a game has few distinct entries, and a
    seat's history is written whole at each of its observations."""
    return {}


def _entry(game: ClueGame, entry: list[Any]) -> tuple[list[int], list[float]]:
    """One history entry as (offset in its row, value) pairs: the kind's one-hot, then each
    argument as a number (`_token`)."""
    words = _words(game)
    offsets: list[int] = []
    values: list[float] = []
    kind = _KIND.get(entry[0])
    if kind is not None:
        offsets.append(kind)
        values.append(1.0)
    for j, arg in enumerate(entry[1 : 1 + _ARGS]):
        v = _token(arg, words)
        if v:
            offsets.append(len(_ENTRY_KINDS) + j)
            values.append(v)
    return offsets, values
