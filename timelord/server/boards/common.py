"""Pieces every board shares: escaping, action controls, cards, seats, the log and the
fallback list of legal actions.

A board is built only from one seat's snapshot (`view`, `legal`, `events`), so nothing a
seat may not see can reach its page. Every control that performs an action carries
`data-action` (the action's JSON); an element that offers several actions carries
`data-actions` (a JSON list of `{"action", "label"}`) and the client turns a click on it into
a small menu of `data-action` buttons.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any

from timelord.core.action import Action
from timelord.core.game import Game, View

#: One colour per seat, always shown with the seat's initial so colour is never the only cue.
SEAT_COLOURS = ("#c0392b", "#2471a3", "#1e8449", "#b7950b", "#7d3c98", "#ca6f1e")


def esc(value: Any) -> str:
    """HTML-escape any value as text (quotes too, so it is safe inside attributes)."""
    return escape(str(value), quote=True)


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
    #: a replay's step: the seat is whose eyes the board shows, not "you", so a result names
    #: the winner instead of telling the viewer "you win"
    replay: bool = False
    #: what a board asks the player to confirm before an action is sent ("" for none): a
    #: move that cannot be taken back and may cost the game, such as a Clue accusation
    confirm: Callable[[Action], str] | None = None

    def label(self, action: Action) -> str:
        """How the menu names `action` for this seat (from the view only)."""
        key = action_json(action)
        if key not in self.labels:
            self.labels[key] = self.game.action_label(self.view, action)
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
        """'You' for this seat at its table; every seat by its name in a replay."""
        return "You" if seat == self.seat and not self.replay else self.table_name(seat)

    def table_name(self, seat: int) -> str:
        """The seat's one name at this table (never "You")."""
        if self.names is not None and 0 <= seat < len(self.names):
            return self.names[seat]
        return self.game.seat_name(seat)

    def told(self, text: str) -> str:
        """An event's sentence with the game's seat names replaced by the table's."""
        if self.names is None:
            return text
        pairs = [(self.game.seat_name(s), self.table_name(s)) for s in range(len(self.names))]
        for old, new in sorted(pairs, key=lambda p: -len(p[0])):
            if old != new:
                text = text.replace(old, new)
        return text

    @property
    def my_turn(self) -> bool:
        """Whether this seat may act now (a replay's snapshots offer no moves, so never)."""
        return (
            self.seat is not None
            and self.to_move == self.seat
            and not self.over
            and bool(self.legal)
        )


#: Names the board element an action acts on (the `data-tile` of a tile or a Location).
Target = Callable[[Action], "str | None"]


def act_attrs(
    snap: Snapshot, actions: Sequence[Action], title: str = "", target: Target | None = None
) -> str:
    """Attributes that make an element perform `actions`: `data-action` for one,
    `data-actions` (a menu) for several, nothing for none. With `target`, each menu entry
    names the board element it acts on, so the player may click that element instead, and
    `data-targets` lists them for outlining."""
    if not actions:
        return ""
    targets = [target(a) for a in actions] if target is not None else [None] * len(actions)
    outline = " ".join(dict.fromkeys(t for t in targets if t is not None))
    extra = f' data-targets="{esc(outline)}"' if outline else ""
    if len(actions) == 1:
        label = snap.label(actions[0])
        hint = f"{title}: {label}" if title else label
        return (
            f' data-action="{esc(action_json(actions[0]))}" tabindex="0" role="button"'
            f' aria-label="{esc(hint)}"{extra}{confirm_attr(snap, actions[0])}'
        )
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
    return (
        f' data-actions="{esc(json.dumps(menu, separators=(",", ":")))}" tabindex="0"'
        f' role="button" aria-haspopup="menu" aria-label="{esc(hint)}"{extra}'
    )


def confirm_attr(snap: Snapshot, action: Action) -> str:
    """`data-confirm` for a control whose action the player must confirm first, else ''."""
    text = snap.confirm_text(action)
    return f' data-confirm="{esc(text)}"' if text else ""


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


def explain_attr(snap: Snapshot, actions: Sequence[Action], probe: Action | None) -> str:
    """For an element the seat cannot act on now, `data-explain`: the move a click on it
    would mean, which the client sends to the explain route to show the engine's reason. It
    is a button in the tab order (asking changes nothing), so the keyboard can ask too."""
    if actions or probe is None or snap.seat is None or snap.over:
        return ""
    return (
        f' data-explain="{esc(action_json(probe))}" tabindex="0" role="button"'
        ' aria-describedby="why"'
    )


