"""Sentences for Keys to the TARDIS: events told to one seat (made only from the event's data
as that seat sees it, so they cannot leak), and menu labels of offered actions."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from timelord.games.keys.board import BACK_IDS, BACK_NAMES, BONUS_CARD, tile_name

if TYPE_CHECKING:
    from timelord.games.keys.game import KeysGame


def article(noun: str) -> str:
    """ "a Dalek Door", "an Open Door"."""
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


def plural(n: int, noun: str) -> str:
    """ "1 card", "3 cards"."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def verb(you: bool, word: str) -> str:
    """The verb agreeing with "You" or with a seat's name ("stay"/"stays", "push"/"pushes")."""
    if you:
        return word
    if word.endswith(("sh", "ch", "go", "s")):
        return word + "es"
    if word.endswith("y") and word[-2:-1] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


def back_name(back: str) -> str:
    return BACK_NAMES[BACK_IDS.index(back)] if back in BACK_IDS else back


class Teller:
    """One event told to one seat: who did it, in the seat's own words."""

    def __init__(self, game: KeysGame, data: Mapping[str, Any], seat: int | None) -> None:
        self.game = game
        self.d = data
        actor = data.get("actor")
        self.you = actor is not None and actor == seat
        self.who = "You" if self.you else self.name(actor)
        self.seat = seat

    def name(self, seat: Any) -> str:
        return self.game.seat_name(seat) if isinstance(seat, int) else "nobody"

    def whom(self, seat: Any) -> str:
        return "you" if seat is not None and seat == self.seat else self.name(seat)

    def v(self, word: str) -> str:
        return verb(self.you, word)

    def card(self, card_id: str) -> str:
        if card_id == BONUS_CARD:
            return "the TARDIS Key bonus"
        content = self.game.content
        if card_id in content.card_ids:
            return article(content.card_names[content.card_ids.index(card_id)])
        return card_id

    def door(self, tile: int) -> str:
        colour = self.d.get("colour")
        return f"{tile_name(tile)} ({colour} door)" if colour else tile_name(tile)


def _open(t: Teller) -> str:
    d = t.d
    return (
        f"{t.who} {t.v('open')} {t.door(d['tile'])} with {t.card(d['card'])}: "
        f"behind it is {article(back_name(d['back']))}"
    )


def _assault(t: Teller) -> str:
    d = t.d
    text = f"{t.who} {t.v('send')} a Cyberman Assault to push {t.whom(d['target'])}"
    text += f" to {tile_name(d['tile'])}"
    if d["teleported"]:
        text += ", and the Teleport there sends the pawn on to TARDIS Control"
    return text


def _move(t: Teller) -> str:
    d = t.d
    if d["entered"]:
        text = f"{t.who} {t.v('enter')} the TARDIS at {tile_name(d['tile'])}"
    else:
        text = f"{t.who} {t.v('move')} to {tile_name(d['tile'])}"
    if d["teleported"]:
        text += f" and {t.v('teleport')} to TARDIS Control"
    return text


def _turn(t: Teller) -> str:
    whose = "Your" if t.you else f"{t.who}'s"
    extra = " (Extra Turn)" if t.d["extra"] else ""
    return f"Round {t.d['round']}: {whose} turn{extra}"


def _draw(t: Teller) -> str:
    card = t.d.get("card")
    return f"{t.who} {t.v('draw')} {t.card(card) if card else 'a card'}"


def _end(t: Teller) -> str:
    winner = t.d["winner"]
    if winner is None:
        return f"Game over: the round limit is reached after {t.d['rounds']} rounds; nobody wins"
    who = "You" if winner == t.seat else t.name(winner)
    return (
        f"Game over: {who} {verb(winner == t.seat, 'reach')} the far edge at "
        f"{tile_name(t.d['tile'])} and {verb(winner == t.seat, 'escape')} the TARDIS"
    )


_TEXTS: dict[str, Callable[[Teller], str]] = {
    "discard": lambda t: f"{t.who} {t.v('discard')} {t.card(t.d['card'])} without using it",
    "open": _open,
    "close": lambda t: f"{t.who} {t.v('close')} {t.door(t.d['tile'])} with {t.card(t.d['card'])}",
    "remove_barrier": lambda t: (
        f"{t.who} {t.v('remove')} the Time Barrier on {tile_name(t.d['tile'])} "
        "with a Sonic Screwdriver"
    ),
    "barrier": lambda t: f"{t.who} {t.v('place')} a Time Barrier on {tile_name(t.d['tile'])}",
    "cookie": lambda t: (
        f"{t.who} {t.v('place')} a Jam Cookie on the Dalek Door {tile_name(t.d['tile'])}: "
        "it stays open and pawns may stand there"
    ),
    "pandorica": lambda t: (
        f"{t.who} {t.v('trap')} {t.whom(t.d['target'])} in the Pandorica "
        f"for {plural(t.d['turns'], 'turn')}"
    ),
    "assault": _assault,
    "tunnel": lambda t: (
        f"{t.who} {t.v('lay')} a Time Tunnel between {tile_name(t.d['tiles'][0])} "
        f"and {tile_name(t.d['tiles'][1])}"
    ),
    "move": _move,
    "step_off": lambda t: f"{t.who} {t.v('step')} off the board",
    "stay": lambda t: f"{t.who} {t.v('stay')} put",
    "forgo": lambda t: f"{t.who} {t.v('give')} up the TARDIS Key bonus",
    "bonus": lambda t: (
        f"{t.who} {t.v('land')} on a TARDIS Key ({tile_name(t.d['tile'])}): "
        f"{'you' if t.you else 'they'} may open or close any one door"
    ),
    "extra_turn": lambda t: f"{t.who} {t.v('earn')} an Extra Turn on {tile_name(t.d['tile'])}",
    "freed": lambda t: f"{t.who} {'are' if t.you else 'is'} freed from the Pandorica",
    "turn": _turn,
    "no_move": lambda t: (
        f"{t.who} {'have' if t.you else 'has'} no card to play and cannot move: the turn passes"
    ),
    "draw": _draw,
    "reshuffle": lambda t: (
        f"The draw pile is empty: the discard pile ({plural(t.d['count'], 'card')}) "
        "is shuffled into a new one"
    ),
    "end": _end,
}


def event_text(game: KeysGame, kind: str, data: Mapping[str, Any], seat: int | None) -> str:
    make = _TEXTS.get(kind)
    teller = Teller(game, data, seat)
    return make(teller) if make is not None else f"{teller.who}: {kind}"
