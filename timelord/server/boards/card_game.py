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
    Snapshot,
    act_attrs,
    card,
    card_back,
    claimer,
    esc,
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
) -> str:
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


def standing(game: CardGame, view: dict[str, Any]) -> list[int]:
    """Victory points as the table stands: a Location scores for its owner when unattacked,
    for its attacker when Enemies hold it, for nobody when a location-voiding Enemy is there
    (face-down Enemies count as ordinary ones until revealed)."""
    cs = game.cards
    out = [0] * int(view["players"])
    for loc in view["locations"]:
        vp = cs.vp[loc["card"]]
        enemies = loc["enemies"]
        if not enemies:
            out[loc["owner"]] += vp
            continue
        voided = any(
            isinstance(e, int) and cs.kind[e] == "enemy" and "voids-location" in cs.effects[e]
            for e in enemies
        )
        if not voided and loc["attacker"] >= 0:
            out[loc["attacker"]] += vp
    return out


def render(snap: Snapshot) -> str:
    """The Card Game board for one seat."""
    game = snap.game
    assert isinstance(game, CardGame)
    view = snap.view
    take = claimer(snap.legal)

    vp = standing(game, view)
    deck = view["deck"]
    info = (
        f'<p class="stat">Turn {esc(view["turn"])} · {esc(snap.seat_name(view["active"]))} '
        f"{'are' if view['active'] == snap.seat else 'is'} active · "
        f"Time Point supply {esc(view['supply'])} · deck {esc(deck['count'])} cards · "
        f"discard pile {len(view['discard'])}</p>{_ending(snap, game, view)}"
    )
    if snap.my_turn:
        info += f'<p class="phase-hint">{esc(_hint(view["phase"]))}</p>'
    hand_html = ""
    reserve_html = ""
    if snap.seat is not None:
        mine = view["hands"][snap.seat]["known"]
        # Copies of one design are alike and the engine offers the first (C-R24): every copy
        # plays that copy's moves, and a copy that cannot be played asks about the first.
        design = game.cards.design
        first = {design[c]: min(x for x in mine if design[x] == design[c]) for c in mine}
        plays: dict[int, list[Action]] = {}
        for d, f in first.items():
            plays[d] = take(lambda a, f=f: getattr(a, "card", None) == f)
        cards = [_card(snap, game, c, plays[design[c]], probe=first[design[c]]) for c in mine]
        hand_html = (
            f'<h3 class="section-title">Your hand ({len(mine)})</h3>'
            '<div class="hand" data-hand>'
            f"{''.join(cards) or '<span class=muted>empty</span>'}</div>"
        )
        res = view["reserves"][snap.seat]["known"]
        rcards = [
            _card(snap, game, c, take(lambda a, c=c: getattr(a, "card", None) == c), "small")
            for c in res
        ]
        if rcards:
            reserve_html = (
                '<h3 class="section-title">Your reserve</h3>'
                f'<div class="row">{"".join(rcards)}</div>'
            )
    lines = "".join(_line(snap, game, view, s, vp[s], take) for s in _order(snap, view))
    controls, choosers = _controls(snap, game, take(lambda a: True))
    # the final scores and winners come from the server's result, never recounted here
    result = result_panel(snap, None, [])
    # the hand and what to do with it stay in sight at the foot of the window, however long
    # the lines above grow (a tall table put them below the fold)
    dock_cls = "hand-dock" if snap.my_turn else "hand-dock resting"
    dock = f'<div class="{dock_cls}">{controls}{hand_html}{reserve_html}{choosers}</div>'
    board = f'<div class="card-game">{info}{_conflict(snap, game)}{lines}{dock}</div>'
    return frame(snap, "Doctor Who: The Card Game", board, result)


def _ending(snap: Snapshot, game: CardGame, view: dict[str, Any]) -> str:
    """How the game ends and how near each way is: the End card (how many cards are still
    above it, C-2.4, C-6.2) and each seat's TARDIS and Dalek counters in play (C-6.1)."""
    deck = view["deck"]
    above = int(deck["count"]) - int(deck["below_end"])
    if view.get("endgame") or int(deck["below_end"]) < 0:
        end = (
            "<strong>The End card is out: End Game.</strong> One action per turn, no passing"
            " or drawing; it ends when the player to move can do nothing "
            + rule_link(snap, "C-6.3")
        )
    else:
        end = (
            f"End card: <strong>{above} card{'' if above == 1 else 's'} above it</strong>"
            f" in the deck; when it is drawn the End Game begins {rule_link(snap, 'C-6.2')}"
        )
    near = []
    for s in range(int(view["players"])):
        tardis = sum(1 for loc in view["locations"] if loc["owner"] == s and loc["tardis"])
        daleks = sum(1 for loc in view["locations"] if loc["attacker"] == s)
        near.append(
            f"{esc(snap.seat_name(s))}: TARDIS {tardis}/{COUNTERS}, Daleks {daleks}/{COUNTERS}"
        )
    counters = (
        f"or a player starts a turn with all {COUNTERS} TARDIS or all {COUNTERS} Dalek counters"
        f" in play {rule_link(snap, 'C-6.1')} ({'; '.join(near)})"
    )
    return (
        f'<p class="stat game-end" data-end-above="{above}">The game ends: {end}; {counters}.</p>'
    )