def seat_initial(snap: Snapshot, seat: int) -> str:
    """A seat's one-character mark beside its colour: ★ for you, else its name's initial
    (its number when names are "Seat N")."""
    if seat == snap.seat:
        return "★"
    name = snap.table_name(seat)
    return str(seat) if name.startswith(("Seat", "Bot")) else name[:1]


def seat_chip(snap: Snapshot, seat: int, extra: str = "", turn_mark: bool = True) -> str:
    """A seat's colour dot with its initial and name; `turn_mark`: say "◀ to move" beside
    it when it is that seat's turn (once per seat: a seat's heading, not every mention)."""
    name = snap.seat_name(seat)
    colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
    initial = esc(seat_initial(snap, seat))
    marked = turn_mark and seat == snap.to_move and not snap.over
    cls = "seat-chip to-move" if marked else "seat-chip"
    return (
        f'<span class="{cls}"><span class="dot" style="background:{colour}">{initial}</span>'
        f"{esc(name)}{extra}</span>"
    )


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
) -> str:
    """One card in the shared anatomy: name on top, kind badge, big numbers in the corners,
    text below; the full text also on hover (title) and, enlarged with whether its data is
    confirmed or reconstructed, from its "i" button (a tap on a touch screen). Playable cards
    are controls; an unplayable one with a `probe` (the move playing it would be) can be
    asked why not."""
    full = text or snap.card_text(name)
    attrs = act_attrs(snap, actions, name, target) + explain_attr(snap, actions, probe)
    info = {"name": name, "kind": kind, "text": full, "source": snap.card_source(name)}
    extra = "".join(f' data-{k}="{esc(v)}"' for k, v in (data or {}).items())
    extra += f' data-info="{esc(json.dumps(info, separators=(",", ":")))}"'
    classes = f"card {css}" + (" playable" if actions else "")
    num = f'<span class="num">{esc(number)}</span>' if number is not None else ""
    num2 = f'<span class="num2">{esc(corner)}</span>' if corner is not None else ""
    body = f'<span class="card-text">{esc(full)}</span>' if full else ""
    tip = f"{name} ({kind})" + (f": {full}" if full else "")
    return (
        f'<div class="{classes}" title="{esc(tip)}"{attrs}{extra}>{num}{num2}'
        f'<span class="card-name">{esc(name)}</span><span class="badge">{esc(kind)}</span>'
        f'{body}<button type="button" class="card-info" tabindex="-1" data-card-info'
        f' aria-label="{esc(name)}: the whole card">i</button></div>'
    )


def card_back(label: str = "?", kind: str = "", css: str = "") -> str:
    """A face-down card; shows its kind when the view knows it."""
    return (
        f'<div class="card back {esc(css)}" title="face-down {esc(kind or "card")}">'
        f"{esc(label)}</div>"
    )


def legal_panel(snap: Snapshot) -> str:
    """Every legal action as a numbered button, grouped by action type: the fallback for
    anything the board does not offer by clicking, and the keyboard's way in."""
    if not snap.legal:
        if snap.over:
            return '<p class="muted">The game is over.</p>'
        if snap.seat is None:
            return '<p class="muted">You are watching.</p>'
        if snap.to_move == snap.seat:
            return '<p class="muted">This seat was to move here.</p>'
        return f'<p class="muted">Waiting for {esc(_waiting(snap))}.</p>'
    groups: dict[str, list[Action]] = {}
    for a in snap.legal:
        groups.setdefault(type(a).__name__, []).append(a)
    parts = []
    n = 0
    for kind, actions in groups.items():
        items = []
        for a in actions:
            n += 1
            card_name = snap.game.action_card(a)
            tip = snap.card_text(card_name)
            title = f' title="{esc(tip)}"' if tip else ""
            items.append(
                f'<li><button class="act" data-key="{n}" data-action="{esc(action_json(a))}"'
                f"{title}{confirm_attr(snap, a)}><kbd>{n}</kbd> {esc(snap.label(a))}"
                "</button></li>"
            )
        parts.append(
            f"<details open><summary>{esc(_words(kind))} ({len(actions)})</summary>"
            f'<ul class="acts">{"".join(items)}</ul></details>'
        )
    return "".join(parts)


