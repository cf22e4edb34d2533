"""What a seat is sent: its snapshot as JSON text, built from texts encoded once per
(version, seat) and shared by every socket and request of that seat."""

from __future__ import annotations

import json

from timelord.server.table.live import Live


def told_events(live: Live, seat: int | None) -> list[str]:
    """Per version, the comma-joined JSON of the events `seat` was told (encoded once)."""
    encoded = live.encoded
    told = encoded.told.setdefault(seat, [])
    if len(told) < len(live.events):
        joined = encoded.joined.get(seat, "")
        for events in live.events[len(told) :]:
            part = json.dumps(live.game.tell(events, seat))[1:-1]
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


def game_text(live: Live, seat: int | None, since: int = 0) -> str:
    """The game's part of the seat's snapshot: version, over, to_move, seeded, view, legal
    and events; kept for the version when `since` is 0 (other `since` values are rarer and
    built each time, so odd values cannot fill the memory)."""
    key = ("game", seat)
    if not since:
        text = live.encoded.current.get(key)
        if text is not None:
            return text
    head = json.dumps(
        {
            "version": live.version,
            "over": live.over,
            "to_move": live.state.to_move,
            "seeded": live.seeded,
        }
    )[:-1]
    view = json.dumps(live.state.view(seat))
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
