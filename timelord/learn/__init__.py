"""Learn to play: a short guided game on a prepared deal, then a normal game.

A lesson is a data file beside the game's data (`data/learn.toml` in the game's package), so
a designer can edit it without touching code. It fixes the options and the seed (the deal)
and lists steps. A step for the learner (seat 0) names the move to make by the label the
seat's menu shows, says in a sentence or two the rule that matters now, and names its
clause; a step for another seat names the move that seat makes. Where the lesson names no
move for a bot's turn the bot plays its own (the heuristic player, seeded by the lesson, so
the same lesson always plays out the same way).

`plan(lesson)` plays a lesson through against the engine and returns every move of the
guided game with its step: the terminal (`timelord learn GAME`) and the browser's lesson walk
the plan, and the tests check every lesson by planning it. A step whose move is not legal
when its turn comes is a `LessonError` naming the step and the moves that were legal.

```toml
title = "Keys to the TARDIS in ten moves"
intro = "You are the ★ pawn at the south edge; reach the north edge first."
seed = 12
bot = "heuristic"            # the normal game after the lesson
[options]
players = 2
[[step]]                     # seat 0 (the learner) unless `seat` says otherwise
do = "open d1 with the Blue Key"
say = "Open a door on your edge with a key of its colour."
rule = "K-5.3"
point = "hand"               # where to look: hand, board, moves, or a board element's id
[[step]]
seat = 1
do = "move to d7"
```
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from timelord.agents import make_agent
from timelord.core import Action, ConfigError, Game, GameError, Rng, State, game_class, load
from timelord.core.people import people_numbered

#: The learner's seat in every lesson.
LEARNER = 0
#: Where a step may point the learner besides a board element's id.
REGIONS = ("hand", "board", "moves", "log")
#: The most moves a lesson may take (bots' included): a lesson is short.
MAX_PLIES = 400
#: The agent that plays a bot's turn the lesson leaves to it, and the one of the normal game.
LESSON_BOT = "heuristic"
DEFAULT_BOT = "ismcts:easy"


class LessonError(ConfigError):
    """A lesson file that is malformed, or whose moves do not play out against the engine."""


@dataclass(frozen=True)
class Step:
    """One step of a lesson: whose move, which move (its label; None: the bot's own), and
    for the learner what to tell them."""

    seat: int
    do: str | None
    say: str = ""
    rule: str = ""
    point: str = ""


@dataclass(frozen=True)
class Lesson:
    game_id: str
    title: str
    intro: str
    outro: str
    seed: int
    options: Mapping[str, Any]
    steps: tuple[Step, ...]
    #: the bot of the normal game that follows the lesson
    bot: str = DEFAULT_BOT

    def game(self) -> Game:
        return load(self.game_id, **dict(self.options))

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game_id,
            "title": self.title,
            "intro": self.intro,
            "outro": self.outro,
            "seed": self.seed,
            "options": dict(self.options),
            "bot": self.bot,
        }


@dataclass(frozen=True)
class Ply:
    """One move of a planned lesson: the seat, the action, its label as that seat reads it,
    and the step it plays (None: a bot's move the lesson left to the bot)."""

    seat: int
    action: Action
    label: str
    step: Step | None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "seat": self.seat,
            "action": self.action.to_json(),
            "label": self.label,
        }
        if self.step is not None and self.seat == LEARNER:
            out.update(say=self.step.say, rule=self.step.rule, point=self.step.point)
        return out


_TOP = {"title", "intro", "outro", "seed", "options", "step", "bot"}
_STEP = {"seat", "do", "say", "rule", "point"}


def lesson_from_toml(game_id: str, text: str) -> Lesson:
    """A lesson from its TOML text; `LessonError` for anything malformed (the shape only:
    whether it plays out is `plan`'s to say)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise LessonError(f"{game_id} lesson: {exc}") from exc
    unknown = set(data) - _TOP
    if unknown:
        raise LessonError(f"{game_id} lesson: unknown keys {sorted(unknown)}")
    seed, options, raw_steps = data.get("seed"), data.get("options", {}), data.get("step", [])
    if type(seed) is not int or not 0 <= seed < 2**63:
        raise LessonError(f"{game_id} lesson: seed must be a non-negative integer")
    if not isinstance(options, dict) or not isinstance(raw_steps, list) or not raw_steps:
        raise LessonError(f"{game_id} lesson: needs [options] and at least one [[step]]")
    steps = []
    for i, raw in enumerate(raw_steps, 1):
        if not isinstance(raw, dict) or set(raw) - _STEP:
            raise LessonError(f"{game_id} lesson step {i}: keys are {sorted(_STEP)}")
        seat = raw.get("seat", LEARNER)
        do = raw.get("do")
        texts = {k: raw.get(k, "") for k in ("say", "rule", "point")}
        if type(seat) is not int or (do is not None and not isinstance(do, str)):
            raise LessonError(f"{game_id} lesson step {i}: seat is a number, do a move's label")
        if not all(isinstance(v, str) for v in texts.values()):
            raise LessonError(f"{game_id} lesson step {i}: say, rule and point are text")
        if seat == LEARNER and (do is None or not texts["say"]):
            raise LessonError(f"{game_id} lesson step {i}: a learner's step needs do and say")
        steps.append(Step(seat, do, **texts))
    texts = {k: data.get(k, "") for k in ("title", "intro", "outro", "bot")}
    if not all(isinstance(v, str) for v in texts.values()) or not texts["title"]:
        raise LessonError(f"{game_id} lesson: title, intro, outro and bot are text")
    return Lesson(
        game_id=game_id,
        title=texts["title"],
        intro=texts["intro"],
        outro=texts["outro"],
        seed=seed,
        options=options,
        steps=tuple(steps),
        bot=texts["bot"] or DEFAULT_BOT,
    )


def lesson_text(game_id: str) -> str:
    """The TOML text of a game's lesson, from its package data; `LessonError` if it has none."""
    package = game_class(game_id).__module__.rpartition(".")[0]
    try:
        return (resources.files(package) / "data" / "learn.toml").read_text(encoding="utf-8")
    except OSError as exc:
        raise LessonError(f"{game_id} has no lesson (data/learn.toml)") from exc


def load_lesson(game_id: str) -> Lesson:
    """A game's lesson, read from its package data."""
    return lesson_from_toml(game_id, lesson_text(game_id))


def has_lesson(game_id: str) -> bool:
    try:
        lesson_text(game_id)
    except LessonError:
        return False
    return True


def find_move(game: Game, state: State, label: str) -> Action | None:
    """The legal move of the seat to move whose menu label, as people read it (seats
    counted from 1), is `label` (case and spaces aside), or None."""
    seat = state.to_move
    if seat is None:
        return None
    view = state.view(seat)
    wanted = " ".join(label.lower().split())
    for action in state.legal_actions():
        if " ".join(people_numbered(game.action_label(view, action)).lower().split()) == wanted:
            return action
    return None


def plan(lesson: Lesson) -> list[Ply]:
    """Play the lesson through against the engine: every move of the guided game, in order.
    `LessonError` when a step's move is not legal at its turn, the game ends before the last
    step, or a step names a seat the game does not have."""

    game = lesson.game()
    state = game.new_game(lesson.seed)
    bots = {s: make_agent(LESSON_BOT, game) for s in range(game.players) if s != LEARNER}
    plies: list[Ply] = []
    steps = list(lesson.steps)
    for n, step in enumerate(steps, 1):
        if not 0 <= step.seat < game.players:
            raise LessonError(f"{lesson.game_id} lesson step {n}: there is no seat {step.seat}")
        while True:
            if state.is_over:
                raise LessonError(f"{lesson.game_id} lesson step {n}: the game is already over")
            if len(plies) >= MAX_PLIES:
                raise LessonError(f"{lesson.game_id} lesson: longer than {MAX_PLIES} moves")
            seat = state.to_move
            assert seat is not None
            if seat == step.seat:
                break
            if seat == LEARNER:
                raise LessonError(
                    f"{lesson.game_id} lesson step {n}: it is the learner's turn, but the step"
                    f" is for seat {step.seat} ({_offered(game, state)})"
                )
            action = bots[seat].act(state.view(seat), state.legal_actions(), _rng(lesson, plies))
            plies.append(Ply(seat, action, _label(game, state, seat, action), None))
            state = state.apply(action)
        if step.do is None:
            action = bots[step.seat].act(
                state.view(step.seat), state.legal_actions(), _rng(lesson, plies)
            )
        else:
            found = find_move(game, state, step.do)
            if found is None:
                raise LessonError(
                    f"{lesson.game_id} lesson step {n}: {step.do!r} is not a legal move now"
                    f" ({_offered(game, state)})"
                )
            action = found
        plies.append(Ply(step.seat, action, _label(game, state, step.seat, action), step))
        try:
            state = state.apply(action)
        except GameError as exc:  # a label found among the legal moves always applies
            raise LessonError(f"{lesson.game_id} lesson step {n}: {exc}") from exc
    return plies


def _label(game: Game, state: State, seat: int, action: Action) -> str:
    """A move's menu label as the seat's person reads it (seats counted from 1)."""
    return people_numbered(game.action_label(state.view(seat), action))


def play_plan(lesson: Lesson, plies: list[Ply]) -> State:
    """The state a planned lesson ends in (the guided game is then over or left there)."""
    game = lesson.game()
    state = game.new_game(lesson.seed)
    for ply in plies:
        state = state.apply(ply.action)
    return state


def _rng(lesson: Lesson, plies: list[Ply]) -> Rng:
    return Rng(lesson.seed ^ (len(plies) + 1) * 0x9E3779B97F4A7C15)


def _offered(game: Game, state: State) -> str:
    seat = state.to_move
    if seat is None:
        return "the game is over"
    view = state.view(seat)
    labels = [game.action_label(view, a) for a in state.legal_actions()]
    shown = "; ".join(labels[:12]) + ("; ..." if len(labels) > 12 else "")
    return f"seat {seat} may: {shown}"
