"""Pieces every board shares: action controls, cards, seats, the log, the fallback list of
legal actions, and the template environment every board is drawn with.

A board is built only from one seat's snapshot (`view`, `legal`, `events`), so nothing a
seat may not see can reach its page. Every control that performs an action carries
`data-action` (the action's JSON); an element that offers several actions carries
`data-actions` (a JSON list of `{"action", "label"}`) and the client turns a click on it into
a small menu of `data-action` buttons.

No HTML is written in Python: a board module turns the snapshot into plain data (these
helpers make the shared parts: attribute dicts, cards, seat chips) and a Jinja2 template
under `boards/templates/` draws it with autoescaping on, so every name, label and event
text reaches the page as text whatever it contains. Attributes travel as dicts and are
written by the `xmlattr` filter, which escapes their values.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from jinja2.ext import Extension

from timelord.core.action import Action
from timelord.core.game import Game, View
from timelord.core.people import people_numbered

#: One colour per seat, always shown with the seat's initial so colour is never the only cue.
SEAT_COLOURS = ("#c0392b", "#2471a3", "#1e8449", "#b7950b", "#7d3c98", "#ca6f1e")


class OneLine(Extension):
    """Joins a board template's source lines before it is compiled, so templates can be
    laid out on lines while a board stays one line of HTML (what clients and tests read);
    it touches the template's own text only, never the data drawn into it."""

    def preprocess(self, source: str, name: str | None, filename: str | None = None) -> str:
        return re.sub(r"\n[ \t]*", "", source)


#: The boards' templates: autoescaping always on, and a name a template misspells is an
#: error rather than an empty string.
TEMPLATES = Environment(
    loader=FileSystemLoader(Path(__file__).parent / "templates"),
    autoescape=True,
    undefined=StrictUndefined,
    extensions=[OneLine],
)

#: An element's attributes, written by the templates' `xmlattr` filter (values escaped).
Attrs = dict[str, str]
#: The data a template draws one part from.
Model = dict[str, Any]


def draw(template: str, **context: Any) -> str:
    """The HTML of a board template drawn from `context`."""
    return TEMPLATES.get_template(template).render(**context)


def action_json(action: Action) -> str:
    """The canonical JSON text of an action, as `data-action` carries it."""
    return json.dumps(action.to_json(), sort_keys=True, separators=(",", ":"))


