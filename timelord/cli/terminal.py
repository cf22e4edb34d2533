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
from dataclasses import dataclass
from typing import TextIO

from rich import box
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Lines, Text

from timelord.cli import readable
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

#: how much of a table is drawn: all of it, without the legend (once seen), compact (no
#: legend, no ruled lines between rows, no frame, not the sections a game can spare) for a
#: small terminal, or bare (compact, without the extra panel) for a tiny one
FULL, NO_LEGEND, COMPACT, BARE = 0, 1, 2, 3

#: game id -> sections of its picture a compact table leaves out (the news says what happened)
_SPARE = {"clue": ("Recent",)}

#: game id -> (long, short) words its compact table shortens
_SHORT_WORDS = {
    "card-game": (
        ("TARDIS in play ", "TARDIS "),
        ("Daleks in play ", "Daleks "),
        (" VP as it stands,", " VP,"),
        (" | VP unknown until the attack turns up", " | VP ?"),
        ("? (face-down)", "?"),
    )
}
#: game id -> (pattern, replacement) its compact table rewrites: the game's name and your
#: seat (the title says them), a count that says nothing yet, the pile under its deck line,
#: the seats' lines two by two
_REWRITES: dict[str, list[tuple[re.Pattern[str], str]]] = {
    "episodes": [
        (re.compile(r"^Episodes - Seat \d+ - ", re.M), ""),
        (re.compile(r" \(reshuffled 0x\)"), ""),
        (re.compile(r"\n +top of the pile last: "), "; top last: "),
        (re.compile(r"^(  Seat .*cards in hand)\n  (?=Seat )", re.M), r"\1; "),  # two a line
    ],
}
#: game id -> headings whose indented lines its compact table sets on one line
_JOINED = {"card-game": ("Your hand:",)}
#: game id -> headings whose indented lines its compact table gathers on one indented line
#: under them (a seat's Locations: one line each ran a three-player table off 24 lines)
_GATHERED = {"card-game": ("-- ",)}
#: a line of a map's column letters only ("  a  b  c"): drawn over the map and again under
#: it, where a compact table draws it once
_RULER = re.compile(r"^\s*(?:[a-z]\s+){2,}[a-z]\s*$")

#: games whose compact table sets the lines around their map beside it, not above and below
#: (Clue's map is 28 columns of a terminal's 80: under it, its key pushed the map off an 80x24
#: screen)
_BESIDE = {"clue"}
#: a line of a map drawn as a grid: its column letters, or a row number and the row
_MAP_LINE = re.compile(r"^( {3}[a-z]{3,}| ?\d{1,2} \S{3,})$")
#: game id -> (pattern, replacement) of lines its map's column shortens: the game's name
#: (the title says it) and a line that tells nothing the player holds (`v` shows it whole)
_BESIDE_LINES: dict[str, list[tuple[re.Pattern[str], str]]] = {
    "clue": [
        (re.compile(r"^Clue: Doctor Who: "), ""),
        (re.compile(r"^Intrigue: .*, your cards: none$"), ""),
    ],
}
#: game id -> the line that keys the digits on its map (cut to the digits on the map)
_MARKS_KEY = {"clue": "Movers:"}
#: game id -> lines its map's column shows first (what the player holds and who is who)
_BESIDE_FIRST = {"clue": ("Roll:", "Your cards:", "Players:")}
#: columns between a map and the lines set beside it
_GAP = 2
#: columns the lines beside a map need at least, else they stay under it
_MIN_BESIDE = 40

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
#: a line that only rules off rows ("-----+-----") and says nothing
_RULE_LINE = re.compile(r"^[\s\-+=|]*$")


@dataclass
class News:
    """What happened since the person last looked, as their seat was told it: one move's
    events, under the person's own move's heading when it was theirs."""

    lines: list[str]
    heading: str = ""

    def height(self) -> int:
        return len(self.lines) + (1 if self.heading else 0)


