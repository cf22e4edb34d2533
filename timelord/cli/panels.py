"""Extra things a game shows a person at the terminal besides its view (Clue's notebook).

A panel is a `Grid` (rows and columns of short cells) that the terminal draws as a Rich table
or as aligned plain text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from timelord.core import Game, View


@dataclass(frozen=True)
class Row:
    cells: tuple[str, ...]
    #: a section title spanning the row (only the first cell is used)
    heading: bool = False


@dataclass
class Grid:
    """A small table: the first column names the row, the others hold short cells."""

    #: a cell that is certain (this player holds the card / it is in the envelope)
    HELD = "X"
    #: a cell ruled out for certain
    OUT = "-"

    title: str
    columns: tuple[str, ...]
    rows: list[Row] = field(default_factory=list)
    note: str = ""
    #: the heading of a block of the game's own picture that this grid replaces
    replaces: str = ""

    def plain(self) -> str:
        """Aligned text for logs and pipes."""
        body = [r.cells for r in self.rows if not r.heading]
        widths = [
            max([len(self.columns[i]), *(len(cells[i]) for cells in body)])
            for i in range(len(self.columns))
        ]

        def line(cells: tuple[str, ...]) -> str:
            first = cells[0].ljust(widths[0])
            rest = (c.center(w) for c, w in zip(cells[1:], widths[1:], strict=True))
            return "  ".join([first, *rest]).rstrip()

        out = [self.title, line(self.columns)]
        for row in self.rows:
            out.append(row.cells[0] if row.heading else line(row.cells))
        if self.note:
            out.append(self.note)
        return "\n".join(out)


#: panel(game, view, with_odds) -> grid, or None when the view has nothing to show
Panel = Callable[[Game, View, bool], Grid | None]


def percent(count: int, worlds: int) -> str:
    """A chance as a cell: exact certainty and exclusion as marks, and never "0%" for a card
    that is merely unlikely ("<1%"), nor "100%" for one that is merely likely (">99%")."""
    if count <= 0:
        return Grid.OUT
    if count >= worlds:
        return Grid.HELD
    share = 100 * count / worlds
    if share < 1:
        return "<1%"
    if share > 99:
        return ">99%"
    return f"{share:.0f}%"


def clue_notebook(game: Game, view: View, with_odds: bool) -> Grid | None:
    """Clue's notebook: one row per card, one column per player and one for the envelope.

    With odds, the deducer's exact chances (counted over every deal consistent with the view);
    without, only what the seat has seen for itself."""
    from timelord.games.clue.deduction import deduce
    from timelord.games.clue.game import ClueGame
    from timelord.games.clue.notebook import certain, knowledge_from_view

    seat = view.get("seat")
    if seat is None or not isinstance(game, ClueGame):
        return None
    players = game.players
    two_player = game.variant == "two-player"
    columns = ["Card"]
    columns += ["You" if p == seat else f"Seat {p + 1}" for p in range(players)]
    columns += ["Aside"] if two_player else []
    columns.append("Envelope")
    grid = Grid("Notebook", tuple(columns), replaces="Notebook")
    sure = certain(view)
    odds = None
    if with_odds and view["envelope"] is None:
        odds = deduce(knowledge_from_view(view))
    for title, category in zip(("Who?", "What?", "Where?"), view["categories"], strict=True):
        grid.rows.append(Row((title,), heading=True))
        for card in category:
            name = game.card_names[card]
            if odds is not None and odds.worlds:
                worlds = odds.worlds
                cells = [percent(n, worlds) for n in odds.holder_count[card]]
                if two_player:
                    cells.append(percent(odds.aside_count.get(card, 0), worlds))
                cells.append(percent(odds.envelope_count[card], worlds))
            else:
                cells = _seen_cells(sure.get(card), seat, players, two_player)
            grid.rows.append(Row((name, *cells)))
    grid.note = (
        f"{Grid.HELD} certain, {Grid.OUT} ruled out"
        + (", % the deducer's odds ('odds' turns them off)" if odds is not None else "")
        + ("" if odds is not None or view["envelope"] is not None else " ('odds' turns odds on)")
    )
    return grid


def _seen_cells(where: str | None, seat: int, players: int, two_player: bool) -> list[str]:
    """Cells from what the seat has seen itself: `certain`'s "hand", "seat N", "face up",
    "aside" or "envelope"; blank where it does not know."""
    n = players + (1 if two_player else 0) + 1
    if where is None:
        return [""] * n
    column = {"hand": seat, "envelope": n - 1, "aside": players}.get(where)
    if where.startswith("seat "):
        column = int(where.split()[1])
    cells = [Grid.OUT] * n
    if column is not None:
        cells[column] = Grid.HELD
    return cells


_PANELS: dict[str, Panel] = {"clue": clue_notebook}


def panel_for(game: Game) -> Panel | None:
    """The game's extra panel, or None; `with_odds` turns deduced probabilities on or off."""
    return _PANELS.get(game.id)
