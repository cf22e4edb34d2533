"""`timelord play`: a game in the terminal, people and bots at the seats."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TextIO

from timelord.agents import Agent, make_agent
from timelord.cli.human import HumanAgent, QuitGame
from timelord.cli.options import parse_options, parse_seats
from timelord.core import Game, Record, Rng, State, load


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="game id (see `timelord games`)")
    parser.add_argument(
        "--seats",
        default="human,random,random",
        help="comma-separated seat list: human, random, or a bot spec (default: %(default)s)",
    )
    parser.add_argument("--seed", type=int, default=None, help="seed (default: random)")
    parser.add_argument("--record", metavar="FILE", help="save the game record here")
    parser.add_argument(
        "--option", "-o", action="append", metavar="NAME=VALUE", help="game option, repeatable"
    )


def seat_agents(
    game: Game, specs: list[str], make_human: Callable[[Game], Agent] = HumanAgent
) -> list[Agent]:
    """One agent per seat; 'human' seats ask at the terminal."""
    return [make_human(game) if spec == "human" else make_agent(spec, game) for spec in specs]


def run(args: argparse.Namespace) -> int:
    specs = parse_seats(args.seats)
    options = parse_options(args.option)
    options.setdefault("players", len(specs))
    game = load(args.game, **options)
    if len(specs) != game.players:
        raise SystemExit(f"{game.players} players but {len(specs)} seats given")
    seed = args.seed if args.seed is not None else Rng(_clock_seed()).next64() % 1_000_000
    print(f"{args.game} with {game.players} players, seed {seed}")
    record = Record(game.id, game.options, seed, seats=specs)
    try:
        final = play_game(game, seat_agents(game, specs), seed, record, sys.stdout)
    except QuitGame:
        print("\nGame abandoned.")
        final = None
    if args.record:
        record.save(args.record)
        print(f"Record saved to {args.record}")
    return 0 if final is not None else 1


def _clock_seed() -> int:
    import time

    return time.time_ns()


def play_game(game: Game, agents: list[Agent], seed: int, record: Record, out: TextIO) -> State:
    """Play to the end; people see their own view and the others' moves as their seat sees them."""
    humans = [i for i, a in enumerate(agents) if isinstance(a, HumanAgent)]
    observer = humans[0] if humans else None
    master = Rng(seed ^ 0xA6E475)
    rngs = [master.spawn() for _ in agents]
    state = game.new_game(seed)
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        legal = state.legal_actions()
        action = agents[seat].act(state.view(seat), legal, rngs[seat])
        if seat != observer:
            print(state.describe(action, observer), file=out)
        record.actions.append(action.to_json())
        state = state.apply(action)
    record.result = {"scores": state.scores(), "winners": state.winners()}
    print("", file=out)
    print(game.render_view(state.view(observer)), file=out)
    print(_result_text(game, state), file=out)
    return state


def _result_text(game: Game, state: State) -> str:
    scores = ", ".join(f"{game.seat_name(i)} {s:g}" for i, s in enumerate(state.scores()))
    winners = state.winners()
    if not winners:
        return f"Game over. Nobody wins. Scores: {scores}"
    names = " and ".join(game.seat_name(i) for i in winners)
    verb = "win" if len(winners) > 1 else "wins"
    return f"Game over. {names} {verb}. Scores: {scores}"