def latest_news(
    blocks: Sequence[News], room: int, tall: Callable[[str], int] = lambda text: 1
) -> list[News]:
    """The latest news that fits in `room` lines, one line saying how many earlier events
    are left out (the table shows where things stand; the prompt must stay in sight).
    `tall` says how many lines one event or heading takes once wrapped (one by default)."""

    def height(block: News) -> int:
        head = tall(block.heading) if block.heading else 0
        return head + sum(tall(line) for line in block.lines)

    if sum(height(b) for b in blocks) <= room:
        return list(blocks)
    lines = [line for block in blocks for line in block.lines]
    if room <= 1 and lines:  # one line: the latest event, and how many are left out
        hidden = len(lines) - 1
        more = f" ({hidden} earlier event{'s' if hidden > 1 else ''} left out)" if hidden else ""
        return [News([lines[-1] + more])]
    keep: list[News] = []
    left = max(1, room - 1)
    for block in reversed(blocks):
        if height(block) <= left:
            keep.insert(0, block)
            left -= height(block)
            continue
        head = tall(block.heading) if block.heading else 0
        headed = bool(block.heading) and left > head  # else its latest events only
        space = left - head if headed else left
        taken: list[str] = []
        for line in reversed(block.lines):
            if tall(line) > space:
                break
            taken.insert(0, line)
            space -= tall(line)
        if taken:
            keep.insert(0, News(taken, block.heading if headed else ""))
        break
    shown = sum(len(b.lines) for b in keep)
    hidden = sum(len(b.lines) for b in blocks) - shown
    if not hidden:
        return keep
    return [News([f"({hidden} earlier event{'s' if hidden > 1 else ''})"]), *keep]


def split_map(picture: str) -> tuple[list[str], list[str]] | None:
    """The longest run of map lines in `picture` (a grid's column letters and numbered
    rows) and the other lines in their order; None when it draws no map."""
    lines = picture.splitlines()
    best: tuple[int, int] = (0, 0)
    start = None
    for i, line in enumerate([*lines, ""]):
        if _MAP_LINE.match(_ANSI.sub("", line)):
            start = i if start is None else start
            continue
        if start is not None and i - start > best[1] - best[0]:
            best = (start, i)
        start = None
    if best[1] - best[0] < 3:
        return None
    return lines[best[0] : best[1]], lines[: best[0]] + lines[best[1] :]


def beside_lines(game_id: str, grid: Sequence[str], rest: Sequence[str]) -> list[str]:
    """The lines set beside a game's map, made short: its rewrites applied, its key to the
    map's digits cut to the digits on the map, the places' indented lines joined into one
    (a column of 50 wastes the ends of short lines), and the lines a player needs most
    (`_BESIDE_FIRST`) moved up next to the first, so a cut at the map's height takes the
    rest."""
    out = list(rest)
    for pattern, short in _BESIDE_LINES.get(game_id, []):
        out = [pattern.sub(short, line) for line in out]
    key = _MARKS_KEY.get(game_id)
    if key is not None:
        shown = set(re.findall(r"\d", "".join(_ANSI.sub("", line)[3:] for line in grid)))
        for i, line in enumerate(out):
            if line.startswith(key):
                marks = re.findall(r"(\d) (.+?)(?=, \d |$)", line[len(key) :].strip())
                kept = [f"{d} {name}" for d, name in marks if d in shown]
                out[i] = f"{key} {', '.join(kept)}" if kept else ""
    joined: list[str] = []
    for line in out:
        if line.startswith("  ") and joined and joined[-1].startswith("\0"):
            joined[-1] += "; " + line.strip()
        elif line.startswith("  "):
            joined.append("\0" + line.strip())
        else:
            joined.append(line)
    out = [line.lstrip("\0") for line in joined if line]
    first = [line for line in out[1:] if line.startswith(_BESIDE_FIRST.get(game_id, ("\0",)))]
    return out[:1] + first + [line for line in out[1:] if line not in first]