#: Events that belong to a conflict between its reveal and its result, and after it.
DURING = ("beaten", "turned", "ironsides", "decline")
AFTER = ("discard", "tardis", "return-to-hand", "valiant", "decline")


def _conflict(snap: Snapshot, game: CardGame) -> str:
    """The latest conflict step by step, from the seat's events: the cards revealed (with
    their strengths), what changed the sides, both strengths, and the result with what it
    did. Its `data-tile` lets the client's change highlight replay the steps when it is new."""
    events = snap.events
    at = next((i for i in range(len(events) - 1, -1, -1) if events[i]["kind"] == "conflict"), -1)
    if at < 0:
        return ""
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
    steps = []
    if reveal is not None:
        steps.append(
            '<li class="step"><strong>Reveal</strong>: Defenders '
            f"{esc(named(reveal['data'].get('defenders')))} · Enemies "
            f"{esc(named(reveal['data'].get('enemies')))}"
            + "".join(f"<br>{esc(e['text'])}" for e in during)
            + "</li>"
        )
    attack, defence = data.get("attack"), data.get("defence")
    attacker, owner = data.get("attacker"), data.get("owner")
    side = ""
    if isinstance(attacker, int) and isinstance(owner, int):
        side = f" ({esc(snap.seat_name(attacker))} against {esc(snap.seat_name(owner))})"
    steps.append(
        f'<li class="step"><strong>Strengths</strong>{side}: attack '
        f'<span class="num">{esc(attack)}</span> against defence '
        f'<span class="num">{esc(defence)}</span></li>'
    )
    winner = data.get("winner")
    won = {"attack": attacker, "defence": owner}.get(str(winner))
    by = f" ({esc(snap.seat_name(won))})" if isinstance(won, int) else ""
    steps.append(
        f'<li class="step"><strong>Result</strong>: the {esc(winner)}{by} wins'
        + "".join(f"<br>{esc(e['text'])}" for e in after)
        + "</li>"
    )
    return (
        f'<section class="conflict" data-tile="conflict" aria-label="Latest conflict">'
        f"<h3>Latest conflict: {esc(where)}</h3><ol>{''.join(steps)}</ol></section>"
    )


def _order(snap: Snapshot, view: dict[str, Any]) -> list[int]:
    """Other seats first (across the table), your own line last, nearest your hand."""
    n = int(view["players"])
    if snap.seat is None:
        return list(range(n))
    return [s for s in range(n) if s != snap.seat] + [snap.seat]


def _line(
    snap: Snapshot, game: CardGame, view: dict[str, Any], seat: int, vp: int, take: Any
) -> str:
    hand = view["hands"][seat]
    reserve = view["reserves"][seat]
    known = ""
    if seat != snap.seat and hand["known"]:
        names = ", ".join(game.cards.name[c] for c in hand["known"])
        known = f" · you know they hold: {esc(names)}"
    up = view["reserve_up"][seat]
    if up:
        known += " · reserve face-up: " + esc(", ".join(game.cards.name[c] for c in up))
    tardis = sum(1 for loc in view["locations"] if loc["owner"] == seat and loc["tardis"])
    daleks = sum(1 for loc in view["locations"] if loc["attacker"] == seat)
    take_acts = take(lambda a: isinstance(a, TakeTime) and a.seat == seat)
    locs = [
        _location(snap, game, L, loc, take)
        for L, loc in enumerate(view["locations"])
        if loc["owner"] == seat
    ]
    cls = "line seat-box to-move" if seat == snap.to_move and not snap.over else "line seat-box"
    title = "Your line" if seat == snap.seat else f"{snap.table_name(seat)}'s line"
    return (
        f'<section class="{cls}" data-seat="{seat}"'
        f"{act_attrs(snap, take_acts, 'Take Time Points')}>"
        f'<div class="line-head">{seat_chip(snap, seat)}<span class="stat">{esc(title)} · '
        f"{esc(view['time'][seat])} TP · {vp} VP now · hand {esc(hand['count'])} · reserve "
        f"{esc(reserve['count'])} · TARDIS {tardis} · Daleks {daleks}{known}</span></div>"
        f'<div class="locations">{"".join(locs) or "<span class=muted>no Locations yet</span>"}'
        "</div></section>"
    )