@dataclass
class Snapshot:
    """A seat's snapshot, with its legal actions decoded and labelled for that seat."""

    game: Game
    seat: int | None
    view: View
    legal: list[Action]
    events: list[Mapping[str, Any]]
    to_move: int | None
    over: bool
    version: int = 0
    #: a finished game's {"scores", "winners"} as the server's engine computed them (None
    #: while playing, or when the caller has only a snapshot)
    result: Mapping[str, Any] | None = None
    labels: dict[str, str] = field(default_factory=dict)
    #: the table's name for each seat (people's own, "Bot (level)"), when the snapshot has
    #: them; else the game's names for its seats
    names: Sequence[str] | None = None
    #: per seat, whether a guest (a person without an account) sits there: their name is
    #: marked "(guest)" wherever the board shows it, so no guest passes for a player
    guests: Sequence[bool] = ()
    #: a replay's step: the seat is whose eyes the board shows, not "you", so a result names
    #: the winner instead of telling the viewer "you win"
    replay: bool = False
    #: what a board asks the player to confirm before an action is sent ("" for none): a
    #: move that cannot be taken back and may cost the game, such as a Clue accusation
    confirm: Callable[[Action], str] | None = None
    #: the name of the stand-in bot playing this seat for its person now (None when the
    #: person plays): the board then never calls that seat "You", since the bot decides
    stand_in: str | None = None
    #: the first event the log lists (0: the latest `event_log` limit of them)
    log_from: int = 0
    #: per seat, where a lesson's page plays the seat from its plan: the version at which the
    #: lesson ends (None: a seat of its own), so the board says the lesson is over then
    #: rather than wait for a seat nobody will play
    lesson_until: Sequence[int | None] = ()

    def lesson_over(self) -> bool:
        """Whether the seat to move is a lesson's, and the lesson's plan has run out."""
        seat = self.to_move
        ends = (
            self.lesson_until[seat] if seat is not None and seat < len(self.lesson_until) else None
        )
        return ends is not None and self.version >= ends

    def label(self, action: Action) -> str:
        """How the menu names `action` for this seat (from the view only)."""
        key = action_json(action)
        if key not in self.labels:
            self.labels[key] = self.told(self.game.action_label(self.view, action))
        return self.labels[key]

    def card_text(self, name: str | None) -> str:
        """The glossary text of a card or tile name, or '' when the data has none (what a
        player reads at a glance: its provenance is `card_source`, for the enlarged card)."""
        entry = self.game.glossary().get(name) if name else None
        return str(entry.get("text", "")) if entry else ""

    def card_source(self, name: str | None) -> str:
        """Whether the data of a card is confirmed or a reconstruction ('' when unknown)."""
        entry = self.game.glossary().get(name) if name else None
        return str(entry.get("source", "")) if entry else ""

    def confirm_text(self, action: Action) -> str:
        """The confirmation a board asks for before `action` is sent, or ''."""
        return self.confirm(action) if self.confirm is not None else ""

    def seat_name(self, seat: int) -> str:
        """'You' for this seat at its table while its person plays it; every seat by its
        name in a replay, and this seat by its name while the stand-in bot plays it."""
        return "You" if self.is_you(seat) else self.table_name(seat)

    def is_you(self, seat: int | None) -> bool:
        """Whether the board speaks of `seat` as "you": the viewer's own seat, played by
        the viewer (not a replay's seat, nor a seat the stand-in bot is playing)."""
        return seat is not None and seat == self.seat and not self.replay and not self.stand_in

    def table_name(self, seat: int) -> str:
        """The seat's one name at this table (never "You"), a guest's marked as one; a
        seat known only by the game's name for it is numbered from 1 ("Seat 1" for seat 0),
        as people count."""
        plain = self.game.seat_name(seat)
        if self.names is not None and 0 <= seat < len(self.names):
            name = self.names[seat]
            guest = seat < len(self.guests) and self.guests[seat]
            name = people_numbered(name) if name == plain else name
            return f"{name} (guest)" if guest else name
        return people_numbered(plain)

    def told(self, text: str) -> str:
        """An event's sentence with the game's seat names replaced by the table's, in one
        pass (one regex): a name put in is never read again, so "Seat 0" becoming "Seat 1"
        does not go on to become seat 1's name, and a person called like another seat's
        game name ("Seat 2") is not turned into that seat's player."""
        table = {self.game.seat_name(s): self.table_name(s) for s in range(self.game.players)}
        names = "|".join(re.escape(old) for old in sorted(table, key=len, reverse=True))
        # whole words only: the Card Game's "Red" must not change inside "Redemption"
        pattern = rf"(?<!\w)(?:{names})(?!\w)"
        return re.sub(pattern, lambda m: table[m.group(0)], text) if names else text

    @property
    def my_turn(self) -> bool:
        """Whether this seat may act now (a replay's snapshots offer no moves, so never;
        while the stand-in bot plays the seat, its person's moves are refused)."""
        return (
            not self.stand_in
            and self.seat is not None
            and self.to_move == self.seat
            and not self.over
            and bool(self.legal)
        )


#: Names the board element an action acts on (the `data-tile` of a tile or a Location).
Target = Callable[[Action], "str | None"]


