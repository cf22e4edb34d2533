"""Conflicts (C-5): reveal, special cards, Ironsides, comparing, and what each side loses.

A conflict may stop for three decisions: the defender's Ironsides (C-5.2), the defender's
The Valiant window after a lost defence (C-5.4, offered on every lost defence so that it
never shows who holds the card) and the attacker's choice among equally close sets of
Enemy cards to discard (C-5.5).
"""

from __future__ import annotations

from timelord.games.card_game.rules.common import (
    discard_attack,
    gain,
    hand_add,
    hand_remove,
    pay,
    place_tardis,
    publish,
    reserve_remove,
    steal,
    to_discard,
)
from timelord.games.card_game.rules.tell import place, say
from timelord.games.card_game.rules.turn import after_action
from timelord.games.card_game.state import IRON, MAIN, MATCH, VALIANT, CardGameState


def start_conflict(s: CardGameState, L: int, new_defs: tuple[int, ...]) -> None:
    """Resolve the conflict at location L; `new_defs` are Defenders played this action."""
    cs = s.cs
    owner = s.loc_owner[L]
    att = s.loc_att[L]
    defs = s.loc_def[L]
    ens = s.loc_en[L]
    up = s.loc_up[L]
    # C-5.1: everything turns face-up; reveal bonuses.
    publish(s, defs)
    publish(s, ens)
    if s.log is not None:
        say(s, "reveal", actor=None, defenders=list(defs), enemies=list(ens), **place(s, L))
    for d in defs:
        if "reveal-gain" in cs.effects[d]:
            gain(s, owner, int(cs.param(d, "reveal_tp", 1)))
    for i, e in enumerate(ens):
        if up >> i & 1 or not cs.is_enemy[e]:
            continue
        eff = cs.effects[e]
        if "reveal-gain" in eff:
            gain(s, att, int(cs.param(e, "reveal_tp", 1)))
        if "reveal-steal" in eff:
            steal(s, att, owner, int(cs.param(e, "reveal_tp", 1)))
    s.loc_up[L] = (1 << len(ens)) - 1
    # C-card-silurians: beaten outright by a named defender.
    dtypes = {cs.type[d] for d in defs}
    for e in ens:
        if cs.is_enemy[e] and "beaten-by" in cs.effects[e] and cs.param(e, "beaten_by") in dtypes:
            if s.log is not None:
                say(s, "beaten", actor=owner, card=e, **place(s, L))
            defender_wins(s, L)
            conflict_done(s)
            return
    gone = _astronaut_and_kovarian(s, L)
    if s.game.rules >= 2:
        # Defenders the Astronaut discarded were involved in this conflict: a lost defence
        # lets The Valiant bring them back too (ruling C-R32). Kept with the staged cards,
        # which are public, until the Valiant window closes.
        new_defs = new_defs + tuple(d for d in gone if d not in new_defs)
    if has_ironsides(s, owner) and s.tp[owner] >= ironsides_cost(s, owner):
        s.phase = IRON
        s.p_loc = L
        s.p_cards = new_defs
        s.p_n = 0
        return
    compare(s, L, new_defs, 0)


