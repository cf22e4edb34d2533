"""A person at the terminal: sees the seat's table, picks a move from a menu that fits the
screen, and may type a move that is not offered to be told why not.

The agent sees only its view. To explain a refusal it asks whoever runs the game through a
`WhyNot` callable (the play loop passes one that asks the state); an agent used elsewhere
gets none and says it cannot tell.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from timelord.agents.base import Agent
from timelord.cli import readable
from timelord.cli.irreversible import confirm_text
from timelord.cli.menu import (
    Entry,
    Menu,
    SpaceIndex,
    find_in_space,
    index_space,
    make_entries,
    matches,
    pairs,
    words,
)
from timelord.cli.panels import Grid, panel_for
from timelord.cli.rules import clause_text
from timelord.cli.terminal import BARE, FULL, NO_LEGEND, News, Screen, latest_news
from timelord.core import Action, ConfigError, Game, GameError, IllegalAction, Rng, View

#: the referee's answer for a move: None if it is allowed now, else the error refusing it
WhyNot = Callable[[Action], GameError | None]

#: lines of a screen besides the menu's moves: its title, its footer and the prompt
_MENU_MARGIN = 3
#: the fewest moves a menu page shows, however small the screen
_MIN_PAGE = 3
#: the fewest lines of news kept beside the prompt when the screen is short
_MIN_NEWS = 2

_HELP = """\
Type the number of a move. When moves come in groups, a number opens its group.
Type words to find moves: a tile (c1), a card name (sonic), a kind (discard).
Type a move that is not offered (e.g. `open c1 with yellow key`) to hear why not.
info NAME (or help NAME): the full text of any card, tile or power, in hand or not.
glossary: the full text of every card, tile and power of the game.
n / p: next / previous page   b: back to all moves   v: the whole table again   q: quit"""
_HINT_HELP = "hint: the coach's best moves for you now, from what you can see"
#: seconds the coach thinks for a hint at the terminal
HINT_SECONDS = 2.0

#: commands that look a name up in the game's glossary (`help` alone is the help)
_INFO = frozenset({"info", "help", "glossary"})


class QuitGame(Exception):
    """The person asked to leave the game."""


class HumanAgent(Agent):
    """Asks at the screen's prompt; bad input gets a clear message and the prompt again."""

    name = "human"

    def __init__(self, game: Game, screen: Screen | None = None) -> None:
        super().__init__(game)
        self.screen = screen or Screen()
        self._panel = panel_for(game)
        #: whether panels show deduced odds (Clue's notebook): off, since for a person they
        #: give the game away; 'odds' at the prompt turns them on
        self.show_odds = False
        self._space: SpaceIndex | bool | None = False  # False: not indexed yet
        #: whether this game allows hints (`timelord play --hints`)
        self.hints = False
        #: whether the person has seen the table's legend (it is then left out; `v` shows it)
        self._legend_seen = False

    def act(self, view: View, legal: Sequence[Action], rng: Rng) -> Action:
        return self.decide(view, legal, None)

    def decide(
        self,
        view: View,
        legal: Sequence[Action],
        why_not: WhyNot | None,
        news: Sequence[News] = (),
        note: str = "",
    ) -> Action:
        """Show the table, what happened since the person last looked (`news`), a `note`
        (a lesson's instruction) and the menu, fitted to the terminal so that all of them
        are in sight with the prompt; return the move the person picks."""
        entries = make_entries(self.game, view, legal)
        menu = self._lay_out(view, entries, news, note)
        while True:
            try:
                answer = self.screen.ask("Your move (number, words, or ? for help): ").strip()
            except EOFError as exc:
                raise QuitGame from exc
            command = answer.lower()
            head, _, rest = command.partition(" ")
            if command in {"q", "quit", "exit"}:
                raise QuitGame
            if command in {"?", "h", "help"}:
                self.screen.say(_HELP)
                if self._panel is not None:
                    self.screen.say("odds: the notebook's odds from the deducer off or on")
                if self.hints:
                    self.screen.say(_HINT_HELP)
            elif command == "hint":
                self._hint(view, legal)
            elif head in _INFO and (rest.strip() or head != "help"):
                self.info(rest)
            elif command in {"v", "view"}:
                self.show_table(view)
                self._say_note(note)
                self._show_menu(menu)
            elif command == "odds" and self._panel is not None:
                self.show_odds = not self.show_odds
                self.screen.say(f"Notebook odds {'on' if self.show_odds else 'off'}.")
                menu = self._lay_out(view, entries, (), note)
            elif command in {"n", "next", "p", "prev"}:
                if not menu.turn(1 if command[0] == "n" else -1):
                    self.screen.say("There is no page that way.")
                self._show_menu(menu)
            elif command in {"", "b", "back"}:
                menu.top()
                self._show_menu(menu)
            else:
                if answer.isascii() and answer.isdigit() and len(answer) <= 6:
                    chosen = self._pick(menu, int(answer))
                else:
                    chosen = self._find(view, menu, answer, why_not)
                if chosen is not None and self._confirmed(chosen.action):
                    return chosen.action
                if chosen is not None:
                    self.screen.say("Not made. Choose another move, or the same again.")

    def _confirmed(self, action: Action) -> bool:
        """Whether the person confirms a move that cannot be taken back (yes for the others):
        one keystroke must not end their game."""
        question = confirm_text(self.game, action)
        if not question:
            return True
        self.screen.say(question, self.game, style="bold")
        try:
            answer = self.screen.ask("Make this move? Type yes to confirm, anything else not: ")
        except EOFError as exc:
            raise QuitGame from exc
        return answer.strip().lower() in {"y", "yes"}

    def info(self, typed: str) -> None:
        """The whole text of the glossary entries `typed` names (all of them when it names
        none): what a menu line or a hand cuts short, for cards in hand or not."""
        glossary = self.game.glossary()
        if not glossary:
            self.screen.say("This game has no card texts to show.")
            return
        query = words(typed)
        names = list(glossary)
        if query:
            exact = [n for n in names if words(n) == query]
            names = exact or [n for n in names if matches(query, frozenset(words(n)))]
            if not names:
                self.screen.say(
                    f"No card, tile or power is called {typed.strip()!r}; "
                    "type glossary for them all."
                )
                return
        for name in names:
            self.screen.say(glossary_line(self.game.id, name, glossary[name]), self.game)
            if glossary[name].get("source"):
                self.screen.say(f"    ({glossary[name]['source']})", style="dim")

    def _hint(self, view: View, legal: Sequence[Action]) -> None:
        """The coach's top moves with their values, from this seat's view only."""
        if not self.hints:
            self.screen.say("Hints are off in this game (start it with timelord play --hints).")
            return
        from timelord.agents.coach import hint

        self.screen.say("The coach is thinking...")
        for line in hint_lines(hint(self.game, view, legal, HINT_SECONDS)):
            self.screen.say(line)

    def show_table(self, view: View, level: int = FULL) -> int:
        """Show the seat's table (the whole of it unless `level` says less); the lines it
        took on the screen."""
        return self.screen.table(self.game, view, *self._table_args(view), level)

    def _table_args(self, view: View) -> tuple[str, Grid | None]:
        seat = view.get("seat")
        who = (
            "spectator"
            if not isinstance(seat, int)
            else f"{readable.seat_name(self.game, seat)} (you)"
        )
        grid = self._panel(self.game, view, self.show_odds) if self._panel else None
        return f"{self.game.id}: {who}", grid

    def _lay_out(self, view: View, entries: list[Entry], news: Sequence[News], note: str) -> Menu:
        """Draw the table, the news, the note and a menu page so that they fit the terminal
        together with the prompt: the table in the fullest form that leaves room for a few
        moves (its legend only until seen once; on a small terminal compact), then as much
        news as is left room for. Returns the menu, paged to fit. Where even the compact
        table leaves no room (a tiny terminal), the table scrolls, never the menu."""
        screen = self.screen
        title, grid = self._table_args(view)
        fixed = _MENU_MARGIN + screen.lines_of(note)
        wanted = min(len(entries), _MIN_PAGE) + min(sum(n.height() for n in news), _MIN_NEWS)
        first = NO_LEGEND if self._legend_seen else FULL
        for level in range(first, BARE + 1):
            parts = screen.table_parts(self.game, view, title, grid, level)
            board = screen.measure(parts)
            if screen.height - fixed - board >= wanted:
                break
        self._legend_seen = True  # shown now, or never fitting: `v` shows it
        room = screen.height - fixed - board
        # the news gets up to half the room left, the menu the rest (grouped to fit)
        told = min(sum(n.height() for n in news), max(_MIN_NEWS, room // 2))
        if told and told + _MIN_PAGE > room:  # a small terminal: the latest news, one line
            told = max(1, room - _MIN_PAGE)
        menu = Menu(entries, max(_MIN_PAGE, room - told))
        extra = menu.header(screen.width).count("\n")  # a card's text under the title
        if extra and menu.size - extra >= _MIN_PAGE:
            menu = Menu(entries, menu.size - extra)
        page = min(menu.size, len(menu.items)) + extra
        if screen.rich:
            # an event wider than the terminal takes more than its one line
            tall = screen.lines_of
            news = latest_news(news, max(told, room - page), lambda t: tall(f"  • {t}"))
        for part in parts:
            screen.show(part)
        screen.news(self.game, news)
        self._say_note(note)
        self._show_menu(menu)
        return menu

    def _say_note(self, note: str) -> None:
        if note:
            self.screen.say(note, self.game)

    def _show_menu(self, menu: Menu) -> None:
        width = self.screen.width
        footer = "n/p: pages  " if menu.pages > 1 else ""
        footer += "b: all moves  v: whole table  words: find a move  ?: help"
        self.screen.choices(self.game, menu.header(width), menu.lines(width), footer)

    def _pick(self, menu: Menu, number: int) -> Entry | None:
        try:
            picked = menu.pick(number)
        except IndexError:
            self.screen.say(f"{number} is not on the list: type 1 to {len(menu.items)}.")
            return None
        if picked is None:  # a group opened
            self._show_menu(menu)
        return picked

    def _find(self, view: View, menu: Menu, typed: str, why_not: WhyNot | None) -> Entry | None:
        """Typed words: an offered move's exact text picks it; words that find offered moves
        list them; words that find none are read as a move that is not offered."""
        query = words(typed)
        if not query:
            self.screen.say(f"{typed!r} is not a move: type a number, or words of a move.")
            return None
        for entry in menu.entries:
            if query in (words(entry.label), words(str(entry.action))):
                return entry
        if menu.filter(query):
            self._show_menu(menu)
            return None
        self._explain(view, typed, query, why_not)
        return None

    def _explain(self, view: View, typed: str, query: list[str], why_not: WhyNot | None) -> None:
        """Why the move the player typed is not offered: the engine's reason and clause, the
        move named as the menus name moves (`Game.action_label`, made from the view)."""
        if self._space is False:
            self._space = index_space(self.game)
        index = self._space
        if not isinstance(index, list):
            self.screen.say(
                f"No offered move matches {typed!r}. (This game cannot look up moves it does "
                "not offer; type b to see all moves.)"
            )
            return
        candidates = find_in_space(index, query)
        if not candidates:
            self.screen.say(f"{typed!r} is no move this game ever allows; type b to see all moves.")
            self._rules_named(query)
            return
        if why_not is None:
            name = readable.label(self.game, view, candidates[0].action)
            self.screen.say(f"{name} is not offered now.")
            return
        shown_rules: set[str] = set()
        for candidate in candidates[:3]:
            name = readable.label(self.game, view, candidate.action)
            refusal = why_not(candidate.action)
            if refusal is None:
                # offered after all, under another name: let the player pick it
                self.screen.say(f"{name} is offered: type its words or number.")
                continue
            reason = refusal.reason if isinstance(refusal, IllegalAction) else str(refusal)
            rule = refusal.rule if isinstance(refusal, IllegalAction) else ""
            self.screen.say(
                f"Not allowed: {name}: {reason}" + (f" [{rule}]" if rule else ""), self.game
            )
            if rule and rule not in shown_rules:
                shown_rules.add(rule)
                self._quote(rule)
        if len(candidates) > 3:
            self.screen.say(f"({len(candidates) - 3} more moves match; type more words.)")

    def _rules_named(self, query: list[str]) -> None:
        """The glossary entries whose names the typed words hold (`episode`): the rule that
        says why such a move is never offered."""
        typed = frozenset(query)
        # a name with a number after it names a card ("Special 3"), not the rule
        cards = {pair.split(" ")[0] for pair in pairs(query)}
        for name, entry in self.game.glossary().items():
            named = words(name)
            if named and set(named) <= typed and not set(named) & cards:
                self.screen.say(glossary_line(self.game.id, name, entry), self.game)

    def _quote(self, rule: str) -> None:
        """The clause a refusal names, so the player need not look it up."""
        try:
            text = clause_text(self.game.id, rule)
        except ConfigError:
            return  # a ruling (docs/rulings.md) or a clause the rulebook file lacks
        lines = text.splitlines()
        if lines and lines[0].startswith("("):
            lines = lines[1:]
        self.screen.say("\n".join(f"    {line}" for line in lines[:6]), style="dim")


def hint_lines(moves: Sequence[dict[str, Any]]) -> list[str]:
    """A hint's moves as the terminal prints them: value, 95% interval and verdict, and a
    plain warning when the coach could not tell the moves apart (a short or loaded budget)."""
    from timelord.agents.coach import VERDICT_WORDS, interval_text

    lines = []
    for i, move in enumerate(moves, 1):
        verdict = VERDICT_WORDS[move.get("verdict", "unsure")]
        lines.append(
            f"  {i}. {move['label']}: {100 * move['value']:.0f}% expected win share, "
            f"95% interval {interval_text(move)}; {verdict}"
        )
    if any(move.get("verdict", "unsure") == "unsure" for move in moves):
        lines.append(
            "  The coach is unsure: it could not tell these moves apart with the samples it "
            "had, so their order may be noise."
        )
    return lines


def glossary_line(game_id: str, name: str, entry: Mapping[str, str]) -> str:
    """`Name: text [clause]`, the name said once (a text that starts with it is not repeated).
    A card's clause is its own (`C-card-collecting-on-debts`), not another card's id that
    shares the rule (`C-card-captain-jack`), wherever the rulebook names it."""
    text = entry.get("text", "")
    if text.lower().startswith(f"{name.lower()}:"):
        text = text[len(name) + 1 :].lstrip()
    rule = entry.get("rule") or entry.get("clause") or ""
    prefix, card, _ = rule.partition("-card-")
    if card:
        own = f"{prefix}-card-{re.sub(r'[^a-z0-9]+', '-', name.lower()).strip('-')}"
        try:
            clause_text(game_id, own)
            rule = own
        except ConfigError:
            pass  # the rulebook names this card under the other id only
    return f"{name}: {text}" + (f" [{rule}]" if rule else "")
