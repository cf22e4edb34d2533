"""Moves and undo: an action is checked, committed with the next version (refused if another
writer committed that version first), and only then applied to the live table and announced,
so nobody is ever told of a move that could be lost."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from timelord.core import Action, GameError, IllegalAction, InvalidAction
from timelord.core.events import Event
from timelord.server import clocks, undo
from timelord.server.bots import HUMAN, bot_seed
from timelord.server.clocks import Clock
from timelord.server.errors import ApiError, Code, forbidden
from timelord.server.storage import Conflict
from timelord.server.table.chat import Chat
from timelord.server.table.database import Db
from timelord.server.table.hub import Hub, Kind
from timelord.server.table.live import Live, bot_name
from timelord.server.table.loading import Loader

log = logging.getLogger("timelord.server")

#: what runs once a move of this process ends a table (results and ratings)
OnFinish = Callable[[Live], Awaitable[None]]


class Moves:
    def __init__(self, db: Db, hub: Hub, loader: Loader, chat: Chat, timer: Clock) -> None:
        self.db = db
        self.hub = hub
        self.loader = loader
        self.chat = chat
        self.timer = timer
        self.on_finish: OnFinish | None = None

    async def act(
        self, live: Live, seat: int | None, version: Any, action_data: Any, *, bot: bool = False
    ) -> None:
        """Apply `action_data` for `seat` made against `version`, or refuse it with its code
        (nothing changes then). `bot`: the seat's bot (or stand-in) decided it. The move that
        ends the game also records the table's results (and ratings) before it is answered."""
        await self._act(live, seat, version, action_data, bot=bot)
        if live.state.is_over and self.on_finish is not None:
            try:
                await self.on_finish(live)
            except Exception:  # the move stands; only its results could not be written
                log.exception("recording the results of table %s failed", live.id)

    def _refusal(self, live: Live, seat: int | None, version: Any, bot: bool) -> int:
        """The acting seat, or the refusal of an action at this table now."""
        if not bot and seat is not None and live.player(seat) is not None:
            raise ApiError(
                Code.SEAT_STAND_IN,
                f"{bot_name(live.stand_in)} plays this seat for you; take your seat back first",
            )
        if version != live.version:
            raise ApiError(
                Code.ACTION_STALE,
                f"the table is at version {live.version}, not {version}; reload and retry",
            )
        if live.over:
            reason = "the game is over; no more moves"
            if live.status == "abandoned":
                reason = "the table's creator ended this table; no more moves"
            raise ApiError(Code.ACTION_ILLEGAL, reason, "end")
        if live.status == "open":
            raise ApiError(Code.TABLE_OPEN, "the table waits for its open seats")
        if live.archived:
            raise ApiError(
                Code.TABLE_ARCHIVED,
                "this table was archived after a long pause; it can be read but not played",
            )
        acting = live.check_turn(seat)
        if bot and live.player(acting) is None:
            raise ApiError(Code.SEAT_STAND_IN, "the seat's person took it back")
        return acting

    async def _act(
        self, live: Live, seat: int | None, version: Any, action_data: Any, *, bot: bool
    ) -> None:
        store = self.db.store
        async with live.lock:
            acting = self._refusal(live, seat, version, bot)
            try:
                action = live.game.action_from_json(action_data)
                following, events = live.state.apply_with_events(action)
            except IllegalAction as exc:
                raise ApiError(Code.ACTION_ILLEGAL, exc.reason, exc.rule) from exc
            except (InvalidAction, GameError) as exc:
                raise ApiError(Code.ACTION_INVALID, str(exc)) from exc
            result = (
                {"scores": following.scores(), "winners": following.winners()}
                if following.is_over
                else None
            )
            clock = live.clock
            if clock is not None and clock.get("since") is not None:
                clock = clocks.moved(clock, acting, self.timer.now())
            standin = bot and live.seats[acting]["agent"] == HUMAN  # not a bot's own seat
            try:
                await self._commit(live, action, events, result, following.to_move, clock, standin)
            except Conflict as exc:
                if not await self.loader.catch_up(live):
                    stored = await self.db.read(store.table, live.id)
                    if stored is not None and stored.status == "archived":
                        live.archived = True
                        raise ApiError(
                            Code.TABLE_ARCHIVED, "this table was archived after a long pause"
                        ) from exc
                self.hub.announce(Kind.MOVED, live)
                raise ApiError(
                    Code.ACTION_STALE, "another server committed a move first; reload"
                ) from exc
            live.advance(following, events, action, standin)
            live.clock = clock
            self.hub.announce(Kind.MOVED, live)

    async def _commit(
        self,
        live: Live,
        action: Action,
        events: list[Event],
        result: dict[str, Any] | None,
        to_move: int | None,
        clock: dict[str, Any] | None,
        standin: bool,
    ) -> None:
        """Store the action as the table's next version (`standin`: the stand-in played it
        for a person). The notice of the commit may reach
        this process's own listener before the commit returns: while `live.committing`
        names the version, `sync` knows the notice is this process's own."""
        live.committing = live.version + 1
        try:
            await self.db.append(
                live.id,
                live.version + 1,
                action.to_json(),
                [e.to_json() for e in events],
                result,
                to_move,
                clock,
                standin,
            )
        finally:
            live.committing = 0

    def explain(self, live: Live, seat: int | None, action_data: Any) -> dict[str, Any]:
        """Whether `action_data` would be legal for `seat` now and, if not, the engine's
        reason and rule; refused with the codes `act` uses, and it never changes the table."""
        if live.over:
            return {"legal": False, "reason": "the game is over; no more moves", "rule": "end"}
        live.check_turn(seat)
        try:
            action = live.game.action_from_json(action_data)
            live.state.check(action)
        except IllegalAction as exc:
            return {"legal": False, "reason": exc.reason, "rule": exc.rule}
        except (InvalidAction, GameError) as exc:
            raise ApiError(Code.ACTION_INVALID, str(exc)) from exc
        return {"legal": True, "reason": "", "rule": ""}

    async def undo_refusal(self, live: Live, seat: int) -> str | None:
        """Why `seat` may not take its last action back now, or None if it may: the rule
        both an undo and the question "would an undo be accepted?" ask. Call under `live.lock`."""
        if not live.undo:
            return "this table was created without undo"
        if live.over or live.status != "playing":
            return "the game is over"
        if live.version == 0:
            return "nothing has been played yet"
        before = await self.loader.state_at(live, live.version - 1)
        if before.to_move != seat:
            return "another seat has acted since your last move"
        if live.previous is not None:
            action = live.previous[1]
        else:
            rows = await self.db.read(self.db.store.actions, live.id, live.version - 1)
            action = live.game.action_from_json(rows[0].action)
        return await asyncio.get_running_loop().run_in_executor(
            None,
            undo.why_not,
            live.game,
            before,
            action,
            live.state,
            live.events[-1],
            bot_seed(live.seed, seat, live.version),
        )

    async def may_take_back(self, live: Live, seat: int | None) -> str | None:
        """The reason an undo by `seat` would be refused now, or None if it would be
        accepted (it changes nothing: the page offers undo only when this says yes)."""
        if seat is None:
            return "a spectator cannot undo"
        async with live.lock:
            return await self.undo_refusal(live, seat)

    async def take_back(self, live: Live, seat: int | None, version: Any) -> None:
        """Undo `seat`'s last action if the table allows it and the safe rule holds
        (`timelord.server.undo`); 409 `undo/forbidden` with the reason otherwise."""
        if seat is None:
            raise forbidden("a spectator cannot undo; use your seat's token")
        async with live.lock:
            if version != live.version:
                raise ApiError(
                    Code.ACTION_STALE, f"the table is at version {live.version}, not {version}"
                )
            reason = await self.undo_refusal(live, seat)
            if reason is not None:
                raise no_undo(reason)
            clock = live.clock
            if clock is not None and clock.get("since") is not None:
                clock = clocks.taken_back(clock, seat, self.timer.now())
            try:
                await self.db.write(self.db.store.undo, live.id, live.version, clock)
            except Conflict as exc:
                raise ApiError(Code.ACTION_STALE, "the table moved on; reload") from exc
            live.rewind(await self.loader.state_at(live, live.version - 1))
            live.clock = clock
            live.undo_used = True
            self.hub.announce(Kind.UNDONE, live)
        await self.chat.notice(live, f"{live.name(seat)} took their last move back.")


def no_undo(reason: str) -> ApiError:
    return ApiError(Code.UNDO_FORBIDDEN, reason)
