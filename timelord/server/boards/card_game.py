"""Doctor Who: The Card Game: each seat's line of Locations with their Defenders (face-down
ones as backs), attacks with their Dalek counter and Enemies, TARDIS counters, reserves, Time
Points, the supply and the End card's depth.

A hand card carries every move that plays it (a menu of its targets when it has several) and
outlines the Locations it can go to; moves that belong to no card (end the turn, buy cards,
reserve or discard a set of cards) are grouped as buttons under the hand.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from timelord.core.action import Action
from timelord.games.card_game.actions import (
    PlayDefender,
    PlayEnemy,
    PlayLocation,
    PlaySupport,
    TakeTime,
)
from timelord.games.card_game.game import CardGame
from timelord.games.card_game.state import PHASE_WORDS
from timelord.server.boards.common import (
    Model,
    Snapshot,
    act_attrs,
    button,
    card,
    card_back,
    claimer,
    frame,
    result_panel,
    rule_link,
    seat_chip,
)

#: The move that closes a declaration, shown as the main button while one is open.
FINISH = "Finish"
#: Counters of each kind a seat has (C-1.2); all of one kind in play ends the game (C-6.1).
COUNTERS = 5


def _card(
    snap: Snapshot,
    game: CardGame,
    cid: Any,
    acts: Sequence[Action] = (),
    css: str = "",
    probe: int | None = None,
) -> Model:
    """A card by id, or a back when the view does not know it; `probe`: the card whose play a
    click asks about when `acts` is empty."""
    if not isinstance(cid, int) or not 0 <= cid < len(game.cards.name):
        return card_back("?", "card", css)
    cs = game.cards
    kind = cs.kind[cid]
    number: Any = None
    corner: Any = None
    if kind in ("location", "start"):
        number, corner = f"{cs.vp[cid]}VP", f"{cs.tp[cid]}TP"
    elif kind in ("defender", "enemy"):
        number = cs.strength[cid]
    text = snap.card_text(cs.name[cid])
    if not text:
        text = "; ".join(e.replace("-", " ") for e in sorted(cs.effects[cid]))
    return card(
        snap,
        cs.name[cid],
        "Start location" if kind == "start" else kind.capitalize(),
        number=number,
        corner=corner,
        text=text,
        actions=acts,
        css=f"kind-{kind} {css}",
        target=_target,
        data={"card": cid},
        probe=_play(snap, probe, kind) if probe is not None else None,
    )


def _play(snap: Snapshot, cid: int, kind: str) -> Action | None:
    """The move that would play hand card `cid` (on the first Location it could go to), so a
    click on a card that cannot be played now can ask the engine why."""
    locations = snap.view["locations"]
    own = [L for L, loc in enumerate(locations) if loc["owner"] == snap.seat]
    other = [L for L, loc in enumerate(locations) if loc["owner"] != snap.seat]
    if kind == "location":
        return PlayLocation(cid)
    if kind == "defender":
        return PlayDefender(cid, own[0] if own else 0)
    if kind == "enemy":
        return PlayEnemy(cid, other[0] if other else 0)
    if kind == "support":
        return PlaySupport(cid)
    return None


def _target(action: Action) -> str | None:
    """The Location an action acts on, as the Locations' `data-tile`."""
    location = getattr(action, "location", None)
    return f"L{location}" if isinstance(location, int) and location >= 0 else None


def standing(game: CardGame, view: dict[str, Any]) -> tuple[list[int], set[int]]:
    """Victory points as the table stands and the Locations whose points are unknown, as
    the engine counts them from public facts (`view["standing"]`, C-6.4 applied now): a
    Location with a face-down Enemy scores for nobody yet, since only its turning up says
    whether a voiding Enemy lies there. A view stored before the engine put `standing` in
    it is counted here the same way."""
    told = view.get("standing")
    if told is not None:
        return [int(v) for v in told["vp"]], {int(L) for L in told["unknown"]}
    cs = game.cards
    out = [0] * int(view["players"])
    unknown = set()
    for L, loc in enumerate(view["locations"]):
        enemies = loc["enemies"]
        if not enemies:
            out[loc["owner"]] += cs.vp[loc["card"]]
        elif not all(loc["face_up"]):
            unknown.add(L)
        elif not any(cs.kind[e] == "enemy" and "voids-location" in cs.effects[e] for e in enemies):
            out[loc["attacker"]] += cs.vp[loc["card"]]
    return out, unknown


