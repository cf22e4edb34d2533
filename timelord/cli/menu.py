"""The move menu: offered moves named for the seat, grouped when there are many, filtered by
what the player types, paged so a page always fits the terminal; and reading a typed move that
is not offered, so the player can be told why not.

Matching is by words: the typed words must all appear in a move's text (its label, `str`,
and the name of the card it uses); a word of three letters or more may be the start of one
("yel" for yellow). Little words ("with", "the") are ignored, so `open c1 with yellow key`
finds `open c1 with key-yellow`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from timelord.cli import readable
from timelord.core import Action, Game, View

_WORD = re.compile(r"[a-z0-9]+")
_STOP = frozenset({"a", "an", "the", "with", "for", "to", "of", "on", "at", "its", "and", "from"})
_TILE = re.compile(r"^[a-z]\d{1,2}$")


def words(text: str) -> list[str]:
    """Lower-case words of `text` (letters and digits), the little words left out."""
    return [w for w in _WORD.findall(text.lower()) if w not in _STOP]


def pairs(found: Sequence[str]) -> set[str]:
    """Each word with the number after it ("foe 8"): a card named by suit and value is one
    thing, so `Foe 8, Plot 3` must not match a move with a Foe 3 and a Plot 8."""
    return {f"{w} {n}" for w, n in pairwise(found) if w.isalpha() and n.isdigit()}


def terms(text: str) -> frozenset[str]:
    """What typed words are matched against: the words of `text` and its word-number pairs."""
    found = words(text)
    return frozenset(found) | pairs(found)


def matches(query: Sequence[str], target: frozenset[str]) -> bool:
    """Whether every query word is a word of `target`, or starts one (three letters or more),
    and every word-number pair of the query (`foe 8`) is one of `target`'s pairs."""
    for q in query:
        if q in target:
            continue
        if len(q) >= 3 and q.isalpha() and any(t.startswith(q) for t in target):
            continue
        return False
    for pair in pairs(query):
        name, number = pair.split(" ")
        if pair in target:
            continue
        if len(name) >= 3 and any(
            t.endswith(f" {number}") and t.startswith(name) and " " in t for t in target
        ):
            continue
        return False
    return True


@dataclass(frozen=True)
class Entry:
    """One offered move as the menu shows it."""

    action: Action
    label: str
    kind: str
    card: str | None
    card_text: str
    words: frozenset[str]
    #: what the move is worth, where the menu can say it (an episode's VP)
    note: str = ""

    @property
    def tile(self) -> str | None:
        """The first board square its label names (`c1`), for grouping by target tile."""
        for w in _WORD.findall(self.label.lower()):
            if _TILE.match(w):
                return w
        return None

    @property
    def pattern(self) -> str:
        """The label with its squares blanked ("open ... with key-green"): moves alike but
        for where they go, for grouping by card when the game names no card."""
        return " ".join("..." if _TILE.match(w) else w for w in self.label.split())


def kind_name(action: Action) -> str:
    """A readable name of the move's kind: OpenDoor -> "Open door"."""
    name = type(action).__name__
    spaced = re.sub(r"(?<!^)(?=[A-Z])", " ", name).lower()
    return spaced[:1].upper() + spaced[1:]


def make_entries(game: Game, view: View, legal: Sequence[Action]) -> list[Entry]:
    glossary = game.glossary()
    entries = []
    for action in legal:
        label = readable.label(game, view, action)
        card = game.action_card(action)
        text = (glossary.get(card) or {}).get("text", "") if card is not None else ""
        kind = kind_name(action)
        found = terms(f"{label} {action} {card or ''} {kind}")
        entries.append(Entry(action, label, kind, card, text, found, worth(game, action)))
    return entries


def worth(game: Game, action: Action) -> str:
    """What a move scores, said beside it where the menu can tell: an Episodes episode
    scores its Threat's total when its Defenders beat it (E-5.2)."""
    if game.id == "episodes" and type(action).__name__ == "PlayEpisode":
        from timelord.games.episodes.cards import DEFENDERS, THREAT

        fps = action.fps  # type: ignore[attr-defined]
        defence, threat = sum(fps[i] for i in DEFENDERS), sum(fps[i] for i in THREAT)
        # (an episode is offered only when its Defenders beat its Threat)
        return f"{threat} VP" if defence > threat else ""
    return ""


@dataclass
class Group:
    title: str
    entries: list[Entry]


def _partition(entries: Sequence[Entry], key: Callable[[Entry], str]) -> list[Group]:
    groups: dict[str, Group] = {}
    for e in entries:
        title = key(e)
        groups.setdefault(title, Group(title, [])).entries.append(e)
    return list(groups.values())


_GROUPINGS: tuple[Callable[[Entry], str], ...] = (
    lambda e: f"{e.kind}: {e.card}" if e.card else e.kind,
    lambda e: e.kind,
    lambda e: e.card or e.kind,
    lambda e: e.pattern,
    lambda e: e.tile or e.kind,
)


def group_entries(entries: Sequence[Entry], size: int) -> list[Group | Entry] | None:
    """Moves in groups (by kind and card, kind, card, or target tile) when they do not fit on
    one page: the first grouping whose groups fit, with the smallest groups opened in place
    while the page has room, so few moves need two steps. None: no grouping helps (or none
    is needed), so the moves are paged as they are. On a page too small for any grouping, the
    fewest groups are paged instead, when they halve the pages at least."""
    if len(entries) <= size:
        return None
    fewest: list[Group] | None = None
    for key in _GROUPINGS:
        groups = _partition(entries, key)
        if 2 <= len(groups) <= size:
            return _open_small(groups, size)
        if len(groups) >= 2 and (fewest is None or len(groups) < len(fewest)):
            fewest = groups
    if fewest is not None and len(fewest) <= len(entries) // 2:
        # no grouping fits one page (a small terminal): the fewest groups, paged, still
        # take fewer pages than the moves would
        return list(fewest)
    return None


