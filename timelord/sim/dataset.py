"""Self-play datasets: per-seat (observation, mask, action, return) arrays plus the records.

    timelord dataset GAME --games N --seats heuristic,random --out DIR [--seed S]
                     [-o NAME=VALUE] [--workers K | --serial | --dask ADDRESS] [--recall]

The games are played as `timelord simulate` plays them (seeded, seats rotated, batches on
all local cores or a Dask cluster: `timelord.sim.match`); each batch, as it finishes, is
replayed here and written out, so memory holds only the batches in flight:

- `DIR/records.jsonl`: the replayable record of every game, in game order;
- `DIR/part-NNNNN.npz`: one file per batch, one row per decision, with `obs` (float32, the
  deciding seat's observation, `timelord.adapters.encode`), `mask` (the legal indices of
  the action space, bit-packed: `np.unpackbits(mask, axis=1, count=actions)`; with
  `--recall` the perfect-recall one, the view's and the seat's decisions so far in its game,
  `timelord.adapters.encode.history`, as the envs' `recall=True` gives it), `action`
  (the index chosen), `ret` (that seat's win share at the end of its game), `seat`, `game`
  (the game's index in the match) and `step` (the move number);
- `DIR/meta.json`: the game, options, seats, seed, observation size and layout, and the
  number of actions.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

from timelord.adapters.encode import Encoder
from timelord.adapters.encode.history import HistoryEncoder, Recall, observation_encoder
from timelord.adapters.space import ActionIndex
from timelord.core import Game, Record
from timelord.sim.match import MatchSpec, Runner, write_results


def game_rows(
    game: Game, index: ActionIndex, encoder: Encoder | HistoryEncoder, data: dict[str, Any]
) -> dict[str, np.ndarray[Any, Any]]:
    """The rows of one played game (a record as `play_game` writes it)."""
    record = Record.from_json(data)
    state = game.new_game(record.seed)
    # every seat's decisions so far, which a seat's perfect-recall observation reads its own of
    recall = Recall.start(game.players)
    obs, masks, actions, seats, steps = [], [], [], [], []
    for step, raw in enumerate(record.actions):
        seat = state.to_move
        assert seat is not None
        action = game.action_from_json(raw)
        offered = index.indices(state.legal_actions())
        mask = np.zeros(len(index), np.uint8)
        mask[list(offered)] = 1
        chosen = index.index(action)
        if isinstance(encoder, Encoder):
            obs.append(encoder.encode_state(state, seat))
        else:
            obs.append(encoder.encode(state.view(seat), recall, seat, state))
            recall = recall.after(state, action, chosen)
        masks.append(np.packbits(mask))
        actions.append(chosen)
        seats.append(seat)
        steps.append(step)
        state = state.apply(action)
    winners = state.winners()
    shares = [1.0 / len(winners) if s in winners else 0.0 for s in range(game.players)]
    n = len(actions)
    width = (len(index) + 7) // 8
    return {
        "obs": np.array(obs, np.float32).reshape(n, encoder.size),
        "mask": np.array(masks, np.uint8).reshape(n, width),
        "action": np.array(actions, np.int64),
        "ret": np.array([shares[s] for s in seats], np.float32),
        "seat": np.array(seats, np.int16),
        "game": np.full(n, data["result"]["index"], np.int64),
        "step": np.array(steps, np.int64),
    }


def write_part(path: Path, rows: Iterable[dict[str, np.ndarray[Any, Any]]]) -> int:
    """The rows of several games as one .npz file; how many rows."""
    parts = list(rows)
    arrays: dict[str, Any] = {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}
    np.savez_compressed(path, **arrays)
    return len(arrays["action"])


def build(spec: MatchSpec, out: Path, runner: Runner, recall: bool = False) -> int:
    """Play `spec` and write its dataset into `out`; the number of rows written."""
    out.mkdir(parents=True, exist_ok=True)
    game = spec.load_game()
    index = ActionIndex(game)
    encoder = observation_encoder(game, len(index), recall)
    meta = {
        "game": game.id,
        "options": dict(game.options),
        "seats": list(spec.seats),
        "games": spec.games,
        "seed": spec.seed,
        "recall": recall,
        "actions": len(index),
        "observation_size": encoder.size,
        "layout": [list(segment) for segment in encoder.layout],
    }
    (out / "meta.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    rows = 0
    with (out / "records.jsonl").open("w", encoding="utf-8") as records:
        for number, batch in enumerate(runner.stream(spec)):
            rows += write_part(
                out / f"part-{number:05d}.npz",
                (game_rows(game, index, encoder, data) for data in batch),
            )
            write_results(batch, records)
            records.flush()
    return rows