def render(snap: Snapshot) -> str:
    """The Card Game board for one seat."""
    game = snap.game
    assert isinstance(game, CardGame)
    view = snap.view
    take = claimer(snap.legal)

    vp, unknown = standing(game, view)
    hand: list[Model] | None = None
    reserve: list[Model] = []
    if snap.seat is not None:
        mine = view["hands"][snap.seat]["known"]
        # Copies of one design are alike and the engine offers the first (C-R24): every copy
        # plays that copy's moves, and a copy that cannot be played asks about the first.
        design = game.cards.design
        first = {design[c]: min(x for x in mine if design[x] == design[c]) for c in mine}
        plays: dict[int, list[Action]] = {}
        for d, f in first.items():
            plays[d] = take(lambda a, f=f: getattr(a, "card", None) == f)
        hand = [_card(snap, game, c, plays[design[c]], probe=first[design[c]]) for c in mine]
        reserve = [
            _card(snap, game, c, take(lambda a, c=c: getattr(a, "card", None) == c), "small")
            for c in view["reserves"][snap.seat]["known"]
        ]
    lines = [_line(snap, game, view, s, vp[s], unknown, take) for s in _order(snap, view)]
    rest = take(lambda a: True)
    controls, choosers = _controls(snap, game, rest)
    board = {
        "turn": view["turn"],
        "active": snap.seat_name(view["active"]),
        "verb": "are" if snap.is_you(view["active"]) else "is",
        "supply": view["supply"],
        "deck": view["deck"]["count"],
        "discards": len(view["discard"]),
        "ending": _ending(snap, view),
        "phase": _hint(view["phase"]) if snap.my_turn else "",
        "conflict": _conflict(snap, game),
        "lines": lines,
        # the hand and what to do with it stay in sight at the foot of the window, however
        # long the lines above grow (a tall table put them below the fold)
        "dock": "hand-dock" if snap.my_turn else "hand-dock resting",
        "controls": controls if rest else None,
        "hand": hand,
        "reserve": reserve,
        "choosers": choosers,
        "rule_standing": rule_link(snap, "C-6.4"),
    }
    # the final scores and winners come from the server's result, never recounted here
    result = result_panel(snap, None, [])
    return frame(snap, "Doctor Who: The Card Game", "card_game.html", board, result)


def _ending(snap: Snapshot, view: dict[str, Any]) -> Model:
    """How the game ends and how near each way is: the End card (how many cards are still
    above it, C-2.4, C-6.2) and each seat's TARDIS and Dalek counters in play (C-6.1)."""
    deck = view["deck"]
    above = int(deck["count"]) - int(deck["below_end"])
    near = []
    for s in range(int(view["players"])):
        tardis = sum(1 for loc in view["locations"] if loc["owner"] == s and loc["tardis"])
        daleks = sum(1 for loc in view["locations"] if loc["attacker"] == s)
        near.append(f"{snap.seat_name(s)}: TARDIS {tardis}/{COUNTERS}, Daleks {daleks}/{COUNTERS}")
    return {
        "out": bool(view.get("endgame") or int(deck["below_end"]) < 0),
        "above": above,
        "cards_above": f"{above} card{'' if above == 1 else 's'} above it",
        "rule_end": rule_link(snap, "C-6.3"),
        "rule_drawn": rule_link(snap, "C-6.2"),
        "rule_counters": rule_link(snap, "C-6.1"),
        "counters": COUNTERS,
        "near": "; ".join(near),
    }


#: Events that belong to a conflict between its reveal and its result, and after it.
DURING = ("beaten", "turned", "ironsides", "decline")
AFTER = ("discard", "tardis", "return-to-hand", "valiant", "decline")


