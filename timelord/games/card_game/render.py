"""Terminal text: a seat's view of the table (words for events and menus are in text.py)."""

from __future__ import annotations

from typing import Any

from timelord.games.card_game.state import PHASE_WORDS
from timelord.games.card_game.text import ENDED, seat_word


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
    counters = cs.constants.counters
    standing = view.get("standing")  # (views stored before it was added have none)
    for p in range(view["players"]):
        mark = " (you)" if p == seat else ""
        h = view["hands"][p]
        r = view["reserves"][p]
        tardis = sum(1 for x in locs if x["owner"] == p and x["tardis"])
        daleks = sum(1 for x in locs if x["attacker"] == p)
        vp = f"{standing['vp'][p]} VP as it stands, " if standing else ""
        out.append(
            f"-- {game.seat_name(p)}{mark}: {vp}{view['time'][p]} TP, hand {h['count']}, "
            f"reserve {r['count']}, TARDIS in play {tardis}/{counters}, "
            f"Daleks in play {daleks}/{counters}"
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
            if standing and L in standing["unknown"]:
                bits.append("VP unknown until the attack turns up")
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
        out.append(f"Game over: {ENDED.get(view['ended'], view['ended'])}.")
    elif view["phase"] != "main":
        L = view["pending"]["location"]
        where = f" at {cs.name[locs[L]['card']]} [{L}]" if 0 <= L < len(locs) else ""
        out.append(
            f"Waiting for {seat_word(game, view['to_move'], seat)}: {_doing(view['phase'])}{where}"
        )
    return "\n".join(out)


def _doing(phase: str) -> str:
    words = PHASE_WORDS.get(phase)
    return words.doing if words else phase