def shortened(game_id: str, picture: str) -> str:
    """A compact table's picture in fewer lines: the game's long words shortened
    (`_SHORT_WORDS`, `_REWRITES`), the indented lines under a heading of `_JOINED` set on
    its line and those under a heading of `_GATHERED` on one line under it, "; " between
    them (a hand of five cards took six lines of an 80x24 screen), and a map's column
    letters drawn once."""
    for long, short in _SHORT_WORDS.get(game_id, ()):
        picture = picture.replace(long, short)
    for pattern, replacement in _REWRITES.get(game_id, ()):
        picture = pattern.sub(replacement, picture)
    heads = _JOINED.get(game_id, ())
    gathers = _GATHERED.get(game_id, ())
    out: list[str] = []
    mode = ""  # what the indented lines after the last heading do: join, gather, gathered
    for line in picture.splitlines():
        if line.startswith("  ") and mode == "join":
            out[-1] += ("" if out[-1].endswith(":") else ";") + " " + line.strip()
            continue
        if line.startswith("  ") and mode == "gather":
            out.append("  " + line.strip())
            mode = "gathered"
            continue
        if line.startswith("  ") and mode == "gathered":
            out[-1] += "; " + line.strip()
            continue
        plain = _ANSI.sub("", line)
        if _RULER.match(plain) and any(_ANSI.sub("", seen) == plain for seen in out):
            continue
        mode = "join" if heads and line.startswith(heads) else ""
        mode = "gather" if gathers and line.startswith(gathers) else mode
        out.append(line)
    return "\n".join(out)


