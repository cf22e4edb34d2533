"""`sample_state`: a full state consistent with one seat's view, hidden cards dealt at random.

The seat's knowledge is read by `notebook.knowledge_from_view` (its hand, face-up cards,
cards shown to it, revealed hands, who could not answer, who showed one of three cards, wrong
accusations) and the hidden cards are drawn by the deducer's `DealSampler`: exactly uniformly
over every deal consistent with the view, the same measure the deducer counts. A seat that
has looked in the envelope (a wrong accuser, or anyone once the game is over) gets a sampler
with the envelope's cards fixed, so its deals are uniform over those consistent with the view
and that envelope. Kept intrigue cards and the pile are dealt from what nobody has seen.

Search bots sample one view many times, so everything that depends on the view alone (the
sampler, the history with its hidden cards marked, the intrigue cards nobody has seen, the
fields copied as they are) is prepared once per view (`PreparedView`, kept in the game's
`ViewCache`) and each draw only deals the hidden cards and fills them in.

The view comes from outside, so preparing it is the door: `check_view` refuses a view of
the wrong shape or with impossible counts at once (no deducer is ever asked about a hand of
10^20 cards), and the first deal must be a state `check_state` accepts whose view for the
seat is exactly the given view; anything else is a `CorruptRecord`. The draws after that
trust the prepared view.
"""

from __future__ import annotations

import json
from typing import Any

from timelord.core import CorruptRecord, Rng
from timelord.core.door import door
from timelord.games.clue.deduction import DealSampler, shuffle
from timelord.games.clue.doors import (
    PUBLIC_READERS,
    check_state,
    make_state,
    read_int,
    read_ints,
    read_strs,
)
from timelord.games.clue.notebook import knowledge_from_view
from timelord.games.clue.state import CTX_NAMES, PHASES, WATCH, ClueRules, ClueState

#: One exact uniform sampler per seat's knowledge (and envelope, for a seat that saw it);
#: bounded so a long session does not grow it without end.
_SAMPLERS: dict[tuple[Any, ...], DealSampler] = {}
_SAMPLERS_MAX = 256

# Marks for history entries whose card the seat did not see (filled per draw), and for a
# run of complete entries between them (consed on as they are).
_SHOW, _PEEK, _SIDE, _SCAN, _RUN = range(5)


def _sampler(view: dict[str, Any]) -> DealSampler:
    k = knowledge_from_view(view)
    envelope = view["envelope"]
    key = (
        k.categories,
        k.seat,
        k.hand_sizes,
        k.own_hand,
        k.public,
        tuple(sorted(k.known.items())),
        k.events,
        None if envelope is None else tuple(envelope),
    )
    sampler = _SAMPLERS.get(key)
    if sampler is None:
        if len(_SAMPLERS) >= _SAMPLERS_MAX:
            _SAMPLERS.clear()
        sampler = _SAMPLERS[key] = DealSampler(k, envelope)
    return sampler