def act_attrs(
    snap: Snapshot, actions: Sequence[Action], title: str = "", target: Target | None = None
) -> Attrs:
    """Attributes that make an element perform `actions`: `data-action` for one,
    `data-actions` (a menu) for several, nothing for none. With `target`, each menu entry
    names the board element it acts on, so the player may click that element instead, and
    `data-targets` lists them for outlining."""
    if not actions:
        return {}
    targets = [target(a) for a in actions] if target is not None else [None] * len(actions)
    outline = " ".join(dict.fromkeys(t for t in targets if t is not None))
    extra = {"data-targets": outline} if outline else {}
    if len(actions) == 1:
        label = snap.label(actions[0])
        hint = f"{title}: {label}" if title else label
        return {
            "data-action": action_json(actions[0]),
            "tabindex": "0",
            "role": "button",
            "aria-label": hint,
            **extra,
            **confirm_attrs(snap, actions[0]),
        }
    menu = []
    for a, t in zip(actions, targets, strict=True):
        item: dict[str, Any] = {"action": a.to_json(), "label": snap.label(a)}
        if t is not None:
            item["target"] = t
        confirm = snap.confirm_text(a)
        if confirm:
            item["confirm"] = confirm
        menu.append(item)
    hint = f"{title}: {len(actions)} choices" if title else f"{len(actions)} choices"
    return {
        "data-actions": json.dumps(menu, separators=(",", ":")),
        "tabindex": "0",
        "role": "button",
        "aria-haspopup": "menu",
        "aria-label": hint,
        **extra,
    }


def confirm_attrs(snap: Snapshot, action: Action) -> Attrs:
    """`data-confirm` for a control whose action the player must confirm first."""
    text = snap.confirm_text(action)
    return {"data-confirm": text} if text else {}


def button(snap: Snapshot, actions: Sequence[Action], label: str, title: str = "") -> Model:
    """A button performing `actions` (a menu for several), showing `label`."""
    return {"attrs": act_attrs(snap, actions, title), "label": label}


def action_buttons(snap: Snapshot, actions: Sequence[Action]) -> list[Model]:
    """One button per action, each labelled as the menu labels it."""
    return [button(snap, [a], snap.label(a)) for a in actions]


def claimer(legal: Sequence[Action]) -> Callable[[Callable[..., object]], list[Action]]:
    """A `take(pred)` that hands each legal action to the first board element claiming it, so
    no move gets two controls and what nobody claims is left for the generic controls."""
    used: set[int] = set()

    def take(pred: Callable[..., object]) -> list[Action]:
        out = []
        for i, action in enumerate(legal):
            if i not in used and pred(action):
                used.add(i)
                out.append(action)
        return out

    return take


def explain_attrs(snap: Snapshot, actions: Sequence[Action], probe: Action | None) -> Attrs:
    """For an element the seat cannot act on now, `data-explain`: the move a click on it
    would mean, which the client sends to the explain route to show the engine's reason. It
    is a button in the tab order (asking changes nothing), so the keyboard can ask too."""
    if actions or probe is None or snap.seat is None or snap.over:
        return {}
    return {
        "data-explain": action_json(probe),
        "tabindex": "0",
        "role": "button",
        "aria-describedby": "why",
    }


def seat_initial(snap: Snapshot, seat: int) -> str:
    """A seat's short mark beside its colour: ★ for you, else its name's initial (its
    number from 1 when names are "Seat N" or "Bot ..."); two seats whose names share an
    initial each add their number ("A1", "A2"), so no two marks at a table are alike."""
    if seat == snap.seat:
        return "★"
    mark = _plain_initial(snap, seat)
    players = snap.game.players
    alike = [s for s in range(players) if s != snap.seat and _plain_initial(snap, s) == mark]
    if len(alike) > 1 and not mark.isdigit():
        return f"{mark}{seat + 1}"
    return mark


#: names a seat's mark shows as its number: names that are not a person's own ("Seat 2",
#: "Bot (casual)", "Open seat" until someone takes it)
NUMBERED_NAMES = ("Seat", "Bot", "Open seat")


def _plain_initial(snap: Snapshot, seat: int) -> str:
    name = snap.table_name(seat)
    return str(seat + 1) if name.startswith(NUMBERED_NAMES) else name[:1].upper()


