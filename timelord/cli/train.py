"""`timelord train`: a masked PPO baseline of one game, bounded by minutes of CPU time.

    timelord train GAME --players 2 --minutes M --seed S --out FOLDER
        [--opponents SPEC ...] [--steps N] [--envs N] [--hidden 64,64] [--recall]
        [--imitate SPEC|none] [--imitate-games N] [--imitate-epochs N] [--features NAME]
        [--ppo NAME=VALUE] [-o NAME=VALUE]

What it does and writes: `timelord.adapters.train`. Needs the `train` extra (torch,
stable-baselines3, sb3-contrib); the folder then plays as the seat spec `ppo:FOLDER`.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from timelord.cli.main import fail
from timelord.cli.options import add_option_argument
from timelord.core.options import parse_options


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="game id (see `timelord games`)")
    parser.add_argument("--players", type=int, default=2, help="player count (%(default)s)")
    parser.add_argument("--minutes", type=float, help="budget in minutes of CPU time (one core)")
    parser.add_argument("--steps", type=int, help="learner steps (replays a run exactly)")
    parser.add_argument("--seed", type=int, default=0, help="seed (%(default)s)")
    parser.add_argument("--out", required=True, metavar="FOLDER", help="where to write")
    parser.add_argument(
        "--opponents",
        nargs="+",
        metavar="SPEC",
        help="opponent mix, one per table in turn; 'self' is a snapshot of the learner "
        "(random heuristic heuristic self)",
    )
    parser.add_argument("--envs", type=int, default=8, help="tables stepped together (8)")
    parser.add_argument("--hidden", default="64,64", help="hidden layer widths (%(default)s)")
    parser.add_argument(
        "--imitate",
        default="heuristic",
        metavar="SPEC",
        help="warm start: copy this agent's choices first; 'none': from scratch (%(default)s)",
    )
    parser.add_argument(
        "--imitate-games", type=int, default=100, help="games of the demonstrator (%(default)s)"
    )
    parser.add_argument(
        "--imitate-epochs", type=int, default=10, help="passes over them (%(default)s)"
    )
    parser.add_argument("--recall", action="store_true", help="perfect-recall observations")
    parser.add_argument(
        "--features",
        metavar="NAME",
        help="derived features from the seat's view beside the observation (clue-deduction)",
    )
    parser.add_argument(
        "--ppo",
        action="append",
        metavar="NAME=VALUE",
        help="a MaskablePPO setting over timelord.adapters.train.PPO_SETTINGS, repeatable "
        "(learning_rate=1e-4)",
    )
    add_option_argument(parser)


def run(args: argparse.Namespace) -> int:
    try:
        from timelord.adapters.train import DEFAULT_OPPONENTS, train
    except ImportError as exc:
        fail(f"training needs the rl extra ({exc.name} is missing): pip install 'timelord[rl]'")
    if args.minutes is None and args.steps is None:
        fail("give a budget: --minutes M, --steps N or both")
    try:
        hidden = [int(w) for w in args.hidden.split(",")]
    except ValueError:
        fail(f"--hidden takes widths such as 64,64, not {args.hidden!r}")
    options: dict[str, Any] = parse_options(args.option)
    ppo = parse_options(args.ppo)
    try:
        import sb3_contrib  # noqa: F401
        import torch  # noqa: F401
    except ImportError as exc:
        fail(
            f"training needs the train extra ({exc.name} is missing): install torch "
            "(its CPU build: see docs/baselines.md), then pip install 'timelord[train]'"
        )
    config = train(
        args.game,
        Path(args.out),
        players=args.players,
        minutes=args.minutes,
        steps=args.steps,
        seed=args.seed,
        opponents=args.opponents or DEFAULT_OPPONENTS,
        envs=args.envs,
        hidden=hidden,
        recall=args.recall,
        features=args.features,
        imitate=None if args.imitate == "none" else args.imitate,
        imitate_games=args.imitate_games,
        imitate_epochs=args.imitate_epochs,
        options=options,
        ppo=ppo,
        report=lambda line: print(line, flush=True),
    )
    shares = json.dumps(config["recent_share"])
    print(f"wrote {args.out}: {config['steps']} steps, recent win shares {shares}")
    print(f"replay: {config['command']}")
    return 0