def _astronaut_and_kovarian(s: CardGameState, L: int) -> tuple[int, ...]:
    """C-card-impossible-astronaut, C-card-madame-kovarian; the Defenders discarded."""
    cs = s.cs
    gone: list[int] = []
    ens = list(s.loc_en[L])
    defs = list(s.loc_def[L])
    turns = {
        cs.param(e, "turns") for e in ens if cs.is_enemy[e] and "turns-defender" in cs.effects[e]
    }
    for a in [e for e in ens if cs.is_enemy[e] and "astronaut" in cs.effects[e]]:
        stop = cs.param(a, "stopped_by", "")
        victims = [d for d in defs if cs.type[d] == stop]
        if victims:
            ens.remove(a)
            to_discard(s, (a,))
            if s.log is not None:
                say(s, "discard", actor=s.loc_att[L], cards=[a], why="stopped", **place(s, L))
            if stop not in turns:
                defs.remove(victims[0])
                gone.append(victims[0])
                to_discard(s, (victims[0],))
                if s.log is not None:
                    say(s, "discard", actor=s.loc_owner[L], cards=[victims[0]], why="stopped")
        else:
            kill = cs.param(a, "removes", "")
            for d in [d for d in defs if cs.type[d] == kill]:
                defs.remove(d)
                gone.append(d)
                to_discard(s, (d,))
                if s.log is not None:
                    say(s, "discard", actor=s.loc_owner[L], cards=[d], why="removed", card=a)
    for d in list(defs):
        if cs.type[d] in turns:
            defs.remove(d)
            ens.append(d)
            if s.log is not None:
                say(s, "turned", actor=s.loc_att[L], card=d, **place(s, L))
    s.loc_en[L] = tuple(ens)
    s.loc_def[L] = tuple(defs)
    s.loc_up[L] = (1 << len(ens)) - 1
    return tuple(gone)


def has_ironsides(s: CardGameState, p: int) -> bool:
    cs = s.cs
    return any("ironsides" in cs.effects[c] for c in s.upres[p])


def ironsides_card(s: CardGameState, p: int) -> int:
    cs = s.cs
    return next(c for c in s.upres[p] if "ironsides" in cs.effects[c])


def ironsides_cost(s: CardGameState, p: int) -> int:
    return int(s.cs.param(ironsides_card(s, p), "cost", 1))


def use_ironsides(s: CardGameState, use: bool) -> None:
    L = s.p_loc
    owner = s.loc_owner[L]
    boost = 0
    if use:
        c = ironsides_card(s, owner)
        pay(s, owner, int(s.cs.param(c, "cost", 1)))
        boost = int(s.cs.param(c, "boost", 1))
        if s.log is not None:
            say(
                s, "ironsides", actor=owner, card=c, cost=int(s.cs.param(c, "cost", 1)), boost=boost
            )
    else:
        if s.log is not None:
            say(s, "decline", actor=owner, choice="ironsides")
    compare(s, L, s.p_cards, boost)


def strength(s: CardGameState, cards: tuple[int, ...]) -> int:
    st = s.cs.strength
    return sum(st[c] for c in cards)


def compare(s: CardGameState, L: int, new_defs: tuple[int, ...], boost: int) -> None:
    """C-5.2 to C-5.4."""
    cs = s.cs
    dstr = strength(s, s.loc_def[L]) + boost
    astr = strength(s, s.loc_en[L])
    if s.log is not None:
        won = "defence" if dstr >= astr else "attack"
        if s.log is not None:
            say(s, "conflict", actor=None, attacker=s.loc_att[L], owner=s.loc_owner[L],
                attack=astr, defence=dstr, winner=won, **place(s, L))  # fmt: skip
    if dstr >= astr:
        defender_wins(s, L)
        conflict_done(s)
        return
    owner = s.loc_owner[L]
    keep = []
    back = []
    for d in s.loc_def[L]:
        if "returns-to-hand" in cs.effects[d] and d not in new_defs:
            hand_add(s, owner, d)  # C-card-rory: public, everyone saw it go back
            back.append(d)
        else:
            keep.append(d)
    s.loc_def[L] = tuple(keep)
    if back and s.log is not None:
        say(s, "return-to-hand", actor=owner, cards=back)
    s.phase = VALIANT
    s.p_loc = L
    # rules 2: the involved Defenders already discarded (C-R32), for The Valiant to return
    s.p_cards = tuple(d for d in new_defs if d in s.discard) if s.game.rules >= 2 else ()
    s.p_n = dstr
    if s.game.rules >= 2:
        s.fought = tuple(sorted({*s.fought, L}))  # C-R33


def valiant_cards(s: CardGameState, p: int) -> list[int]:
    cs = s.cs
    out = [c for c in s.hands[p] if "valiant" in cs.effects[c]]
    out += [c for c in s.reserve[p] if "valiant" in cs.effects[c]]
    return out


