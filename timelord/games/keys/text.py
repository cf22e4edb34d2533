"""Sentences for Keys to the TARDIS: events told to one seat (made only from the event's data
as that seat sees it, so they cannot leak), and menu labels of offered actions."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from timelord.core import Action, View
from timelord.games.keys.actions import (
    AssaultPawn,
    CloseDoor,
    DiscardCard,
    ForgoBonus,
    MovePawn,
    OpenDoor,
    PlaceBarrier,
    PlaceCookie,
    PlacePandorica,
    PlaceTunnel,
    RemoveBarrier,
    StayPut,
    StepOff,
)
from timelord.games.keys.board import (
    BACK_IDS,
    BACK_NAMES,
    BARRIER,
    BONUS_CARD,
    COOKIE,
    CYBERMAN,
    EDGE_IDS,
    OPPOSITE,
    PANDORICA,
    SONIC,
    TARDIS_KEY,
    TUNNEL,
    Geometry,
)
from timelord.games.keys.state import KeysRules


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

    def __init__(self, game: KeysRules, data: Mapping[str, Any], seat: int | None) -> None:
        self.game = game
        self.d = data
        actor = data.get("actor")
        self.you = actor is not None and actor == seat
        self.who = "You" if self.you else self.name(actor)
        self.seat = seat
        self.tile = game.tables.geo.tile_name  # tiles named on this game's grid

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
        return f"{self.tile(tile)} ({colour} door)" if colour else self.tile(tile)


def _open(t: Teller) -> str:
    d = t.d
    return (
        f"{t.who} {t.v('open')} {t.door(d['tile'])} with {t.card(d['card'])}: "
        f"behind it is {article(back_name(d['back']))}"
    )


def _assault(t: Teller) -> str:
    d = t.d
    text = f"{t.who} {t.v('send')} a Cyberman Assault to push {t.whom(d['target'])}"
    text += f" to {t.tile(d['tile'])}"
    if d["teleported"]:
        text += ", and the Teleport there sends the pawn on to TARDIS Control"
    return text + _blocked(t)


def _move(t: Teller) -> str:
    d = t.d
    if d["entered"]:
        text = f"{t.who} {t.v('enter')} the TARDIS at {t.tile(d['tile'])}"
    else:
        text = f"{t.who} {t.v('move')} to {t.tile(d['tile'])}"
    if d["teleported"]:
        text += f" and {t.v('teleport')} to TARDIS Control"
    return text + _blocked(t)


def _blocked(t: Teller) -> str:
    """K-R6: a Teleport reached while another pawn holds Control does nothing; say so."""
    holder = t.d.get("teleport_blocked_by")
    if not isinstance(holder, int):
        return ""
    if holder == t.seat:
        return ": the Teleport there does nothing, as you hold TARDIS Control (K-R6)"
    return f": the Teleport there does nothing, as {t.name(holder)} holds TARDIS Control (K-R6)"


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
        f"{t.tile(t.d['tile'])} and {verb(winner == t.seat, 'escape')} the TARDIS"
    )


_TEXTS: dict[str, Callable[[Teller], str]] = {
    "discard": lambda t: f"{t.who} {t.v('discard')} {t.card(t.d['card'])} without using it",
    "open": _open,
    "close": lambda t: f"{t.who} {t.v('close')} {t.door(t.d['tile'])} with {t.card(t.d['card'])}",
    "remove_barrier": lambda t: (
        f"{t.who} {t.v('remove')} the Time Barrier on {t.tile(t.d['tile'])} "
        "with a Sonic Screwdriver"
    ),
    "barrier": lambda t: f"{t.who} {t.v('place')} a Time Barrier on {t.tile(t.d['tile'])}",
    "cookie": lambda t: (
        f"{t.who} {t.v('place')} a Jam Cookie on the Dalek Door {t.tile(t.d['tile'])}: "
        "it stays open and pawns may stand there"
    ),
    "pandorica": lambda t: (
        f"{t.who} {t.v('trap')} {t.whom(t.d['target'])} in the Pandorica "
        f"for {plural(t.d['turns'], 'turn')}"
    ),
    "assault": _assault,
    "tunnel": lambda t: (
        f"{t.who} {t.v('lay')} a Time Tunnel between {t.tile(t.d['tiles'][0])} "
        f"and {t.tile(t.d['tiles'][1])}"
    ),
    "move": _move,
    "step_off": lambda t: f"{t.who} {t.v('step')} off the board",
    "stay": lambda t: f"{t.who} {t.v('stay')} put",
    "forgo": lambda t: f"{t.who} {t.v('give')} up the TARDIS Key bonus",
    "bonus": lambda t: (
        f"{t.who} {t.v('land')} on a TARDIS Key ({t.tile(t.d['tile'])}): "
        f"{'you' if t.you else 'they'} may open or close any one door"
    ),
    "extra_turn": lambda t: f"{t.who} {t.v('earn')} an Extra Turn on {t.tile(t.d['tile'])}",
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


def event_text(game: KeysRules, kind: str, data: Mapping[str, Any], seat: int | None) -> str:
    make = _TEXTS.get(kind)
    teller = Teller(game, data, seat)
    return make(teller) if make is not None else f"{teller.who}: {kind}"


# -- menus -----------------------------------------------------------------------------

_EFFECT_OF = {
    RemoveBarrier: SONIC,
    PlaceBarrier: BARRIER,
    PlaceCookie: COOKIE,
    PlacePandorica: PANDORICA,
    AssaultPawn: CYBERMAN,
    PlaceTunnel: TUNNEL,
}


def action_card(game: KeysRules, action: Action) -> str | None:
    """The glossary name of the card (or tile) an action plays or uses."""
    content = game.content
    if isinstance(action, OpenDoor | CloseDoor | DiscardCard):
        if action.card == BONUS_CARD:
            return BACK_NAMES[TARDIS_KEY]
        index = game.tables.card_index.get(action.card) if isinstance(action.card, str) else None
        return content.card_names[index] if index is not None else None
    if isinstance(action, ForgoBonus):
        return BACK_NAMES[TARDIS_KEY]
    if isinstance(action, StepOff):
        return "Step off"
    effect = _EFFECT_OF.get(type(action))
    return content.card_names[content.card_of(effect)] if effect is not None else None


def _short_card(game: KeysRules, card_id: str) -> str:
    """ "yellow key", "Sonic Screwdriver", "the TARDIS Key bonus"."""
    content = game.content
    if card_id == BONUS_CARD:
        return "the TARDIS Key bonus"
    index = game.tables.card_index.get(card_id)
    if index is None:
        return card_id
    colour = content.card_colours[index]
    return f"{content.colour_ids[colour]} key" if colour >= 0 else content.card_names[index]


def _tile(geo: Geometry, view: View, tile: int, colour: bool = True) -> str:
    """ "c1", with what the seat knows of it: "c1 (red door, Dalek Door behind)"."""
    name = geo.tile_name(tile)
    notes = []
    if colour and view["colours"][tile]:
        notes.append(f"{view['colours'][tile]} door")
    back = view["backs"][tile]
    if back is not None and tile not in view["open"]:
        notes.append(f"{back_name(back)} behind")
    return f"{name} ({', '.join(notes)})" if notes else name


def _pawn_at(geo: Geometry, view: View, seat: int) -> str:
    """Where a seat's pawn stands, for a label (a move not offered may name a pawn that is
    off the board, or no seat at all)."""
    pawns = view["pawns"]
    where = pawns[seat] if 0 <= seat < len(pawns) else None
    return geo.tile_name(where) if where is not None else "off the board"


def action_label(game: KeysRules, view: View, action: Action) -> str:
    """A menu line for an offered action, from the seat's view only: tiles named as on the
    board, cards by colour ("open c1 with yellow key")."""
    a: Any = action
    geo = game.tables.geo
    name = geo.tile_name
    if isinstance(action, OpenDoor | CloseDoor):
        verb_ = "open" if isinstance(action, OpenDoor) else "close"
        is_key = _short_card(game, a.card).endswith(" key")
        return f"{verb_} {_tile(geo, view, a.tile, not is_key)} with {_short_card(game, a.card)}"
    if isinstance(action, DiscardCard):
        return f"discard {_short_card(game, a.card)} without using it"
    if isinstance(action, RemoveBarrier):
        return f"remove the Time Barrier on {name(a.tile)} with Sonic Screwdriver"
    if isinstance(action, PlaceBarrier):
        return f"put a Time Barrier on {_tile(geo, view, a.tile)}"
    if isinstance(action, PlaceCookie):
        # "the Dalek Door" only where this seat has seen one: a refused cookie on any other
        # door is named by its tile alone, so the label claims nothing about its back
        backs = view["backs"]
        seen = 0 <= a.tile < len(backs) and backs[a.tile] == "dalek"
        return f"put a Jam Cookie on {'the Dalek Door ' if seen else ''}{name(a.tile)}"
    if isinstance(action, PlacePandorica):
        return f"trap {game.seat_name(a.seat)} at {_pawn_at(geo, view, a.seat)} in the Pandorica"
    if isinstance(action, AssaultPawn):
        return (
            f"Cyberman Assault: push {game.seat_name(a.seat)} from {_pawn_at(geo, view, a.seat)} "
            f"to {name(a.tile)}"
        )
    if isinstance(action, PlaceTunnel):
        return f"lay a Time Tunnel {name(a.tile)}-{name(a.other)}"
    if isinstance(action, MovePawn):
        return _move_label(geo, view, a.tile)
    if isinstance(action, StepOff):
        return "step off the board"
    if isinstance(action, StayPut):
        return "stay put (end the turn)"
    if isinstance(action, ForgoBonus):
        return "give up the TARDIS Key bonus"
    return str(action)


def _move_label(geo: Geometry, view: View, tile: int) -> str:
    mover = view["to_move"]
    if not isinstance(mover, int) or not 0 <= tile < geo.cells:
        return f"move to {geo.tile_name(tile)}"
    entering = view["pawns"][mover] is None
    text = f"{'enter at' if entering else 'move to'} {geo.tile_name(tile)}"
    back = view["backs"][tile]
    goal = OPPOSITE[EDGE_IDS.index(view["edges"][mover])]
    if back == "teleport":
        text += " (Teleport: on to TARDIS Control if it is free)"
    elif tile in geo.edge_tiles[goal]:
        text += " (your goal edge: escape and win)"
    elif back in ("tardis-key", "extra-turn") and tile not in view["bonus_used"][mover]:
        text += f" ({back_name(back)})"
    return text