def _conflict(snap: Snapshot, game: CardGame) -> Model | None:
    """The latest conflict step by step, from the seat's events: the cards revealed (with
    their strengths), what changed the sides, both strengths, and the result with what it
    did. Its `data-tile` lets the client's change highlight replay the steps when it is new."""
    events = snap.events
    at = next((i for i in range(len(events) - 1, -1, -1) if events[i]["kind"] == "conflict"), -1)
    if at < 0:
        return None
    data = events[at]["data"]
    start = at
    while start > 0 and events[start - 1]["kind"] != "conflict" and at - start < 12:
        start -= 1
        if events[start]["kind"] == "reveal":
            break
    reveal = events[start] if events[start]["kind"] == "reveal" else None
    during = [e for e in events[start + 1 : at] if e["kind"] in DURING]
    after = []
    for e in events[at + 1 : at + 9]:
        if e["kind"] not in AFTER:
            break
        after.append(e)
    cs = game.cards

    def named(cards: Any) -> str:
        out = []
        for c in cards if isinstance(cards, list) else []:
            if isinstance(c, int) and 0 <= c < len(cs.name):
                out.append(f"{cs.name[c]} ({cs.strength[c]})")
        return ", ".join(out) or "none"

    place = data.get("place")
    where = cs.name[place] if isinstance(place, int) and 0 <= place < len(cs.name) else "?"
    attack, defence = data.get("attack"), data.get("defence")
    attacker, owner = data.get("attacker"), data.get("owner")
    sides = None
    if isinstance(attacker, int) and isinstance(owner, int):
        sides = f"{snap.seat_name(attacker)} against {snap.seat_name(owner)}"
    winner = data.get("winner")
    won = {"attack": attacker, "defence": owner}.get(str(winner))
    return {
        "where": where,
        "reveal": (
            None
            if reveal is None
            else {
                "defenders": named(reveal["data"].get("defenders")),
                "enemies": named(reveal["data"].get("enemies")),
                "during": [snap.told(str(e["text"])) for e in during],
            }
        ),
        "sides": sides,
        "attack": attack,
        "defence": defence,
        "winner": winner,
        "by": snap.seat_name(won) if isinstance(won, int) else None,
        "after": [snap.told(str(e["text"])) for e in after],
    }


def _order(snap: Snapshot, view: dict[str, Any]) -> list[int]:
    """Other seats first (across the table), your own line last, nearest your hand."""
    n = int(view["players"])
    if snap.seat is None:
        return list(range(n))
    return [s for s in range(n) if s != snap.seat] + [snap.seat]


def _line(
    snap: Snapshot,
    game: CardGame,
    view: dict[str, Any],
    seat: int,
    vp: int,
    unknown: set[int],
    take: Any,
) -> Model:
    hand = view["hands"][seat]
    reserve = view["reserves"][seat]
    known = ""
    if seat != snap.seat and hand["known"]:
        names = ", ".join(game.cards.name[c] for c in hand["known"])
        known = f" · you know they hold: {names}"
    up = view["reserve_up"][seat]
    if up:
        known += " · reserve face-up: " + ", ".join(game.cards.name[c] for c in up)
    tardis = sum(1 for loc in view["locations"] if loc["owner"] == seat and loc["tardis"])
    daleks = sum(1 for loc in view["locations"] if loc["attacker"] == seat)
    take_acts = take(lambda a: isinstance(a, TakeTime) and a.seat == seat)
    locs = [
        _location(snap, game, L, loc, L in unknown, take)
        for L, loc in enumerate(view["locations"])
        if loc["owner"] == seat
    ]
    # points that wait on a face-down attack: this seat's own Locations under one, and
    # its own face-down attacks on the others'
    open_ = sum(
        1
        for L, loc in enumerate(view["locations"])
        if L in unknown and seat in (loc["owner"], loc["attacker"])
    )
    waiting = f" ({open_} Location{'' if open_ == 1 else 's'} unknown)" if open_ else ""
    cls = "line seat-box to-move" if seat == snap.to_move and not snap.over else "line seat-box"
    return {
        "cls": cls,
        "seat": seat,
        "attrs": act_attrs(snap, take_acts, "Take Time Points"),
        "chip": seat_chip(snap, seat),
        # the seat's chip just before says whose line it is ("Blue Blue's line" said it twice)
        "text": f"{view['time'][seat]} TP · {vp} VP as it stands{waiting} · "
        f"hand {hand['count']} · reserve {reserve['count']} · "
        f"TARDIS {tardis} · Daleks {daleks}{known}",
        "locations": locs,
    }


