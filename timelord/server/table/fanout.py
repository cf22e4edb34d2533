"""The fan-out: what each WebSocket of this process is queued when the hub announces a
change. A socket that asked for deltas (`delta=1`) gets, per change, only what its seat
lacked; one that did not gets the seat's snapshot as before. Each text is built once per
(version, seat) and the same string is queued for every socket that needs it."""

from __future__ import annotations

import asyncio
import itertools
import json
from collections import deque

from timelord.server.table.hub import Change, Hub, Kind
from timelord.server.table.live import Live, seat_url
from timelord.server.table.wire import delta_text, snapshot_text

#: the kinds of item an outbox holds
SNAPSHOT, DELTA, MESSAGE = "snapshot", "delta", "message"


class Outbox:
    """What waits to be sent to one WebSocket client, bounded: a newer snapshot replaces an
    unsent older one (it says everything the older said); deltas queue up to `limit`, past
    which they are dropped for one catch-up delta from the version the client was last sent;
    messages (chat, seats) queue up to `limit`, past which the client is dropped. A slow
    reader never holds up the table."""

    def __init__(
        self,
        seat: int | None,
        since: int,
        limit: int = 16,
        token: str | None = None,
        base: str = "",
        presence: bool = False,
        delta: bool = False,
    ) -> None:
        self.seat = seat
        self.since = since
        #: whether the client asked for deltas after its first snapshot (`delta=1`)
        self.delta = delta
        #: whether the client asked to be told of seat changes (`{"type": "seats"}`)
        self.presence = presence or delta
        #: the seat's token and the server's address the client used (for a rematch link)
        self.token = token
        self.base = base
        self.limit = limit
        self.overflowed = False
        #: the logged-in player whose session cookie opened the seat (None: a token did)
        self.player: str | None = None
        self.cookie: str | None = None
        #: why the client may no longer be sent anything: the refusal to tell it, and the
        #: close code (its seat's link was renewed, its session ended)
        self.revoked: tuple[str, int] | None = None
        #: the version of the newest snapshot or delta queued, and of the newest sent
        self.version = -1
        self.delivered = -1
        self._items: deque[tuple[str, str, int]] = deque()
        self._ready = asyncio.Event()

    def push_snapshot(self, text: str, version: int = -1) -> None:
        self._items = deque(item for item in self._items if item[0] == MESSAGE)
        self._items.append((SNAPSHOT, text, version))
        self.version = version
        self._ready.set()

    def push_delta(self, text: str, version: int) -> None:
        self._items.append((DELTA, text, version))
        self.version = version
        self._ready.set()

    def lagging(self) -> bool:
        """Whether `limit` deltas wait unsent: the next change drops them for one delta."""
        return sum(1 for item in self._items if item[0] == DELTA) >= self.limit

    def drop_deltas(self) -> bool:
        """Drop the deltas waiting; whether they only moved forward from the version last
        sent (else an undo came between, and the client must be sent every event again)."""
        versions = [self.delivered] + [item[2] for item in self._items if item[0] == DELTA]
        self._items = deque(item for item in self._items if item[0] != DELTA)
        return all(a < b for a, b in itertools.pairwise(versions))

    def push_message(self, text: str) -> None:
        if sum(1 for item in self._items if item[0] == MESSAGE) >= self.limit:
            self.overflowed = True
        else:
            self._items.append((MESSAGE, text, -1))
        self._ready.set()

    def revoke(self, refusal: str, code: int) -> None:
        """Send nothing more, not even what is queued: tell the client `refusal` and close
        with `code`."""
        self.revoked = (refusal, code)
        self._items.clear()
        self._ready.set()

    async def next(self) -> str | None:
        """The next text to send; None once the client fell too far behind or was revoked."""
        while not self._items and not self.overflowed and self.revoked is None:
            self._ready.clear()
            await self._ready.wait()
        if self.overflowed or self.revoked is not None:
            return None
        kind, text, version = self._items.popleft()
        if kind != MESSAGE:
            self.delivered = version
        return text


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
        delta: bool = False,
    ) -> Outbox:
        """A socket joins the table: it is sent the seat's snapshot (events after `since`)
        at once."""
        outbox = Outbox(seat, since, token=token, base=base, presence=presence, delta=delta)
        self.sockets.setdefault(live.id, set()).add(outbox)
        live.watchers[seat] += 1
        outbox.push_snapshot(snapshot_text(live, seat, since), live.version)
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
            snapshots: dict[tuple[int | None, int], str] = {}
            for outbox in outboxes:
                if kind is Kind.MOVED and outbox.version == live.version:
                    continue  # it was queued this version already (a move is all it changed)
                if outbox.delta:
                    self._push_delta(live, outbox, seats=kind is not Kind.MOVED)
                    continue
                key = (outbox.seat, outbox.since)
                whole = snapshots.get(key)
                if whole is None:
                    whole = snapshots[key] = snapshot_text(live, outbox.seat, outbox.since)
                outbox.push_snapshot(whole, live.version)
        if kind in (Kind.LIFE, Kind.PRESENCE):
            text = json.dumps({"type": "seats", "seats": live.seats_json()})
            for outbox in outboxes:
                if outbox.presence:
                    outbox.push_message(text)

    def _push_delta(self, live: Live, outbox: Outbox, seats: bool) -> None:
        """The delta from the version the socket was last queued (from 0, every event
        again, after an undo; from the version it was last sent, with the whole view, once
        it lags)."""
        since, whole = outbox.version, False
        if outbox.lagging():
            forward = outbox.drop_deltas()
            since, whole = (outbox.delivered if forward else 0), True
        if not 0 <= since <= live.version:  # back past the client's version: an undo
            since, whole = 0, True
        text = delta_text(live, outbox.seat, since, seats=seats or whole, whole=whole)
        outbox.push_delta(text, live.version)

    def _tell_rematch(self, live: Live, outboxes: list[Outbox]) -> None:
        n = live.game.players
        for outbox in outboxes:
            seat = None if outbox.seat is None else (outbox.seat + 1) % n
            token = outbox.token if seat is not None else None
            url = seat_url(outbox.base, live.rematch or "", token)
            outbox.push_message(json.dumps({"type": "rematch", "table": live.rematch, "url": url}))
