"""`timelord replay`: step through a saved game record, told as one seat (or a spectator)
was told it at the table: each step's events for that seat, as sentences."""

from __future__ import annotations

import argparse
import json

from timelord.cli import readable
from timelord.cli.play import result_text
from timelord.cli.terminal import FULL, NO_LEGEND, compact
from timelord.core import CorruptRecord, Game, GameError, Record, State, load, replay_steps


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a record saved by play/simulate --record")
    parser.add_argument(
        "--seat",
        type=int,
        default=None,
        help="see the game as this seat, counted from 0 as records count seats (0 is the seat"
        " shown as Seat 1; default: spectator)",
    )
    parser.add_argument("--step", action="store_true", help="wait for Enter after each move")


def run(args: argparse.Namespace) -> int:
    record = Record.load(args.file)
    try:
        game = load(record.game, **record.options)
    except (TypeError, ValueError) as exc:  # options a game refuses, read from a file
        raise CorruptRecord(f"cannot rebuild the game of {args.file}: {exc}") from exc
    seat = readable.record_seat(game, args.seat)
    options = ", ".join(f"{k}={json.dumps(v)}" for k, v in sorted(record.options.items()))
    who = "a spectator" if seat is None else readable.seat_name(game, seat)
    print(f"{record.game} ({options}), seed {record.seed}, {len(record.actions)} moves")
    print(f"as {who} saw it")
    final = None
    try:
        for n, (state, action) in enumerate(replay_steps(record), 1):
            if action is None:
                final = state
                break
            try:
                after, events = state.apply_with_events(action)
            except GameError as exc:
                raise CorruptRecord(f"record step {n - 1}: {exc}") from exc
            told = readable.told(game, events, seat)
            print(f"{n:>4}. {told[0] if told else '(nothing you could see)'}")
            for text in told[1:]:
                print(f"      {text}")
            if args.step:  # the table after the move told; its legend the first time only
                print(
                    compact(
                        readable.picture(game, game.render_view(after.view(seat))),
                        FULL if n == 1 else NO_LEGEND,
                    )
                )
                try:
                    input("-- Enter for the next move, Ctrl-D to stop --")
                except EOFError:
                    return 0
    except CorruptRecord as exc:
        raise CorruptRecord(f"{args.file} is corrupt: {exc}") from exc
    assert final is not None
    print(
        compact(
            readable.picture(game, game.render_view(final.view(seat))),
            NO_LEGEND if args.step else FULL,
        )
    )
    print(end_text(game, final, len(record.actions)))
    return 0


def end_text(game: Game, state: State, moves: int) -> str:
    """How the recorded game ended: its result, or that it stopped before its end."""
    if state.is_over:
        return result_text(game, state)
    return f"The game was left unfinished after {moves} moves: nobody won or lost."
