"""`timelord replay`: step through a saved game record."""

from __future__ import annotations

import argparse

from timelord.core import Record, replay_steps


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a record saved by play/simulate --record")
    parser.add_argument(
        "--seat", type=int, default=None, help="see the game as this seat (default: spectator)"
    )
    parser.add_argument("--step", action="store_true", help="wait for Enter after each move")


def run(args: argparse.Namespace) -> int:
    record = Record.load(args.file)
    print(f"{record.game} {record.options} seed {record.seed}, {len(record.actions)} moves")
    final = None
    for n, (state, action) in enumerate(replay_steps(record), 1):
        if action is None:
            final = state
            break
        print(f"{n:>4}. {state.describe(action, args.seat)}")
        if args.step:
            print(state.game.render_view(state.view(args.seat)))
            try:
                input("-- Enter for the next move, Ctrl-D to stop --")
            except EOFError:
                return 0
    assert final is not None
    print(final.game.render_view(final.view(args.seat)))
    winners = ", ".join(final.game.seat_name(i) for i in final.winners()) or "nobody"
    print(f"Scores: {final.scores()}  Winners: {winners}")
    return 0
