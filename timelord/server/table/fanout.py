"""The fan-out: what each WebSocket of this process is sent when the hub announces a change.
Texts are encoded once per (version, seat) and the same string is queued for every socket
of that seat."""

from __future__ import annotations

import asyncio
import json
from collections import deque

from timelord.server.table.hub import Change, Hub, Kind
from timelord.server.table.live import Live, seat_url
from timelord.server.table.wire import snapshot_text


class Outbox:
    """What waits to be sent to one WebSocket client, bounded: a newer snapshot replaces an
    unsent older one (it says everything the older said), so a slow reader only ever costs
    one pending snapshot and never holds up the table."""

    def __init__(
        self,
        seat: int | None,
        since: int,
        limit: int = 16,
        token: str | None = None,
        base: str = "",
        presence: bool = False,
    ) -> None:
        self.seat = seat
        self.since = since
        #: whether the client asked to be told of seat changes (`{"type": "seats"}`)
        self.presence = presence
        #: the seat's token and the server's address the client used (for a rematch link)
        self.token = token
        self.base = base
        self.limit = limit
        self.overflowed = False
        self._items: deque[tuple[bool, str]] = deque()
        self._ready = asyncio.Event()

    def push_snapshot(self, text: str) -> None:
        self._items = deque(item for item in self._items if not item[0])
        self._items.append((True, text))
        self._ready.set()

    def push_message(self, text: str) -> None:
        if len(self._items) >= self.limit:
            self.overflowed = True
        else:
            self._items.append((False, text))
        self._ready.set()

    async def next(self) -> str | None:
        """The next text to send; None once the client fell too far behind."""
        while not self._items and not self.overflowed:
            self._ready.clear()
            await self._ready.wait()
        if self.overflowed:
            return None
        return self._items.popleft()[1]


class Fanout:
    """The sockets of every table this process serves, and what each is told."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.sockets: dict[str, set[Outbox]] = {}
        hub.listen(self.heard)

    def subscribe(
        self,
        live: Live,
        seat: int | None,
        since: int,
        token: str | None = None,
        base: str = "",
        presence: bool = False,
    ) -> Outbox:
        """A socket joins the table: it is sent the seat's snapshot at once."""
        outbox = Outbox(seat, since, token=token, base=base, presence=presence)
        self.sockets.setdefault(live.id, set()).add(outbox)
        live.watchers[seat] += 1
        outbox.push_snapshot(snapshot_text(live, seat, since))
        if seat is not None and live.watchers[seat] == 1:
            self.hub.announce(Kind.PRESENCE, live)
        return outbox

    def unsubscribe(self, live: Live, outbox: Outbox) -> None:
        found = self.sockets.get(live.id)
        if found is None or outbox not in found:
            return
        found.discard(outbox)
        if not found:
            del self.sockets[live.id]
        seat = outbox.seat
        live.watchers[seat] -= 1
        if live.watchers[seat] <= 0:
            del live.watchers[seat]
            if seat is not None:
                self.hub.announce(Kind.PRESENCE, live)

    def heard(self, change: Change) -> None:
        """Queue what the change means for each socket of its table."""
        live, kind = change.live, change.kind
        outboxes = list(self.sockets.get(live.id, ()))
        if not outboxes or kind is Kind.LOADED:
            return
        if kind is Kind.CHAT:
            for line in change.lines:
                text = json.dumps({"type": "chat", **line})
                for outbox in outboxes:
                    outbox.push_message(text)
            return
        if kind is Kind.REMATCH:
            self._tell_rematch(live, outboxes)
        if kind is not Kind.PRESENCE:
            for outbox in outboxes:
                outbox.push_snapshot(snapshot_text(live, outbox.seat, outbox.since))
        if kind in (Kind.LIFE, Kind.PRESENCE):
            text = json.dumps({"type": "seats", "seats": live.seats_json()})
            for outbox in outboxes:
                if outbox.presence:
                    outbox.push_message(text)

    def _tell_rematch(self, live: Live, outboxes: list[Outbox]) -> None:
        n = live.game.players
        for outbox in outboxes:
            seat = None if outbox.seat is None else (outbox.seat + 1) % n
            token = outbox.token if seat is not None else None
            url = seat_url(outbox.base, live.rematch or "", token)
            outbox.push_message(json.dumps({"type": "rematch", "table": live.rematch, "url": url}))