def seat_colour(seat: int) -> str:
    """The colour of a seat's marks."""
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def seat_chip(snap: Snapshot, seat: int, turn_mark: bool = True) -> Model:
    """A seat's colour dot with its initial and name; `turn_mark`: say "◀ to move" beside
    it when it is that seat's turn (once per seat: a seat's heading, not every mention)."""
    marked = turn_mark and seat == snap.to_move and not snap.over and not snap.lesson_over()
    return {
        "cls": "seat-chip to-move" if marked else "seat-chip",
        "colour": seat_colour(seat),
        "initial": seat_initial(snap, seat),
        "name": snap.seat_name(seat),
    }


def card(
    snap: Snapshot,
    name: str,
    kind: str,
    *,
    number: Any = None,
    corner: Any = None,
    text: str = "",
    actions: Sequence[Action] = (),
    target: Target | None = None,
    css: str = "",
    data: Mapping[str, Any] | None = None,
    probe: Action | None = None,
) -> Model:
    """One card in the shared anatomy: name on top, kind badge, big numbers in the corners,
    text below; the full text also on hover (title) and, enlarged with whether its data is
    confirmed or reconstructed, from its "i" button (a tap on a touch screen). Playable cards
    are controls; an unplayable one with a `probe` (the move playing it would be) can be
    asked why not."""
    full = text or snap.card_text(name)
    info = {"name": name, "kind": kind, "text": full, "source": snap.card_source(name)}
    attrs = act_attrs(snap, actions, name, target) | explain_attrs(snap, actions, probe)
    attrs |= {f"data-{k}": str(v) for k, v in (data or {}).items()}
    attrs["data-info"] = json.dumps(info, separators=(",", ":"))
    return {
        "back": False,
        "classes": f"card {css}" + (" playable" if actions else ""),
        "tip": f"{name} ({kind})" + (f": {full}" if full else ""),
        "attrs": attrs,
        "number": number,
        "corner": corner,
        "name": name,
        "kind": kind,
        "text": full,
    }


def card_back(label: str = "?", kind: str = "", css: str = "") -> Model:
    """A face-down card; shows its kind when the view knows it."""
    return {"back": True, "label": label, "kind": kind or "card", "css": css}


def legal_panel(snap: Snapshot) -> Model:
    """Every legal action as a numbered button, grouped by action type: the fallback for
    anything the board does not offer by clicking, and the keyboard's way in."""
    if not snap.legal:
        if snap.over:
            note = "The game is over."
        elif snap.seat is None:
            note = "You are watching."
        elif snap.stand_in:
            note = f"{snap.stand_in} is playing your seat: take it back to play."
        elif snap.to_move == snap.seat:
            note = "This seat was to move here."
        elif snap.lesson_over():
            note = "The lesson is over: the lobby has a normal game against a bot."
        else:
            note = f"Waiting for {_waiting(snap)}."
        return {"note": note, "groups": []}
    groups: dict[str, list[Action]] = {}
    for a in snap.legal:
        groups.setdefault(type(a).__name__, []).append(a)
    out = []
    n = 0
    for kind, actions in groups.items():
        items = []
        for a in actions:
            n += 1
            tip = snap.card_text(snap.game.action_card(a))
            attrs = {"class": "act", "data-key": str(n), "data-action": action_json(a)}
            attrs |= ({"title": tip} if tip else {}) | confirm_attrs(snap, a)
            items.append({"attrs": attrs, "key": n, "label": snap.label(a)})
        out.append({"title": _words(kind), "items": items})
    return {"note": "", "groups": out}


def _waiting(snap: Snapshot) -> str:
    return snap.table_name(snap.to_move) if snap.to_move is not None else "the game"


def _words(name: str) -> str:
    """'PlaceReserve' -> 'Place reserve'."""
    out = "".join(" " + c.lower() if c.isupper() else c for c in name).strip()
    return out[:1].upper() + out[1:]


