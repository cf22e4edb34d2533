"""The games' texts as the terminal shows them to people. The games number seats from 0
and their pictures keep the engine's card ids; every event, move label, picture and seat
name passes through here on its way to the screen, so a seat has the number the web
boards give it (from 1) and no internal number reaches a person."""

from __future__ import annotations

import re
from collections.abc import Sequence

from timelord.core import Action, Game, InvalidSeat, View
from timelord.core.events import Event
from timelord.core.people import people_numbered

#: a pawn on a Keys tile, after the tile's door, back and overlay letters (and the bold
#: that the coloured picture puts round it) or after the TARDIS Control's "(CC)"
_KEYS_PAWN = re.compile(r"((?:[#.][?A-Za-z][ *c+]|\(CC\))(?:\x1b\[1m)?)(\d)")
#: a Card Game card's engine id after its name ("Sontarans[104]"), a Location's index before
#: it ("[3] Trenzalore") or after it ("declaring Enemies at Leadworth [1]"), and a hand
#: line's id ("  19: Demons Run"): the menus name cards and Locations by name, so these
#: numbers only stood between a person and the names
_CARD_IDS = re.compile(r"(?<=\S)\[\d+\]| \[\d+\]$|^(\s*)\[\d+\] |^(\s+)\d+: ", re.M)
#: the Keys legend's range of pawn numbers ("pawn    0-1: the seat ...")
_KEYS_PAWNS = re.compile(r"^(\s*pawn\s+)(\d)-(\d)(?=:)", re.M)


def seat_name(game: Game, seat: int) -> str:
    """The game's name of `seat` as people number it ("Seat 1" for seat 0)."""
    return people_numbered(game.seat_name(seat))


def label(game: Game, view: View, action: Action) -> str:
    """A move's menu label for the seat of `view`, seats numbered from 1."""
    return people_numbered(game.action_label(view, action))


def told(game: Game, events: Sequence[Event], seat: int | None) -> list[str]:
    """What `seat` is told of `events`, one sentence each, seats numbered from 1."""
    return [people_numbered(t["text"]) for t in game.tell(events, seat)]


def picture(game: Game, text: str) -> str:
    """A game's picture of the table with its seats numbered from 1, the pawn numbers on
    the Keys board too (each pawn is its seat's number), and no Card Game card ids."""
    if game.id == "card-game":
        text = _CARD_IDS.sub(lambda m: m.group(1) or m.group(2) or "", text)
    if game.id == "keys":
        text = _KEYS_PAWN.sub(lambda m: f"{m.group(1)}{int(m.group(2)) + 1}", text)
        text = _KEYS_PAWNS.sub(
            lambda m: f"{m.group(1)}{int(m.group(2)) + 1}-{int(m.group(3)) + 1}", text
        )
    return people_numbered(text)


def record_seat(game: Game, seat: int | None) -> int | None:
    """`--seat` as records count seats (from 0), checked; a seat the game does not have is
    refused in both numberings, since the screen shows that seat as "Seat N+1"."""
    if seat is not None and not 0 <= seat < game.players:
        last = game.players - 1
        raise InvalidSeat(
            f"no seat {seat}: --seat counts from 0, as records do; this {game.players}-player "
            f"game has seats 0 to {last} (shown as Seat 1 to Seat {last + 1})"
        )
    return game.check_seat(seat)
