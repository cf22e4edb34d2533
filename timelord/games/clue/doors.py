"""The door for saved states: `check_state` refuses any state the rules could never reach in
a way that matters later (a card in two places, a seat past the table, a history that does
not fit the hands), so everything behind it (`legal_actions`, `view`, `sample_state`, the
fast path) may trust the state it gets.

It holds the same standard as Episodes and Keys: every card in exactly one place and in the
right numbers, every intrigue card accounted for, every seat, node and card in range, the
phase's bookkeeping complete, and the history consistent with the hands (who passed holds
none of the three, who showed holds the card), because every seat's deducer and sampler
trust that history.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from timelord.core import CorruptRecord, is_state
from timelord.games.clue.board import TARDIS
from timelord.games.clue.state import (
    ANSWER,
    BELL,
    CENTRE,
    CTX_NAMES,
    CTX_NONE,
    CTX_RUMOUR,
    MOVE,
    NAME,
    OFFER,
    OVER,
    PEEK,
    PHASES,
    SCAN,
    SECOND,
    SIDE,
    SLIP,
    START,
    TELEPORT,
    WATCH,
    ClueRules,
    ClueState,
)

#: Phases in which a rumour is being answered (the rumour's fields must be set).
_RUMOUR_PHASES = frozenset({OFFER, ANSWER, PEEK, SECOND, SIDE})
#: Phases in which the player whose turn it is decides.
_CURRENT_DECIDES = frozenset({START, MOVE, NAME, CENTRE, TELEPORT, SCAN, SECOND})
OUT_REASONS = ("", "accused", WATCH)


def _fail(message: str) -> CorruptRecord:
    return CorruptRecord(f"not a reachable Clue state: {message}")


def _seat(value: Any, n: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n:
        raise _fail(f"{what} {value!r} is not a seat at this {n}-player table")
    return value


def _in(value: Any, allowed: Any, what: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value not in allowed:
        raise _fail(f"{what} {value!r} is out of range")


def check_state(s: ClueState) -> None:
    """`CorruptRecord` unless `s` is a state the rules could have reached."""
    g = s.game
    n = g.players
    for name in ("hands", "moved", "out", "saw", "seen_side", "kept", "used", "extra", "chars"):
        if len(getattr(s, name)) != n:
            raise _fail(f"{name} does not have one entry per player")
    _check_cards(s, g, n)
    _check_intrigue(s, g, n)
    _check_places(s, g, n)
    _check_phase(s, g, n)
    _check_history(s, g, n)
    if s.phase != OVER and not s.legal_actions():
        raise _fail(f"nothing can be done in this {s.phase}-phase position")


def _check_cards(s: ClueState, g: ClueRules, n: int) -> None:
    total = len(g.card_names)
    if len(s.env) != len(g.categories) or any(
        c not in cat for c, cat in zip(s.env, g.categories, strict=False)
    ):
        raise _fail("the envelope must hold one card of each kind, in kind order")
    want_side = g.side_cards
    if len(s.side) != want_side:
        raise _fail(f"there must be {want_side} side cards")
    places = [*s.env, *s.left, *s.side, *(c for h in s.hands for c in h)]
    if sorted(places) != list(range(total)):
        raise _fail("every card must lie in exactly one place (envelope, hand, face up, aside)")
    each = (total - len(s.env) - len(s.side)) // n
    if any(len(h) != each for h in s.hands) or any(list(h) != sorted(h) for h in s.hands):
        raise _fail(f"every hand holds {each} cards, in card order")
    if list(s.left) != sorted(s.left):
        raise _fail("the face-up cards are in card order")
    for p, seen in enumerate(s.seen_side):
        if list(seen) != sorted(set(seen)) or any(not 0 <= i < len(s.side) for i in seen):
            raise _fail(f"seat {p}'s looked-at side cards are not side-card positions")
    if len(set(s.chars)) != n or any(not 0 <= c < len(g.suspects) for c in s.chars):
        raise _fail("each seat plays a different suspect")


def _check_intrigue(s: ClueState, g: ClueRules, n: int) -> None:
    if not g.intrigue and (s.pile or any(s.kept) or s.discards or s.watches):
        raise _fail("this game has no intrigue cards")
    if not 0 <= s.watches <= g.max_turns:
        raise _fail("impossible number of Pocketwatches drawn")
    for p, kept in enumerate(s.kept):
        if list(kept) != sorted(kept) or any(k not in g.keep or not g.keep[k] for k in kept):
            raise _fail(f"seat {p} keeps a card that is not a kept action card")
    if any(k not in g.effect for k in s.discards) or any(
        k != WATCH and k not in g.effect for k in s.pile
    ):
        raise _fail("an unknown intrigue card")
    if g.intrigue:
        drawn_watches = min(s.watches, g.watches - 1)
        held = Counter(s.pile) + Counter(s.discards) + Counter(k for ks in s.kept for k in ks)
        held[WATCH] += drawn_watches
        if held != Counter(g.intrigue_deck):
            raise _fail("the intrigue cards do not add up to the deck")
    if not g.powers and any(s.used):
        raise _fail("this game has no character powers")
    extra_cards = sum(1 for k in g.intrigue_deck if k != WATCH and g.effect[k] == "extra-turn")
    if any(not 0 <= e <= extra_cards + 1 for e in s.extra):
        raise _fail("impossible number of extra turns")


def _check_places(s: ClueState, g: ClueRules, n: int) -> None:
    if len(s.pos) != len(g.suspects) or len(s.wpos) != len(g.weapons):
        raise _fail("one place per mover and per weapon")
    for node in s.pos:
        _in(node, g.board.places, "mover place")
    for node in s.wpos:
        _in(node, [*range(g.board.rooms), TARDIS], "weapon place")
    if any(o not in OUT_REASONS for o in s.out):
        raise _fail(f"a player is out for an unknown reason (known: {OUT_REASONS})")
    if any(saw != (o == "accused") for saw, o in zip(s.saw, s.out, strict=True)):
        raise _fail("exactly the wrong accusers have seen the envelope")
    if not 1 <= s.turn <= g.max_turns:
        raise _fail(f"turn {s.turn} is outside 1-{g.max_turns}")


def _check_phase(s: ClueState, g: ClueRules, n: int) -> None:
    ph = s.phase
    _seat(s.cur, n, "current player")
    _seat(s.ask, n, "seat asked")
    if ph == OVER:
        if s.dec != -1:
            raise _fail("nobody decides once the game is over")
    else:
        _seat(s.dec, n, "deciding seat")
        if s.out[s.cur]:
            raise _fail("a player who is out has no turn")
    if s.winner != -1:
        _seat(s.winner, n, "winner")
        if ph != OVER:
            raise _fail("a winner before the game is over")
    if ph in _CURRENT_DECIDES and s.dec != s.cur:
        raise _fail("the player whose turn it is decides in this phase")
    if ph in (OFFER, PEEK, SLIP, BELL) and s.out[s.dec]:
        raise _fail("a player who is out makes no choices")
    if s.roll:
        if g.fixed_roll:
            if s.roll != (g.fixed_roll, 0):
                raise _fail(f"bad roll {list(s.roll)} (this variant moves {g.fixed_roll} steps)")
        elif (
            len(s.roll) != 2 or s.roll[0] not in (0, 2, 3, 4, 5, 6) or s.roll[1] not in range(1, 7)
        ):
            raise _fail(f"bad dice {list(s.roll)} (the first die shows ? (0) or 2-6)")
    elif ph == MOVE:
        raise _fail("moving without a roll")
    if not 0 <= s.steps <= max(12, g.fixed_roll) + 6 * len(g.intrigue_deck):
        raise _fail(f"impossible number of steps {s.steps}")
    if s.purpose not in ("", "rumour", "accuse"):
        raise _fail(f"unknown naming purpose {s.purpose!r}")
    _in(s.nloc, range(-1, g.board.rooms), "naming location")
    if s.naming and ph != NAME:
        raise _fail("cards named outside the naming phase")
    if ph == NAME:
        if not s.purpose or (s.purpose == "accuse" and s.nloc != -1):
            raise _fail("naming without a purpose")
        need = 3 if (s.purpose == "accuse" or s.nloc < 0) else 2
        if len(s.naming) >= need or any(
            c not in cat for c, cat in zip(s.naming, g.categories, strict=False)
        ):
            raise _fail("the cards named so far are not one of each kind in order")
    in_rumour = ph in _RUMOUR_PHASES or (ph in (SLIP, BELL) and s.ctx == CTX_RUMOUR)
    if (s.ctx != CTX_NONE) != (ph in (SLIP, BELL)):
        raise _fail("a drawn card's context outside its choice")
    if bool(s.rum) != in_rumour:
        raise _fail("a rumour must be open exactly while it is being answered")
    if s.rum:
        if len(s.rum) != 4 or s.rum[0] != s.cur:
            raise _fail("the open rumour is the current player's: asker, suspect, weapon, place")
        for c, cat in zip(s.rum[1:], g.categories, strict=True):
            _in(c, cat, "card of the open rumour")
        if not 0 <= s.shows <= 2:
            raise _fail("at most two cards answer a rumour")
    elif s.shows or s.second:
        raise _fail("answers counted with no rumour open")
    if s.peekq and ph != PEEK:
        raise _fail("a queue of peeks outside the peek window")
    if s.bellq and ph != BELL:
        raise _fail("a Cloister Bell queue outside its moves")
    for q, what in ((s.peekq, "peek"), (s.bellq, "Cloister Bell")):
        if len(set(q)) != len(q):
            raise _fail(f"a seat twice in the {what} queue")
        for p in q:
            _seat(p, n, f"{what} queue seat")
    if s.cur in s.peekq:
        raise _fail("the asker never peeks at its own answer")
    if ph == ANSWER and (
        s.dec != s.ask or s.dec == s.cur or not set(s.rum[1:]) & set(s.hands[s.dec])
    ):
        raise _fail("the seat asked must hold a named card to answer")
    if ph in (OFFER, PEEK) and s.dec == s.cur:
        raise _fail("the asker does not decide in this phase")
    if ph in (PEEK, SECOND) and not s.shows:
        raise _fail("no card has been shown")
    if ph == SIDE and len(s.seen_side[s.dec]) >= len(s.side):
        raise _fail("no side card left to look at")


def _check_history(s: ClueState, g: ClueRules, n: int) -> None:
    """Walk the history: every entry well formed and consistent with the hands and fields."""
    triple: tuple[int, ...] = ()
    asker = -1
    last_show: int | None = None
    shower = -1
    shows = 0
    seen_side: set[tuple[int, int]] = set()
    powers: set[int] = set()
    outs: dict[int, str] = {}
    wrong: set[int] = set()
    watches = 0
    right = -1
    last_rumour: tuple[int, ...] = ()
    cards = range(len(g.card_names))
    node = s.log
    entries = []
    while node is not None:
        entries.append(node[0])
        node = node[1]
    entries.reverse()
    for ev in entries:
        kind, args = ev[0], ev[1:]
        size = _SIZES.get(kind)
        if size is None or len(args) != size:
            raise _fail(f"history entry {list(ev)!r} has an unknown kind or shape")
        if kind in _NAMED and not isinstance(args[1], str):
            raise _fail(f"history entry {list(ev)!r} must name its card or reason in words")
        who = _seat(args[0], n, f"{kind} seat")
        if kind == "rumour":
            for c, cat in zip(args[1:], g.categories, strict=True):
                _in(c, cat, "rumour card")
            triple, asker, last_show, shower, shows = tuple(args[1:]), who, None, -1, 0
            last_rumour = tuple(args)
        elif kind == "pass":
            if not triple or who == asker or set(triple) & set(s.hands[who]):
                raise _fail(f"seat {who} passed on a rumour it could answer")
        elif kind == "show":
            card = args[2]
            _in(card, cards, "card shown")
            if (
                not triple
                or args[1] != asker
                or who == asker
                or card not in triple
                or card not in s.hands[who]
            ):
                raise _fail(f"seat {who} showed a card it does not hold or nobody asked about")
            last_show, shower = card, who
            shows += 1
        elif kind == "peek":
            if last_show is None or args[1:] != (shower, last_show) or who in (asker, shower):
                raise _fail("a peek at a card that was not just shown")
        elif kind == "side":
            index, card = args[1], args[2]
            _in(index, range(len(s.side)), "side card position")
            if s.side[index] != card or (who, index) in seen_side:
                raise _fail("a look at a side card that does not match the side cards")
            seen_side.add((who, index))
        elif kind == "scan":
            target = _seat(args[1], n, "scanned seat")
            if target == who or args[2] not in s.hands[target]:
                raise _fail("a scan of a card that seat does not hold")
        elif kind == "accuse":
            for c, cat in zip(args[1:4], g.categories, strict=True):
                _in(c, cat, "accused card")
            if args[4] is not (tuple(args[1:4]) == s.env):
                raise _fail("an accusation's verdict does not match the envelope")
            if args[4]:
                right = who
            else:
                wrong.add(who)
        elif kind == "play":
            if args[1] not in g.effect:
                raise _fail(f"played an unknown card {args[1]!r}")
        elif kind == "power":
            if not g.powers or args[1] != g.power_effect[s.chars[who]] or who in powers:
                raise _fail("a character power used twice or not this seat's")
            powers.add(who)
        elif kind == "draw":
            if args[1] == WATCH:
                watches += 1
            elif args[1] != "" and (args[1] not in g.keep or g.keep[args[1]]):
                raise _fail(f"a drawn card {args[1]!r} that is not shown when drawn")
        elif kind == "bell":
            _in(args[1], range(g.board.rooms), "Cloister Bell location")
        elif kind == "out":
            if args[1] not in OUT_REASONS[1:] or who in outs:
                raise _fail("a player put out twice or for an unknown reason")
            outs[who] = args[1]
    if seen_side != {(p, i) for p, seen in enumerate(s.seen_side) for i in seen}:
        raise _fail("the side cards looked at do not match the history")
    if powers != {p for p, used in enumerate(s.used) if used}:
        raise _fail("the powers used do not match the history")
    if outs != {p: o for p, o in enumerate(s.out) if o}:
        raise _fail("the players out do not match the history")
    if wrong != {p for p, o in enumerate(s.out) if o == "accused"}:
        raise _fail("the wrong accusers do not match the history")
    if watches != s.watches or right != s.winner:
        raise _fail("the Pocketwatches drawn or the winner do not match the history")
    if s.rum and (s.rum != last_rumour or s.shows != shows):
        raise _fail("the open rumour does not match the history")


#: Kinds whose second argument is a word (a card id, a power effect, a reason).
_NAMED = frozenset({"play", "power", "draw", "out"})
#: Arguments after the kind, per kind of history entry.
_SIZES = {
    "rumour": 4,
    "pass": 1,
    "show": 3,
    "peek": 3,
    "side": 3,
    "scan": 3,
    "accuse": 5,
    "play": 2,
    "power": 2,
    "draw": 2,
    "bell": 2,
    "out": 2,
}


# ----- reading a saved state: types and lengths, then reachability (`check_state`) -----


def read_ints(value: Any) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        raise CorruptRecord(f"expected a list of integers, got {value!r}")
    return tuple(value)


def read_strs(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise CorruptRecord(f"expected a list of strings, got {value!r}")
    return tuple(value)


def _bools(value: Any) -> tuple[bool, ...]:
    if not isinstance(value, list) or not all(isinstance(v, bool) for v in value):
        raise CorruptRecord(f"expected a list of true/false, got {value!r}")
    return tuple(value)


def read_int(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise CorruptRecord(f"expected an integer, got {value!r}")
    return value


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise CorruptRecord(f"expected true or false, got {value!r}")
    return value


def _str(value: Any) -> str:
    if not isinstance(value, str):
        raise CorruptRecord(f"expected a string, got {value!r}")
    return value


def _each(value: Any, read: Any) -> tuple[Any, ...]:
    """A list read item by item (a string or an object is not a list of lists)."""
    if not isinstance(value, list):
        raise CorruptRecord(f"expected a list, got {value!r}")
    return tuple(read(v) for v in value)


def _named(value: Any, names: tuple[str, ...], what: str) -> int:
    if not isinstance(value, str) or value not in names:
        raise CorruptRecord(f"unknown {what} {value!r}; known: {', '.join(names)}")
    return names.index(value)


def _phase(value: Any) -> int:
    return _named(value, PHASES, "phase")


def _ctx(value: Any) -> int:
    return _named(value, CTX_NAMES, "drawing context")


#: How each field of `_public` is read back (views and records share them).
PUBLIC_READERS: dict[str, Any] = {
    "characters": read_ints,
    "turn": read_int,
    "current": read_int,
    "phase": _phase,
    "roll": read_ints,
    "steps": read_int,
    "movers": read_ints,
    "weapons": read_ints,
    "moved": _bools,
    "out": read_strs,
    "watches": read_int,
    "discards": read_strs,
    "powers_used": _bools,
    "extra_turns": read_ints,
    "naming": read_ints,
    "purpose": _str,
    "naming_location": read_int,
    "rumour": read_ints,
    "ask": read_int,
    "shows": read_int,
    "peek_queue": read_ints,
    "bell_queue": read_ints,
    "second": _bool,
    "ctx": _ctx,
}


def make_state(game: ClueRules, fields: dict[str, Any]) -> ClueState:
    """A state from already-checked field values (names as in `ClueState`)."""
    s = ClueState(game)
    for name, value in fields.items():
        setattr(s, name, value)
    return s


def _log_from(items: Any) -> Any:
    if not isinstance(items, list):
        raise CorruptRecord("the history must be a list")
    log: Any = None
    for item in items:
        if not isinstance(item, list) or not item or not isinstance(item[0], str):
            raise CorruptRecord(f"bad history entry {item!r}")
        if not all(isinstance(x, int | str) for x in item):
            raise CorruptRecord(f"history entry {item!r} holds something not a number or word")
        log = (tuple(item), log)
    return log


def state_from_json(game: ClueRules, data: Any) -> ClueState:
    """The state `data` (from `state_to_json`) describes; `CorruptRecord` unless well formed
    and reachable (`check.check_state`)."""
    state = read_state(game, data)
    check_state(state)
    return state


def read_state(game: ClueRules, data: Any) -> ClueState:
    """`data` read field by field with every type and length checked, but not whether the
    position is reachable: scenario tests build hand-made positions (a pile of one
    Pocketwatch) this way; everything from outside goes through `state_from_json`."""
    if not isinstance(data, dict):
        raise CorruptRecord("a Clue state must be a JSON object")
    try:
        fields: dict[str, Any] = {
            "game": game,
            "rng": read_int(data["rng"]),
            "hands": _each(data["hands"], read_ints),
            "env": read_ints(data["envelope"]),
            "left": read_ints(data["leftovers"]),
            "side": read_ints(data["side"]),
            "chars": read_ints(data["characters"]),
            "pos": read_ints(data["movers"]),
            "wpos": read_ints(data["weapons"]),
            "cur": read_int(data["current"]),
            "phase": _phase(data["phase"]),
            "dec": read_int(data["decider"]),
            "roll": read_ints(data["roll"]),
            "steps": read_int(data["steps"]),
            "moved": _bools(data["moved"]),
            "out": read_strs(data["out"]),
            "saw": _bools(data["saw_envelope"]),
            "seen_side": _each(data["side_seen"], read_ints),
            "pile": read_strs(data["pile"]),
            "kept": _each(data["kept"], read_strs),
            "discards": read_strs(data["discards"]),
            "watches": read_int(data["watches"]),
            "used": _bools(data["powers_used"]),
            "extra": read_ints(data["extra_turns"]),
            "turn": read_int(data["turn"]),
            "naming": read_ints(data["naming"]),
            "purpose": _str(data["purpose"]),
            "nloc": read_int(data["naming_location"]),
            "rum": read_ints(data["rumour"]),
            "ask": read_int(data["ask"]),
            "shows": read_int(data["shows"]),
            "peekq": read_ints(data["peek_queue"]),
            "bellq": read_ints(data.get("bell_queue", [])),
            "second": _bool(data["second"]),
            "ctx": _ctx(data["ctx"]),
            "winner": read_int(data["winner"]),
            "log": _log_from(data["log"]),
        }
    except KeyError as exc:
        raise CorruptRecord(f"not a Clue state: it lacks {exc}") from exc
    if not is_state(fields["rng"]):
        raise CorruptRecord("the generator state must be a 64-bit number or a keyed one")
    return make_state(game, fields)
