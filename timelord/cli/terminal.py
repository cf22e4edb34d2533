"""The terminal a person plays at: Rich colours, tables and panels on a real terminal, plain
text when the output is a file or a pipe (logs, tests).

The games' own `render_view` stays the plain picture; this module only colours it (suits,
door colours, seats) and frames it, so a log and a screen say the same thing.
"""

from __future__ import annotations

import inspect
import re
import shutil
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from timelord.cli.panels import Grid
from timelord.core import Game, View

#: colours of seats 0-5 where a game does not name seats by colour
SEAT_STYLES = ("bright_cyan", "bright_magenta", "bright_yellow", "bright_green", "orange3", "red")

_COLOUR_WORDS = {
    "red": "bold red",
    "blue": "bold blue",
    "green": "bold green",
    "yellow": "bold yellow",
}

#: xterm's "erase saved lines" (ED 3): clears the scrollback, which ESC[2J leaves
ERASE_SCROLLBACK = "\x1b[3J"

#: columns a board keeps beside a panel before the panel goes below it instead
_MIN_BOARD_WIDTH = 60

#: game id -> (pattern, style) pairs that colour its texts (the Keys grid brings its own ANSI)
_HIGHLIGHTS: dict[str, list[tuple[str, str]]] = {
    "episodes": [
        (r"\bDoctors?\b", "bold blue"),
        (r"\bCompanions?\b", "bold green"),
        (r"\bGadgets?\b", "bold yellow"),
        (r"\bFoes?\b", "bold red"),
        (r"\bPlots?\b", "bold magenta"),
        (r"\bSpecials?\b", "bold cyan"),
        (r"\b\d+ VP\b", "bold"),
    ],
    "card-game": [
        (r"\b(enemy|Enemy|Enemies)\b", "red"),
        (r"\b(defender|Defender|Defenders)\b", "green"),
        (r"\b(Location|Locations)\b", "cyan"),
        (r"\b(support|Support)\b", "magenta"),
        (r"\bVP \d+\b|\b\d+ TP\b|\bTP \d+\b", "bold"),
    ],
    "keys": [(r"\bkey-(red|blue|green|yellow)\b", "bold"), (r"\bDalek\b", "bold red")],
    "clue": [
        (r"\b(Who\?|What\?|Where\?)", "bold underline"),
        (r"\benvelope\b", "bold magenta"),
    ],
}


def _colour_words(game: Game) -> list[tuple[str, str]]:
    """Seat names and colour words in their own colours ("Red", "Seat 2", "yellow")."""
    rules = [(rf"\b{re.escape(w)}\b", s) for w, s in _COLOUR_WORDS.items()]
    rules += [(rf"\b{re.escape(w.capitalize())}\b", s) for w, s in _COLOUR_WORDS.items()]
    for seat in range(game.players):
        name = game.seat_name(seat)
        style = _COLOUR_WORDS.get(name.lower(), SEAT_STYLES[seat % len(SEAT_STYLES)])
        rules.append((rf"\b{re.escape(name)}", style))
    rules.append((r"\b(You|you|Your|your)\b", "bold"))
    return rules


def styled(game: Game, text: str) -> Text:
    """`text` with the game's words coloured; ANSI already in it (the Keys grid) is kept."""
    out = Text.from_ansi(text) if "\x1b[" in text else Text(text)
    for pattern, style in _colour_words(game) + _HIGHLIGHTS.get(game.id, []):
        out.highlight_regex(pattern, style)
    return out


def _colour_render(game: Game, view: View) -> str:
    """The game's picture with its own terminal colours where it has them (Keys' doors)."""
    render: Callable[..., str] = game.render_view
    if "ansi" in inspect.signature(render).parameters:
        return render(view, ansi=True)
    return render(view)


