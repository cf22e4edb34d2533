"""What each seat sees (`build_view`) and the state's JSON form (read back in doors.py).

A view holds everything its seat knows by perfect recall: its hand, the face-up cards, every
rumour with who could not answer and who showed, the cards shown to it (or seen with Psychic
Paper, a scan, a side card), and the envelope once it has looked inside. Hidden cards appear
as `null` in the history.
"""

from __future__ import annotations

from typing import Any

from timelord.games.clue.state import CTX_NAMES, PHASES, WATCH, ClueState


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
