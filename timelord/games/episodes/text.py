"""Sentences for Episodes events, each made only from the event's data as one seat sees it
(`Event.seen_by(seat)`), so a sentence can say no more than the seat may know."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from timelord.core import Action, View
from timelord.games.episodes.actions import ChooseOpponent, UseAbility
from timelord.games.episodes.cards import ABILITY_TEXT, SUIT_INDEX
from timelord.games.episodes.state import EpisodesRules

_DRAW_REASON = {
    "turn": " at the start of the turn",
    "episode": " after the episode",
    "companion": " (Companion)",
    "gadget": " (Gadget: keep 1, discard the others)",
}


#: what made the engine take a decision by itself (E-R13)
_FORCED = {k: " (the only opponent holding cards)" for k in ("look", "steal", "random_discard")}


def cards(n: int) -> str:
    """ "1 card", "3 cards"."""
    return f"{n} card" if n == 1 else f"{n} cards"


def event_text(game: EpisodesRules, kind: str, data: Mapping[str, Any], seat: int | None) -> str:
    actor = data.get("actor")
    you = actor is not None and actor == seat
    who = "You" if you else (game.seat_name(actor) if isinstance(actor, int) else "The game")

    def v(verb: str) -> str:
        """The verb agreeing with `who` ("You draw", "Seat 1 draws")."""
        return verb if you else verb + "s"

    victim = data.get("victim")
    whom = "you" if victim is not None and victim == seat else _name(game, victim)
    whose = "your" if victim is not None and victim == seat else f"{_name(game, victim)}'s"
    forced = _FORCED.get(kind, " (no other choice)") if data.get("forced") else ""
    make = _TEXTS.get(kind)
    if make is not None:
        return make(game, data, who, v, whom, whose, forced)
    return f"{who}: {kind}"


def _name(game: EpisodesRules, seat: Any) -> str:
    return game.seat_name(seat) if isinstance(seat, int) else "nobody"


Maker = Callable[..., str]


def _ability(game: EpisodesRules, d: Mapping[str, Any], who: str, v: Any, *_: Any) -> str:
    what = ABILITY_TEXT[SUIT_INDEX[d["suit"]]]
    return f"{who} {v('discard')} {d['card']} to {what}"


def _peek(game: EpisodesRules, d: Mapping[str, Any], who: str, v: Any, *_: Any) -> str:
    text = f"{who} {v('look')} at the next {cards(d['count'])} of the deck"
    if "cards" in d:
        text += ": " + (", ".join(d["cards"]) or "nothing") + " (top first)"
    return text


def _draw(game: EpisodesRules, d: Mapping[str, Any], who: str, v: Any, *_: Any) -> str:
    if d["count"] == 0:
        return f"{who} {v('draw')} nothing: the deck and the discard pile are empty (E-3.3)"
    text = f"{who} {v('draw')} {cards(d['count'])}{_DRAW_REASON.get(d['reason'], '')}"
    if d["count"] < d["asked"]:
        text += ", all that was left (E-3.3)"
    if d.get("cards"):
        text += ": " + ", ".join(d["cards"])
    elif d.get("seen"):
        text += "; you saw these on top of the deck: " + ", ".join(d["seen"])
    return text


def _reshuffle(game: EpisodesRules, d: Mapping[str, Any], *_: Any) -> str:
    return f"The deck is empty: the discard pile ({cards(d['count'])}) becomes the new deck"


def _look(
    game: EpisodesRules, d: Mapping[str, Any], who: str, v: Any, whom: str, whose: str, f: str
) -> str:
    text = f"{who} {v('look')} at {whose} hand{f}"
    if "cards" in d:
        text += ": " + (", ".join(d["cards"]) or "empty")
    return text


def _steal(
    game: EpisodesRules, d: Mapping[str, Any], who: str, v: Any, whom: str, whose: str, f: str
) -> str:
    return f"{who} {v('steal')} {d.get('card', 'a random card')} from {whom}{f}"


def _random_discard(
    game: EpisodesRules, d: Mapping[str, Any], who: str, v: Any, whom: str, whose: str, f: str
) -> str:
    return f"{who} {v('make')} {whom} discard a random card{f}: {d['card']}"


def _keep(
    game: EpisodesRules, d: Mapping[str, Any], who: str, v: Any, whom: str, whose: str, f: str
) -> str:
    gone = ", ".join(d["discarded"]) or "nothing"
    kept = d.get("card", "one drawn card")
    return f"{who} {v('keep')} {kept}{f} and {v('discard')} {gone}"


def _episode(game: EpisodesRules, d: Mapping[str, Any], who: str, v: Any, *_: Any) -> str:
    return (
        f"{who} {v('play')} an episode ({', '.join(d['cards'])}) for {d['vp']} VP, "
        f"{d['total']} VP in all"
    )


def _hand_limit(
    game: EpisodesRules, d: Mapping[str, Any], who: str, v: Any, whom: str, whose: str, f: str
) -> str:
    return f"{who} {v('discard')} {d['card']} down to the hand limit{f}"


def _turn(game: EpisodesRules, d: Mapping[str, Any], who: str, *_: Any) -> str:
    whose = "Your" if who == "You" else f"{who}'s"
    return f"Round {d['round']}: {whose} turn"


def _end(game: EpisodesRules, d: Mapping[str, Any], *_: Any) -> str:
    names = " and ".join(game.seat_name(s) for s in d["winners"]) or "nobody"
    how = "a player reached the target" if d["reason"] == "target" else "the last round ended"
    return f"Game over ({how}): {names} {'win' if len(d['winners']) > 1 else 'wins'}"


_TEXTS: dict[str, Maker] = {
    "ability": _ability,
    "skip_ability": lambda g, d, who, v, *_: f"{who} {v('use')} no ability",
    "peek": _peek,
    "draw": _draw,
    "reshuffle": _reshuffle,
    "look": _look,
    "steal": _steal,
    "random_discard": _random_discard,
    "keep": _keep,
    "episode": _episode,
    "skip_episode": lambda g, d, who, v, *_: f"{who} {v('play')} no episode",
    "hand_limit_discard": _hand_limit,
    "turn": _turn,
    "end": _end,
}


def action_label(game: EpisodesRules, view: View, action: Action) -> str:
    """A menu line for an offered action, from the seat's view only."""
    if isinstance(action, UseAbility) and action.suit in SUIT_INDEX:
        return f"discard {action.suit} {action.fp} to {ABILITY_TEXT[SUIT_INDEX[action.suit]]}"
    if isinstance(action, ChooseOpponent) and 0 <= action.seat < len(view["hand_sizes"]):
        held = cards(view["hand_sizes"][action.seat])
        return f"target {game.seat_name(action.seat)} ({held} in hand)"
    return str(action)
