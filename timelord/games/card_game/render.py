"""Text for terminals: a seat's view of the table, and one line per action."""

from __future__ import annotations

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
from timelord.games.card_game.state import (
    ATTACK,
    CLEVER,
    DEFEND,
    IRON,
    JACK,
    REGEN,
    VALIANT,
    CardGameState,
)


def _name(cs: Any, c: int | None) -> str:
    return "?" if c is None else f"{cs.name[c]}[{c}]"


def _card_line(cs: Any, c: int) -> str:
    k = cs.kind[c]
    if k in ("location", "start"):
        return f"{cs.name[c]} (VP {cs.vp[c]}, TP {cs.tp[c]})"
    if k in ("defender", "enemy"):
        return f"{cs.name[c]} ({k}, strength {cs.strength[c]})"
    return f"{cs.name[c]} (support)"


def render_view(game: Any, view: dict[str, Any]) -> str:
    cs = game.cards
    seat = view["seat"]
    out = []
    who = "spectator" if seat is None else game.seat_name(seat)
    period = "END GAME" if view["endgame"] else "normal play"
    out.append(
        f"== Turn {view['turn']} ({period}) - you are {who}; "
        f"{game.seat_name(view['active'])} is active =="
    )
    d = view["deck"]
    end = f", End card on {d['below_end']} cards" if d["below_end"] >= 0 else ", End card out"
    out.append(
        f"Deck {d['count']} cards{end}; discard pile {len(view['discard'])}; "
        f"Time Point supply {view['supply']}"
    )
    locs = view["locations"]
    for p in range(view["players"]):
        mark = " (you)" if p == seat else ""
        h = view["hands"][p]
        r = view["reserves"][p]
        tardis = sum(1 for x in locs if x["owner"] == p and x["tardis"])
        daleks = sum(1 for x in locs if x["attacker"] == p)
        out.append(
            f"-- {game.seat_name(p)}{mark}: {view['time'][p]} TP, hand {h['count']}, "
            f"reserve {r['count']}, TARDIS in play {tardis}/5, Daleks in play {daleks}/5"
        )
        for L, x in enumerate(locs):
            if x["owner"] != p:
                continue
            c = x["card"]
            bits = [f"  [{L}] {cs.name[c]} VP {cs.vp[c]}"]
            if x["tardis"]:
                bits.append("TARDIS")
            if x["defenders"]:
                bits.append("defenders: " + ", ".join(_name(cs, q) for q in x["defenders"]))
            if x["enemies"]:
                ens = []
                for e, up in zip(x["enemies"], x["face_up"], strict=True):
                    ens.append(_name(cs, e) + ("" if up else " (face-down)"))
                bits.append(f"attacked by {game.seat_name(x['attacker'])}: " + ", ".join(ens))
            out.append(" | ".join(bits))
        if view["reserve_up"][p]:
            out.append("  in play: " + ", ".join(_name(cs, c) for c in view["reserve_up"][p]))
        if h["known"] and p != seat:
            out.append("  known in hand: " + ", ".join(_name(cs, c) for c in h["known"]))
    if seat is not None:
        out.append("Your hand:")
        for c in view["hands"][seat]["known"]:
            out.append(f"  {c}: {_card_line(cs, c)}")
        res = view["reserves"][seat]["known"]
        if res:
            out.append("Your reserve: " + ", ".join(_name(cs, c) for c in res))
    if view["phase"] == "over":
        out.append(f"Game over ({view['ended']}).")
    elif view["phase"] != "main":
        out.append(
            f"Pending: {view['phase']} - {game.seat_name(view['to_move'])} decides "
            f"(location {view['pending']['location']})"
        )
    return "\n".join(out)


def _cards(n: int) -> str:
    return "a card" if n == 1 else f"{n} cards"


def describe(s: CardGameState, a: Action, seat: int | None) -> str:
    """What the seat to move does, as `seat` may see it: a sentence naming the actor, "You"
    for `seat` itself ("You play ...", "Red plays ...")."""
    mover = s.to_move if s.to_move is not None else s.active
    phrase = _phrase(s, a, seat)
    if seat == mover:
        verb, _, rest = phrase.partition(" ")
        return f"You {_plain(verb)} {rest}".rstrip()
    return f"{s.game.seat_name(mover)} {phrase}"