def _waiting(snap: Snapshot) -> str:
    return snap.table_name(snap.to_move) if snap.to_move is not None else "the game"


def _words(name: str) -> str:
    """'PlaceReserve' -> 'Place reserve'."""
    out = "".join(" " + c.lower() if c.isupper() else c for c in name).strip()
    return out[:1].upper() + out[1:]


def event_log(snap: Snapshot, limit: int = 60) -> str:
    """The seat's latest events in words, newest first and highlighted, each numbered by
    its place in the whole game (the newest of 300 events is 300., not 60.)."""
    events = list(snap.events)[-limit:]
    if not events:
        return '<p class="muted">Nothing has happened yet.</p>'
    items = []
    for i, e in enumerate(reversed(events)):
        cls = ' class="newest"' if i == 0 else ""
        text = snap.told(str(e.get("text", "")))
        items.append(f'<li{cls} data-kind="{esc(e.get("kind", ""))}">{esc(text)}</li>')
    more = len(snap.events) - len(events)
    earlier = f'<p class="muted">({more} earlier events)</p>' if more else ""
    return f'<ol class="log" reversed start="{len(snap.events)}">{"".join(items)}</ol>{earlier}'


def result_panel(snap: Snapshot, scores: Sequence[Any] | None, winners: Iterable[int]) -> str:
    """The result screen: winners and scores as the server's result gives them, else as
    the view says (`scores`, `winners`)."""
    if not snap.over:
        return ""
    if snap.result is not None:
        scores, winners = snap.result["scores"], snap.result["winners"]
    won = sorted(winners)
    if not won:
        headline = "nobody wins"
    elif won == [snap.seat] and not snap.replay:
        headline = "you win!"
    else:
        names = [snap.seat_name(w) for w in won]
        verb = "wins" if len(won) == 1 else "share the win"
        headline = f"{' and '.join(names)} {verb}"
    rows = ""
    if scores is not None:
        rows = "".join(
            f"<tr><td>{seat_chip(snap, i, turn_mark=False)}</td><td>{esc(_number(s))}</td></tr>"
            for i, s in enumerate(scores)
        )
        rows = f'<table class="scores"><tr><th>Seat</th><th>Score</th></tr>{rows}</table>'
    data = esc(json.dumps({"winners": won, "scores": list(scores) if scores is not None else None}))
    return (
        f'<section class="result" data-result="{data}"><h2>Game over: {esc(headline)}</h2>'
        f"{rows}</section>"
    )


def _number(value: Any) -> Any:
    """A score as a player reads it: 12, not 12.0."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def frame(snap: Snapshot, title: str, board: str, result: str = "") -> str:
    """The fragment the client places on the page: status line, board, result, log, actions."""
    if snap.over:
        status = "Game over"
    elif snap.my_turn:
        status = "Your turn"
    elif snap.to_move is not None:
        status = f"{snap.table_name(snap.to_move)} to move"
    else:
        status = ""
    to_move = "" if snap.to_move is None or snap.over else str(snap.to_move)
    turn_cls = "status your-turn" if snap.my_turn else "status"
    return (
        f'<div class="frame" data-my-turn="{str(snap.my_turn).lower()}"'
        f' data-version="{snap.version}">'
        f'<div class="topline"><span class="game-title">{esc(title)}</span>'
        f'<span class="{turn_cls}" data-to-move="{esc(to_move)}" aria-live="polite">'
        f"{esc(status)}</span></div>"
        f'<div class="main"><div class="board-area">{result}{board}</div>'
        f'<aside class="side"><h3>Log</h3><div class="log-box" tabindex="-1" id="log">'
        f"{event_log(snap)}</div><h3>All moves</h3>"
        f'<div class="legal" id="legal">{legal_panel(snap)}</div></aside></div></div>'
    )


def plural(n: Any, word: str) -> str:
    """'1 card', '3 cards': a count as a player reads it."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def rule_link(snap: Snapshot, clause: str) -> str:
    """A rule clause id as a link to its anchor on the game's rules page."""
    href = f"/rules/{esc(snap.game.id)}#{esc(clause)}"
    return f'<a class="rule" href="{href}" target="_blank">({esc(clause)})</a>'


def pre(text: str) -> str:
    """A game's text picture, for boards that show it."""
    return f'<pre class="text-view">{esc(text)}</pre>'
