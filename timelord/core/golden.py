"""Golden replays: recorded games whose final state must not change without notice.

A golden file holds a record and the SHA-256 of its final state's canonical JSON. When a rule
change alters how a recorded game ends, the test naming that file fails, and the change must
be deliberate: regenerate with `python -m timelord.core.golden DIR` and say why in the commit.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from timelord.core.game import Game, State
from timelord.core.record import Record, replay
from timelord.core.registry import GAMES, load
from timelord.core.rng import Rng


def state_hash(state: State) -> str:
    """SHA-256 of the state's canonical JSON (sorted keys, no spaces)."""
    text = json.dumps(state.to_json(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def random_record(game: Game, seed: int) -> tuple[Record, State]:
    """A seeded random game, and its final state."""
    rng = Rng(seed ^ 0x601D)
    state = game.new_game(seed)
    record = Record(game.id, game.options, seed, seats=["random"] * game.players)
    while not state.is_over:
        legal = state.legal_actions()
        action = legal[rng.below(len(legal))]
        record.actions.append(action.to_json())
        state = state.apply(action)
    return record, state


def golden_entry(record: Record, final: State) -> dict[str, Any]:
    return {"record": record.to_json(), "final_hash": state_hash(final)}


def check_golden(path: Path) -> None:
    """Replay a golden file; AssertionError if its final state hash differs."""
    data = json.loads(path.read_text())
    final = replay(Record.from_json(data["record"]))
    got = state_hash(final)
    if got != data["final_hash"]:
        raise AssertionError(f"{path.name}: final state hash {got} != golden {data['final_hash']}")


def write_goldens(directory: Path, seeds: range = range(3)) -> list[Path]:
    """One golden file per registered game, player count 'players' default, and seed."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for game_id in GAMES:
        game = load(game_id)
        for seed in seeds:
            record, final = random_record(game, seed)
            path = directory / f"{game_id}-{game.players}p-seed{seed}.json"
            path.write_text(json.dumps(golden_entry(record, final), indent=1) + "\n")
            written.append(path)
    return written


if __name__ == "__main__":
    import timelord  # noqa: F401  (registers the games)

    for written_path in write_goldens(Path(sys.argv[1] if len(sys.argv) > 1 else "tests/golden")):
        print(written_path)