def _plain(verb: str) -> str:
    """The verb as it follows "You": plays -> play, passes -> pass, is -> are."""
    irregular = {"is": "are", "does": "do", "has": "have"}
    if verb in irregular:
        return irregular[verb]
    if verb.endswith(("sses", "shes", "ches", "xes")):
        return verb[:-2]
    return verb[:-1] if verb.endswith("s") else verb


def _phrase(s: CardGameState, a: Action, seat: int | None) -> str:
    """The action as a verb phrase (third person), hiding what `seat` may not see."""
    cs = s.cs
    mover = s.to_move if s.to_move is not None else s.active
    mine = seat == mover

    def loc(L: int) -> str:
        return f"{cs.name[s.loc_card[L]]} [{L}]"

    if isinstance(a, PlayLocation):
        return f"plays the Location {_card_line(cs, a.card)}"
    if isinstance(a, PlayDefender):
        what = _name(cs, a.card) if mine else "a Defender"
        return f"declares {what} for {loc(a.location)}"
    if isinstance(a, PlayEnemy):
        what = _name(cs, a.card) if mine else "an Enemy"
        return f"declares {what} against {loc(a.location)}"
    if isinstance(a, TakeOver):
        return f"takes over the attack on {loc(a.location)} with {_name(cs, a.card)}"
    if isinstance(a, PlaySupport):
        text = f"plays {_name(cs, a.card)}"
        if a.location >= 0:
            text += f" on {loc(a.location)}"
        if a.target >= 0 and "redirect" in cs.effects[a.card]:
            text += f", moving the attack to {loc(a.target)}"
        elif a.target >= 0:
            text += f", removing Enemy {a.target + 1} of that attack"
        if a.extra >= 0:
            text += f", discarding {_name(cs, a.extra)}"
        return text
    if isinstance(a, PlaceReserve):
        what = ", ".join(_name(cs, c) for c in a.cards) if mine else _cards(len(a.cards))
        return f"puts {what} in reserve"
    if isinstance(a, PickUp):
        return "picks up " + (_name(cs, a.card) if mine else "a reserve card")
    if isinstance(a, BuyCards):
        return f"buys {_cards(a.count)}"
    if isinstance(a, DiscardForTime):
        return f"discards {', '.join(_name(cs, c) for c in a.cards)} for Time Points"
    if isinstance(a, EndTurn):
        to = (mover - 1) % s.game.players
        if seat == to or mine:
            cards = ", ".join(_name(cs, c) for c in s.hands[mover])
            whom = "you" if seat == to else s.game.seat_name(to)
            return f"passes {cards} to {whom} and ends the turn"
        whom = "you" if seat == to else s.game.seat_name(to)
        return f"passes {s.game.pass_count} cards to {whom} and ends the turn"
    if isinstance(a, Finish):
        return {
            DEFEND: "is done declaring Defenders",
            ATTACK: "is done declaring Enemies",
            CLEVER: "removes no more TARDIS counters",
            REGEN: "stops discarding for Regeneration",
        }.get(s.phase, "finishes")
    if isinstance(a, Pass):
        return {
            JACK: "places no TARDIS counter",
            IRON: "does not pay for Ironsides",
            VALIANT: "does not play The Valiant",
        }.get(s.phase, "passes")
    if isinstance(a, TakeTime):
        whom = "you" if seat == a.seat else s.game.seat_name(a.seat)
        return f"takes a Time Point from {whom}"
    if isinstance(a, RemoveTardis):
        return f"removes the TARDIS counter from {loc(a.location)}"
    if isinstance(a, PlaceTardis):
        return "places a TARDIS counter"
    if isinstance(a, DiscardToRegenerate):
        return f"discards {_name(cs, a.card)} to regenerate"
    if isinstance(a, UseIronsides):
        return "pays a Time Point for Ironsides (+1 defence)"
    if isinstance(a, PlayValiant):
        return "plays The Valiant and takes the Defenders back"
    if isinstance(a, DiscardEnemies):
        return f"discards {', '.join(_name(cs, c) for c in a.cards) or 'nothing'}"
    return str(a)
