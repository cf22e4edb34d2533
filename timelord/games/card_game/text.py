"""Words of the Card Game: the phase table, events told to one seat, the glossary, and how a
menu names each offered action. Every sentence is built from what the seat sees."""

from __future__ import annotations

import tomllib
from functools import lru_cache
from importlib.resources import files
from typing import Any

from timelord.core import Action
from timelord.games.card_game.actions import (
    BuyCards,
    DiscardEnemies,
    DiscardForTime,
    DiscardToRegenerate,
    EndTurn,
    Finish,
    Pass,
    PickUp,
    PlaceReserve,
    PlaceTardis,
    PlayDefender,
    PlayEnemy,
    PlayLocation,
    PlaySupport,
    PlayValiant,
    RemoveTardis,
    TakeOver,
    TakeTime,
    UseIronsides,
)
from timelord.games.card_game.cards import CardSet
from timelord.games.card_game.state import PHASE_WORDS


def seat_word(game: Any, q: Any, seat: int | None) -> str:
    if q is None:
        return "the game"
    return "you" if q == seat else str(game.seat_name(q))


#: How unseen cards are counted: one, several.
_UNSEEN = {
    "card": ("a card", "cards"),
    "Defender": ("a Defender", "Defenders"),
    "Enemy": ("an Enemy", "Enemies"),
    "face-down Defender": ("a face-down Defender", "face-down Defenders"),
    "face-down Enemy": ("a face-down Enemy", "face-down Enemies"),
}


def _names(cs: CardSet, cards: list[Any], hidden: str) -> str:
    """Card names joined ("Dalek and Rory"); cards not seen counted ("2 face-down Enemies")."""
    named: list[str] = [cs.name[c] for c in cards if c is not None]
    unseen = len(cards) - len(named)
    if unseen:
        one, many = _UNSEEN[hidden]
        named.append(one if unseen == 1 else f"{unseen} {many}")
    if not named:
        return "no card"
    return named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]


_WHY = {"time": " for Time Points", "regeneration": " to regenerate"}
ENDED = {
    "counters": "a player began a turn with all TARDIS or all Dalek counters in play",
    "turn-limit": "the turn limit was reached",
    "end-game": "the player to move could take no action in the End Game",
}
_DECLINE = {
    "tardis": ("place", "places", "no TARDIS counter (Captain Jack)"),
    "mr-clever": ("remove", "removes", "no more TARDIS counters (Mr Clever)"),
    "ironsides": ("do", "does", "not pay for Ironsides"),
    "valiant": ("do", "does", "not play The Valiant"),
}