def _location(snap: Snapshot, game: CardGame, L: int, loc: dict[str, Any], take: Any) -> str:
    acts = take(lambda a: getattr(a, "location", None) == L and getattr(a, "card", None) is None)
    cs = game.cards
    cid = loc["card"]
    marks = ""
    if loc["tardis"]:
        marks += '<span class="token tardis" title="TARDIS counter">▣ TARDIS</span>'
    defenders = "".join(_card(snap, game, d, (), "mini") for d in loc["defenders"])
    strength = sum(cs.strength[d] for d in loc["defenders"] if isinstance(d, int))
    hidden = sum(1 for d in loc["defenders"] if not isinstance(d, int))
    defence = f"defence {strength}" + (f" + {hidden} face-down" if hidden else "")
    attack = ""
    if loc["attacker"] >= 0:
        enemies = "".join(_card(snap, game, e, (), "mini") for e in loc["enemies"])
        attack = (
            f'<div class="attack"><span class="token dalek" title="Dalek counter">⚔ Dalek '
            f"counter</span> attacked by {seat_chip(snap, loc['attacker'], turn_mark=False)}"
            f'<div class="row">{enemies}</div></div>'
        )
    return (
        f'<div class="location" data-tile="L{L}"{act_attrs(snap, acts, cs.name[cid])}>'
        f'<div class="loc-head">{_card(snap, game, cid, (), "small")}'
        f'<span class="stat">location {L}</span>{marks}</div>'
        f'<div class="defenders"><span class="stat">Defenders: {esc(defence)}</span>'
        f'<div class="row">{defenders}</div></div>{attack}</div>'
    )


#: What a choice of several cards does, as its chooser's heading says it.
CHOOSE_TEXT = {
    "PlaceReserve": "Put cards in your reserve",
    "DiscardForTime": "Discard cards for Time Points",
    "DiscardEnemies": "Discard Enemies",
}


def _controls(snap: Snapshot, game: CardGame, rest: list[Action]) -> tuple[str, str]:
    """Moves that belong to no card or place: one button each and one menu per kind, then
    a chooser for each choice of several cards (folded: it is seldom the move to make)."""
    if not rest:
        return "", ""
    groups: dict[str, list[Action]] = {}
    for a in rest:
        groups.setdefault(type(a).__name__, []).append(a)
    buttons = []
    choosers = []
    for kind, acts in groups.items():
        if len(acts) > 1 and all(isinstance(getattr(a, "cards", None), tuple) for a in acts):
            choosers.append(_chooser(snap, game, kind, acts))
        elif len(acts) == 1:
            cls = ' class="primary"' if kind == FINISH else ""
            buttons.append(
                f"<button{cls}{act_attrs(snap, acts)}>{esc(snap.label(acts[0]))}</button>"
            )
        else:
            words = "".join(" " + c.lower() if c.isupper() else c for c in kind).strip()
            buttons.append(
                f"<button{act_attrs(snap, acts, words.capitalize())}>"
                f"{esc(words.capitalize())}… ({len(acts)})</button>"
            )
    return f'<div class="turn-controls">{"".join(buttons)}</div>', "".join(choosers)


def _chooser(snap: Snapshot, game: CardGame, kind: str, acts: list[Action]) -> str:
    """A choice of several cards made as a selection and a confirm button: each card that
    some legal choice uses is a toggle, and the client enables the confirm button (with the
    chosen action's `data-action`) only when the selection is exactly one legal choice."""
    cards: dict[int, None] = {}
    for a in acts:
        cards.update(dict.fromkeys(getattr(a, "cards", ())))
    choices = json.dumps(
        [{"action": a.to_json(), "label": snap.label(a)} for a in acts], separators=(",", ":")
    )
    heading = CHOOSE_TEXT.get(kind, kind)
    toggles = "".join(
        f'<button type="button" class="pick-card" data-pick="{c}" aria-pressed="false"'
        f' title="{esc(snap.card_text(game.cards.name[c]))}">{esc(game.cards.name[c])}</button>'
        for c in cards
    )
    return (
        f'<details class="chooser-box"><summary>{esc(heading)}… ({len(acts)} choices)</summary>'
        f'<fieldset class="chooser" data-choices="{esc(choices)}">'
        f"<legend>{esc(heading)}: pick the cards, then confirm</legend>"
        f'<div class="row">{toggles}</div>'
        '<button type="button" class="confirm" disabled>Confirm</button> '
        '<span class="choice-label muted" aria-live="polite">Pick cards.</span></fieldset>'
        "</details>"
    )


def _hint(phase: str) -> str:
    """The phase's hint from the game's one phase table (its id if the table lacks it)."""
    words = PHASE_WORDS.get(phase)
    return words.hint if words else phase
