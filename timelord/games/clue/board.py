"""The board: a square grid read from `data/board.toml` (or a variant's data file, e.g.
`data/tiny.toml`), and where a roll can take a mover.

Nodes are ints: 0 to `rooms - 1` the locations (in card order), 9 the TARDIS in the centre,
10 and up the walkable squares in reading order; a board with fewer than nine locations leaves
the numbers between unused, so every board numbers the TARDIS and its squares alike. A location
is one node however many squares it covers: a mover inside it is simply "in" it. Movement is
precomputed per start node and roll.
"""

from __future__ import annotations

import tomllib
from collections import deque
from collections.abc import Sequence
from functools import cache, lru_cache
from importlib import resources
from typing import Any, Final

TARDIS: Final = 9
FIRST_SQUARE: Final = 10
WALKABLE: Final = ".+?"


class Board:
    """Grid geometry, doors, secret passages and precomputed movement."""

    def __init__(self, grid: str, letters: Sequence[str], passages: Sequence[Any]) -> None:
        lines = [ln for ln in grid.strip("\n").split("\n")]
        width = max(len(ln) for ln in lines)
        self.lines = [ln.ljust(width, "#") for ln in lines]
        self.height, self.width = len(self.lines), width
        if len(letters) > TARDIS:
            raise ValueError(f"board: at most {TARDIS} locations, not {len(letters)}")
        self.rooms = len(letters)
        room_of = {ch: i for i, ch in enumerate(letters)}
        room_of["T"] = TARDIS
        #: the grid's uppercase letters: the room (location or TARDIS) each one draws
        self.room_of_letter: dict[str, int] = room_of
        self.node_at: dict[tuple[int, int], int] = {}
        self.cell: list[tuple[int, int]] = []
        self.intrigue: frozenset[int]
        intrigue: set[int] = set()
        doors: dict[int, list[tuple[int, int]]] = {r: [] for r in room_of.values()}
        for r, line in enumerate(self.lines):
            for c, ch in enumerate(line):
                if ch in WALKABLE:
                    node = FIRST_SQUARE + len(self.cell)
                    self.node_at[(r, c)] = node
                    self.cell.append((r, c))
                    if ch == "?":
                        intrigue.add(node)
                elif ch.isalpha():
                    if ch.upper() not in room_of:
                        raise ValueError(f"board square {r},{c}: unknown location letter {ch!r}")
                    if ch.islower():
                        doors[room_of[ch.upper()]].append((r, c))
        self.intrigue = frozenset(intrigue)
        #: door squares (row, column) of each location and the TARDIS, for legends
        self.doors = {room: tuple(cells) for room, cells in doors.items()}
        self.nodes = FIRST_SQUARE + len(self.cell)
        #: every node there is: the locations, the TARDIS and the squares
        self.places = frozenset((*range(self.rooms), TARDIS, *range(FIRST_SQUARE, self.nodes)))
        # exits[room]: squares next to its doors; adj[square]: walkable squares and rooms.
        self.exits: list[tuple[int, ...]] = [() for _ in range(FIRST_SQUARE)]
        self.adj: list[tuple[int, ...]] = [() for _ in range(self.nodes)]
        for room, cells in doors.items():
            if not cells:
                raise ValueError(f"board: location {room} has no door")
            out = sorted({n for rc in cells for n in self._walkable_around(rc)})
            self.exits[room] = tuple(out)
        entries: dict[int, set[int]] = {}
        for room, squares in enumerate(self.exits):
            for sq in squares:
                entries.setdefault(sq, set()).add(room)
        for node in range(FIRST_SQUARE, self.nodes):
            near = self._walkable_around(self.cell[node - FIRST_SQUARE])
            self.adj[node] = tuple(sorted(near)) + tuple(sorted(entries.get(node, ())))
        self.passages: list[tuple[int, ...]] = [() for _ in range(FIRST_SQUARE)]
        self.secret: frozenset[int]
        secret: set[int] = set()
        links: dict[int, set[int]] = {}
        for p in passages:
            a, b = p[0], p[1]
            links.setdefault(a, set()).add(b)
            links.setdefault(b, set()).add(a)
            if p[2] == "secret passage":
                secret.update((a, b))
        for room, to in links.items():
            self.passages[room] = tuple(sorted(to))
        self.secret = frozenset(secret)
        self._dest: dict[tuple[int, int, bool], tuple[int, ...]] = {}
        self._dist: dict[int, dict[int, int]] = {}
        self._secret: dict[int, tuple[int, ...]] = {}
        self._closer: dict[int, tuple[int, ...]] = {}
        #: Cache for the rules: (start, roll, intrigue) -> the Move actions to those nodes.
        self.actions: dict[tuple[int, int, bool], tuple[Any, ...]] = {}

    def _walkable_around(self, rc: tuple[int, int]) -> list[int]:
        r, c = rc
        out = []
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            node = self.node_at.get((rr, cc))
            if node is not None:
                out.append(node)
        return out

    def is_room(self, node: int) -> bool:
        """Whether `node` is a location or the TARDIS (entering one ends a move)."""
        return node < FIRST_SQUARE

    def distances(self, start: int) -> dict[int, int]:
        """Steps from `start` to every square and room, never passing through a room.

        Cached per start (moves and bots ask often): treat the answer as read-only."""
        got = self._dist.get(start)
        if got is None:
            got = self._dist[start] = self._bfs(start)
        return got

    def _bfs(self, start: int) -> dict[int, int]:
        dist: dict[int, int] = {start: 0}
        queue: deque[int] = deque()
        first = self.exits[start] if start < FIRST_SQUARE else self.adj[start]
        for n in first:
            if n not in dist:
                dist[n] = 1
                if n >= FIRST_SQUARE:
                    queue.append(n)
        while queue:
            sq = queue.popleft()
            d = dist[sq] + 1
            for n in self.adj[sq]:
                if n not in dist:
                    dist[n] = d
                    if n >= FIRST_SQUARE:
                        queue.append(n)
        return dist

    def destinations(self, start: int, roll: int, intrigue: bool) -> tuple[int, ...]:
        """Nodes a mover at `start` may end on with `roll` steps, in node order.

        Rooms and the TARDIS need no exact roll, nor do intrigue squares when the intrigue deck
        is in play; any other square needs the exact roll, spare steps going back and forth
        (rulings C-1, C-2). The start node itself is never a destination.
        """
        key = (start, roll, intrigue)
        got = self._dest.get(key)
        if got is None:
            out = []
            for node, d in self.distances(start).items():
                if node == start or d > roll:
                    continue
                if (
                    node < FIRST_SQUARE
                    or (intrigue and node in self.intrigue)
                    or (roll - d) % 2 == 0
                ):
                    out.append(node)
            got = self._dest[key] = tuple(sorted(out))
        return got

    def nearest_secret(self, start: int) -> tuple[int, ...]:
        """The locations with a secret passage nearest to `start` (other than itself)."""
        got = self._secret.get(start)
        if got is None:
            got = self._secret[start] = self._nearest_secret(start)
        return got

    def _nearest_secret(self, start: int) -> tuple[int, ...]:
        dist = self.distances(start)
        best: list[int] = []
        best_d = 1 << 30
        for room in sorted(self.secret):
            if room == start or room not in dist:
                continue
            d = dist[room]
            if d < best_d:
                best, best_d = [room], d
            elif d == best_d:
                best.append(room)
        return tuple(best)

    def closer_locations(self, start: int) -> tuple[int, ...]:
        """Where the Cloister Bell sends a mover at `start` (ruling CL-11): the locations
        nearest in rank that are closer (in board steps) to the TARDIS than `start`, i.e.
        those at the greatest distance that is still smaller than its own; empty in the
        TARDIS or when no location is closer."""
        got = self._closer.get(start)
        if got is None:
            dist = self.distances(TARDIS)
            mine = dist.get(start, 1 << 30)
            nearer = [d for r in range(self.rooms) if (d := dist.get(r, 1 << 30)) < mine]
            step = max(nearer, default=-1)
            got = tuple(r for r in range(self.rooms) if dist.get(r) == step)
            self._closer[start] = got
        return got

    def square_name(self, node: int) -> str:
        r, c = self.cell[node - FIRST_SQUARE]
        return f"square {cell_name(r, c)}"


