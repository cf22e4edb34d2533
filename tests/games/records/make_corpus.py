"""Write random-play records of one game with whichever `timelord` is first on the path.

The corpus of each rules version is made by the engine that played that version, not by
today's code: for an earlier version, export that commit's tree and put it first on the path.

    git archive 617c270 timelord | tar -x -C /tmp/old
    PYTHONPATH=/tmp/old python tests/games/records/make_corpus.py keys \\
        tests/games/records/keys/rules-1 "617c270" '[[{"players": 2}, 1]]'

Each file holds the record, the engine that made it and its final state's hash.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from timelord.core import Record, Rng, State, load


def state_hash(state: State) -> str:
    text = json.dumps(state.to_json(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def write(game_id: str, out: Path, made_by: str, configs: list[tuple[dict[str, Any], int]]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for options, seed in configs:
        game = load(game_id, **options)
        rng = Rng(seed ^ 0x5EED)
        state = game.new_game(seed)
        record = Record(game.id, game.options, seed, seats=["random"] * game.players)
        while not state.is_over:
            legal = state.legal_actions()
            action = legal[rng.below(len(legal))]
            record.actions.append(action.to_json())
            state = state.apply(action)
        record.result = {"scores": state.scores(), "winners": state.winners()}
        entry = {"made_by": made_by, "record": record.to_json(), "final_hash": state_hash(state)}
        path = out / f"{game_id}-{game.players}p-seed{seed}.json"
        path.write_text(json.dumps(entry) + "\n")
        print(path, len(record.actions))


if __name__ == "__main__":
    write(sys.argv[1], Path(sys.argv[2]), sys.argv[3], json.loads(sys.argv[4]))