def compact(picture: str, level: int) -> str:
    """The game's picture at a level: a legend is dropped once it has been seen, and on a
    small terminal the lines that only rule rows off go too."""
    if level >= NO_LEGEND:
        picture = drop_section(picture, "Legend")
    if level >= COMPACT:
        picture = "\n".join(
            line for line in picture.splitlines() if not _RULE_LINE.match(_ANSI.sub("", line))
        )
    return picture


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
        name = readable.seat_name(game, seat)
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

    def table(
        self, game: Game, view: View, title: str, extra: Grid | None, level: int = FULL
    ) -> int:
        """Show the seat's picture of the table at `level`, and a game's extra panel (Clue's
        notebook) beside it when the terminal is wide enough; return the lines it took on a
        terminal (0 for plain output, which has no screen to share with the menu)."""
        parts = self.table_parts(game, view, title, extra, level)
        for part in parts:
            self.show(part)
        return self.measure(parts)

    def table_parts(
        self, game: Game, view: View, title: str, extra: Grid | None, level: int = FULL
    ) -> list[RenderableType]:
        """What `table` draws, to be measured before it is drawn: a frame and the panel
        beside the picture where the width allows, and no frame at the `COMPACT` level."""
        colour = self.rich
        picture = readable.picture(
            game, _colour_render(game, view) if colour else game.render_view(view)
        )
        if extra is not None and extra.replaces:
            picture = drop_section(picture, extra.replaces)
        picture = compact(picture, level)
        if level >= COMPACT:
            for section in _SPARE.get(game.id, ()):
                picture = drop_section(picture, section)
            picture = shortened(game.id, picture)
        if level >= BARE:
            if extra is not None:
                title += f" (v: the {extra.title.lower()} too)"
            extra = None
        if not colour:
            plain: list[RenderableType] = [picture]
            return plain + ([extra.plain()] if extra is not None else [])
        panel = _rich_grid(extra, narrow=level >= NO_LEGEND) if extra is not None else None
        room = self.console.width
        if panel is not None:
            room -= self.console.measure(panel).maximum + 2
        board: RenderableType
        if level >= COMPACT:
            board = self._compact_board(game, title, picture, room)
        else:
            board = Panel(styled(game, picture), title=title, title_align="left", expand=False)
        if panel is None:
            return [board]
        if room >= min(self.console.measure(board).maximum, _MIN_BOARD_WIDTH):
            both = Table.grid(padding=(0, 2))
            both.add_column(max_width=room)
            both.add_row(board, panel)
            return [both]
        if level >= COMPACT:  # the panel goes under the table: the table has the full width
            board = self._compact_board(game, title, picture, self.console.width)
        return [board, panel]

    def _compact_board(self, game: Game, title: str, picture: str, width: int) -> RenderableType:
        """A compact table `width` columns wide at most: its title over its picture; for a
        game in `_BESIDE`, its map with the title and the other lines (whose turn, your
        cards, where things are) in a column to its right, where `width` leaves that column
        room, and never taller than the map (what is cut says so: `v` shows it whole)."""
        parts = split_map(picture) if game.id in _BESIDE else None
        drawn = max(len(_ANSI.sub("", line)) for line in parts[0]) if parts else 0
        room = width - drawn - _GAP
        if parts is None or room < _MIN_BESIDE:
            first, _, rest_of = picture.partition("\n")
            head = _ANSI.sub("", first).rstrip()
            if head and len(head) + _GAP + len(title) <= width:  # the title ends line one
                top = styled(game, first.rstrip()).append(" " * _GAP + title, style="dim")
                return Group(top, styled(game, rest_of)) if rest_of else top
            return Group(Text(title, style="dim"), styled(game, picture))
        grid, rest = parts
        beside = Text(f"{title}: ", style="dim").append_text(
            styled(game, "\n".join(beside_lines(game.id, grid, rest)))
        )
        lines = beside.wrap(self.console, room)
        if len(lines) > len(grid):
            lines = Lines([*lines[: len(grid) - 1], Text("… more: type v", style="dim")])
        both = Table.grid(padding=(0, _GAP))
        both.add_column(no_wrap=True)
        both.add_column(width=room, no_wrap=True)
        both.add_row(styled(game, "\n".join(grid)), Text("\n").join(lines))
        return both

    def show(self, part: RenderableType) -> None:
        """One part of `table_parts`, drawn."""
        if self.rich:
            self.console.print(part)
        else:
            self.say(str(part))

    def measure(self, parts: Sequence[RenderableType]) -> int:
        """Lines `parts` take on this terminal (0 for plain output)."""
        if not self.rich:
            return 0
        return sum(len(self.console.render_lines(p, pad=False)) for p in parts)

    def lines_of(self, text: str) -> int:
        """Lines `text` takes on this terminal once wrapped (0 for plain output)."""
        if not self.rich:
            return 0
        return len(self.console.render_lines(Text(text), pad=False))

    def news(self, game: Game, blocks: Sequence[News]) -> None:
        """What happened since the person last looked, beside the prompt: their own move's
        heading in bold, then each event on its line."""
        bullet = "•" if self.rich else "*"
        for block in blocks:
            if block.heading:
                self.say(block.heading, game, style="bold")
            for line in block.lines:
                self.say(line if line.startswith("(") else f"  {bullet} {line}", game)

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


def _rich_grid(grid: Grid, narrow: bool = False) -> Table:
    """The grid as a Rich table; `narrow` draws it without its box and with short column
    names ("S1" for "Seat 1"), so it fits beside the board on a 110-column terminal."""
    table = Table(
        title=grid.title,
        title_justify="left",
        show_lines=False,
        pad_edge=False,
        box=None if narrow else box.HEAVY_HEAD,
        show_edge=not narrow,
    )
    for i, column in enumerate(grid.columns):
        name = _short_column(column) if narrow else column
        table.add_column(name, justify="left" if i == 0 else "center", no_wrap=True)
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


def _short_column(name: str) -> str:
    """ "Seat 1" -> "S1", "Envelope" -> "Env": a narrow grid's column names."""
    seat = re.fullmatch(r"Seat (\d+)", name)
    if seat:
        return f"S{seat.group(1)}"
    return {"Envelope": "Env", "Card": ""}.get(name, name)
