"""Turn scheduling: after every change the hub announces, the table's bot (or a person's
stand-in) is set thinking if it is to move, and the deadline of a person to move is waited
for; at the deadline the stand-in takes the seat."""

from __future__ import annotations

import asyncio
import logging
from functools import partial

from timelord.agents import make_agent
from timelord.server import clocks
from timelord.server.bots import Bots, cheap
from timelord.server.clocks import Clock
from timelord.server.errors import ApiError
from timelord.server.lease import MINE, MOVED, Leases
from timelord.server.table.hub import Change, Hub, Kind
from timelord.server.table.live import Live
from timelord.server.table.loading import Loader
from timelord.server.table.moves import Moves
from timelord.server.table.seats import TIME_RAN_OUT, Seats

log = logging.getLogger("timelord.server")

#: the changes after which the seat to move, or its deadline, may be another
_TURN_CHANGES = frozenset({Kind.LOADED, Kind.MOVED, Kind.UNDONE, Kind.LIFE, Kind.REMATCH})


class Turns:
    """The bot and clock waits of every table in play, one of each per table at most."""

    def __init__(
        self,
        hub: Hub,
        loader: Loader,
        moves: Moves,
        seats: Seats,
        bots: Bots,
        leases: Leases,
        timer: Clock,
        bot_delay: float,
    ) -> None:
        self.loader = loader
        self.moves = moves
        self.seats = seats
        self.bots = bots
        self.leases = leases
        self.timer = timer
        self.bot_delay = bot_delay
        self.bot_tasks: dict[str, asyncio.Task[None]] = {}
        self.clock_tasks: dict[str, asyncio.Task[None]] = {}
        self.closing = False
        hub.listen(self.heard)

    def heard(self, change: Change) -> None:
        if change.kind in _TURN_CHANGES:
            self.schedule_bot(change.live)
            self.schedule_clock(change.live)

    def tasks(self) -> list[asyncio.Task[None]]:
        return [*self.bot_tasks.values(), *self.clock_tasks.values()]

    # -- bots -----------------------------------------------------------------------------

    def schedule_bot(self, live: Live) -> None:
        """Set the table's bot thinking if a bot (or stand-in) is to move and none is."""
        running = self.bot_tasks.get(live.id)
        if not live.running or self.closing:
            if running is not None and live.archived:
                running.cancel()
            return
        if running is not None and not running.done():
            return
        seat = live.state.to_move
        if seat is None or live.player(seat) is None:
            return
        self.bot_tasks[live.id] = asyncio.create_task(self._bot_turn(live, seat))

    async def _bot_turn(self, live: Live, seat: int) -> None:
        version = live.version
        held = False
        try:
            if self.bot_delay > 0:
                await asyncio.sleep(self.bot_delay)
            # one process thinks for this move; the others wait for it (or for the lease)
            spec = live.player(seat)
            while live.version == version and spec is not None and not cheap(spec):
                found = await self.leases.take(live.id, version)
                if found == MINE:
                    held = True
                    break
                if found == MOVED:
                    await self.loader.refresh(live)
                    break
                await asyncio.sleep(self.leases.poll)
            state = live.state
            spec = live.player(seat)
            if live.version != version or state.to_move != seat or spec is None:
                return
            agent = live.agents.get((seat, spec))
            if agent is None:
                agent = live.agents[seat, spec] = make_agent(spec, live.game)
            action = await self.bots.choose(
                live.game,
                agent,
                spec,
                partial(state.view, seat),
                state.legal_actions(),
                live.bot_seed(seat, version),
                live.id,
                live.creator,
            )
            if live.player(seat) is None:  # the person took the seat back meanwhile
                return
            await self.moves.act(live, seat, version, action.to_json(), bot=True)
        except ApiError as exc:
            if exc.status == 503:  # the database is away; try again in a while
                await asyncio.sleep(1)
            elif exc.code not in ("action/stale", "seat/stand_in"):
                log.error("bot at table %s seat %s stopped: %s", live.id, seat, exc.reason)
                return
        except asyncio.CancelledError:
            if self.closing:
                raise
            return
        except Exception:
            log.exception("bot at table %s seat %s failed", live.id, seat)
            return
        finally:
            if held:
                await self.leases.give_back(live.id, version)
            if self.bot_tasks.get(live.id) is asyncio.current_task():
                del self.bot_tasks[live.id]
            if live.version != version:  # moved meanwhile, here or by another process
                self.schedule_bot(live)
        self.schedule_bot(live)

    # -- clocks ---------------------------------------------------------------------------

    def schedule_clock(self, live: Live) -> None:
        """Wait for the deadline of the person to move, if there is one; a new change
        replaces the wait."""
        waiting = self.clock_tasks.pop(live.id, None)
        if waiting is not None and not waiting.done():
            waiting.cancel()
        if self.closing or not live.running:
            return
        seat = live.state.to_move
        due = clocks.deadline(live.clock, seat)
        if due is None or seat is None or live.player(seat) is not None:
            return
        self.clock_tasks[live.id] = asyncio.create_task(
            self._time_out(live, live.version, seat, due)
        )

    async def _time_out(self, live: Live, version: int, seat: int, due: float) -> None:
        """At the deadline, hand the seat that let its time run out to the stand-in."""
        try:
            await self.timer.sleep(due - self.timer.now())
            while self.timer.now() < due:  # a clock that wakes early
                await self.timer.sleep(due - self.timer.now())
            if live.version != version or live.state.to_move != seat or not live.running:
                return
            if self.clock_tasks.get(live.id) is asyncio.current_task():
                del self.clock_tasks[live.id]  # the change below must not cancel this task
            await self.seats.stand_in_for(live, seat, TIME_RAN_OUT)
        except asyncio.CancelledError:
            return
        except ApiError as exc:
            log.warning("table %s: no stand-in at the deadline: %s", live.id, exc.reason)
