"""What a seat is sent: its whole snapshot, or a delta from a version it has (the events
since, its view as a patch, its legal actions, the table's life), built from texts encoded
once per (version, seat) and shared by every socket and request of that seat.

A delta (`{"type": "delta", "from": F, "version": V, ...}`) is applied by a client at version
F: `events` are appended (F = 0: they replace every event), `view` replaces the view or
`view_patch` changes it (a list of `[pointer, value]` to set and `[pointer]` to remove, each
pointer an RFC 6901 JSON pointer into the view; lists are replaced whole), and `over`,
`to_move`, `seeded`, `legal`, `status`, `clock`, `undo`, `rematch` and, when present,
`seats` replace the client's."""

from __future__ import annotations

import json
from typing import Any

from timelord.server.table.live import Live


def mark_standin(said: list[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
    """`said`, the events of one action, with `"standin": true` on those that tell what
    `seat` did when its person's stand-in played the action for it (None: nobody's), so a
    log can say who played. Events of another seat the action brought about (the next
    seat's draw after a turn the stand-in ended) are that seat's own and stay unmarked."""
    if seat is None:
        return said
    return [{**e, "standin": True} if _actor(e) == seat else e for e in said]


def _actor(event: dict[str, Any]) -> object:
    data = event.get("data")
    return data.get("actor") if isinstance(data, dict) else None


def told_events(live: Live, seat: int | None) -> list[str]:
    """Per version, the comma-joined JSON of the events `seat` was told (encoded once)."""
    encoded = live.encoded
    told = encoded.told.setdefault(seat, [])
    if len(told) < len(live.events):
        joined = encoded.joined.get(seat, "")
        for version, events in enumerate(live.events[len(told) :], len(told) + 1):
            said = mark_standin(live.game.tell(events, seat), live.standin_for(version))
            part = json.dumps(said)[1:-1]
            told.append(part)
            if part:
                joined = f"{joined},{part}" if joined else part
        encoded.joined[seat] = joined
    return told


def events_since(live: Live, seat: int | None, since: int) -> str:
    """The JSON list of the events `seat` was told after version `since`."""
    told = told_events(live, seat)
    if not since:
        return f"[{live.encoded.joined.get(seat, '')}]"
    return f"[{','.join(p for p in told[since:] if p)}]"


def view_of(live: Live, seat: int | None) -> Any:
    """The seat's view of the current version, computed once and kept for the next delta."""
    views = live.encoded.views.get(seat, {})
    view = views.get(live.version)
    if view is None:
        view = live.state.view(seat)
        live.encoded.remember_view(seat, live.version, view)
    return view


def _head(live: Live) -> dict[str, Any]:
    return {
        "version": live.version,
        "over": live.over,
        "to_move": live.state.to_move,
        "seeded": live.seeded,
    }


def game_text(live: Live, seat: int | None, since: int = 0) -> str:
    """The game's part of the seat's snapshot: version, over, to_move, seeded, view, legal
    and events; kept for the version when `since` is 0 (other `since` values are rarer and
    built each time, so odd values cannot fill the memory)."""
    key = ("game", seat)
    if not since:
        text = live.encoded.current.get(key)
        if text is not None:
            return text
    head = json.dumps(_head(live))[:-1]
    view = json.dumps(view_of(live, seat))
    legal = json.dumps(live.legal_json(seat))
    text = (
        f'{head}, "view": {view}, "legal": {legal}, "events": {events_since(live, seat, since)}}}'
    )
    if not since:
        live.encoded.current[key] = text
    return text


def snapshot_text(live: Live, seat: int | None, since: int = 0) -> str:
    """The seat's whole snapshot (the HTTP route's and a full WebSocket push): the game's
    part as encoded for the version, the table's part (seats, clock) as of now."""
    text = game_text(live, seat, since)
    return f"{text[:-1]}, {json.dumps(live.life_json())[1:]}"


def delta_text(
    live: Live, seat: int | None, since: int, *, seats: bool = True, whole: bool = False
) -> str:
    """The delta that brings a client of `seat` at version `since` to the table as it is now
    (`since` 0 after an undo: every event again); `seats`: whether the seats are included
    (they are left out after a move, which changes none), `whole`: the whole view rather
    than a patch. Built once per (version, seat, since) and shared."""
    key = ("delta", seat, since, seats, whole)
    text = live.encoded.current.get(key)
    if text is not None:
        return text
    body: dict[str, Any] = {"type": "delta", "from": since, **_head(live)}
    view = view_of(live, seat)
    old = None if whole else live.encoded.views.get(seat, {}).get(since)
    if old is None:
        body["view"] = view
    else:
        body["view_patch"] = view_patch(old, view)
    body["legal"] = live.legal_json(seat)
    body.update(live.life_json(seats))
    encoded = json.dumps(body)
    text = f'{encoded[:-1]}, "events": {events_since(live, seat, since)}}}'
    live.encoded.current[key] = text
    return text


def view_patch(old: Any, new: Any, path: str = "") -> list[list[Any]]:
    """What turns view `old` into `new`: `[pointer, value]` to set, `[pointer]` to remove;
    objects are compared key by key, anything else (lists included) replaced whole."""
    if not (isinstance(old, dict) and isinstance(new, dict)):
        return [] if old == new else [[path, new]]
    out: list[list[Any]] = []
    for key, value in new.items():
        here = f"{path}/{_escape(key)}"
        if key not in old:
            out.append([here, value])
        elif old[key] != value:
            out.extend(view_patch(old[key], value, here))
    for key in old:
        if key not in new:
            out.append([f"{path}/{_escape(key)}"])
    return out


def _escape(key: Any) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")
