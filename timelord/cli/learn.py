"""`timelord learn GAME`: a guided game on a prepared deal, then a normal game against an
easy bot.

Each step of the lesson (the game's `data/learn.toml`) shows the table, says in a sentence
or two the rule that matters now with its clause (`timelord rules GAME CLAUSE` prints it in
full), and names the move to make; the lesson moves on when the player makes it. Another
move is not made: the player is told which one the lesson asks for. The bots' moves are
the lesson's own, so every learner sees the same game.
"""

from __future__ import annotations

import argparse
import time

from timelord.agents import make_agent
from timelord.cli import readable
from timelord.cli.human import HumanAgent, QuitGame
from timelord.cli.play import play_game, referee
from timelord.cli.terminal import News, Screen
from timelord.core import Record, Rng
from timelord.learn import LEARNER, Lesson, Ply, load_lesson, plan


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="game id (see `timelord games`)")
    parser.add_argument(
        "--no-game",
        action="store_true",
        help="stop after the guided part instead of going on to a normal game",
    )


def run(args: argparse.Namespace) -> int:
    lesson = load_lesson(args.game)
    plies = plan(lesson)
    screen = Screen()
    try:
        walk(lesson, plies, screen)
        if args.no_game or not _wants_game(screen, lesson):
            return 0
        normal_game(lesson, screen)
    except QuitGame:
        screen.say("\nLesson left. `timelord learn " + lesson.game_id + "` starts it again.")
        return 1
    return 0


def walk(lesson: Lesson, plies: list[Ply], screen: Screen) -> None:
    """The guided game: the learner's moves asked for, step by step; the others' played."""
    game = lesson.game()
    human = HumanAgent(game, screen)
    state = game.new_game(lesson.seed)
    steps = sum(1 for p in plies if p.seat == LEARNER)
    screen.say(lesson.title, game, style="bold")
    screen.say(lesson.intro)
    if screen.rich:  # a person at a terminal reads the intro before the table covers it
        try:
            if screen.ask("Press Enter to begin (q to leave). ").strip().lower() in {"q", "quit"}:
                raise QuitGame
        except EOFError as exc:
            raise QuitGame from exc
    done = 0
    news: list[News] = []
    for ply in plies:
        if ply.seat == LEARNER and ply.step is not None:
            done += 1
            view = state.view(LEARNER)
            rule = f" [{ply.step.rule}]" if ply.step.rule else ""
            note = f"Lesson, step {done} of {steps}: {ply.step.say}{rule}\nDo: {ply.label}"
            asked = note
            while True:
                chosen = human.decide(view, state.legal_actions(), referee(state), news, asked)
                news = []
                if chosen == ply.action:
                    break
                # said with the instruction, so that it is in sight with the prompt
                asked = (
                    f"Not this time: the lesson asks you to {ply.label}. "
                    f"(Type its number, or words from it.)\n{note}"
                )
            heading = f"Your move: {ply.label}"
        else:
            heading = ""
        state, events = state.apply_with_events(ply.action)
        told = readable.told(game, events, LEARNER)
        if told:  # shown beside the prompt at the next step
            news.append(News(told, heading))
    screen.news(game, news)
    screen.say("")
    screen.say(lesson.outro, game, style="bold")
    screen.say(f"The rules in full: `timelord rules {lesson.game_id}`.")


def _wants_game(screen: Screen, lesson: Lesson) -> bool:
    try:
        answer = screen.ask("Play a whole game against an easy bot now? [Y/n] ")
    except EOFError:
        return False
    return answer.strip().lower() in ("", "y", "yes")


def normal_game(lesson: Lesson, screen: Screen) -> None:
    """A game with the lesson's options on a new deal: the learner against the easy bot."""
    game = lesson.game()
    specs = ["human", *[lesson.bot] * (game.players - 1)]
    seed = Rng(time.time_ns()).next64() % 1_000_000
    agents = [
        HumanAgent(game, screen) if spec == "human" else make_agent(spec, game) for spec in specs
    ]
    record = Record(game.id, game.options, seed, seats=specs)
    others = "an easy bot" if game.players == 2 else f"{game.players - 1} easy bots"
    screen.say(f"A new deal, you against {others} (seed {seed}).")
    play_game(game, agents, seed, record, screen)