def event_log(snap: Snapshot, limit: int = 60) -> Model:
    """The seat's latest events in words, newest first and highlighted, each numbered by
    its place in the whole game (the newest of 300 events is 300., not 60.); only those
    from the `log_from`-th on (a page that holds the sentences before asks for the rest)."""
    events = list(snap.events)[max(snap.log_from, len(snap.events) - limit) :]
    items = [{"kind": str(e.get("kind", "")), "text": _told(snap, e)} for e in reversed(events)]
    return {"items": items, "start": len(snap.events), "earlier": len(snap.events) - len(events)}


def _told(snap: Snapshot, event: Mapping[str, Any]) -> str:
    """An event's sentence for the log. An event the stand-in bot made for a person (the
    server marks it `"standin": true`) is told as anyone would read it and says who made
    it: on the person's own page "Ann plays ... — the stand-in played this for you", never
    "You play ...", which would credit the person with the bot's move; the events the
    person made stay "You ...", even while the stand-in plays on."""
    text = str(event.get("text", ""))
    data = event.get("data")
    # (a turn's heading is not a move: nobody made it)
    if event.get("standin") is True and event.get("kind") != "turn" and isinstance(data, Mapping):
        actor = data.get("actor")
        if (
            isinstance(actor, int)
            and not isinstance(actor, bool)
            and 0 <= actor < snap.game.players
        ):
            if actor == snap.seat:
                text = snap.game.event_text(str(event.get("kind", "")), data, None)
            who = "you" if actor == snap.seat and not snap.replay else snap.table_name(actor)
            return f"{snap.told(text)} — the stand-in played this for {who}"
    return snap.told(text)


def result_panel(
    snap: Snapshot, scores: Sequence[Any] | None, winners: Iterable[int], extra: str = ""
) -> Model | None:
    """The result screen: winners and scores as the server's result gives them, else as
    the view says (`scores`, `winners`); `extra`: a line of what the end revealed."""
    if not snap.over:
        return None
    if snap.result is not None:
        scores, winners = snap.result["scores"], snap.result["winners"]
    won = sorted(winners)
    if not won:
        headline = "nobody wins"
    elif len(won) == 1 and snap.is_you(won[0]):
        headline = "you win!"
    else:
        names = [snap.seat_name(w) for w in won]
        verb = "wins" if len(won) == 1 else "share the win"
        headline = f"{' and '.join(names)} {verb}"
    rows = []
    if scores is not None:
        rows = [
            {"chip": seat_chip(snap, i, turn_mark=False), "score": _number(v)}
            for i, v in enumerate(scores)
        ]
    data = json.dumps({"winners": won, "scores": list(scores) if scores is not None else None})
    return {
        "data": data,
        "headline": headline,
        "rows": rows,
        "has_scores": scores is not None,
        "extra": extra,
    }


def _number(value: Any) -> Any:
    """A score as a player reads it: 12, not 12.0."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def frame(
    snap: Snapshot, title: str, template: str, board: Model, result: Model | None = None
) -> str:
    """The fragment the client places on the page: status line, the board `template`
    drawn from `board`, result, log, actions."""
    if snap.over:
        status = "Game over"
    elif snap.stand_in and snap.to_move == snap.seat:
        status = f"{snap.stand_in} plays your turn"
    elif snap.my_turn:
        status = "Your turn"
    elif snap.lesson_over():
        status = "Lesson over"
    elif snap.to_move is not None:
        status = f"{snap.table_name(snap.to_move)} to move"
    else:
        status = ""
    model = {
        "my_turn": "true" if snap.my_turn else "false",
        "version": snap.version,
        "title": title,
        "status": status,
        "status_cls": "status your-turn" if snap.my_turn else "status",
        "to_move": "" if snap.to_move is None or snap.over else str(snap.to_move),
        "result": result,
        "log": event_log(snap),
        "legal": legal_panel(snap),
    }
    return draw(template, frame=model, board=board)


def plural(n: Any, word: str) -> str:
    """'1 card', '3 cards': a count as a player reads it."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def rule_link(snap: Snapshot, clause: str) -> Model:
    """A rule clause id as a link to its anchor on the game's rules page."""
    return {"href": f"/rules/{snap.game.id}#{clause}", "clause": clause}
