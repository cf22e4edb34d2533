"""Bytes on the wire to one seat over a whole game (the target: at most 1 MiB).
Run by hand (not a test):

    python bench/wire.py [--game episodes] [--players 3] [--min-moves 500]

Plays one whole random game (every seat a person's, each move a seeded random choice of the
seat to move, posted over HTTP) through the app in this process, twice: once with seat 0
holding a WebSocket as the browser did before (no `since`, a whole snapshot per change) and
once as it does now (`delta=1`: the first snapshot, then per change only what the seat
lacked). Printed: the moves, per run the messages and bytes seat 0's socket received (total,
median push, largest push), and the ratio. Targets: at most 1 MiB over a 3-player Episodes
game of 500+ moves, and at most 8 KiB per push at the median.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fastapi.testclient import TestClient

import timelord
from timelord.server import create_app

TARGET_TOTAL = 1024 * 1024
TARGET_MEDIAN = 8 * 1024


def long_seed(game_id: str, players: int, min_moves: int) -> tuple[int, int]:
    """The first seed whose random game (the moves `play` makes) lasts `min_moves`."""
    game = timelord.load(game_id, players=players)
    for seed in range(1000):
        state, rng, moves = game.new_game(seed), random.Random(seed), 0
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_actions()))
            moves += 1
        if moves >= min_moves:
            return seed, moves
    raise SystemExit(f"no seed below 1000 gives {min_moves} moves")


def play(game_id: str, players: int, seed: int, delta: bool) -> list[int]:
    """The sizes of the messages seat 0's socket received over the whole game."""
    sizes: list[int] = []
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(f"sqlite:///{tmp}/wire.sqlite3", 0, rate=1e9, burst=1e9)
        with TestClient(app) as client:
            made = client.post(
                "/api/tables",
                json={
                    "game": game_id,
                    "options": {"players": players},
                    "seats": ["human"] * players,
                    "seed": seed,
                },
            ).json()
            tokens = [s["token"] for s in made["seats"]]
            base = f"/api/tables/{made['id']}"
            query = f"?token={tokens[0]}" + ("&delta=1" if delta else "")
            rng = random.Random(seed)
            with client.websocket_connect(f"{base}/ws{query}") as ws:
                version = _read_until(ws, 0, sizes)
                while True:
                    state = client.get(f"{base}?since={version}").json()
                    if state["over"]:
                        break
                    mover = state["to_move"]
                    mine = client.get(f"{base}?token={tokens[mover]}&since={version}").json()
                    action = rng.choice(mine["legal"])
                    answer = client.post(
                        f"{base}/actions?token={tokens[mover]}&since={version}",
                        json={"version": version, "action": action},
                    )
                    assert answer.status_code == 200, answer.text
                    version = _read_until(ws, version + 1, sizes)
    return sizes


def _read_until(ws: Any, version: int, sizes: list[int]) -> int:
    """Receive until the socket tells of `version`; every message's size is counted."""
    while True:
        text = ws.receive_text()
        sizes.append(len(text.encode()))
        data = json.loads(text)
        if data.get("version") == version:
            return version


def report(name: str, sizes: list[int]) -> dict[str, Any]:
    total = sum(sizes)
    median = statistics.median(sizes)
    print(
        f"{name:>7}: {len(sizes)} messages, {total / 1024 / 1024:.2f} MiB in all, "
        f"median {median / 1024:.2f} KiB, largest {max(sizes) / 1024:.1f} KiB"
    )
    return {"total": total, "median": median}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="episodes")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--min-moves", type=int, default=500)
    args = parser.parse_args()
    seed, moves = long_seed(args.game, args.players, args.min_moves)
    print(f"{args.game}, {args.players} players, seed {seed}: {moves} moves, seat 0's socket")
    full = report("whole", play(args.game, args.players, seed, delta=False))
    deltas = report("delta", play(args.game, args.players, seed, delta=True))
    print(f"bytes: whole / delta = {full['total'] / deltas['total']:.1f}")
    ok = deltas["total"] <= TARGET_TOTAL and deltas["median"] <= TARGET_MEDIAN
    print(
        f"target (<= {TARGET_TOTAL // 1024} KiB in all, median <= {TARGET_MEDIAN // 1024} KiB): "
        + ("met" if ok else "NOT met")
    )


if __name__ == "__main__":
    main()
