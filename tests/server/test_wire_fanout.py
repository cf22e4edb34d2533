"""The fan-out queues a socket only what it lacks: a move announced again at a version the
socket was already queued (a writer that lost the race announces the table as it caught
it up) queues nothing more; a new version queues one delta."""

from __future__ import annotations

import asyncio
import datetime as dt

import timelord
from timelord.server.table.fanout import Fanout
from timelord.server.table.hub import Hub, Kind
from timelord.server.table.live import Live


def test_a_move_announced_again_at_the_same_version_queues_nothing() -> None:
    game = timelord.load("keys", players=2)
    seats = [{"agent": "human", "token_hash": None}, {"agent": "human", "token_hash": None}]
    live = Live("t", game, 1, seats, dt.datetime.now(dt.UTC), game.new_game(1))
    hub = Hub()
    fanout = Fanout(hub)
    delta = fanout.subscribe(live, 0, 0, delta=True)
    whole = fanout.subscribe(live, 1, 0)

    async def run() -> tuple[list[str], list[str]]:
        told: tuple[list[str], list[str]] = ([], [])
        for box, out in ((delta, told[0]), (whole, told[1])):
            out.append(await box.next() or "")
        state, events = live.state.apply_with_events(live.state.legal_actions()[0])
        live.advance(state, events)
        hub.announce(Kind.MOVED, live)
        hub.announce(Kind.MOVED, live)  # the same version again
        for box, out in ((delta, told[0]), (whole, told[1])):
            box.push_message("end")  # what was queued before it is what the moves queued
            while (text := await box.next()) != "end":
                out.append(text or "")
        return told

    deltas, snapshots = asyncio.run(run())
    deltas = [text for text in deltas if not text.startswith('{"type": "seats"')]  # presence
    assert len(deltas) == 2 and '"type": "delta"' in deltas[1] and '"version": 1' in deltas[1]
    assert len(snapshots) == 2 and '"version": 1' in snapshots[1]