def event_text(game: Any, kind: str, d: dict[str, Any], seat: int | None) -> str:
    """The sentence telling `seat` of one event, made only from `d` (the event as that seat
    sees it): "You" for the seat itself, seat names for the others, card names only where
    `d` names the card."""
    cs: CardSet = game.cards
    actor = d.get("actor")
    me = actor is not None and actor == seat
    who = seat_word(game, actor, seat).capitalize() if actor is not None else "The game"

    def v(base: str, third: str) -> str:
        return base if me else third

    def whose(q: Any) -> str:
        return "your" if q == seat else f"{game.seat_name(q)}'s"

    their = "your" if me else "their"

    at = cs.name[d["place"]] if "place" in d else ""
    if kind == "time":
        n = d["count"]
        src = "the supply" if d["source"] is None else seat_word(game, d["source"], seat)
        return f"{who} {v('take', 'takes')} {n} Time Point{'s' * (n != 1)} from {src}"
    if kind == "draw":
        return f"{who} {v('draw', 'draws')} {_names(cs, d['cards'], 'card')}"
    if kind == "reshuffle":
        return f"The discard pile ({len(d['cards'])} cards) is shuffled to make a new deck"
    if kind == "end-card":
        return "The End of the Game card is uncovered: the End Game begins after this turn"
    if kind == "end-game":
        return "The End Game begins: from now on one action per turn, no passing or drawing"
    if kind == "turn":
        return f"Turn {d['turn']}: {whose(actor)} turn"
    if kind == "game-over":
        scores = ", ".join(f"{game.seat_name(q)} {v_}" for q, v_ in enumerate(d["scores"]))
        won = " and ".join(seat_word(game, q, seat) for q in d["winners"])
        verb = "win" if seat in d["winners"] or len(d["winners"]) > 1 else "wins"
        return f"Game over: {ENDED.get(d['why'], d['why'])}. Scores {scores}; {won} {verb}"
    if kind == "tardis":
        if d["placed"]:
            return f"{who} {v('put', 'puts')} a TARDIS counter on {at}"
        by = d.get("by")
        if by is not None:
            verb = "remove" if by == seat else "removes"
            return f"{seat_word(game, by, seat).capitalize()} {verb} the TARDIS counter from {at}"
        return f"The TARDIS counter on {at} goes back to {seat_word(game, actor, seat)}"
    if kind == "discard":
        cards = _names(cs, d["cards"], "card")
        return f"{who} {v('discard', 'discards')} {cards}{_WHY.get(d.get('why', ''), '')}"
    if kind == "pass-cards":
        cards = _names(cs, d["cards"], "card")
        return f"{who} {v('pass', 'passes')} {cards} to {seat_word(game, d['to'], seat)}"
    if kind == "pick-up":
        cards = _names(cs, d["cards"], "card")
        return f"{who} {v('pick', 'picks')} up {cards} from {their} reserve"
    if kind == "reserve":
        return f"{who} {v('put', 'puts')} {_names(cs, d['cards'], 'card')} in {their} reserve"
    if kind == "declare":
        role = d["role"]
        what = _names(cs, d["cards"], "Defender" if role == "defender" else "Enemy")
        prep = "for" if role == "defender" else "against"
        return f"{who} {v('declare', 'declares')} {what} {prep} {at}"
    if kind == "defend":
        what = _names(cs, d["cards"], "face-down Defender")
        return f"{who} {v('place', 'places')} {what} on {at}"
    if kind == "attack":
        what = _names(cs, d["cards"], "face-down Enemy")
        if d["new"]:
            return f"{who} {v('attack', 'attacks')} {at} with {what}"
        return f"{who} {v('add', 'adds')} {what} to {their} attack on {at}"
    if kind == "attack-tardis":
        what = _names(cs, d["cards"], "card")
        return (
            f"{who} {v('attack', 'attacks')} {at}, guarded by a TARDIS counter: "
            f"{what} {'is' if len(d['cards']) == 1 else 'are'} discarded and the counter goes back"
        )
    if kind == "play-location":
        c = d["card"]
        return (
            f"{who} {v('play', 'plays')} the Location {cs.name[c]} (VP {cs.vp[c]}, TP {cs.tp[c]})"
        )
    if kind == "buy":
        n = d["count"]
        return f"{who} {v('buy', 'buys')} {n} card{'s' * (n != 1)} for {d['cost']} Time Points"
    if kind == "take-over":
        prev = whose(d["previous"])
        card = cs.name[d["card"]]
        return f"{who} {v('take', 'takes')} over {prev} attack on {at} with {card}"
    if kind == "decline":
        base, third, rest = _DECLINE[d["choice"]]
        return f"{who} {v(base, third)} {rest}"
    if kind == "reveal":
        parts = []
        if d["defenders"]:
            parts.append("Defenders " + _names(cs, d["defenders"], "card"))
        if d["enemies"]:
            parts.append("Enemies " + _names(cs, d["enemies"], "card"))
        if d.get("end"):
            return f"The game is over: the attack on {at} turns face-up to be scored: " + (
                "; ".join(parts)
            )
        return f"The cards at {at} turn face-up: " + "; ".join(parts)
    if kind == "beaten":
        return f"{cs.name[d['card']]} is beaten outright by a Defender at {at}"
    if kind == "turned":
        return f"{cs.name[d['card']]} changes sides and joins the attack on {at}"
    if kind == "ironsides":
        n, boost = d["cost"], d["boost"]
        points = f"{n} Time Point{'s' * (n != 1)}"
        return f"{who} {v('pay', 'pays')} {points} for Ironsides: +{boost} defence"
    if kind == "conflict":
        return (
            f"Conflict at {at}: attack {d['attack']} against defence {d['defence']}, "
            f"the {d['winner']} wins"
        )
    if kind == "return-to-hand":
        cards = d["cards"]
        verb = "returns" if len(cards) == 1 else "return"
        return f"{_names(cs, cards, 'card')} {verb} to {whose(actor)} hand"
    if kind == "valiant":
        cards = d["cards"]
        if not cards:
            return f"{who} {v('play', 'plays')} The Valiant: no Defender is left to take back"
        back = _names(cs, cards, "card")
        goes = "goes" if len(cards) == 1 else "go"
        return f"{who} {v('play', 'plays')} The Valiant: {back} {goes} back to {their} hand"
    if kind == "play-support":
        where = f" on {at}" if at else ""
        return f"{who} {v('play', 'plays')} {cs.name[d['card']]}{where}"
    if kind == "regenerate":
        n = d["count"]
        return f"{who} {v('regenerate', 'regenerates')}: {n} card{'s' * (n != 1)} to draw"
    if kind == "move-attack":
        return f"{whose(actor).capitalize()} attack on {at} moves to {cs.name[d['to_place']]}"
    return f"{who}: {kind}"


@lru_cache(maxsize=1)
def _texts() -> dict[str, dict[str, Any]]:
    """`data/texts.toml` by key."""
    raw = files("timelord.games.card_game").joinpath("data/texts.toml").read_text()
    return {rec["key"]: rec for rec in tomllib.loads(raw)["text"]}


def _numbers(cs: CardSet, c: int) -> str:
    """What a card is, from its numbers in the card data."""
    kind = cs.kind[c]
    if kind == "start":
        return f"Starting Location number {cs.order[c]}: {cs.vp[c]} VP (the highest goes first)."
    if kind == "location":
        n = cs.tp[c]
        return f"Location: {cs.vp[c]} VP; {n} Time Point{'s' * (n != 1)} when played."
    if kind == "defender":
        return f"Defender, strength {cs.strength[c]}."
    if kind == "enemy":
        return f"Enemy, strength {cs.strength[c]}."
    if cs.param(c, "stays", False) or "valiant" in cs.effects[c]:
        return "Support card."  # its ability says when it is played and where it goes
    return "Support card, played as an action and then discarded."


