"""What each seat sees (`build_view`) and the state's JSON form.

A view holds everything its seat knows by perfect recall: its hand, the face-up cards, every
rumour with who could not answer and who showed, the cards shown to it (or seen with Psychic
Paper, a scan, a side card), and the envelope once it has looked inside. Hidden cards appear
as `null` in the history.
"""

from __future__ import annotations

from typing import Any

from timelord.core import CorruptRecord, is_state
from timelord.games.clue.check import check_state
from timelord.games.clue.state import CTX_NAMES, PHASES, WATCH, ClueRules, ClueState


def _event_for(event: tuple[Any, ...], seat: int | None) -> list[Any]:
    kind = event[0]
    if kind == "show":
        _, shower, asker, card = event
        return ["show", shower, asker, card if seat in (shower, asker) else None]
    if kind == "peek":
        _, peeker, shower, card = event
        return ["peek", peeker, shower, card if seat in (peeker, shower) else None]
    if kind == "side":
        _, asker, index, card = event
        return ["side", asker, index, card if seat == asker else None]
    if kind == "scan":
        _, scanner, target, card = event
        return ["scan", scanner, target, card if seat in (scanner, target) else None]
    return list(event)


def _public(state: ClueState) -> dict[str, Any]:
    """The fields every seat sees exactly as the state holds them (views and records share
    them, so a new public field is added once)."""
    return {
        "characters": list(state.chars),
        "turn": state.turn,
        "current": state.cur,
        "phase": PHASES[state.phase],
        "roll": list(state.roll),
        "steps": state.steps,
        "movers": list(state.pos),
        "weapons": list(state.wpos),
        "moved": list(state.moved),
        "out": list(state.out),
        "watches": state.watches,
        "discards": list(state.discards),
        "powers_used": list(state.used),
        "extra_turns": list(state.extra),
        "naming": list(state.naming),
        "purpose": state.purpose,
        "naming_location": state.nloc,
        "rumour": list(state.rum),
        "ask": state.ask,
        "shows": state.shows,
        "peek_queue": list(state.peekq),
        "bell_queue": list(state.bellq),
        "second": state.second,
        "ctx": CTX_NAMES[state.ctx],
    }


def build_view(state: ClueState, seat: int | None) -> dict[str, Any]:
    g = state.game
    g.check_seat(seat)
    over = state.phase == PHASES.index("over")
    revealed = {str(p): list(state.hands[p]) for p in range(g.players) if state.out[p] == WATCH}
    sees_envelope = over or (seat is not None and state.saw[seat])
    view: dict[str, Any] = {
        **_public(state),
        "seat": seat,
        "players": g.players,
        "variant": g.variant,
        "intrigue": g.intrigue,
        "powers": g.powers,
        "categories": [list(c) for c in g.categories],
        "to_move": state.to_move,
        "hand": list(state.hands[seat]) if seat is not None else [],
        "hand_sizes": [len(h) for h in state.hands],
        "leftovers": list(state.left),
        "revealed": revealed,
        "envelope": list(state.env) if sees_envelope else None,
        "side_count": len(state.side),
        "side_seen": (
            {str(i): state.side[i] for i in state.seen_side[seat]} if seat is not None else {}
        ),
        "pile_size": len(state.pile),
        "kept": list(state.kept[seat]) if seat is not None else [],
        "kept_counts": [len(k) for k in state.kept],
        "winner": state.winner if state.winner >= 0 else None,
        "log": [_event_for(e, seat) for e in state.events()],
    }
    return view


def state_to_json(state: ClueState) -> dict[str, Any]:
    return {
        **_public(state),
        "rng": state.rng,
        "hands": [list(h) for h in state.hands],
        "envelope": list(state.env),
        "leftovers": list(state.left),
        "side": list(state.side),
        "decider": state.dec,
        "saw_envelope": list(state.saw),
        "side_seen": [list(s) for s in state.seen_side],
        "pile": list(state.pile),
        "kept": [list(k) for k in state.kept],
        "winner": state.winner,
        "log": [list(e) for e in state.events()],
    }


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