def check_view(game: ClueRules, view: Any) -> int:
    """The seat of `view` if it has the shape and counts of a view of this game; else
    `CorruptRecord` (`InvalidSeat` for a seat not at the table). Cheap: no deducing here."""
    if not isinstance(view, dict):
        raise CorruptRecord("a view must be a JSON object")
    try:
        seat = game.check_seat(view["seat"])
        if seat is None:
            raise CorruptRecord("sample_state needs a seat's view, not the spectator's")
        same = (
            view["players"] == game.players
            and view["variant"] == game.variant
            and view["intrigue"] is game.intrigue
            and view["powers"] is game.powers
            and view["categories"] == [list(c) for c in game.categories]
        )
        if not same:
            raise CorruptRecord("this view is of a game with other options")
        for key, read in PUBLIC_READERS.items():
            read(view[key])
        n, total = game.players, len(game.card_names)
        side = game.side_cards
        each = (total - len(game.categories) - side) // n
        if read_ints(view["hand_sizes"]) != (each,) * n or len(read_ints(view["hand"])) != each:
            raise CorruptRecord(f"every hand of this game holds {each} cards")
        if len(read_ints(view["leftovers"])) != total - len(game.categories) - side - each * n:
            raise CorruptRecord("wrong number of face-up cards")
        if view["side_count"] != side or not isinstance(view["side_seen"], dict):
            raise CorruptRecord(f"this game has {side} side cards")
        for index, card in view["side_seen"].items():
            if index not in [str(i) for i in range(side)] or read_int(card) not in range(total):
                raise CorruptRecord("a side card that is not there")
        revealed = view["revealed"]
        if not isinstance(revealed, dict) or any(
            key not in [str(p) for p in range(n)] or len(read_ints(cards)) != each
            for key, cards in revealed.items()
        ):
            raise CorruptRecord("revealed hands must be whole hands of seats at the table")
        envelope = view["envelope"]
        if envelope is not None and len(read_ints(envelope)) != len(game.categories):
            raise CorruptRecord("the envelope holds one card of each kind")
        deck = len(game.intrigue_deck)
        counts = read_ints(view["kept_counts"])
        if len(counts) != n or any(not 0 <= c <= deck for c in counts):
            raise CorruptRecord("impossible numbers of kept cards")
        if not 0 <= read_int(view["pile_size"]) <= deck or len(read_strs(view["kept"])) > deck:
            raise CorruptRecord("impossible number of intrigue cards")
        for key in ("to_move", "winner"):
            if view[key] is not None:
                read_int(view[key])
        log = view["log"]
        if not isinstance(log, list) or len(log) > game.max_actions:
            raise CorruptRecord("the history must be a list of at most max_actions entries")
        for entry in log:
            if not isinstance(entry, list) or not entry or not isinstance(entry[0], str):
                raise CorruptRecord(f"bad history entry {entry!r}")
            if not all(x is None or isinstance(x, int | str) for x in entry):
                raise CorruptRecord(f"bad history entry {entry!r}")
    except KeyError as exc:
        raise CorruptRecord(f"a view of this game has the field {exc}") from exc
    return seat


def prepare_view(game: ClueRules, view: Any) -> PreparedView:
    """The door: check `view`, prepare it, and check that its first deal is a reachable state
    that shows the seat exactly this view."""
    seat = check_view(game, view)
    # A well-shaped view whose contents no deal fits (the deducer finds none, a count is off
    # by one) is refused here, once, so the draws after this need no checks.
    with door(CorruptRecord, "no state of this game shows this view"):
        template = PreparedView(game, view)
        first = template.draw(Rng(0))
    check_state(first)
    # compared as JSON text: 19.0 == 19 and True == 1 in Python, and such a view got through
    # to crash the renderer, which indexes lists with its numbers
    if _canonical(first.view(seat)) != _canonical(view):
        raise CorruptRecord("no state of this game shows this view")
    return template


def _runs(entries: list[tuple[Any, ...]]) -> list[tuple[int, Any, Any, Any]]:
    """The history after the first hidden card as `draw` walks it: each hidden entry as
    (mark, its fields), each run of complete entries between them as (_RUN, the entries,
    the card of the run's last show or None), so a draw conses a run without testing each."""
    out: list[tuple[int, Any, Any, Any]] = []
    run: list[tuple[Any, ...]] = []
    shown: Any = None
    for ev in entries:
        if ev[0] is not None:
            run.append(ev)
            if ev[0] == "show":
                shown = ev[3]
            continue
        if run:
            out.append((_RUN, tuple(run), shown, None))
            run, shown = [], None
        mark = ev[1]
        out.append((mark, ev[2], ev[3], ev[4] if mark == _SHOW else None))
    if run:
        out.append((_RUN, tuple(run), shown, None))
    return out


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


