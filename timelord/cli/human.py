"""A person at the terminal: shows the seat's view and asks for a move from a numbered menu."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TextIO

from timelord.agents.base import Agent
from timelord.cli.panels import panel_for
from timelord.core import Action, Game, Rng, View


class QuitGame(Exception):
    """The person asked to leave the game."""


class HumanAgent(Agent):
    """Asks at a prompt; bad input gets a clear message and the prompt again."""

    name = "human"

    def __init__(
        self,
        game: Game,
        read: Callable[[str], str] | None = None,
        out: TextIO | None = None,
    ) -> None:
        super().__init__(game)
        # looked up at each call, not bound at import, so a replaced input() is honoured
        self._read = read or (lambda prompt: input(prompt))
        self._out = out
        self._panel = panel_for(game)
        #: whether panels show deduced odds (Clue's notebook); 'n' at the prompt toggles it
        self.show_odds = True

    def _say(self, text: str) -> None:
        print(text, file=self._out, flush=True)

    def act(self, view: View, legal: Sequence[Action], rng: Rng) -> Action:
        self._say("")
        self._show_table(view)
        self._show_menu(legal)
        while True:
            try:
                answer = self._read(f"Your move [1-{len(legal)}, ? for help]: ").strip()
            except EOFError as exc:
                raise QuitGame from exc
            if answer.lower() in {"q", "quit", "exit"}:
                raise QuitGame
            if answer in {"?", "h", "help"}:
                self._say("Type the number of a move. 'v' shows the table again, 'q' quits.")
                if self._panel is not None:
                    self._say("'n' turns the notebook's odds from the deducer off or on.")
                continue
            if answer.lower() in {"v", "view"}:
                self._show_table(view)
                self._show_menu(legal)
                continue
            if answer.lower() == "n" and self._panel is not None:
                self.show_odds = not self.show_odds
                self._say(f"Notebook odds {'on' if self.show_odds else 'off'}.")
                self._show_table(view)
                self._show_menu(legal)
                continue
            if answer.isdigit() and 1 <= int(answer) <= len(legal):
                return legal[int(answer) - 1]
            self._say(f"'{answer}' is not a move: type a number from 1 to {len(legal)}.")

    def _show_table(self, view: View) -> None:
        self._say(self.game.render_view(view))
        if self._panel is not None:
            self._say(self._panel(self.game, view, self.show_odds))

    def _show_menu(self, legal: Sequence[Action]) -> None:
        self._say("Your moves:")
        width = len(str(len(legal)))
        for i, action in enumerate(legal, 1):
            self._say(f"  {i:>{width}}. {action}")