def _location(
    snap: Snapshot, game: CardGame, L: int, loc: dict[str, Any], unknown: bool, take: Any
) -> Model:
    acts = take(lambda a: getattr(a, "location", None) == L and getattr(a, "card", None) is None)
    cs = game.cards
    cid = loc["card"]
    strength = sum(cs.strength[d] for d in loc["defenders"] if isinstance(d, int))
    hidden = sum(1 for d in loc["defenders"] if not isinstance(d, int))
    attack = None
    if loc["attacker"] >= 0:
        attack = {
            "chip": seat_chip(snap, loc["attacker"], turn_mark=False),
            "enemies": [_card(snap, game, e, (), "mini") for e in loc["enemies"]],
        }
    return {
        "attrs": {"data-tile": f"L{L}"} | act_attrs(snap, acts, cs.name[cid]),
        "card": _card(snap, game, cid, (), "small"),
        "tardis": bool(loc["tardis"]),
        "defence": f"defence {strength}" + (f" + {hidden} face-down" if hidden else ""),
        "defenders": [_card(snap, game, d, (), "mini") for d in loc["defenders"]],
        "attack": attack,
        # its points wait on a face-down attack being turned up (C-6.4)
        "unknown": unknown,
    }


#: What a choice of several cards does, as its chooser's heading says it.
CHOOSE_TEXT = {
    "PlaceReserve": "Put cards in your reserve",
    "DiscardForTime": "Discard cards for Time Points",
    "DiscardEnemies": "Discard Enemies",
}


def _controls(
    snap: Snapshot, game: CardGame, rest: list[Action]
) -> tuple[list[Model], list[Model]]:
    """Moves that belong to no card or place: one button each and one menu per kind, then
    a chooser for each choice of several cards (folded: it is seldom the move to make)."""
    groups: dict[str, list[Action]] = {}
    for a in rest:
        groups.setdefault(type(a).__name__, []).append(a)
    buttons = []
    choosers = []
    for kind, acts in groups.items():
        if len(acts) > 1 and all(isinstance(getattr(a, "cards", None), tuple) for a in acts):
            choosers.append(_chooser(snap, game, kind, acts))
        elif len(acts) == 1:
            one = button(snap, acts, snap.label(acts[0]))
            if kind == FINISH:
                one["attrs"] = {"class": "primary"} | one["attrs"]
            buttons.append(one)
        else:
            words = "".join(" " + c.lower() if c.isupper() else c for c in kind).strip()
            title = words.capitalize()
            buttons.append(button(snap, acts, f"{title}… ({len(acts)})", title))
    return buttons, choosers


def _chooser(snap: Snapshot, game: CardGame, kind: str, acts: list[Action]) -> Model:
    """A choice of several cards made as a selection and a confirm button: each card that
    some legal choice uses is a toggle, and the client enables the confirm button (with the
    chosen action's `data-action`) only when the selection is exactly one legal choice."""
    cards: dict[int, None] = {}
    for a in acts:
        cards.update(dict.fromkeys(getattr(a, "cards", ())))
    choices = json.dumps(
        [{"action": a.to_json(), "label": snap.label(a)} for a in acts], separators=(",", ":")
    )
    return {
        "heading": CHOOSE_TEXT.get(kind, kind),
        "count": len(acts),
        "choices": choices,
        "toggles": [
            {
                "card": c,
                "name": game.cards.name[c],
                "text": snap.card_text(game.cards.name[c]),
            }
            for c in cards
        ],
    }


def _hint(phase: str) -> str:
    """The phase's hint from the game's one phase table (its id if the table lacks it)."""
    words = PHASE_WORDS.get(phase)
    return words.hint if words else phase