class PreparedView:
    """What `sample_state` needs from one view, prepared once; `draw` deals the rest."""

    __slots__ = (
        "game",
        "hidden_log",
        "kept",
        "kept_counts",
        "log_prefix",
        "others_keep",
        "own_kept",
        "pool",
        "proto",
        "sampler",
        "seat",
        "side_count",
        "side_known",
        "side_seen_cards",
        "view",
    )

    def __init__(self, game: ClueRules, view: dict[str, Any]) -> None:
        seat = view["seat"]
        n = game.players
        self.game = game
        self.view = view
        self.seat = seat
        self.sampler = _sampler(view)
        self.side_count = view["side_count"]
        self.side_known = {int(i): c for i, c in view["side_seen"].items()}
        self.side_seen_cards = frozenset(self.side_known.values())
        log = view["log"]

        # The history: a shared prefix up to the first hidden card, then entries that are
        # either complete tuples or (mark, data) to fill from each deal.
        first_hidden = len(log)
        for i, ev in enumerate(log):
            if ev[0] in ("show", "peek", "side", "scan") and ev[3] is None:
                first_hidden = i
                break
        prefix: Any = None
        triple: tuple[int, ...] = ()
        last_show: int | None = 0
        for ev in log[:first_hidden]:
            if ev[0] == "rumour":
                triple = tuple(ev[2:5])
            elif ev[0] == "show":
                last_show = ev[3]
            prefix = (tuple(ev), prefix)
        self.log_prefix = prefix
        rest: list[tuple[Any, ...]] = []
        hidden_show = -1  # where in `rest` the last show this seat did not see is
        for ev in log[first_hidden:]:
            kind = ev[0]
            if kind == "rumour":
                triple = tuple(ev[2:5])
                rest.append(tuple(ev))
            elif kind == "show":
                if ev[3] is None:
                    hidden_show = len(rest)
                    rest.append((None, _SHOW, ev[1], ev[2], triple))
                    last_show = None
                else:
                    rest.append(tuple(ev))
                    last_show = ev[3]
            elif kind == "peek" and ev[3] is None:
                if last_show is None:  # the card shown unseen just before
                    rest.append((None, _PEEK, ev[1], ev[2]))
                else:
                    rest.append(("peek", ev[1], ev[2], last_show))
            elif kind == "peek" and last_show is None:
                # This seat peeked at a show it was not shown: the show was that card.
                last_show = ev[3]
                _, _, shower, asker, _ = rest[hidden_show]
                rest[hidden_show] = ("show", shower, asker, last_show)
                rest.append(tuple(ev))
            elif kind == "side" and ev[3] is None:
                rest.append((None, _SIDE, ev[1], ev[2]))
            elif kind == "scan" and ev[3] is None:
                rest.append((None, _SCAN, ev[1], ev[2]))
            else:
                rest.append(tuple(ev))
        self.hidden_log = _runs(rest)

        # Intrigue cards: the pile and the others' kept cards come from what nobody has seen.
        pool = list(game.intrigue_deck) if game.intrigue else []
        gone = list(view["discards"]) + list(view["kept"])
        gone += [WATCH] * min(view["watches"], game.watches - 1)
        for kind in gone:
            pool.remove(kind)
        if (
            len(pool) - sum(c for p, c in enumerate(view["kept_counts"]) if p != seat)
            != view["pile_size"]
        ):
            raise CorruptRecord("the intrigue cards in this view do not add up")
        self.pool = pool
        self.kept_counts = [0 if p == seat else view["kept_counts"][p] for p in range(n)]
        self.others_keep = any(self.kept_counts)
        self.own_kept = tuple(view["kept"])
        self.kept = tuple(self.own_kept if p == seat else () for p in range(n))

        seen_side: list[tuple[int, ...]] = [() for _ in range(n)]
        seen_side[seat] = tuple(sorted(self.side_known))
        saw = [False] * n  # who has looked in the envelope: every wrong accuser
        for ev in log:
            if ev[0] == "side" and ev[1] != seat:
                seen_side[ev[1]] = tuple(sorted((*seen_side[ev[1]], ev[2])))
            elif ev[0] == "accuse" and not ev[5]:
                saw[ev[1]] = True
        winner = view["winner"]
        fields: dict[str, Any] = {
            "game": game,
            "left": tuple(view["leftovers"]),
            "chars": tuple(view["characters"]),
            "pos": tuple(view["movers"]),
            "wpos": tuple(view["weapons"]),
            "cur": view["current"],
            "phase": PHASES.index(view["phase"]),
            "dec": view["to_move"] if view["to_move"] is not None else -1,
            "roll": tuple(view["roll"]),
            "steps": view["steps"],
            "moved": tuple(view["moved"]),
            "out": tuple(view["out"]),
            "saw": tuple(saw),
            "seen_side": tuple(seen_side),
            "discards": tuple(view["discards"]),
            "watches": view["watches"],
            "used": tuple(view["powers_used"]),
            "extra": tuple(view["extra_turns"]),
            "turn": view["turn"],
            "naming": tuple(view["naming"]),
            "purpose": view["purpose"],
            "nloc": view["naming_location"],
            "rum": tuple(view["rumour"]),
            "ask": view["ask"],
            "shows": view["shows"],
            "peekq": tuple(view["peek_queue"]),
            "bellq": tuple(view["bell_queue"]),
            "second": view["second"],
            "ctx": CTX_NAMES.index(view["ctx"]),
            "winner": -1 if winner is None else winner,
        }
        # Every field that does not depend on the deal; `draw` copies it and fills the rest.
        fields.update(rng=0, hands=(), env=(), side=(), pile=(), kept=(), log=None)
        self.proto = make_state(game, fields)

    def draw(self, rng: Rng) -> ClueState:
        game = self.game
        n = game.players
        hands: list[list[int]] = [[] for _ in range(n)]
        aside: list[int] = []
        env = [0] * len(game.categories)
        for c, h in self.sampler.draw_holders(rng).items():
            if h < n:
                hands[h].append(c)
            elif h == n:
                aside.append(c)
            else:
                env[h - n - 1] = c
        held = [tuple(sorted(h)) for h in hands]
        side: list[int] = []
        if self.side_count:
            known = self.side_known
            aside = sorted(c for c in aside if c not in self.side_seen_cards)
            shuffle(rng, aside)
            it = iter(aside)
            side = [known[i] if i in known else next(it) for i in range(self.side_count)]

        # The history with every hidden card filled in from the deal.
        log: Any = self.log_prefix
        last_show = 0
        # `c` above is a card (an int): the entries' last field needs a name of its own
        for mark, a, b, matching in self.hidden_log:
            if mark == _RUN:
                for ev in a:
                    log = (ev, log)
                if b is not None:
                    last_show = b
            elif mark == _SHOW:
                # Which of its matching cards the answerer showed is its choice (C-4.4):
                # uniform, so a search does not model every answerer as showing the first.
                hand = held[a]
                could = [x for x in matching if x in hand]
                last_show = could[0] if len(could) == 1 else could[rng.below(len(could))]
                log = (("show", a, b, last_show), log)
            elif mark == _PEEK:
                log = (("peek", a, b, last_show), log)
            elif mark == _SIDE:
                log = (("side", a, b, side[b]), log)
            else:
                target = held[b]
                log = (("scan", a, b, target[rng.below(len(target))]), log)

        kept = self.kept
        pool = list(self.pool)
        if pool:
            shuffle(rng, pool)
            if self.others_keep:
                keep = game.keep
                mine: list[list[str]] = [[] for _ in range(n)]
                for p, count in enumerate(self.kept_counts):
                    for _ in range(count):
                        k = next(k for k in pool if k != WATCH and keep[k])
                        pool.remove(k)
                        mine[p].append(k)
                kept = tuple(
                    self.own_kept if p == self.seat else tuple(sorted(mine[p])) for p in range(n)
                )
        s = self.proto._copy()
        s.rng = rng.next64()
        s.hands = tuple(held)
        s.env = tuple(env)
        s.side = tuple(side)
        s.pile = tuple(pool)
        s.kept = kept
        s.log = log
        return s