class Screen:
    """Where a game is shown and asked about: one per terminal, shared by hot-seat players.

    `rich=None` decides by the output: Rich on a terminal, plain text otherwise.
    """

    def __init__(
        self,
        out: TextIO | None = None,
        read: Callable[[str], str] | None = None,
        rich: bool | None = None,
    ) -> None:
        self.out = out if out is not None else sys.stdout
        self.console = Console(file=self.out, highlight=False, emoji=False)
        self.rich = self.console.is_terminal if rich is None else rich
        # looked up at each call, not bound at import, so a replaced input() is honoured
        self._read = read or (lambda prompt: input(prompt))

    @property
    def height(self) -> int:
        """Lines the terminal shows (24 for a pipe, or $LINES)."""
        return shutil.get_terminal_size((100, 24)).lines

    @property
    def width(self) -> int:
        return shutil.get_terminal_size((100, 24)).columns

    def say(self, text: str = "", game: Game | None = None, style: str = "") -> None:
        """One block of text, coloured for `game` on a terminal."""
        if not self.rich:
            print(text, file=self.out, flush=True)
            return
        body = styled(game, text) if game is not None else Text(text)
        if style:
            body.stylize(style)
        self.console.print(body)

    def ask(self, prompt: str) -> str:
        """A line typed at the prompt (EOFError when input ends)."""
        self.out.flush()
        return self._read(prompt)

    def clear(self) -> None:
        """Blank the screen and its scrollback (hot-seat: the next player can neither see
        nor scroll back to the last player's hand). ESC[3J is xterm's "erase saved lines";
        a terminal that ignores it keeps the scrollback (docs/players/terminal.md)."""
        if self.rich:
            self.console.clear()
            self.console.file.write(ERASE_SCROLLBACK)
            self.console.file.flush()
        else:
            print("\n" * 3 + "-" * 40, file=self.out, flush=True)

    def table(self, game: Game, view: View, title: str, extra: Grid | None) -> int:
        """Show the seat's picture of the table, and a game's extra panel (Clue's notebook)
        beside it when the terminal is wide enough; return the lines it took on a terminal
        (0 for plain output, which has no screen to share with the menu)."""
        colour = self.rich
        picture = _colour_render(game, view) if colour else game.render_view(view)
        if extra is not None and extra.replaces:
            picture = drop_section(picture, extra.replaces)
        if not colour:
            self.say(picture)
            if extra is not None:
                self.say(extra.plain())
            return 0
        board = Panel(styled(game, picture), title=title, title_align="left", expand=False)
        parts: list[Panel | Table] = [board]
        if extra is not None:
            panel = _rich_grid(extra)
            room = self.console.width - self.console.measure(panel).maximum - 2
            if room >= min(self.console.measure(board).maximum, _MIN_BOARD_WIDTH):
                both = Table.grid(padding=(0, 2))
                both.add_column(max_width=room)
                both.add_row(board, panel)
                parts = [both]
            else:
                parts.append(panel)
        shown = 0
        for part in parts:
            shown += len(self.console.render_lines(part, pad=False))
            self.console.print(part)
        return shown

    def events(self, game: Game, heading: str, lines: Sequence[str], framed: bool = False) -> None:
        """What happened, as a seat is told it; `framed` sets it apart (the person's own move)."""
        if not lines:
            return
        if not self.rich:
            self.say(heading)
            for line in lines:
                self.say(f"  * {line}")
            return
        body = Text("\n").join(Text("• ").append_text(styled(game, line)) for line in lines)
        if framed:
            self.console.print(Panel(body, title=heading, title_align="left", expand=False))
        else:
            self.console.print(Text(heading, style="dim"))
            self.console.print(body)

    def choices(self, game: Game, heading: str, lines: Sequence[str], footer: str) -> None:
        """A page of the move menu."""
        self.say(heading, style="bold")
        for line in lines:
            self.say(line, game)
        if footer:
            self.say(footer, style="dim")


def drop_section(text: str, heading: str) -> str:
    """`text` without the block that starts with a line `heading` (and runs over the indented
    lines after it): a panel that draws the same thing better replaces it."""
    out: list[str] = []
    skipping = False
    for line in text.splitlines():
        if line.startswith(heading):
            skipping = True
            continue
        if skipping and line.startswith(" "):
            continue
        skipping = False
        out.append(line)
    return "\n".join(out)


def _rich_grid(grid: Grid) -> Table:
    table = Table(title=grid.title, title_justify="left", show_lines=False, pad_edge=False)
    for i, column in enumerate(grid.columns):
        table.add_column(column, justify="left" if i == 0 else "center", no_wrap=True)
    for row in grid.rows:
        if row.heading:
            table.add_row(Text(row.cells[0], style="bold underline"), end_section=False)
            continue
        cells = [Text(row.cells[0])]
        for cell in row.cells[1:]:
            cells.append(Text(cell, style=_cell_style(cell)))
        table.add_row(*cells)
    if grid.note:
        table.caption = grid.note
        table.caption_justify = "left"
    return table


def _cell_style(cell: str) -> str:
    if cell == Grid.HELD:
        return "bold green"
    if cell == Grid.OUT:
        return "dim"
    if cell.endswith("%") and not cell.startswith("<"):
        return "yellow"
    return ""
