"""Sentences for Clue events, per seat, built only from the event data that seat sees.

`event_text(game, kind, data, seat)` is `ClueRules.event_text`: `data` is `Event.seen_by(seat)`,
so a card another seat was shown is simply absent (None) here and the sentence says "a card".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from timelord.games.clue.board import TARDIS
from timelord.games.clue.state import ClueRules

#: What each character power does, in a few words (the data's effect ids stay off screen).
POWER_NAMES = {
    "second-answer": "a second answer",
    "remote-rumour": "a rumour about any location",
    "peek": "a look at the card shown",
    "scan": "a look at a random card of another hand",
    "extra-turn": "an extra turn",
    "teleport": "a jump to any location",
}


def event_text(game: ClueRules, kind: str, data: Mapping[str, Any], seat: int | None) -> str:
    actor = data.get("actor")
    me = actor is not None and actor == seat

    def who(p: Any, start: bool = True) -> str:
        if p is not None and p == seat:
            return "You" if start else "you"
        return game.seat_name(p) if isinstance(p, int) else "The game"

    def whose(p: Any) -> str:
        return "your" if p == seat else f"{game.seat_name(p)}'s"

    def verb(you: str, other: str) -> str:
        return you if me else other

    name = who(actor)
    make = _TEXTS.get(kind)
    if make is None:
        return f"{name}: {kind}"
    return make(game, data, name, who, whose, verb)


Who = Callable[..., str]


def _card(game: ClueRules, card: Any) -> str:
    return game.card_name(card) if isinstance(card, int) else "a card"


def _node(game: ClueRules, node: Any) -> str:
    return game.node_name(node) if isinstance(node, int) else "somewhere"


def _roll(g: ClueRules, d: Mapping[str, Any], name: str, who: Who, whose: Who, v: Who) -> str:
    face, other = d["dice"]
    first = "?" if face == 0 else str(face)
    steps = d["steps"]
    return f"{name} {v('roll', 'rolls')} {first} and {other}: {steps} step{'s' * (steps != 1)}"


def _move(g: ClueRules, d: Mapping[str, Any], name: str, who: Who, whose: Who, v: Who) -> str:
    by, to = d["by"], d["to"]
    into = "into" if isinstance(to, int) and to <= TARDIS else "to"
    where = _node(g, to)
    if by == "dice":
        return f"{name} {v('move', 'moves')} {into} {where}"
    if by == "passage":
        return f"{name} {v('take', 'takes')} the passage to {where}"
    if by == "teleport":
        return f"{name} {v('jump', 'jumps')} into {where}"
    card = g.intrigue_names.get(by, by.replace("-", " ").title())
    return f"{card}: {name} {v('move', 'moves')} {into} {where}"


def _stay(g: ClueRules, d: Mapping[str, Any], name: str, who: Who, whose: Who, v: Who) -> str:
    return f"{name} {v('stay', 'stays')} in {_node(g, d['location'])} to make a rumour"


def _accuse(g: ClueRules, d: Mapping[str, Any], name: str, who: Who, whose: Who, v: Who) -> str:
    return f"{name} {v('begin', 'begins')} an accusation"


def _play(g: ClueRules, d: Mapping[str, Any], name: str, who: Who, whose: Who, v: Who) -> str:
    text = f"{name} {v('play', 'plays')} {g.intrigue_names.get(d['card'], 'an action card')}"
    if "steps" in d:
        text += f": {d['steps']} steps to move"
    return text


def _name(g: ClueRules, d: Mapping[str, Any], name: str, who: Who, whose: Who, v: Who) -> str:
    return f"{name} {v('name', 'names')} {_card(g, d['card'])}"


def _rumour(g: ClueRules, d: Mapping[str, Any], name: str, who: Who, whose: Who, v: Who) -> str:
    s, w, loc = (_card(g, c) for c in d["cards"])
    return f"{name} {v('suggest', 'suggests')} {s} with {_the(w)} in {loc}"


def _the(weapon: str) -> str:
    """ "the Sonic Screwdriver", but "The Moment" and "Strax's Gun" as they are."""
    return weapon if weapon.startswith("The ") or "'s " in weapon else f"the {weapon}"


def _cannot(g: ClueRules, d: Mapping[str, Any], name: str, who: Who, whose: Who, v: Who) -> str:
    return f"{name} cannot answer"


def _unanswered(g: ClueRules, d: Mapping[str, Any], name: str, who: Who, whose: Who, v: Who) -> str:
    return f"Nobody can answer {whose(d['actor'])} rumour"


def _show(g: ClueRules, d: Mapping[str, Any], name: str, who: Who, whose: Who, v: Who) -> str:
    to = who(d["asker"], start=False)
    if d["card"] is None:
        return f"{name} {v('show', 'shows')} {to} a card"
    return f"{name} {v('show', 'shows')} {to} {_card(g, d['card'])}"


def _peek(g: ClueRules, d: Mapping[str, Any], name: str, who: Who, whose: Who, v: Who) -> str:
    seen = "" if d["card"] is None else f": {_card(g, d['card'])}"
    return f"{name} {v('see', 'sees')} the card {who(d['shower'], start=False)} showed{seen}"


def _side(g: ClueRules, d: Mapping[str, Any], name: str, who: Who, whose: Who, v: Who) -> str:
    seen = "" if d["card"] is None else f": {_card(g, d['card'])}"
    return f"{name} {v('look', 'looks')} at side card {d['index'] + 1}{seen}"


def _scan(g: ClueRules, d: Mapping[str, Any], name: str, who: Who, whose: Who, v: Who) -> str:
    seen = "" if d["card"] is None else f" and {v('see', 'sees')} {_card(g, d['card'])}"
    return f"{name} {v('scan', 'scans')} {whose(d['target'])} hand{seen}"


def _power(g: ClueRules, d: Mapping[str, Any], name: str, who: Who, whose: Who, v: Who) -> str:
    what = POWER_NAMES.get(d["power"], "a power")
    return f"{name} {v('use', 'uses')} {g.suspects[d['character']]}'s power: {what}"


def _extra(g: ClueRules, d: Mapping[str, Any], name: str, who: Who, whose: Who, v: Who) -> str:
    return f"{name} will take another turn after this one"


def _decline(g: ClueRules, d: Mapping[str, Any], name: str, who: Who, whose: Who, v: Who) -> str:
    what = {
        "draw": "to draw an intrigue card",
        "peek": "to see the card shown",
        "second-answer": "a second answer",
    }.get(d["what"], "")
    return f"{name} {v('decline', 'declines')} {what}".rstrip()


def _draw(g: ClueRules, d: Mapping[str, Any], name: str, who: Who, whose: Who, v: Who) -> str:
    card = d["card"]
    if d.get("empty"):
        return f"The intrigue pile is empty: {name} {v('draw', 'draws')} nothing"
    if card == "pocketwatch":
        return f"{name} {v('draw', 'draws')} a Pocketwatch ({d['watches']} drawn so far)"
    if d.get("kept"):
        kept = "an action card" if card is None else g.intrigue_names.get(card, "an action card")
        return f"{name} {v('draw', 'draws')} {kept} and {v('keep', 'keeps')} it"
    return f"{name} {v('draw', 'draws')} {g.intrigue_names.get(card, 'an action card')}"


def _accusation(g: ClueRules, d: Mapping[str, Any], name: str, who: Who, whose: Who, v: Who) -> str:
    s, w, loc = (_card(g, c) for c in d["cards"])
    text = f"{name} {v('accuse', 'accuses')} {s} with {_the(w)} in {loc}: "
    text += "right!" if d["right"] else "wrong"
    envelope = d.get("envelope")
    if envelope and not d["right"]:
        text += "; the envelope holds " + ", ".join(_card(g, c) for c in envelope)
    return text


def _out(g: ClueRules, d: Mapping[str, Any], name: str, who: Who, whose: Who, v: Who) -> str:
    why = "a wrong accusation" if d["reason"] == "accused" else "the eighth Pocketwatch"
    text = f"{name} {v('are', 'is')} out ({why})"
    if d.get("hand"):
        text += "; cards face up: " + ", ".join(_card(g, c) for c in d["hand"])
    return text


def _turn(g: ClueRules, d: Mapping[str, Any], name: str, who: Who, whose: Who, v: Who) -> str:
    what = "extra turn" if d.get("extra") else "turn"
    return f"{'Your' if name == 'You' else name + chr(39) + 's'} {what} (turn {d['turn']})"


def _end(g: ClueRules, d: Mapping[str, Any], name: str, who: Who, whose: Who, v: Who) -> str:
    return f"{name} {v('end', 'ends')} the turn"


def _over(g: ClueRules, d: Mapping[str, Any], name: str, who: Who, whose: Who, v: Who) -> str:
    winner = d["winner"]
    result = "nobody solved it" if winner is None else f"{who(winner, start=False)} solved it"
    envelope = ", ".join(_card(g, c) for c in d["envelope"])
    return f"Game over: {result}. The envelope held {envelope}"


_TEXTS: dict[str, Callable[..., str]] = {
    "roll": _roll,
    "move": _move,
    "stay": _stay,
    "accuse": _accuse,
    "play": _play,
    "name": _name,
    "rumour": _rumour,
    "cannot-answer": _cannot,
    "unanswered": _unanswered,
    "show": _show,
    "peek": _peek,
    "side": _side,
    "scan": _scan,
    "power": _power,
    "extra-turn": _extra,
    "decline": _decline,
    "draw": _draw,
    "accusation": _accusation,
    "out": _out,
    "turn": _turn,
    "end-turn": _end,
    "game-over": _over,
}