def glossary(cs: CardSet) -> dict[str, dict[str, str]]:
    """Each design of `cs` (and each counter) by name: {"text", "source", "clause"}."""
    texts = _texts()
    out: dict[str, dict[str, str]] = {}
    seen: set[str] = set()
    for c, key in enumerate(cs.key):
        if key in seen:
            continue
        seen.add(key)
        rec = texts.get(key)
        design = cs.designs[cs.design[c]]
        text = _numbers(cs, c)
        entry = {"text": text, "source": design.status, "clause": ""}
        if rec is not None:
            entry = {"text": f"{text} {rec['text']}", "source": rec["status"],
                     "clause": rec["clause"]}  # fmt: skip
        out[cs.name[c]] = entry
    for rec in texts.values():
        if "name" in rec:
            out[rec["name"]] = {"text": rec["text"], "source": rec["status"],
                                "clause": rec["clause"]}  # fmt: skip
    return out


def action_card(cs: CardSet, action: Action) -> str | None:
    """The glossary name of the card or counter `action` plays or uses."""
    if isinstance(action, (PlaceTardis, RemoveTardis)):
        return "TARDIS counter"
    if isinstance(action, TakeTime):
        return "Time Points"
    card = getattr(action, "card", None)
    if card is None and isinstance(action, (PlaceReserve, DiscardForTime)) and action.cards:
        card = action.cards[0]
    if isinstance(action, DiscardToRegenerate):
        return _name_of(cs, "regeneration")
    if isinstance(action, UseIronsides):
        return _name_of(cs, "ironsides")
    if isinstance(card, int) and 0 <= card < len(cs.name):
        return cs.name[card]
    return None


def _name_of(cs: CardSet, key: str) -> str | None:
    return cs.name[cs.key.index(key)] if key in cs.key else None


def action_label(game: Any, view: dict[str, Any], action: Action) -> str:
    """A menu line for `action`, naming cards and Locations (from the view only)."""
    cs: CardSet = game.cards
    locs = view.get("locations", [])

    def loc(L: int) -> str:
        # a Location by its name, as on the table; two of one name by their owners
        if not 0 <= L < len(locs):
            return "a Location no longer in play"
        name = str(cs.name[locs[L]["card"]])
        if sum(1 for other in locs if cs.name[other["card"]] == name) > 1:
            return f"{name} ({game.seat_name(locs[L]['owner'])}'s)"
        return name

    def card(c: int) -> str:
        return cs.name[c] if 0 <= c < len(cs.name) else f"card {c}"

    def cards(cc: tuple[int, ...]) -> str:
        return " and ".join(card(c) for c in cc)

    if isinstance(action, PlayLocation):
        return f"play the Location {card(action.card)}"
    if isinstance(action, PlayDefender):
        return f"declare {card(action.card)} to defend {loc(action.location)}"
    if isinstance(action, PlayEnemy):
        return f"declare {card(action.card)} to attack {loc(action.location)}"
    if isinstance(action, TakeOver):
        return f"take over the attack on {loc(action.location)} with {card(action.card)}"
    if isinstance(action, PlaySupport):
        text = f"play {card(action.card)}"
        if action.location >= 0:
            text += f" on {loc(action.location)}"
        if action.target >= 0 and "redirect" in cs.effects[action.card]:
            text += f", moving the attack to {loc(action.target)}"
        elif action.target >= 0:
            text += f", discarding Enemy {action.target + 1} of that attack"
        if action.extra >= 0:
            text += f", discarding {card(action.extra)}"
        return text
    if isinstance(action, PlaceReserve):
        return f"put {cards(action.cards)} in your reserve"
    if isinstance(action, DiscardForTime):
        return f"discard {cards(action.cards)} for Time Points"
    if isinstance(action, PickUp):
        return f"pick up {card(action.card)} from your reserve"
    if isinstance(action, BuyCards):
        n = action.count
        return f"buy {n} card{'s' * (n != 1)}"
    if isinstance(action, EndTurn):
        return "end your turn: pass your hand to the right and draw"
    if isinstance(action, RemoveTardis):
        return f"remove the TARDIS counter from {loc(action.location)}"
    if isinstance(action, TakeTime):
        return f"take a Time Point from {game.seat_name(action.seat)}"
    if isinstance(action, DiscardToRegenerate):
        return f"discard {card(action.card)} to regenerate"
    if isinstance(action, PlayValiant):
        return f"play {card(action.card)}: take your Defenders back"
    if isinstance(action, DiscardEnemies):
        return f"discard {cards(action.cards) or 'no Enemy card'}"
    if isinstance(action, Finish):
        words = PHASE_WORDS.get(view.get("phase", ""))
        return words.finish if words and words.finish else "finish"
    if isinstance(action, Pass):
        words = PHASE_WORDS.get(view.get("phase", ""))
        return words.passing if words and words.passing else "pass"
    return str(action)