def cell_name(row: int, column: int) -> str:
    """A grid cell as the render's rulers name it: column letter, row number ("h7")."""
    return f"{chr(ord('a') + column)}{row + 1}"


def _read(name: str) -> dict[str, Any]:
    text = resources.files("timelord.games.clue").joinpath("data", name).read_text("utf-8")
    return tomllib.loads(text)


@lru_cache(maxsize=1)
def cards_data() -> dict[str, Any]:
    """The parsed `data/cards.toml`."""
    return _read("cards.toml")


@lru_cache(maxsize=1)
def board_data() -> dict[str, Any]:
    """The parsed `data/board.toml`."""
    return _read("board.toml")


@cache
def variant_data(variant: str) -> dict[str, Any]:
    """The parsed data file of a research variant (`data/tiny.toml` for "tiny")."""
    return _read(f"{variant}.toml")


def build_board(data: dict[str, Any], locations: Sequence[str]) -> Board:
    """The board of `data` (its `grid` and `passage`s) with `locations`, named as in
    `data/cards.toml`, as rooms 0, 1, ... in that order (their letters from the card data)."""
    letter = {loc["name"]: loc["letter"] for loc in cards_data()["location"]}
    index = {name: i for i, name in enumerate(locations)}
    passages = [
        (index[p["between"][0]], index[p["between"][1]], p["kind"]) for p in data.get("passage", [])
    ]
    return Board(data["grid"], [letter[name] for name in locations], passages)


@lru_cache(maxsize=1)
def standard_board() -> Board:
    """The board of `data/board.toml`, with locations in card order."""
    return build_board(board_data(), [loc["name"] for loc in cards_data()["location"]])


@cache
def variant_board(variant: str) -> Board:
    """The board of a research variant's data file, with its locations in its order."""
    data = variant_data(variant)
    return build_board(data["board"], data["locations"])
