"""Seats and the table's life: claiming open seats, new links, ending, muting, the stand-in
bot and taking a seat back from it, and the rematch. Each change is committed against the
table's life revision (another process may change it too) and then announced."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from timelord.core.keyed import KEY_BYTES
from timelord.server import clocks
from timelord.server.accounts import tie_seat
from timelord.server.bots import HUMAN, OPEN
from timelord.server.clocks import Clock
from timelord.server.errors import ApiError, Code, forbidden, not_found
from timelord.server.storage import Conflict, StoredTable
from timelord.server.table.chat import Chat
from timelord.server.table.database import Db
from timelord.server.table.hub import Hub, Kind
from timelord.server.table.live import Live, bot_name, hash_token
from timelord.server.table.loading import Loader

#: why the stand-in took a seat when the seat's own time ran out (`Seats.stand_in_for`)
TIME_RAN_OUT = "time ran out"


class Seats:
    def __init__(self, db: Db, hub: Hub, loader: Loader, chat: Chat, timer: Clock) -> None:
        self.db = db
        self.hub = hub
        self.loader = loader
        self.chat = chat
        self.timer = timer

    async def _change_life(self, live: Live, change: Callable[[Live], dict[str, Any]]) -> None:
        """Apply `change` (it checks the live table and answers the columns to write, or
        raises) and store it; if another process changed the table first, read it back and
        try once more, so `change` decides on what is stored."""
        for _ in range(3):
            async with live.lock:
                values = change(live)
                if await self.db.read(self._update, live.id, live.rev, values):
                    live.rev += 1
                    live.apply_life(values)
                    self.hub.announce(Kind.LIFE, live)
                    return
            await self.loader.resync(live)
        raise ApiError(Code.SERVER_UNAVAILABLE, "the table kept changing; try again")

    def _update(self, table_id: str, rev: int, values: dict[str, Any]) -> bool:
        return self.db.store.update_life(table_id, rev, **values)

    async def claim(
        self, live: Live, seat: int, name: Any, extra: dict[str, Any] | None = None
    ) -> str:
        """Give the open `seat` to the person named `name`; their new token. `extra` is
        stored with the seat (an account, for instance). The table starts when its last open
        seat is claimed; 409 `seat/taken` if the seat is not open."""
        name = check_name(name)
        live.check_seat(seat)
        token = secrets.token_urlsafe(32)

        def change(live: Live) -> dict[str, Any]:
            if live.seats[seat]["agent"] != OPEN or live.status != "open":
                raise ApiError(Code.SEAT_TAKEN, "this seat is not open (someone claimed it)")
            seats = [dict(s) for s in live.seats]
            seats[seat] = {
                **(extra or {}),
                "agent": HUMAN,
                "token_hash": hash_token(token),
                "name": name,
                "claimed": True,
            }
            values: dict[str, Any] = {"seats": seats}
            if all(s["agent"] != OPEN for s in seats):
                values["status"] = "playing"
                if live.clock is not None:
                    values["clock"] = clocks.start(live.clock, live.game.players, self.timer.now())
            return values

        await self._change_life(live, change)
        await self.chat.notice(live, f"{name} took seat {seat}.")
        return token

    async def tie(self, live: Live, seat: int, player_id: str) -> None:
        """Tie a claimed seat to a logged-in player: the seat opens with the player's
        session and its results count for the player."""
        await self.db.read(tie_seat, self.db.store, live.id, seat, player_id)
        live.tie_seats(live.seats)

    async def invite(self, live: Live, owner: str | None, seat: int) -> str:
        """A fresh token for a person's seat (the creator's `owner` token); the old one stops
        opening it."""
        live.owns(owner)
        live.check_seat(seat)
        token = secrets.token_urlsafe(32)

        def change(live: Live) -> dict[str, Any]:
            if live.seats[seat]["agent"] != HUMAN:
                raise ApiError(Code.SEAT_NOT_HUMAN, "only a person's seat can be sent a new link")
            seats = [dict(s) for s in live.seats]
            seats[seat]["token_hash"] = hash_token(token)
            return {"seats": seats}

        await self._change_life(live, change)
        return token

    async def end(self, live: Live, owner: str | None) -> None:
        """The creator ends the table: recorded as abandoned, with no winner."""
        live.owns(owner)

        def change(live: Live) -> dict[str, Any]:
            if live.over:
                raise ApiError(Code.TABLE_OVER, "this table has ended already")
            return {"status": "abandoned", "result": {"abandoned": True, "winners": []}}

        await self._change_life(live, change)
        await self.chat.notice(live, "The table's creator ended the table.")

    async def mute(self, live: Live, owner: str | None, seat: int, muted: bool) -> None:
        """The creator mutes (or unmutes) a seat's chat."""
        live.owns(owner)
        live.check_seat(seat)

        def change(live: Live) -> dict[str, Any]:
            seats = [dict(s) for s in live.seats]
            seats[seat]["muted"] = muted
            return {"seats": seats}

        await self._change_life(live, change)

    async def stand_in_for(self, live: Live, seat: int, reason: str) -> None:
        """Let the table's stand-in bot play the person's `seat` until they come back;
        `reason` TIME_RAN_OUT when the seat's clock ran out (taking the seat back then gives
        the person a little time again)."""

        def change(live: Live) -> dict[str, Any]:
            if live.over:
                raise ApiError(Code.TABLE_OVER, "this table has ended")
            if live.seats[seat]["agent"] != HUMAN:
                raise ApiError(Code.SEAT_NOT_HUMAN, "only a person's seat has a stand-in")
            if live.seats[seat].get("stand_in"):
                return {}
            seats = [dict(s) for s in live.seats]
            seats[seat]["stand_in"] = True
            seats[seat]["timed_out"] = reason == TIME_RAN_OUT
            return {"seats": seats}

        was = bool(live.seats[seat].get("stand_in"))
        await self._change_life(live, change)
        if not was:
            await self.chat.notice(
                live, f"{bot_name(live.stand_in)} is standing in for {live.name(seat)} ({reason})."
            )

    async def reclaim(self, live: Live, seat: int) -> None:
        """The person takes their seat back from the stand-in."""

        def change(live: Live) -> dict[str, Any]:
            if not live.seats[seat].get("stand_in"):
                return {}
            seats = [dict(s) for s in live.seats]
            seats[seat]["stand_in"] = False
            timed_out = bool(seats[seat].pop("timed_out", False))
            values: dict[str, Any] = {"seats": seats}
            if live.clock is not None and live.clock.get("since") is not None:
                values["clock"] = clocks.reclaimed(
                    live.clock, seat, live.state.to_move, self.timer.now(), timed_out
                )
            return values

        was = bool(live.seats[seat].get("stand_in"))
        await self._change_life(live, change)
        if was:
            await self.chat.notice(
                live, f"{live.name(seat)} took their seat back from {bot_name(live.stand_in)}."
            )

    async def rematch(self, live: Live, seat: int | None) -> str:
        """The one new table after this one: same game, options, clock, stand-in and seat
        kinds, seats rotated by one; every seat's socket is told its new link (the seat's
        own token opens its new seat)."""
        if seat is None:
            raise forbidden("a spectator cannot ask for a rematch; use your seat's token")
        if not live.over:
            raise ApiError(Code.REMATCH_NOT_OVER, "a rematch is offered once the game is over")
        if live.rematch is not None:
            return live.rematch
        n = live.game.players
        seats = [dict(live.seats[(i - 1) % n]) for i in range(n)]
        for entry in seats:
            for gone in ("stand_in", "timed_out", "muted"):
                entry.pop(gone, None)
        clock = live.clock
        if clock is not None:
            clock = clocks.start(clock, n, self.timer.now())
        fresh = StoredTable(
            secrets.token_urlsafe(9),
            live.game.id,
            dict(live.game.options),
            0,
            seats,
            0,
            "playing",
            None,
            live.created,
            secrets.token_bytes(KEY_BYTES),  # a new deal, never the old one again
            False,
            owner_hash=live.owner_hash,
            clock=clock,
            stand_in=live.stand_in,
            undo=live.undo,
        )
        try:
            made = await self.db.read(self.db.store.create_rematch, live.id, fresh)
        except Conflict as exc:
            raise not_found(live.id) from exc
        if live.rematch is None:
            live.rematch = made
            live.rev += 1
            live.encoded.moved()
            self.hub.announce(Kind.REMATCH, live)
        await self.loader.live(made)  # its bots start now
        return made


def check_name(name: Any) -> str:
    """A display name as given (1-32 printable characters, not only spaces); 422
    `name/invalid` otherwise."""
    if (
        not isinstance(name, str)
        or not 1 <= len(name) <= 32
        or not name.isprintable()
        or not name.strip()
    ):
        raise ApiError(Code.NAME_INVALID, "a name is 1 to 32 printable characters")
    return name.strip()