def play_valiant(s: CardGameState, card: int | None) -> None:
    """C-card-the-valiant (card given) or the defenders are discarded (C-5.4)."""
    L = s.p_loc
    owner = s.loc_owner[L]
    defs = s.loc_def[L]
    if card is None:
        if s.log is not None:
            say(s, "decline", actor=owner, choice="valiant")
            if defs:
                say(s, "discard", actor=owner, cards=list(defs), why="conflict")
        to_discard(s, defs)
    else:
        if card in s.hands[owner]:
            hand_remove(s, owner, card)
        else:
            reserve_remove(s, owner, card)
        lost = s.p_cards  # Defenders discarded in this conflict (rules 2, C-R32)
        if lost:
            s.discard = tuple(c for c in s.discard if c not in lost)
        to_discard(s, (card,))
        for d in (*defs, *lost):
            hand_add(s, owner, d)
        if s.log is not None:
            say(s, "valiant", actor=owner, card=card, cards=[*defs, *lost])
    s.loc_def[L] = ()
    s.p_cards = ()
    options = matching_sets(s, L, s.p_n)
    if len(options) == 1:
        discard_enemies(s, L, options[0])
    else:
        s.phase = MATCH
        s.p_cards = ()


def matching_sets(s: CardGameState, L: int, target: int) -> list[tuple[int, ...]]:
    """C-5.5: the sets of Enemy cards whose strength comes closest to `target` without
    going over. Copies of one design are alike, so each distinct set is listed once."""
    cs = s.cs
    groups: dict[int, list[int]] = {}
    for e in s.loc_en[L]:
        if cs.strength[e] > 0:
            groups.setdefault(cs.design[e], []).append(e)
    keys = sorted(groups)
    for k in keys:
        groups[k].sort()
    sizes = [len(groups[k]) for k in keys]
    strengths = [cs.strength[groups[k][0]] for k in keys]
    n = len(keys)
    # Every count of each design, the last design's count turning fastest (an odometer:
    # `itertools.product` over ranges was most of a lost defence's cost, compiled).
    counts = [0] * n
    best = -1
    found: list[tuple[int, ...]] = []
    while True:
        total = 0
        for j in range(n):
            total += counts[j] * strengths[j]
        if best <= total <= target:
            chosen: list[int] = []
            for j in range(n):
                chosen += groups[keys[j]][: counts[j]]
            cards = tuple(sorted(chosen))
            if total > best:
                best = total
                found = [cards]
            else:
                found.append(cards)
        j = n - 1
        while j >= 0 and counts[j] == sizes[j]:
            counts[j] = 0
            j -= 1
        if j < 0:
            break
        counts[j] += 1
    found.sort()
    return found


def discard_enemies(s: CardGameState, L: int, cards: tuple[int, ...]) -> None:
    ens = [e for e in s.loc_en[L] if e not in cards]
    to_discard(s, cards)
    if s.log is not None:
        say(s, "discard", actor=s.loc_att[L], cards=list(cards), why="conflict", **place(s, L))
    s.loc_en[L] = tuple(ens)
    s.loc_up[L] = (1 << len(ens)) - 1
    conflict_done(s)


def defender_wins(s: CardGameState, L: int) -> None:
    """C-5.3: every card involved is discarded; TARDIS on; the Dalek counter goes home."""
    if s.loc_def[L] and s.log is not None:
        say(s, "discard", actor=s.loc_owner[L], cards=list(s.loc_def[L]), why="conflict")
    to_discard(s, s.loc_def[L])
    s.loc_def[L] = ()
    discard_attack(s, L)
    place_tardis(s, L)


def conflict_done(s: CardGameState) -> None:
    s.phase = MAIN
    s.p_loc = -1
    s.p_cards = ()
    s.p_n = 0
    after_action(s)


__all__ = ["MATCH", "start_conflict"]
