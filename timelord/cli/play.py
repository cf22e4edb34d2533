"""`timelord play`: a game in the terminal, people and bots at the seats.

After every move each person is told what happened as their seat may know it (the game's
events, redacted per seat), their own moves included. With several people at one terminal
(hot-seat), the screen is cleared between them and each is asked to take the seat before
their hand is shown; what happened meanwhile waits for them.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from timelord.agents import Agent, make_agent
from timelord.cli import readable
from timelord.cli.human import HumanAgent, QuitGame, WhyNot
from timelord.cli.options import add_option_argument, load_game, parse_seats
from timelord.cli.terminal import FULL, NO_LEGEND, News, Screen
from timelord.core import Action, ConfigError, Game, GameError, Record, Rng, State
from timelord.core.options import parse_options
from timelord.core.record import check_seed
from timelord.core.seating import seat_rngs


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="game id (see `timelord games`)")
    parser.add_argument(
        "--seats",
        default="human,random,random",
        help="comma-separated seat list, one a seat: human (you; several humans share the "
        "terminal in turn), random, heuristic, or ismcts:easy / ismcts:medium / ismcts:hard "
        "(the bot levels, weakest to strongest); `timelord play keys --seats "
        "human,ismcts:easy` plays Keys against the easy bot (default: %(default)s)",
    )
    parser.add_argument("--seed", type=int, default=None, help="seed (default: random)")
    parser.add_argument("--record", metavar="FILE", help="save the game record here")
    parser.add_argument(
        "--hints",
        action="store_true",
        help="allow `hint` at the prompt: the coach's best moves (games against bots only)",
    )
    add_option_argument(parser)


def seat_agents(
    game: Game, specs: list[str], make_human: Callable[[Game], Agent] = HumanAgent
) -> list[Agent]:
    """One agent per seat; 'human' seats ask at the terminal."""
    return [make_human(game) if spec == "human" else make_agent(spec, game) for spec in specs]


def run(args: argparse.Namespace) -> int:
    specs = parse_seats(args.seats)
    options = parse_options(args.option)
    options.setdefault("players", len(specs))
    game = load_game(args.game, options)
    if len(specs) != game.players:
        raise ConfigError(f"{game.players} players but {len(specs)} seats given in --seats")
    if args.record:
        check_writable(Path(args.record))
    if args.seed is not None:
        check_seed(args.seed)  # a wider seed would be written into a record nobody can read
    seed = args.seed if args.seed is not None else Rng(_clock_seed()).next64() % 1_000_000
    if args.hints and all(spec == "human" for spec in specs):
        raise ConfigError("hints are for games against bots: name a bot seat in --seats")
    screen = Screen()
    # every seat is built before anything is shown: a bad spec is the only thing printed
    agents = seat_agents(game, specs, lambda g: _human(g, screen, args.hints))
    screen.say(f"{args.game} with {game.players} players, seed {seed}")
    record = Record(game.id, game.options, seed, seats=specs)
    try:
        final = play_game(game, agents, seed, record, screen)
    except (QuitGame, KeyboardInterrupt):  # q, Ctrl-D or Ctrl-C: the record is kept alike
        screen.say("\nGame abandoned.")
        final = None
    if args.record:
        record.save(args.record)
        screen.say(f"Record saved to {args.record}")
    return 0 if final is not None else 1


def _human(game: Game, screen: Screen, hints: bool) -> HumanAgent:
    person = HumanAgent(game, screen)
    person.hints = hints
    return person


def check_writable(path: Path) -> None:
    """Find out before the game, not after it, that a file cannot be written there."""
    if path.is_dir():
        raise ConfigError(f"cannot write {path}: it is a folder")
    if not path.parent.is_dir():
        raise ConfigError(f"cannot write {path}: there is no folder {path.parent}")
    if not os.access(path if path.exists() else path.parent, os.W_OK):
        raise ConfigError(f"cannot write {path}: permission denied")


def _clock_seed() -> int:
    import time

    return time.time_ns()


def referee(state: State) -> WhyNot:
    """Answers a person asking about a move: None if `state` allows it, else the refusal."""

    def why_not(action: Action) -> GameError | None:
        try:
            state.check(action)
        except GameError as exc:
            return exc
        return None

    return why_not


def play_game(
    game: Game, agents: list[Agent], seed: int, record: Record, out: TextIO | Screen
) -> State:
    """Play to the end; each person is told every move as their seat sees it."""
    screen = out if isinstance(out, Screen) else Screen(out)
    humans = [i for i, a in enumerate(agents) if isinstance(a, HumanAgent)]
    hot_seat = len(humans) > 1
    #: the seat whose eyes are on the screen now (hot-seat: changes at each hand-over)
    at_screen: int | None = humans[0] if len(humans) == 1 else None
    #: what each person has not yet been shown, as their seat was told it
    waiting: dict[int, list[News]] = {h: [] for h in humans}
    rngs = seat_rngs(seed, len(agents))
    state = game.new_game(seed)
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        agent = agents[seat]
        view = state.view(seat)
        if isinstance(agent, HumanAgent):
            if hot_seat and seat != at_screen:
                if at_screen is not None:  # what their last move did, before they leave
                    screen.news(game, waiting[at_screen])
                    waiting[at_screen] = []
                _hand_over(screen, game, at_screen, seat)
                at_screen = seat
            news = waiting[seat]
            if hot_seat and news and not news[0].heading:  # what the others did while away
                news = [News([], "Meanwhile"), *news]
            action = agent.decide(view, state.legal_actions(), referee(state), news)
            waiting[seat] = []
            heading = f"Your move: {readable.label(game, view, action)}"
        else:
            action = agent.act(view, state.legal_actions(), rngs[seat])
            heading = f"{readable.seat_name(game, seat)} moves"
        record.actions.append(action.to_json())
        state, events = state.apply_with_events(action)
        if not humans:
            screen.events(game, heading, readable.told(game, events, None))
        for h in humans:
            told = readable.told(game, events, h)
            if told:  # shown beside the prompt when this person next decides
                waiting[h].append(News(told, heading if h == seat else ""))
    record.result = {"scores": state.scores(), "winners": state.winners()}
    if at_screen is not None:
        screen.news(game, waiting[at_screen])
    final_view = state.view(at_screen if not hot_seat else None)
    screen.say("")
    # the people at the table have seen its legend; a bots' game shows it this once
    screen.table(game, final_view, f"{game.id}: the end", None, NO_LEGEND if humans else FULL)
    screen.say(result_text(game, state), game, style="bold")
    return state


def _hand_over(screen: Screen, game: Game, leaving: int | None, coming: int) -> None:
    """Hot-seat: hide the last person's table, then let the next one sit down."""
    try:
        if leaving is not None:
            screen.ask(
                f"{readable.seat_name(game, leaving)}: press Enter to hide your hand and pass on. "
            )
        screen.clear()
        screen.ask(
            f"{readable.seat_name(game, coming)}, take the seat: "
            "press Enter when only you see the screen. "
        )
    except EOFError as exc:
        raise QuitGame from exc


def result_text(game: Game, state: State) -> str:
    scores = ", ".join(f"{readable.seat_name(game, i)} {s:g}" for i, s in enumerate(state.scores()))
    winners = state.winners()
    if not winners:
        return f"Game over. Nobody wins. Scores: {scores}"
    names = " and ".join(readable.seat_name(game, i) for i in winners)
    verb = "win" if len(winners) > 1 else "wins"
    return f"Game over. {names} {verb}. Scores: {scores}"