def _open_small(groups: list[Group], size: int) -> list[Group | Entry]:
    room = size - len(groups)
    opened: set[int] = set()
    for i in sorted(range(len(groups)), key=lambda i: len(groups[i].entries)):
        extra = len(groups[i].entries) - 1
        if extra > room:
            break
        room -= extra
        opened.add(i)
    out: list[Group | Entry] = []
    for i, group in enumerate(groups):
        if i in opened:
            out.extend(group.entries)
        else:
            out.append(group)
    return out


@dataclass
class Menu:
    """What the player is looking at: all moves, one group, or the moves a filter found; and
    which page of it. Numbers count through the whole list, so they mean one thing on
    every page."""

    entries: list[Entry]
    #: lines a page may take
    size: int
    title: str = ""
    groups: list[Group | Entry] | None = None
    shown: list[Entry] = field(default_factory=list)
    page: int = 0

    def __post_init__(self) -> None:
        self.size = max(3, self.size)
        self.top()

    def top(self) -> None:
        """Back to every move (grouped if they are many)."""
        self.title = f"Your moves ({len(self.entries)})"
        self.groups = group_entries(self.entries, self.size)
        self.shown = list(self.entries)
        self.page = 0

    def open_group(self, group: Group) -> None:
        self.title = f"{group.title} ({len(group.entries)})"
        self.groups = group_entries(group.entries, self.size)
        self.shown = list(group.entries)
        self.page = 0

    def filter(self, query: Sequence[str]) -> list[Entry]:
        """Show only the moves that match the typed words; the matches, maybe none."""
        found = [e for e in self.entries if matches(query, e.words)]
        if found:
            self.title = f"Moves matching {' '.join(query)!r} ({len(found)})"
            self.groups = group_entries(found, self.size)
            self.shown = found
            self.page = 0
        return found

    @property
    def items(self) -> Sequence[Group | Entry]:
        return self.groups if self.groups is not None else self.shown

    @property
    def pages(self) -> int:
        return max(1, -(-len(self.items) // self.size))

    def turn(self, step: int) -> bool:
        """Next (+1) or previous (-1) page; False when there is none."""
        page = self.page + step
        if not 0 <= page < self.pages:
            return False
        self.page = page
        return True

    def pick(self, number: int) -> Entry | None:
        """The move numbered `number`, or None after opening the group so numbered; raises
        IndexError for a number not in the list."""
        items = self.items
        if not 1 <= number <= len(items):
            raise IndexError(number)
        item = items[number - 1]
        if isinstance(item, Group):
            self.open_group(item)
            return None
        return item

    def lines(self, width: int) -> list[str]:
        """This page, numbered; card texts beside moves that use a card (once per group when
        the whole list uses the same card)."""
        items = self.items
        first = self.page * self.size
        page = items[first : first + self.size]
        digits = len(str(len(items)))
        one_card = len({e.card for e in self.shown}) == 1 and self.groups is None
        out = []
        for n, item in enumerate(page, first + 1):
            if isinstance(item, Group):
                count = len(item.entries)
                text = f"{item.title}  [{count} move{'s' if count > 1 else ''}]"
            else:
                text = item.label
                if item.note:  # what it scores stays in sight: the label is cut instead
                    head, tail = f"  {n:>{digits}}. ", f"  ({item.note})"
                    kind, colon, rest = text.partition(": ")
                    if len(head + text + tail) > width and colon:
                        text = f"{kind.split()[-1]}: {rest}"  # "episode: Doctor 9, ..."
                    out.append(_clip(head + text, width - len(tail)) + tail)
                    continue
                if item.card_text and not one_card:
                    text += f"  ({item.card}: {item.card_text})"
            out.append(_clip(f"  {n:>{digits}}. {text}", width))
        return out

    def header(self, width: int) -> str:
        """The list's title, with the card text when every move in it uses the same card."""
        title = self.title
        if self.pages > 1:
            title += f", page {self.page + 1} of {self.pages}"
        if self.groups is None and self.shown and len({e.card for e in self.shown}) == 1:
            e = self.shown[0]
            if e.card_text:
                title += f"\n  {e.card}: {e.card_text}"
        return "\n".join(_clip(t, width) for t in title.split("\n"))


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(10, width - 3)] + "..."


@dataclass(frozen=True)
class Candidate:
    """A move of the game's action space that typed words name."""

    action: Action
    text: str
    extra: int  # words of the move the player did not type: fewer is a closer match


#: (action, its text, its words) for every move of a game's action space
SpaceIndex = list[tuple[Action, str, frozenset[str]]]


def index_space(game: Game) -> SpaceIndex | None:
    """Words of every move `game.action_space()` holds; None if the game has no fixed space."""
    try:
        space = game.action_space()
    except NotImplementedError:
        return None
    index = []
    for action in space:
        text = str(action)
        card = game.action_card(action) or ""
        index.append((action, text, terms(f"{text} {card} {kind_name(action)}")))
    return index


def find_in_space(index: SpaceIndex, query: Sequence[str], limit: int = 5) -> list[Candidate]:
    """The moves of the space that the typed words name most closely (several when they are
    equally close, at most `limit`)."""
    typed = set(query) | pairs(query)
    found = [
        Candidate(action, text, len(target - typed))
        for action, text, target in index
        if matches(query, target)
    ]
    if not found:
        return []
    best = min(c.extra for c in found)
    return [c for c in found if c.extra == best][:limit]
